"""The B-17 raid's ``beginner`` and ``hard`` bots (rulesets/b17/beginner.py, hard.py): legal, deterministic for
a seed, replayed and resumed line for line; and each plays as its docstring says, on scripted scenes."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from grognard.cli import main
from grognard.rulesets.b17 import beginner, hard
from grognard.rulesets.b17 import ends as E
from grognard.rulesets.b17.attacks import guns_met
from grognard.rulesets.b17.bots import bomber_plans, fighter_plans
from grognard.rulesets.b17.game import FlySpace
from terminal_driver import lines_of
from test_b17_rules import scene

SEED_105_BOX = {"B1": (15.57, 30.0, 0.0), "B2": (12.0, 34.2, 0.0), "B3": (12.0, 25.8, 0.0), "B4": (8.42, 30.0, 0.0)}


@pytest.mark.parametrize("level", ["beginner", "hard"])
def test_a_level_plays_legally_the_same_game_for_a_seed_and_replays_and_resumes(level: str, tmp_path: Path) -> None:
    """Both sides at the level, every order checked as a person's is (play's checked path); the same seed
    plays the same record; it replays; resumed from its middle it plays on to the same lines."""
    bots = ["--bots", f"american={level},german={level}"]
    first, again = tmp_path / "first.jsonl", tmp_path / "again.jsonl"
    for path in (first, again):
        assert main(["play", "b17", "--seed", "3", *bots, "--record", str(path), "-q"]) == 0
    want = lines_of(first)
    assert lines_of(again) == want and f'"german":"{level}"' in want[0]
    assert main(["replay", str(first)]) == 0
    part = tmp_path / "part.jsonl"
    part.write_text("".join(line + "\n" for line in want[: len(want) // 2]), encoding="utf-8")
    assert main(["play", "b17", "--resume", str(part), "-q"]) == 0
    assert lines_of(part) == want


def ends_of(game, plan):  # type: ignore[no-untyped-def]
    path, _, _ = FlySpace(game, plan.aircraft).resolve(plan)
    return path.snapped(path.length)


def test_the_beginner_fighter_forgets_the_guns_and_the_edge_not_the_closest_bomber() -> None:
    """Seed 105's rear attack: the learner, like the book, attacks the closest bomber with the +1, but ends
    where the book does not (its next straight off the table, or among the guns); not a random move."""
    game = scene(SEED_105_BOX, {"F1": (0.0, 27.95, 0.0)})
    f = game.aircraft("F1")
    plan = beginner.fighter_move(game, f)
    assert plan is not None and plan.target == "B4"
    x, y, h = ends_of(game, plan)
    book = fighter_plans(game, f, 1)[0]
    bx, by, bh = ends_of(game, book)
    assert E.forced_off([x], [y], [h]) == [True] and E.forced_off([bx], [by], [bh]) == [False]


def test_the_beginner_bombers_turn_on_the_fighters_the_book_flies_on() -> None:
    """A fighter off the lone leader's right wing: the book's leader flies straight on for the target; the
    learner's turns toward the fighter to bring its guns on it (and would leave its box to do it)."""
    game = scene({"B1": (40.0, 30.0, 0.0)}, {"F1": (46.0, 22.0, 90.0)}, phase="bombers")
    a = game.aircraft("B1")
    book = bomber_plans(game, a, 1)[0]
    learner = beginner.bomber_move(game, a, np.random.default_rng(0))
    assert book.turn == 0 and learner is not None and learner.turn is not None and learner.turn < 0
    near = [math.dist(ends_of(game, plan)[:2], (46.0, 22.0)) for plan in (book, learner)]
    assert near[1] < near[0]


def test_the_hard_fighter_finishes_a_damaged_bomber_the_book_passes_by() -> None:
    """Two bombers, the farther one with three engines out: the book's automaton attacks the closest
    (b17.23); the hard fighter, flying freely, the damaged one."""
    game = scene({"B1": (50.0, 30.0, 0.0), "B2": (50.0, 42.0, 0.0)}, {"F1": (64.0, 34.0, 180.0)})
    game.aircraft("B2").damaged = [1, 2, 3]
    game.changed()
    f = game.aircraft("F1")
    assert fighter_plans(game, f, 1)[0].target == "B1"
    plan = hard.fighter_move(game, f)
    assert plan is not None and plan.target == "B2"
    x, y, h = ends_of(game, plan)
    assert E.forced_off([x], [y], [h]) == [False] and guns_met(game, f, x, y, h) >= 0
