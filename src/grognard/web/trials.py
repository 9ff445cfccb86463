"""A scenario of one's own tried before it is played (issue 32, item 4): "Test it" plays one game of the
book against the book at once and shows its replay; "Balance it" plays many in the background and says each
side's chance, with its 95% interval, and how long the game lasts.

The games are played in a worker process of their own (spawned: a fresh interpreter, never a fork of the
server's threads; at a lower priority, as the live odds' worker, ``odds._start_worker``), never on the server's
event loop nor its threads: the other rooms answer while they play. A balance run hands the worker a few games
at a time (``CHUNK``), one such task in the worker per run, so two runs take turns, its progress moves after each
task, and a cancel stops it within one. Game ``i`` of a run seeded ``s`` is ``analysis.montecarlo.play_one``'s
(the dice of ``stream(s, i)``), as ``grognard balance`` plays it; a test is game 0 of its seed.

Bounds: at most ``MAX_GAMES`` games a run, ``MAX_RUNS`` runs at once on the server and one a browser, at most
``MAX_TESTS`` tests at once, ``KEPT`` finished runs kept for their pages; a test's game at most
``replays.MAX_STEPS`` orders. Past a bound a request is refused in one line.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import secrets
import time
from collections import OrderedDict
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from grognard.analysis.balance import Played, outcome_figures
from grognard.analysis.montecarlo import Plan, play_chunk
from grognard.analysis.stats import wilson
from grognard.bots.ladder import levels
from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.ruleset import Ruleset
from grognard.web.messages import RefusalCode
from grognard.web.odds import stop_at_once
from grognard.web.protocol import Refused
from grognard.web.replays import MAX_STEPS

log = logging.getLogger(__name__)

MAX_GAMES = 200  # games of one balance run
MAX_RUNS = 2  # balance runs going on at once, server-wide
MAX_TESTS = 2  # tests being played at once, server-wide
CHUNK = 2  # games a worker's task: the progress moves, and a cancel takes, within one task
KEPT = 32  # finished runs kept for their pages to read (the oldest dropped)
LEVEL = "book"  # the level both sides play at (the rule set's default bot if it has no book)


def book_of(ruleset: Ruleset) -> str:
    """The bot both sides of a trial play: the ladder's book level, else the rule set's default."""
    return LEVEL if LEVEL in levels(ruleset) else ruleset.default_bot


def turn_limit(ruleset: Ruleset, options: Mapping[str, Any], embedded: Mapping[str, Any] | None) -> int | None:
    """The game's turn limit, if its view says one (``stats.turn_limit``), as ``grognard balance`` reads it."""
    game = ruleset.create(options, SeededDice(0), embedded)
    limit = game.view(None).get("stats", {}).get("turn_limit")
    return int(limit) if isinstance(limit, int) else None


# ------------------------------------------------------------------------------------------ in the worker
def _chunk(plan: Plan, start: int, stop: int) -> tuple[list[dict[str, Any]], float]:
    """Games ``start`` to ``stop - 1`` of ``plan``, and the CPU seconds they took (in the worker)."""
    began = time.process_time()
    rows = play_chunk(plan, start, stop)
    return rows, time.process_time() - began


def _test_game(plan: Plan) -> tuple[list[dict[str, Any]], float]:
    """Game 0 of ``plan`` played to its end with its record kept (in the worker): the record's lines and the CPU
    seconds the game took. ``RuntimeError`` for a game that does not end within ``MAX_STEPS`` orders."""
    from grognard import rulesets
    from grognard.core.play import play_out
    from grognard.core.record import RecordWriter, make_header

    began = time.process_time()
    ruleset = rulesets.get(plan.ruleset)
    embedded = dict(plan.embedded) if plan.embedded else None
    game = ruleset.create(plan.options, SeededDice(stream(plan.seed, 0, DICE)), embedded)
    kept = {"embedded": embedded} if embedded else {}
    header = make_header(ruleset.name, ruleset.recorded(plan.options), "seeded", plan.seed, server="test it", **kept)
    writer = RecordWriter(header)
    writer.start(game, game.take_events())
    import numpy as np

    rng = np.random.default_rng(stream(plan.seed, 0, BOTS))
    bots = {side: ruleset.bots[name](rng) for side, name in plan.bots.items()}
    play_out(game, lambda seat: bots[game.side_of(seat)], record=writer, max_steps=MAX_STEPS - 2)
    return writer.lines, time.process_time() - began


# ------------------------------------------------------------------------------------------ on the server
@dataclass
class Run:
    """One balance run: its plan, the games counted so far (``played``), and how it stands."""

    id: str
    plan: Plan
    title: str
    browser: str
    limit: int | None
    played: Played = field(init=False)
    status: str = "running"  # running, done, cancelled, failed
    problem: str = ""
    cpu: float = 0.0  # CPU seconds of the worker's games so far
    task: asyncio.Task[None] | None = None

    def __post_init__(self) -> None:
        self.played = Played(self.plan)

    def to_json(self) -> dict[str, Any]:
        """How the run stands: ``{"id", "status", "problem", "title", "games", "done", "bots", "sides": [{"side",
        "wins", "share", "low95", "high95"}], "draws" (the same, or None), "turns" (quartiles), "limit", "cpu_seconds",
        "left_seconds"}``; each side's chance is its share of the games done, with its Wilson interval."""
        done = self.played.summary.games
        out: dict[str, Any] = {
            "id": self.id,
            "status": self.status,
            "problem": self.problem,
            "title": self.title,
            "games": self.plan.games,
            "done": done,
            "bots": dict(self.plan.bots),
            "limit": self.limit,
            "cpu_seconds": round(self.cpu, 2),
            "left_seconds": round(self.cpu / done * (self.plan.games - done), 1) if done else None,
            "sides": [],
            "draws": None,
            "turns": None,
        }
        if not done:
            return out
        outcomes = self.played.summary.outcomes
        for side in self.plan.bots:
            wins = outcomes.get(f"{side} win", 0)
            low, high = wilson(wins, done)
            out["sides"].append({"side": side, "wins": wins, "share": wins / done, "low95": low, "high95": high})
        others = done - sum(s["wins"] for s in out["sides"])
        low, high = wilson(others, done)
        out["draws"] = {"games": others, "share": others / done, "low95": low, "high95": high}
        figures = outcome_figures(self.played, self.limit)
        out["turns"] = figures["turns"]
        out["to_the_limit"] = figures["to_the_limit"]
        return out


class Trials:
    """The server's trials: its worker, the balance runs (by id, and the one of each browser) and the tests."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self.runs: OrderedDict[str, Run] = OrderedDict()
        self.by_browser: dict[str, str] = {}  # a browser's run going on
        self.testing = 0

    def pool(self) -> ProcessPoolExecutor:
        """The worker process (started at the first trial; started again if it died)."""
        if self._pool is None:
            from grognard.web.odds import _start_worker

            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
            )
        return self._pool

    def running(self) -> list[Run]:
        return [run for run in self.runs.values() if run.status == "running"]

    async def _in_worker(self, fn: Any, *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.pool(), fn, *args)
        except BrokenProcessPool:
            self._pool = None  # the next call starts another
            raise

    async def test(self, plan: Plan) -> tuple[list[dict[str, Any]], float]:
        """Play ``plan``'s game 0 with its record (``Refused`` past ``MAX_TESTS`` at once)."""
        if self.testing >= MAX_TESTS:
            raise Refused(
                RefusalCode.RATE, f"{MAX_TESTS} tests are being played on this server now: try again in a moment"
            )
        self.testing += 1
        try:
            lines: list[dict[str, Any]]
            lines, seconds = await self._in_worker(_test_game, plan)
        except RuntimeError as exc:
            raise Refused(RefusalCode.SCENARIO, f"the test game did not end: {exc}") from None
        finally:
            self.testing -= 1
        return lines, seconds

    def room_for(self, browser: str) -> None:
        """``Refused`` while ``browser`` has a balance run going on, or the server ``MAX_RUNS``."""
        mine = self.runs.get(self.by_browser.get(browser, ""))
        if mine is not None and mine.status == "running":
            raise Refused(
                RefusalCode.BUSY,
                f"this browser's balance run is going on ({mine.played.summary.games} of {mine.plan.games} games): "
                "wait for it or cancel it",
            )
        if len(self.running()) >= MAX_RUNS:
            raise Refused(
                RefusalCode.BUSY,
                f"{MAX_RUNS} balance runs are going on on this server (at most {MAX_RUNS} at once): try again later",
            )

    def start(self, plan: Plan, title: str, browser: str, limit: int | None) -> Run:
        """A new balance run in the background (``Refused`` while the browser has one going on, or the
        server ``MAX_RUNS``)."""
        self.room_for(browser)
        run = Run(secrets.token_urlsafe(12), plan, title, browser, limit)
        self.runs[run.id] = run
        self.by_browser[browser] = run.id
        run.task = asyncio.get_running_loop().create_task(self._play(run))
        while len(self.runs) > KEPT + MAX_RUNS:  # the oldest finished runs dropped
            oldest = next((key for key, r in self.runs.items() if r.status != "running"), None)
            if oldest is None:
                break
            del self.runs[oldest]
        return run

    async def _play(self, run: Run) -> None:
        """Hand the worker the run's games, ``CHUNK`` at a time, counting each task's as it comes back."""
        from grognard import rulesets

        ruleset = rulesets.get(run.plan.ruleset)
        try:
            for start in range(0, run.plan.games, CHUNK):
                stop = min(start + CHUNK, run.plan.games)
                rows, seconds = await self._in_worker(_chunk, run.plan, start, stop)
                run.played.add(rows, ruleset)
                run.cpu += seconds
            run.status = "done"
        except asyncio.CancelledError:
            run.status = "cancelled"
        except Exception as exc:  # a game that failed: said on the run's page, logged
            log.exception("balance run %s failed", run.id)
            run.status, run.problem = "failed", f"a game failed: {type(exc).__name__}: {exc}"[:300]
        finally:
            if self.by_browser.get(run.browser) == run.id:
                del self.by_browser[run.browser]

    def run(self, key: str) -> Run:
        run = self.runs.get(key)
        if run is None:
            raise Refused(RefusalCode.NO_RUN, "no balance run has this id (runs are kept while the server runs)")
        return run

    def cancel(self, key: str) -> Run:
        """Stop run ``key`` (the games counted so far are kept and said)."""
        run = self.run(key)
        if run.status == "running" and run.task is not None:
            run.task.cancel()
            run.status = "cancelled"
            if self.by_browser.get(run.browser) == run.id:
                del self.by_browser[run.browser]
        return run

    def close(self) -> None:
        """Every run stopped and the worker with it (the server is closing)."""
        for run in self.running():
            if run.task is not None:
                run.task.cancel()
        pool, self._pool = self._pool, None
        if pool is not None:
            stop_at_once(pool)
