"""Reading a game record's JSON Lines from a file anyone could have made: one line at a time, bounded.

Whatever the file (a record, a binary file, ``/dev/zero``, one line of 100 MB, a line nested 100,000
deep), reading it holds at most :data:`MAX_LINE` bytes of it at a time and stops at the first line that
is not a record line, with a :class:`~grognard.core.errors.RecordError` naming that line: a line longer
than :data:`MAX_LINE` is refused before it is parsed, a line nested deeper than :data:`MAX_DEPTH` before
anything reads it further.

A last line with no newline after it that does not parse was cut short while it was written (the
program stopped): :class:`~grognard.core.errors.TornRecord`, or left out with ``drop_torn``. A last line
that ends with its newline was written whole: if it does not parse, it is "not JSON", as any other line.

>>> [n for n, _ in numbered_lines(['{"type": "header"}', '', '{"type": "start"}'])]
[1, 3]
>>> next(numbered_lines(['[' * 5000 + ']' * 5000]))
Traceback (most recent call last):
...
grognard.core.errors.RecordError: line 1: not a record line: nested deeper than 64 levels (no record line is)
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterable, Iterator
from pathlib import Path
from typing import Any

from grognard.core.errors import RecordError, TornRecord

MAX_LINE = 4 * 1024 * 1024  # bytes of one line: a record's longest (a header with its own scenario) is some 100 KB
MAX_DEPTH = 64  # levels of nesting in one line: a record's lines have fewer than 10
TOO_DEEP = f"not a record line: nested deeper than {MAX_DEPTH} levels (no record line is)"
BOM = "\ufeff"  # an editor's byte order mark before the first line


def _no_constant(name: str) -> Any:
    """Records are strict JSON (written with ``allow_nan=False``): NaN and Infinity are refused on reading."""
    raise ValueError(f"{name} is not a JSON number")


def _too_deep(text: str, value: Any) -> bool:
    """Whether ``value`` (parsed from ``text``) is nested deeper than :data:`MAX_DEPTH`: looked at only when
    ``text`` holds that many brackets at all, so that the usual line costs two counts."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        inner = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in inner if isinstance(child, (dict, list)))
    return False


def parse_line(text: str, number: int) -> dict[str, Any]:
    """One record line parsed and checked for shape; :class:`RecordError` naming line ``number`` otherwise."""
    if len(text) > MAX_LINE:
        raise RecordError(f"longer than {MAX_LINE // 1024 // 1024} MiB: no line of a game record is", number)
    try:
        line = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON ({exc.msg})", number) from None
    except RecursionError:
        raise RecordError(TOO_DEEP, number) from None
    except ValueError as exc:
        raise RecordError(f"not JSON ({exc})", number) from None
    if _too_deep(text, line):
        raise RecordError(TOO_DEEP, number)
    if not isinstance(line, dict) or "type" not in line:
        raise RecordError("not a record line (no 'type')", number)
    return line


def numbered_lines(
    source: Path | str | Iterable[str], *, drop_torn: bool = False
) -> Generator[tuple[int, dict[str, Any]]]:
    """The record's lines with their 1-based line numbers (blank lines skipped), read one at a time.

    ``source`` is a file's path, or lines of text (an upload, already in memory: no line there is cut short).
    """
    if not isinstance(source, (str, Path)):
        for number, text in enumerate(source, 1):
            if number == 1:
                text = text.removeprefix(BOM)
            if text.strip():
                yield number, parse_line(text, number)
        return
    try:
        handle = Path(source).open("rb")
    except OSError as exc:
        raise RecordError(f"cannot read record {str(source)!r}: {exc.strerror}") from None
    with handle:
        yield from _file_lines(handle, str(source), drop_torn)


def _file_lines(handle: Any, name: str, drop_torn: bool) -> Iterator[tuple[int, dict[str, Any]]]:
    offset, number = 0, 0
    while True:
        try:
            raw: bytes = handle.readline(MAX_LINE + 2)  # a line's text, its "\r\n", and a byte to tell it is longer
        except OSError as exc:
            raise RecordError(f"cannot read record {name!r}: {exc.strerror}", number + 1) from None
        if not raw:
            return
        number += 1
        start, offset = offset, offset + len(raw)
        whole = raw.endswith(b"\n")  # written whole; without its newline, the file's last line
        if len(raw.rstrip(b"\r\n")) > MAX_LINE:
            raise RecordError(f"longer than {MAX_LINE // 1024 // 1024} MiB: no line of a game record is", number)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:  # only a last line cut in the middle of its last character is torn
            if whole or number == 1 or exc.end != len(raw) or exc.reason != "unexpected end of data":
                raise RecordError("not UTF-8 text: this is not a game record (a binary file?)", number) from None
            text = raw[: exc.start].decode("utf-8")  # and so not JSON either: torn, below
        if number == 1:
            text = text.removeprefix(BOM)
        if not text.strip():
            continue
        try:
            yield number, parse_line(text, number)
        except RecordError as exc:
            if whole or number == 1 or not str(exc).startswith(f"line {number}: not JSON"):
                raise
            if drop_torn:
                return
            reason = str(exc).removeprefix(f"line {number}: not JSON (").removesuffix(")")
            raise TornRecord(
                f"the last line is cut short (the game stopped while writing it: {reason})", number, start
            ) from None


def decode_lines(raw: bytes) -> list[str]:
    """An uploaded file's lines as text (split at each newline, as a file is read), a line's byte order mark
    dropped; ``RecordError`` naming the first line that is not UTF-8 text or is longer than :data:`MAX_LINE`.

    >>> decode_lines(b'{"type": 1}\\n\\xff\\n')
    Traceback (most recent call last):
    ...
    grognard.core.errors.RecordError: line 2: not UTF-8 text: this is not a game record (a binary file?)
    """
    out = []
    for number, chunk in enumerate(raw.split(b"\n"), 1):
        if len(chunk.rstrip(b"\r")) > MAX_LINE:
            raise RecordError(f"longer than {MAX_LINE // 1024 // 1024} MiB: no line of a game record is", number)
        try:
            out.append(chunk.decode("utf-8").removeprefix(BOM) if number == 1 else chunk.decode("utf-8"))
        except UnicodeDecodeError:
            raise RecordError("not UTF-8 text: this is not a game record (a binary file?)", number) from None
    if out and out[-1] == "":
        out.pop()
    return out
