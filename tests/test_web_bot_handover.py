"""A seat that changes hands while its bot chooses is left to its new player (the room's actor, in process,
on a real SQLite database): joins and the host's seat changes do not wait for the actor, so a bot that was
choosing for a latecomer's seat used to play his first question for him."""

from __future__ import annotations

from pathlib import Path

import loops
from grognard import rulesets
from grognard.web.room import Room
from grognard.web.server import Server


async def _room(tmp_path: Path) -> tuple[Server, Room]:
    server = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    room = await Room.create(server.store, rulesets.get("omaha"), {"germans": 1}, "seeded", "host-token", server.run)
    assert room.task is not None
    room.task.cancel()  # the actor's steps are taken by hand below, one at a time
    await room.host_op("start")
    return server, room


async def _chosen_then(tmp_path: Path, meanwhile: str) -> tuple[bool, int, int, bool]:
    """A bot chooses for the first seat owing a question; ``meanwhile`` (``join``, ``assign``, ``nothing``) happens;
    then the bot's move: (applied, record lines before, after, whether the seat still owes its question)."""
    server, room = await _room(tmp_path)
    assert room.game is not None and room.writer is not None
    decision = room.game.pending()[0]  # the game's first question, a bot's (nobody has joined)
    kind, name = room.controller(decision.seat)
    assert kind == "bot" and name is not None
    action, reason = await room._choose(decision.seat, name, decision)  # the bot's order and its reason
    lines = len(room.writer.lines)
    if meanwhile == "join":
        await room.join("Ben", room.side_of(decision.seat))
    elif meanwhile == "assign":
        await room.host_op("bot", seat=decision.seat, bot="random")
    applied = await room._bots_move(decision, name, action, reason)
    owing = [d.seat for d in room.game.pending()]
    server.db.close()
    return applied, lines, len(room.writer.lines), decision.seat in owing


def test_a_bots_move_for_a_seat_a_latecomer_took_meanwhile_is_not_played(tmp_path: Path) -> None:
    applied, before, after, owes = loops.run(_chosen_then(tmp_path, "join"))
    assert not applied and after == before and owes


def test_a_bots_move_for_a_seat_the_host_gave_another_bot_meanwhile_is_not_played(tmp_path: Path) -> None:
    applied, before, after, owes = loops.run(_chosen_then(tmp_path, "assign"))
    assert not applied and after == before and owes


def test_a_bots_move_for_a_seat_still_its_own_is_played(tmp_path: Path) -> None:
    applied, before, after, _ = loops.run(_chosen_then(tmp_path, "nothing"))
    assert applied and after == before + 1
