"""End-to-end in a real headless Chromium (Debian's ``chromium``, driven by Playwright with ``executable_path``).

A host makes a game, two players join in two browser contexts and play a turn
(one by typed numbers, one by the keyboard on the menu), a page reloads and
keeps its seat, a refused order shows in the page; a bot's reason opens from its
line in the feed and from a tap on its bunker; screenshots are saved under the
test's tmp dir. An axe-core scan (WCAG 2.1 A and AA) of every page; axe is
taken from the npm registry at install time (``.ci/run``), or by this test.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browsers import needs_chromium, wait_said
from grognard.web.testing import ServerProcess

AXE_VERSION = "4.14.1"
ROOT = Path(__file__).resolve().parents[1]
AXE = ROOT / ".cache" / "npm" / "node_modules" / "axe-core" / "axe.min.js"

pytestmark = needs_chromium
pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("browser")) as srv:
        yield srv


def page(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)  # for wait_for_function
    context.set_default_timeout(30000)  # a loaded machine (CI) answers a preview or an order slower
    return context.new_page()


def make_game(browser: Any, server: ServerProcess, germans: int = 1) -> tuple[Any, str]:
    host = page(browser)
    host.goto(server.url + "/")
    host.fill("#opt-omaha-germans", str(germans))
    host.click("#create-form button[type=submit]")
    host.wait_for_url("**/host/*")
    host.wait_for_selector("#seat-rows tr")
    return host, host.url.rsplit("/", 1)[1]


def join_game(browser: Any, server: ServerProcess, code: str, name: str) -> Any:
    player = page(browser)
    player.goto(server.url + "/")
    player.fill("#join-code", code.lower())
    player.fill("#join-name", name)
    player.press("#join-name", "Enter")
    player.wait_for_url(f"**/play/{code}")
    player.wait_for_function("document.getElementById('you').textContent.includes('you play')")
    return player


def test_two_players_play_a_turn(browser: Any, server: ServerProcess, shots: Path) -> None:
    host, code = make_game(browser, server)
    ann = join_game(browser, server, code, "Ann <i>")
    bob = join_game(browser, server, code, "Bob")
    assert "Ann <i> (you play American 1" not in ann.inner_text("#you")  # a name is text, never markup
    assert ann.inner_text("#you").startswith("Ann <i>: you play American 1")
    assert ann.locator("#you i").count() == 0
    host.wait_for_function("document.querySelectorAll('#player-rows tr').length === 2")
    host.click("#start")
    ann.wait_for_selector(".decision")
    bob.wait_for_selector(".decision")
    ann.screenshot(path=str(shots / "player-orders.png"))
    host.screenshot(path=str(shots / "host.png"))
    # a refused order shows in the page and changes nothing
    ann.fill("#d0typed", "move A1 4 23")
    ann.locator("form.order-form").last.locator("button[type=submit]").click()
    wait_said(ann, "Refused")
    assert ann.locator(".decision").count() == 1
    # Ann moves by typed numbers: first the odds (none for a move), then commit
    ann.fill("#d0f0x", "4")
    y = float(ann.input_value("#d0f0y"))
    ann.fill("#d0f0y", f"{y + 2:g}")
    ann.locator("form.order-form").first.locator("button[type=button]").click()
    ann.wait_for_function("document.getElementById('preview').textContent.includes('allowed')")
    ann.locator("form.order-form").first.locator("button[type=submit]").click()
    wait_said(ann, "Done")
    # Bob uses the keyboard only: the menu's last choice (hold), then commit
    bob.focus("#d0c0")
    count = bob.locator("input[name=d0]").count()
    for _ in range(count - 1):
        bob.keyboard.press("ArrowDown")
    assert bob.locator("input[name=d0]:checked").get_attribute("value") == "hold A2"
    bob.keyboard.press("Tab")
    bob.keyboard.press("Enter")
    wait_said(bob, "Done")
    # the bots play A3 and the Germans; the turn goes on for everyone
    for p in (ann, bob, host):
        p.wait_for_function(
            "!document.getElementById('phase').textContent.includes('Americans act')"
            " || !document.getElementById('turn').textContent.endsWith(' 1')",
            timeout=30000,
        )
    events = bob.inner_text("#events")
    assert "A2 holds" in events or "A2" in bob.inner_text("#tables")
    # a reload keeps the seat (the token in the browser's storage)
    ann.reload()
    ann.wait_for_function("document.getElementById('you').textContent.includes('you play American 1')")
    assert ann.locator("tr.mine").count() >= 1
    assert ann.locator("#tables th", has_text="yours").count() >= 1  # her squad is in the squads table
    ann.screenshot(path=str(shots / "player-after-reload.png"), full_page=True)
    projector = page(browser)
    projector.goto(f"{server.url}/projector/{code}")
    projector.wait_for_selector("#svg svg")
    projector.wait_for_selector("#tables table")
    assert projector.locator("#tables th", has_text="yours").count() == 0  # a column blank for every row: left out
    assert projector.locator("#tables th", has_text="figures").count() == 1
    projector.screenshot(path=str(shots / "projector.png"))
    assert projector.locator(".die").count() > 0  # dice shown as dice
    assert len(list(shots.glob("*.png"))) == 4
    # the server killed and started again: the open pages reconnect by themselves, seat and all
    server.kill()
    ann.wait_for_function("document.getElementById('turn').textContent.startsWith('Reconnecting')")
    server.start()
    ann.wait_for_function("document.getElementById('turn').textContent.startsWith('Turn')", timeout=30000)
    ann.wait_for_function("document.getElementById('you').textContent.includes('you play American 1')")
    projector.wait_for_function("document.getElementById('turn').textContent.startsWith('Turn')", timeout=30000)


def _axe_source() -> str:
    if not AXE.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("axe-core is not installed and npm is missing (see .ci/run)")
        subprocess.run(
            [
                npm,
                "install",
                "--no-save",
                "--no-audit",
                "--no-fund",
                "--prefix",
                str(AXE.parents[2]),
                f"axe-core@{AXE_VERSION}",
            ],
            check=True,
            capture_output=True,
        )
    return AXE.read_text(encoding="utf-8")


def test_axe_wcag21_aa(browser: Any, server: ServerProcess) -> None:
    source = _axe_source()
    host, code = make_game(browser, server)
    player = join_game(browser, server, code, "Cy")
    host.click("#start")
    player.wait_for_selector(".decision")
    projector = page(browser)
    projector.goto(f"{server.url}/projector/{code}")
    projector.wait_for_selector("#svg svg")
    home = page(browser)
    home.goto(server.url + "/")
    over, _ = make_game(browser, server)  # bots on every seat, played to the end: the debrief
    over.click("#start")
    over.wait_for_selector("img.plot", timeout=60000)
    problems = {}
    pages = (("home", home), ("host", host), ("player", player), ("projector", projector), ("debrief", over))
    for name, p in pages:
        p.add_script_tag(content=source)
        result = p.evaluate(
            "async () => await axe.run(document, {runOnly: {type: 'tag', values: "
            "['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})"
        )
        found = [
            {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"][:3]]}
            for v in result["violations"]
        ]
        if found:
            problems[name] = found
    assert not problems, json.dumps(problems, indent=1)


def test_referee_types_the_dice(browser: Any, server: ServerProcess, shots: Path) -> None:
    """Referee mode: the host page asks for each roll, refuses impossible values, then hands the dice back."""
    host = page(browser)
    host.goto(server.url + "/")
    host.fill("#opt-omaha-germans", "1")
    host.check("#dice-manual")
    host.click("#create-form button[type=submit]")
    host.wait_for_url("**/host/*")
    host.wait_for_selector("#dice-panel:not([hidden])")
    assert host.inner_text("#dice-purpose").startswith("obstacles O1")
    host.fill("#dice-values", "9")
    host.press("#dice-values", "Enter")
    host.wait_for_function("document.getElementById('dice-problem').textContent.includes('not a face')")
    host.screenshot(path=str(shots / "referee-refused.png"))
    for k in range(4):
        host.wait_for_function(f"document.getElementById('dice-purpose').textContent.startsWith('obstacles O{k + 1}')")
        host.fill("#dice-values", "3")
        host.press("#dice-values", "Enter")
    host.wait_for_function("!document.getElementById('start').disabled")
    host.click("#start")  # every seat a bot: the landing rolls are asked for next
    host.wait_for_function("document.getElementById('dice-purpose').textContent.startsWith('landing A1')")
    host.fill("#dice-values", "2")
    host.press("#dice-values", "Enter")
    host.wait_for_function("document.getElementById('dice-purpose').textContent.startsWith('landing A2')")
    host.click("#dice-mode")  # waits for the action being rolled for (the landings) to finish
    host.fill("#dice-values", "5")
    host.press("#dice-values", "Enter")
    host.wait_for_function("document.getElementById('dice-purpose').textContent.startsWith('landing A3')")
    host.fill("#dice-values", "1")
    host.press("#dice-values", "Enter")
    host.wait_for_function("document.getElementById('dice-panel').hidden", timeout=20000)
    host.wait_for_function("parseInt(document.getElementById('turn').textContent.slice(5), 10) > 1", timeout=30000)


def test_join_from_the_room_page_choosing_a_side(browser: Any, server: ServerProcess) -> None:
    host, code = make_game(browser, server)
    gus = page(browser)
    gus.goto(f"{server.url}/play/{code}")  # the address of the QR code: no token yet, so the join form
    gus.wait_for_selector("#join-panel:not([hidden])")
    gus.fill("#pname", "Gus")
    gus.select_option("#pside", "german")
    gus.click("#player-join button[type=submit]")
    gus.wait_for_function("document.getElementById('you').textContent.includes('you play German 1')")
    host.wait_for_function("document.getElementById('player-rows').textContent.includes('German 1')")


def test_solo_b17_turn(browser: Any, server: ServerProcess, shots: Path) -> None:
    """A solo B-17 game: one person flies the fighters by typed numbers, the bots fly the bombers; the
    preview draws the path and the 4" rings in the picture and gives the exact odds; a refused move is
    explained in the page; the turn advances; the page passes the axe scan."""
    host = page(browser)
    host.goto(server.url + "/")
    host.select_option("#ruleset", "b17")
    host.click("#create-form button[type=submit]")
    host.wait_for_url("**/host/*")
    host.wait_for_selector("#seat-rows tr")
    code = host.url.rsplit("/", 1)[1]
    pilot = page(browser)
    pilot.goto(f"{server.url}/play/{code}")
    pilot.wait_for_selector("#join-panel:not([hidden])")
    pilot.fill("#pname", "Hans")
    pilot.select_option("#pside", "german")
    pilot.click("#player-join button[type=submit]")
    pilot.wait_for_function("document.getElementById('you').textContent.includes('you play German')")
    host.wait_for_function("!document.getElementById('start').disabled")
    host.click("#start")  # the bots fly the bombers
    pilot.wait_for_selector(".decision", timeout=30000)
    assert pilot.locator("tr.mine").count() >= 1  # own fighters marked in the table
    # the preview: typed distance and turn, the path and rings drawn on the table, the odds in words
    # straight on (a fighter enters flying into the table, so this path stays on it), off the 6" minimum
    # so that the point it ends at, clicked below, is not on the edge of what the rules allow, and halfway to
    # the longest move, so that the click there is not a tap on the fighter itself (within 14 px of it)
    least = float(pilot.get_attribute("#d0f0straight", "min") or 0)
    most = float(pilot.get_attribute("#d0f0straight", "max") or 0)
    pilot.fill("#d0f0straight", f"{max(min(least + 1, most), round((least + most) / 2)):g}")
    pilot.fill("#d0f0turn", "0")
    pilot.locator("form.order-form").first.locator("button[type=button]").click()
    pilot.wait_for_function("document.getElementById('preview').textContent.includes('allowed')")
    assert "Exact odds" in pilot.inner_text("#preview")
    assert "preview (not given)" in pilot.inner_text("#svg")
    assert pilot.locator("#svg polyline").count() >= 1
    pilot.screenshot(path=str(shots / "b17-preview.png"))
    ends = pilot.inner_text("#preview").split("ends at (")[1].split(")")[0]
    # a refused move, typed: its reason and rule in the page, nothing changed
    heading = pilot.inner_text("#d0-h")
    label = heading.split(":")[1].split()[0]
    pilot.fill("#d0typed", f"fly {label} 2 45")
    pilot.locator("#d0typed ~ button[type=button], form:has(#d0typed) button[type=button]").first.click()
    pilot.wait_for_function("document.getElementById('preview').textContent.includes('not allowed')")
    assert "b17.25" in pilot.inner_text("#preview")
    assert "preview (not given)" not in pilot.inner_text("#svg")  # the picture is the table as it is again
    pilot.press("#d0typed", "Enter")
    wait_said(pilot, "Refused")
    assert "b17.25" in pilot.inner_text("#message")
    assert pilot.inner_text("#d0-h") == heading
    # a click on the table at that end point fills the "fly to" form and previews the one path there
    x, y = (float(v) for v in ends.split(", "))

    def screen(x: float, y: float) -> list[float]:  # a point of the table, inches, on the screen
        return list(
            pilot.evaluate(
                "([x, y]) => window.grognardTable.screen(x, y)",
                [x, y],
            )
        )

    at = screen(x, y)
    pilot.mouse.click(at[0], at[1])
    pilot.wait_for_function("document.getElementById('preview').textContent.includes(' to ')")
    assert abs(float(pilot.input_value("#d0f1x")) - x) < 0.2 and abs(float(pilot.input_value("#d0f1y")) - y) < 0.2
    assert "allowed" in pilot.inner_text("#preview"), pilot.inner_text("#preview")
    assert pilot.inner_text("#message").startswith("Refused")  # nothing was given
    # a drag across the picture moves the point with the pointer; the preview is asked on release
    pilot.mouse.move(at[0] + 40, at[1] + 40)
    pilot.mouse.down()
    pilot.mouse.move(at[0] + 20, at[1] + 20, steps=4)
    pilot.mouse.move(at[0], at[1], steps=4)
    assert abs(float(pilot.input_value("#d0f1x")) - x) < 0.2
    pilot.mouse.move(*screen(x - 2, y), steps=2)  # on to 2" nearer the entry end, then let go
    dragged = pilot.input_value("#d0f1x")
    assert abs(float(dragged) - (x - 2)) < 0.2
    pilot.mouse.up()
    pilot.wait_for_function(f"document.getElementById('preview').textContent.includes('to {dragged} ')")
    # the axe scan of the page as the player sees it, preview and all
    pilot.add_script_tag(content=_axe_source())
    result = pilot.evaluate(
        "async () => await axe.run(document, {runOnly: {type: 'tag', values: "
        "['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})"
    )
    assert not result["violations"], json.dumps([(v["id"], v["nodes"][0]["target"]) for v in result["violations"]])
    # fly every fighter of this turn by typed numbers (Enter in a field commits), until the next turn
    turn = pilot.inner_text("#turn")  # the fighters enter on a die roll: not always on turn 1
    flown = 0
    for _ in range(12):
        pilot.wait_for_function(
            "(t) => document.querySelector('.decision') || document.getElementById('turn').textContent !== t",
            arg=turn,
            timeout=30000,
        )
        if pilot.inner_text("#turn") != turn:
            break
        pilot.fill("#d0f0straight", pilot.get_attribute("#d0f0straight", "max") or "14")
        pilot.fill("#d0f0turn", "0")
        pilot.press("#d0f0turn", "Enter")
        wait_said(pilot, "")  # the answer to it, whichever
        said = pilot.evaluate("() => window.grognardSaid()")
        assert said["lines"][0].startswith("Done"), said
        pilot.wait_for_function("(n) => window.grognardState().step >= n", arg=said["step"])  # and the state after it
        flown += 1
    assert flown >= 1
    pilot.wait_for_function("(t) => document.getElementById('turn').textContent !== t", arg=turn, timeout=30000)
    assert int(pilot.inner_text("#turn").split()[1]) == int(turn.split()[1]) + 1
    if pilot.locator(".decision").count():  # asked again in the new turn: last turn's "Done: fly ..." is gone
        assert not pilot.inner_text("#message").startswith("Done"), pilot.inner_text("#message")
    pilot.evaluate("window.scrollTo(0, 0)")  # the picture's column keeps in sight: at the top for a whole-page shot
    pilot.screenshot(path=str(shots / "b17-next-turn.png"), full_page=True)


def test_host_locks_the_room_and_removes_players_with_a_confirmation(
    browser: Any, server: ServerProcess, shots: Path
) -> None:
    """Lock the room (a new join is refused, saying the host locked it); Remove asks first (cancel keeps
    the player); the players without a seat are ticked and removed at once; the projector link gets in."""
    from grognard.web.testing import call

    host, code = make_game(browser, server)  # 4 seats
    names = ["Ann", "Bob", "Cy", "Di", "zz top", "xx", "Mr Nobody"]
    for name in names:
        assert call(server.url + f"/api/rooms/{code}/join", {"name": name})[0] == 200
    host.wait_for_function("document.querySelectorAll('#player-rows tr').length === 7")
    # Remove asks first: cancelled, nobody goes
    asked: list[str] = []
    host.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    host.click("text=Remove Ann")
    assert asked and "Ann" in asked[0]
    # tick those without a seat (the three who came after the seats were full) and remove them
    host.click("#select-unseated")
    ticked = host.eval_on_selector_all("#player-rows input[type=checkbox]:checked", "xs => xs.length")
    assert ticked == 3
    host.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    host.click("#remove-chosen")
    assert "3 players" in asked[-1] and "Mr Nobody" in asked[-1]
    host.wait_for_function("document.querySelectorAll('#player-rows tr').length === 4")
    assert "Ann" in host.inner_text("#player-rows")  # the cancelled removal removed nobody
    # lock: a new pupil is told why
    host.click("#lock")
    host.wait_for_function("document.getElementById('lock').textContent.startsWith('Unlock')")
    host.screenshot(path=str(shots / "host-locked.png"), full_page=True)
    late = page(browser)
    late.goto(server.url + "/")
    late.fill("#join-code", code)
    late.fill("#join-name", "Eve")
    late.press("#join-name", "Enter")
    late.wait_for_function("document.getElementById('message').textContent.includes('locked')")
    assert "host" in late.inner_text("#message")
    where = late.locator("#message").bounding_box()  # in sight, not below the long form for hosts
    assert where is not None and where["y"] + where["height"] <= 768
    host.click("#lock")
    host.wait_for_function("document.getElementById('lock').textContent.startsWith('Lock')")
    late.press("#join-name", "Enter")
    late.wait_for_url(f"**/play/{code}")
    # the host page's projector link carries the projector token; the page keeps it and drops it from the address
    link = host.get_attribute("#projector-link", "href")
    assert link is not None and "#" in link
    projector = page(browser)
    projector.goto(server.url + link)
    projector.wait_for_function("document.getElementById('turn').textContent.startsWith('Turn')")
    assert "#" not in projector.url
    for p in (host, late, projector):
        p.context.close()


def test_a_join_told_to_wait_tries_again_by_itself(browser: Any, tmp_path: Path) -> None:
    """Many joining at once from one address: the page says it will try again, and does, by itself.

    Joins from one address are a token bucket (1 a second, 12 at once). A script keeps it spent while the page
    joins; each of its joins takes a token, whatever the answer (the name is taken). The bucket refills all the
    same: a page that asked in the moment a token had come back got in without waiting, which proves nothing,
    so another pupil tries (on a loaded machine the 16 joins and the page's used to be a second apart, and the
    page got in)."""
    from grognard.web.testing import call

    with ServerProcess(tmp_path) as srv:  # its own server: the join limit spent here spends no other test's
        status, made = call(srv.url + "/api/rooms", {"ruleset": "omaha", "options": {"germans": 6}})
        assert status == 200
        code = made["code"]
        join_url = srv.url + f"/api/rooms/{code}/join"
        statuses = [call(join_url, {"name": f"Pupil {k}"})[0] for k in range(16)]
        assert statuses[-1] == 429
        spent = threading.Event()

        def keep_spent() -> None:  # a join every 50 ms: a token that comes back is taken within 50 ms
            while not spent.wait(0.05):
                call(join_url, {"name": "Pupil 0"})

        drain = threading.Thread(target=keep_spent, daemon=True)
        drain.start()
        try:
            for attempt in range(5):
                pupil = page(browser)
                pupil.goto(srv.url + "/")
                pupil.fill("#join-code", code)
                pupil.fill("#join-name", f"Zoe {attempt}")
                pupil.press("#join-name", "Enter")
                pupil.wait_for_function(
                    "document.getElementById('message').textContent.includes('trying again')"
                    " || location.pathname.startsWith('/play/')"
                )
                if "/play/" not in pupil.url:  # told to wait: the rest is the page's own doing
                    break
                pupil.context.close()  # in at once: a token had come back; another pupil tries
            else:
                raise AssertionError("five pages in a row got in at once: the joins were never spent")
        finally:
            spent.set()
            drain.join()
        pupil.wait_for_url(f"**/play/{code}")
        pupil.wait_for_function(f"document.getElementById('you').textContent.startsWith('Zoe {attempt}')")
        pupil.context.close()


def test_the_solo_and_host_pages_offer_the_levels_with_their_lines(
    browser: Any, server: ServerProcess, shots: Path
) -> None:
    """The home page's solo game offers the rule set's levels, weakest first, the line of the one chosen
    beside it; the game is made with its bots at that level; the host page offers the same levels for
    each side and seat, each side's line shown (issue 29, items 1 and 5)."""
    from grognard.bots import ladder
    from grognard.rulesets import get

    home = page(browser)
    home.goto(server.url + "/")
    for name in ("b17", "omaha"):
        home.select_option("#ruleset", name)
        offered = home.eval_on_selector_all("#solo-level option", "els => els.map(e => e.value)")
        assert offered == list(ladder.levels(get(name)))
        assert home.input_value("#solo-level") == "book"
        assert home.inner_text("#solo-level-note") == "book: " + ladder.note(get(name), "book")
    omaha = get("omaha")
    home.select_option("#solo-level", "normal")
    assert home.inner_text("#solo-level-note") == "normal: " + ladder.note(omaha, "normal")
    for width, height in ((1366, 768), (1920, 1080)):
        home.set_viewport_size({"width": width, "height": height})
        home.screenshot(path=str(shots / f"solo-levels-{width}.png"))
    home.fill("#opt-omaha-germans", "1")
    home.fill("#solo-name", "Ann")
    home.select_option("#solo-side", "american")
    home.click("#solo-start")
    home.wait_for_url("**/play/*")
    code = home.url.rsplit("/", 1)[1]
    home.goto(f"{server.url}/host/{code}")  # the solo player is the host too (the page keeps the token)
    home.wait_for_selector("#bot-german option", state="attached")
    assert home.input_value("#bot-german") == home.input_value("#bot-american") == "normal"
    assert home.eval_on_selector_all("#bot-german option", "els => els.map(e => e.value)") == [
        "beginner",
        "book",
        "normal",
        "hard",
    ]
    assert home.inner_text("#bot-german-note") == ladder.note(omaha, "normal")
    home.select_option("#bot-german", "hard")
    assert home.inner_text("#bot-german-note") == ladder.note(omaha, "hard")
    seat = home.locator("#seat-rows select[id^=seat-bot-]").first
    assert seat.evaluate("s => [...s.options].map(o => o.value)") == ["", "beginner", "book", "normal", "hard"]
    for width, height in ((1366, 768), (1920, 1080)):
        home.set_viewport_size({"width": width, "height": height})
        home.locator("#bot-names").scroll_into_view_if_needed()
        home.screenshot(path=str(shots / f"host-levels-{width}.png"))
    home.context.close()


def test_a_bot_s_line_and_its_bunker_tell_why(browser: Any, server: ServerProcess, shots: Path) -> None:
    """The bots' reasons (issue 31, item 2): a host starts an Omaha game, its seats bots but American 1's (so
    that each turn waits for him); on the projector's page a bunker's line in the feed opens its reason under
    "why?" (the rule it followed, the candidates it weighed), and a tap on that bunker on the table shows the
    reason of its latest order beside the pointer. Screenshots of each."""
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    context.set_default_timeout(30000)
    try:
        host = context.new_page()
        host.goto(server.url + "/")
        host.fill("#opt-omaha-germans", "1")
        host.click("#create-form button[type=submit]")
        host.wait_for_url("**/host/*")
        code = host.url.rsplit("/", 1)[1]
        host.wait_for_selector("#seat-rows tr")
        # one person plays American 1, so that the game waits for him each turn and the feed holds still
        ann = context.new_page()
        ann.goto(server.url + "/")
        ann.fill("#join-code", code.lower())
        ann.fill("#join-name", "Ann")
        ann.press("#join-name", "Enter")
        ann.wait_for_url(f"**/play/{code}")
        host.wait_for_function("document.querySelectorAll('#player-rows tr').length === 1")
        host.click("#start")
        ann.wait_for_selector(".decision")
        ann.fill("#d0typed", "hold A1")
        ann.locator("form.order-form").last.locator("button[type=submit]").click()
        wait_said(ann, "Done")
        projector = context.new_page()
        projector.goto(f"{server.url}/projector/{code}")
        projector.wait_for_selector("#svg svg")
        # a bunker's fire: its line in the feed carries its reason, folded under "why?" (turn 2 waits for Ann)
        projector.wait_for_function(
            "() => [...document.querySelectorAll('#events li')].some((li) => /bunker B\\d+ fires/.test(li.textContent)"
            " && li.querySelector('details.why'))"
        )
        line = projector.locator("#events li", has_text=re.compile(r"bunker B\d+ fires"))
        line = line.filter(has=projector.locator("details.why")).first
        bunker = re.search(r"bunker (B\d+) fires", line.inner_text()).group(1)  # type: ignore[union-attr]
        line.locator("details.why > summary").click()
        words = line.locator(".why-words")
        words.wait_for()
        said = words.inner_text()
        assert "rule: omaha.doctrine.concentrate" in said, said
        assert "furthest up the beach" in said and "(chosen)" in said, said
        # a state that brings no event leaves the feed's lines as they are (it drew them all anew: a line being
        # read was replaced under the reader, and this test's hold on it failed now and then)
        kept = projector.evaluate(
            """async () => {
              const first = document.querySelector('#events li');
              const panels = await import('/static/panels.js');
              const state = await import('/static/state.js');
              panels.drawPanels(state.S.last);
              return first.isConnected && document.querySelector('#events li') === first;
            }"""
        )
        assert kept, "the feed was drawn anew though no event came"
        line.scroll_into_view_if_needed()
        projector.screenshot(path=str(shots / "why-feed-1366.png"))
        # a tap on that bunker on the table: the reason of its latest order, beside the pointer
        projector.locator(f'#svg [data-id="{bunker}"]').first.click()
        projector.wait_for_function(
            "() => [...document.querySelectorAll('.why-words')].some((e) => !e.closest('#events'))"
        )
        told = projector.evaluate(
            "() => [...document.querySelectorAll('.why-words')]"
            ".find((e) => !e.closest('#events')).parentElement.innerText"
        )
        assert f"why {bunker} did this" in told and f"fire {bunker} " in told, told
        assert "rule: omaha.doctrine.concentrate" in told, told
        projector.screenshot(path=str(shots / "why-tap-1366.png"))
        projector.set_viewport_size({"width": 1920, "height": 1080})
        projector.screenshot(path=str(shots / "why-tap-1920.png"))
    finally:
        context.close()
