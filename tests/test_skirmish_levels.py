"""The skirmish's levels: the book's counter-attack and its seeded variety."""

from __future__ import annotations

from typing import Any

import numpy as np

from grognard.core.dice import ScriptedDice
from grognard.core.engine import Decision
from grognard.rulesets.skirmish import RULESET
from grognard.rulesets.skirmish import bots as B
from grognard.rulesets.skirmish.actions import Fire
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.moving import MoveSpace
from grognard.rulesets.skirmish.scenario import scenario_from_data

RIVER = {"kind": "river", "id": "RIV", "line": [[0.0, 40.0], [48.0, 40.0]], "width": 4.0}


def counter_attack() -> SkirmishGame:
    """A defender's section comes on from the north on move 1, a 4" river (y 38-42) between it and the square."""
    data = {
        "name": "river",
        "title": "counter-attack across a river",
        "first_mover": "allies",
        "table": {"width": 48.0, "depth": 48.0},
        "sides": [
            {"id": "allies", "name": "Allies", "edge": "south"},
            {"id": "axis", "name": "Axis", "edge": "north"},
        ],
        "terrain": [RIVER],
        "units": [
            {"id": "A", "side": "allies", "figures": [{"at": [2.0, 2.0]}]},
            {"id": "G", "side": "axis", "figures": [{"at": [24.0, 30.0]}]},
            {
                "id": "R",
                "side": "axis",
                "enters": 1,
                "figures": [{"at": [22.0, 49.0]}, {"at": [24.0, 49.0]}, {"at": [26.0, 49.0]}],
            },
        ],
        "objectives": [{"id": "square", "shape": [[19, 26], [29, 26], [29, 34], [19, 34]]}],
        "victory": {"attacker": "allies", "objectives": ["square"], "turn_limit": 10},
    }
    return SkirmishGame(RULESET.resolve({}), ScriptedDice([]), scenario=scenario_from_data(data, "river"))


def play_turns(game: SkirmishGame, turns: int, bot: Any, units: set[str]) -> None:
    """``turns`` turns: ``bot`` answers the decisions of ``units``, every other unit holds and holds fire."""
    while game.turn <= turns and game.result is None:
        decision: Decision = game.pending()[0]
        unit = decision.id.split()[1]
        if unit in units:
            action = bot.choose(game, decision)
        elif isinstance(decision.space, MoveSpace):
            action = decision.space.hold()
        else:
            action = Fire(unit, None)
        game.apply(decision.seat, action)


def test_the_counter_attack_section_crosses_the_river_to_the_objective() -> None:
    game = counter_attack()
    play_turns(game, 3, B.DoctrineBot(np.random.default_rng(0)), {"R"})
    men = [f for f in game.state.figures.values() if f.unit == "R"]
    assert all(f.on_table for f in men)
    assert all(f.y < 38.0 for f in men), [(f.x, f.y) for f in men]  # over the river, south of its bank
    assert all(f.y <= 36.0 for f in men)  # and on to the square (y 26-34): within 2" of it


def test_the_book_draws_its_waypoints_and_first_mortar_shot_from_its_stream() -> None:
    """No fixed plan: the attacker's waypoints and the mortar's first shot differ between the bot's seeds, and
    the same seed gives the same order."""
    from grognard.core.dice import DICE, SeededDice, stream
    from grognard.rulesets.skirmish.artillery import BurstSpace
    from grognard.rulesets.skirmish.bots_fire import burst_order

    game = RULESET.create({"scenario": "hill_assault"}, SeededDice(stream(1, 0, DICE)))
    book = B.DoctrineBot(np.random.default_rng(0))
    moves: list[int] = []
    bursts: list[int] = []
    while game.turn <= 3:
        d = game.pending()[0]
        space = d.space
        if isinstance(space, MoveSpace) and game.side_of(d.seat) == "allies":
            orders = [B.move_order(game.ctx, space, np.random.default_rng(k)) for k in range(8)]
            assert orders[0] == B.move_order(game.ctx, space, np.random.default_rng(0))
            moves.append(len(set(orders)))
        if isinstance(space, BurstSpace) and not bursts:
            shots = [burst_order(game.ctx, space, np.random.default_rng(k)) for k in range(8)]
            assert shots[3] == burst_order(game.ctx, space, np.random.default_rng(3))
            assert all(space.contains(s) for s in shots)
            bursts.append(len(set(shots)))
        game.apply(d.seat, book.choose(game, d), checked=False)
    assert max(moves) > 1 and bursts and bursts[0] > 1, (moves, bursts)

