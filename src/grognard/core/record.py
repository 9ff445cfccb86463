"""The game record: JSON Lines, one header, a start line, then one line per action.

Each line carries the events of its step, every die among them, and a digest
of the line and of the state after it, chained to the line before:
``digest_n = sha256(digest_{n-1} + state digest + canonical line)``, where the
canonical line is the line without its digest (so a changed die is caught even
where it would leave the state as it was); the header's own digest starts the
chain. Replay rebuilds the game from the recorded dice and names the first
line that diverges or was tampered with.

A game its host ends before the rules do (the bell rang) ends with an ``end`` line: who ended it, when
(the wall clock, UTC), on which turn, and the game's figures as they stood (``standing``); it changes
nothing in the game, is chained like every line, and is the record's last. A record without one (an older
record, or a game not ended by its host) reads as before.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from grognard import __version__
from grognard.core.dice import RecordedDice
from grognard.core.engine import Event, Game, canonical_json
from grognard.core.errors import GrognardError, RecordError, TornRecord
from grognard.core.ruleset import Ruleset
from grognard.core.words import counted

FORMAT = "grognard-record/1"
SYNC_GAP = 0.2  # seconds: lines are fsynced at most this often while bots play (each fsync costs milliseconds)


def _chain(previous: str, state_digest: str, line: Mapping[str, Any]) -> str:
    body = canonical_json({key: value for key, value in line.items() if key != "digest"})
    return hashlib.sha256((previous + state_digest + body).encode()).hexdigest()


def _as_read(line: Mapping[str, Any]) -> dict[str, Any]:
    """``line`` as a reader of the record will see it (JSON types: lists, string keys)."""
    out: dict[str, Any] = json.loads(json.dumps(line, separators=(",", ":"), allow_nan=False))
    return out


def make_header(ruleset: str, options: Mapping[str, Any], dice: str, seed: Any = None, **extra: Any) -> dict[str, Any]:
    """A record header: rule set, resolved options, dice kind and seed, versions."""
    return {
        "type": "header",
        "format": FORMAT,
        "ruleset": ruleset,
        "options": dict(options),
        "dice": dice,
        "seed": seed,
        "versions": {"grognard": __version__, "python": platform.python_version()},
        **extra,
    }


class RecordWriter:
    """Writes a game record as the game goes; each line is flushed as written.

    ``sink`` is an open text file (or ``None`` to keep lines in memory only).
    """

    def __init__(self, header: Mapping[str, Any], sink: IO[str] | None = None) -> None:
        self.sink = sink
        self.lines: list[dict[str, Any]] = []
        head = dict(header)
        head.pop("digest", None)
        self.chain = hashlib.sha256(canonical_json(head).encode()).hexdigest()
        self._write({**head, "digest": self.chain})

    @property
    def steps(self) -> int:
        """Action and resignation lines written so far."""
        return len(self.lines) - 2

    def _write(self, line: dict[str, Any]) -> None:
        self.lines.append(line)
        self._put(line)

    def _put(self, line: Mapping[str, Any], force: bool = False) -> None:
        """``line`` on the file (flushed, synced as :meth:`_sync` says); a failed write (a full disk) raises
        an ``OSError`` naming the file, which a face turns into the way to resume."""
        if self.sink is None:
            return
        try:
            self.sink.write(json.dumps(line, separators=(",", ":")) + "\n")
            self.sink.flush()
            self._sync(force)
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror or str(exc), getattr(self.sink, "name", None)) from None

    def _sync(self, force: bool = False) -> None:
        """The lines written so far on the disk: at once after a pause (a person's answer, a typed roll), and
        at most every ``SYNC_GAP`` seconds while bots play fast (their lines replay the same from the seed)."""
        now = time.monotonic()
        if self.sink is not None and (force or now - getattr(self, "_synced", -SYNC_GAP) >= SYNC_GAP):
            sync_file(self.sink)
            self._synced = now

    def close(self) -> None:
        """Every line on the disk, then the file closed."""
        if self.sink is not None and not self.sink.closed:
            self._sync(force=True)
            self.sink.close()

    def typed(self, purpose: str, sides: int, values: Sequence[int]) -> None:
        """A roll a referee typed for the action under way, on the disk at once (a ``typed`` line, outside
        the digest chain): if the program dies before the action's line is written, resume shows them."""
        self._put({"type": "typed", "purpose": purpose, "sides": sides, "values": list(values)}, force=True)

    def start(self, game: Game, events: Sequence[Event]) -> None:
        """The setup's events and the state it left."""
        line = _as_read({"type": "start", "events": [e.to_json() for e in events]})
        self.chain = _chain(self.chain, game.digest(), line)
        self._write({**line, "digest": self.chain})

    def action(self, game: Game, seat: str, action: Any, events: Sequence[Event]) -> None:
        """One applied action, its events and the chained digest after it."""
        line = _as_read(
            {"type": "action", "seat": seat, "action": str(action), "events": [e.to_json() for e in events]}
        )
        self.chain = _chain(self.chain, game.digest(), line)
        self._write({**line, "digest": self.chain})

    def resignation(self, game: Game, seat: str, events: Sequence[Event]) -> None:
        """``seat`` resigned: the line that ends the game."""
        line = _as_read({"type": "resign", "seat": seat, "events": [e.to_json() for e in events]})
        self.chain = _chain(self.chain, game.digest(), line)
        self._write({**line, "digest": self.chain})

    def ending(self, game: Game, by: str, standing: Sequence[Sequence[Any]], at: float | None = None) -> None:
        """``by`` (``"host"``) ended the game before its rules did: the last line, with when (``at``, seconds
        since the epoch; now by default), the turn and the figures as they stand (``standing``: label, value)."""
        when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() if at is None else at))
        figures = [[str(label), str(value)] for label, value in standing]
        line = _as_read({"type": "end", "by": by, "at": when, "turn": game.turn, "standing": figures})
        self.chain = _chain(self.chain, game.digest(), line)
        self._write({**line, "digest": self.chain})

    @classmethod
    def resume(cls, lines: Sequence[dict[str, Any]], sink: IO[str] | None = None) -> RecordWriter:
        """A writer that continues an existing record (already checked by :func:`replay`)."""
        writer = cls.__new__(cls)
        writer.sink = sink
        writer.lines = [dict(line) for line in lines]
        writer.chain = str(lines[-1]["digest"])
        return writer


def sync_file(sink: IO[str]) -> None:
    """Each line on the disk before the game goes on (a crash or a power cut loses at most the line being
    written, which :class:`~grognard.core.errors.TornRecord` then names); a sink with no file: nothing to do."""
    try:
        fd = sink.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError and a ValueError
        return
    os.fsync(fd)


class StepCounter:
    """Stands in for a :class:`RecordWriter` when nothing is recorded: counts steps, takes no digests."""

    def __init__(self, steps: int = 0) -> None:
        self.steps = steps

    def typed(self, purpose: str, sides: int, values: Sequence[int]) -> None:
        """Nothing to keep."""

    def start(self, game: Game, events: Sequence[Event]) -> None:
        """Nothing to keep."""

    def action(self, game: Game, seat: str, action: Any, events: Sequence[Event]) -> None:
        self.steps += 1

    def resignation(self, game: Game, seat: str, events: Sequence[Event]) -> None:
        self.steps += 1

    def ending(self, game: Game, by: str, standing: Sequence[Sequence[Any]], at: float | None = None) -> None:
        """Nothing to keep."""


def dice_of(events: Iterable[Mapping[str, Any]]) -> list[tuple[str, int, list[int]]]:
    """The rolls among recorded events, in order: ``(purpose, sides, values)``."""
    return [(e["purpose"], e["sides"], list(e["values"])) for e in events if e.get("kind") == "dice"]


SEALED = "sealed"  # what a reader sees of another seat's secret choice before its reveal
WITHHELD = "withheld until the reveal"  # a digest that would let a reader test a guess at a sealed choice


def readable_by(lines: Sequence[Mapping[str, Any]], seat: str | None) -> list[dict[str, Any]]:
    """The record as ``seat`` may read it now (``None``: a spectator, or the host).

    ``lines`` are a record's lines (the full record, or as much of it as is
    written). Every event the seat may not see (an event whose ``to`` leaves it
    out, such as another seat's ``sealed`` choice) is left out, but for a sealed
    choice revealed within ``lines`` (no secret any more: a finished game's
    record reads, and replays, as written). A line that
    commits another seat's secret choice not revealed within ``lines`` shows
    its action as ``"sealed"``; and as a line's digest is taken of the state
    after it (the sealed choice included) and chains into every later digest,
    a reader could test a guess against any of them: so from that line on every
    ``digest`` is ``"withheld until the reveal"``. The seat's own choices, and
    choices revealed by a later line, are shown as written. The full record (for replay
    after the game) is the one to verify; this form is for reading.

    >>> line = {"type": "action", "seat": "B", "action": "stay", "digest": "d1",
    ...         "events": [{"kind": "sealed", "decision": "x", "seat": "B", "action": "stay", "to": ["B"]}]}
    >>> readable_by([line], "A")[0]["action"], readable_by([line], "A")[0]["events"]
    ('sealed', [])
    >>> readable_by([line], "B")[0]["action"]
    'stay'
    """
    out = [dict(line) for line in lines if line.get("type") != "typed"]  # a referee's notes: not the game
    revealed_at: list[set[str]] = []
    for line in out:
        shown: set[str] = set()
        for event in line.get("events", []):
            if event.get("kind") == "revealed":
                shown.update(str(key) for key in event.get("choices", {}))
        revealed_at.append(shown)
    withhold_from = len(out)
    for index, line in enumerate(out):
        events = line.get("events", [])
        kept = []
        for event in events:
            mine = event.get("to") is None or (seat is not None and seat in event["to"])
            if event.get("kind") == "sealed" and not mine:
                key = str(event.get("decision"))
                if any(key in revealed_at[j] for j in range(index, len(out))):
                    kept.append(event)  # revealed since: no secret any more (and the record replays)
                    continue
                line["action"] = SEALED
                withhold_from = min(withhold_from, index)
            elif mine:
                kept.append(event)
        if "events" in line:
            line["events"] = kept
    for line in out[withhold_from:]:
        if "digest" in line:
            line["digest"] = WITHHELD
    return out


@dataclass
class Replay:
    """A replayed game: the rebuilt game and the header (its digest removed).

    ``lines`` counts the lines replayed (header included) and ``used`` holds
    them; ``actions`` counts the actions applied; ``dice_drawn`` counts the
    recorded dice per number of sides (to continue a seeded stream);
    ``complete`` is False when ``until`` stopped the replay early, or when the
    record is a seat's view (:func:`readable_by`) and ``sealed_at`` names its
    first line holding another seat's choice still sealed: the replay stops
    before it, as the seat can know no more. ``typed`` holds the rolls a
    referee typed after the last line replayed, for an action the program
    died before writing (``typed`` lines: outside the chain, ignored otherwise).
    ``ended`` is the record's ``end`` line when its host ended the game (:meth:`RecordWriter.ending`).
    """

    game: Game
    header: dict[str, Any]
    lines: int
    actions: int
    used: list[dict[str, Any]] = field(default_factory=list)
    dice_drawn: dict[int, int] = field(default_factory=dict)
    complete: bool = True
    sealed_at: int | None = None
    typed: list[tuple[str, int, list[int]]] = field(default_factory=list)
    ended: dict[str, Any] | None = None


def ended_words(end: Mapping[str, Any]) -> str:
    """An end line as a person reads it: "ended by the host on turn 7 (2024-05-02 10:41 UTC)".

    >>> ended_words({"by": "host", "turn": 7, "at": "2024-05-02T10:41:09Z"})
    'ended by the host on turn 7 (2024-05-02 10:41 UTC)'
    """
    at = str(end.get("at", ""))
    when = f" ({at[:10]} {at[11:16]} UTC)" if len(at) >= 16 else ""
    return f"ended by the {end.get('by', 'host')} on turn {end.get('turn')}{when}"


def read_lines(source: Path | str | Iterable[str], *, drop_torn: bool = False) -> list[dict[str, Any]]:
    """Parse a record (a path or lines of text); raises :class:`RecordError` naming a bad line.

    A last line cut short raises :class:`~grognard.core.errors.TornRecord`, or with ``drop_torn`` is left out.
    """
    return [line for _, line in _read_numbered(source, drop_torn=drop_torn)]


def drop_torn_line(path: Path | str) -> int:
    """Cut ``path`` back to its whole lines when its last line is cut short; the line number dropped, or 0.

    Only a last line that does not parse, with nothing but blank lines after it, is ever dropped.
    """
    try:
        _read_numbered(path)
    except TornRecord as torn:
        os.truncate(path, torn.keep)
        return int(torn.line or 0)
    return 0


def _no_constant(name: str) -> Any:
    """Records are strict JSON (written with ``allow_nan=False``): NaN and Infinity are refused on reading."""
    raise ValueError(f"{name} is not a JSON number")


def _read_numbered(source: Path | str | Iterable[str], *, drop_torn: bool = False) -> list[tuple[int, dict[str, Any]]]:
    """The record's lines with their 1-based line numbers in the text (blank lines skipped).

    A file whose last line does not parse (cut short by a crash while it was written) raises
    :class:`TornRecord`, or with ``drop_torn`` is read without that line.
    """
    whole = isinstance(source, (str, Path))
    if whole:
        try:
            raw = Path(source).read_bytes()  # type: ignore[arg-type]
        except OSError as exc:
            raise RecordError(f"cannot read record {str(source)!r}: {exc.strerror}") from None
        cut = raw.rfind(b"\n", 0, len(raw.rstrip())) + 1  # where the last line with text starts
        last = raw[cut:].strip()
        try:  # only the last line may be cut short mid-character; the rest must be UTF-8
            text_lines: list[str] = [*raw[:cut].decode("utf-8").splitlines(), last.decode("utf-8", "replace")]
        except UnicodeDecodeError:
            raise RecordError(f"{str(source)!r} is not a game record (not UTF-8 text)") from None
    else:
        text_lines = list(source)  # type: ignore[arg-type]
    if text_lines and text_lines[0].startswith("\ufeff"):  # an editor's byte order mark (the bytes' offsets kept)
        text_lines[0] = text_lines[0][1:]
    last_text = max((n for n, text in enumerate(text_lines, 1) if text.strip()), default=0)
    out: list[tuple[int, dict[str, Any]]] = []
    for number, text in enumerate(text_lines, 1):
        if not text.strip():
            continue
        try:
            line = json.loads(text, parse_constant=_no_constant)
        except json.JSONDecodeError as exc:
            if whole and number == last_text and number > 1:
                if drop_torn:
                    break
                raise TornRecord(
                    f"the last line is cut short (the game stopped while writing it: {exc.msg})", number, cut
                ) from None
            raise RecordError(f"not JSON ({exc.msg})", number) from None
        except ValueError as exc:
            raise RecordError(f"not JSON ({exc})", number) from None
        if not isinstance(line, dict) or "type" not in line:
            raise RecordError("not a record line (no 'type')", number)
        out.append((number, line))
    return out


def _check_end(line: Mapping[str, Any], game: Game, number: int) -> None:
    """An end line as :meth:`RecordWriter.ending` writes it: on the turn the game stands at, never in a game
    its rules ended already, with no events."""
    if game.is_over:
        raise RecordError("an end line after the game was over by its rules", number)
    if line.get("events"):
        raise RecordError("an end line has no events", number)
    if line.get("turn") != game.turn:
        raise RecordError(f"the end line says turn {line.get('turn')!r}; the game stands at turn {game.turn}", number)


def replay(
    source: Path | str | Iterable[str] | Sequence[dict[str, Any]],
    lookup: Callable[[str], Ruleset],
    *,
    until: Callable[[Game], bool] | None = None,
    drop_torn: bool = False,
) -> Replay:
    """Rebuild a game from its record, checking every digest.

    ``lookup`` finds a rule set by name. ``until(game)``, if given, stops the
    replay before the first action line at which it returns True (``--to TURN``).
    Raises :class:`RecordError` naming the first line that is malformed,
    diverges from the rules or the recorded dice, or fails its digest; a
    record file whose last line was cut short raises :class:`TornRecord`, or
    with ``drop_torn`` is replayed without that line.
    """
    numbered: list[tuple[int, dict[str, Any]]]
    if isinstance(source, Sequence) and source and isinstance(source[0], dict):
        numbered = [(number, dict(line)) for number, line in enumerate(source, 1)]
    else:
        numbered = _read_numbered(source, drop_torn=drop_torn)  # type: ignore[arg-type]
    lines = [line for _, line in numbered]
    if not lines:
        raise RecordError("the file is empty: the record must start with a header line", 1)
    if lines[0].get("type") != "header":
        raise RecordError("the record must start with a header line", 1)
    header = dict(lines[0])
    if header.get("format") != FORMAT:
        raise RecordError(f"unknown record format {header.get('format')!r} (expected {FORMAT})", 1)
    claimed = header.pop("digest", None)
    chain = hashlib.sha256(canonical_json(header).encode()).hexdigest()
    if claimed != chain:
        raise RecordError("header digest does not match: the header was changed", 1)
    try:
        ruleset = lookup(str(header.get("ruleset")))
    except GrognardError as exc:
        raise RecordError(str(exc), 1) from None
    if len(lines) < 2:
        raise RecordError("the record stops after its header: it has no start line", 2)
    if lines[1].get("type") != "start":
        raise RecordError("the second line must be the start line", numbered[1][0])
    dice = RecordedDice()
    game: Game | None = None
    sealed_at: int | None = None
    actions = 0
    used: list[dict[str, Any]] = [lines[0]]
    drawn: dict[int, int] = {}
    typed: list[tuple[str, int, list[int]]] = []  # typed for an action whose line is not (yet) written
    notes = 0
    ended: dict[str, Any] | None = None
    for index, (number, line) in enumerate(numbered[1:], 2):
        if ended is not None:
            raise RecordError("a line after the game's end line (the host ended the game)", number)
        if line.get("type") == "typed":
            notes += 1
            try:
                typed.append((str(line["purpose"]), int(line["sides"]), [int(v) for v in line["values"]]))
            except (KeyError, TypeError, ValueError):
                raise RecordError("malformed typed roll", number) from None
            continue
        typed = []
        events = line.get("events", [])
        try:
            dice.extend(dice_of(events))
        except (KeyError, TypeError):
            raise RecordError("malformed dice event", number) from None
        try:
            if index == 2:
                if line.get("type") != "start":
                    raise RecordError("expected the start line", number)
                game = ruleset.create(header.get("options", {}), dice, header.get("embedded"))
                produced = game.take_events()
            else:
                assert game is not None
                kind = line.get("type")
                if kind not in ("action", "resign", "end"):
                    raise RecordError(f"unexpected line type {kind!r}", number)
                if until is not None and until(game):
                    break
                if kind == "action" and line.get("action") == SEALED:  # a seat's view: another's secret
                    sealed_at = number
                    break
                if kind == "end":  # the host ended the game: nothing changes in it
                    _check_end(line, game, number)
                    ended = line
                    produced = []
                elif kind == "resign":
                    produced = game.resign(str(line.get("seat")))
                else:
                    action = ruleset.parse_action(str(line.get("action")))
                    produced = game.apply(str(line.get("seat")), action)
                    actions += 1
        except RecordError:
            raise
        except GrognardError as exc:
            raise RecordError(f"diverges: {exc}", number) from None
        if dice.remaining:
            unused = f"{counted(dice.remaining, 'recorded roll')} {'was' if dice.remaining == 1 else 'were'} not used"
            raise RecordError(f"diverges: {unused}", number)
        if json.loads(json.dumps([e.to_json() for e in produced])) != events:
            raise RecordError("diverges: the events differ from the recorded ones", number)
        chain = _chain(chain, game.digest(), line)
        if line.get("digest") != chain:
            raise RecordError("digest does not match: the line or one before it was changed", number)
        used.append(line)
        for _, sides, values in dice_of(events):
            drawn[sides] = drawn.get(sides, 0) + len(values)
    assert game is not None
    return Replay(
        game=game,
        header=header,
        lines=len(used),
        actions=actions,
        used=used,
        dice_drawn=drawn,
        complete=len(used) + notes == len(lines),
        sealed_at=sealed_at,
        typed=typed,
        ended=ended,
    )
