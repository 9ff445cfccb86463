"""The Dask backend: the same chunks of games, sent to an existing dask.distributed cluster.

Results come back in game-index order, so a cluster's answer equals the local one.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from grognard.core.errors import OptionError

WINDOW = 256  # chunks submitted to the cluster ahead of the one being read


def dask_rows(tasks: Iterable[tuple[Any, int, int]], scheduler: str) -> Iterator[list[dict[str, Any]]]:
    """Each task's rows (games ``start`` to ``stop - 1`` of a plan) from the cluster at ``scheduler``, in order;
    OptionError if it cannot be reached."""
    try:
        from dask.distributed import Client
    except ImportError as exc:  # pragma: no cover - dask is a dependency
        raise OptionError(f"--scheduler needs dask.distributed ({exc})") from None
    from grognard.analysis.montecarlo import play_chunk

    try:
        client = Client(scheduler, timeout="3s")  # type: ignore[no-untyped-call]  # distributed: Client unannotated
    except (OSError, TimeoutError, ValueError) as exc:
        raise OptionError(f"--scheduler {scheduler!r}: cannot reach the Dask scheduler ({exc})") from None
    try:
        waiting: deque[Any] = deque()
        for plan, start, stop in tasks:  # at most WINDOW chunks in flight: memory does not grow with the games
            waiting.append(client.submit(play_chunk, plan, start, stop, pure=False))
            if len(waiting) >= WINDOW:
                yield waiting.popleft().result()
        while waiting:
            yield waiting.popleft().result()
    finally:
        client.close()  # type: ignore[no-untyped-call]  # distributed: Client.close unannotated
