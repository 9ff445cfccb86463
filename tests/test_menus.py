"""The rule sets' menus for people (``Ruleset.menu``), in-process over seeded doctrine games: every choice
listed is legal at that moment, a bunker's or a strike's menu lists every target once (furthest up the beach
first, the pass last), a squad's menu has no two moves ending within an inch of each other, and every choice
has words that are not its typed form."""

from __future__ import annotations

import numpy as np
import pytest

from grognard import rulesets
from grognard.core.dice import SeededDice
from grognard.rulesets.omaha.game import OrdersSpace, TargetSpace


def decisions(name: str, seed: int, steps: int):
    ruleset = rulesets.get(name)
    game = ruleset.create({}, SeededDice(seed))
    bot = ruleset.bots["doctrine"](np.random.default_rng(seed))
    for _ in range(steps):
        pending = game.pending()
        if not pending:
            return
        for decision in pending:
            yield ruleset, game, decision
        decision = pending[0]
        game.apply(decision.seat, bot.choose(game, decision))


@pytest.mark.parametrize("seed", [3, 15])
def test_omaha_menus_are_legal_complete_and_in_words(seed: int) -> None:
    seen = {"orders": 0, "fire": 0, "artillery": 0, "wall": 0}
    for ruleset, game, decision in decisions("omaha", seed, 900):
        menu = ruleset.adviser.menu(game, decision)
        actions = [action for action, _ in menu]
        assert all(decision.space.contains(a) for a in actions), decision.id
        assert len(set(map(str, actions))) == len(actions), decision.id
        for action, words in menu:
            assert words and words != str(action) and not words.startswith(str(action).split()[0] + " A"), words
        space = decision.space
        if isinstance(space, TargetSpace):
            seen["artillery" if space.artillery else "fire"] += 1
            targets = [a.target for a in actions]
            assert sorted(targets[:-1]) == sorted(space.targets) and targets[-1] is None
            ys = [game.squad(t).y for t in targets[:-1]]
            assert ys == sorted(ys, reverse=True)  # furthest up the beach first
        elif isinstance(space, OrdersSpace):
            seen["orders"] += 1
            squad = space.move.squad
            moves = [(a.x, a.y) for a in actions if type(a).__name__ == "Move"]
            for i, (x, y) in enumerate(moves):
                assert (x, y) != (squad.x, squad.y)
                assert all(abs(x - u) >= 1.0 or abs(y - v) >= 1.0 for u, v in moves[i + 1 :]), moves
            assert str(actions[-1]) == f"hold {squad.label}"
            if abs(squad.y - 24.0) < 0.01 and game.obstacles_in_front(squad):
                seen["wall"] += 1
                assert str(actions[0]).startswith(f"fight {squad.label} clear="), actions[0]
    assert all(seen.values()), seen


def test_b17_menus_are_the_candidates_in_words() -> None:
    count = 0
    for ruleset, game, decision in decisions("b17", 4, 300):
        menu = ruleset.adviser.menu(game, decision)
        assert [a for a, _ in menu] == decision.space.candidates(12)  # the terminal's numbers stay the same
        assert all(words and words != str(a) for a, words in menu)
        count += 1
    assert count > 20
