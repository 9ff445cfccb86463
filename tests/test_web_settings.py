"""A host's settings refused are not half applied (the room in process, on a real SQLite database): a settings
message naming a side or a bot level the game has not changed the fields before it (the bots filling the empty
seats, the timer, the bots of the sides named before the bad one) and then was refused."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

import loops
from grognard import rulesets
from grognard.web.room import Refused, Room
from grognard.web.server import Server


async def _refused_settings(tmp_path: Path, bot_names: dict[str, str]) -> tuple[str, dict[str, Any], dict[str, Any]]:
    server = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    room = await Room.create(server.store, rulesets.get("omaha"), {"germans": 1}, "seeded", "host-token", server.run)
    before = copy.deepcopy(room.meta)
    with pytest.raises(Refused) as refused:
        await room.host_op("settings", fill_bots=False, timer=30, on_timeout="hold", bot_names=bot_names)
    stored = await server.run(server.store.load)
    room.close()
    server.db.close()
    assert refused.value.code == "bad_bot"
    return str(refused.value), before, {"now": room.meta, "stored": stored[0][3]}


@pytest.mark.parametrize(
    "bot_names",
    [{"allies": "book"}, {"american": "book", "german": "grandmaster"}],
    ids=["no such side", "a good side, then no such level"],
)
def test_refused_settings_change_nothing(tmp_path: Path, bot_names: dict[str, str]) -> None:
    message, before, after = loops.run(_refused_settings(tmp_path, bot_names))
    assert message.startswith("bot_names: ")
    assert after["now"] == before
    assert after["stored"]["fill_bots"] is True and after["stored"]["timer"] == 0
