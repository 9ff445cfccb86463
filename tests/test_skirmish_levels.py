"""The skirmish's levels: the book's counter-attack and its seeded variety, ``beginner`` and ``hard``."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from grognard.core.dice import ScriptedDice
from grognard.core.engine import Decision
from grognard.rulesets.skirmish import RULESET
from grognard.rulesets.skirmish import bots as B
from grognard.rulesets.skirmish.actions import Fire, Move
from grognard.rulesets.skirmish.book import DoctrineBot
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
    play_turns(game, 3, DoctrineBot(np.random.default_rng(0)), {"R"})
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
    book = DoctrineBot(np.random.default_rng(0))
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


def play_levels(seed: int, bots: dict[str, str], turns: int) -> tuple[SkirmishGame, list[Any]]:
    """village_street, seed ``seed``: each side's bot (by level name) to the end of move ``turns``, every
    action checked; the game and the actions played."""
    from grognard.core.dice import BOTS, DICE, SeededDice, stream

    game = RULESET.create({"scenario": "village_street"}, SeededDice(stream(seed, DICE)))
    assert isinstance(game, SkirmishGame)
    players = {s: RULESET.bots[bots[s]](np.random.default_rng(stream(seed, BOTS, k))) for k, s in enumerate(bots)}
    played: list[Any] = []
    while game.turn <= turns and game.result is None:
        d = game.pending()[0]
        action = players[game.side_of(d.seat)].choose(game, d)
        game.apply(d.seat, action)  # checked: an illegal choice raises
        played.append(action)
    return game, played


def test_beginner_and_hard_are_legal_and_the_same_for_a_seed() -> None:
    for bots in ({"allies": "beginner", "axis": "hard"}, {"allies": "hard", "axis": "beginner"}):
        game, played = play_levels(4, bots, 3)
        again, replayed = play_levels(4, bots, 3)
        assert played == replayed and game.state_json() == again.state_json()
        assert len(played) > 20


def test_the_beginner_forgets_cover_and_hesitates_where_the_book_would_not() -> None:
    """Against the book's orders at the same decisions: some held, some straight on where the book took cover,
    some fire at another unit; never a random order (each is the book's, a hold or a straight walk)."""
    from grognard.rulesets.skirmish.bots_levels import BeginnerBot

    game, _ = play_levels(5, {"allies": "doctrine", "axis": "doctrine"}, 1)
    book_bot = DoctrineBot(np.random.default_rng(0))
    while not (isinstance(game.pending()[0].space, MoveSpace) and game.side_of(game.pending()[0].seat) == "allies"):
        d = game.pending()[0]
        game.apply(d.seat, book_bot.choose(game, d))
    held = straight = same = 0
    for k in range(40):
        for d in game.pending():
            if not isinstance(d.space, MoveSpace) or game.side_of(d.seat) != "allies":
                continue
            book = B.move_order(game.ctx, d.space, np.random.default_rng(k))
            mine = BeginnerBot(np.random.default_rng(k)).choose(game, d)
            assert d.space.contains(mine)
            if mine == book:
                same += 1
            elif not mine.path:
                held += 1
            else:
                straight += 1
    assert held and straight and same > held, (held, straight, same)


def test_hard_aims_without_touching_the_game_or_its_dice_and_moves_as_the_book() -> None:
    from grognard.rulesets.skirmish.bots_levels import HardBot
    from grognard.rulesets.skirmish.fire import FireSpace

    game, _ = play_levels(6, {"allies": "book", "axis": "book"}, 2)
    hard, book = HardBot(np.random.default_rng(0)), DoctrineBot(np.random.default_rng(1))
    twin = DoctrineBot(np.random.default_rng(0))  # the book on hard's stream: every order but fire alike
    aimed = 0
    while game.turn <= 4 and game.result is None:
        decision = game.pending()[0]
        before, dice = game.state_json(), copy.deepcopy(game.dice)
        mine = hard.choose(game, decision)
        assert game.state_json() == before
        assert list(game.dice.roll(5, purpose="test")) == list(dice.roll(5, purpose="test"))  # no die drawn
        if isinstance(decision.space, FireSpace):
            assert decision.space.contains(mine)
            aimed += bool(mine.orders)
        else:  # the book's order, at the charge odds hard gives its side (the defender's bolder)
            twin.charge_ratio = hard.book.charge_ratio
            assert mine == twin.choose(game, decision)
        game.dice = dice  # the dice as they were: the test's own rolls above are not the game's
        game.apply(decision.seat, book.choose(game, decision))
    assert aimed


def test_hard_aims_each_man_at_the_enemy_in_the_open_before_the_one_in_cover() -> None:
    """Aimed fire: two riflemen fire at a unit of two, one behind a wall; the book's order spreads its dice
    over both (the engine shares a unit's fire out), hard puts both on the man in the open (a die there
    kills 2/9 of the time, a second 0.19 more: more than the man behind the wall's 1/9)."""
    from grognard.rulesets.skirmish import fire as FI
    from grognard.rulesets.skirmish.bots_levels import HardBot
    from grognard.rulesets.skirmish.fire import FireSpace

    wall = {"kind": "stone_wall", "line": [[14, 17], [16, 17]]}
    units = [
        {"id": "A", "side": "allies", "figures": [{"at": [20, 10]}, {"at": [22, 10]}]},
        {"id": "G", "side": "axis", "figures": [{"at": [15, 17.6]}, {"at": [26, 16]}]},
    ]
    data = {
        "name": "aim",
        "title": "aimed fire",
        "first_mover": "allies",
        "table": {"width": 48.0, "depth": 48.0},
        "sides": [
            {"id": "allies", "name": "Allies", "edge": "south"},
            {"id": "axis", "name": "Axis", "edge": "north"},
        ],
        "terrain": [wall],
        "units": units,
        "objectives": [{"id": "top", "shape": [[20, 40], [28, 40], [28, 46], [20, 46]]}],
        "victory": {"attacker": "allies", "objectives": ["top"], "turn_limit": 10},
    }
    game = SkirmishGame(RULESET.resolve({}), ScriptedDice([]), scenario=scenario_from_data(data, "aim"))
    game.apply("Allies", Move("A"))
    game.apply("Axis", Move("G"))
    decision = next(d for d in game.pending() if d.id == "fire A")
    assert isinstance(decision.space, FireSpace)
    table = FI.shot_table(game.ctx)
    covered, open_ = (table["A.1"][g] for g in ("G.1", "G.2"))
    assert covered.shift < open_.shift or (covered.cover and not open_.cover)  # the wall covers G.1 only
    book = DoctrineBot(np.random.default_rng(0)).choose(game, decision)
    hard = HardBot(np.random.default_rng(0)).choose(game, decision)
    assert decision.space.contains(hard)
    assert {t for _, t in hard.orders} == {"G.2"}, hard
    assert sorted(o.target for o in FI.plan_fire(game.ctx, book)) == ["G.1", "G.2"]


def test_hard_defender_charges_at_odds_the_book_declines() -> None:
    """Bold defender: a German moving first can charge one of three Americans who may all join the melee:
    the first round's expected dead are 0.5 of theirs to 0.67 of ours (0.75): the book (1.0) stays put,
    hard's defender (0.6) charges; hard as the attacker would not."""
    from grognard.rulesets.skirmish.bots_levels import HardBot

    data = {
        "name": "bold",
        "title": "bold defender",
        "first_mover": "axis",
        "table": {"width": 48.0, "depth": 48.0},
        "sides": [
            {"id": "allies", "name": "Allies", "edge": "south"},
            {"id": "axis", "name": "Axis", "edge": "north"},
        ],
        "terrain": [],
        "units": [
            {"id": "A", "side": "allies", "figures": [{"at": [24, 34]}, {"at": [26, 35]}, {"at": [22, 35]}]},
            {"id": "G", "side": "axis", "figures": [{"at": [24, 30]}]},
        ],
        "objectives": [{"id": "top", "shape": [[20, 28], [28, 28], [28, 32], [20, 32]]}],
        "victory": {"attacker": "allies", "objectives": ["top"], "turn_limit": 10},
    }
    game = SkirmishGame(RULESET.resolve({}), ScriptedDice([]), scenario=scenario_from_data(data, "bold"))
    decision = game.pending()[0]
    assert decision.id == "move G" and isinstance(decision.space, MoveSpace)
    book = DoctrineBot(np.random.default_rng(0)).choose(game, decision)
    hard = HardBot(np.random.default_rng(0)).choose(game, decision)
    assert not B.touches(game.ctx, book)
    assert decision.space.contains(hard) and B.touches(game.ctx, hard)


def test_a_game_of_beginner_against_hard_replays_and_plays_again_alike(tmp_path: Any, capsys: Any) -> None:
    """grognard play with the two new levels, recorded; grognard replay checks every die and digest; the
    same command again writes the same record (each level deterministic for the game's seed)."""
    from grognard.cli import main

    args = ["play", "skirmish", "village_street", "--seed", "4", "--bots", "allies=beginner", "--bots", "axis=hard"]
    first, second = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert main([*args, "--record", str(first), "-q"]) == 0
    assert main([*args, "--record", str(second), "-q"]) == 0
    assert first.read_text(encoding="utf-8") == second.read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(first)]) == 0
    assert "every die and digest matches the record" in capsys.readouterr().out


def test_the_search_scores_the_counter_attack_nearer_the_objective_higher() -> None:
    """The search's leaf score (evaluate) counts the defender's counter-attack on its way as it counts the
    attacker's progress: the section across the river scores better for its side than on the far bank (the
    search of village_street --seed 3 --bots axis=search:hard kept it on the far bank, firing)."""
    from grognard.rulesets.skirmish.evaluate import evaluate

    game = counter_attack()
    play_turns(game, 1, DoctrineBot(np.random.default_rng(0)), {"R"})
    far = evaluate(game, "axis")
    for f in game.state.figures.values():
        if f.unit == "R":
            f.y = 35.0  # across the river, 1" from the square
    assert evaluate(game, "axis") > far
    assert evaluate(game, "allies") < 1 - far + 1e-9
