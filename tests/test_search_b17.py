"""The B-17 search bot's parts: its candidates (attacks on more than the closest bomber) and its leaf score."""

from __future__ import annotations

import numpy as np
import pytest

from grognard.bots.search import SearchBot
from grognard.core.dice import SeededDice
from grognard.core.engine import Decision
from grognard.rulesets import get
from grognard.rulesets.b17.bots import fighter_plans
from grognard.rulesets.b17.candidates import search_candidates
from grognard.rulesets.b17.evaluate import american_chance, evaluate
from grognard.rulesets.b17.game import B17Game

B17 = get("b17")


def game_at(seed: int, prefix: str, skip: int = 0) -> tuple[B17Game, Decision]:
    """A doctrine game played until the ``skip``-th decision owed whose id starts with ``prefix``."""
    game = B17.create({}, SeededDice(seed))
    assert isinstance(game, B17Game)
    bot = B17.bots["doctrine"](np.random.default_rng(seed))
    seen = 0
    while not game.is_over:
        decision = game.pending()[0]
        if decision.id.startswith(prefix):
            if seen == skip:
                return game, decision
            seen += 1
        game.apply(decision.seat, bot.choose(game, decision))
    raise AssertionError(f"no decision {prefix!r} number {skip} in game {seed}")


def test_the_rule_set_gives_the_search_its_candidates_and_its_score() -> None:
    bot = B17.bots["search"](np.random.default_rng(0))
    assert isinstance(bot, SearchBot) and bot.depth == 1
    assert bot.candidates == B17.analysis.search_candidates and bot.evaluate == B17.analysis.evaluate
    game = B17.create({}, SeededDice(3))
    decision = game.pending()[0]
    assert B17.analysis.search_candidates(game, decision, 8) == search_candidates(game, decision, 8)
    assert B17.analysis.evaluate(game, "american") == evaluate(game, "american")
    assert bot.allocation == "halving" and bot.until_own == ("german",)


def test_fighter_candidates_legal_distinct_doctrine_first_and_attack_several_bombers() -> None:
    """Once the fighters close in, a fighter's candidates attack more than one bomber; all legal, none twice."""
    targets_seen: set[int] = set()
    for skip in range(6, 14):
        game, decision = game_at(3, "move F", skip)
        fighter = game.aircraft(decision.id.split()[1])
        listed = search_candidates(game, decision, 16)
        assert listed and all(decision.space.contains(a) for a in listed)
        assert len(listed) == len(set(listed))
        assert listed[0] == fighter_plans(game, fighter, 1)[0]
        targets_seen.add(len({a.target for a in listed if a.target is not None}))
    assert max(targets_seen) >= 2, targets_seen


def test_bomber_and_gun_candidates_are_the_doctrines_and_both_pairs() -> None:
    game, decision = game_at(3, "move B", 4)
    listed = search_candidates(game, decision, 16)
    assert 1 <= len(listed) <= 4 and all(decision.space.contains(a) for a in listed)
    game, decision = game_at(3, "guns", 0)
    pairs = {a.pair for a in search_candidates(game, decision, 16)}
    assert pairs == {a.pair for a in decision.space.candidates(16)} and len(pairs) == 2


def test_evaluation_is_a_chance_that_follows_bombers_hits_and_damage() -> None:
    game, _ = game_at(4, "move F", 4)
    start = evaluate(game, "american")
    assert 0.0 < start < 1.0 and evaluate(game, "german") == pytest.approx(1.0 - start)
    bombers = game.state.bombers()
    bombers[0].damaged = [1, 2]
    damaged = american_chance(game)
    assert damaged < start
    bombers[0].status = "destroyed"
    lost = american_chance(game)
    assert lost < damaged
    game.state.hits = 2
    assert american_chance(game) > lost + 0.15  # two hits in: one more of three bombers' loads will do
    game.state.hits = 3
    assert american_chance(game) == 1.0
    game.state.hits = 0
    for b in bombers:
        b.status = "destroyed"
    assert american_chance(game) == 0.0


def test_fewer_fighters_favour_the_bombers() -> None:
    game, _ = game_at(4, "move F", 4)
    start = american_chance(game)
    fighters = [a for a in game.state.aircraft.values() if not a.bomber]
    fighters[0].status = "destroyed"
    assert american_chance(game) > start
