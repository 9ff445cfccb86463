"""The conformance suite on the B-17 raid under several scenario options, with the raid's own illegal probes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from grognard.core.dice import SeededDice
from grognard.core.engine import Decision, Game
from grognard.core.errors import IllegalAction
from grognard.core.play import play_out
from grognard.rulesets.b17 import RULESET, B17Game
from grognard.rulesets.b17.actions import Fly, Guns, PlaceBox
from grognard.rulesets.b17.game import FlySpace, PlaceSpace
from grognard.testing.conformance import check_all, random_playout


def b17_probes(game: Game, decision: Decision) -> list[Any]:
    """Illegal actions for ``decision``'s seat: a move longer than the allowance, too little straight flight,
    a bomber turning 120 degrees, an attack from across the table, a bomber attacking, a box in the wrong place."""
    assert isinstance(game, B17Game)
    space = decision.space
    out: list[Any] = []
    if isinstance(space, FlySpace):
        a = space.aircraft
        length = game.allowance(a)
        out.append(Fly(a.label, length + 5.0, 0.0))
        out.append(Fly(a.label, 1.0, 30.0))
        if a.bomber:
            out.append(Fly(a.label, 3.0, 120.0))
            fighters = game.flying_fighters()
            if fighters:
                out.append(Fly(a.label, 3.0, 0.0, "B1", 5.0))
        else:
            far = max(game.flying_bombers(), key=lambda b: abs(b.x - a.x) + abs(b.y - a.y), default=None)
            if far is not None and abs(far.x - a.x) + abs(far.y - a.y) > 40:
                out.append(Fly(a.label, length, 0.0, far.label, 0.0))
    elif isinstance(space, PlaceSpace):
        good = space.candidates(1)[0]
        out.append(PlaceBox(good.box, tuple((x + 20.0, y) for x, y in good.positions)))  # beyond 18"
        out.append(PlaceBox(good.box, good.positions[:3]))
    elif decision.id.startswith("guns "):
        _, bomber, fighter = decision.id.split()
        out.append(Guns(bomber, fighter, "all"))
    return out


CASES = {
    "standard": {},
    "enlarged with arcs": {"enlarged": True, "firing_arcs": True, "fighter_type": "mixed", "turn_cap": 25},
    "flak every turn, bound fighters": {"flak_every_turn": True, "auto_intercept": True, "head_on_tolerance": 30.0},
    "the largest models, enlarged": {"enlarged": True, "bomber_length": 4.0, "bomber_span": 9.5, "fighter_scale": 3.0},
    "the smallest models": {"bomber_length": 0.5, "bomber_span": 0.5, "fighter_scale": 0.25, "turn_cap": 15},
}


@pytest.mark.parametrize("options", list(CASES.values()), ids=list(CASES))
def test_b17_conforms(options: dict[str, Any]) -> None:
    counts = check_all(RULESET, options, seeds=(1, 2), probes=b17_probes)
    assert counts["games"] == 2
    assert counts["steps"] > 2 * 5
    assert counts["illegal_tried"] > counts["steps"] // 3
    assert counts["secret_commits"] == 0  # the raid has no secrets


def test_doctrine_games_conform_on_the_checked_path() -> None:
    """Doctrine bots on both sides: every action they choose is legal, and the game reaches its result."""
    for seed in (1, 2, 3):
        game = RULESET.create({}, SeededDice(seed))
        bot = RULESET.bots["doctrine"](np.random.default_rng(seed))
        result = play_out(game, lambda seat, bot=bot: bot)  # type: ignore[misc]
        assert result.outcome == "win"
        assert result.winner == ("american" if game.state.hits >= 3 else "german")


def test_the_probes_are_refused_for_the_reason_they_target() -> None:
    rules_seen: set[str] = set()

    def before(game: Game, decision: Decision, action: Any) -> None:
        for probe in b17_probes(game, decision):
            try:
                decision.space.check(probe)
            except IllegalAction as exc:
                assert exc.rule is not None and exc.rule.startswith("b17."), exc
                rules_seen.add(exc.rule)
            else:
                raise AssertionError(f"probe {probe} is legal")

    for seed in (1, 2):
        random_playout(RULESET, {}, seed, before=before)
    assert {"b17.12", "b17.14", "b17.29"} <= rules_seen, rules_seen
