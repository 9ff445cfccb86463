"""The games' API: the rule sets offered, a new game, joining one, its record, its debrief, deleting it."""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import PlainTextResponse, Response

from grognard import rulesets
from grognard.bots import ladder
from grognard.core.options import check_offered
from grognard.core.record import readable_by
from grognard.web.deps import RoomDep, ServerDep, host_only
from grognard.web.messages import RefusalCode, refusal
from grognard.web.odds import SOLO_FROM, SOLO_SHOWN
from grognard.web.protocol import CreateRoom, Join, Refused
from grognard.web.reports import AfterAction
from grognard.web.room import Room
from grognard.web.room.base import copy_meta
from grognard.web.server import client_address

router = APIRouter()


@router.get("/api/rulesets")
async def list_rulesets() -> Any:
    out = []
    for name in rulesets.names():
        r = rulesets.get(name)
        out.append(
            {
                "name": r.name,
                "title": r.title,
                "sides": list(r.sides),
                "bots": list(r.bots),
                "levels": [{"name": name, "note": ladder.note(r, name)} for name in ladder.levels(r)],
                "options": [
                    {
                        "name": s.name,
                        "kind": s.kind.__name__,
                        "default": s.default,
                        "help": s.help,
                        "values": s.describe_values(),
                        "offered": [value for value, _ in s.offered],
                    }
                    for s in r.options
                ],
            }
        )
    return out


@router.post("/api/rooms")
async def create_room(request: Request, server: ServerDep) -> Any:
    if not server.creates.take(client_address(request)):
        return refusal(RefusalCode.RATE, "too many games made from this address; wait a minute", 429)
    body = CreateRoom.model_validate_json(await request.body())
    ruleset = rulesets.get(body.ruleset)
    given: dict[str, Any] = dict(body.options)
    embedded = None
    if body.upload is not None:  # one's own file, checked whole before anything is made
        if ruleset.files is None:
            return refusal(RefusalCode.NO_UPLOAD, f"upload: the {ruleset.name} rules take no file of one's own")
        given.pop(ruleset.upload_option, None)
        check_offered(ruleset.options, given)
        uploaded, embedded = ruleset.files.upload(body.upload.name, body.upload.text)
        given.update(uploaded)
    else:
        check_offered(ruleset.options, given)  # a scenario shipped, never a file on the server named
    solo = body.solo
    if solo is not None:  # checked before anything is made: a refused solo game leaves no room behind
        if solo.side is None or solo.side not in ruleset.sides:
            what = "solo.side: none given;" if solo.side is None else f"solo.side {solo.side!r}:"
            return refusal(RefusalCode.BAD_SIDE, f"{what} pick a side: {', '.join(ruleset.sides)}")
        if body.dice != "seeded":
            return refusal(
                RefusalCode.SOLO_DICE, "dice: a solo game rolls the computer's dice (referee mode needs a host)"
            )
    if body.level is not None and body.level not in ruleset.bots:
        return refusal(RefusalCode.BAD_BOT, f"level: {ladder.unknown_bot(ruleset, body.level)}")
    host_token = secrets.token_urlsafe(24)
    room = await Room.create(server.store, ruleset, given, body.dice, host_token, server.run, embedded)
    room.retention_most = server.retention
    room.odds.playouts = server.odds_playouts
    server.rooms[room.code] = room
    server.codes.note(client_address(request), room.code)  # the host's own pages never count as codes tried
    made: dict[str, Any] = {"code": room.code, "host_token": host_token, "host_url": f"/host/{room.code}#{host_token}"}
    if body.level is not None:  # every side's bots at this level (the host may change a side's or a seat's)
        await room.call(room.host_op, "settings", bot_names={side: body.level for side in ruleset.sides})
    if solo is not None:  # seated on the side picked, bots on the rest (fill_bots), started
        room.meta.update(odds_shown=SOLO_SHOWN, odds_from=SOLO_FROM)  # who is winning: the player's own
        player, token = await room.join(solo.name, solo.side)
        await room.call(room.host_op, "start")
        made.update(player=player, token=token, seats=room.seats_of(player), play_url=f"/play/{room.code}")
    return made


@router.post("/api/rooms/{code}/join")
async def join(room: RoomDep, request: Request, server: ServerDep) -> Any:
    # the room is looked up first: how many different codes one address or browser may try is guard.CodeGate's
    who = client_address(request)
    if not server.joins.take(who):
        wait = server.joins.wait(who)
        return refusal(RefusalCode.RATE, "many are joining at once: wait a moment", 429, retry=wait)
    body = Join.model_validate_json(await request.body())
    if body.side is not None and body.side not in room.ruleset.sides:
        return refusal(RefusalCode.BAD_SIDE, f"no side {body.side!r}; sides: {', '.join(room.ruleset.sides)}")
    player, token = await room.join(body.name, body.side)  # not queued: a join never waits for dice
    return {"player": player, "token": token, "seats": room.seats_of(player), "play_url": f"/play/{room.code}"}


@router.get("/api/rooms/{code}/record")
async def record(room: Annotated[Room, Depends(host_only("download the record"))]) -> Any:
    if room.meta["status"] not in ("over", "ended"):
        raise Refused(RefusalCode.NOT_OVER, "the record (with its dice seed) is given once the game is over")
    assert room.writer is not None
    # the host reads as a spectator: a secret choice never revealed (a game ended during one) stays sealed
    lines = readable_by(room.writer.lines, None)
    text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
    return PlainTextResponse(
        text,
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="grognard-{room.code}.jsonl"'},
    )


@router.get("/api/rooms/{code}/debrief")
async def debrief(room: RoomDep) -> Any:
    """After the end: the game's figures beside a Monte Carlo run of its options, with the analysis plots."""
    if room.meta["status"] not in ("over", "ended"):
        raise Refused(RefusalCode.NOT_OVER, "the debrief comes once the game is over")
    from grognard.core.reasons import tally
    from grognard.core.record import readable_by
    from grognard.web.debrief import PLOTS
    from grognard.web.debrief import debrief as make

    _after(room)  # the coach begins at the end: every page asks for the debrief then
    if room.debrief is None:
        room.debrief = await asyncio.get_running_loop().run_in_executor(
            None, make, room.ruleset.name, room.meta["options"], int(room.meta["bot_seed"])
        )
    return {
        "lines": room.debrief["lines"],
        "reasons": tally(readable_by(room.writer.lines, None)) if room.writer is not None else [],
        "plots": [
            {"url": f"/api/rooms/{room.code}/debrief/{name}.png", "alt": PLOTS[name]} for name in room.debrief["plots"]
        ],
    }


@router.get("/api/rooms/{code}/debrief/{name}.png")
async def debrief_plot(room: RoomDep, name: str) -> Any:
    if room.debrief is None or name not in room.debrief["plots"]:
        raise Refused(RefusalCode.NO_PLOT, "no such plot")
    return Response(room.debrief["plots"][name], media_type="image/png")


def _after(room: Room) -> AfterAction:
    """The finished game's coach and reports, the coach begun in the background (web/reports.py)."""
    if room.meta["status"] not in ("over", "ended") or room.writer is None:
        raise Refused(RefusalCode.NOT_OVER, "the coach and the reports come once the game is over")
    if room.after is None:
        room.after = AfterAction(list(room.writer.lines), copy_meta(room.meta), room.ruleset.title)
    after: AfterAction = room.after
    after.start(lambda: room.closed or room.after is not after)
    return after


@router.get("/api/rooms/{code}/coach")
async def coach(room: RoomDep, x_token: Annotated[str, Header()] = "") -> Any:
    """After the end: how far the coach has got and, once it is ready, the key decisions beside the hard
    bot's of the pupil whose token is shown (``X-Token``), or of every pupil for the host; a page with no
    such token (the projector, anyone with the code) is told how far the coach has got and no one's."""
    whose = room.whose_token(x_token) if x_token else None
    if whose == "host:":
        return _after(room).coach_json()
    mine = whose.partition(":")[2] if whose is not None and whose.startswith("player:") else None
    return _after(room).coach_json(only=mine or "")


@router.get("/api/rooms/{code}/reports")
async def reports(room: Annotated[Room, Depends(host_only("download the reports"))]) -> Any:
    """After the end: a zip of a PDF report a player and the class CSV (the coach's view once it is ready)."""
    after = _after(room)
    data, _, _ = await asyncio.get_running_loop().run_in_executor(None, after.reports)
    return Response(
        data,
        media_type="application/zip",
        headers={
            "Content-Disposition": f'attachment; filename="grognard-{room.code}-reports.zip"',
            "X-Coach": "ready" if after.coaching is not None else f"working {after.done}/{after.total}",
        },
    )


@router.delete("/api/rooms/{code}")
async def delete_room(room: Annotated[Room, Depends(host_only("delete the game"))], server: ServerDep) -> Any:
    room.close()  # at once, a game under way too: its pages closed, nothing of it kept
    del server.rooms[room.code]
    await server.run(server.store.delete_room, room.id)
    return {"deleted": room.code}
