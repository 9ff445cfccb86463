"""The server under a class's load (issue 28, item 14): what made each order cost the server ~40 ms of CPU.

Each page of a 24-player room was sent, after every order, the change of its state worked out afresh:
the parts every page shares (the table, the tables, the menus) were made anew at each change, so no page
found them unchanged, and their change was worked out once per page, writing each part out as JSON several
times over. Now what did not change stays the object the page was sent (``patch.keep_same``, ``Room.memo``),
a page's table shares all but its own rings with everyone's (``Room.memo_like``), and the change of two
shared parts is worked out once for every page (``patch.change``). Each line a room stores was its own
transaction (a wait for the disk each); now the lines rooms append meanwhile are committed together
(``store.InOrder``), each still stored before its room is told. The figures: ``bench/server_load.py``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from grognard.web.store import InOrder, Store


@pytest.fixture
def store(tmp_path: Path) -> Any:
    s = Store(f"sqlite:///{tmp_path}/games.sqlite3")
    yield s
    s.close()


def test_lines_of_several_rooms_are_committed_together_and_a_bad_one_fails_alone(store: Store) -> None:
    rooms = [store.create_room(f"ROOM{k}", "omaha", {"status": "playing"}, [{"type": "header"}]) for k in range(3)]
    commits = []
    event.listen(store.engine, "commit", lambda conn: commits.append(1))

    async def play() -> list[Any]:
        writer = InOrder(store)
        calls = [writer.run(store.append, room, 1, {"type": "action", "room": room}) for room in rooms]
        calls.append(writer.run(store.append, rooms[0], 1, {"type": "again"}))  # line 1 twice: refused
        calls.append(writer.run(store.save_meta, rooms[1], {"status": "over"}))  # after the lines, in order
        calls += [writer.run(store.append, room, 2, {"type": "action", "n": 2}) for room in rooms]
        answers = await asyncio.gather(*calls, return_exceptions=True)
        writer.close()
        return answers

    answers = asyncio.run(play())
    assert [isinstance(a, Exception) for a in answers] == [False] * 3 + [True] + [False] * 4
    loaded = {code: (meta, [line["type"] for line in record]) for _, code, _, meta, record in store.load()}
    assert loaded == {
        "ROOM0": ({"status": "playing"}, ["header", "action", "action"]),
        "ROOM1": ({"status": "over"}, ["header", "action", "action"]),
        "ROOM2": ({"status": "playing"}, ["header", "action", "action"]),
    }
    # the first four appends were tried together (a commit that failed), then each alone; the meta alone;
    # the last three together: far fewer commits than the eight calls
    assert len(commits) <= 6
