"""Every message the server sends, typed as ``protocol.py`` types the ones it accepts.

The small ones are pydantic models made as they are sent (``Outbound.out`` gives the JSON object): the answers
to a page's messages (``Acked``, ``OpDone``, ``DiceTaken``, ``PreviewAnswer``, ``Pong``), the news
(``Events``), the goodbye (``Bye``) and every refusal (``Refusal``, over the WebSocket and HTTP alike, its
``code`` one of ``RefusalCode``). A page's state (``State``) and the patch that brings it up to date
(``Patch``) are typed dictionaries: checked by mypy where they are made (``state.py``, ``patch.py``), and by
pydantic in the tests (``server_message``), not for every page at every change.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal, NotRequired

from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, TypeAdapter, with_config
from typing_extensions import TypedDict

from grognard.core.engine import Result


class RefusalCode(StrEnum):
    """Every code a refusal carries: the web's own, then the rules' (``GrognardError.code`` and its kinds)."""

    AGAIN = "again"  # a second hello
    BAD_BOT = "bad_bot"  # no such bot level, or no such side for one
    BAD_OP = "bad_op"  # a host command the room does not know
    BAD_PLAYER = "bad_player"  # no such player in this room
    BAD_SEAT = "bad_seat"  # no such seat in this game
    BAD_SIDE = "bad_side"  # no such side (joining, a solo game)
    BAD_TOKEN = "bad_token"  # a token that opens nothing here
    BUSY = "busy"  # a balance run going on already (this browser's, or as many as the server plays at once)
    ENDED = "ended"  # the host ended the game: its record is closed
    FULL = "full"  # the room has too many players
    GONE = "gone"  # the game was deleted
    HOST_ONLY = "host_only"  # only the host may do that
    LOCKED = "locked"  # the host locked the room: nobody new may join
    MALFORMED = "malformed"  # a message or request that does not fit its model
    NAME_TAKEN = "name_taken"  # another player of the room goes by that name
    NO_EDITOR = "no_editor"  # the rule set has no table editor
    NO_PLOT = "no_plot"  # no such debrief plot
    NO_REPLAY = "no_replay"  # no replay has this address
    NO_ROLL = "no_roll"  # no roll is being asked of the referee
    NO_ROOM = "no_room"  # no game has this room code
    NO_RUN = "no_run"  # no balance run has this id
    NO_SEAT = "no_seat"  # the player has no seat
    NO_UPLOAD = "no_upload"  # the rule set takes no file of one's own
    NOT_OVER = "not_over"  # the record and the debrief come once the game is over
    NOT_OWED = "not_owed"  # the player owes no decision the order answers
    NOT_PLAYING = "not_playing"  # the game is not being played (a pause)
    NOT_READY = "not_ready"  # the game is still being set up (the referee's setup dice)
    NOT_STARTED = "not_started"  # the game has not started
    NOT_YOURS = "not_yours"  # the seat, or the decision the order names, is another's
    NOTHING = "nothing"  # there is no action to take back
    OVER = "over"  # the game is over
    PAUSED = "paused"  # the host paused the game
    PLAYERS_ONLY = "players_only"  # only a player may do that
    RATE = "rate"  # too many at once: wait (``retry`` seconds, when given)
    RETENTION = "retention"  # more days than this server keeps a game
    SERVER_ERROR = "server_error"  # the server failed (logged): nothing was done
    SOLO_DICE = "solo_dice"  # a solo game rolls the computer's dice
    STANDS = "stands"  # the last action stands: its dice were rolled or a secret revealed
    STARTED = "started"  # the game has already started
    TOO_BIG = "too_big"  # a message or request body past its limit
    # the rules' own (core/errors.py and the rule sets' errors): the page shows their one line
    ERROR = "error"
    PARSE = "parse"
    ILLEGAL = "illegal"
    OPTION = "option"
    DICE = "dice"  # dice that cannot be (a typed roll off the die, a wrong count)
    RECORD = "record"
    TORN_RECORD = "torn_record"
    TABLES = "tables"  # a rule set's table file
    SCENARIO = "scenario"  # a rule set's scenario file


def refusal_code(code: str) -> RefusalCode:
    """The enumeration's member of an error's ``code`` (an error of a kind not listed: ``error``)."""
    try:
        return RefusalCode(code)
    except ValueError:
        return RefusalCode.ERROR


class Outbound(BaseModel):
    """A message the server sends; ``out()`` is its JSON object (its ``type`` first, the fields given)."""

    model_config = ConfigDict(extra="forbid")
    type: str

    def out(self) -> dict[str, Any]:
        return {"type": self.type, **self.model_dump(mode="json", exclude_unset=True, exclude={"type"})}


class Pong(Outbound):
    type: Literal["pong"] = "pong"


class Bye(Outbound):
    """The page is closed (the host removed the player, another page took its place...): why."""

    type: Literal["bye"] = "bye"
    message: str


@with_config(ConfigDict(extra="forbid"))
class EventItem(TypedDict, total=False):
    """One event as the pages show it: a line of text (``kind``: the rules' event), or dice as rolled."""

    i: int
    text: str
    kind: str
    dice: list[int]
    sides: int
    purpose: str
    why: dict[str, Any]  # a bot's reason for the order these events came of (``core.reasons``; room/base.shown_why)


class Events(Outbound):
    """The events of record line ``step`` the page may see (sent even when none: the step is news)."""

    type: Literal["events"] = "events"
    step: int
    events: list[EventItem]


class Acked(Outbound):
    """A player's order applied: the record line's ``step``; ``client``: the page's id for the order."""

    type: Literal["ack"] = "ack"
    n: int
    action: str
    step: int
    client: str | None


class OpDone(Outbound):
    """A host's command done."""

    type: Literal["ack"] = "ack"
    n: None
    op: str


class DiceTaken(Outbound):
    """The referee's roll, stored."""

    type: Literal["ack"] = "ack"
    n: None
    dice: list[int]


class PreviewAnswer(Outbound):
    """What an order would do, nothing changed: legal (a note, the odds, the order drawn) or the problem."""

    type: Literal["preview"] = "preview"
    n: int
    action: str
    legal: bool
    problem: str | None = None
    note: str | None = None
    odds: str | None = None  # the exact odds in words ("no dice" when none are rolled)
    drawn: dict[str, Any] | None = None  # the order drawn on the page's table, in inches (the face's preview)
    svg: str | None = None  # the server's picture (a rule set without a face)


class Refusal(Outbound):
    """A message or request refused, nothing changed: its code and one line; over the WebSocket its ``n`` (and an
    order's ``client`` id); ``retry``: seconds to wait, when trying again by itself is right (``Retry-After``)."""

    type: Literal["refused"] = "refused"
    code: RefusalCode
    message: str
    n: int | None = None
    client: str | None = None
    retry: int | None = None


def refusal(code: RefusalCode, message: str, status: int = 400, retry: int | None = None) -> JSONResponse:
    """A refused HTTP request: ``{"type": "refused", "code", "message"}`` (and ``retry``, with ``Retry-After``)."""
    if retry is None:
        return JSONResponse(Refusal(code=code, message=message).out(), status_code=status)
    body = Refusal(code=code, message=message, retry=retry).out()
    return JSONResponse(body, status_code=status, headers={"Retry-After": str(retry)})


# ------------------------------------------------------------------ a page's state, and its patch
class Timer(TypedDict):
    seconds: int
    on_timeout: str
    left: float | None


@with_config(ConfigDict(extra="forbid"))
class SeatLine(TypedDict):
    seat: str
    side: str
    player: str | None
    player_id: str | None  # the host's page only
    bot: str | None
    online: bool
    owes: bool
    yours: bool
    commands: NotRequired[str]


@with_config(ConfigDict(extra="forbid"))
class PlayerLine(TypedDict):
    """A player of the room as the host's page lists it."""

    id: str
    name: str
    seats: list[str]
    online: bool


@with_config(ConfigDict(extra="forbid"))
class KeptRoll(TypedDict):
    purpose: str
    values: list[int]


_For = TypedDict("_For", {"for": str})  # the action (or the setup) the roll is for: a keyword in Python


@with_config(ConfigDict(extra="forbid"))
class DiceRequest(_For):
    """The roll asked of the referee (the host) now."""

    n: int  # dice to type
    sides: int
    purpose: str
    problem: str | None  # why the last roll typed was refused
    kept: list[KeptRoll]  # the rolls of this attempt typed already


@with_config(ConfigDict(extra="forbid"))
class ResultLine(TypedDict):
    """How the game ended (``core.engine.Result.to_json``)."""

    outcome: Literal["win", "draw", "unfinished", "scored"]
    winner: str | None
    turn: int
    reason: str
    scores: dict[str, Any]


def result_line(result: Result) -> ResultLine:
    """A game's result as the pages are sent it."""
    return {
        "outcome": result.outcome,
        "winner": result.winner,
        "turn": result.turn,
        "reason": result.reason,
        "scores": dict(result.scores),
    }


@with_config(ConfigDict(extra="forbid"))
class Choice(TypedDict):
    """One order of a decision's menu: the text sent, its words, a note and the odds (empty when none)."""

    text: str
    label: str
    note: str
    odds: str


@with_config(ConfigDict(extra="forbid"))
class DecisionLine(TypedDict):
    """A decision a player's seat owes, as the page shows it (``web.faces.decision_json``): the face's
    ``controls`` and ``unit`` are shaped by docs/FACE-CONTRACT.md."""

    id: str
    seat: str
    prompt: str
    situation: list[str]
    choices: list[Choice]
    forms: list[dict[str, Any]]
    controls: list[dict[str, Any]]
    unit: dict[str, Any] | None
    usage: list[str]
    example: str


class You(TypedDict):
    id: str | None
    name: str
    seats: list[str]


@with_config(ConfigDict(extra="forbid"))
class HostPart(TypedDict):
    players: list[PlayerLine]
    dice_request: DiceRequest | None
    bots: list[str]
    sides: list[str]
    bot_notes: dict[str, str]
    bot_names: dict[str, str]
    fill_bots: bool
    retention_days: float
    retention_most: float
    expires: float | None
    odds_shown: str
    odds_from: int
    join_url: str
    projector_url: str
    steps: int
    stands: str | None


@with_config(ConfigDict(extra="forbid"))
class State(TypedDict):
    """Everything a page shows (``state.state_message``): the room, and once its game is set up the game as the
    page's seat sees it; a player's page its decisions, the host's its own part."""

    type: Literal["state"]
    version: int
    code: str
    title: str
    ruleset: str
    status: str
    paused: bool
    locked: bool
    dice: str
    ready: bool
    step: int
    timer: Timer
    seats: list[SeatLine]
    events: list[EventItem]
    whys: NotRequired[dict[str, dict[str, Any]]]  # each piece's latest bot reason, by its label (a tap shows it)
    turn: NotRequired[int]
    phase: NotRequired[str]
    heading: NotRequired[str]  # the game's own name (a scenario's title: Face.heading), or ""
    sides: NotRequired[list[str]]
    tables: NotRequired[list[dict[str, Any]]]
    figures: NotRequired[list[list[str]]]
    result: NotRequired[ResultLine | None]
    odds: NotRequired[dict[str, Any] | None]
    scene: NotRequired[dict[str, Any] | None]  # the table drawn by the page (a rule set with a face)
    svg: NotRequired[str]  # the server's picture (a rule set without a face)
    summary: NotRequired[list[list[str]]]
    you: NotRequired[You]
    decisions: NotRequired[list[DecisionLine]]
    host: NotRequired[HostPart]


@with_config(ConfigDict(extra="forbid"))
class Patch(TypedDict):
    """What changed in a page's state since the one it holds (``base``: its version; ``patch.merge``)."""

    type: Literal["patch"]
    base: int | None
    set: dict[str, Any]
    unset: NotRequired[list[str]]
    change: NotRequired[dict[str, Any]]


ServerMessage = State | Patch | Events | Acked | OpDone | DiceTaken | PreviewAnswer | Pong | Bye | Refusal
server_message: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)  # every message a page may be sent
