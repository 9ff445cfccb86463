"""The replay viewer in Debian's Chromium against a real server: a short game of each rule set played by
the bots on the server, its record opened at /replay/<code> (from the debrief's link for Omaha) and from an
upload on the home page, stepped through forward and back (buttons, keys, the turn slider), the turn shown
and every die listed checked against the record's own, the table drawn; a tampered or malformed upload is
refused with one line and makes nothing; the page passes the axe scan; screenshots at 1280x800 and 1366x768;
at both sizes the page is one screen: the table as large as it fits, the controls, the end and the count in sight.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from browsers import at_chromebook_sizes, font_px, in_sight, needs_chromium, one_line, one_screen
from grognard import rulesets
from grognard.core.engine import Game
from grognard.core.record import readable_by, replay
from grognard.web.testing import ServerProcess, call, join, receive

pytestmark = needs_chromium
pytest.importorskip("playwright.sync_api")

GAMES = {
    "omaha": {"germans": 1},
    "b17": {},
    "skirmish": {"scenario": "village_street", "turn_limit": 3},
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("replay")) as srv:
        yield srv


def play_out(server: ServerProcess, name: str, options: dict[str, Any]) -> tuple[str, str, str]:
    """An all-bot game of ``name`` made and played to the end on the server: (code, host token, record text)."""
    status, made = call(server.url + "/api/rooms", {"ruleset": name, "options": options})
    assert status == 200, made
    code, token = made["code"], made["host_token"]
    with connect(f"{server.ws_url}/ws/{code}") as ws:
        ws.send(json.dumps({"type": "hello", "role": "host", "token": token}))
        ws.send(json.dumps({"type": "start"}))  # every seat a bot (fill_bots): played to the end
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            message = receive(ws, timeout=deadline - time.monotonic())
            if message["type"] == "state" and message["status"] == "over":
                break
        else:
            raise AssertionError(f"{name}: the bots did not finish in time")
    status, text = call(f"{server.url}/api/rooms/{code}/record", headers={"X-Host-Token": token})
    assert status == 200 and isinstance(text, str), text
    return code, token, text


def projector_url(server: ServerProcess, code: str, token: str) -> str:
    """The projector page's link on the host page (with its projector token)."""
    with connect(f"{server.ws_url}/ws/{code}") as ws:
        ws.send(json.dumps({"type": "hello", "role": "host", "token": token}))
        while True:
            message = receive(ws)
            if message["type"] == "state":
                return str(message["host"]["projector_url"])


@pytest.fixture(scope="module")
def played(server: ServerProcess) -> dict[str, tuple[str, str, str]]:
    """A finished all-bot game of each rule set, played on the server: name -> (code, host token, record text)."""
    return {name: play_out(server, name, options) for name, options in GAMES.items()}


@dataclass
class Expected:
    """What the replay of a record must show after each of its lines: ``turns``, ``dice`` (the values of
    each roll a spectator sees, in order) and ``figures`` (the face's count of the spectators' view)."""

    lines: list[dict[str, Any]]
    turns: list[int]
    dice: list[list[list[int]]]
    figures: list[list[list[str]]]


def expected(text: str) -> Expected:
    """The record's lines after the header and what each must show, from the core's replay on its own and
    the record's own dice events."""
    lines = readable_by([json.loads(t) for t in text.splitlines() if t.strip()], None)
    turns: list[int] = []
    figures: list[list[list[str]]] = []
    face = rulesets.get(lines[0]["ruleset"]).face
    assert face is not None

    def keep(game: Game) -> bool:
        turns.append(game.turn)
        figures.append([[label, str(value)] for label, value in face.figures(game.view(None))])
        return False

    rebuilt = replay(lines, rulesets.get, until=keep)
    keep(rebuilt.game)
    dice = [[e["values"] for e in line["events"] if e["kind"] == "dice" and "to" not in e] for line in lines[1:]]
    return Expected(lines[1:], turns, dice, figures)


def page(browser: Any, width: int = 1366, height: int = 768) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)  # wait_for_function
    context.set_default_timeout(15000)
    return context.new_page()


def shown(p: Any) -> dict[str, Any]:
    """What the replay page shows now: the event, the turn, the dice of each roll listed, the shapes drawn."""
    return dict(
        p.evaluate(
            """() => ({
              step: window.grognardReplay.at(),
              turn: parseInt(document.getElementById('turn').dataset.turn, 10),
              where: document.getElementById('where').textContent,
              dice: Array.from(document.querySelectorAll('#events li.roll'))
                .map(li => Array.from(li.querySelectorAll('.die')).map(d => parseInt(d.textContent, 10))),
              shapes: document.querySelectorAll('#svg svg.table .layers *').length,
              figures: Array.from(document.querySelectorAll('#figures dt'))
                .map(dt => [dt.textContent, dt.nextElementSibling.textContent]),
            })"""
        )
    )


def at_step(p: Any, n: int) -> dict[str, Any]:
    p.wait_for_function(f"window.grognardReplay && window.grognardReplay.at() === {n}")
    p.wait_for_function(f"document.getElementById('where').textContent.includes('event {n} of')")
    return shown(p)


def check(p: Any, n: int, want: Expected) -> None:
    now = at_step(p, n)
    assert now["turn"] == want.turns[n], (n, now)
    assert now["dice"] == want.dice[n], (n, now["dice"], want.dice[n])
    assert now["shapes"] > 5, now  # the table is drawn
    assert now["figures"] == want.figures[n], (n, now["figures"], want.figures[n])  # the count as it stood then


@pytest.mark.parametrize("name", list(GAMES))
def test_step_through_a_finished_game(
    browser: Any, server: ServerProcess, played: dict[str, tuple[str, str, str]], name: str, shots: Path
) -> None:
    code, token, text = played[name]
    want = expected(text)
    turns = want.turns
    assert len(turns) == len(want.lines) and sum(map(len, want.dice)) > 0
    p = page(browser)
    if name == "omaha":  # from the debrief of the finished game on the host page
        p.goto(f"{server.url}/host/{code}#{token}")
        p.wait_for_selector("#debrief:not([hidden]) #replay-link")
        p.click("#replay-link")
        p.wait_for_url(f"**/replay/{code}")
    else:
        p.goto(f"{server.url}/replay/{code}")
    check(p, 0, want)
    assert p.is_disabled("#prev") and p.is_disabled("#first")
    told = 0
    for n in range(1, 5):  # forward an event at a time, with the button
        p.click("#next")
        check(p, n, want)
        line = want.lines[n]
        if line["type"] == "action" and line.get("reason") and "to" not in line["reason"]:
            # a bot's order: its reason under the order's "why?" (issue 31, item 2)
            p.locator("#order details.why > summary").click()
            assert f"rule: {line['reason']['clause']}" in p.inner_text("#order .why-words")
            told += 1
    assert told, "no bot's reason among the first steps"
    p.click("#prev")
    check(p, 3, want)
    p.click("#next-turn")
    to = next(k for k in range(len(turns)) if turns[k] > turns[3])
    check(p, to, want)
    p.click("#prev-turn")  # back to the start of the turn before
    check(p, turns.index(turns[3]), want)
    p.locator("#events").focus()  # the keys, anywhere but the table and the slider
    p.keyboard.press("ArrowRight")
    check(p, turns.index(turns[3]) + 1, want)
    p.keyboard.press("End")
    check(p, len(turns) - 1, want)
    p.wait_for_selector("#end:not([hidden])")
    final = json.loads(text.splitlines()[-1])
    assert p.inner_text("#turn").startswith(f"Turn {turns[-1]}")
    assert final["type"] in ("action", "resign") and p.is_disabled("#next")
    assert "win" in p.inner_text("#result") or "draw" in p.inner_text("#result")
    p.keyboard.press("Home")
    check(p, 0, want)
    # the slider picks a turn: its first event is shown
    middle = turns[len(turns) // 2]
    p.evaluate(
        "(t) => { const s = document.getElementById('turn-slider'); s.value = String(t);"
        " s.dispatchEvent(new Event('input', {bubbles: true})); }",
        middle,
    )
    check(p, turns.index(middle), want)
    # the step's answer is one event's scene, not the game: no seed, no full state
    status, answer = call(f"{server.url}/api/rooms/{code}/replay/{turns.index(middle)}")
    assert status == 200 and "seed" not in json.dumps(answer) and len(json.dumps(answer)) < 60_000
    p.screenshot(path=str(shots / f"replay-{name}-1366x768.png"))
    wide = page(browser, 1280, 800)
    wide.goto(f"{server.url}/replay/{code}")
    at_step(wide, 0)
    for _ in range(6):
        wide.click("#next")
    check(wide, 6, want)
    wide.screenshot(path=str(shots / f"replay-{name}-1280x800.png"))


def _rooms(server: ServerProcess) -> int:
    with sqlite3.connect(server.folder / "games.sqlite3") as db:
        return int(db.execute("select count(*) from grognard_rooms").fetchone()[0])


def test_quick_clicks_each_go_one_event_on(
    browser: Any, server: ServerProcess, played: dict[str, tuple[str, str, str]]
) -> None:
    """Three clicks on "next" quicker than the server answers (all in one task of the page, before any answer)
    show event 3, and two on "back" then event 1: a move counts from the event last asked for (it counted from
    the one shown, so the quick clicks were lost, and CI once saw six clicks land on event 5)."""
    code, _, text = played["b17"]
    want = expected(text)
    p = page(browser)
    p.goto(f"{server.url}/replay/{code}")
    check(p, 0, want)
    p.evaluate("(n) => { for (let i = 0; i < n; i++) document.getElementById('next').click(); }", 3)
    check(p, 3, want)
    p.evaluate("(n) => { for (let i = 0; i < n; i++) document.getElementById('prev').click(); }", 2)
    check(p, 1, want)
    p.context.close()


def test_upload_a_record_and_refusals(
    browser: Any, server: ServerProcess, played: dict[str, tuple[str, str, str]]
) -> None:
    """An uploaded record replays from the home page; a tampered die, a changed digest, a file that is not a
    record are refused with one line naming the line at fault, and nothing is made."""
    _, _, text = played["b17"]
    want = expected(text)
    turns = want.turns
    first_roll = next(k for k, d in enumerate(want.dice) if d)
    home = page(browser)
    before = _rooms(server)
    tampered = text.splitlines()
    record = json.loads(tampered[first_roll + 1])
    roll = next(e for e in record["events"] if e["kind"] == "dice")
    roll["values"][0] = roll["values"][0] % roll["sides"] + 1  # another face of the same die
    tampered[first_roll + 1] = json.dumps(record, separators=(",", ":"))
    cases = {
        "tampered.jsonl": ("\n".join(tampered) + "\n", f"line {first_roll + 2}: "),
        "digest.jsonl": (text.replace('"digest":"', '"digest":"0', 3), "line 1: header digest does not match"),
        "notes.jsonl": ("these are my notes\n", "line 1: not JSON"),
        "empty.jsonl": ("\n", "the file is empty"),
    }
    for file_name, (body, words) in cases.items():
        home.goto(server.url + "/")
        home.set_input_files(
            "#replay-file", files=[{"name": file_name, "mimeType": "text/plain", "buffer": body.encode()}]
        )
        home.click("#replay-form button[type=submit]")
        home.wait_for_function("document.getElementById('message').textContent.startsWith('Refused')")
        message = home.inner_text("#message")
        assert message.startswith(f"Refused: {file_name}: {words}"), message
        assert "\n" not in message.strip() and home.url == server.url + "/"
    assert _rooms(server) == before  # nothing made
    # the good record, from the home page: the replay of the file
    home.goto(server.url + "/")
    home.set_input_files(
        "#replay-file", files=[{"name": "raid.jsonl", "mimeType": "text/plain", "buffer": text.encode()}]
    )
    home.click("#replay-form button[type=submit]")
    home.wait_for_url("**/replays/*")
    assert "raid.jsonl" in home.inner_text("h1")
    check(home, 0, want)
    home.click("#next-turn")
    to = next(k for k in range(len(turns)) if turns[k] > turns[0])
    check(home, to, want)
    home.keyboard.press("Shift+ArrowRight")  # a turn on, from the keyboard
    check(home, next(k for k in range(len(turns)) if turns[k] > turns[to]), want)
    assert _rooms(server) == before  # a replay is not a game


def test_axe_on_the_replay_page(browser: Any, server: ServerProcess, played: dict[str, tuple[str, str, str]]) -> None:
    from test_web_pages import _axe_clean

    code, _, text = played["skirmish"]
    p = page(browser)
    p.goto(f"{server.url}/replay/{code}")
    at_step(p, 0)
    p.click("#last")
    at_step(p, len(expected(text).turns) - 1)
    _axe_clean(p)


def test_the_upload_limits(server: ServerProcess, played: dict[str, tuple[str, str, str]]) -> None:
    """A record past the 16 KB of every other request is taken (up to 8 MB); one past 8 MB is refused before it
    is read; the steps asked past the end and an unknown replay are refused with one line."""
    from grognard.web.protocol import MAX_BODY, MAX_UPLOAD
    from grognard.web.replays import MAX_RECORD
    from test_web_security import chunked_post

    _, _, text = played["omaha"]
    assert len(text.encode()) > 16384
    status, made = call(server.url + "/api/replays?name=beach.jsonl", text.encode())
    assert status == 200 and made["url"] == f"/replays/{made['id']}", made
    status, outline = call(server.url + f"/api/replays/{made['id']}")
    assert (
        status == 200 and outline["title"] == "the file beach.jsonl" and outline["steps"] == len(expected(text).turns)
    )
    status, answer = call(server.url + f"/api/replays/{made['id']}/{outline['steps']}")
    assert (
        status == 400
        and answer["message"] == f"step {outline['steps']}: the record has steps 0 to {outline['steps'] - 1}"
    )
    status, answer = call(server.url + "/api/replays/nosuchreplay/0")
    assert status == 404 and answer["code"] == "no_replay"
    status, _, refusal = chunked_post(server, "/api/replays", MAX_RECORD + 1024 * 1024)  # never finished
    assert status == 413 and f"at most {MAX_RECORD} bytes".encode() in refusal, refusal[:300]
    status, answer = call(server.url + "/api/rooms/ABCDEF/join", b" " * 20000)  # the other routes keep their 16 KB
    assert status == 413 and answer["message"] == "a request body has at most 16384 bytes", answer
    wide = MAX_BODY + 4 * MAX_UPLOAD  # a new game's: room for a scenario file of one's own
    status, answer = call(server.url + "/api/rooms", b" " * (wide + 1))
    assert status == 413 and answer["message"] == f"a request body has at most {wide} bytes", answer


def test_a_take_back_is_replayed_again(server: ServerProcess) -> None:
    """The host takes back the last two actions (two squads held: nothing rolled, so they may be taken back):
    the replay is read again (the steps taken back are gone, the ones before are as they were), never served
    from the book read before."""
    status, made = call(server.url + "/api/rooms", {"ruleset": "omaha", "options": {"germans": 1}})
    assert status == 200, made
    code, token = made["code"], made["host_token"]
    pupils = [join(server.url, code, f"Pupil {k}", "american") for k in range(3)]  # the German: a bot
    with connect(f"{server.ws_url}/ws/{code}") as ws:
        ws.send(json.dumps({"type": "hello", "role": "host", "token": token}))
        ws.send(json.dumps({"type": "start"}))
        for k, pupil in enumerate(pupils[:2]):
            with connect(f"{server.ws_url}/ws/{code}") as page:
                page.send(json.dumps({"type": "hello", "role": "player", "token": pupil["token"]}))
                while not ((m := receive(page, timeout=30))["type"] == "state" and m["decisions"]):
                    pass
                page.send(json.dumps({"type": "act", "action": f"hold A{k + 1}", "n": 1}))
                while not ((m := receive(page, timeout=30))["type"] in ("ack", "refused") and m.get("n") == 1):
                    pass
                assert m["type"] == "ack", m
        status, before = call(f"{server.url}/api/rooms/{code}/replay")
        assert status == 200 and before["result"] is None
        last = before["steps"] - 1
        kept = call(f"{server.url}/api/rooms/{code}/replay/{last - 2}")[1]
        assert call(f"{server.url}/api/rooms/{code}/replay/{last}")[1]["order"]["text"] == "hold A2"
        for _ in range(2):
            ws.send(json.dumps({"type": "undo"}))
            while not ((m := receive(ws))["type"] == "ack" and m.get("op") == "undo"):
                assert m["type"] != "refused", m
    status, answer = call(f"{server.url}/api/rooms/{code}/replay/{last}")
    assert status == 400 and answer["message"] == f"step {last}: the record has steps 0 to {last - 2}", answer
    again = call(f"{server.url}/api/rooms/{code}/replay/{last - 2}")[1]
    assert {k: v for k, v in again.items() if k != "steps"} == {k: v for k, v in kept.items() if k != "steps"}
    assert again["steps"] == last - 1
    status, after = call(f"{server.url}/api/rooms/{code}/replay")
    assert status == 200 and after["steps"] == last - 1 and after["result"] is None
    assert after["turns"] == before["turns"][: last - 1]


@pytest.mark.parametrize("name", list(GAMES))
def test_the_replay_is_one_screen(
    browser: Any, server: ServerProcess, played: dict[str, tuple[str, str, str]], name: str, shots: Path
) -> None:
    """The last event of each finished game at 1280x800 and 1366x768: the page does not scroll; the title is
    one line (the skirmish's long one cut short); the table, the buttons, the slider, the result and the event
    are in sight together (and the count, below a long table; beside a deeper one it is a scroll of its column
    away); a long table (Omaha's beach) runs across the screen (it was drawn 2:1 in a column,
    half of it empty) and a deeper one fills the height under the header (its bottom was 13rem short)."""
    code, _, text = played[name]
    p = page(browser, 1280, 800)
    p.goto(f"{server.url}/replay/{code}")
    at_step(p, 0)
    said = (p.inner_text("#turn") + " " + p.inner_text("#phase")).lower()
    assert "setup - setup" not in said, said  # a phase named as its turn is said once
    p.click("#last")
    at_step(p, len(expected(text).turns) - 1)
    p.wait_for_selector("#end:not([hidden])")
    for width, height in at_chromebook_sizes(p):
        one_screen(p)
        one_line(p, "header .head-title")
        for selector in ("#next", "#prev", "#turn-slider", "#result", "#events li"):
            in_sight(p, selector)
        table = in_sight(p, "#svg svg.table")
        header = p.locator("header").bounding_box()
        if p.get_attribute("#svg", "data-long") == "true":  # the rest below it in three columns
            assert table["width"] >= 0.9 * width, table
            in_sight(p, "#figures dt")
        else:  # the height under the header, or the whole width of its column (a wide table: B-17's)
            column = p.locator("main > .left").bounding_box()
            below = height - header["y"] - header["height"]
            assert table["height"] >= 0.9 * below or table["width"] >= 0.95 * column["width"], (table, header, column)
        p.screenshot(path=str(shots / f"replay-end-{name}-{width}x{height}.png"))
    p.context.close()


@pytest.mark.parametrize("name", list(GAMES))
def test_the_projector_of_a_finished_game_shows_the_result_first(
    browser: Any, server: ServerProcess, played: dict[str, tuple[str, str, str]], name: str, shots: Path
) -> None:
    """At the end the projector's side column (below a long table: its columns) starts with the debrief: the
    result in sight at 1280x800 and 1366x768, in words larger than the page's, with the table; the page does
    not scroll (the debrief was under the text tables, 4,000 px down Omaha's page); the header says "game over"
    once."""
    code, token, _ = played[name]
    p = page(browser, 1280, 800)
    p.goto(f"{server.url}{projector_url(server, code, token)}")  # the teacher's projector: who won's estimate too
    p.wait_for_selector("#debrief:not([hidden])")
    p.wait_for_function("document.getElementById('result').textContent.includes(' on turn ')")
    status = p.inner_text("header .status").lower()
    assert status.count("game over") == 1, status  # B-17's said "Turn 11 - game over (game over)"
    for width, height in at_chromebook_sizes(p):
        one_screen(p)
        in_sight(p, "#svg svg.table")
        result = in_sight(p, "#result")
        odds = p.locator("#odds").bounding_box()
        assert result["y"] < odds["y"], (result, odds)  # the news before the estimate
        assert font_px(p, "#result") >= 24
        p.screenshot(path=str(shots / f"projector-end-{name}-{width}x{height}.png"))
    from test_web_pages import _axe_clean

    _axe_clean(p)  # the debrief first, its plots and the estimate after it
    p.context.close()


def test_the_replay_header_names_the_rule_set_shortly_before_the_game() -> None:
    """A skirmish replay's header read 'WWII skirmish (moving, fire, cover, …' cut off, the game's own name
    (a trial's 'replay of a test of Fire range ...') pushed out; now 'WWII skirmish:' then the game's name,
    in the header and the tab."""
    from grognard.rulesets.skirmish import RULESET as SKIRMISH
    from grognard.web.pages import replay_page

    assert SKIRMISH.title.startswith("WWII skirmish (")
    html = replay_page(SKIRMISH.title, "replay of a test of Fire range", "/api/replays/x")
    assert '<span class="head-title">WWII skirmish:</span>' in html and "(moving" not in html
    assert "<title>WWII skirmish: replay of a test of Fire range" in html
