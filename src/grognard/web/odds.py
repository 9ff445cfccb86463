"""Who is winning, live: each room's win-probability, worked out off its actor (issue 20).

At each new turn (and at the game's end) the room hands :meth:`LiveOdds.moved` its game; a clone is
taken there, on the event loop (a cheap copy, in the same step as the change), and the playouts run on
one worker thread shared by every room (``POOL``), so neither play nor the event loop waits for them.
The budget is small (``PLAYOUTS`` a seat-view); a newer position supersedes an estimate still running
(``analysis.winprob.Superseded``), and a room waiting for its turn only keeps the newest.

Each page is sent only its own estimate: a player's page the estimate of its seat (made by
``win_probabilities`` from what that seat may see: the hidden part sampled, never read), every other
page the public one (a spectator's view). The projector also gets the public estimates so far, one a
turn, to draw a line over the game. When an estimate is ready every page's state is sent again.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from grognard.analysis.winprob import Superseded, WinProbability, win_probabilities
from grognard.core.engine import Game

__all__ = ["PLAYOUTS", "POOL", "LiveOdds", "odds_json", "odds_seed"]

log = logging.getLogger(__name__)

PLAYOUTS = 16  # a seat-view's budget: a bar to a few tens of percent, refreshed each turn
POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="odds")


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
    """One room's estimates: the newest per seat (``None``: the public view) and the public curve so far."""

    def __init__(self, seed: int, playouts: int = PLAYOUTS) -> None:
        self.seed = seed
        self.playouts = playouts
        self.latest: dict[str | None, WinProbability] = {}
        # public, one per turn start and one at the end (``ended``), in game order
        self.curve: list[tuple[bool, WinProbability]] = []
        self._generation = 0
        self._at: tuple[int, bool] | None = None  # the (turn, over) estimated last
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.on_ready: Any = None  # () -> None, called on the loop when an estimate is ready
        self.closed = False

    def moved(self, game: Game) -> None:
        """The game changed: at a new turn or its end, start a new estimate (the running one is given up)."""
        if self.closed:
            return
        at = (game.turn, game.is_over)
        if at == self._at:
            return
        self._at = at
        self._generation += 1
        generation = self._generation
        with self._lock:  # an undo took the game back: the curve too
            self.curve = [
                (ended, p) for ended, p in self.curve if p.turn < game.turn or (p.turn == game.turn and not ended)
            ]
        self._loop = asyncio.get_running_loop()
        sim = game.clone()  # the worker plays from this copy: the room's game goes on meanwhile
        seats: list[str | None] = [None, *game.seats()]
        POOL.submit(self._work, sim, seats, generation)

    def _work(self, game: Game, seats: list[str | None], generation: int) -> None:
        """On the worker thread: the estimates of ``seats``, unless a newer position came first."""

        def stop() -> bool:
            return self.closed or generation != self._generation

        if stop():
            return
        try:
            made = win_probabilities(game, seats, playouts=self.playouts, seed=self.seed + game.turn, stop=stop)
        except Superseded:
            return
        except Exception:
            log.exception("the live odds at turn %s failed", game.turn)
            return
        with self._lock:
            if stop():
                return
            self.latest = made
            public = made[None]
            key = (game.is_over, public.turn)
            self.curve = [(e, p) for e, p in self.curve if (e, p.turn) != key] + [(game.is_over, public)]
        loop = self._loop
        if loop is not None and self.on_ready is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._ready)

    def _ready(self) -> None:
        if not self.closed and self.on_ready is not None:
            self.on_ready()

    def for_page(self, seat: str | None, with_curve: bool) -> dict[str, Any] | None:
        """A page's part of its state: ``{"now": ..., "curve": [...]}`` (``None`` before the first estimate).

        ``seat``: a player's seat (its own estimate, once made for it), else ``None`` (the public one).
        """
        with self._lock:
            odds = self.latest.get(seat)
            curve = list(self.curve) if with_curve else []
        if odds is None:
            return None
        out: dict[str, Any] = {"now": odds_json(odds), "own": seat is not None}
        if with_curve:
            out["curve"] = [dict(odds_json(p), ended=ended) for ended, p in curve]
        return out

    def close(self) -> None:
        self.closed = True
