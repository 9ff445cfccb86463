"""Variants of the B-17 raid's bots measured against the book for issue 29's ``hard`` (docs/rules/b17.md, the levels).

None of them is a level: each was screened with ``bench/b17_levels.py --apart --levels NAME`` (which
registers ``VARIANTS`` for its run) and none beat the book by issue 29's 5 points. They are kept so that
every figure of the table in docs/rules/b17.md can be played again. Each plays the book wherever it does
not say otherwise, on the bot's own generator as the book draws it (so that a paired game differs from
the book's only where the variant chose otherwise).

- ``booksearch``: the book's order, replaced only when playouts say so (:class:`BookSearchBot`);
  ``bs128`` searches both sides' moves at 128 playouts a decision, ``bs128-german`` the fighters' only,
  ``bs128-depth2`` the fighters' with playouts to the end of the next turn (no stop at the seat's next
  decision).
- ``lead2``: fighters weigh the attacks on the 3 bombers nearest their nose as the book weighs its own
  (gunners met, a plain attack one gunner more), less 2 gunners for the box's leader (a damaged leader
  slows the whole box: its followers must fly their whole move and circle to hold their places).
- ``agg40``: the book's fighters, whose attack on a bomber within 40" of the target's centre (its last
  turns before the flak and the bomb run) takes the +1 whatever gunners it meets.
- ``careful``: the book's fighters, a damaged fighter (its next damage destroys it) counting each gunner
  twice.
- ``fast``: the book's bombers, the box holding to its fastest bomber rather than to its first.
"""

from __future__ import annotations

import functools
import math
import zlib
from collections.abc import Callable, Collection
from typing import Any, Literal

import numpy as np

from grognard.bots.search import SearchBot
from grognard.core.engine import Decision, Game
from grognard.core.ruleset import BotFactory
from grognard.rulesets.b17 import bots as B
from grognard.rulesets.b17 import ends as E
from grognard.rulesets.b17 import reckoning as K
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.actions import Fly
from grognard.rulesets.b17.attacks import Score, _bonus_attacks, _score_attacks, generic_scored
from grognard.rulesets.b17.game import B17Game, FlySpace
from grognard.rulesets.b17.state import Aircraft


class _Search(SearchBot):
    """The search with its first candidate given (the book's order), not asked of a policy on a clone."""

    given: Any = None

    def menu(self, game: Game, decision: Decision, entropy: int) -> tuple[list[Any], bool]:
        options: list[Any] = [self.given] if self.given is not None else []
        for action in self.candidates(game, decision, self.k) if self.candidates is not None else []:
            if not any(action == seen for seen in options):
                options.append(action)
        return options, bool(options) and self.given is not None


class BookSearchBot:
    """The book's order, or a candidate that beats it in the playouts.

    At each decision of ``kinds`` (``move``, ``guns``) for a seat of ``sides`` the bot asks its own book
    first (``bots.DoctrineBot`` on the bot's generator, drawing what the book draws), then plays that
    order and the rule set's search candidates out on clones (``bots.search.SearchBot``: common random
    numbers, successive halving, the book as the rollout policy for both sides, ``evaluate`` at the leaf)
    and keeps the book's unless another beats it by ``confidence`` standard errors of their paired
    difference. The playouts are seeded from the bot's generator as it stands after the book's choice, the
    decision and the turn, read without drawing from it: a raid where the search keeps every order is
    the book's raid, dice and all, and a session that resets the generator before each step (the
    terminal, on resuming) searches alike.
    """

    def __init__(
        self,
        rng: np.random.Generator,
        *,
        playouts: int = 128,
        depth: int | None = 1,
        until_own: bool | Collection[str] = ("german",),
        kinds: Collection[str] = ("move",),
        sides: Collection[str] = ("american", "german"),
        confidence: float | None = 1.5,
        allocation: Literal["ucb", "flat", "halving"] = "halving",
    ) -> None:
        from grognard.rulesets import get

        self.rng = rng
        self.book = B.DoctrineBot(rng)
        self.kinds, self.sides = tuple(kinds), tuple(sides)
        self.search = _Search(
            np.random.default_rng(0),
            get("b17"),
            playouts=playouts,
            depth=depth,
            allocation=allocation,
            confidence=confidence,
            until_own=until_own,
            rollout="book",
        )

    def choose(self, game: Any, decision: Decision) -> Any:
        choice = self.book.choose(game, decision)
        if decision.id.split(" ", 1)[0] not in self.kinds or game.side_of(decision.seat) not in self.sides:
            return choice
        self.search.given = choice
        self.search.rng = np.random.default_rng(_entropy(self.rng, decision.id, game.turn))
        try:
            return self.search.choose(game, decision)
        finally:
            self.search.given = None


def _entropy(rng: np.random.Generator, key: str, turn: int) -> np.random.SeedSequence:
    """A seed from ``rng``'s state (read, not drawn), ``key`` and ``turn``."""
    state = rng.bit_generator.state["state"]
    words = [int(v) for v in state.values()] if isinstance(state, dict) else [int(state)]
    return np.random.SeedSequence([*words, zlib.crc32(key.encode()), turn])


# ----------------------------------------------------------------------------- heuristic fighters
Cost = Callable[[B17Game, Aircraft, Aircraft, Score], float]


def book_cost(game: B17Game, f: Aircraft, b: Aircraft, score: Score) -> float:
    """The book's weight of an attack (clause *gunners*): the gunners met, a plain attack one more."""
    return score[2] + E.PLAIN * score[1]


def fighter_attack(game: B17Game, f: Aircraft, cost: Cost, targets: int = 1) -> Fly | None:
    """The attack of least ``cost`` on the closest bomber (``targets=1``, the book's binding) or on the
    ``targets`` bombers nearest the nose; never one that leaves the table now or next move; None: none."""
    length, options = game.allowance(f), game.state.options
    minimum = R.minimum_straight(f, length)
    closest = K.closest_bombers(options, f, game.flying_bombers())
    if targets == 1:
        bombers, space = closest[:1], FlySpace(game, f.label, closest)
    else:
        near = sorted(
            game.flying_bombers(), key=lambda b: (R.attack_range(options, f, f.x, f.y, f.heading, b), b.label)
        )
        bombers, space = near[:targets], FlySpace(game, f.label)
    best: tuple[float, Score] | None = None
    chosen: Fly | None = None
    for b in bombers:
        bonus = _bonus_attacks(game, f, b, length, minimum)
        # the book keeps a +1 path only if it earns the +1; free of the closest bomber, as hard.fighter_move
        scored = [
            (s, p)
            for p, s in zip(bonus, _score_attacks(game, f, bonus, space), strict=True)
            if s is not None and (targets > 1 or not s[1])
        ]
        scored += [
            (s, Fly(f.label, t[0], t[1], b.label, t[2])) for s, t in generic_scored(game, f, b, length, minimum, space)
        ]
        for score, plan in scored:
            if not score[0] and (best is None or (cost(game, f, b, score), score) < best):
                best, chosen = (cost(game, f, b, score), score), plan
    return chosen


class HeuristicBot:
    """The book, but its fighters' attacks weighed by ``cost`` over ``targets`` bombers, and with ``fastest``
    its box holding to its fastest bomber."""

    def __init__(
        self, rng: np.random.Generator, cost: Cost | None = None, targets: int = 1, fastest: bool = False
    ) -> None:
        self.rng = rng
        self.book = B.DoctrineBot(rng)
        self.cost, self.targets, self.fastest = cost, targets, fastest

    def choose(self, game: B17Game, decision: Decision) -> Any:
        kind, _, label = decision.id.partition(" ")
        plan: Fly | None = None
        if kind == "move":
            a = game.aircraft(label)
            if a.bomber and self.fastest:
                scored, _ = B.bomber_scored(game, a, self.rng, fastest=True)
                row = min(scored) if scored else None
                plan = Fly(a.label, row[3], row[4]) if row else None
            elif not a.bomber and self.cost is not None:
                plan = fighter_attack(game, a, self.cost, self.targets)
        if plan is not None and decision.space.contains(plan):
            return plan
        return self.book.choose(game, decision)


def _lead(gunners: float) -> Cost:
    def cost(game: B17Game, f: Aircraft, b: Aircraft, score: Score) -> float:
        return book_cost(game, f, b, score) - (gunners if B._box_leader(game, b) is b else 0.0)

    return cost


def _aggressive(inches: float) -> Cost:
    def cost(game: B17Game, f: Aircraft, b: Aircraft, score: Score) -> float:
        late = math.dist((b.x, b.y), B.TARGET_CENTRE) <= inches
        return 10.0 * score[1] + score[2] if late else book_cost(game, f, b, score)

    return cost


def _careful(game: B17Game, f: Aircraft, b: Aircraft, score: Score) -> float:
    return 2 * score[2] + E.PLAIN * score[1] if f.damage else book_cost(game, f, b, score)


VARIANTS: dict[str, BotFactory] = {
    "bs128": functools.partial(BookSearchBot, playouts=128),
    "bs128-german": functools.partial(BookSearchBot, playouts=128, sides=("german",)),
    "bs128-depth2": functools.partial(BookSearchBot, playouts=128, depth=2, until_own=False, sides=("german",)),
    "lead2": functools.partial(HeuristicBot, cost=_lead(2.0), targets=3),
    "agg40": functools.partial(HeuristicBot, cost=_aggressive(40.0)),
    "careful": functools.partial(HeuristicBot, cost=_careful),
    "fast": functools.partial(HeuristicBot, fastest=True),
}
