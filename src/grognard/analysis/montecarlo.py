"""Monte Carlo: many games in parallel, reduced in game-index order into integer counts.

Game ``i`` of a run with seed ``s`` draws its dice and its bots' choices from
``core.dice.stream(s, i)`` alone, so the same seed gives the same
games whatever the number of processes, a sweep shares its random numbers
across grid points (common random numbers), and a cluster gives the local
answer. Results are kept as integer histograms and counts (exact medians,
bounded memory); per-game rows are streamed to a writer chunk by chunk and
dropped, never held all at once.
"""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from grognard import rulesets
from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.play import play_out
from grognard.core.ruleset import Metric, Ruleset

CHUNK = 64  # games per task sent to a worker, one game at a time
FIRST_CHUNK = 4  # games in the first task of a one-game-at-a-time run: the run's time estimate comes after it
BATCH_CHUNK = 4096  # games per task on a rule set's batch path (side by side in arrays)
ENGINES = ("auto", "reference")


@dataclass(frozen=True)
class Plan:
    """What to simulate: a rule set, resolved options, a bot name per side, a seed, how many games.

    ``engine``: ``"auto"`` takes the rule set's batch path when it plays these
    bots (the same rows, faster), ``"reference"`` plays one game at a time.
    """

    ruleset: str
    options: Mapping[str, Any]
    bots: Mapping[str, str]
    seed: int
    games: int
    engine: str = "auto"
    embedded: Mapping[str, Any] | None = None  # a scenario of one's own as data (``ScenarioFiles.restore``), not a file


def batched(plan: Plan) -> bool:
    """Whether ``plan`` runs on its rule set's batch path."""
    batch = rulesets.get(plan.ruleset).batch
    return plan.engine == "auto" and batch is not None and plan.embedded is None and batch.supports(plan.bots)


def game_seed(seed: int, index: int) -> np.random.SeedSequence:
    """The seed of game ``index`` of a run seeded ``seed``."""
    return stream(seed, index)


def play_one(
    ruleset: Ruleset,
    options: Mapping[str, Any],
    bots: Mapping[str, str],
    seed: int,
    index: int,
    embedded: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Play game ``index`` bot against bot on the fast path; its row of results and metrics. ``embedded``: the
    scenario's files as data (a record header's ``embedded``), played instead of the file ``options`` name."""
    dice = SeededDice(stream(seed, index, DICE))
    if embedded is not None and ruleset.files is not None:
        game = ruleset.files.restore(options, dice, embedded)
    else:
        game = ruleset.new_game(options, dice)
    game.unobserved()  # nobody reads a Monte Carlo game's events: none are built
    rng = np.random.default_rng(stream(seed, index, BOTS))
    made = {side: ruleset.bots[name](rng) for side, name in bots.items()}
    result = play_out(game, lambda seat: made[game.side_of(seat)], checked=False)
    row: dict[str, Any] = {
        "game": index,
        "outcome": result.outcome,
        "winner": result.winner or "",
        "turn": result.turn,
    }
    if ruleset.analysis is not None:
        row.update(ruleset.analysis.measure(game))
    return row


def play_chunk(plan: Plan, start: int, stop: int) -> list[dict[str, Any]]:
    """Games ``start`` to ``stop - 1`` of ``plan``, in order (a worker's task; picklable arguments)."""
    ruleset = rulesets.get(plan.ruleset)
    if batched(plan):
        assert ruleset.batch is not None
        return ruleset.batch.play(plan.options, plan.bots, plan.seed, start, stop)
    return [play_one(ruleset, plan.options, plan.bots, plan.seed, i, plan.embedded) for i in range(start, stop)]


def chunks(games: int, size: int = CHUNK, first: int | None = None) -> Iterator[tuple[int, int]]:
    """The game-index ranges of a run, in order, made as they are needed (a run's memory does not grow
    with its number of games); ``first``, when smaller than ``size``, is the length of the first range."""
    start = 0
    if first is not None and 0 < first < size:
        start = min(first, games)
        yield (0, start)
    for begin in range(start, games, size):
        yield (begin, min(begin + size, games))


@dataclass
class Summary:
    """Integer counts of a run: outcomes, and a histogram per metric (``None`` counted as ``never``)."""

    games: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    end_turn_by_outcome: dict[str, Counter[int]] = field(default_factory=dict)
    histograms: dict[str, Counter[int]] = field(default_factory=dict)
    never: Counter[str] = field(default_factory=Counter)

    def add(self, row: Mapping[str, Any], metrics: Iterable[Metric]) -> None:
        """Count one game's row."""
        self.games += 1
        key = f"{row['winner']} win" if row["outcome"] == "win" else str(row["outcome"])
        self.outcomes[key] += 1
        self.end_turn_by_outcome.setdefault(key, Counter())[int(row["turn"])] += 1
        self.histograms.setdefault("turn", Counter())[int(row["turn"])] += 1
        for metric in metrics:
            value = row.get(metric.name)
            if value is None:
                self.never[metric.name] += 1
            else:
                self.histograms.setdefault(metric.name, Counter())[int(value)] += 1

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "outcomes": dict(self.outcomes),
            "end_turn_by_outcome": {k: dict(sorted(v.items())) for k, v in self.end_turn_by_outcome.items()},
            "histograms": {k: dict(sorted(v.items())) for k, v in self.histograms.items()},
            "never": dict(self.never),
        }


def default_jobs() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


Task = tuple[Plan, int, int]  # games ``start`` to ``stop - 1`` of a plan: what one worker plays at a time


def run_rows(plan: Plan, jobs: int = 1, scheduler: str | None = None) -> Iterator[list[dict[str, Any]]]:
    """The rows of every game, chunk by chunk in game-index order: locally in ``jobs`` processes,
    or on the Dask cluster at ``scheduler``."""
    # a game's row does not depend on its chunk, so the chunks may suit the path and the processes
    size = min(BATCH_CHUNK, max(CHUNK, -(-plan.games // max(jobs, 1)))) if batched(plan) else CHUNK
    ranges = chunks(plan.games, size, None if batched(plan) else FIRST_CHUNK)
    tasks = ((plan, start, stop) for start, stop in ranges)
    yield from run_tasks(tasks, -(-plan.games // size), jobs, scheduler)


def run_tasks(
    tasks: Iterable[Task], count: int, jobs: int = 1, scheduler: str | None = None
) -> Iterator[list[dict[str, Any]]]:
    """The rows of each task (games of one plan or of several, as ``grognard balance`` mixes its pairings),
    in the order of ``tasks``: locally in ``jobs`` processes (at most one a task: ``count`` of them), or on
    the Dask cluster at ``scheduler``. ``tasks`` may be a generator: it is read only as workers take them."""
    if scheduler is not None:
        from grognard.analysis.cluster import dask_rows

        yield from dask_rows(tasks, scheduler)
        return
    if jobs <= 1 or count <= 1:
        for task in tasks:
            yield play_chunk(*task)
        return
    import multiprocessing

    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    # no process without a chunk; Ctrl-C is the parent's to handle (it stops the pool), not every worker's traceback
    with _ctrl_c_held():  # the workers and the pool's threads are born deaf to Ctrl-C; the main thread hears it
        pool = context.Pool(processes=min(jobs, count), initializer=_ignore_interrupts)
    with pool:
        # a generator, not a list: the pool's feeder takes tasks only as fast as the pipe to the workers drains
        yield from pool.imap(_play_range, tasks, chunksize=1)


@contextlib.contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """SIGINT blocked in this thread meanwhile: a process forked or a thread started in it is born with it blocked.

    A worker forked with Python's own handler died of a Ctrl-C come before its initializer ignored it, and the
    pool's thread forking its successor could hang the run; a Ctrl-C taken by one of the pool's threads left the
    main thread waiting for the next chunk's result before it stopped (both seen in a test under load).
    """
    import signal

    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _ignore_interrupts() -> None:
    """A worker's start: Ctrl-C reaches the whole process group, and the parent alone answers it."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_range(task: Task) -> list[dict[str, Any]]:
    return play_chunk(*task)


def simulate(
    plan: Plan,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    on_rows: Callable[[list[dict[str, Any]]], None] | None = None,
    into: Summary | None = None,
) -> Summary:
    """Run ``plan`` and reduce it, in game-index order, into a :class:`Summary` (``into``, when given: a caller
    stopped by Ctrl-C keeps there the games of every chunk finished, the first games in order).

    ``on_rows`` receives each chunk's rows (to write a table or move a progress bar) before they are dropped.
    """
    ruleset = rulesets.get(plan.ruleset)
    summary = into if into is not None else Summary()
    for rows in run_rows(plan, jobs, scheduler):
        for row in rows:
            summary.add(row, ruleset.metrics)
        if on_rows is not None:
            on_rows(rows)
    return summary
