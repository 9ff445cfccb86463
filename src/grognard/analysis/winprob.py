"""Who is winning: P(each side wins) from a position, for one seat, by playouts of the doctrine.

:func:`win_probability` plays ``playouts`` games out from the current state
with a rule set's bot (``"doctrine"`` by default) on every seat and counts who
won; each side's share gets a 95% Wilson interval (``analysis.stats.wilson``).
Draws, scored class periods and games a turn cap ended are counted apart
(``other``).

It uses only what ``seat`` may see (``None``: a spectator, who sees least).
Each playout runs on a clone whose hidden part is sampled afresh, never read:

- the dice: the game's own source (a seeded stream fixes every future roll,
  hidden obstacles not yet rolled among them) is replaced by fresh dice drawn
  from ``seed`` alone;
- another seat's sealed secret choice (a melee group's stay or retreat) that
  ``seat`` does not see (``Game.shares_secrets_with``: the seats of one side may share them) is
  removed from the clone, so its decision is owed again there and the bot
  chooses it afresh in each playout.

So two states that differ only in what ``seat`` may not see give the same
estimate for the same ``seed`` (``tests/test_winprob.py`` proves it). Playout
``i`` draws its dice from ``stream(seed, i, DICE)`` and its bots from ``stream(seed, i, BOTS)``
(``core.dice.stream``: the paths of game ``i`` of a Monte Carlo run seeded ``seed``).

>>> from grognard import rulesets
>>> from grognard.core.dice import BOTS, DICE, SeededDice, stream
>>> game = rulesets.get("omaha").create({"germans": 1}, SeededDice(4))
>>> odds = win_probability(game, "American 1", playouts=8, seed=1)
>>> sorted(odds.sides), odds.playouts, sum(odds.wins.values()) + odds.other
(['american', 'german'], 8, 8)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from grognard import rulesets
from grognard.analysis.stats import wilson
from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.engine import Game
from grognard.core.play import play_out
from grognard.core.ruleset import Bot

__all__ = [
    "DEFAULT_PLAYOUTS",
    "Superseded",
    "WinProbability",
    "sample_hidden",
    "win_probabilities",
    "win_probability",
]

DEFAULT_PLAYOUTS = 24  # modest: a skirmish playout from the start takes about a second
PLAYOUT_DICE_BLOCK = 256  # dice a playout's source draws at once (a short playout needs few)
MAX_STEPS = 200_000  # a playout longer than this is a rule-set bug


class Superseded(Exception):
    """An estimate given up before its end: its ``stop()`` said the position had moved on."""


@dataclass(frozen=True)
class WinProbability:
    """The estimate at one position: ``wins[side]`` playouts won of ``playouts``; ``other``: none won.

    ``turn`` is the game's turn at the position; ``seat`` the seat it was made for (``None``: a spectator).
    """

    seat: str | None
    turn: int
    playouts: int
    wins: Mapping[str, int]
    other: int

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(self.wins)

    def p(self, side: str) -> float:
        """The share of playouts ``side`` won (0 with no playouts)."""
        return self.wins[side] / self.playouts if self.playouts else 0.0

    def interval(self, side: str) -> tuple[float, float]:
        """The 95% Wilson interval of ``side``'s chance to win."""
        return wilson(self.wins[side], self.playouts)

    def line(self) -> str:
        """One line for people: ``american 62% [44, 77]  german 38% [23, 56]  (24 playouts)``."""
        parts = []
        for side in self.sides:
            low, high = self.interval(side)
            parts.append(f"{side} {100 * self.p(side):.0f}% [{100 * low:.0f}, {100 * high:.0f}]")
        if self.other:
            parts.append(f"no winner {100 * self.other / self.playouts:.0f}%")
        return "  ".join(parts) + f"  ({self.playouts} playouts)"

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "turn": self.turn,
            "playouts": self.playouts,
            "other": self.other,
            "sides": {
                side: {"wins": self.wins[side], "p": self.p(side), "interval": list(self.interval(side))}
                for side in self.sides
            },
        }


def _knows(game: Game, seat: str | None, chooser: str) -> bool:
    """Whether ``seat`` sees ``chooser``'s sealed choices (its own, and those its side shares)."""
    return seat is not None and seat in game.shares_secrets_with(chooser)


def sample_hidden(game: Game, seat: str | None, seed: np.random.SeedSequence) -> Game:
    """A clone of ``game`` with what ``seat`` may not see sampled afresh from ``seed`` (see the module).

    The dice are new (``SeededDice`` of ``seed``); every sealed choice but those ``seat`` sees is forgotten, so its
    decision is owed again. The real game is not touched.
    """
    sim = game.clone().unobserved()  # a playout's events are read by nobody
    dice = SeededDice(seed)
    dice.BLOCK = PLAYOUT_DICE_BLOCK  # this source only: an instance override of the class block size
    sim.dice = dice
    if sim.sealed:
        kept = {
            group: {key: choice for key, choice in choices.items() if _knows(game, seat, choice[0])}
            for group, choices in sim.sealed.items()
        }
        sim.sealed = {group: choices for group, choices in kept.items() if choices}
    sim.changed()
    return sim


def win_probability(
    game: Game,
    seat: str | None,
    *,
    playouts: int = DEFAULT_PLAYOUTS,
    seed: int = 0,
    bot: str | None = None,
    stop: Callable[[], bool] | None = None,
) -> WinProbability:
    """P(each side wins) from ``game`` as ``seat`` sees it, by ``playouts`` playouts of ``bot`` on every seat.

    ``bot``: a bot of the rule set (default ``"doctrine"``, else its default bot). A game already over
    gives its result exactly (every playout is that result). Raises ``ValueError`` for fewer than one
    playout or a bot the rule set lacks; ``grognard.core.errors.IllegalAction`` for a seat not in the game.
    ``stop``: asked before each playout; when it says True the estimate is given up (``Superseded``).
    """
    if playouts < 1:
        raise ValueError(f"playouts {playouts}: at least 1")
    ruleset = rulesets.get(game.ruleset)
    name = bot if bot is not None else ("doctrine" if "doctrine" in ruleset.bots else ruleset.default_bot)
    if name not in ruleset.bots:
        raise ValueError(f"bot {name!r} is not a bot of {ruleset.name}; bots: {', '.join(ruleset.bots)}")
    if seat is not None:
        game.side_of(seat)  # IllegalAction for a seat not in the game
    wins = dict.fromkeys(game.sides, 0)
    other = 0
    for index in range(playouts):
        if stop is not None and stop():
            raise Superseded(f"the estimate at turn {game.turn} was given up after {index} playouts")
        result = game.result
        if result is None:
            dice_seed, bot_seed = stream(seed, index, DICE), stream(seed, index, BOTS)
            sim = sample_hidden(game, seat, dice_seed)
            rng = np.random.default_rng(bot_seed)
            made: dict[str, Bot] = {}

            def player(who: str, rng: np.random.Generator = rng, made: dict[str, Bot] = made) -> Bot:
                if who not in made:
                    made[who] = ruleset.bots[name](rng)
                return made[who]

            result = play_out(sim, player, checked=False, max_steps=MAX_STEPS)
        if result.winner in wins:
            wins[result.winner] += 1
        else:
            other += 1
    return WinProbability(seat, game.turn, playouts, wins, other)


def _hidden_key(game: Game, seat: str | None) -> tuple[Any, ...]:
    """What ``sample_hidden`` keeps for ``seat``: two seats with the same key get the same estimate."""
    return tuple(
        sorted(
            (str(group), str(key))
            for group, choices in game.sealed.items()
            for key, choice in choices.items()
            if _knows(game, seat, choice[0])
        )
    )


def win_probabilities(
    game: Game,
    seats: Iterable[str | None],
    *,
    playouts: int = DEFAULT_PLAYOUTS,
    seed: int = 0,
    stop: Callable[[], bool] | None = None,
) -> dict[str | None, WinProbability]:
    """``win_probability`` for each of ``seats``, played out once for all the seats whose sampled clones are
    the same (no sealed choice of their own in the game: the same as a spectator's). Each estimate is
    exactly what ``win_probability(game, seat, playouts=..., seed=...)`` gives; ``Superseded`` as there.
    """
    made: dict[tuple[Any, ...], WinProbability] = {}
    out: dict[str | None, WinProbability] = {}
    for seat in seats:
        key = _hidden_key(game, seat)
        if key not in made:
            made[key] = win_probability(game, seat, playouts=playouts, seed=seed, stop=stop)
        odds = made[key]
        out[seat] = WinProbability(seat, odds.turn, odds.playouts, odds.wins, odds.other)
    return out
