"""bench/b17_levels.py and bench/b17_variants.py: the B-17 levels and variants paired against the book (issue 29).

No win rate is asserted (the variants are a benchmark, docs/rules/b17.md): only that ``--apart`` pairs the
games as it says (the book across the table rolls and flies the same raid whatever the level draws), that
the search over the book plays the book's raid where it keeps every order, and that it does replace an
order the playouts beat.
"""

from __future__ import annotations

import copy
import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.play import play_out
from grognard.rulesets import get
from grognard.rulesets.b17.bots import DoctrineBot, fighter_plans
from test_b17_rules import scene

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LEVELS = _load("b17_levels")
VARIANTS = _load("b17_variants")


class Fidget:
    """The book's orders, from a book of its own on a copy of the generator; it draws a number from the
    generator it was given at each decision besides (as a search draws its playouts' seed)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng, self.book = rng, DoctrineBot(copy.deepcopy(rng))

    def choose(self, game: Any, decision: Any) -> Any:
        self.rng.integers(6)
        return self.book.choose(game, decision)


@pytest.mark.parametrize("apart", [True, False])
def test_apart_the_book_across_the_table_flies_the_same_raid_whatever_the_level_draws(apart: bool) -> None:
    """Book Americans against book Germans, and against Germans that fly the book's orders but draw from
    the generator they were given too: with a stream a side (``--apart``) both sides fly the same raids;
    with the one stream the bench shared, the Americans' interceptions and weave shift with the Germans'
    draws, and the pairs part."""
    LEVELS.VARIANTS["fidget"] = Fidget
    try:
        games = range(8)
        base = [LEVELS.play_one(("book", "german", 5, i, {}, apart)) for i in games]
        fidget = [LEVELS.play_one(("fidget", "german", 5, i, {}, apart)) for i in games]
    finally:
        del LEVELS.VARIANTS["fidget"]
    # the winner, and the German decisions of the raid (its every move): the same raid, or not
    same = [a[0] == b[0] and len(a[1]) == len(b[1]) for a, b in zip(base, fidget, strict=True)]
    assert all(same) if apart else not all(same)


def raid(german: Any, american: Any = DoctrineBot) -> list[str]:
    """Seed 11's raid, each side's bot on its own stream: every order and every event, in order."""
    game = get("b17").create({}, SeededDice(stream(11, DICE)))
    rngs = [np.random.default_rng(stream(11, BOTS, k)) for k in range(2)]
    bots = {"american": american(rngs[0]), "german": german(rngs[1])}
    seen: list[str] = []
    play_out(
        game,
        lambda seat: bots[game.side_of(seat)],
        on_step=lambda decision, action, events: seen.extend([str(action), *(str(e.data) for e in events)]),
    )
    return seen


def test_the_search_over_the_book_flies_the_books_raid_where_it_keeps_every_order() -> None:
    """The search draws nothing from the bot's generator: fighters that search but keep every book order (no
    playout can beat it) fly the book's raid, dice and all; so a paired game differs only where the search
    changed an order."""

    def never(rng: np.random.Generator) -> Any:
        return VARIANTS.BookSearchBot(rng, playouts=4, sides=("german",), confidence=float("inf"))

    assert raid(never) == raid(DoctrineBot)


def test_the_search_over_the_book_finishes_the_damaged_bomber_the_book_passes_by() -> None:
    """The book's automaton attacks the closest bomber (b17.23); the search plays that attack and the others
    out (128 playouts, the same dice for each) and takes the one on the bomber with three engines out, which
    beat the book's on the playouts they shared; the same generator, the same choice."""
    game = scene({"B1": (50.0, 30.0, 0.0), "B2": (50.0, 42.0, 0.0)}, {"F1": (64.0, 34.0, 180.0)})
    game.aircraft("B2").damaged = [1, 2, 3]
    game.changed()
    decision = game.pending()[0]
    assert fighter_plans(game, game.aircraft("F1"), 1)[0].target == "B1"
    bot = VARIANTS.VARIANTS["bs128-german"](np.random.default_rng(0))
    plan = bot.choose(game, decision)
    assert decision.space.contains(plan) and plan.target == "B2"
    book, best = bot.search.last[0], next(s for s in bot.search.last if s.action == plan)
    assert book.action.target == "B1" and best.mean > book.mean and best.playouts == book.playouts
    assert VARIANTS.VARIANTS["bs128-german"](np.random.default_rng(0)).choose(game, decision) == plan
