"""After a room's game: the coach of its people and their after-action reports (``grognard.reports``).

The people are the room's players; the record lines of each one's orders are kept in the room's meta as
they are given (``meta["orders"]``: ``[line, player id]``; an order a bot gave for a seat is no one's).
The coach (every person's decision beside the hard bot's, ``analysis.coach``) takes a class game minutes,
so it runs in the background from the first time it is asked for after the end (the debrief asks at
once), in a worker process a part at a time (the server answers the pages meanwhile), telling how far it
has got; the reports are made at once from the record
(within a second or two for a class), with the coach's view once it is ready and, until then, a line on
each page saying it is still being worked out.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from grognard.analysis.coach import COACH_LEVEL, COACH_PLAYOUTS, Coaching, Weighed, coach_lines
from grognard.reports import Player, Reports, class_reports

__all__ = ["AfterAction", "people_of", "weigh_part"]

PART, PARTS = 40, 8  # the decisions a worker weighs at a time: at least PART, in about PARTS parts


def people_of(meta: dict[str, Any]) -> list[Player]:
    """The room's players who gave orders or hold a seat, each with his seats and his orders' lines."""
    lines: dict[str, set[int]] = {}
    for line, player in meta.get("orders", []):
        lines.setdefault(str(player), set()).add(int(line))
    out = []
    for pid, player in meta["players"].items():
        seats = [seat for seat, entry in meta["seats"].items() if entry.get("player") == pid]
        if pid in lines or seats:
            out.append(Player(str(player["name"]), tuple(seats), frozenset(lines.get(pid, set()))))
    return out


def _watch_parent(parent: int) -> None:
    """In a coach worker: exit when the server that started it is gone (a worker is never left behind)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="parent watch").start()


def weigh_part(lines: list[dict[str, Any]], part: frozenset[int], seed: int) -> list[Weighed]:
    """The decisions of the record lines ``part``, weighed (in a worker process: ``AfterAction._coach``).
    Each decision's playouts are seeded by its line, so the parts add up to the coach of them all at once."""
    return list(coach_lines(lines, lambda line, _seat: line in part, playouts=COACH_PLAYOUTS, seed=seed).weighed)


class AfterAction:
    """One finished game's coach (run once, in the background) and its reports (made on request)."""

    def __init__(self, lines: list[dict[str, Any]], meta: dict[str, Any], title: str) -> None:
        self.lines = lines
        self.people = people_of(meta)
        self.ids = {str(player["name"]): pid for pid, player in meta["players"].items()}
        self.seed = int(meta.get("bot_seed", 0)) % 2**32
        self.title = title
        started, over = meta.get("started_at"), meta.get("over_at")
        self.minutes = (float(over) - float(started)) / 60 if started and over else None
        self.coaching: Coaching | None = None
        self.done, self.total = 0, sum(len(p.lines) for p in self.people)
        self.failed: str | None = None
        self.task: asyncio.Future[None] | None = None
        self.made: tuple[bool, bytes] | None = None  # the last zip made: (with the coach, its bytes)

    def start(self, stop: Callable[[], bool]) -> None:
        """The coach begun on a worker thread, if not yet (``stop()``: the room was deleted)."""
        if self.task is None:
            self.task = asyncio.get_running_loop().run_in_executor(None, self._coach, stop)

    def _coach(self, stop: Callable[[], bool]) -> None:
        """The coach, a part at a time in a worker process (the server's own process stays free to answer
        the pages), how far it has got said between parts; given up when ``stop()`` says so."""
        wanted = sorted(line for player in self.people for line in player.lines)
        size = max(PART, -(-len(wanted) // PARTS))
        parts = [frozenset(wanted[i : i + size]) for i in range(0, len(wanted), size)]
        weighed: list[Weighed] = []
        try:
            context = multiprocessing.get_context("spawn")  # no fork of a threaded server
            with ProcessPoolExecutor(1, context, initializer=_watch_parent, initargs=(os.getpid(),)) as pool:
                for part in parts:
                    if stop():
                        pool.shutdown(cancel_futures=True)
                        return
                    weighed += pool.submit(weigh_part, self.lines, part, self.seed).result()
                    self.done = len(weighed)
        except Exception as exc:  # a bug must not leave the pages waiting for ever: they say it failed
            self.failed = f"the coach failed: {exc}"
            raise
        if not stop():
            self.coaching = Coaching(str(self.lines[0]["ruleset"]), COACH_PLAYOUTS, self.seed, tuple(weighed))

    def note(self) -> str:
        """Where the coach is, in a line for a report page or the debrief."""
        if self.failed:
            return self.failed
        if self.coaching is not None:
            return f"The coach weighed {len(self.coaching.weighed)} decisions."
        return (
            f"The coach is still weighing your decisions against the {COACH_LEVEL} bot's "
            f"({self.done} of {self.total} done): download the reports again in a few minutes for its view."
        )

    def coach_json(self, only: str | None = None) -> dict[str, Any]:
        """Each person's key decisions (once the coach is ready), or how far it has got; ``only``: the one
        player's (his id; "" for nobody's: a page that is no player's)."""
        out: dict[str, Any] = {
            "ready": self.coaching is not None,
            "done": self.done,
            "total": self.total,
            "note": self.note(),
            "level": COACH_LEVEL,
        }
        if self.coaching is not None:
            out["players"] = [
                {
                    "id": self.ids.get(player.name),
                    "name": player.name,
                    "seats": list(player.seats),
                    "decisions": len(player.lines),
                    "as_hard": sum(w.agreed for w in self.coaching.weighed if w.line in player.lines),
                    "key": [w.to_json() for w in self.coaching.key(lines=player.lines)],
                }
                for player in self.people
                if only is None or self.ids.get(player.name) == only
            ]
        return out

    def reports(self) -> tuple[bytes, Reports | None, float]:
        """The zip of the reports as things stand (with the coach's view if it is ready): its bytes, the
        reports made (None: the same as last time) and the CPU seconds it took."""
        coached = self.coaching is not None
        if self.made is not None and self.made[0] == coached:
            return self.made[1], None, 0.0
        start = time.process_time()
        made = class_reports(
            self.lines, self.people, self.coaching, coach_note=self.note(), minutes=self.minutes, title=self.title
        )
        data = made.zip()
        self.made = (coached, data)
        return data, made, time.process_time() - start
