"""The search bot (grognard.bots.search): legal, deterministic, harmless to the real game, any rule set."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from grognard.bots.search import SearchBot
from grognard.cli import main
from grognard.core.dice import SeededDice
from grognard.core.engine import ActionSpace, Decision, Event, Game
from grognard.core.play import play_out
from grognard.rulesets import get
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.actions import Fight
from grognard.rulesets.omaha.evaluate import FEATURES, evaluate, features
from grognard.rulesets.omaha.game import OmahaGame
from toy_game import RULESET as TOY
from toy_game import RUNNER, SENTRY, Dash, Lane

OMAHA = get("omaha")


def omaha_game(seed: int = 3, **options: Any) -> OmahaGame:
    game = OMAHA.create({"germans": 1, "fresh_squads": 2, **options}, SeededDice(seed))
    assert isinstance(game, OmahaGame)
    return game


def advance(game: Game, steps: int, seed: int = 0) -> None:
    """Answer ``steps`` decisions with the doctrine (or stop when the game ends)."""
    bot = OMAHA.bots["doctrine"](np.random.default_rng(seed))
    for _ in range(steps):
        if game.is_over:
            return
        decision = game.pending()[0]
        game.apply(decision.seat, bot.choose(game, decision))


def owed(game: Game, prefix: str) -> Decision:
    return next(d for d in game.pending() if d.id.startswith(prefix))


def snapshot(game: Game) -> tuple[str, dict[int, int], int]:
    """The digest, the dice drawn, and how many events were emitted since the last look."""
    dice = game.dice
    assert isinstance(dice, SeededDice)
    return game.digest(), dict(dice.drawn), len(game.take_events())


# ---------------------------------------------------------------------- any rule set, through the protocol
def test_only_legal_actions_and_the_real_game_untouched() -> None:
    """Every answer is in its decision's space; the game's state, dice and events are as they were."""
    game = omaha_game()
    game.take_events()  # the setup's
    bot = SearchBot(np.random.default_rng(1), OMAHA, playouts=12, depth=1)
    kinds: set[str] = set()
    for _ in range(40):
        if game.is_over:
            break
        decision = game.pending()[0]
        before = snapshot(game)
        action = bot.choose(game, decision)
        assert snapshot(game) == before
        assert decision.space.contains(action), (decision.id, action)
        kinds.add(decision.id.split(" ", 1)[0])
        game.apply(decision.seat, action)
    assert {"place", "orders", "fire", "artillery"} <= kinds


def test_deterministic_for_a_fixed_seed() -> None:
    def answers(seed: int) -> list[str]:
        game = omaha_game(seed=9)
        bot = SearchBot(np.random.default_rng(seed), OMAHA, playouts=10, depth=1)
        out = []
        for _ in range(20):
            decision = game.pending()[0]
            action = bot.choose(game, decision)
            out.append(str(action))
            game.apply(decision.seat, action)
        return out

    first = answers(4)
    assert answers(4) == first
    bot = SearchBot(np.random.default_rng(4), OMAHA, playouts=10, depth=1)
    game = omaha_game(seed=9)
    bot.choose(game, game.pending()[0])
    again = SearchBot(np.random.default_rng(4), OMAHA, playouts=10, depth=1)
    again.choose(game, game.pending()[0])
    assert [(s.action, s.scores) for s in again.last] == [(s.action, s.scores) for s in bot.last]


def test_a_single_candidate_is_answered_without_search() -> None:
    game = omaha_game()
    advance(game, 1)  # the bunkers are placed: turn 1, the Americans owe orders
    decision = game.pending()[0]

    class One(ActionSpace[Any]):
        """The orders space with a menu of one."""

        def __init__(self, space: ActionSpace[Any]) -> None:
            self.space = space

        def check(self, action: Any) -> None:
            self.space.check(action)

        def sample(self, rng: np.random.Generator) -> Any:
            return self.space.sample(rng)

        def candidates(self, k: int = 16) -> list[Any]:
            return self.space.candidates(1)

    lone = Decision(decision.id, decision.seat, decision.prompt, One(decision.space))
    bot = SearchBot(np.random.default_rng(0), OMAHA, playouts=50, include_policy=False)
    assert bot.choose(game, lone) == decision.space.candidates(1)[0]
    assert bot.last == []


def test_toy_game_search_against_random_to_the_end() -> None:
    """The toy rule set has no doctrine and no evaluation: random rollouts, an unfinished game counts 0.5."""
    for seed in range(3):
        game = TOY.create({}, SeededDice(seed))
        search = SearchBot(np.random.default_rng(seed), TOY, playouts=16)
        assert search.rollout_name == "random" and search.evaluate is None
        rand = TOY.bots["random"](np.random.default_rng(seed))
        seen: list[tuple[Decision, Any]] = []

        def step(decision: Decision, action: Any, events: list[Event], seen: list[tuple[Decision, Any]] = seen) -> None:
            seen.append((decision, action))

        def player(seat: str, search: SearchBot = search, rand: Any = rand) -> Any:
            return search if seat == RUNNER else rand

        result = play_out(game, player, on_step=step)
        assert result.outcome in ("win", "unfinished")
        assert seen and all(decision.space.contains(action) for decision, action in seen)


def test_toy_game_the_search_does_not_peek_at_a_sealed_lane() -> None:
    """The sentry's lane is chosen alike whatever the runner sealed: the clones forget other seats' secrets."""
    choices = set()
    for lane in ("left", "right"):
        game = TOY.create({}, SeededDice(0))
        game.apply(RUNNER, Lane(lane))
        before = game.digest()
        bot = SearchBot(np.random.default_rng(11), TOY, playouts=24)
        choices.add((bot.choose(game, game.pending()[0]), tuple(tuple(s.scores) for s in bot.last)))
        assert game.digest() == before
    assert len(choices) == 1


def test_toy_game_prefers_the_dash_that_wins() -> None:
    """Last round, the runner 8" from the goal: only the full dash wins (the rest end unfinished)."""
    game = TOY.create({"round_cap": 3}, SeededDice(0))
    for dash in (8.0, 4.0):  # rounds 1 and 2: different lanes, no watchtower stop; 12" run
        game.apply(RUNNER, Lane("left"))
        game.apply(SENTRY, Lane("right"))
        game.apply(RUNNER, Dash(dash))
    game.apply(RUNNER, Lane("left"))
    game.apply(SENTRY, Lane("right"))
    bot = SearchBot(np.random.default_rng(5), TOY, playouts=20)
    assert bot.choose(game, game.pending()[0]) == Dash(8.0)
    assert bot.last[0].action != Dash(8.0)  # the random policy's own dash came first, and lost


# ---------------------------------------------------------------------- Omaha
def test_omaha_small_game_to_the_end_search_on_both_sides() -> None:
    game = omaha_game(seed=21)
    bots = {side: SearchBot(np.random.default_rng(k), OMAHA, playouts=6, depth=1) for k, side in enumerate(OMAHA.sides)}
    result = play_out(game, lambda seat: bots[game.side_of(seat)])  # checked: every action is legal
    assert result.outcome == "win" and result.winner in OMAHA.sides


def test_omaha_squad_in_contact_assaults_rather_than_holds() -> None:
    """A whole squad in contact with a bunker: the search (without the doctrine's own choice) assaults."""
    game = omaha_game(seed=5)
    advance(game, 1)
    bunker = next(b for _, b in sorted(game.state.bunkers.items()))
    squad = game.squad("A1")
    squad.x, squad.y = R.contact_point(bunker)
    squad.figures = 12
    game.changed()
    decision = owed(game, "orders A1")
    menu = decision.space.candidates(16)
    assert Fight("A1", assault=12) in menu and Fight("A1") in menu
    bot = SearchBot(np.random.default_rng(2), OMAHA, playouts=48, depth=1, include_policy=False, confidence=None)
    choice = bot.choose(game, decision)
    assert isinstance(choice, Fight) and choice.assault >= 6, [(str(s.action), s.playouts, s.mean) for s in bot.last]
    means = {s.action: s.mean for s in bot.last}
    assert means[Fight("A1", assault=12)] > means[Fight("A1")] + 0.1


def test_omaha_evaluation_is_a_chance_and_favours_progress() -> None:
    game = omaha_game()
    advance(game, 1)
    start = evaluate(game, "american")
    assert 0.0 < start < 1.0 and evaluate(game, "german") == pytest.approx(1.0 - start)
    assert set(features(game)) == set(FEATURES) and all(0.0 <= v <= 1.0 for v in features(game).values())
    bunker = next(iter(game.state.bunkers.values()))
    bunker.status, bunker.defenders = "destroyed", 0
    assert evaluate(game, "american") > start + 0.1
    assert OMAHA.analysis.evaluate(game, "american") == evaluate(game, "american")


def test_omaha_registers_search_and_the_cli_plays_it(capsys: pytest.CaptureFixture[str]) -> None:
    bot = OMAHA.bots["search"](np.random.default_rng(0))
    assert isinstance(bot, SearchBot) and bot.rollout_name == "doctrine" and bot.depth is not None
    args = ["play", "omaha", "--seed", "8", "--germans", "1", "--fresh-squads", "2", "--bots", "german=search"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert "german search" in first and "Result:" in first
    assert main(args) == 0
    assert capsys.readouterr().out == first
