"""The coach: each decision a person made, beside what the ``hard`` bot would have chosen, and what it cost.

For a decision of ``seat`` at a position, the coach asks the rule set's ``hard`` level what it would choose
there, and plays both choices out ``playouts`` times, in pairs, from what ``seat`` could see
(:func:`grognard.analysis.winprob.sample_hidden`: fresh dice, another seat's sealed choice forgotten, as the
win-probability machinery estimates): pair ``i`` applies each choice to a clone sampled from the same dice
stream, and the playouts are played by the same bots (the doctrine, as ``win_probability``) from the same
stream, so the two estimates differ by the choice and little else. The difference of the side's chance to
win (the hard bot's choice's less the person's: positive, the person's choice cost that much) comes with
its 95% interval (``analysis.stats.paired_difference``); and, where the chance is the same (a default Omaha
beach: the Americans win every playout either way), the mean turn the game ended in each.

A choice the hard bot makes too costs nothing: it is not played out. The budget is ``playouts`` pairs a
decision weighed, each seeded from ``seed`` and the record line, so a coach of a record is the same every
time it is run.

>>> from grognard.core.dice import SeededDice
>>> from grognard import rulesets
>>> game = rulesets.get("omaha").create({"germans": 1, "fresh_squads": 0}, SeededDice(4))
>>> d = game.pending()[0]
>>> w = weigh(game, d.seat, d.id, d.space.candidates(3)[0], playouts=4, seed=1)
>>> w.suggested, w.agreed, w.playouts
('place G1 1 3', False, 4)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from grognard import rulesets
from grognard.analysis.stats import paired_difference
from grognard.analysis.winprob import MAX_STEPS, sample_hidden
from grognard.core.dice import BOTS, DICE, stream
from grognard.core.engine import Game
from grognard.core.errors import RecordError
from grognard.core.play import play_out
from grognard.core.reasons import reason_for
from grognard.core.record import replay
from grognard.core.ruleset import Bot

__all__ = [
    "COACH_LEVEL",
    "COACH_PLAYOUTS",
    "KEY_DECISIONS",
    "Coaching",
    "Weighed",
    "coach_lines",
    "decisions_of",
    "weigh",
]

COACH_LEVEL = "hard"  # the level whose choice a person's is set beside
COACH_PLAYOUTS = 24  # pairs of playouts a decision weighed (the budget; bench/coach.py measures a class game)
KEY_DECISIONS = 3  # the decisions that gained or cost the most, shown apart
HARD_STREAM = 7  # below a decision's seed: the sample the hard bot chooses in


@dataclass(frozen=True)
class Weighed:
    """One decision a person made, weighed against the hard bot's choice (see the module).

    ``line`` is its record line (1: the header); ``playouts`` the pairs played (0: the same choice);
    ``made_wins`` / ``suggested_wins`` the playouts the seat's side won after each choice, ``gained`` the
    pairs the suggested choice won and the made one lost, ``lost`` the other way; ``*_turns`` the sum of
    the turns the playouts ended on.
    """

    line: int
    turn: int
    seat: str
    side: str
    decision: str
    made: str
    suggested: str
    playouts: int = 0
    made_wins: int = 0
    suggested_wins: int = 0
    gained: int = 0
    lost: int = 0
    made_turns: int = 0
    suggested_turns: int = 0
    why: str = ""  # the hard bot's reason for its choice (core.reasons: its doctrine clause, in words)

    @property
    def agreed(self) -> bool:
        """The person chose as the hard bot would."""
        return self.made == self.suggested

    def difference(self) -> tuple[float, float, float]:
        """The suggested choice's chance to win less the person's, with its 95% interval (fractions)."""
        if self.agreed:
            return 0.0, 0.0, 0.0
        return paired_difference(self.gained, self.lost, self.playouts)

    @property
    def beyond(self) -> bool:
        """The difference is told apart from none: its interval leaves out 0."""
        _, low, high = self.difference()
        return low > 0 or high < 0

    def turns(self) -> float:
        """How many turns later the game ended after the suggested choice than after the person's (mean)."""
        return (self.suggested_turns - self.made_turns) / self.playouts if self.playouts else 0.0

    def p_made(self) -> float:
        return self.made_wins / self.playouts if self.playouts else 0.0

    def p_suggested(self) -> float:
        return self.suggested_wins / self.playouts if self.playouts else 0.0

    def verdict(self) -> str:
        """In a few words: ``cost 22 points ... [+8, +36]``, ``gained ...`` (beyond the interval), ``no clear
        difference: +4 points [-4, +12], within chance``, ``as the hard bot would``."""
        if self.agreed:
            return "as the hard bot would"
        diff, low, high = self.difference()
        span = f"[{100 * low:+.0f}, {100 * high:+.0f}]"
        if self.beyond and diff > 0:
            return f"cost {100 * diff:.0f} points of the chance to win {span}"
        if self.beyond:
            return f"gained {-100 * diff:.0f} points over the hard bot's {span}"
        if diff:
            return f"no clear difference: {100 * diff:+.0f} points {span}, within chance"
        later = self.turns()
        if later:
            when = "sooner" if later < 0 else "later"
            return f"same chance to win; after the hard bot's choice the game ended {abs(later):.1f} turns {when}"
        return "no difference found"

    def to_json(self) -> dict[str, Any]:
        diff, low, high = self.difference()
        return {
            "line": self.line,
            "turn": self.turn,
            "seat": self.seat,
            "side": self.side,
            "decision": self.decision,
            "made": self.made,
            "suggested": self.suggested,
            "agreed": self.agreed,
            "playouts": self.playouts,
            "p_made": self.p_made(),
            "p_suggested": self.p_suggested(),
            "difference": diff,
            "interval": [low, high],
            "beyond": self.beyond,
            "turns_later": self.turns(),
            "verdict": self.verdict(),
            "why": self.why,
        }


@dataclass(frozen=True)
class Coaching:
    """The decisions weighed, in game order."""

    ruleset: str
    playouts: int
    seed: int
    weighed: tuple[Weighed, ...]

    def of(self, seats: Iterable[str]) -> list[Weighed]:
        wanted = set(seats)
        return [w for w in self.weighed if w.seat in wanted]

    def key(
        self, seats: Iterable[str] | None = None, count: int = KEY_DECISIONS, lines: Collection[int] | None = None
    ) -> list[Weighed]:
        """The ``count`` decisions that gained or cost the most (the size of the difference, then of the
        turns it moved the end), largest first; a choice the hard bot would make is never one. ``seats`` or
        ``lines`` (record lines) keep the decisions of one player."""
        pool = [w for w in (self.weighed if seats is None else self.of(seats)) if not w.agreed]
        if lines is not None:
            pool = [w for w in pool if w.line in lines]
        ranked = sorted(pool, key=lambda w: (-abs(w.difference()[0]), -abs(w.turns()), w.line))
        return [w for w in ranked if w.difference()[0] or w.turns()][:count]

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "level": COACH_LEVEL,
            "playouts": self.playouts,
            "seed": self.seed,
            "weighed": [w.to_json() for w in self.weighed],
        }


def _playout_bot(ruleset_name: str) -> str:
    ruleset = rulesets.get(ruleset_name)
    return "doctrine" if "doctrine" in ruleset.bots else ruleset.default_bot


def _play(sim: Game, name: str, seed: np.random.SeedSequence) -> tuple[str | None, int]:
    """``sim`` played to its end by ``name`` on every seat: (the winning side or None, the last turn)."""
    ruleset = rulesets.get(sim.ruleset)
    rng = np.random.default_rng(seed)
    made: dict[str, Bot] = {}

    def player(who: str) -> Bot:
        if who not in made:
            made[who] = ruleset.bots[name](rng)
        return made[who]

    result = play_out(sim, player, checked=False, max_steps=MAX_STEPS)
    return result.winner, result.turn


def suggestion(game: Game, seat: str, decision_id: str, seed: np.random.SeedSequence) -> tuple[Any, str]:
    """What the hard bot chooses for ``decision_id`` from what ``seat`` sees (a sampled clone: it reads no
    die to come and no sealed choice of another), and its reason in words (``core.reasons``; "" for a bot
    that gives none). ``KeyError`` when the decision is not owed."""
    ruleset = rulesets.get(game.ruleset)
    level = COACH_LEVEL if COACH_LEVEL in ruleset.bots else ruleset.default_bot
    seen = sample_hidden(game, seat, stream(seed, HARD_STREAM))
    decision = next((d for d in seen.pending() if d.id == decision_id and d.seat == seat), None)
    if decision is None:
        raise KeyError(f"{seat} owes no decision {decision_id!r} here")
    bot = ruleset.bots[level](np.random.default_rng(stream(seed, HARD_STREAM, BOTS)))
    action = bot.choose(seen, decision)
    reason = reason_for(bot, seen, decision, action, read=True)  # read here, though ``seen`` builds no events
    return action, reason.line if reason is not None else ""


def weigh(
    game: Game, seat: str, decision_id: str, made: Any, *, playouts: int = COACH_PLAYOUTS, seed: int = 0, line: int = 0
) -> Weighed:
    """``made`` (an action, for ``seat``'s decision ``decision_id`` at ``game``) beside the hard bot's choice.

    ``game`` is not changed. ``line`` names the decision in the record and keys its streams: the coach of
    one record is the same run after run.
    """
    if playouts < 1:
        raise ValueError(f"playouts {playouts}: at least 1")
    base = stream(seed, line)
    suggested, why = suggestion(game, seat, decision_id, base)
    side = game.side_of(seat)
    out = Weighed(line, game.turn, seat, side, decision_id, str(made), str(suggested), why=why)
    if out.agreed:
        return out
    bot = _playout_bot(game.ruleset)
    wins = [0, 0]
    turns = [0, 0]
    gained = lost = 0
    for i in range(playouts):
        won = []
        for k, action in enumerate((made, suggested)):
            sim = sample_hidden(game, seat, stream(base, i, DICE))
            sim.apply(seat, action)
            winner, turn = _play(sim, bot, stream(base, i, BOTS))
            won.append(winner == side)
            wins[k] += winner == side
            turns[k] += turn
        gained += won[1] and not won[0]
        lost += won[0] and not won[1]
    return Weighed(
        line, game.turn, seat, side, decision_id, str(made), str(suggested),
        playouts, wins[0], wins[1], gained, lost, turns[0], turns[1], why,
    )  # fmt: skip


def decisions_of(
    lines: Sequence[dict[str, Any]], wanted: Callable[[int, str], bool]
) -> Iterator[tuple[int, Game, str, str, Any]]:
    """The decisions of a record ``wanted(line, seat)`` picks: (line, the game just before, seat, decision
    id, action). The record is replayed (every digest checked: ``RecordError`` names a bad line)."""
    ruleset = rulesets.get(str(lines[0].get("ruleset")))
    at = [n for n, line in enumerate(lines, 1) if line.get("type") in ("action", "resign", "end")]
    found: list[tuple[int, Game, str, str, Any]] = []
    count = [0]

    def before(game: Game) -> bool:
        number = at[count[0]]
        count[0] += 1
        line = lines[number - 1]
        seat = str(line.get("seat"))
        if line.get("type") == "action" and wanted(number, seat):
            action = ruleset.parse_action(str(line["action"]))
            decision = game.find_decision(seat, action)
            found.append((number, game.clone(), seat, decision.id, action))
        return False

    replay(lines, rulesets.get, until=before)
    yield from found


def coach_lines(
    lines: Sequence[dict[str, Any]],
    wanted: Callable[[int, str], bool],
    *,
    playouts: int = COACH_PLAYOUTS,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> Coaching:
    """Every decision of the record ``lines`` that ``wanted(line, seat)`` picks, weighed (see the module).

    ``progress(done, total)`` is told as each is weighed; ``stop()`` asked before each: True gives up
    (``RecordError`` is not raised for that: the decisions weighed so far are returned).
    """
    if not lines or lines[0].get("type") != "header":
        raise RecordError("the record must start with a header line", 1)
    found = list(decisions_of(lines, wanted))
    out: list[Weighed] = []
    for done, (number, game, seat, decision, action) in enumerate(found):
        if stop is not None and stop():
            break
        if progress is not None:
            progress(done, len(found))
        out.append(weigh(game, seat, decision, action, playouts=playouts, seed=seed, line=number))
    if progress is not None:
        progress(len(out), len(found))
    return Coaching(str(lines[0]["ruleset"]), playouts, seed, tuple(out))
