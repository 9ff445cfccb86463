"""Bot against bot on the same dice: matches, the round robin of a ladder's levels, and paired comparisons.

Game ``i`` of every match of a run seeded ``s`` rolls the dice of game ``i``
(``analysis.montecarlo.play_one``: its dice and its bots' generator come from
``core.dice.stream(s, i)`` alone), so two matches that differ only in one
side's bot start alike and part only where the bots' choices differ: the
games one bot turned into wins and into losses against the other are counted
pair by pair (McNemar's exact test on the pairs that differ, and the paired
difference of the win rates with its interval, ``analysis.stats``).

``bench/ladder.py`` plays the round robin of the levels and prints the matrix;
``bench/search_bot.py`` compares the search bot with the doctrine; both count
the pairs here.

>>> compare(["a", "b", "a", None], ["a", "a", "b", "a"], "a").counts()
(2, 1, 4)
>>> [dict(p) for p in round_robin(("american", "german"), ("book", "hard"))]  # doctest: +NORMALIZE_WHITESPACE
[{'american': 'book', 'german': 'book'}, {'american': 'book', 'german': 'hard'},
 {'american': 'hard', 'german': 'book'}, {'american': 'hard', 'german': 'hard'}]
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from grognard import rulesets
from grognard.analysis.montecarlo import play_one
from grognard.analysis.stats import mcnemar, paired_difference, wilson

__all__ = ["Comparison", "Game", "Match", "compare", "play_game", "round_robin", "run_matches"]


@dataclass(frozen=True)
class Game:
    """One game of a match: who won (``None``: nobody), the turn it ended on, the CPU seconds it took."""

    winner: str | None
    turn: int
    seconds: float


@dataclass
class Match:
    """A match: a bot name per side, and its games in game-index order (game ``i`` on dice ``i``)."""

    bots: Mapping[str, str]
    games: list[Game] = field(default_factory=list)

    @property
    def winners(self) -> list[str | None]:
        return [game.winner for game in self.games]

    def wins(self, side: str) -> int:
        return sum(1 for game in self.games if game.winner == side)

    def draws(self) -> int:
        """Games nobody won (a draw, or a turn limit reached)."""
        return sum(1 for game in self.games if game.winner is None)

    def rate(self, side: str) -> tuple[float, float, float]:
        """``side``'s win rate and its 95% Wilson interval."""
        n = len(self.games)
        k = self.wins(side)
        low, high = wilson(k, n)
        return (k / n if n else 0.0), low, high

    def seconds(self) -> float:
        """CPU seconds a game, both sides' bots and the rules."""
        return sum(game.seconds for game in self.games) / len(self.games) if self.games else 0.0


@dataclass(frozen=True)
class Comparison:
    """``side``'s results in two matches on the same dice: the games the second turned into wins (``gained``)
    and into losses (``lost``) against the first, out of ``pairs``."""

    side: str
    gained: int
    lost: int
    pairs: int

    def counts(self) -> tuple[int, int, int]:
        return self.gained, self.lost, self.pairs

    @property
    def difference(self) -> tuple[float, float, float]:
        """The paired difference of the win rates (second minus first) and its 95% interval."""
        return paired_difference(self.gained, self.lost, self.pairs)

    @property
    def p(self) -> float:
        """McNemar's exact two-sided p-value."""
        return mcnemar(self.gained, self.lost)

    def words(self) -> str:
        """``+3.0 points [-1.2, +7.2] (+10 -4 of 200), McNemar p = 0.18``."""
        diff, low, high = self.difference
        return (
            f"{100 * diff:+5.1f} points [{100 * low:+5.1f}, {100 * high:+5.1f}] "
            f"(+{self.gained} -{self.lost} of {self.pairs}), McNemar p = {self.p:.2g}"
        )


def compare(first: Sequence[str | None], second: Sequence[str | None], side: str) -> Comparison:
    """``side``'s wins in ``second`` against ``first``, pair by pair (game ``i`` of each on the same dice)."""
    if len(first) != len(second):
        raise ValueError(f"matches of {len(first)} and {len(second)} games are not paired")
    gained = sum(1 for a, b in zip(first, second, strict=True) if a != side and b == side)
    lost = sum(1 for a, b in zip(first, second, strict=True) if a == side and b != side)
    return Comparison(side, gained, lost, len(first))


def round_robin(sides: Sequence[str], levels: Sequence[str]) -> list[dict[str, str]]:
    """Every assignment of a level to each side, the first side's level changing slowest."""
    return [dict(zip(sides, chosen, strict=True)) for chosen in itertools.product(levels, repeat=len(sides))]


def play_game(task: tuple[str, Mapping[str, Any], Mapping[str, str], int, int]) -> Game:
    """Game ``index`` of a run seeded ``seed`` (``montecarlo.play_one``), timed in this process's CPU seconds.

    ``task``: (rule set name, resolved options, a bot name per side, seed, index); picklable, for a pool.
    """
    name, options, bots, seed, index = task
    start = time.process_time()
    row = play_one(rulesets.get(name), options, bots, seed, index)
    return Game(row["winner"] or None, int(row["turn"]), time.process_time() - start)


def run_matches(
    ruleset: str,
    options: Mapping[str, Any],
    pairings: Sequence[Mapping[str, str]],
    games: int,
    seed: int,
    *,
    jobs: int = 1,
    on_game: Callable[[], None] | None = None,
) -> list[Match]:
    """Play ``games`` games of each pairing, game ``i`` of every pairing on the dice of game ``i``.

    On ``jobs`` processes (every game its own task, the long matches interleaved with the short); the
    results are the same whatever ``jobs``. ``on_game`` is called as each game ends (a progress bar).
    """
    tasks = [(ruleset, dict(options), dict(bots), seed, i) for bots in pairings for i in range(games)]
    matches = [Match(dict(bots)) for bots in pairings]
    for number, game in enumerate(_played(tasks, jobs)):
        matches[number // games].games.append(game)
        if on_game is not None:
            on_game()
    return matches


def _played(tasks: list[tuple[str, dict[str, Any], dict[str, str], int, int]], jobs: int) -> Iterator[Game]:
    if jobs <= 1:
        yield from map(play_game, tasks)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(play_game, tasks, chunksize=1)
