"""The replay viewer's server side: a game record replayed once, then shown one step at a time.

A *book* is a record replayed with the core's :func:`grognard.core.record.replay` (every die and
digest checked; a tampered record names its first line that diverges), keeping the spectators' view
(``view(None)``) after each of its lines: step 0 is the setup (the record's start line, line 2), step
``n`` is the record's line ``n + 2`` (an action, or a resignation, with its events; or the host's end
line). A page is sent the outline (``outline``: a few numbers a step) once, then one step at a time
(``step``): the scene the rule set's face draws of that view, its text tables, and the public events
of the line, every die among them as rolled. Nothing of the game's full state, its dice seed or a sealed choice not yet
revealed is ever sent: a line that commits a secret choice shows its order as "sealed" (the reveal's
own line shows every choice), and the events meant for one seat only are left out.

A room's record is read as a spectator reads it (:func:`~grognard.core.record.readable_by`); an
uploaded ``.jsonl`` file (a record downloaded from the host page, or written by ``grognard play
--record``) is read whole, checked, and kept in memory (``Shelf``) under an unguessable id: a bad file
is refused with one line and nothing is kept.
"""

from __future__ import annotations

import json
import secrets
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from grognard import rulesets
from grognard.core.engine import Event, Game
from grognard.core.errors import GrognardError, RecordError
from grognard.core.jsonl import decode_lines
from grognard.core.reasons import shown_why
from grognard.core.record import SEALED, ended_words, read_lines, readable_by, replay
from grognard.core.ruleset import Ruleset
from grognard.web import faces

MAX_RECORD = 8 * 1024 * 1024  # bytes of an uploaded record (a 24-player game's record is some 250 KB)
MAX_STEPS = 20000  # lines of an uploaded record
KEPT = 24  # books kept in memory (uploads and rooms' records together); the oldest is dropped


@dataclass
class Book:
    """A replayed record: ``lines`` its lines after the header (start, actions, resignations) as a
    spectator reads them, ``views`` the spectators' view after each, ``turns`` the turn after each.

    ``stopped`` says why the replay ends before the record does (a seat's own record stops at another
    seat's choice still sealed), or is empty; ``title`` names where the record came from.
    """

    ruleset: Ruleset
    lines: list[dict[str, Any]]
    views: list[dict[str, Any]]
    turns: list[int]
    result: dict[str, Any] | None
    title: str
    stopped: str = ""
    sealed: list[bool] = field(default_factory=list)
    key: str = ""  # a room's book: the record's length and last digest when it was read
    numbers: list[int] = field(default_factory=list)  # each step's line in the record (1-based)
    ended: str = ""  # the host ended the game: "Ended by the host on turn 7 (...)", and how it stood

    @property
    def steps(self) -> int:
        return len(self.views)


def _snapshot(game: Game) -> dict[str, Any]:
    """The spectators' view of ``game`` now, a copy of its own (a view may share parts with the live state,
    which the replay goes on changing)."""
    view: dict[str, Any] = json.loads(json.dumps(game.view(None)))
    return view


def read(lines: Sequence[dict[str, Any]] | Sequence[str], title: str) -> Book:
    """Replay ``lines`` (a record's lines, parsed or as text) into a :class:`Book`, keeping a spectator's
    view after every line. Raises :class:`RecordError` naming the first line at fault."""
    views: list[dict[str, Any]] = []
    turns: list[int] = []

    def keep(game: Game) -> bool:  # called before each action line with the game after the line before
        views.append(_snapshot(game))
        turns.append(game.turn)
        return False

    texts = [line for line in lines if isinstance(line, str)]
    if texts:
        parsed = read_lines(texts)
        # each line's number in the file: a referee's typed rolls (outside the game) and blank lines between
        numbers = [k for k, text in enumerate(texts, 1) if text.strip() and json.loads(text)["type"] != "typed"]
    else:
        parsed = [dict(line) for line in lines if isinstance(line, dict)]
        numbers = [k for k, line in enumerate(parsed, 1) if line.get("type") != "typed"]
    parsed = readable_by(parsed, None)  # a spectator's reading: a choice never revealed stays sealed
    if len(parsed) - 1 > MAX_STEPS:
        raise RecordError(f"the record has {len(parsed) - 1} lines; a replay shows at most {MAX_STEPS}")
    try:
        rebuilt = replay(parsed, rulesets.get, until=keep)
    except RecordError as exc:  # the line named as the file numbers it (typed rolls and blank lines counted)
        if exc.line is None or not 0 < exc.line <= len(numbers):
            raise
        message = str(exc).removeprefix(f"line {exc.line}: ")
        raise RecordError(message, numbers[exc.line - 1]) from None
    used = rebuilt.used[1:]
    game = rebuilt.game
    if len(views) < len(used):  # the last line's view (the replay ran to the end)
        views.append(_snapshot(game))
        turns.append(game.turn)
    views, turns = _aligned(used, views, turns)
    del views[len(used) :], turns[len(used) :]
    stopped = ""
    if rebuilt.sealed_at is not None:
        stopped = (
            f"the replay stops before line {rebuilt.sealed_at} of the record: it holds a choice still sealed "
            "(not revealed yet, or never: the game ended before the reveal)"
        )
    ruleset = rulesets.get(str(rebuilt.header.get("ruleset")))
    sealed = [
        any(e.get("kind") == "sealed" and e.get("to") is not None for e in line.get("events", [])) for line in used
    ]
    result = game.result.to_json() if game.result is not None and not stopped else None
    ended = ""
    if rebuilt.ended is not None:
        standing = "; ".join(f"{label} {value}" for label, value in rebuilt.ended.get("standing", []))
        ended = ended_words(rebuilt.ended).capitalize() + (f". As it stood: {standing}" if standing else ".")
    numbered = numbers[1 : len(used) + 1]
    return Book(ruleset, used, views, turns, result, title, stopped, sealed, numbers=numbered, ended=ended)


def _aligned(used: list[dict[str, Any]], views: list[Any], turns: list[int]) -> tuple[list[Any], list[int]]:
    """The views and turns one a line of ``used``: a bot's plan committed or revealed (``core.plans``) changes
    nothing in the game, so its step shows the view of the line before it."""
    if not any(line.get("type") in ("plan", "reveal") for line in used):
        return views, turns
    out_views: list[Any] = []
    out_turns: list[int] = []
    k = 0
    for line in used:
        if line.get("type") in ("plan", "reveal") and out_views:
            out_views.append(out_views[-1])
            out_turns.append(out_turns[-1])
        elif k < len(views):
            out_views.append(views[k])
            out_turns.append(turns[k])
            k += 1
    return out_views, out_turns


def outline(book: Book) -> dict[str, Any]:
    """What the page needs once: ``{"title", "ruleset", "sides", "steps", "turns" (the turn after each step),
    "result" (the end, or None), "stopped", "ended" (the host ended the game: in words, or empty)}``."""
    return {
        "title": book.title,
        "ruleset": book.ruleset.title,
        "sides": list(book.ruleset.sides),
        "steps": book.steps,
        "turns": book.turns,
        "result": book.result,
        "stopped": book.stopped,
        "ended": book.ended,
    }


def step(book: Book, n: int) -> dict[str, Any]:
    """Step ``n`` (0: the setup) as the page shows it: ``{"step", "line" (its line in the record, 1-based),
    "turn", "phase", "order" ({"seat", "text"} or None), "why" (a bot's reason, ``core.reasons.shown_why``, or
    None), "events" (as ``faces.event_json``: a text line or
    ``{"dice": [values], "sides", "purpose"}``), "scene" (the face's, inches) or "svg", "tables", "figures",
    "result" (on the last step of a finished game)}``. ``RecordError`` for a step out of range."""
    if not 0 <= n < book.steps:
        raise RecordError(f"step {n}: the record has steps 0 to {book.steps - 1}")
    ruleset, view, line = book.ruleset, book.views[n], book.lines[n]
    kind = line.get("type")
    order: dict[str, Any] | None = None
    if kind == "action":
        text = SEALED if book.sealed[n] else str(line.get("action"))
        order = {"seat": line.get("seat"), "text": "a secret choice (sealed)" if text == SEALED else text}
    elif kind == "resign":
        order = {"seat": line.get("seat"), "text": "resigns"}
    elif kind == "end":
        order = {"seat": f"the {line.get('by', 'host')}", "text": "ends the game"}
    elif kind == "plan":
        order = {"seat": f"the {line.get('side')} bots", "text": "commit to a plan, sealed until the game's end"}
    elif kind == "reveal":
        order = {"seat": f"the {line.get('side')} bots", "text": f"followed the plan {line.get('plan')}"}
    events = []
    for index, data in enumerate(line.get("events", [])):
        if data.get("to") is not None:  # one seat's own news (a sealed choice): not a spectator's
            continue
        shown = faces.event_json(ruleset, Event.from_json(data), index)
        if shown is not None:
            events.append(shown)
    out: dict[str, Any] = {
        "step": n,
        "steps": book.steps,
        "line": book.numbers[n],
        "turn": book.turns[n],
        "order": order,
        "events": events,
        "why": shown_why(str(line.get("seat")), str(line.get("action")), line.get("reason"))
        if kind == "action" and not book.sealed[n]
        else None,
        "result": book.result if n == book.steps - 1 else None,
        "ended": book.ended if n == book.steps - 1 else "",
    }
    face = ruleset.face
    if face is not None:
        out.update(
            phase=face.phase(view),
            scene=face.scene(view, ()),
            tables=face.tables(view, ()),
            figures=[[label, str(value)] for label, value in face.figures(view)],
        )
    else:
        out.update(phase="", svg=ruleset.render(view) if ruleset.render is not None else "", tables=[], figures=[])
    return out


class Shelf:
    """Books in memory, the least recently read dropped past ``KEPT``: a room's latest by its code, uploads
    by an unguessable id (``secrets``)."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self.books: OrderedDict[str, Book] = OrderedDict()

    def get(self, key: str) -> Book | None:
        book = self.books.get(key)
        if book is not None:
            self.books.move_to_end(key)
        return book

    def put(self, key: str, book: Book) -> None:
        self.books[key] = book
        self.books.move_to_end(key)
        while len(self.books) > self.kept:
            self.books.popitem(last=False)

    def upload(self, raw: bytes, name: str = "") -> str:
        """Check an uploaded record whole and keep it; its id. ``RecordError`` (one line naming what is
        wrong, with its line number where it has one) for anything that is not a record that replays."""
        if not raw.strip():
            raise RecordError("the file is empty: choose a game record (.jsonl)")
        try:  # read as the command reads a file: line by line, each line bounded (core.jsonl)
            book = read(decode_lines(raw), f"the file {name}" if name else "an uploaded record")
        except GrognardError as exc:
            raise RecordError(str(exc)) from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:  # a line of the wrong shape
            raise RecordError(f"the file is not a game record grognard can replay ({type(exc).__name__})") from None
        key = secrets.token_urlsafe(12)
        self.put("u:" + key, book)
        return key


def file_name(raw: str) -> str:
    """An uploaded file's name as the page shows it (its last part, no control characters, short)."""
    base = raw.replace("\\", "/").rsplit("/", 1)[-1]
    return "".join(ch for ch in base if ch.isprintable())[:80]
