"""Every message the server accepts, as pydantic models: type, size and range checked.

A message that does not fit is refused with code ``malformed`` and changes nothing.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from grognard import rulesets
from grognard.core.errors import GrognardError
from grognard.web.messages import RefusalCode

MAX_MESSAGE = 4096  # characters of one WebSocket message
MAX_BODY = 16384  # bytes of one HTTP request body
# characters of a file of one's own sent with a new game (the shipped scenarios are about 6 kB; a teacher's, with
# its comments, can be three times that): the new game's request may be this much larger than MAX_BODY
MAX_UPLOAD = 131072

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]")


class Refused(GrognardError):
    """A request the room refuses: ``code`` from the fixed list (``messages.RefusalCode``), the message for the page."""

    code: RefusalCode

    def __init__(self, code: RefusalCode, message: str) -> None:
        super().__init__(message)
        self.code = code


NAME_LENGTH = 32  # a display name's characters, once cleaned
NAME_TYPED = 256  # the characters a name may be sent with (spaces and control characters not yet dropped)


def clean_name(value: str) -> str:
    """A display name: control and direction characters dropped, spaces squeezed, 1-32 characters."""
    if len(value) > NAME_TYPED:  # a longer text is not squeezed to 32: refused as too long without reading it
        raise ValueError(f"a name has at most {NAME_LENGTH} characters")
    name = " ".join(_CONTROL.sub("", value).split())
    if not name:
        raise ValueError("a name needs at least one visible character")
    if len(name) > NAME_LENGTH:
        raise ValueError(f"a name has at most {NAME_LENGTH} characters")
    return name


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


Short = Annotated[str, Field(min_length=1, max_length=40)]
Token = Annotated[str, Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_\-]+$")]
PlayerId = Annotated[str, Field(min_length=2, max_length=12, pattern=r"^p[0-9]+$")]
# the page's own name for one order, so an order sent again (after a lost connection) is applied once
ClientId = Annotated[str, Field(min_length=8, max_length=40, pattern=r"^[A-Za-z0-9_\-]+$")]


class Hello(Message):
    type: Literal["hello"]
    role: Literal["host", "player", "projector"]
    token: Token | None = None


class Act(Message):
    type: Literal["act"]
    action: Annotated[str, Field(min_length=1, max_length=200)]
    seat: Short | None = None
    n: Annotated[int, Field(ge=0, le=2**31)] = 0
    client: ClientId | None = None


class Preview(Message):
    type: Literal["preview"]
    action: Annotated[str, Field(min_length=1, max_length=200)]
    n: Annotated[int, Field(ge=0, le=2**31)] = 0


class Ping(Message):
    type: Literal["ping"]


class Resync(Message):
    """The page lost track of its state (a patch for another version): send it the whole state."""

    type: Literal["resync"]


class Assign(Message):
    type: Literal["assign"]
    seat: Short
    player: PlayerId | None = None


class SetBot(Message):
    type: Literal["bot"]
    seat: Short
    bot: Annotated[str, Field(min_length=1, max_length=32)] | None = None


class Start(Message):
    type: Literal["start"]


class Pause(Message):
    type: Literal["pause"]
    paused: bool


class Rename(Message):
    type: Literal["rename"]
    player: PlayerId
    name: str  # checked by clean_name: its limits, its messages

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return clean_name(value)


class Remove(Message):
    type: Literal["remove"]
    player: PlayerId


class RemoveMany(Message):
    """The host removes several players at once (those without a seat, names nobody knows)."""

    type: Literal["remove_many"]
    players: Annotated[list[PlayerId], Field(min_length=1, max_length=400)]


class Lock(Message):
    """The host locks the room (nobody new may join; who joined already plays on) or unlocks it."""

    type: Literal["lock"]
    locked: bool


class Undo(Message):
    type: Literal["undo"]


class End(Message):
    type: Literal["end"]


class Settings(Message):
    type: Literal["settings"]
    fill_bots: bool | None = None
    timer: Annotated[int, Field(ge=0, le=3600)] | None = None
    on_timeout: Literal["bot", "hold"] | None = None
    odds_shown: Literal["off", "projector", "everyone"] | None = None  # who sees who is winning (odds.shown_to)
    odds_from: Annotated[int, Field(ge=0, le=99)] | None = None  # from this turn on
    retention_days: Annotated[int, Field(ge=1, le=3650)] | None = None  # the game deleted after: at most the server's
    bot_names: Annotated[dict[Short, Short], Field(max_length=8)] | None = None


class DiceMode(Message):
    type: Literal["dice_mode"]
    mode: Literal["seeded", "manual"]


class Dice(Message):
    type: Literal["dice"]
    values: Annotated[str, Field(min_length=1, max_length=200)]


ClientMessage = Annotated[
    Hello
    | Act
    | Preview
    | Ping
    | Resync
    | Assign
    | SetBot
    | Start
    | Pause
    | Rename
    | Remove
    | RemoveMany
    | Lock
    | Undo
    | End
    | Settings
    | Dice
    | DiceMode,
    Field(discriminator="type"),
]
client_message: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)

HOST_OPS = {
    "assign",
    "bot",
    "start",
    "pause",
    "rename",
    "remove",
    "remove_many",
    "lock",
    "undo",
    "end",
    "settings",
    "dice",
    "dice_mode",
}
PLAYER_OPS = {"act", "preview"}

OptionValue = Annotated[str, Field(max_length=40)] | int | float | bool | None


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str  # checked by clean_name: its limits, its messages
    side: Annotated[str, Field(max_length=32)] | None = None

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return clean_name(value)


class Upload(BaseModel):
    """A file of one's own sent with a new game (a scenario TOML): its name and its text."""

    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(min_length=1, max_length=120)]
    text: Annotated[str, Field(min_length=1, max_length=MAX_UPLOAD)]


class CreateRoom(BaseModel):
    """A new game; with ``solo`` (a name and a side) the maker also plays it: seated on that side, the
    bots on every other seat, the game started at once (computer's dice only). ``level``: the bots' level
    on every side (``grognard.bots.ladder``; default: the rule set's default bot). ``upload``: a file of
    one's own standing for the rule set's ``upload_option`` (checked whole: a bad file makes no room)."""

    model_config = ConfigDict(extra="forbid")
    ruleset: Annotated[str, Field(min_length=1, max_length=32)] = rulesets.DEFAULT
    options: Annotated[dict[Annotated[str, Field(max_length=40)], OptionValue], Field(max_length=40)] = {}
    dice: Literal["seeded", "manual"] = "seeded"
    solo: Join | None = None
    upload: Upload | None = None
    level: Annotated[str, Field(min_length=1, max_length=32)] | None = None  # every side's bots (a ladder level)


def first_problem(exc: ValidationError | RequestValidationError) -> str:
    """The first problem of a message or request that does not check: where (a field, or a path part such as
    ``n``) and why, in one line (a validator's own reason without pydantic's 'Value error, ')."""
    errors = exc.errors()
    if not errors:
        return "malformed message"
    first = errors[0]
    loc = [str(p) for p in first.get("loc", ()) if p != "__root__"]
    if isinstance(exc, RequestValidationError) and loc and loc[0] in ("path", "query", "header", "body"):
        loc = loc[1:]
    where = ".".join(loc)
    why = str(first.get("msg", "invalid")).removeprefix("Value error, ")
    return f"malformed message: {where + ': ' if where else ''}{why}"[:300]
