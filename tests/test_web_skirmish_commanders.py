"""Two people on one side of the skirmish, each commanding units (option ``commanders``), on a real server in
Debian's Chromium: each page offers only its commander's units and rings them; an order for the other
commander's unit is refused naming it and its seat; each orders his own unit through his page (one by a
drag on the table, one from the menu); the host page seats people and bots per commander; the axe scan."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browsers import needs_chromium, wait_said
from grognard.web.testing import ServerProcess, call
from test_web_pages import _axe_clean
from test_web_skirmish_browser import centre, commit_menu, drag, new_page, snap, tip

pytestmark = needs_chromium
pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("skirmish-commanders")) as srv:
        yield srv


def player_page(browser: Any, server: ServerProcess, code: str, token: str) -> Any:
    page = new_page(browser)
    page.add_init_script(f"localStorage.setItem('grognard:player:{code}', '{token}')")
    page.goto(server.url + f"/play/{code}")
    page.wait_for_selector("svg.table")
    return page


def offered(page: Any) -> list[str]:
    """The units whose decisions the page shows (their boxes' headings: "Allies 1: A (5 men): move")."""
    headings = page.evaluate("() => Array.from(document.querySelectorAll('.decision h3')).map((h) => h.textContent)")
    return sorted({h.split(": ")[1].split()[0] for h in headings})


def ringed(page: Any) -> list[str]:
    """The units ringed on the page's table as the viewer's own (their rings' titles: "your unit A (...)")."""
    titles = page.evaluate(
        "() => Array.from(document.querySelectorAll('svg.table title')).map((t) => t.textContent)"
        ".filter((t) => t.startsWith('your unit '))"
    )
    return sorted({t.split()[2] for t in titles})


def record(server: ServerProcess, code: str, host_token: str) -> list[dict[str, Any]]:
    import json

    status, text = call(server.url + f"/api/rooms/{code}/record", headers={"X-Host-Token": host_token})
    assert status == 200, text
    return [json.loads(line) for line in text.splitlines()] if isinstance(text, str) else list(text)


def test_two_people_on_one_side_each_order_their_own_unit(browser: Any, server: ServerProcess, shots: Path) -> None:
    status, made = call(
        server.url + "/api/rooms",
        {"ruleset": "skirmish", "options": {"scenario": "village_street", "commanders": 2, "turn_limit": 2}},
    )
    assert status == 200, made
    code = made["code"]
    host = new_page(browser)
    host.goto(server.url + made["host_url"])
    host.wait_for_selector("#start")
    joined = {}
    for name in ("Ann", "Bea"):
        status, joined[name] = call(server.url + f"/api/rooms/{code}/join", {"name": name, "side": "allies"})
        assert status == 200, joined[name]
    assert joined["Ann"]["seats"] == ["Allies 1"] and joined["Bea"]["seats"] == ["Allies 2"]
    host.wait_for_function("document.querySelectorAll('#seat-rows tr').length === 4")
    rows = host.locator("#seat-rows tr")
    assert [rows.nth(k).locator("th").inner_text() for k in range(4)] == ["Allies 1", "Allies 2", "Axis 1", "Axis 2"]
    assert host.is_visible("#seat-commands")  # what each seat commands, beside it
    assert rows.nth(0).locator("td").nth(1).inner_text() == "A, C"
    assert rows.nth(1).locator("td").nth(1).inner_text() == "B"
    host.select_option("#seat-bot-Axis-2", "normal")  # a bot of another level on one commander's seat
    host.wait_for_function("document.querySelector('#seat-bot-Axis-2').value === 'normal'")
    host.locator("#seat-rows").scroll_into_view_if_needed()
    snap(host, shots, "commanders-host")
    _axe_clean(host)
    ann = player_page(browser, server, code, joined["Ann"]["token"])
    bea = player_page(browser, server, code, joined["Bea"]["token"])
    host.click("#start")
    for page in (ann, bea):  # the axis bots move first or not: the allies' move comes either way
        page.wait_for_selector(".decision, .picker", timeout=60000)
    assert offered(ann) == ["A", "C"], offered(ann)  # Allies 1 commands A and C, Allies 2 commands B
    assert ringed(ann) == ["A", "C"] and ringed(bea) == ["B"]
    assert bea.inner_text("#you") == "Bea: you play Allies 2, commanding B"
    assert "commander" in bea.evaluate(
        "document.querySelector('#tables th[scope=col]') && "
        "Array.from(document.querySelectorAll('#tables th')).map((th) => th.textContent).join('|')"
    )

    # Bea types an order for Ann's unit: refused in one line naming the unit and its seat; nothing changes
    bea.locator(".decision input[name=order]").first.fill("move A")
    bea.locator(".decision input[name=order]").first.press("Enter")
    bea.wait_for_function("document.querySelector('#message').textContent.includes('commanded by')")
    message = bea.inner_text("#message").strip()
    assert "unit A is commanded by Allies 1, not Allies 2" in message and "\n" not in message, message
    assert offered(ann) == ["A", "C"] and offered(bea) == ["B"]

    # Ann gives her two units' orders from the menu
    for _ in range(2):
        ann.wait_for_selector(".decision")
        if ann.locator(".picker button").count():
            ann.locator(".picker button").first.click()
        commit_menu(ann)
    ann.wait_for_function(
        "!Array.from(document.querySelectorAll('.decision h3')).some((h) => h.textContent.endsWith(': move'))"
    )
    # A has moved: Bea's order for it, checked against her own decision (B's), still names its commander
    bea.locator(".decision input[name=order]").first.fill("move A 8,5")
    bea.locator(".decision input[name=order]").first.press("Enter")
    wait_said(bea, "Refused")  # the line says "Sending: move A 8,5" first
    message = bea.inner_text("#message").strip()
    assert "unit A is commanded by Allies 1, not Allies 2" in message, message

    # a drag from Ann's man is no order of Bea's: the page says whose he is, and gives nothing
    mate = centre(bea, "A.1")
    drag(bea, mate, (mate[0], mate[1] + 2.0))
    said = tip(bea, "commanded by")
    assert "unit A is commanded by Allies 1" in said and "Commit" not in said, said

    # Bea moves her unit B by a drag on the table
    start = centre(bea, "B.1")
    drag(bea, start, (start[0], start[1] + 3.0))
    tip(bea, "left")
    bea.evaluate("window.scrollTo(0, 0)")
    snap(bea, shots, "commanders-table")
    _axe_clean(bea)
    bea.locator(".table-tip .tip-commit").click()
    bea.wait_for_function(
        "!Array.from(document.querySelectorAll('.decision h3')).some((h) => h.textContent.endsWith(': move'))"
    )
    host.once("dialog", lambda dialog: dialog.accept())
    host.click("button#end")
    host.wait_for_function("document.querySelector('button#end').disabled")
    lines = [line for line in record(server, code, made["host_token"]) if line.get("type") == "action"]
    moves = {line["action"].split()[1]: line["seat"] for line in lines if line["action"].split()[0] in ("move", "hold")}
    assert {unit: moves[unit] for unit in ("A", "B", "C")} == {"A": "Allies 1", "B": "Allies 2", "C": "Allies 1"}
    assert {moves[unit] for unit in ("G", "H", "K", "L", "R") if unit in moves} <= {"Axis 1", "Axis 2"}
    b_move = next(line for line in lines if line["seat"] == "Allies 2")
    assert b_move["action"].startswith("move B ")  # the drag's move, not a hold


def test_a_commanders_sealed_choice_never_reaches_the_enemys_commanders_on_the_wire(tmp_path: Path) -> None:
    """Four people, two commanders a side, on the melee yard (a German charges an American at the start; the
    referee's 1s make every strike miss): the melee groups' choices are owed by Allies 1 and Axis 1 (the
    commanders of their men); Ann's secret retreat reaches no frame of either axis commander's page, the
    host's or the projector's, nor the record or debrief, until Axel has chosen; then all see it."""
    import json
    import time

    from test_web_skirmish_melee import YARD, Page, act, owed, refereed, sealed_words

    yard = YARD + (
        '\n[[units]]\nid = "B"\nside = "allies"\nfigures = [{ weapon = "rifle", at = [2.0, 2.0] }]\n'
        '\n[[units]]\nid = "H"\nside = "axis"\nfigures = [{ weapon = "rifle", at = [22.0, 22.0] }]\n'
    )
    with ServerProcess(tmp_path) as server:
        status, made = call(
            server.url + "/api/rooms",
            {
                "ruleset": "skirmish",
                "dice": "manual",
                "options": {"commanders": 2},
                "upload": {"name": "melee_yard.toml", "text": yard},
            },
        )
        assert status == 200, made
        code = made["code"]
        tokens = {}
        for name, side in (("Ann", "allies"), ("Bea", "allies"), ("Axel", "axis"), ("Otto", "axis")):
            joined = call(server.url + f"/api/rooms/{code}/join", {"name": name, "side": side})[1]
            tokens[name] = joined["token"]
            assert joined["seats"] == [{"Ann": "Allies 1", "Bea": "Allies 2", "Axel": "Axis 1", "Otto": "Axis 2"}[name]]
        host, stop = refereed(server, code, made["host_token"])
        try:
            pages = {name: Page(server, code, "player", token) for name, token in tokens.items()}
            projector = Page(server, code, "projector", None)
            n = 0
            act(pages["Axel"], "move G / G.1 to 12,12", n := n + 1)  # the charge: bases touching
            act(pages["Otto"], "hold H", n := n + 1)
            act(pages["Ann"], "hold A", n := n + 1)
            act(pages["Bea"], "hold B", n := n + 1)
            deadline = time.monotonic() + 60
            while not any(d["id"].startswith("melee") for d in pages["Ann"].state.get("decisions", [])):
                assert time.monotonic() < deadline, "no melee came"
                for page in pages.values():  # whoever owes a fire order holds
                    with page.lock:
                        owing = [d["id"] for d in page.state.get("decisions", []) if d["id"].startswith("fire")]
                    for key in owing:
                        act(page, f"{key} hold", n := n + 1)
                        page.wait(lambda s, key=key: all(d["id"] != key for d in s.get("decisions", [])))
                time.sleep(0.1)
            mine, theirs = owed(pages["Ann"], "melee"), owed(pages["Axel"], "melee")
            assert mine["seat"] == "Allies 1" and theirs["seat"] == "Axis 1"
            group = mine["id"].split()[1]
            words = sealed_words(group, ["A.1", "A.2"])
            act(pages["Ann"], f"melee {group} retreat", n := n + 1)
            pages["Axel"].wait(lambda s: not next(x for x in s["seats"] if x["seat"] == "Allies 1")["owes"])
            time.sleep(0.5)
            # Bea's page learns that her side's first commander chose (he owes nothing now), as every page does
            pages["Bea"].wait(lambda s: not next(x for x in s["seats"] if x["seat"] == "Allies 1")["owes"])
            for page in (pages["Axel"], pages["Otto"], host, projector):
                assert not any(word in page.text() for word in words), page.text()[-2000:]
            for path in (f"/api/rooms/{code}/record", f"/api/rooms/{code}/debrief"):
                status, answer = call(server.url + path, headers={"X-Host-Token": made["host_token"]})
                assert not any(word in json.dumps(answer) for word in words), (path, answer)
            act(pages["Axel"], f"melee {theirs['id'].split()[1]} stay", n := n + 1)
            pages["Otto"].wait(lambda s: any("retreat" in e.get("text", "") for e in s["events"]))  # revealed
        finally:
            stop.set()
            host.close()
