"""The state message: everything a page shows, for its role and seats (``state_message``).

Never what the rules hide from the page, nor the dice seed: the game is read through the faces
(``web/faces.py``: the seat's view) and the room's meta. The parts many pages share are worked out
once for all of them (``Room.memo``).
"""

from __future__ import annotations

import functools
import time
from typing import TYPE_CHECKING, Any

from grognard.bots import ladder
from grognard.core.engine import Game
from grognard.web import faces
from grognard.web import retention as retention_
from grognard.web.messages import DecisionLine, DiceRequest, HostPart, SeatLine, State, result_line
from grognard.web.odds import CLASS_FROM, CLASS_SHOWN

if TYPE_CHECKING:
    from grognard.web.conn import Conn
    from grognard.web.room import Room


def state_message(room: Room, conn: Conn) -> State:
    """Everything a page shows, for its role and seats: never what the rules hide from them, nor the seed."""
    game = room.game
    seats = conn.seats() if conn.role == "player" else []
    mine = {s for s in seats if room.controller(s) == ("player", conn.player)}
    seat = seats[0] if seats else None
    online = {c.player for c in room.conns if c.role == "player"}
    out = _room_part(room, conn, mine, online)
    if game is not None:
        _add_game(out, room, conn, game, mine, seat)
    elif room.ruleset.face is not None and room.writer is not None:  # the referee types the setup: its ground
        embedded = room.writer.lines[0].get("embedded")
        ruleset, options = room.ruleset, room.meta["options"]
        out["sides"] = list(ruleset.sides)
        out["scene"] = room.memo("ground", lambda: faces.ground(ruleset, options, embedded))
    if conn.role == "player":
        _add_player(out, room, conn, mine, seats)
    if conn.role == "host":
        out["host"] = _host_part(room, conn, online)
    return out


def _pending(room: Room) -> Any:
    return room.memo("pending", room.game.pending, keep=False) if room.game is not None else []


def _room_part(room: Room, conn: Conn, mine: set[str], online: set[str | None]) -> State:
    """What every page is sent, a game begun or not: the room, its timer, its seats, the recent events."""
    ruleset, game, meta = room.ruleset, room.game, room.meta
    names = {pid: p["name"] for pid, p in meta["players"].items()}
    owing = {d.seat for d in _pending(room)}
    commands = room.memo("commands", lambda: faces.commands(ruleset, game)) if game is not None else {}
    seats = meta["seats"].items()
    return {
        "type": "state",
        "version": room.version,
        "code": room.code,
        "title": ruleset.title,
        "ruleset": ruleset.name,
        "status": meta["status"],
        "paused": meta["paused"],
        "locked": bool(meta.get("locked")),
        "dice": meta["dice"],
        "ready": game is not None,
        "step": room.writer.steps if room.writer is not None and game is not None else 0,
        "timer": {
            "seconds": meta["timer"],
            "on_timeout": meta["on_timeout"],
            "left": max(0.0, room.deadline - time.time()) if room.deadline else None,
        },
        "seats": [_seat_line(room, conn, s, entry, names, online, owing, mine, commands) for s, entry in seats],
        "events": [item for event, item in list(room.recent)[-30:] if conn.may_see(event)],
    }


def _seat_line(
    room: Room,
    conn: Conn,
    seat: str,
    entry: dict[str, Any],
    names: dict[str, str],
    online: set[str | None],
    owing: set[str],
    mine: set[str],
    commands: dict[str, str],
) -> SeatLine:
    """A seat as the pages list it: its side, who plays it (a player, a bot), whether it owes a decision."""
    kind, who = room.controller(seat)
    line: SeatLine = {
        "seat": seat,
        "side": room.side_of(seat),
        "player": names.get(entry["player"]) if entry["player"] else None,
        "player_id": entry["player"] if conn.role == "host" else None,
        "bot": who if kind == "bot" else None,
        "online": entry["player"] in online,
        "owes": seat in owing,
        "yours": seat in mine,
    }
    if seat in commands:
        line["commands"] = commands[seat]
    return line


def _add_game(out: State, room: Room, conn: Conn, game: Game, mine: set[str], seat: str | None) -> None:
    """The game as the page's seat sees it: turn, phase, tables, figures, result, who is winning, the table."""
    ruleset, meta = room.ruleset, room.meta
    shared = frozenset(mine)
    out["turn"] = game.turn
    out["whys"] = dict(room.whys)
    out["phase"] = room.memo("phase", lambda: faces.phase(ruleset, game))
    if room.heading is None:  # the scenario's title: the same all game long
        room.heading = faces.heading(ruleset, game)
    out["heading"] = room.heading
    out["sides"] = list(ruleset.sides)
    out["tables"] = room.memo_like(
        ("tables", shared, seat),
        lambda: faces.tables(ruleset, game, mine, seat),
        ("tables", frozenset(), None),
        lambda: faces.tables(ruleset, game, (), None),
    )
    out["figures"] = room.memo(
        "figures", lambda: [[label, str(value)] for label, value in faces.figures(ruleset, game)]
    )
    out["result"] = result_line(game.result) if game.result is not None else None
    room.odds_moved()  # at a new turn (or a game just loaded) its estimate begins, off the actor
    if room.odds_shown(conn.who.split(":")[0]):  # the host's choice: a page not shown it is sent none
        odds_seat = seat if conn.role == "player" else None  # a seat's own estimate; others the public one
        out["odds"] = room.odds.for_page(odds_seat, with_curve=conn.role == "projector")
    if ruleset.face is not None:  # the page draws the table from the scene (static/table.js)
        out["scene"] = room.memo_like(
            ("scene", shared, seat),
            lambda: faces.scene(ruleset, game, mine, seat),
            ("scene", frozenset(), None),
            lambda: faces.scene(ruleset, game, (), None),
        )
    else:  # the server's picture of a rule set without a face
        out["svg"] = room.svg(seat)
    if meta["status"] in ("over", "ended"):
        summary = ruleset.rules.summary
        out["summary"] = room.memo("summary", lambda: [[label, str(value)] for label, value in summary(game)])


def _add_player(out: State, room: Room, conn: Conn, mine: set[str], seats: list[str]) -> None:
    """A player's page: who it is, and the decisions its seats owe now (with their menus)."""
    ruleset, game, meta = room.ruleset, room.game, room.meta
    name = meta["players"].get(conn.player or "", {}).get("name", "")
    decisions: list[DecisionLine] = []
    if game is not None and meta["status"] == "playing" and not meta["paused"]:
        decisions = [
            room.memo(("decision", d.seat, d.id), functools.partial(faces.decision_json, ruleset, game, d))
            for d in _pending(room)
            if d.seat in mine
        ]
    out["you"] = {"id": conn.player, "name": name, "seats": seats}
    out["decisions"] = decisions


def _copy(request: DiceRequest | None) -> DiceRequest | None:
    """A copy of the roll asked: the page's last state is kept (``grognard.web.patch``) and the request changes in
    place."""
    if request is None:
        return None
    return {**request, "kept": [{"purpose": k["purpose"], "values": list(k["values"])} for k in request["kept"]]}


def _host_part(room: Room, conn: Conn, online: set[str | None]) -> HostPart:
    """The host page's own part: the players, the roll asked of the referee, the settings, the take-back."""
    ruleset, game, meta = room.ruleset, room.game, room.meta
    server = conn.ws.app.state.server
    return {
        "players": [
            {"id": pid, "name": p["name"], "seats": room.seats_of(pid), "online": pid in online}
            for pid, p in meta["players"].items()
        ],
        "dice_request": _copy(room.dice_request),
        "bots": list(ladder.levels(ruleset)),  # offered, weakest first; a room's older name is kept as chosen
        "bot_notes": {name: ladder.note(ruleset, name) for name in ruleset.bots},
        "sides": list(ruleset.sides),
        "bot_names": dict(meta["bot_names"]),
        "fill_bots": meta["fill_bots"],
        "retention_days": retention_.room_days(meta, server.retention),
        "retention_most": server.retention,
        "expires": retention_.expires(meta, server.retention),
        "odds_shown": meta.get("odds_shown", CLASS_SHOWN),
        "odds_from": meta.get("odds_from", CLASS_FROM),
        "join_url": server.join_url or "",
        "projector_url": f"/projector/{room.code}#{room.projector_token()}",
        "steps": room.writer.steps if room.writer is not None and game is not None else 0,
        "stands": room.stands(),  # why the last action may not be taken back (its dice, a reveal), or None
    }
