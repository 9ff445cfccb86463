"""The search bot's budget: successive halving (``allocation="halving"``) gives the playouts to the contenders;
``until_own`` ends each playout when the seat owes its next decision."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from grognard.bots.search import CandidateStats, SearchBot, _halving, halving_rounds
from grognard.core.dice import SeededDice
from grognard.core.engine import Game
from grognard.rulesets import get
from toy_game import RULESET as TOY
from toy_game import RUNNER, SENTRY, Dash, Lane


@pytest.mark.parametrize(("candidates", "budget"), [(2, 16), (3, 16), (6, 64), (9, 32), (16, 256)])
def test_rounds_halve_to_two_and_spend_the_budget(candidates: int, budget: int) -> None:
    rounds = halving_rounds(candidates, budget)
    sizes = [size for size, _ in rounds]
    assert sizes[0] == candidates and sizes[-1] == 2
    assert all(later == (earlier + 1) // 2 for earlier, later in itertools.pairwise(sizes))
    spent = sum(size * each for size, each in rounds)
    assert budget - sizes[-1] < spent <= budget  # all but what the last round's pair cannot split


def play(scores: dict[int, float], budget: int, keep: int | None) -> list[CandidateStats]:
    """Run the schedule with candidate i scoring ``scores[i]`` every playout."""
    stats = [CandidateStats(i) for i in range(len(scores))]
    for i in _halving(stats, budget, keep):
        stats[i].scores.append(scores[i])
    return stats


def test_the_best_get_the_playouts_and_share_their_dice() -> None:
    """Candidate 3 and 4 are best: they reach the last round; the losers of round one get one share only."""
    stats = play({0: 0.1, 1: 0.2, 2: 0.3, 3: 0.9, 4: 0.8, 5: 0.0}, 64, keep=None)
    counts = [s.playouts for s in stats]
    assert counts == [3, 3, 10, 22, 22, 3]  # rounds: 6 x 3, then 3 x 7 more (to 10), then 2 x 12 more (to 22)
    assert sum(counts) <= 64


def test_the_policy_choice_stays_to_the_end() -> None:
    """The kept candidate (the policy's own choice, first) is played in every round even when it is worst."""
    stats = play({0: 0.0, 1: 0.5, 2: 0.6, 3: 0.7, 4: 0.8}, 40, keep=0)
    assert stats[0].playouts == max(s.playouts for s in stats)
    assert stats[4].playouts == stats[0].playouts  # the best and the policy's choice: paired on the most dice


def test_toy_game_halving_finds_the_dash_that_wins() -> None:
    """The toy game's last round (see test_search_bot): halving finds the full dash, the only win."""
    game = TOY.create({"round_cap": 3}, SeededDice(0))
    for dash in (8.0, 4.0):
        game.apply(RUNNER, Lane("left"))
        game.apply(SENTRY, Lane("right"))
        game.apply(RUNNER, Dash(dash))
    game.apply(RUNNER, Lane("left"))
    game.apply(SENTRY, Lane("right"))
    bot = SearchBot(np.random.default_rng(5), TOY, playouts=20, allocation="halving")
    assert bot.choose(game, game.pending()[0]) == Dash(8.0)
    winner = next(s for s in bot.last if s.action == Dash(8.0))
    assert winner.playouts == max(s.playouts for s in bot.last)
    assert sum(s.playouts for s in bot.last) <= 20


def test_unknown_allocation_is_refused() -> None:
    with pytest.raises(ValueError, match="allocation 'tree': one of ucb, flat, halving"):
        SearchBot(np.random.default_rng(0), TOY, allocation="tree")  # type: ignore[arg-type]


def test_until_own_stops_each_playout_at_the_seats_next_decision() -> None:
    """B-17: a fighter's playouts end when the Germans owe their next move, after the gunners have answered."""
    b17 = get("b17")
    game = b17.create({}, SeededDice(3))
    doctrine = b17.bots["doctrine"](np.random.default_rng(3))
    seen = 0
    assert b17.analysis.search_candidates is not None
    while True:  # from the 8th fighter's move of the game (the fighters are in among the bombers by then), the
        decision = game.pending()[0]  # first with more than one path to weigh (the book's are often one alone)
        if decision.id.startswith("move F"):
            seen += 1
            if seen >= 8 and len(b17.analysis.search_candidates(game, decision, 8)) > 1:
                break
        game.apply(decision.seat, doctrine.choose(game, decision))
    leaves: list[tuple[str | None, int]] = []

    def leaf(sim: Game, side: str) -> float:
        owed = sim.pending()
        leaves.append((owed[0].seat if owed else None, sim.turn))
        return 0.5

    for until_own in (True, False):
        leaves.clear()
        bot = SearchBot(
            np.random.default_rng(1),
            b17,
            playouts=6,
            depth=2,
            until_own=("german",) if until_own else (),
            evaluate=leaf,
        )
        bot.choose(game, decision)
        assert leaves, "the decision had more than one candidate: the playouts were scored"
        if until_own:
            assert all(seat == "German" or turn == game.turn + 2 for seat, turn in leaves), leaves
            assert any(seat == "German" and turn < game.turn + 2 for seat, turn in leaves), leaves  # cut short
        else:
            assert all(turn == game.turn + 2 for _, turn in leaves), leaves  # played to the depth
