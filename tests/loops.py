"""``run``: ``asyncio.run`` for a test, in a thread of its own.

The browser tests share one Playwright per worker (``conftest.browser``), and its sync API marks the worker's
main thread as running an event loop for as long as it lives, so a plain ``asyncio.run`` there refuses
("cannot be called from a running event loop"). A thread of its own has no loop: the coroutine runs there and
its result or error comes back.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)`` in a fresh thread; its result, or the error it raised."""
    with ThreadPoolExecutor(1, thread_name_prefix="test-loop") as pool:
        return pool.submit(asyncio.run, coroutine).result()
