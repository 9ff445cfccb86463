"""The conformance suite on the skirmish rules (part 1), with skirmish's own illegal actions as probes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from grognard.core.dice import SeededDice
from grognard.core.engine import Decision, Game
from grognard.core.errors import IllegalAction
from grognard.core.play import play_out
from grognard.rulesets.skirmish import RULESET, SkirmishGame
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish.actions import Burst, Drive, Fire, Move, Order, Stop
from grognard.rulesets.skirmish.artillery import BurstSpace
from grognard.rulesets.skirmish.driving import DriveSpace
from grognard.rulesets.skirmish.fire import FireSpace
from grognard.rulesets.skirmish.moving import MoveSpace
from grognard.testing.conformance import check_all, random_playout


def skirmish_probes(game: Game, decision: Decision) -> list[Any]:
    """Illegal actions for ``decision``: a 20" move, a move onto an enemy, another unit's man, fire at a friend."""
    assert isinstance(game, SkirmishGame)
    space = decision.space
    out: list[Any] = []
    if isinstance(space, MoveSpace):
        men = M.living(game.ctx, space.unit)
        leader = men[0]
        out.append(Move(space.unit, ((leader.x, leader.y + 20.0),)))
        out.append(Move(space.unit, ((leader.x + 20.0, leader.y),)))
        enemies = M.enemies(game.ctx, leader.side)
        if enemies:
            e = enemies[0]
            out.append(Move(space.unit, ((e.x, e.y),)))
        stranger = next(f for f in game.state.figures.values() if f.unit != space.unit)
        out.append(Move(space.unit, (), (Order(stranger.id, "stay"),)))
    elif isinstance(space, DriveSpace):
        v = game.state.vehicles[space.vehicle]
        out.append(Drive(space.vehicle, ((v.x, v.y + 40.0),)))  # beyond any vehicle's move (skirmish.23)
        stranger = next(f for f in game.state.figures.values() if f.aboard != v.id)
        out.append(Drive(space.vehicle, (), None, Stop("unload", (stranger.id,))))  # not aboard (skirmish.61)
    elif isinstance(space, FireSpace):
        unit = M.unit(game.ctx, space.unit)
        friend = next(u for u in game.state.units.values() if u.side == unit.side)
        out.append(Fire(space.unit, friend.id))
        stranger = next(f for f in game.state.figures.values() if f.unit != space.unit)
        out.append(Fire(space.unit, None, ((stranger.id, "hold"),)))
    elif isinstance(space, BurstSpace):
        out.append(Burst(space.by, (-3.0, -3.0)))  # off the table (skirmish.12)
        out.append(Burst(space.by, (24.0, 20.0), 0.0, "no_such_shape"))  # not a template of its class
    return out


CASES = {
    "hill assault": {"turn_limit": 5},
    "proving ground": {"scenario": "proving_ground", "turn_limit": 5},
    "river town": {"scenario": "river_town", "turn_limit": 5},
    "convoy": {"scenario": "convoy", "turn_limit": 3},
    "landing": {"scenario": "landing", "turn_limit": 3},
    "village street, two commanders a side": {"scenario": "village_street", "commanders": 2, "turn_limit": 5},
}


@pytest.mark.parametrize("options", list(CASES.values()), ids=list(CASES))
def test_skirmish_conforms(options: dict[str, Any]) -> None:
    counts = check_all(RULESET, options, seeds=(1, 2), probes=skirmish_probes)
    assert counts["games"] == 2
    assert counts["steps"] > 2 * 20
    assert counts["illegal_tried"] > counts["steps"] // 3
    assert counts["secret_commits"] == 0  # part 1 has no secret choices (part 2's melee brings them)


def test_skirmish_conforms_with_artillery() -> None:
    counts = check_all(RULESET, {"scenario": "gun_line", "turn_limit": 4}, seeds=(1,), probes=skirmish_probes)
    assert counts["games"] == 1
    assert counts["illegal_tried"] > counts["steps"] // 3


def test_the_probes_are_refused_for_the_reason_they_target() -> None:
    seen = {"too far": 0, "contact": 0, "friend": 0}

    def before(game: Game, decision: Decision, action: Any) -> None:
        assert isinstance(game, SkirmishGame)
        for probe in skirmish_probes(game, decision):
            with pytest.raises(IllegalAction) as info:
                decision.space.check(probe)
            rule = info.value.rule
            if isinstance(probe, Move) and probe.path and rule in ("skirmish.21", "skirmish.3", "skirmish.51"):
                seen["too far"] += 1
            if rule == "skirmish.10":
                seen["contact"] += 1
            if isinstance(probe, Fire) and probe.target and "not an enemy unit" in str(info.value):
                seen["friend"] += 1

    for seed in (3, 4):
        random_playout(RULESET, {"turn_limit": 8}, seed, before=before)
    assert all(seen.values()), seen


@pytest.mark.parametrize(
    "scenario",
    [
        "hill_assault",
        "proving_ground",
        "village_street",
        "river_town",
        "gun_line",
        "gun_line_armour",
        "convoy",
        "landing",
    ],
)
def test_the_shipped_scenarios_play_to_a_result_with_doctrine_bots(scenario: str) -> None:
    outcomes = []
    for seed in (1, 2, 3):
        game = RULESET.create({"scenario": scenario}, SeededDice(seed))
        bots = {seat: RULESET.bots["doctrine"](np.random.default_rng(seed)) for seat in game.seats()}
        result = play_out(game, lambda seat, bots=bots: bots[seat])
        assert result.outcome in ("win", "draw")
        assert game.state.stats["losses"]["allies"] + game.state.stats["losses"]["axis"] > 0
        outcomes.append(result)
    assert all(r.turn <= 12 for r in outcomes)


@pytest.mark.parametrize("scenario", ["hill_assault", "village_street"])
def test_the_shipped_scenarios_play_to_a_result_with_random_bots_melee_included(scenario: str) -> None:
    from grognard.bots.random_bot import RandomBot

    kinds: set[str] = set()
    for seed in (1, 2, 3):
        game = RULESET.create({"scenario": scenario}, SeededDice(seed))
        bot = RandomBot(np.random.default_rng(seed))

        def note(d: Any, a: Any, events: list[Any]) -> None:
            kinds.update(e.kind for e in events)

        result = play_out(game, lambda seat, bot=bot: bot, on_step=note)
        assert result.outcome in ("win", "draw")
    if scenario == "village_street":  # on the hill, random walks seldom close to a base's width
        assert "melee_round" in kinds, "random play never reached a melee"
