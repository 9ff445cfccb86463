"""The skirmish search bot's candidates (hold, cover, straight on, back) and its menu cut to its budget."""

from __future__ import annotations

import math

import numpy as np
import pytest

from grognard.bots.search import SearchBot
from grognard.core.dice import SeededDice
from grognard.core.engine import Decision
from grognard.rulesets import get
from grognard.rulesets.skirmish import bots as B
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish.candidates import search_candidates
from grognard.rulesets.skirmish.fire import FireSpace
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.moving import MoveSpace

SKIRMISH = get("skirmish")


def first_decision(seed: int, space: type, side: str) -> tuple[SkirmishGame, Decision]:
    """A doctrine game of the default scenario played until ``side`` owes a decision of ``space`` on the table."""
    game = SKIRMISH.create({}, SeededDice(seed))
    assert isinstance(game, SkirmishGame)
    bot = SKIRMISH.bots["doctrine"](np.random.default_rng(seed))
    while not game.is_over:
        decision = game.pending()[0]
        if isinstance(decision.space, space) and game.side_of(decision.seat) == side:
            unit = decision.id.split()[1]
            men = [f for f in game.state.figures.values() if f.unit == unit and f.alive]
            if men and all(f.on_table and f.aboard is None for f in men):
                return game, decision
        game.apply(decision.seat, bot.choose(game, decision))
    raise AssertionError(f"no {space.__name__} decision for {side}")


def test_the_rule_set_gives_the_search_its_candidates_and_a_cut_menu() -> None:
    bot = SKIRMISH.bots["search"](np.random.default_rng(0))
    assert isinstance(bot, SearchBot) and bot.candidates == SKIRMISH.analysis.search_candidates
    assert bot.depth == 1 and bot.per_candidate is not None


def test_move_candidates_hold_take_cover_and_are_legal_and_distinct() -> None:
    for side in ("allies", "axis"):
        game, decision = first_decision(3, MoveSpace, side)
        space = decision.space
        assert isinstance(space, MoveSpace)
        listed = search_candidates(game, decision, 16)
        assert all(space.contains(m) for m in listed) and len(listed) == len(set(listed))
        assert listed[0] == space.hold() and len(listed) >= 3
        ctx = game.ctx
        leader = M.living(ctx, space.unit)[0]
        spots = B.cover_spots(ctx, leader.side)
        reach = M.allowance(ctx, leader)
        near = [p for p in spots if 0.5 < math.dist(p, (leader.x, leader.y)) <= reach]
        ends = [m.path[-1] for m in listed if m.path]
        assert near  # some move ends on a cover spot within a move (the leader's path goes there)
        assert any(min(math.dist(e, p) for p in near) < 0.05 for e in ends), (ends, near[:5])


def test_fire_candidates_are_each_target_and_hold() -> None:
    game, decision = first_decision(3, FireSpace, "axis")
    listed = search_candidates(game, decision, 16)
    assert listed == decision.space.candidates(16) and listed[-1].target is None


def test_the_menu_is_cut_to_the_playouts_each_candidate_needs() -> None:
    game, decision = first_decision(3, MoveSpace, "axis")
    bot = SearchBot(np.random.default_rng(1), SKIRMISH, playouts=8, depth=1, per_candidate=4)
    action = bot.choose(game, decision)
    assert decision.space.contains(action)
    assert len(bot.last) == 2 and sum(s.playouts for s in bot.last) == 8  # UCB shares the 8 between the two


def test_evaluation_counts_the_attackers_progress_toward_the_objective() -> None:
    """Hill assault: an American man 10" nearer the crest is worth a man (PROGRESS 0.1 an inch, 20 men)."""
    from grognard.rulesets.skirmish.evaluate import PROGRESS, attacker_distance, evaluate

    game, _ = first_decision(3, MoveSpace, "allies")
    start = {side: evaluate(game, side) for side in ("allies", "axis")}
    assert start["allies"] == pytest.approx(1.0 - start["axis"])
    before = attacker_distance(game)
    assert before is not None and before > 5.0
    men = [f for f in game.state.figures.values() if f.side == "allies" and f.alive and f.on_table]
    for f in men:
        f.y += 10.0  # north, up the table toward the crest (it lies north of every man here)
    after = attacker_distance(game)
    assert after is not None and after == pytest.approx(before - 10.0, abs=0.5)
    assert evaluate(game, "allies") > start["allies"] and evaluate(game, "axis") < start["axis"]
    balance = math.log(evaluate(game, "allies") / (1 - evaluate(game, "allies")))
    balance -= math.log(start["allies"] / (1 - start["allies"]))
    assert balance * 2.0 == pytest.approx(PROGRESS * (before - after), rel=1e-6)  # SCALE 2: the logistic's
