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
import itertools
import json
import os
import platform
import time
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from typing_extensions import TypeIs

from grognard import __version__
from grognard.core.dice import RecordedDice
from grognard.core.engine import Event, Game, canonical_json
from grognard.core.errors import EventError, GrognardError, RecordError, TornRecord
from grognard.core.jsonl import numbered_lines
from grognard.core.plans import check_line, commitment
from grognard.core.ruleset import Ruleset
from grognard.core.words import counted

FORMAT = "grognard-record/1"
SYNC_GAP = 0.2  # seconds: lines are fsynced at most this often while bots play (each fsync costs milliseconds)


OUTSIDE_CHAIN = ("digest", "reason")  # a line's digest, and a bot's reason for its action (commentary, not the game)


def _chain(previous: str, state_digest: str, line: Mapping[str, Any]) -> str:
    body = canonical_json({key: value for key, value in line.items() if key not in OUTSIDE_CHAIN})
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
        self.plans: dict[str, tuple[str, str]] = {}  # side -> (plan, salt): committed, not yet revealed
        self.planned = 0  # plan and reveal lines written (they are no steps)
        head = dict(header)
        head.pop("digest", None)
        self.chain = hashlib.sha256(canonical_json(head).encode()).hexdigest()
        self._write({**head, "digest": self.chain})

    @property
    def steps(self) -> int:
        """Action and resignation lines written so far."""
        return len(self.lines) - 2 - self.planned

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
        _observed(game)
        line = _as_read({"type": "start", "events": [e.to_json() for e in events]})
        self.chain = _chain(self.chain, game.digest(), line)
        self._write({**line, "digest": self.chain})

    def commit(self, game: Game, side: str, plan: str, salt: str) -> None:
        """``side``'s bot follows ``plan``: a ``plan`` line with its salted digest (:mod:`grognard.core.plans`),
        written after the start line; the plan and salt are kept for the reveal at the game's end."""
        line = {"type": "plan", "side": side, "commitment": commitment(plan, salt)}
        self.chain = _chain(self.chain, game.digest(), line)
        self.planned += 1
        self.plans[side] = (plan, salt)
        self._write({**line, "digest": self.chain})

    def reveal(self, game: Game, *, ended: bool = False) -> None:
        """The plans committed, revealed (a ``reveal`` line a side) once ``game`` is over or its host ``ended``
        it; else nothing."""
        if not self.plans or not (game.is_over or ended):
            return
        for side, (plan, salt) in sorted(self.plans.items()):
            line = {"type": "reveal", "side": side, "plan": plan, "salt": salt}
            self.chain = _chain(self.chain, game.digest(), line)
            self.planned += 1
            self._write({**line, "digest": self.chain})
        self.plans = {}

    def action(
        self, game: Game, seat: str, action: Any, events: Sequence[Event], reason: Mapping[str, Any] | None = None
    ) -> None:
        """One applied action, its events and the chained digest after it; with ``reason`` (a bot's,
        ``core.reasons.reason_json``), the reason too, kept outside the chain: no digest changes with it."""
        _observed(game)
        line = _as_read(
            {"type": "action", "seat": seat, "action": str(action), "events": [e.to_json() for e in events]}
        )
        self.chain = _chain(self.chain, game.digest(), line)
        kept = {"reason": _as_read(reason)} if reason is not None else {}
        self._write({**line, **kept, "digest": self.chain})
        self.reveal(game)

    def resignation(self, game: Game, seat: str, events: Sequence[Event]) -> None:
        """``seat`` resigned: the line that ends the game."""
        line = _as_read({"type": "resign", "seat": seat, "events": [e.to_json() for e in events]})
        self.chain = _chain(self.chain, game.digest(), line)
        self._write({**line, "digest": self.chain})
        self.reveal(game)

    def ending(self, game: Game, by: str, standing: Sequence[Sequence[Any]], at: float | None = None) -> None:
        """``by`` (``"host"``) ended the game before its rules did: the last line, with when (``at``, seconds
        since the epoch; now by default), the turn and the figures as they stand (``standing``: label, value)."""
        when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() if at is None else at))
        figures = [[str(label), str(value)] for label, value in standing]
        line = _as_read({"type": "end", "by": by, "at": when, "turn": game.turn, "standing": figures})
        self.chain = _chain(self.chain, game.digest(), line)
        self._write({**line, "digest": self.chain})
        self.reveal(game, ended=True)  # the game ends here: the plans are no secret any more

    @classmethod
    def resume(cls, lines: Sequence[dict[str, Any]], sink: IO[str] | None = None) -> RecordWriter:
        """A writer that continues an existing record (already checked by :func:`replay`)."""
        writer = cls.__new__(cls)
        writer.sink = sink
        writer.lines = [dict(line) for line in lines]
        writer.chain = str(lines[-1]["digest"])
        writer.plans = {}  # the player re-arms them (grognard.core.plans.recover)
        writer.planned = sum(1 for line in lines if line.get("type") in ("plan", "reveal"))
        return writer


def _observed(game: Game) -> None:
    """A record is made of a game's events: refuse a game that builds none (``Game.unobserved``)."""
    if not game.observed:
        raise ValueError(f"this {game.ruleset} game builds no events (unobserved): it cannot be recorded")


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

    def action(
        self, game: Game, seat: str, action: Any, events: Sequence[Event], reason: Mapping[str, Any] | None = None
    ) -> None:
        self.steps += 1

    def resignation(self, game: Game, seat: str, events: Sequence[Event]) -> None:
        self.steps += 1

    def ending(self, game: Game, by: str, standing: Sequence[Sequence[Any]], at: float | None = None) -> None:
        """Nothing to keep."""

    def commit(self, game: Game, side: str, plan: str, salt: str) -> None:
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
    choices revealed by a later line, are shown as written; so is a bot's reason (``reason``), but for the
    reason of another seat's secret choice not yet revealed, left out with it. The full record (for replay
    after the game) is the one to verify; this form is for reading. When anything is
    left out, sealed or withheld, the header says whose view it is (``"view": {"seat"}``,
    outside the header's digest): a view is never resumed as though it were the record.

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
    hidden = False
    for index, line in enumerate(out):
        reason = line.get("reason")
        if isinstance(reason, dict) and reason.get("to") is not None and (seat is None or seat not in reason["to"]):
            if not any(str(reason.get("decision")) in revealed_at[j] for j in range(index, len(out))):
                line.pop("reason")  # a secret choice's reason: its seats' alone until the reveal
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
                line.pop("reason", None)
                withhold_from = min(withhold_from, index)
            elif mine:
                kept.append(event)
        if "events" in line:
            hidden = hidden or len(kept) < len(events)
            line["events"] = kept
    for line in out[withhold_from:]:
        if "digest" in line:
            line["digest"] = WITHHELD
    if hidden and out and out[0].get("type") == "header":
        out[0]["view"] = {"seat": seat or "spectator"}
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
    ``plans``: the bots' plans the record commits to (:mod:`grognard.core.plans`), side -> ``{"line": the
    plan line, "commitment", "revealed": the reveal line or None, "plan": its name once revealed}``.
    ``view`` is the header's mark of a seat's view (:func:`readable_by`: ``{"seat"}``, and ``"record"``,
    the whole record's path, when ``grognard replay --seat`` wrote it), or None for a whole record.
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
    view: dict[str, Any] | None = None
    plans: dict[str, dict[str, Any]] = field(default_factory=dict)


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
    Any file is read safely (:mod:`grognard.core.jsonl`: one bounded line at a time).
    """
    return [line for _, line in numbered_lines(source, drop_torn=drop_torn)]


def drop_torn_line(path: Path | str) -> int:
    """Cut ``path`` back to its whole lines when its last line is cut short; the line number dropped, or 0.

    Only a last line that does not parse, with no newline after it, is ever dropped.
    """
    try:
        for _ in numbered_lines(path):
            pass
    except TornRecord as torn:
        os.truncate(path, torn.keep)
        return int(torn.line or 0)
    return 0


def _check_header(
    first: tuple[int, dict[str, Any]] | None, lookup: Callable[[str], Ruleset]
) -> tuple[dict[str, Any], Ruleset, dict[str, Any] | None, str]:
    """The header line checked: (the header without its digest and view mark, the rule set, the view mark,
    the chain's first digest)."""
    if first is None:
        raise RecordError("the file is empty: the record must start with a header line", 1)
    number, line = first
    if line.get("type") != "header":
        raise RecordError("the record must start with a header line", number)
    header = dict(line)
    if header.get("format") != FORMAT:
        raise RecordError(f"unknown record format {header.get('format')!r} (expected {FORMAT})", number)
    claimed = header.pop("digest", None)
    view = header.pop("view", None)  # a seat's view (:func:`readable_by`): outside the digest
    chain = hashlib.sha256(canonical_json(header).encode()).hexdigest()
    if claimed != chain:
        raise RecordError("header digest does not match: the header was changed", number)
    try:
        ruleset = lookup(str(header.get("ruleset")))
    except GrognardError as exc:
        raise RecordError(str(exc), number) from None
    return header, ruleset, view if isinstance(view, dict) else ({} if view is not None else None), chain


def _check_end(line: Mapping[str, Any], game: Game, number: int) -> None:
    """An end line as :meth:`RecordWriter.ending` writes it: on the turn the game stands at, never in a game
    its rules ended already, with no events."""
    if game.is_over:
        raise RecordError("an end line after the game was over by its rules", number)
    if line.get("events"):
        raise RecordError("an end line has no events", number)
    if line.get("turn") != game.turn:
        raise RecordError(f"the end line says turn {line.get('turn')!r}; the game stands at turn {game.turn}", number)


class _Replayer:
    """A record's lines after its header applied one at a time (:func:`replay`)."""

    def __init__(self, header: dict[str, Any], first: dict[str, Any], ruleset: Ruleset, chain: str) -> None:
        self.header, self.ruleset, self.chain = header, ruleset, chain
        self.dice = RecordedDice()
        self.game: Game | None = None
        self.sealed_at: int | None = None
        self.actions = 0
        self.used: list[dict[str, Any]] = [first]
        self.drawn: dict[int, int] = {}
        self.typed: list[tuple[str, int, list[int]]] = []  # typed for an action whose line is not (yet) written
        self.ended: dict[str, Any] | None = None
        self.plans: dict[str, dict[str, Any]] = {}

    def take(self, number: int, line: dict[str, Any], until: Callable[[Game], bool] | None) -> bool:
        """Apply line ``number``; False where the replay stops before it (``until``, or a sealed choice)."""
        if self.ended is not None and line.get("type") != "reveal":
            raise RecordError("a line after the game's end line (the host ended the game)", number)
        if line.get("type") in ("plan", "reveal"):
            return self._plan(number, line)
        if line.get("type") == "typed":
            try:
                self.typed.append((str(line["purpose"]), int(line["sides"]), [int(v) for v in line["values"]]))
            except (KeyError, TypeError, ValueError):
                raise RecordError("malformed typed roll", number) from None
            return True
        self.typed = []
        events = line.get("events", [])
        try:
            self.dice.extend(dice_of(events))
        except (KeyError, TypeError):
            raise RecordError("malformed dice event", number) from None
        try:
            produced = self._apply(number, line, until)
        except RecordError:
            raise
        except GrognardError as exc:
            raise RecordError(f"diverges: {exc}", number) from None
        if produced is None:
            return False
        game = self.game
        assert game is not None
        _check_events(events, game, number)
        if self.dice.remaining:
            left = self.dice.remaining
            unused = f"{counted(left, 'recorded roll')} {'was' if left == 1 else 'were'} not used"
            raise RecordError(f"diverges: {unused}", number)
        if json.loads(json.dumps([e.to_json() for e in produced])) != events:
            raise RecordError("diverges: the events differ from the recorded ones", number)
        self.chain = _chain(self.chain, game.digest(), line)
        if line.get("digest") != self.chain:
            raise RecordError("digest does not match: the line or one before it was changed", number)
        self.used.append(line)
        for _, sides, values in dice_of(events):
            self.drawn[sides] = self.drawn.get(sides, 0) + len(values)
        return True

    def _plan(self, number: int, line: dict[str, Any]) -> bool:
        """A bot's plan committed (at set-up) or revealed (at the end), checked and chained."""
        game = self.game
        if game is None:
            raise RecordError("a plan line before the start line", number)
        if line.get("type") == "plan" and any(u.get("type") in ("action", "resign", "end") for u in self.used):
            raise RecordError("a plan is committed at set-up, before the first action", number)
        check_line(line, number, self.plans, game.is_over or self.ended is not None)
        self.chain = _chain(self.chain, game.digest(), line)
        if line.get("digest") != self.chain:
            raise RecordError("digest does not match: the line or one before it was changed", number)
        self.used.append(line)
        return True

    def _apply(self, number: int, line: dict[str, Any], until: Callable[[Game], bool] | None) -> list[Event] | None:
        """The events of line ``number`` as the rules make them, or None to stop before it."""
        kind = line.get("type")
        if self.game is None:
            if kind != "start":
                raise RecordError("expected the start line", number)
            self.game = self.ruleset.create(self.header.get("options", {}), self.dice, self.header.get("embedded"))
            return self.game.take_events()
        if kind not in ("action", "resign", "end"):
            raise RecordError(f"unexpected line type {kind!r}", number)
        if until is not None and until(self.game):
            return None
        if kind == "action" and line.get("action") == SEALED:  # a seat's view: another's secret
            self.sealed_at = number
            return None
        if kind == "end":  # the host ended the game: nothing changes in it
            _check_end(line, self.game, number)
            self.ended = line
            return []
        if kind == "resign":
            return self.game.resign(str(line.get("seat")))
        action = self.ruleset.parse_action(str(line.get("action")))
        self.actions += 1
        return self.game.apply(str(line.get("seat")), action)


def _check_events(events: Any, game: Game, number: int) -> None:
    """Each recorded event of line ``number`` is of a kind ``game`` declares, with its fields and their types
    (:mod:`grognard.core.events`); else a :class:`RecordError` naming the event and what is wrong."""
    if not isinstance(events, list):
        raise RecordError("malformed events: not a list", number)
    kinds = game.event_kinds
    for k, event in enumerate(events, 1):
        if not isinstance(event, dict):
            raise RecordError(f"malformed event {k}: not an object", number)
        body = {key: value for key, value in event.items() if key not in ("kind", "to")}
        try:
            kinds.check_types(str(event.get("kind")), body)
        except EventError as exc:
            raise RecordError(f"event {k}: {exc}", number) from None


def _parsed(source: Path | str | Iterable[str] | Sequence[dict[str, Any]]) -> TypeIs[Sequence[dict[str, Any]]]:
    """Whether ``source`` is a record's lines already parsed (a sequence of objects), not text to read."""
    return isinstance(source, Sequence) and bool(source) and isinstance(source[0], dict)


def replay(
    source: Path | str | Iterable[str] | Sequence[dict[str, Any]],
    lookup: Callable[[str], Ruleset],
    *,
    until: Callable[[Game], bool] | None = None,
    drop_torn: bool = False,
) -> Replay:
    """Rebuild a game from its record, checking every digest.

    ``lookup`` finds a rule set by name. ``until(game)``, if given, stops the
    replay before the first action line at which it returns True (``--to TURN``);
    the lines after it are still read (a line that is not JSON is named).
    Raises :class:`RecordError` naming the first line that is malformed,
    diverges from the rules or the recorded dice, or fails its digest; a
    record file whose last line was cut short raises :class:`TornRecord`, or
    with ``drop_torn`` is replayed without that line. A file is read one
    line at a time (:mod:`grognard.core.jsonl`), and no further than its first bad line.
    """
    numbered: Generator[tuple[int, dict[str, Any]]]
    if _parsed(source):
        numbered = ((number, dict(line)) for number, line in enumerate(source, 1))
    else:
        numbered = numbered_lines(source, drop_torn=drop_torn)
    with closing(numbered):
        first = next(numbered, None)
        header, ruleset, view, chain = _check_header(first, lookup)
        assert first is not None
        second = next(numbered, None)
        if second is None:
            raise RecordError("the record stops after its header: it has no start line", 2)
        if second[1].get("type") != "start":
            raise RecordError("the second line must be the start line", second[0])
        run = _Replayer(header, first[1], ruleset, chain)
        complete = all(run.take(number, line, until) for number, line in itertools.chain([second], numbered))
        for _ in numbered:  # the lines not replayed: each still read (a torn last line named)
            pass
    assert run.game is not None
    return Replay(
        game=run.game,
        header=header,
        lines=len(run.used),
        actions=run.actions,
        used=run.used,
        dice_drawn=run.drawn,
        complete=complete,
        sealed_at=run.sealed_at,
        typed=run.typed,
        ended=run.ended,
        view=view,
        plans=run.plans,
    )
