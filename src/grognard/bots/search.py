"""A search bot for any rule set: Monte Carlo playouts of each candidate, through the protocol alone.

For the decision it owes, the bot takes the rule set's search candidates
(``ruleset.analysis.search_candidates(game, decision, k)``, else the decision space's
menu ``space.candidates(k)``), adds the rollout policy's own choice in front (when
legal and not already there), and plays each candidate out: it clones the
game, gives the clone fresh seeded dice, applies the candidate, then lets the
rollout policy (by default the rule set's ``"doctrine"`` bot, else
``"random"``) answer every decision of every seat until the game ends, or until
``depth`` turns have begun since the decision (``game.turn``) or ``steps``
decisions have been answered after the candidate, or (``until_own``, for the
sides it names) until the seat owes its next decision. A finished playout scores 1
if the seat's side won, 0 if another side did; a draw, or a game cut short or
ended without a winner, scores ``ruleset.analysis.evaluate(game, side)`` when the rule
set offers it, else 0.5. The candidate with the best mean score is played
(ties: more playouts, then the earlier candidate), except that the policy's
own choice stands unless the best beats it by ``confidence`` standard errors
of their paired difference and by more than ``margin``: with a few dozen
playouts of a dice game most differences are luck, and a bot that follows
luck plays worse than its policy (``confidence=None``: always the best mean).

The budget is ``playouts`` playouts per decision, split over the candidates:
``allocation="ucb"`` (the default) gives each candidate one playout, then
the rest by UCB1 (mean + ``exploration`` * sqrt(ln N / n)); ``"flat"`` splits
them evenly; ``"halving"`` (successive halving) plays every candidate alike
for a round, keeps the better half by mean (the policy's own choice always
stays, for the comparison that may replace it) and spends the next round's
share of the budget on those, until two are left, so the playouts go to the
contenders and the final comparison is paired on many dice. With fewer
playouts than candidates only the first ``playouts`` candidates are tried;
with ``per_candidate`` set, only the first ``max(2, playouts //
per_candidate)`` (so that each is played out often enough for the paired
comparison with the policy's choice to mean something). A
decision with a single candidate is answered at once.

Limits: this is one-step policy improvement, not a game-tree search. Each
playout assumes that every later decision, the seat's own included, is the
policy's; a deviation that pays only because the policy will make up for it
later (holding back this turn, say, and advancing next turn by doctrine) is
found better again next turn, so the bot can put off what the policy would
do. Short playouts scored by a heuristic add its bias; long ones add noise.

Determinism: every random number comes from the bot's own generator, drawn
afresh at each decision (so a session that resets the generator before each
step, as the terminal does, replays the same choices); the playouts of every
candidate share their dice seeds (playout j of each candidate rolls the same
stream: common random numbers, so the comparison is not swamped by luck).

The real game is never touched: playouts run on clones with their own dice,
and the policy's choice is asked on a clone. Secret choices other seats have
sealed are removed from the clones (the seat would not see them); their
decisions are owed again there and the policy answers them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.engine import Decision, Game
from grognard.core.reasons import Reason, Weighed, interval, reason_for
from grognard.core.ruleset import Bot, BotFactory, Ruleset

__all__ = ["CandidateStats", "SearchBot"]

PLAYOUT_DICE_BLOCK = 256  # dice a playout's source draws at once (SeededDice's 1,024 would dominate a short playout)
SAFETY_STEPS = 100_000  # a playout longer than this is scored as unfinished

POLICY, PLAYOUTS = 0, 1  # a decision's streams (core.dice.stream): the policy's own choice, playout n at (1, n)


@dataclass
class CandidateStats:
    """What the search found for one candidate action."""

    action: Any
    scores: list[float] = field(default_factory=list)  # playout j's score (playout j of every candidate shares dice)

    @property
    def playouts(self) -> int:
        return len(self.scores)

    @property
    def mean(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else 0.0


class SearchBot:
    """Flat Monte Carlo search (UCB1 over the candidates) with a rollout policy; works for any rule set.

    ``playouts``: the budget per decision; ``depth``: turns a playout may begin
    after the decision's turn before it is cut short and scored (``None``: no
    limit); ``steps``: decisions a playout may answer after the candidate
    (``None``: no limit); ``k``: the size of the menu asked of the space;
    ``per_candidate``: playouts each candidate should get (the menu is cut to fit);
    ``rollout``: the name of the bot in ``ruleset.bots`` that plays the
    playouts (default ``"doctrine"`` if the rule set has one, else ``"random"``);
    ``evaluate``: the leaf score (default ``ruleset.analysis.evaluate``, else 0.5);
    ``until_own``: the sides (or ``True``: every side) whose playouts also stop
    when the seat owes its next decision (the candidate's own consequences, the
    other seats' answers to it, and no more: the least noise, the most trust in
    ``evaluate``; for a side whose next decision follows at once, as a B-17
    bomber's does the one before it, it would see nothing).
    """

    def __init__(
        self,
        rng: np.random.Generator,
        ruleset: Ruleset,
        *,
        playouts: int = 64,
        depth: int | None = None,
        steps: int | None = None,
        k: int = 16,
        per_candidate: int | None = None,
        rollout: str | None = None,
        allocation: Literal["ucb", "flat", "halving"] = "ucb",
        exploration: float = 1.0,
        include_policy: bool = True,
        confidence: float | None = 1.5,
        margin: float = 0.01,
        evaluate: Callable[[Any, str], float] | None = None,
        until_own: bool | Collection[str] = False,
    ) -> None:
        if playouts < 1:
            raise ValueError(f"a search needs at least one playout, not {playouts}")
        if depth is not None and depth < 0:
            raise ValueError(f"depth {depth} is negative")
        if steps is not None and steps < 0:
            raise ValueError(f"steps {steps} is negative")
        if allocation not in ("ucb", "flat", "halving"):
            raise ValueError(f"allocation {allocation!r}: one of ucb, flat, halving")
        self.rng = rng
        self.ruleset = ruleset
        self.playouts = playouts
        self.depth = depth
        self.steps = steps
        self.k = k
        self.per_candidate = per_candidate
        self.allocation = allocation
        self.exploration = exploration
        self.include_policy = include_policy
        self.confidence = confidence
        self.margin = margin
        self.until_own = until_own
        name = rollout if rollout is not None else ("doctrine" if "doctrine" in ruleset.bots else "random")
        if name not in ruleset.bots:
            raise ValueError(f"rollout bot {name!r} is not a bot of {ruleset.name}; bots: {', '.join(ruleset.bots)}")
        self.rollout_name = name
        self.policy: BotFactory = ruleset.bots[name]
        analysis = ruleset.analysis
        self.evaluate = evaluate if evaluate is not None else (analysis.evaluate if analysis is not None else None)
        self.candidates = analysis.search_candidates if analysis is not None else None
        self.last: list[CandidateStats] = []  # the statistics of the latest search (empty if none was needed)
        self.policy_first = False  # whether the latest search's first candidate was the policy's own choice

    # ------------------------------------------------------------------ the bot
    def choose(self, game: Game, decision: Decision) -> Any:
        entropy = int(self.rng.integers(2**63))
        options, policy_first = self.menu(game, decision, entropy)
        self.last = []
        self.policy_first = policy_first
        if len(options) == 1:
            return options[0]
        room = self.playouts if self.per_candidate is None else max(2, self.playouts // self.per_candidate)
        options = options[:room]
        if len(options) == 1:
            return options[0]
        side = game.side_of(decision.seat)
        stats = [CandidateStats(action) for action in options]
        for index in self._schedule(stats, policy_first):
            stat = stats[index]
            seed = stream(entropy, PLAYOUTS, stat.playouts)
            stat.scores.append(self.playout(game, decision, stat.action, side, seed))
        self.last = stats
        return stats[self.pick(stats, policy_first)].action

    def explain(self, game: Game, decision: Decision, action: Any) -> Reason:
        """Why ``action``, just chosen by :meth:`choose` for ``decision``: the policy's clause when the search
        kept the policy's choice, else ``RULESET.search``; the candidates weighed with their playouts' mean and
        95% interval (the best three, the chosen and the policy's among them)."""
        own = reason_for(self.policy(np.random.default_rng(0)), game, decision, action)
        stats = self.last
        if not stats or not any(s.action == action for s in stats):
            if own is not None:
                return own
            return Reason(f"{game.ruleset}.search", f"{action}: the only order worth weighing")
        chosen = next(i for i, s in enumerate(stats) if s.action == action)
        ranked = sorted(range(len(stats)), key=lambda i: (-stats[i].mean, i))
        shown = sorted({*ranked[:3], chosen, 0}, key=ranked.index)[:4]
        weighed = tuple(self._weighed(stats[i], i == chosen, i == 0 and self.policy_first) for i in shown)
        mean, low, high = interval(stats[chosen].scores)
        figures = f"{stats[chosen].playouts} playouts, mean {mean:.2f} [{low:.2f}, {high:.2f}]"
        if chosen == 0 and self.policy_first and own is not None:
            return Reason(own.clause, f"{own.line}; the search kept it ({figures}: no order did better)", weighed)
        policy = f"the {self.rollout_name}'s {stats[0].action}" if self.policy_first else "the others"
        return Reason(
            f"{game.ruleset}.search",
            f"{action}: won more of its playouts than {policy} on the same dice ({figures})",
            weighed,
        )

    @staticmethod
    def _weighed(stat: CandidateStats, chosen: bool, policy: bool) -> Weighed:
        mean, low, high = interval(stat.scores)
        own = ", the policy's own" if policy else ""
        return Weighed(str(stat.action), f"mean {mean:.2f} [{low:.2f}, {high:.2f}] of {stat.playouts}{own}", chosen)

    def pick(self, stats: Sequence[CandidateStats], policy_first: bool) -> int:
        """The index of the candidate to play: the best mean, unless the policy's own choice must stand.

        With ``confidence`` set and the policy's choice first, the best candidate
        replaces it only if it beats it on the playouts they share (the same dice)
        by ``confidence`` standard errors of the paired difference and by more
        than ``margin`` (a difference too small to matter is not worth leaving
        the policy for).
        """
        best = max(range(len(stats)), key=lambda i: (stats[i].mean, stats[i].playouts, -i))
        if best == 0 or not policy_first or self.confidence is None:
            return best
        shared = min(stats[0].playouts, stats[best].playouts)
        diffs = [b - a for a, b in zip(stats[0].scores[:shared], stats[best].scores[:shared], strict=True)]
        if len(diffs) < 2:
            return 0
        mean = sum(diffs) / len(diffs)
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))
        return best if mean > self.margin and mean >= self.confidence * spread / math.sqrt(len(diffs)) else 0

    def menu(self, game: Game, decision: Decision, entropy: int) -> tuple[list[Any], bool]:
        """The candidates: the policy's own choice first (if legal), then the space's menu, without repeats.

        Also tells whether the first candidate is the policy's choice.
        """
        options: list[Any] = []
        if self.include_policy:
            choice = self._policy_choice(game, decision, stream(entropy, POLICY))
            if choice is not None and decision.space.contains(choice):
                options.append(choice)
        policy_first = bool(options)
        listed = (
            self.candidates(game, decision, self.k)
            if self.candidates is not None
            else decision.space.candidates(self.k)
        )
        for action in listed:
            if not any(action == seen for seen in options):
                options.append(action)
        return options, policy_first

    def _schedule(self, stats: Sequence[CandidateStats], policy_first: bool) -> Iterable[int]:
        n = len(stats)
        if self.allocation == "flat":
            return [i % n for i in range(max(self.playouts, n))]
        if self.allocation == "halving":
            return _halving(stats, max(self.playouts, n), 0 if policy_first else None)
        return _UCB(stats, max(self.playouts, n), self.exploration)

    # ------------------------------------------------------------------ playouts
    def _policy_choice(self, game: Game, decision: Decision, seed: np.random.SeedSequence) -> Any:
        """What the rollout policy would play here, asked on a clone (a bot could be careless with the game)."""
        sim = self._clone(game, decision.seat, seed)
        mine = _matching(sim, decision)
        if mine is None:
            return None
        bot = self.policy(np.random.default_rng(stream(seed, BOTS)))
        return bot.choose(sim, mine)

    def _clone(self, game: Game, seat: str, seed: np.random.SeedSequence) -> Game:
        sim = game.clone().unobserved()  # a playout's events are read by nobody
        dice = SeededDice(stream(seed, DICE))
        dice.BLOCK = PLAYOUT_DICE_BLOCK  # this source only: an instance override of the class block size
        sim.dice = dice
        if sim.sealed:
            # what other seats chose in secret is not the seat's to know: forget it, the policy chooses again
            hidden = {
                group: {key: choice for key, choice in choices.items() if choice[0] == seat}
                for group, choices in sim.sealed.items()
            }
            sim.sealed = {group: choices for group, choices in hidden.items() if choices}
            sim.changed()
        return sim

    def playout(self, game: Game, decision: Decision, action: Any, side: str, seed: np.random.SeedSequence) -> float:
        """One playout of ``action`` for ``decision``: its score for ``side`` in [0, 1]."""
        sim = self._clone(game, decision.seat, seed)
        mine = _matching(sim, decision)
        if mine is None:
            sim.apply(decision.seat, action)  # checked: find the decision it answers
        else:
            sim.apply(decision.seat, action, checked=False, decision=mine)
        rng = np.random.default_rng(stream(seed, BOTS))
        bots: dict[str, Bot] = {}
        limit_turn = game.turn + self.depth if self.depth is not None else None
        limit_steps = min(self.steps, SAFETY_STEPS) if self.steps is not None else SAFETY_STEPS
        taken = 0
        stop_at_own = self.until_own is True or (self.until_own is not False and side in self.until_own)
        while sim.result is None:
            if limit_turn is not None and sim.turn >= limit_turn:
                break
            if taken >= limit_steps:
                break
            pending = sim.pending()
            if not pending:
                raise RuntimeError(f"{type(sim).__name__} owes no decision but is not over")
            owed = pending[0]
            if stop_at_own and owed.seat == decision.seat:
                break
            bot = bots.get(owed.seat)
            if bot is None:
                bot = bots[owed.seat] = self.policy(rng)
            sim.apply(owed.seat, bot.choose(sim, owed), checked=False, decision=owed)
            taken += 1
        return self.score(sim, side)

    def score(self, game: Game, side: str) -> float:
        """1 for a win of ``side``, 0 for another side's; else the rule set's evaluation, or 0.5."""
        result = game.result
        if result is not None and result.winner is not None:
            return 1.0 if result.winner == side else 0.0
        if result is not None and result.outcome == "draw":
            return 0.5
        if self.evaluate is None:
            return 0.5
        value = float(self.evaluate(game, side))
        return 0.5 if math.isnan(value) else min(max(value, 0.0), 1.0)


class _UCB:
    """The order of playouts under UCB1: each candidate once, then the best upper bound each time."""

    def __init__(self, stats: Sequence[CandidateStats], budget: int, exploration: float) -> None:
        self.stats = stats
        self.budget = budget
        self.exploration = exploration

    def __iter__(self) -> Iterator[int]:
        stats = self.stats
        for spent in range(self.budget):
            if spent < len(stats):
                yield spent
                continue
            log_n = math.log(spent)
            yield max(
                range(len(stats)),
                key=lambda i: (stats[i].mean + self.exploration * math.sqrt(log_n / stats[i].playouts), -i),
            )


def halving_rounds(candidates: int, budget: int) -> list[tuple[int, int]]:
    """Successive halving's plan: (candidates played, playouts each) for every round, keeping half each time.

    The rounds go on while more than two candidates are left and then once with
    the last two; the budget is shared equally among the rounds and within a
    round among its candidates (at least one playout each), and what the
    rounding leaves goes to the last round.

    >>> halving_rounds(6, 64)
    [(6, 3), (3, 7), (2, 12)]
    >>> halving_rounds(2, 16)
    [(2, 8)]
    """
    sizes = [candidates]
    while sizes[-1] > 2:
        sizes.append((sizes[-1] + 1) // 2)
    share = budget // len(sizes)
    rounds = [(n, max(1, share // n)) for n in sizes]
    spent = sum(n * each for n, each in rounds[:-1])
    last = rounds[-1][0]
    rounds[-1] = (last, max(1, (budget - spent) // last))
    return rounds


def _halving(stats: Sequence[CandidateStats], budget: int, keep: int | None) -> Iterator[int]:
    """The order of playouts under successive halving (:func:`halving_rounds`); ``keep`` is never dropped.

    Each round brings every candidate still in to the same number of playouts
    (their dice shared), then the better half by mean stays (ties: the earlier).
    """
    alive = list(range(len(stats)))
    played = 0
    for size, each in halving_rounds(len(stats), budget):
        if len(alive) > size:
            ranked = sorted(alive, key=lambda i: (-stats[i].mean, i))
            chosen = ranked[:size]
            if keep is not None and keep in alive and keep not in chosen:
                chosen[-1] = keep
            alive = sorted(chosen)
        played += each
        for _ in range(each):
            for i in alive:
                if stats[i].playouts < played:
                    yield i


def _matching(sim: Game, decision: Decision) -> Decision | None:
    """The clone's pending decision with the id of ``decision`` (the same question, on the clone)."""
    for owed in sim.pending():
        if owed.id == decision.id and owed.seat == decision.seat:
            return owed
    return None


# ---------------------------------------------------------------------- difficulty levels
LEVELS = ("easy", "normal", "hard")  # the levels of ``search_bots``, weakest first


@dataclass(frozen=True)
class Level:
    """A difficulty level of a rule set's search bot: playouts per decision, and how far a playout runs."""

    playouts: int
    depth: int | None  # turns a playout may begin before it is scored; None: no limit
    steps: int | None = None  # decisions a playout may answer; None: no limit
    per_candidate: int | None = None  # playouts each candidate should get (cuts the menu); None: no cut
    allocation: Literal["ucb", "flat", "halving"] = "ucb"  # how the playouts are shared (``SearchBot``)
    until_own: bool | tuple[str, ...] = False  # sides whose playouts stop at the seat's next decision (``SearchBot``)


def search_bots(ruleset_name: str, levels: dict[str, Level]) -> dict[str, BotFactory]:
    """The bots ``search`` (the ``normal`` level) and ``search:LEVEL`` for each of ``LEVELS``.

    ``levels`` maps each of ``LEVELS`` to its budget. The rule set is looked up
    by name when a bot is made (``grognard.rulesets.get``), so a rule set's
    package can list these bots while it is being built. Raises ``ValueError``
    if a level is missing or unknown.
    """
    if set(levels) != set(LEVELS):
        raise ValueError(f"search levels {sorted(levels)}: expected exactly {', '.join(LEVELS)}")

    def factory(level: Level) -> BotFactory:
        def make(rng: np.random.Generator) -> SearchBot:
            from grognard.rulesets import get

            return SearchBot(
                rng,
                get(ruleset_name),
                playouts=level.playouts,
                depth=level.depth,
                steps=level.steps,
                per_candidate=level.per_candidate,
                allocation=level.allocation,
                until_own=level.until_own,
            )

        make.__doc__ = f"Search bot of {ruleset_name}: {level}."
        return make

    bots: dict[str, BotFactory] = {"search": factory(levels["normal"])}
    for name in LEVELS:
        bots[f"search:{name}"] = factory(levels[name])
    return bots
