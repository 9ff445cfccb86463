"""The search bot in every rule set: legal moves to the end, its difficulty levels in the CLI and on the host page."""

from __future__ import annotations

import numpy as np
import pytest

from grognard.bots.search import LEVELS, Level, SearchBot, search_bots
from grognard.cli import main
from grognard.core.dice import SeededDice
from grognard.rulesets import get

SMALL = {"omaha": {"germans": 1, "fresh_squads": 2}, "b17": {}, "skirmish": {}}


@pytest.mark.parametrize("name", ["omaha", "b17", "skirmish"])
def test_search_plays_legal_moves_to_the_end(name: str) -> None:
    """A small search on the first side against the doctrine: every answer is in its space; the game ends."""
    ruleset = get(name)
    game = ruleset.create(SMALL[name], SeededDice(5))
    steps = 4 if name == "skirmish" else None  # a skirmish turn is many decisions of a slow engine
    search = SearchBot(np.random.default_rng(7), ruleset, playouts=2, depth=1, steps=steps)
    doctrine = ruleset.bots["doctrine"](np.random.default_rng(8))
    searched = 0
    for _ in range(20_000):
        if game.is_over:
            break
        decision = game.pending()[0]
        mine = game.side_of(decision.seat) == ruleset.sides[0]
        action = (search if mine else doctrine).choose(game, decision)
        assert decision.space.contains(action), (decision.id, action)
        searched += mine and len(search.last) > 1
        game.apply(decision.seat, action)
    assert game.result is not None
    assert searched > 0  # the search had choices to weigh, not only forced moves


@pytest.mark.parametrize("name", ["omaha", "b17", "skirmish"])
def test_every_rule_set_has_search_levels_weakest_first(name: str) -> None:
    ruleset = get(name)
    bots = {level: ruleset.bots[f"search:{level}"](np.random.default_rng(0)) for level in LEVELS}
    assert all(isinstance(bot, SearchBot) and bot.ruleset is ruleset for bot in bots.values())
    budgets = [bots[level].playouts for level in LEVELS]
    assert budgets == sorted(budgets) and budgets[0] < budgets[-1]
    normal = ruleset.bots["search"](np.random.default_rng(0))
    assert (normal.playouts, normal.depth) == (bots["normal"].playouts, bots["normal"].depth)


def test_levels_must_be_exactly_easy_normal_hard() -> None:
    with pytest.raises(ValueError, match="expected exactly easy, normal, hard"):
        search_bots("omaha", {"easy": Level(1, 1), "hard": Level(2, 1)})


def test_the_cli_plays_a_level(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["play", "omaha", "--seed", "8", "--germans", "1", "--fresh-squads", "2", "--bots", "german=search:easy"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "search:easy" in out and "Result:" in out


@pytest.mark.parametrize(
    ("bots", "said"),
    [
        (
            "german=search:extreme",
            "no bot level 'search:extreme' in b17; the levels, weakest first: beginner, book, normal, hard",
        ),
        (
            "german=doctrine:hard",
            "no bot level 'doctrine:hard' in b17; the levels, weakest first: beginner, book, normal, hard",
        ),
        (
            "german=cunning:hard",
            "no bot level 'cunning:hard' in b17; the levels, weakest first: beginner, book, normal, hard",
        ),
    ],
)
def test_a_bad_level_is_one_clear_line(bots: str, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "b17", "--seed", "1", "--bots", bots]) != 0
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert len(lines) == 1 and said in lines[0] and "--bots" in lines[0], captured.err


def test_skirmish_evaluation_favours_the_side_ahead_in_men() -> None:
    ruleset = get("skirmish")
    game = ruleset.create({}, SeededDice(3))
    assert ruleset.analysis.evaluate is not None
    even = ruleset.analysis.evaluate(game, "allies")
    assert even == pytest.approx(1 - ruleset.analysis.evaluate(game, "axis"))
    game.state.stats["losses"]["axis"] += 2
    assert (
        ruleset.analysis.evaluate(game, "allies") > even + 0.1
        and ruleset.analysis.evaluate(game, "axis") < 1 - even - 0.1
    )
