"""Who is winning, live: each room's win-probability, worked out off its actor (issue 20).

At each new turn (and at the game's end) the room hands :meth:`LiveOdds.moved` its game; a clone is
taken there, on the event loop (a cheap copy, in the same step as the change), and the playouts run in
one worker *process* shared by every room (:func:`worker`), at a lower priority (``nice`` 10). A thread
would hold the interpreter's lock for seconds at a time and slow the event loop and every page with
it; a process leaves the server's own core to play, and on a busy machine the system runs play first.
(``$GROGNARD_ODDS_NICE`` sets another step: the test suite, on a machine shared with other work, runs the
worker at the server's own, where at 10 an estimate waited minutes behind everyone else's work.)

A room has at most one estimate in the worker and one waiting: a newer position replaces the waiting
one. An estimate that comes back after its turn has passed is still that turn's point on the curve; one
of a position taken back (undo) is dropped. The budget is small
(``PLAYOUTS`` a seat-view).

Each page is sent only its own estimate: a player's page the estimate of its seat (made by
``win_probabilities`` from what that seat may see: the hidden part sampled, never read), every other
page the public one (a spectator's view). The projector also gets the public estimates so far, one a
turn, to draw a line over the game. When an estimate is ready every page's state is sent again.

Who sees it at all is the host's choice, a setting of the room (:func:`shown_to`, issue 28): nobody
(``off``), the host's page and the projector opened from the host page's link (``projector``), or every
page (``everyone``), each from a turn on (``odds_from``). A page not shown it is sent no estimate at all,
and while nobody may see it none is worked out. A class's room shows it on the projector from turn 3 (a
pupil is not told on turn 0 that his side has lost: docs/teacher.md); a solo game to its player from the start.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from grognard.analysis.winprob import WinProbability, win_probabilities
from grognard.core.engine import Game

__all__ = [
    "NICE",
    "PLAYOUTS",
    "SHOWN",
    "LiveOdds",
    "odds_json",
    "odds_seed",
    "shown_to",
    "shutdown",
    "stop_at_once",
    "worker",
]

log = logging.getLogger(__name__)

PLAYOUTS = 16  # a seat-view's budget: a bar to a few tens of percent, refreshed each turn (serve --odds-playouts)
MAX_PLAYOUTS = 1000  # the most ``serve --odds-playouts`` takes: a seat's estimate a few seconds of a core
NICE = 10  # the worker's priority below the server's (os.nice); $GROGNARD_ODDS_NICE sets another

_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


SHOWN = ("off", "projector", "everyone")  # who sees who is winning (the host's setting ``odds_shown``)
CLASS_SHOWN, CLASS_FROM = "projector", 3  # a class's room: the projector only, from turn 3
SOLO_SHOWN, SOLO_FROM = "everyone", 0  # a solo game: its one player, from the start


def shown_to(page: str, shown: str, start: int, turn: int, over: bool) -> bool:
    """Whether a ``page`` ("host", "projector": opened from the host page's link, "spectator": a projector
    page opened with the room code alone, as any pupil could, or "player") is shown who is winning at
    ``turn`` when the host's setting is ``shown`` from turn ``start`` (a game over shows it from any turn).

    >>> [shown_to(page, "projector", 3, 3, False) for page in ("host", "projector", "spectator", "player")]
    [True, True, False, False]
    >>> shown_to("projector", "projector", 3, 2, False), shown_to("player", "everyone", 3, 5, False)
    (False, True)
    >>> shown_to("host", "off", 0, 9, True)
    False
    """
    if shown not in SHOWN[1:] or (turn < start and not over):
        return False
    return page in ("host", "projector") or shown == "everyone"


def _start_worker(parent: int) -> None:
    """In the worker, once: a lower priority, and an end when the server is gone (even by SIGKILL, which
    leaves the worker no message: it would wait on its queue for ever)."""
    try:
        os.nice(int(os.environ.get("GROGNARD_ODDS_NICE", NICE)))
    except (OSError, ValueError):  # not allowed here, or not a number: the same priority as the server
        pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def worker() -> ProcessPoolExecutor:
    """The one worker process of every room's estimates, started at the first (spawned: a fresh
    interpreter, never a fork of the server's threads); started again if it died."""
    global _pool
    with _pool_lock:
        if _pool is None:
            context = multiprocessing.get_context("spawn")
            _pool = ProcessPoolExecutor(
                max_workers=1, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
            )
        return _pool


def shutdown() -> None:
    """Stop the worker at once, an estimate in progress with it (the server is closing)."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is not None:
        stop_at_once(pool)


def stop_at_once(pool: ProcessPoolExecutor) -> None:
    """``pool``'s work cancelled and its processes ended now (terminated, not waited for to finish their task),
    its queues closed too (none left for the resource tracker to warn of). Also the trials' worker's end."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(5)
    pool.shutdown(wait=True)


def _estimate(game: Game, seats: list[str | None], playouts: int, seed: int) -> dict[str | None, WinProbability]:
    """In the worker: the estimates of ``seats`` at ``game``."""
    return win_probabilities(game, seats, playouts=playouts, seed=seed)


def odds_seed(code: str) -> int:
    """The seed of a room's estimates, from its code: public, since the playouts' dice are drawn from it
    alone (the game's own dice, which fix what is hidden, are never used). Turn ``t`` uses ``seed + t``."""
    return int.from_bytes(hashlib.sha256(code.encode()).digest()[:4], "big")


def odds_json(odds: WinProbability) -> dict[str, Any]:
    """What a page is sent: ``turn``, ``playouts``, ``other`` (share with no winner) and per side ``p`` and
    its 95% ``interval`` (shares, 0-1)."""
    data = odds.to_json()
    data.pop("seat", None)
    data["other"] = odds.other / odds.playouts if odds.playouts else 0.0
    for side in data["sides"].values():
        side.pop("wins", None)
    return data


class LiveOdds:
    """One room's estimates: the newest per seat (``None``: the public view) and the public curve so far.

    Every method runs on the server's event loop.
    """

    def __init__(self, seed: int, playouts: int = PLAYOUTS) -> None:
        self.seed = seed
        self.playouts = playouts
        self.latest: dict[str | None, WinProbability] = {}
        # public, one per turn start and one at the end (``ended``), in game order
        self.curve: list[tuple[bool, WinProbability]] = []
        self._generation = 0
        self._at: tuple[int, bool] | None = None  # the (turn, over) estimated last
        self._running: Future[dict[str | None, WinProbability]] | None = None
        self._waiting: tuple[Game, list[str | None], int] | None = None
        self.on_ready: Any = None  # () -> None, called when an estimate is ready
        self.closed = False

    def moved(self, game: Game) -> None:
        """The game changed: at a new turn or its end, ask for a new estimate (an older one is dropped)."""
        if self.closed:
            return
        at = (game.turn, game.is_over)
        if at == self._at:
            return
        self._at = at
        self._generation += 1
        # an undo took the game back: the curve too
        self.curve = [
            (ended, p) for ended, p in self.curve if p.turn < game.turn or (p.turn == game.turn and not ended)
        ]
        # the worker plays from this copy: the room's game goes on meanwhile
        self._waiting = (game.clone(), [None, *game.seats()], self._generation)
        if self._running is None:
            self._send()

    def _send(self) -> None:
        """Hand the waiting position to the worker."""
        assert self._waiting is not None
        game, seats, generation = self._waiting
        self._waiting = None
        loop = asyncio.get_running_loop()
        try:
            future = worker().submit(_estimate, game, seats, self.playouts, self.seed + game.turn)
        except RuntimeError:  # the worker is shut down (the server is closing) or broke
            log.exception("the live odds at turn %s could not start", game.turn)
            return
        self._running = future
        over = game.is_over

        def done(made: Future[dict[str | None, WinProbability]]) -> None:  # on the pool's thread
            if not loop.is_closed():
                loop.call_soon_threadsafe(self._done, made, generation, over)

        future.add_done_callback(done)

    def _done(self, future: Future[dict[str | None, WinProbability]], generation: int, over: bool) -> None:
        self._running = None
        if self.closed:
            return
        if self._waiting is not None:
            self._send()
        if future.cancelled():
            return
        try:
            made = future.result()
        except BrokenProcessPool:
            log.exception("the live odds' worker stopped; the next estimate starts another")
            shutdown()
            return
        except Exception:
            log.exception("the live odds failed")
            return
        public = made[None]
        if generation != self._generation and (self._at is None or public.turn >= self._at[0]):
            return  # the game moved within this turn, or was taken back: this estimate is not of it
        # an estimate of a turn the game has left since is kept: it is the curve's point for that turn
        if generation == self._generation or not self.latest or public.turn >= self.latest[None].turn:
            self.latest = made
        key = (over, public.turn)
        self.curve = [(e, p) for e, p in self.curve if (e, p.turn) != key] + [(over, public)]
        if self.on_ready is not None:
            self.on_ready()

    def for_page(self, seat: str | None, with_curve: bool) -> dict[str, Any] | None:
        """A page's part of its state: ``{"now": ..., "curve": [...]}`` (``None`` before the first estimate).

        ``seat``: a player's seat (its own estimate, once made for it), else ``None`` (the public one).
        """
        odds = self.latest.get(seat)
        if odds is None:
            return None
        out: dict[str, Any] = {"now": odds_json(odds), "own": seat is not None}
        if with_curve:
            out["curve"] = [dict(odds_json(p), ended=ended) for ended, p in self.curve]
        return out

    def close(self) -> None:
        self.closed = True
        self._waiting = None
