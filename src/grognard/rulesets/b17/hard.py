"""The B-17 raid's ``hard`` bots: the book's play freed of the seed's automaton, and bombers that fight back.

Germans (the seed binds its automaton to the closest bomber, b17.23; a ``hard`` pilot is a person flying
freely, RULINGS B19): each fighter weighs the attacks on the ``TARGETS`` bombers nearest its nose, each as
the book weighs its attacks (the gunners met at the stop, at the end and in the bombers' next reach, a
plain attack ``ends.PLAIN`` gunner more; never a move that leaves the table now or next move), less
``FOCUS`` gunners for each engine the bomber has already lost (a damaged bomber is nearer its end and
slower to the target: the Germans finish one bomber rather than scratch four). With no attack in reach,
the book's interception.

Americans: the book's box and bomb run, except that a bomber may give up to ``SLACK`` inches of its
place in the box (or of its way to the target) to end its move where its gunners reach fighters (b17.43,
b17.46: a bomber fires at every fighter within 4" at the end of its move), a damaged fighter counting
double (its second damage destroys it). Gunners fire as the book's do.

Deterministic for a seed: the book's variety draws from the bot's generator (clause *variety*).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from grognard.core.engine import Decision
from grognard.core.reasons import Reason, acting
from grognard.rulesets.b17 import bots as B
from grognard.rulesets.b17 import ends as E
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.actions import Fly
from grognard.rulesets.b17.attacks import Score, _bonus_attacks, _score_attacks, generic_scored
from grognard.rulesets.b17.data import ATTACK_RANGE
from grognard.rulesets.b17.game import B17Game
from grognard.rulesets.b17.spaces import FlySpace
from grognard.rulesets.b17.state import Aircraft

TARGETS = 3  # bombers a hard fighter weighs, nearest its nose first
FOCUS = 3.0  # gunners an engine already out on the bomber is worth to a hard fighter
SLACK = 0.0  # inches of its place a hard bomber gives to bring its gunners on fighters (none: chasing costs the raid)


class HardBot:
    """The ``hard`` level of the B-17 raid for either side (the module's docstring)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.book = B.DoctrineBot(rng)

    def choose(self, game: B17Game, decision: Decision) -> Any:
        kind, _, label = decision.id.partition(" ")
        if kind == "move":
            a = game.aircraft(label)
            plan = bomber_move(game, a, self.rng) if a.bomber else fighter_move(game, a, self.rng)
            if plan is not None and decision.space.contains(plan):
                return plan
        return self.book.choose(game, decision)

    def explain(self, game: B17Game, decision: Decision, action: Any) -> Reason:
        """Why ``action`` (not yet applied): clause ``hard`` where it flies freely, else the book's (``reasons``)."""
        from grognard.rulesets.b17.reasons import hard_reason, piece

        return acting(hard_reason(game, decision, action), piece(action))


def fighter_move(game: B17Game, f: Aircraft, rng: np.random.Generator | None = None) -> Fly | None:
    """A hard fighter's move: the attack of least cost on the nearest bombers, else the book's."""
    length = game.allowance(f)
    minimum = R.minimum_straight(f, length)
    options = game.state.options
    bombers = sorted(
        game.flying_bombers(), key=lambda b: (R.attack_range(options, f, f.x, f.y, f.heading, b), b.label)
    )[:TARGETS]
    best: tuple[float, Score] | None = None
    chosen: Fly | None = None
    for b in bombers:
        space = FlySpace(game, f.label)
        bonus = _bonus_attacks(game, f, b, length, minimum)
        scored: list[tuple[Score, Fly]] = [
            (s, p) for p, s in zip(bonus, _score_attacks(game, f, bonus, space), strict=True) if s is not None
        ]
        scored += [
            (s, Fly(f.label, t[0], t[1], b.label, t[2])) for s, t in generic_scored(game, f, b, length, minimum, space)
        ]
        for score, plan in scored:
            if score[0]:
                continue
            cost = score[2] + E.PLAIN * score[1] - FOCUS * b.damage
            if best is None or (cost, score) < best:
                best, chosen = (cost, score), plan
    if chosen is not None:
        return chosen
    plans = B.fighter_plans(game, f, 1, rng)
    return plans[0] if plans else None


def _fighters_reached(game: B17Game, a: Aircraft, ends: dict[str, Any]) -> list[float]:
    """For each end of a bomber's move: the fighters within 4" of its guns there (roughly: the centres within
    4" and the two models' half-diagonals), a damaged fighter counting double."""
    fighters = game.flying_fighters()
    n = len(ends["x"])
    if not fighters:
        return [0.0] * n
    x, y = np.asarray(ends["x"])[:, None], np.asarray(ends["y"])[:, None]
    dims = game.dims(a)
    total = np.zeros(n)
    for f in fighters:
        fd = game.dims(f)
        limit = ATTACK_RANGE + (math.hypot(dims.length, dims.span) + math.hypot(fd.length, fd.span)) / 2
        near = ((x[:, 0] - f.x) ** 2 + (y[:, 0] - f.y) ** 2) <= limit * limit
        total += near * (2.0 if f.damage else 1.0)
    out: list[float] = total.tolist()
    return out


def bomber_move(
    game: B17Game,
    a: Aircraft,
    rng: np.random.Generator | None = None,
    slack: float | None = None,
    lookahead: bool = True,
    weave: bool = False,
) -> Fly | None:
    """A hard bomber's move: of the book's moves of the same aim as its best and within ``SLACK`` inches of
    it (never off the table), the one that ends with the most fighters under its guns; the book's order on
    a tie."""
    scored, ends = B.bomber_scored(game, a, rng if weave else None, lookahead=lookahead)
    if not scored:
        return None
    scored.sort()
    first = scored[0]
    if first[0] or first[1] == 0:  # off the table whatever it does, or a bomb run now: the book's move
        return Fly(a.label, first[3], first[4])
    give = SLACK if slack is None else slack
    near = [row for row in scored if not row[0] and row[1] == first[1] and row[2] <= first[2] + give]
    reached = _fighters_reached(game, a, ends)
    best = max(near, key=lambda row: (reached[row[5]], -scored.index(row)))
    return Fly(a.label, best[3], best[4])
