"""The conformance suite on Omaha under several scenario options, with Omaha's own illegal actions as probes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from grognard.core.dice import SeededDice
from grognard.core.engine import Decision, Game
from grognard.core.errors import IllegalAction
from grognard.core.play import play_out
from grognard.rulesets.omaha import RULESET, OmahaGame
from grognard.rulesets.omaha.actions import Artillery, BunkerFire, Fight, Move
from grognard.rulesets.omaha.spaces import OrdersSpace, TargetSpace
from grognard.testing.conformance import check_all, random_playout


def omaha_probes(game: Game, decision: Decision) -> list[Any]:
    """Omaha-specific illegal actions for ``decision``'s seat: a 20" move, a fight with more figures than
    the squad has, fire at (or artillery on) a squad that is not on the beach."""
    assert isinstance(game, OmahaGame)
    space = decision.space
    out: list[Any] = []
    if isinstance(space, OrdersSpace):
        squad = space.move.squad
        out.append(Move(squad.label, squad.x, squad.y + 20.0))
        out.append(Move(squad.label, squad.x + 20.0, squad.y))
        kinds = space.fight.kinds() or ["shoot"]
        out.append(Fight(squad.label, **{kinds[0]: squad.figures + 1}))
        if len(kinds) > 1:
            out.append(Fight(squad.label, **{kinds[0]: squad.figures, kinds[1]: 1}))
        out.append(Fight(squad.label, shoot=-1))
    elif isinstance(space, TargetSpace):
        americans = game.state.americans
        absent = [a.label for a in americans if a.squad is None] + [f"A{len(americans) + 1}"]
        make = Artillery if space.artillery else BunkerFire
        out += [make(space.who, label) for label in absent]
        if space.artillery:
            past = [a.label for a in americans if a.squad is not None and a.label not in space.targets]
            out += [Artillery(space.who, label) for label in past]  # past the sea wall
    return out


CASES = {
    "one German": {"germans": 1, "turn_cap": 12},
    "optional rules": {
        "germans": 2,
        "deep_water": True,
        "hidden_obstacles": True,
        "fresh_squads": 2,
        "out_joins_germans": True,
        "turn_cap": 15,
    },
    "class period": {"germans": 1, "period_turns": 5},
}


@pytest.mark.parametrize("options", list(CASES.values()), ids=list(CASES))
def test_omaha_conforms(options: dict[str, Any]) -> None:
    counts = check_all(RULESET, options, seeds=(1, 2, 3), probes=omaha_probes)
    assert counts["games"] == 3
    assert counts["steps"] > 3 * 10
    assert counts["illegal_tried"] > counts["steps"] // 3  # every third step at least one refusal
    assert counts["secret_commits"] == 0 and counts["secrets_checked"] == 0  # Omaha has no secrets


def test_class_period_ends_scored() -> None:
    result = random_playout(RULESET, CASES["class period"], 4).game.result
    assert result is not None and (result.outcome, result.turn) == ("scored", 5)
    assert {"exits_open", "american_losses", "german_losses"} <= set(result.scores)


def test_the_probes_are_refused_for_the_reason_they_target() -> None:
    """The probes are not refused by accident: each breaks the rule it aims at."""
    seen: dict[str, int] = {"move": 0, "fight": 0, "fire": 0}

    def refusal(space: Any, action: Any) -> IllegalAction:
        try:
            space.check(action)
        except IllegalAction as exc:
            return exc
        raise AssertionError(f"probe {action} is legal")

    def before(game: Game, decision: Decision, action: Any) -> None:
        space = decision.space
        if isinstance(space, OrdersSpace):
            squad = space.move.squad
            error = refusal(space, Move(squad.label, squad.x, squad.y + 20.0))
            assert error.rule in ("omaha.14", "omaha.5"), error  # too far, or off the table inland
            seen["move"] += error.rule == "omaha.14"
            if space.fight.kinds():
                error = refusal(space, Fight(squad.label, **{space.fight.kinds()[0]: squad.figures + 1}))
                assert error.rule == "omaha.13" and "one action per figure" in str(error), error
                seen["fight"] += 1
        elif isinstance(space, TargetSpace) and not space.artillery:
            error = refusal(space, BunkerFire(space.who, f"A{len(game.state.americans) + 1}"))
            assert error.rule == "omaha.19" and "is not on the beach" in str(error), error
            seen["fire"] += 1
        for probe in omaha_probes(game, decision):
            refusal(space, probe)

    for seed in (1, 2):
        random_playout(RULESET, {"germans": 1, "turn_cap": 12}, seed, before=before)

    class Probing:
        """A doctrine bot (it rushes the sea wall, where fights happen) that probes before it chooses."""

        def __init__(self, rng: np.random.Generator) -> None:
            self.bot = RULESET.bots["doctrine"](rng)

        def choose(self, game: Game, decision: Decision) -> Any:
            before(game, decision, None)
            return self.bot.choose(game, decision)

    for seed in (1, 2, 3):
        game = RULESET.create({"germans": 1, "turn_cap": 20}, SeededDice(seed))
        probing = Probing(np.random.default_rng(seed))
        play_out(game, lambda seat, bot=probing: bot)  # type: ignore[misc]
    assert all(seen.values()), seen
