"""The skirmish doctrine bot: it advances from cover to cover and fires at the most valuable target in range."""

from __future__ import annotations

from typing import Any

import numpy as np

from grognard.core.dice import ScriptedDice
from grognard.rulesets.skirmish import RULESET
from grognard.rulesets.skirmish.actions import Fire, Move
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.scenario import scenario_from_data


def make(units: list[dict[str, Any]], terrain: list[dict[str, Any]]) -> SkirmishGame:
    data = {
        "name": "bots",
        "title": "bot test",
        "first_mover": "allies",
        "table": {"width": 48.0, "depth": 48.0},
        "sides": [
            {"id": "allies", "name": "Allies", "edge": "south"},
            {"id": "axis", "name": "Axis", "edge": "north"},
        ],
        "terrain": terrain,
        "units": units,
        "objectives": [{"id": "top", "shape": [[20, 40], [28, 40], [28, 46], [20, 46]]}],
        "victory": {"attacker": "allies", "objectives": ["top"], "turn_limit": 10},
    }
    return SkirmishGame(RULESET.resolve({}), ScriptedDice([]), scenario=scenario_from_data(data, "bots"))


def test_the_attacker_advances_into_cover_on_the_way_to_the_objective() -> None:
    woods = {"kind": "woods", "id": "WD", "shape": [[22, 13], [26, 13], [26, 17], [22, 17]]}
    game = make(
        [
            {"id": "A", "side": "allies", "figures": [{"at": [24, 10]}]},
            {"id": "G", "side": "axis", "figures": [{"at": [24, 44]}]},
        ],
        [woods],
    )
    decision = game.pending()[0]
    move = DoctrineBot(np.random.default_rng(0)).choose(game, decision)
    assert isinstance(move, Move) and move.path
    x, y = move.path[-1]
    assert game.ctx.terrain.inside("woods", x, y)  # the woods, not the full 6" into the open
    assert y > 10.0


def test_the_defender_holds_while_most_of_his_men_have_cover() -> None:
    wall = {"kind": "stone_wall", "line": [[18, 30], [30, 30]]}
    game = make(
        [
            {"id": "A", "side": "allies", "figures": [{"at": [24, 10]}]},
            {"id": "G", "side": "axis", "figures": [{"at": [22, 30.6]}, {"at": [26, 30.6]}]},
        ],
        [wall],
    )
    game.apply("Allies", Move("A"))
    decision = game.pending()[0]
    assert decision.id == "move G"
    assert DoctrineBot(np.random.default_rng(0)).choose(game, decision) == Move("G")


def test_fire_goes_to_the_most_valuable_target_in_range() -> None:
    game = make(
        [
            {"id": "A", "side": "allies", "figures": [{"at": [20, 10]}, {"at": [22, 10]}]},
            {"id": "G", "side": "axis", "figures": [{"at": [16, 16]}, {"at": [18, 16]}]},
            {"id": "M", "side": "axis", "figures": [{"at": [28, 20], "weapon": "mg"}]},
        ],
        [],
    )
    game.apply("Allies", Move("A"))
    game.apply("Axis", Move("G"))
    game.apply("Axis", Move("M"))
    decision = next(d for d in game.pending() if d.id == "fire A")
    # the riflemen are closer (4+ each) but the MG gunner is worth three of them (5+ at 12-24")
    assert DoctrineBot(np.random.default_rng(0)).choose(game, decision) == Fire("A", "M")
