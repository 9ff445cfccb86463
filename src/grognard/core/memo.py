"""A value worked out once and kept in a plain dict (a memo), or worked out every time when there is none."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any


def kept_in(memo: dict[Any, Any] | None, key: Hashable, make: Callable[[], Any]) -> Any:
    """``make()``, kept in ``memo`` under ``key`` and read from it after (a None made is kept too); every time
    when ``memo`` is None. Raises what ``make`` raises, keeping nothing."""
    if memo is None:
        return make()
    found = memo.get(key, memo)
    if found is memo:
        found = memo[key] = make()
    return found
