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
items' JSON text; ``merge`` here is the reference the page's ``connection.js`` follows.

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
from typing import Any

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
        return bool(old == new) and _dumps(old) == _dumps(new)
    return type(old) is type(new) and bool(old == new)


def _runs(old: list[str], new: list[str]) -> list[tuple[str, int, int, int, int]]:
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return [op for op in matcher.get_opcodes() if op[0] != "equal"]


@functools.lru_cache(maxsize=64)
def _lines(old: str, new: str) -> dict[str, Any] | _Whole:
    """The change of a long text by its lines: one diff per (old, new) pair, shared by every page."""
    new_lines = new.split("\n")
    runs = [[a, b, new_lines[c:d]] for _, a, b, c, d in _runs(old.split("\n"), new_lines)]
    op = {"lines": runs}
    return op if len(_dumps(op)) < len(new) else WHOLE


def change(old: Any, new: Any) -> Any:
    """The change turning ``old`` into ``new``: ``None`` (the same), ``WHOLE`` (send ``new``), or a change."""
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
    return op if len(_dumps(op)) < len(_dumps(new)) else WHOLE


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
    for tag, a, b, c, d in _runs([_dumps(x) for x in old], [_dumps(x) for x in new]):
        if tag == "replace" and b - a == d - c:  # item for item: each changed in place where cheaper
            for i, j in zip(range(a, b), range(c, d), strict=True):
                op = change(old[i], new[j])
                runs.append([i, i + 1, [new[j]]] if op is WHOLE else [i, op])
        else:
            runs.append([a, b, new[c:d]])
    return {"runs": runs}


class Sent:
    """The state one page was last sent, to send it only what changed next."""

    def __init__(self) -> None:
        self.state: dict[str, Any] | None = None

    def reset(self) -> None:
        """The page gets the whole state next (a reconnect, or the page asked)."""
        self.state = None

    def message(self, state: dict[str, Any]) -> dict[str, Any] | None:
        """The message that brings the page from what it was sent to ``state``: the whole ``state``
        the first time, else a ``patch`` (``None`` when nothing changed).

        ``state`` is kept as it is, not copied: its values are fresh or never changed afterwards
        (the parts pages share are replaced when the game changes, not changed in place); a value
        kept and unchanged since is recognised at once (the same object)."""
        old, self.state = self.state, state
        if old is None:
            return state
        op = _object(old, state)
        if not op:
            return None
        return {"type": "patch", "base": old.get("version"), "set": {}, **op}


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
