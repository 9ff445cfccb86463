"""Omaha's ``beginner`` and ``hard`` levels (rulesets/omaha/beginner.py, hard.py; docs/rules/omaha.md, "The bots'
levels"): each clause of their play on a scripted beach, and for each side a whole game that is legal at every
decision, the same for the same seed, and replays. Strength is measured by bench/ladder.py, never asserted here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from grognard.cli import main
from grognard.core.dice import SeededDice
from grognard.rulesets import get
from grognard.rulesets.omaha import routes
from grognard.rulesets.omaha.actions import Artillery, BunkerFire, Fight, Move, PlaceBunkers
from grognard.rulesets.omaha.beginner import BeginnerBot
from grognard.rulesets.omaha.bots import DoctrineBot
from grognard.rulesets.omaha.game import OmahaGame
from grognard.rulesets.omaha.hard import HardBot
from terminal_driver import lines_of
from test_omaha_rules import decision, hold_rest, new_game, put

OMAHA = get("omaha")


def _orders(bot: object, game: OmahaGame, label: str) -> object:
    return bot.choose(game, decision(game, f"orders {label}"))  # type: ignore[attr-defined]


def _walk(bot: object, game: OmahaGame, label: str, turns: int) -> int | None:
    """Moves ``label`` by ``bot``'s orders (the other squads hold, nobody fires) until it is in contact with a
    bunker: the number of moves it took, or None if not within ``turns``."""
    for turn in range(1, turns + 1):
        order = _orders(bot, game, label)
        assert isinstance(order, Move), order
        game.apply(decision(game, f"orders {label}").seat, order)
        if game.bunker_in_contact(game.squad(label)) is not None:
            return turn
        put(game, label)  # back to the Americans' phase of the same turn: a fresh decision for the squad
        game.state.done.discard(f"orders {label}")
        game.changed()
    return None


def test_beginner_germans_spread_their_fire() -> None:
    """Each bunker fires at the squad nearest to it, the artillery at the biggest squad: three squads hit."""
    game = new_game(obstacles=(1, 1, 1, 1), place=(1, 3))
    put(game, "A1", 4, 20, figures=6)  # furthest up: the book's pick for every weapon
    put(game, "A2", 12, 10)
    put(game, "A3", 20, 12, figures=9)
    hold_rest(game)
    bot = BeginnerBot(np.random.default_rng(0))
    book = DoctrineBot(np.random.default_rng(0))
    picks = {d.id: bot.choose(game, d) for d in game.pending()}
    assert picks == {
        "fire B1": BunkerFire("B1", "A1"),
        "fire B3": BunkerFire("B3", "A3"),
        "artillery G1": Artillery("G1", "A2"),
    }
    assert {book.choose(game, d).target for d in game.pending()} == {"A1"}


def test_beginner_americans_keep_their_lane_and_freeze_at_the_wall_when_hurt() -> None:
    game = new_game(obstacles=(6, 1, 6, 6), place=(1, 2))  # the dice: O2 (x 6-12) clear, beside A1's lane
    put(game, "A1", 5, 20)
    put(game, "A2", 12, 24, figures=6)
    put(game, "A3", 20, 24, figures=6)
    bot = BeginnerBot(np.random.default_rng(0))
    book = DoctrineBot(np.random.default_rng(0))
    assert _orders(bot, game, "A1") == Move("A1", 5, 24)  # straight up its lane
    assert _orders(book, game, "A1") != Move("A1", 5, 24)  # the book follows up through O2
    assert _orders(bot, game, "A2") == Fight("A2")  # 6 figures left: pinned, it takes cover
    assert _orders(book, game, "A2") == Move("A2", 9, 24)  # the book follows up through O2
    put(game, "A2", figures=7)
    assert _orders(bot, game, "A2") == Fight("A2", shoot=7)  # a bunker in front: everyone shoots
    put(game, "A3", figures=12)
    assert _orders(bot, game, "A3") == Fight("A3", clear=6)  # no bunker in front: half of them clear


def test_hard_germans_set_their_bunkers_wide_apart() -> None:
    game = OMAHA.create({"germans": 2}, SeededDice(3))
    bot = HardBot(np.random.default_rng(0))
    places = {d.id: bot.choose(game, d) for d in game.pending()}
    assert places == {"place G1": PlaceBunkers("G1", (1, 3)), "place G2": PlaceBunkers("G2", (4, 6))}


def test_hard_germans_fire_as_the_book_does() -> None:
    game = new_game(obstacles=(1, 1, 1, 1))
    put(game, "A1", 4, 12)
    put(game, "A2", 12, 24, figures=5)
    put(game, "A3", 20, 30)
    hold_rest(game)
    hard, book = HardBot(np.random.default_rng(0)), DoctrineBot(np.random.default_rng(0))
    assert [hard.choose(game, d) for d in game.pending()] == [book.choose(game, d) for d in game.pending()]


def test_hard_americans_take_the_shortest_way_into_contact() -> None:
    """From the wall through the one cleared section (O3) to bunker B1 two sections away: the book walks to
    the band's edge, then to the front of B1's middle, and stops at each (3 moves); hard goes on (2 moves)."""
    moves = {}
    for name, bot in (("book", DoctrineBot(np.random.default_rng(0))), ("hard", HardBot(np.random.default_rng(0)))):
        game = new_game(obstacles=(2, 2, 1, 2), place=(1, 3))  # the dice: O3 clear, one obstacle elsewhere
        put(game, "A2", 12, 24)
        moves[name] = _walk(bot, game, "A2", 4)
    assert moves == {"book": 3, "hard": 2}


def test_hard_americans_shoot_with_five_figures() -> None:
    game = new_game(obstacles=(2, 2, 2, 2), place=(1, 2))  # one obstacle in every section
    put(game, "A1", 4, 24, figures=5)
    assert _orders(HardBot(np.random.default_rng(0)), game, "A1") == Fight("A1", shoot=5)
    assert _orders(DoctrineBot(np.random.default_rng(0)), game, "A1") == Fight("A1", clear=5)
    put(game, "A1", figures=4)
    assert _orders(HardBot(np.random.default_rng(0)), game, "A1") == Fight("A1", clear=4)


def test_a_way_across_the_band_goes_through_a_cleared_section() -> None:
    game = new_game(obstacles=(2, 2, 1, 2), place=(1, 3))  # the dice: O3 clear, one obstacle elsewhere
    state = game.state
    b1 = state.bunkers[0]
    assert routes.way_to(state, 4, 24, ("bunker", b1)) > 10  # O1 in front holds an obstacle: round by O3
    assert routes.way_to(state, 4, 28, ("bunker", b1)) < 0.05  # past the band, in contact (a margin kept)
    state.obstacles[2] = 1
    assert routes.way_to(state, 4, 24, ("bunker", b1)) == routes.INF  # no cleared section: no way


@pytest.mark.parametrize("level", ["beginner", "hard"])
@pytest.mark.parametrize("side", ["american", "german"])
def test_a_level_plays_legally_the_same_for_a_seed_and_replays(level: str, side: str, tmp_path: Path) -> None:
    """A whole game of the level on one side against the book: every order is checked by the rules as it is
    played (a refused one stops the game), the same seed plays the same record, and the record replays."""
    records = [tmp_path / f"{n}.jsonl" for n in (1, 2)]
    for record in records:
        args = ["play", "omaha", "--germans", "1", "--fresh-squads", "1", "--seed", "11", "-q"]
        assert main([*args, "--bots", f"{side}={level}", "--record", str(record)]) == 0
    first = lines_of(records[0])
    assert first == lines_of(records[1])
    assert f'"{side}":"{level}"' in first[0]
    assert '"type":"game_over"' in first[-1] or '"game_over"' in first[-1]
    assert main(["replay", str(records[0])]) == 0
