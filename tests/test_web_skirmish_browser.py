"""The skirmish in a real headless Chromium (Debian's, Playwright ``executable_path``): the host starts a game
from the home page on a scenario of one's own (a bad file lists its problems and makes nothing), then the
skirmish table played through the page."""

from __future__ import annotations

import time
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from browsers import needs_chromium, referee_types
from grognard.core.words import percent
from grognard.rulesets.skirmish.scenario import SCENARIOS_DIR
from grognard.web.testing import ServerProcess, call

pytestmark = needs_chromium
pytest.importorskip("playwright.sync_api")

STREET = (SCENARIOS_DIR / "village_street.toml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("skirmish-browser")) as srv:
        yield srv


def new_page(browser: Any, width: int = 1366, height: int = 768, touch: bool = False) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True, has_touch=touch)
    context.set_default_timeout(20000)
    return context.new_page()


def rooms(server: ServerProcess) -> int:
    from sqlalchemy import create_engine, text

    with create_engine(server.db).connect() as db:
        return int(db.execute(text("select count(*) from grognard_rooms")).scalar_one())


def test_the_host_uploads_a_scenario_from_the_home_page(browser: Any, server: ServerProcess, tmp_path: Path) -> None:
    bad = tmp_path / "bad_street.toml"
    bad.write_text(STREET.replace("width = 48.0", "width = -1.0", 1).replace("[victory]", "[victory]\nbogus = 2", 1))
    good = tmp_path / "our_street.toml"
    good.write_text(STREET.replace('title = "', 'title = "Our street: ', 1))
    page = new_page(browser)
    page.goto(server.url + "/")
    page.select_option("#ruleset", "skirmish")
    before = rooms(server)
    page.set_input_files("#opt-skirmish-scenario-file", str(bad))
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#message.error")
    message = page.inner_text("#message")
    assert message.startswith("bad_street.toml: ") and "table.width" in message and "bogus" in message
    assert len(message.splitlines()) >= 3  # every problem on its own line, as the CLI lists them
    # said at the top of the long form, and brought into sight (the button pressed is at its foot)
    where = page.evaluate(
        "() => { const r = document.getElementById('message').getBoundingClientRect();"
        " return [r.top, r.bottom, innerHeight, scrollY]; }"
    )
    assert -1 <= where[0] < where[2], where  # (top, bottom, the window's height, scrolled)
    assert page.url.rstrip("/") == server.url and rooms(server) == before
    page.set_input_files("#opt-skirmish-scenario-file", str(good))
    page.fill("#solo-name", "Sol")
    page.select_option("#solo-side", "allies")
    page.click("#solo-start")
    page.wait_for_url("**/play/*")
    page.wait_for_function("document.body.innerText.includes('Our street')")
    assert rooms(server) == before + 1


# ---------------------------------------------------------------------------------------------- the table
def seated(
    browser: Any, server: ServerProcess, body: dict[str, Any], width: int = 1366, height: int = 768, touch: bool = False
) -> Any:
    """A room made by the API, Ann (allies) and Axel (axis) joined, each page open in its own context with
    every WebSocket frame it receives kept (``page.frames``); the host page (``host``) started it. ``touch``:
    the players' contexts have a touch screen."""
    status, made = call(server.url + "/api/rooms", {"ruleset": "skirmish", **body})
    assert status == 200, made
    code = made["code"]
    host = new_page(browser, width, height)
    host.goto(server.url + made["host_url"])
    host.wait_for_selector("#start")
    out: dict[str, Any] = {"code": code, "host": host}
    for side, name in (("allies", "Ann"), ("axis", "Axel")):
        joined = call(server.url + f"/api/rooms/{code}/join", {"name": name, "side": side})[1]
        page = new_page(browser, width, height, touch)
        page.add_init_script(f"localStorage.setItem('grognard:player:{code}', '{joined['token']}')")
        frames: list[str] = []
        page.on("websocket", lambda ws, frames=frames: ws.on("framereceived", lambda f: frames.append(str(f))))
        page.frames_seen = frames
        page.goto(server.url + f"/play/{code}")
        page.wait_for_selector("svg.table")
        out[side] = page
    host.click("#start")
    return out


def snap(page: Any, shots: Path, name: str) -> None:
    """The page at 1366x768 and at 1280x800 (the tip stays where it was)."""
    page.screenshot(path=str(shots / f"{name}-1366x768.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_timeout(150)
    page.screenshot(path=str(shots / f"{name}-1280x800.png"))
    page.set_viewport_size({"width": 1366, "height": 768})
    page.wait_for_timeout(150)


def owes(page: Any) -> bool:
    return bool(page.locator(".decision").count())


def shown_decision(page: Any) -> str:
    return str(page.get_attribute("svg.table", "data-shown") or "")


def drag(page: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    """A mouse drag on the table from one inch point to another."""
    a = page.evaluate(f"window.grognardTable.screen({start[0]}, {start[1]})")
    b = page.evaluate(f"window.grognardTable.screen({end[0]}, {end[1]})")
    page.mouse.move(a[0], a[1])
    page.mouse.down()
    for k in range(1, 9):
        page.mouse.move(a[0] + (b[0] - a[0]) * k / 8, a[1] + (b[1] - a[1]) * k / 8)
    page.mouse.up()


def tip(page: Any, wanted: str) -> str:
    page.wait_for_function(
        "w => { const t = document.querySelector('.table-tip'); return t && !t.hidden && t.innerText.includes(w); }",
        arg=wanted,
    )
    return str(page.inner_text(".table-tip"))


NEXT_DECISION = "h => { const b = document.querySelector('.decision h3'); return !b || b.textContent !== h; }"


def commit_menu(page: Any, choice: str | None = None, wait: bool = True) -> str:
    """Give the shown decision's menu order (the first, or the one whose text starts with ``choice``); with
    ``wait``, until the page shows the next decision (or none)."""
    box = page.locator(".decision").first
    heading = box.locator("h3").inner_text()
    if choice is not None:
        box.locator(f"input[type=radio][value^='{choice}']").first.check()
    value = box.locator("input[type=radio]:checked").get_attribute("value")
    box.get_by_role("button", name="Commit the chosen order").click()
    if not wait:
        return str(value)
    page.wait_for_function(NEXT_DECISION, arg=heading)
    return str(value)


def odds_figure(weapon: str, band: str, cover: str) -> float:
    """The chance of 'dead' that ``grognard odds skirmish --json`` prints for one shot."""
    import json
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "grognard.cli", "odds", "skirmish", "--json"], capture_output=True, text=True, check=True
    )
    table = next(t for t in json.loads(done.stdout)["tables"] if t["name"] == f"shot_{weapon}")
    row = next(r for r in table["rows"] if r["parameter"] == f"{band} {cover}")
    return float(next((o["decimal"] for o in row["outcomes"] if o["outcome"] == "dead"), 0.0))


def centre(page: Any, fid: str) -> tuple[float, float]:
    """Where man ``fid`` stands on the table, inches, as drawn."""
    at = page.evaluate(
        """id => { const g = document.querySelector('svg.table .layer-units g[data-id="' + id + '"]');
        const m = g && g.firstElementChild; if (!m) return null;
        if (m.tagName === 'circle') return [+m.getAttribute('cx'), -m.getAttribute('cy')];
        if (m.tagName === 'rect') return [+m.getAttribute('x') + m.getAttribute('width') / 2,
          -(+m.getAttribute('y') + m.getAttribute('height') / 2)];
        const p = m.getAttribute('points').trim().split(/\\s+/).map((q) => q.split(',').map(Number));
        return [p.reduce((t, q) => t + q[0], 0) / p.length, -p.reduce((t, q) => t + q[1], 0) / p.length]; }""",
        fid,
    )
    assert at is not None, fid
    return float(at[0]), float(at[1])


def pick(page: Any, label: str) -> None:
    """Show the decision of unit ``label`` (its button above the orders)."""
    buttons = page.locator(".picker").get_by_role("button", name=label, exact=True)
    if buttons.count():
        buttons.first.click()
    page.wait_for_function(
        "w => (document.querySelector('svg.table').dataset.shown || '').endsWith(' ' + w)", arg=label
    )


def test_village_street_two_sides_play_through_the_table(browser: Any, server: ServerProcess, shots: Path) -> None:
    """Ann (allies) and Axel (axis) in two contexts: a refused drag (the rule named, nothing changed), a drag
    committed (the men where it ended), an aimed shot whose odds are the odds command's, the rest given from
    the menu, to the result at the turn limit."""
    import re

    game = seated(browser, server, {"options": {"scenario": "village_street", "turn_limit": 2}})
    ann, axel = game["allies"], game["axis"]
    moved = refused = aimed = False
    for _ in range(200):
        if ann.inner_text("#result").strip():
            break
        acted = False
        for page in (ann, axel):
            if not owes(page):
                continue
            acted = True
            ids = [
                d
                for d in page.evaluate(
                    "Array.from(document.querySelectorAll('.picker button')).map(b => b.textContent)"
                )
            ]
            if (page is ann and not moved and any(t.strip() == "A" for t in ids)) or (
                page is ann and not moved and not ids and shown_decision(page) == "move A"
            ):
                pick(page, "A")
                start = centre(page, "A.1")
                drag(page, start, (start[0], start[1] + 20))  # 20": past a man's 6"
                words = tip(page, "Not allowed")
                assert re.search(r"\(skirmish\.\d+\)", words), words
                assert centre(page, "A.1") == start  # refused: nothing moved
                refused = True
                snap(page, shots, "skirmish-refused")
                drag(page, start, (start[0], start[1] + 5.5))  # up the street, into smg range of the inn
                end = f"move A {start[0]:g},{start[1] + 5.5:g}"
                page.wait_for_function(
                    "w => { const t = document.querySelector('.table-tip'); return t && !t.hidden"
                    " && t.innerText.includes(w) && t.innerText.includes('Commit'); }",
                    arg=end,
                )  # the preview of where the drag ended (those asked on the way may come first)
                words = str(page.inner_text(".table-tip"))
                assert 'costs 5.5"' in words and '0.5" left' in words, words
                snap(page, shots, "skirmish-drag")
                page.locator(".table-tip .tip-commit").click()
                page.wait_for_function(
                    "y => { const g = document.querySelector('svg.table .layer-units g[data-id=\"A.1\"] circle');"
                    " return g && Math.abs(-g.getAttribute('cy') - y) < 0.05; }",
                    arg=start[1] + 5.5,
                )
                moved = True
                continue
            heading = page.locator(".decision h3").first.inner_text()
            if (
                page is ann
                and moved
                and not aimed
                and ": A " in heading.replace("(", " ")
                and "fire"
                in " ".join(page.locator(".decision input[type=radio]").evaluate_all("l => l.map(i => i.value)"))
            ):
                values = page.locator(".decision input[type=radio]").evaluate_all("l => l.map(i => i.value)")
                targets = [v.split()[2] for v in values if v.startswith("fire A ") and v.split()[2] != "hold"]
                for enemy in targets:
                    for k in range(1, 6):
                        fid = f"{enemy}.{k}"
                        if not page.locator(f'svg.table .layer-units g[data-id="{fid}"]').count():
                            continue
                        at = centre(page, fid)
                        point = page.evaluate(f"window.grognardTable.screen({at[0]}, {at[1]})")
                        page.mouse.click(point[0], point[1])
                        page.wait_for_selector(".table-tip:not([hidden])")
                        words = page.inner_text(".table-tip")
                        found = re.search(r"(\S+) at (\S+) (\S+) (open|cover): dead (\S+) \((\S+)\)", words)
                        if "Commit" in words and found and Fraction(found.group(6)) > 0:
                            shooter = found.group(1)
                            weapon = "smg" if shooter == "A.1" else "rifle"
                            dead = Fraction(found.group(6))  # the exact chance, and the percentage beside it
                            assert float(dead) == pytest.approx(
                                odds_figure(weapon, found.group(3), found.group(4)), abs=5e-5
                            )
                            assert found.group(5) == percent(dead)
                            snap(page, shots, "skirmish-aim")
                            page.locator(".table-tip .tip-commit").click()
                            page.wait_for_function(NEXT_DECISION, arg=heading)
                            aimed = True
                            break
                        page.locator(".table-tip .tip-cancel").click()
                    if aimed:
                        break
                if aimed:
                    continue
            commit_menu(page, "hold" if " move" in heading else None)
        if not acted:
            ann.wait_for_timeout(200)
    assert ann.inner_text("#result").strip() and axel.inner_text("#result").strip()
    assert (refused, moved, aimed) == (True, True, True)
    snap(ann, shots, "skirmish-result")


YARD = (Path(__file__).parent / "skirmish_melee_yard.toml").read_text(encoding="utf-8")


def referee(host: Any) -> bool:
    """The host page types a 1 for a roll asked (a miss in melee); whether one was asked."""
    return referee_types(host, "1")


def test_a_melee_chosen_in_secret_through_two_pages(browser: Any, server: ServerProcess, shots: Path) -> None:
    """A German's charge dragged on the table, the referee's misses typed on the host page, then each side's
    stay-or-retreat given on its page: the other page's WebSocket frames never carry Ann's choice until both
    have chosen."""
    game = seated(browser, server, {"dice": "manual", "upload": {"name": "melee_yard.toml", "text": YARD}})
    ann, axel, host = game["allies"], game["axis"], game["host"]
    axel.wait_for_selector(".decision")
    drag(axel, centre(axel, "G.1"), (12.0, 12.0))  # the charge: bases touching
    axel.wait_for_function(
        "() => { const t = document.querySelector('.table-tip'); return t && !t.hidden"
        " && t.innerText.includes('move G 12,12') && t.innerText.includes('Commit'); }"
    )
    axel.locator(".table-tip .tip-commit").click()
    ann.wait_for_selector(".decision")
    commit_menu(ann, "hold A")
    ann.wait_for_selector(".decision input[value='fire A hold']")
    commit_menu(ann, "fire A hold")
    axel.wait_for_selector(".decision input[value='fire G hold']")
    commit_menu(axel, "fire G hold", wait=False)  # the melee's dice are asked of the referee now
    group = ""
    deadline = time.monotonic() + 90  # a run on a machine loaded ten deep waited out 100 looks (about 20 s) in vain
    while time.monotonic() < deadline:
        referee(host)
        choice = ann.locator(".decision input[value^='melee']")
        if choice.count():
            group = str(choice.first.get_attribute("value")).split()[1]
            break
        ann.wait_for_timeout(200)
    assert group, "a melee choice is owed"
    sealed = (f"{group} retreat", f'\\"{group}\\":\\"retreat\\"', "A.1 retreats")
    snap(ann, shots, "skirmish-melee")
    commit_menu(ann, f"melee {group} retreat")
    axel.wait_for_selector(".decision input[value^='melee']")
    axel.wait_for_timeout(800)  # every frame of Ann's choice has gone out by now
    got = "\n".join(axel.frames_seen)
    assert "melee" in got and not any(word in got for word in sealed)
    assert f"{group} retreat" in "\n".join(ann.frames_seen)  # her own page has it (the check sees a choice)
    commit_menu(axel, "melee")
    axel.wait_for_function("() => document.body.innerText.includes('melee choices shown')")
    assert any(word in "\n".join(axel.frames_seen) for word in sealed)
