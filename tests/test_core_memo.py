"""core.memo.kept_in: a value made once and kept in a dict, or made every time without one."""

from __future__ import annotations

from typing import Any

import pytest

from grognard.core.memo import kept_in


def test_a_value_is_made_once_a_key_and_a_none_made_is_kept_too() -> None:
    made: list[str] = []

    def make(value: Any) -> Any:
        made.append(repr(value))
        return value

    memo: dict[Any, Any] = {}
    assert kept_in(memo, "a", lambda: make(1)) == 1 and kept_in(memo, "a", lambda: make(2)) == 1
    assert kept_in(memo, "b", lambda: make(None)) is None and kept_in(memo, "b", lambda: make(3)) is None
    assert made == ["1", "None"] and memo == {"a": 1, "b": None}
    assert kept_in(None, "a", lambda: make(4)) == 4 and kept_in(None, "a", lambda: make(5)) == 5  # no memo
    assert made == ["1", "None", "4", "5"]


def test_what_make_raises_keeps_nothing() -> None:
    memo: dict[Any, Any] = {}

    def fail() -> Any:
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        kept_in(memo, "a", fail)
    assert memo == {}
