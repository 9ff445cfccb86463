"""The table editor (issue 32, items 2 and 3): the scenario check lists every problem at once, the skirmish
editor part writes a shipped scenario back to a file that plays identically, and the server's editor API
keeps a browser's draft through a restart and refuses bad input in one line, losing no other draft.

Its page in Chromium: ``test_editor_browser.py``.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest
from sqlalchemy import text

from grognard import rulesets
from grognard.core.dice import SeededDice
from grognard.rulesets.skirmish import editor as E
from grognard.rulesets.skirmish.scenario import SCENARIOS_DIR, load_scenario, shipped
from grognard.rulesets.skirmish.schema import TERRAIN_KINDS, ScenarioError
from grognard.rulesets.skirmish.tables import read_toml
from grognard.web.testing import ServerProcess
from test_scenario_check import mistakes

BENCH = Path(__file__).resolve().parent.parent / "bench" / "fingerprint.py"
CASTLE = read_toml(SCENARIOS_DIR / "castle_storm.toml")


def fingerprint_module() -> Any:
    spec = importlib.util.spec_from_file_location("bench_fingerprint", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_editors_check_places_each_problem_and_names_its_field_and_rule() -> None:
    data = mistakes()
    data["terrain"][4]["doors"][0]["at"] = [30.0, 30.0]  # the tower's door, off its wall
    data["units"][1]["figures"][0]["at"] = [100.0, 14.0]  # off the 48" table
    data["terrain"][1]["line"] = [[5.0, 5.0], [5.0, 8.0]]  # a bridge over no river
    found = {p["field"]: p for p in E.check(data)}
    assert found["units[0].figures[1].at"]["at"] == [18.2, 23.0]
    assert found["terrain[4].doors[0].at"]["rule"] == "skirmish.65"
    assert found["terrain[4].doors[0].at"]["at"] == [30.0, 30.0]
    assert found["units[1].figures[0].at"]["at"] == [100.0, 14.0]
    assert found["terrain[1].line"]["at"] == [5.0, 6.5]  # the middle of its line
    assert found["terrain[5].shape"]["at"] is not None
    assert all(p["text"].startswith(p["field"]) and p["rule"] in p["text"] for p in found.values())


def test_the_editor_draws_the_table_the_game_draws() -> None:
    """The editor's picture of a shipped scenario is the game's at its start: the same terrain, shape for shape
    (the face's terrain layer), and the same men where they stand (paratroopers aside: the game drops them)."""
    ruleset = rulesets.get("skirmish")
    assert ruleset.face is not None and ruleset.editor is not None

    def shapes(scene: dict[str, Any], layer: str) -> list[tuple[Any, ...]]:
        (found,) = [la["shapes"] for la in scene["layers"] if la["name"] == layer]
        return sorted(
            (s["kind"], s.get("cls", ""), json.dumps(s.get("points")), s.get("x"), s.get("y"), s.get("id", ""))
            for s in found
            if s["kind"] != "text"
        )

    for name, _ in shipped():
        game = ruleset.create({"scenario": name}, SeededDice(1))
        theirs = ruleset.face.scene(game.view(None), ())
        ours = ruleset.editor.scene(ruleset.editor.shipped(name))
        assert shapes(ours, "terrain") == shapes(theirs, "terrain"), name
        if name != "landing":
            men = [s for s in shapes(theirs, "units") if s[0] == "figure"]
            assert [s for s in shapes(ours, "units") if s[0] == "figure"] == men, name


def test_the_palette_offers_every_terrain_kind_and_a_blank_table_says_what_it_wants() -> None:
    palette = E.palette()
    assert sorted(k["kind"] for k in palette["kinds"]) == sorted(TERRAIN_KINDS)
    assert {k["geometry"] for k in palette["kinds"]} == {"shape", "line", "at"}
    assert palette["men"]["weapons"] == ["rifle", "smg", "pistol", "mg", "bazooka", "mortar", "flame_thrower"]
    assert "landing_craft" in palette["machines"][0]["choices"]
    (wanted,) = E.check(E.blank())
    assert wanted["text"] == "units: 0 drawn: a table needs units, at least one a side (skirmish.2)"


def test_opened_text_is_toml_only_never_a_path_nor_run() -> None:
    with pytest.raises(ScenarioError, match=r"not TOML"):
        E.read("import os\nos.system('touch /tmp/x')")
    with pytest.raises(ScenarioError, match=r"at most 262144"):
        E.read("#" * (E.MAX_TEXT + 1))
    data = E.read('name = "x"\ntitle = "t"\ntables = "/etc/passwd"\n')
    problems = E.check(data)
    assert any(p["field"] == "tables" and "default tables" in p["text"] for p in problems), problems
    with pytest.raises(ScenarioError, match=r"no shipped scenario of that name"):
        E.shipped_data("../../etc/passwd")


def test_a_table_too_large_to_check_is_refused_in_one_line() -> None:
    many = copy.deepcopy(CASTLE)
    many["units"] = [
        {"id": f"U{k}", "side": "allies", "figures": [{"at": [1.0 + (n % 40), 1.0 + k % 40]} for n in range(50)]}
        for k in range(100)
    ]  # 5,000 men
    (problem,) = E.check(many)
    assert problem["text"] == "units: 5000 men; a table has at most 1000 (skirmish.2)"
    corners = copy.deepcopy(CASTLE)
    corners["terrain"][5]["shape"] = [[i % 48, (i // 48) % 48] for i in range(100_000)]
    (problem,) = E.check(corners)
    assert problem["text"].startswith("terrain: 100032 corners and points; a table has at most 4000")
    wide = copy.deepcopy(CASTLE)
    wide["table"]["width"] = 10_000.0
    assert E.check(wide)[0]["text"].startswith("table.width: 10000.0: Input should be less than")


# ---------------------------------------------------------------------------------------------- the server
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("editor")) as srv:
        yield srv


def browser_client(server: ServerProcess) -> httpx.Client:
    """A client as the editor's page is: a random number of its own names its draft (X-Editor)."""
    client = httpx.Client(base_url=server.url, timeout=30, headers={"X-Editor": secrets.token_hex(12)})
    assert client.get("/editor").status_code == 200
    return client


def test_a_draft_survives_a_restart_and_bad_input_loses_none(server: ServerProcess) -> None:
    ann, bob = browser_client(server), browser_client(server)
    mine = copy.deepcopy(CASTLE) | {"title": "Ann's <b>table</b> <script>alert(1)</script>"}
    answer = ann.post("/api/editor/skirmish/check", json={"data": mine}).json()
    assert answer["problems"] == [] and answer["scene"]["layers"]
    bobs = E.blank()
    assert bob.post("/api/editor/skirmish/check", json={"data": bobs}).json()["problems"]  # a draft with problems
    rss = psutil.Process(server.proc.pid).memory_info().rss if server.proc else 0

    # bad input: each refused in one line (or listed as the problem it is), no draft touched
    huge = bob.post("/api/editor/skirmish/open", content=b'{"text": "' + b"a" * 10_000_000 + b'"}',
                    headers={"Content-Type": "application/json"})  # fmt: skip
    assert huge.status_code == 413 and "\n" not in huge.json()["message"]
    polygon = copy.deepcopy(CASTLE)
    polygon["terrain"][5]["shape"] = [[i % 48, i % 47] for i in range(100_000)]
    refused = bob.post("/api/editor/skirmish/check", json={"data": polygon})
    assert refused.status_code == 413 and refused.json()["code"] == "too_big"
    wide = bob.post(
        "/api/editor/skirmish/check",
        json={"data": copy.deepcopy(CASTLE) | {"table": {"width": 1e4, "depth": 48}}, "keep": False},
    )
    assert wide.json()["problems"][0]["field"] == "table.width"
    not_toml = bob.post("/api/editor/skirmish/open", json={"text": "<script>alert(1)</script>"})
    assert not_toml.status_code == 400 and "not TOML" in not_toml.json()["message"]
    nobody = httpx.post(server.url + "/api/editor/skirmish/check", json={"data": bobs})
    assert nobody.json()["code"] == "malformed" and "X-Editor" in nobody.json()["message"]
    if server.proc:
        assert psutil.Process(server.proc.pid).memory_info().rss - rss < 64 * 2**20

    server.stop()
    server.start()
    start = ann.get("/api/editor/skirmish").json()
    assert start["draft"] == json.loads(json.dumps(mine))  # the markup kept as text, as typed
    assert bob.get("/api/editor/skirmish").json()["draft"] == bobs
    assert browser_client(server).get("/api/editor/skirmish").json()["draft"] is None  # another browser's
    assert 'href="/editor"' in httpx.get(server.url + "/").text  # the home page links the editor
    assert {"kinds", "men", "machines", "form"} <= set(start["palette"])
    assert ["castle_storm", CASTLE["title"]] in start["shipped"]


def test_the_file_downloaded_is_what_grognard_play_reads(server: ServerProcess, tmp_path: Path) -> None:
    client = browser_client(server)
    answer = client.post("/api/editor/skirmish/file", json={"data": E.shipped_data("river_town"), "keep": False})
    assert answer.status_code == 200
    assert answer.headers["content-disposition"] == 'attachment; filename="river_town.toml"'
    path = tmp_path / "ours.toml"
    path.write_text(answer.text, encoding="utf-8")
    assert load_scenario(str(path)).digest == load_scenario("river_town").digest
    opened = client.post("/api/editor/skirmish/open", json={"text": answer.text}).json()["data"]
    assert opened == read_toml(SCENARIOS_DIR / "river_town.toml")
    assert client.get("/api/editor/chess").json()["code"] == "no_editor"


def test_every_shipped_scenario_opens_and_saves_back_to_a_file_that_plays_identically(
    server: ServerProcess, tmp_path: Path
) -> None:
    """Each shipped scenario opened in the editor (its API, as the page does) and downloaded: the file reads
    back to the same data, loads to the same scenario, and plays as the shipped one (bench/fingerprint.py's
    hash of a doctrine game on the same dice)."""
    fp = fingerprint_module()
    client = browser_client(server)
    for name, _ in shipped():
        data = client.get(f"/api/editor/skirmish/shipped/{name}").json()["data"]
        text = client.post("/api/editor/skirmish/file", json={"data": data, "keep": False}).text
        path = tmp_path / f"{name}.toml"
        path.write_text(text, encoding="utf-8")
        assert E.read(text) == read_toml(SCENARIOS_DIR / f"{name}.toml"), name
        assert load_scenario(str(path)).digest == load_scenario(name).digest, name
        assert client.post("/api/editor/skirmish/check", json={"data": data, "keep": False}).json()["problems"] == []
        shipped_hash, _ = fp.fingerprint("skirmish", {"scenario": name}, 1, 3, 1)
        saved_hash, _ = fp.fingerprint("skirmish", {"scenario": str(path)}, 1, 3, 1)
        assert saved_hash == shipped_hash, name


def test_a_draft_left_alone_is_deleted_as_a_game_is(tmp_path: Path) -> None:
    """docs/privacy.md: a draft is deleted the server's retention days after its last edit, as a game is."""
    from grognard.web.store import DAY, Store

    store = Store(f"sqlite:///{tmp_path / 'drafts.sqlite3'}")
    try:
        store.save_draft("old", "skirmish", "{}")
        store.save_draft("new", "skirmish", '{"title": "kept"}')
        now = time.time()
        with store.engine.begin() as conn:
            conn.execute(text("update grognard_drafts set updated = updated - 120 where browser = 'old'"))
        store.delete_expired(now + 30 * DAY - 60, 30)  # the old one's 30 days are up, the new one's not yet
        assert store.draft("old", "skirmish") is None
        assert store.draft("new", "skirmish") == '{"title": "kept"}'
    finally:
        store.close()
