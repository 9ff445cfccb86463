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
import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

import loops
from grognard.web.patch import Sent, change, keep_same, merge
from grognard.web.store import InOrder, Store


def table(moved: float) -> dict[str, Any]:
    terrain = [{"kind": "rect", "x": k, "y": 0, "w": 1, "h": 1} for k in range(50)]
    units = [{"id": f"A{k}", "x": float(k), "y": moved if k == 3 else 1.0} for k in range(20)]
    return {"layers": [{"name": "terrain", "shapes": terrain}, {"name": "units", "shapes": units}]}


def test_what_did_not_change_stays_the_object_a_page_was_sent() -> None:
    before, after = table(1.0), table(2.5)
    kept = keep_same(after, before, strict=False)
    assert kept == after
    assert kept["layers"][0] is before["layers"][0]  # the terrain: the very object, found unchanged at once
    units_before, units_after = before["layers"][1]["shapes"], kept["layers"][1]["shapes"]
    assert [a is b for a, b in zip(units_after, units_before, strict=True)] == [k != 3 for k in range(20)]
    # a list moved on by one (the events): the items both hold are kept as they are, none copied
    events = [{"i": k, "text": f"event {k}"} for k in range(31)]
    assert all(a is b for a, b in zip(keep_same(events[1:], events[:-1]), events[1:], strict=True))
    # strict (what a page is sent): equal as JSON only
    assert keep_same({"a": [1.0], "b": [True]}, {"a": [1], "b": [1]}) == {"a": [1.0], "b": [True]}
    assert json.dumps(keep_same({"a": [1.0]}, {"a": [1]})) == '{"a": [1.0]}'


def test_the_change_of_a_shared_part_is_worked_out_once_for_every_page() -> None:
    """24 pages sent the same table: each is sent the same change of it, worked out once (the same
    object), and each page merging it holds the new state."""
    before = table(1.0)
    after = keep_same(table(2.5), before, strict=False)  # as Room.memo gives it
    pages = [Sent() for _ in range(24)]
    states = [{"type": "state", "version": 1, "you": k, "scene": before} for k in range(24)]
    for sent, state in zip(pages, states, strict=True):
        sent.message(state)
    patches = [sent.message({"type": "state", "version": 2, "you": k, "scene": after}) for k, sent in enumerate(pages)]
    assert all(p is not None for p in patches)
    ops = [p["change"]["scene"] for p in patches if p is not None]
    assert all(op is ops[0] for op in ops)
    assert change(before, after) is ops[0]
    for k, p in enumerate(patches):
        assert p is not None
        assert merge(states[k], p) == {"type": "state", "version": 2, "you": k, "scene": after}
    assert json.dumps(ops[0]).count('"x"') <= 2  # one unit moved: its change, not the table


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

    answers = loops.run(play())
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


def test_a_list_changed_in_place_around_an_equal_item_merges_back() -> None:
    """Items changed in place between the same ends, one of them equal but not the same object: the
    page is sent the changed ones only (none for the equal one), and merges back to the new list."""
    long = "x" * 40
    old = {"type": "state", "version": 1, "rows": [[long, 0], [long, 1], [long, 2], [long, 3], [long, 4]]}
    new = {"type": "state", "version": 2, "rows": [old["rows"][0], [long, 9], [long, 2], [long, 8], old["rows"][4]]}
    op = change(old["rows"], new["rows"])
    assert op == {"runs": [[1, {"runs": [[1, 2, [9]]]}], [3, {"runs": [[1, 2, [8]]]}]]}
    sent = Sent()
    sent.message(old)
    patch = sent.message(new)
    assert patch is not None and merge(old, patch) == new
