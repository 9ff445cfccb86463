"""Partial state messages: what changed since the state a page was last sent, and how a page merges it.

A page's first state (and one after a reconnect or a ``{"type": "resync"}``) is the
whole ``state`` message. After that the server sends a ``patch``: the change of the
state as a *change* of a JSON object, plus ``type`` and ``base`` (the ``version`` of
the state it applies to; a page holding another version asks for a resync)::

    {"type": "patch", "base": 41, "set": {"version": 42}, "unset": ["summary"],
     "change": {"seats": {"runs": [[4, {"set": {"owes": false}}]]},
                "svg": {"lines": [[17, 19, ["<rect .../>"]]]}}}

A change is one of three shapes:

- of an object: ``set`` (keys given whole: new, or cheaper whole), ``unset`` (keys
  gone), ``change`` (key: the change of its value);
- of a list: ``runs``, in increasing order against the old list: ``[start, end, items]``
  puts ``items`` in place of ``old[start:end]``; ``[index, change]`` changes one item;
- of a long text of many lines (the picture): ``lines``, the same runs over its lines
  (split at ``"\\n"``).

A value is sent whole wherever its change would not be shorter. A patch that would
change nothing is not sent. The runs are difflib's opcodes (``SequenceMatcher``) over the
items (an item both lists hold found by its object, else by its JSON text); ``merge`` here is
the reference the page's ``connection.js`` follows.

>>> old = {"type": "state", "version": 1, "seats": [{"seat": "A1", "owes": True}, {"seat": "A2", "owes": False}]}
>>> sent = Sent()
>>> sent.message(old)["type"]
'state'
>>> new = {"type": "state", "version": 2, "seats": [{"seat": "A1", "owes": False}, {"seat": "A2", "owes": False}]}
>>> p = sent.message(new)
>>> p["set"], p["change"]
({'version': 2}, {'seats': {'runs': [[0, {'set': {'owes': False}}]]}})
>>> merge(old, p) == new
True
>>> sent.message(new) is None
True
"""

from __future__ import annotations

import difflib
import functools
import json
from collections import OrderedDict
from typing import Any, cast

from grognard.web.messages import Patch, State

LONG_TEXT = 2000  # characters: a text this long, of several lines, is changed by its lines


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class _Whole:
    """The value is sent whole (its change would be as long)."""


WHOLE = _Whole()


def _same(old: Any, new: Any) -> bool:
    """Equal as JSON (``True`` and ``1`` are not)."""
    if old is new:
        return True
    if isinstance(new, (dict, list)):
        if type(old) is not type(new) or len(old) != len(new):
            return False
        if isinstance(new, list) and isinstance(old, list):
            if all(a is b for a, b in zip(old, new, strict=True)):
                return True
        elif isinstance(new, dict) and isinstance(old, dict):
            if all(old.get(key, _MISSING) is value for key, value in new.items()):
                return True
        return bool(old == new) and _dumps(old) == _dumps(new)
    return type(old) is type(new) and bool(old == new)


_MISSING = object()


def keep_same(new: Any, old: Any, strict: bool = True) -> Any:
    """``new``, each part of it equal to the part of ``old`` at the same place given as that very part of
    ``old`` (``old`` itself when all is equal): what did not change stays the object a page was sent, and
    the next change finds it the same at once (``is``). Nothing is copied or changed in place.

    ``strict``: equal as JSON (``True`` and ``1`` are not, nor ``1`` and ``1.0``); else equal as Python
    values, at C speed with no JSON text made, for a value made by one function of the game (``Room.memo``),
    which gives each field one type.

    >>> old = {"terrain": [{"x": 1}], "units": [{"id": "A1", "x": 2}, {"id": "A2", "x": 3}]}
    >>> new = {"terrain": [{"x": 1}], "units": [{"id": "A1", "x": 2}, {"id": "A2", "x": 4}]}
    >>> kept = keep_same(new, old)
    >>> kept == new, kept["terrain"] is old["terrain"], kept["units"][0] is old["units"][0]
    (True, True, True)
    >>> keep_same({"a": [1.0]}, {"a": [1]})["a"][0], keep_same({"a": [1.0]}, {"a": [1]}, strict=False)["a"][0]
    (1.0, 1)
    """
    if new is old or type(new) is not type(old):
        return new
    if isinstance(new, dict):
        if _same(old, new) if strict else new == old:
            return old
        kept = {key: keep_same(value, old[key], strict) if key in old else value for key, value in new.items()}
        return kept if any(kept[key] is not value for key, value in new.items()) else new
    if isinstance(new, list):
        if _same(old, new) if strict else new == old:
            return old
        if len(new) != len(old):
            return new
        # an item both hold (a list moved on by one: the events) is kept as it is; the others are
        # matched by their place (a unit of the table that moved)
        held = {id(x) for x in old} & {id(x) for x in new}
        items = [
            a if id(a) in held or id(b) in held else keep_same(a, b, strict) for a, b in zip(new, old, strict=True)
        ]
        return items if any(a is not b for a, b in zip(items, new, strict=True)) else new
    return new


def _longer(value: Any, limit: int) -> bool:
    """Whether ``value``'s JSON text is longer than ``limit`` characters: counted from below, part by part,
    and stopped as soon as it is (a large value next to a short change is never written out)."""
    total = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            total += len(item) + 2
        elif isinstance(item, dict):
            total += 1 + len(item)  # the braces, the colons and commas at least
            for key, sub in item.items():
                total += len(key) + 2
                stack.append(sub)
        elif isinstance(item, (list, tuple)):
            total += 1 + max(1, len(item))
            stack.extend(item)
        else:
            total += 1
        if total > limit:
            return True
    return len(_dumps(value)) > limit


def _runs(old: list[Any], new: list[Any]) -> list[tuple[str, int, int, int, int]]:
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return [op for op in matcher.get_opcodes() if op[0] != "equal"]


def _item_runs(old: list[Any], new: list[Any]) -> list[tuple[str, int, int, int, int]]:
    """The runs of a list's change: the items the same at both ends left out, then difflib over the
    rest, an item found by its very object where both lists hold it, else by its JSON text."""
    n, m = len(old), len(new)
    lo = 0
    while lo < n and lo < m and _same(old[lo], new[lo]):
        lo += 1
    hi = 0
    while hi < n - lo and hi < m - lo and _same(old[n - 1 - hi], new[m - 1 - hi]):
        hi += 1
    middle_old, middle_new = old[lo : n - hi], new[lo : m - hi]
    both = {id(x) for x in middle_old} & {id(x) for x in middle_new}
    if not both and len(middle_old) == len(middle_new):  # changed in place (a unit that moved): item for item
        return [("replace", lo, n - hi, lo, m - hi)] if middle_old else []

    def key(item: Any) -> tuple[str, Any]:
        return ("is", id(item)) if id(item) in both else ("json", _dumps(item))

    runs = _runs([key(x) for x in middle_old], [key(x) for x in middle_new])
    return [(tag, a + lo, b + lo, c + lo, d + lo) for tag, a, b, c, d in runs]


@functools.lru_cache(maxsize=64)
def _lines(old: str, new: str) -> dict[str, Any] | _Whole:
    """The change of a long text by its lines: one diff per (old, new) pair, shared by every page."""
    new_lines = new.split("\n")
    runs = [[a, b, new_lines[c:d]] for _, a, b, c, d in _runs(old.split("\n"), new_lines)]
    op = {"lines": runs}
    return op if len(_dumps(op)) < len(new) else WHOLE


PAIRS_KEPT = 4096  # changes of lists and objects kept, by the identity of the two (the oldest forgotten first)
_PAIRS: OrderedDict[tuple[int, int], tuple[Any, Any, Any]] = OrderedDict()


def change(old: Any, new: Any) -> Any:
    """The change turning ``old`` into ``new``: ``None`` (the same), ``WHOLE`` (send ``new``), or a change.

    The change of two lists or objects is worked out once for every page sent it (kept by the identity
    of the two): the parts pages share (``Room.memo``) are the same objects for each page, and neither
    is ever changed in place."""
    if old is new:
        return None
    if not (isinstance(new, (dict, list)) and isinstance(old, (dict, list))):
        return _change(old, new)
    key = (id(old), id(new))
    hit = _PAIRS.get(key)
    if hit is not None and hit[0] is old and hit[1] is new:
        _PAIRS.move_to_end(key)
        return hit[2]
    result = _change(old, new)
    _PAIRS[key] = (old, new, result)  # both held: their ids cannot be another object's while kept
    while len(_PAIRS) > PAIRS_KEPT:
        _PAIRS.popitem(last=False)
    return result


def _change(old: Any, new: Any) -> Any:
    if _same(old, new):
        return None
    if isinstance(old, dict) and isinstance(new, dict):
        op = _object(old, new)
    elif isinstance(old, list) and isinstance(new, list):
        op = _list(old, new)
    elif isinstance(old, str) and isinstance(new, str) and len(new) >= LONG_TEXT and "\n" in new:
        return _lines(old, new)
    else:
        return WHOLE
    return op if _longer(new, len(_dumps(op))) else WHOLE


def _object(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    put: dict[str, Any] = {}
    changed: dict[str, Any] = {}
    for key, value in new.items():
        if key not in old:
            put[key] = value
            continue
        op = change(old[key], value)
        if op is WHOLE:
            put[key] = value
        elif op is not None:
            changed[key] = op
    out: dict[str, Any] = {"set": put} if put else {}
    gone = [key for key in old if key not in new]
    if gone:
        out["unset"] = gone
    if changed:
        out["change"] = changed
    return out


def _list(old: list[Any], new: list[Any]) -> dict[str, Any]:
    runs: list[list[Any]] = []
    for tag, a, b, c, d in _item_runs(old, new):
        if tag == "replace" and b - a == d - c:  # item for item: each changed in place where cheaper
            for i, j in zip(range(a, b), range(c, d), strict=True):
                op = change(old[i], new[j])
                if op is not None:  # an item equal to the old one (changed in place around it) stays
                    runs.append([i, i + 1, [new[j]]] if op is WHOLE else [i, op])
        else:
            runs.append([a, b, new[c:d]])
    return {"runs": runs}


class Sent:
    """The state one page was last sent, to send it only what changed next."""

    def __init__(self) -> None:
        self.state: State | None = None

    def reset(self) -> None:
        """The page gets the whole state next (a reconnect, or the page asked)."""
        self.state = None

    def message(self, state: State) -> State | Patch | None:
        """The message that brings the page from what it was sent to ``state``: the whole ``state``
        the first time, else a ``patch`` (``None`` when nothing changed).

        ``state`` is kept as it is, not copied: its values are fresh or never changed afterwards
        (the parts pages share are replaced when the game changes, not changed in place); a value
        kept and unchanged since is recognised at once (the same object)."""
        old = self.state
        if old is None:
            self.state = state
            return state
        self.state = state = keep_same(state, old)  # what is equal is what the page holds: found at once
        op = _object(cast(dict[str, Any], old), cast(dict[str, Any], state))
        if not op:
            return None
        patch: Patch = {"type": "patch", "base": old["version"], "set": op.get("set", {})}
        if "unset" in op:
            patch["unset"] = op["unset"]
        if "change" in op:
            patch["change"] = op["change"]
        return patch


def _apply(old: Any, op: dict[str, Any]) -> Any:
    if "lines" in op:
        return "\n".join(_apply_runs(old.split("\n"), op["lines"]))
    if "runs" in op:
        return _apply_runs(old, op["runs"])
    out = dict(old)
    out.update(op.get("set", {}))
    for key in op.get("unset", []):
        out.pop(key, None)
    for key, sub in op.get("change", {}).items():
        out[key] = _apply(old[key], sub)
    return out


def _apply_runs(old: list[Any], runs: list[list[Any]]) -> list[Any]:
    out: list[Any] = []
    at = 0
    for run in runs:
        start = run[0]
        out.extend(old[at:start])
        if len(run) == 2:
            out.append(_apply(old[start], run[1]))
            at = start + 1
        else:
            out.extend(run[2])
            at = run[1]
    out.extend(old[at:])
    return out


def merge(state: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """The state a page holds after ``patch`` (as ``static/connection.js`` merges it).

    Raises ``ValueError`` when the patch is not for this state (its ``base`` is not the state's
    ``version``): the page then asks for the whole state (``{"type": "resync"}``).
    """
    if patch.get("base") != state.get("version"):
        raise ValueError(f"a patch for version {patch.get('base')} met a page at version {state.get('version')}")
    out: dict[str, Any] = _apply(state, {k: v for k, v in patch.items() if k in ("set", "unset", "change")})
    out["type"] = "state"
    return out
