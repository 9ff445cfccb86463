"""The pages as a class uses them, in a real headless Chromium (Playwright, Debian's ``chromium``).

The projector shows how to join (address, room code, QR code) in the lobby and on demand; the board's
labels stay readable on a projector with 28 seats; the player's page never keeps stale text (an
order's "Done" after the next question, "Waiting for" after the end, a missing "paused"); the home page
hosts any shipped skirmish scenario and its columns do not overlap at 1280 px; the referee's dice entry
comes first and a refusal says "Refused" once; a game of each rule set on the projector at 1280x800 and
1366x768 is one screen: the room code large in the header, the table, who is winning and the count in sight.
Screenshots go to ``GROGNARD_SHOTS`` when it is set.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import conftest
from browsers import at_chromebook_sizes, font_px, in_sight, needs_chromium, one_line, one_screen
from grognard.rulesets.skirmish.scenario import shipped
from grognard.web.testing import ServerProcess, call

SHOTS = os.environ.get("GROGNARD_SHOTS")

pytestmark = needs_chromium
pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("pages")) as srv:
        yield srv


def page(browser: Any, width: int = 1366, height: int = 768) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    context.set_default_timeout(20000)
    return context.new_page()


def shot(p: Any, name: str, **kw: Any) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        p.screenshot(path=str(Path(SHOTS) / f"{name}.png"), **kw)


def make_game(browser: Any, server: ServerProcess, germans: int = 1, manual: bool = False) -> tuple[Any, str]:
    host = page(browser)
    host.on("dialog", lambda d: d.accept())
    host.goto(server.url + "/")
    host.fill("#opt-omaha-germans", str(germans))
    if manual:
        host.check("#dice-manual")
    host.click("#create-form button[type=submit]")
    host.wait_for_url("**/host/*")
    host.wait_for_selector("#seat-rows tr")
    return host, host.url.rsplit("/", 1)[1]


def join(browser: Any, server: ServerProcess, code: str, name: str, side: str = "") -> Any:
    player = page(browser)
    player.goto(f"{server.url}/play/{code}")
    player.wait_for_selector("#join-panel:not([hidden])")
    player.fill("#pname", name)
    if side:
        player.select_option("#pside", side)
    player.click("#player-join button[type=submit]")
    player.wait_for_function("document.getElementById('you').textContent.includes('you play')")
    return player


def text_is(p: Any, element: str, start: str) -> None:
    p.wait_for_function("([id, t]) => document.getElementById(id).textContent.startsWith(t)", arg=[element, start])


def orders_say(p: Any, words: str) -> None:
    """Wait until the player's "Your orders" section says ``words``."""
    p.wait_for_function("(t) => document.getElementById('decisions').parentNode.textContent.includes(t)", arg=words)


def orders_text(p: Any) -> str:
    return str(p.evaluate("document.getElementById('decisions').parentNode.textContent"))


def hold(p: Any) -> str:
    """Commit the menu's last choice (hold) of the first decision; returns the order."""
    p.wait_for_selector(".decision")
    order = p.locator("input[name=d0]").last.get_attribute("value")
    p.locator("input[name=d0]").last.check()
    turn = p.inner_text("#turn")
    p.locator(".decision fieldset button[type=button]").first.click()
    # "Done" shows until the next decision arrives; bots may bring it (a new turn) before a poll sees "Done"
    p.wait_for_function(
        "([t, turn]) => document.getElementById('message').textContent.startsWith(t)"
        " || document.getElementById('turn').textContent !== turn",
        arg=["Done: " + order, turn],
    )
    return order


# ---------------------------------------------------------------- stale text on the player's page


def test_done_goes_when_the_next_decision_arrives(browser: Any, server: ServerProcess) -> None:
    host, code = make_game(browser, server)
    ann = join(browser, server, code, "Ann")
    host.wait_for_function("!document.getElementById('start').disabled")
    host.click("#start")
    order = hold(ann)
    # the bots play the other seats; the next turn asks Ann again: last turn's "Done" is not news any more,
    # the line says the question is new and what was done before it
    ann.wait_for_function("document.getElementById('turn').textContent === 'Turn 2'", timeout=60000)
    ann.wait_for_selector(".decision")
    ann.wait_for_timeout(500)  # a late redraw would have put it back
    message = ann.inner_text("#message")
    assert message == f"Turn 2 now: your next order. (Done before: {order}.)", message


def test_idle_text_follows_pause_take_back_and_end(browser: Any, server: ServerProcess) -> None:
    host, code = make_game(browser, server)
    ann = join(browser, server, code, "Ann")
    join(browser, server, code, "Bob")
    host.wait_for_function("document.querySelectorAll('#player-rows tr').length === 2")
    host.click("#start")
    # both people owe an order (the bot's A3 may have gone already): Ann's hold is then the last action
    ann.wait_for_function(
        "document.getElementById('waiting').textContent === 'Waiting for: American 1 (Ann), American 2 (Bob)'"
    )
    order = hold(ann)
    orders_say(ann, "Waiting for: American 2")
    # paused while Ann has nothing to decide: the page says so (the decision list stayed empty)
    host.click("#pause")
    orders_say(ann, "The game is paused.")
    assert "Waiting for" not in orders_text(ann)
    assert ann.inner_text("#message") == ""  # the order's "Done" went with the play
    host.click("#pause")
    orders_say(ann, "Waiting for: American 2")
    # the host takes Ann's order back (which pauses the game): her question is asked again, no "Done"
    host.wait_for_function("!document.getElementById('undo').disabled")
    host.click("#undo")
    orders_say(ann, "The game is paused.")
    host.wait_for_function("document.getElementById('pause').textContent === 'Resume'")
    host.click("#pause")
    ann.wait_for_selector(".decision")
    assert not ann.inner_text("#message").startswith("Done"), ann.inner_text("#message")
    assert "Waiting for" not in orders_text(ann) and "paused" not in orders_text(ann)
    # Ann holds again and waits; the host ends the game: no "Waiting for" after the end
    assert hold(ann) == order
    orders_say(ann, "Waiting for: American 2")
    host.click("#end")
    orders_say(ann, "The host ended the game.")
    assert "Waiting for" not in ann.inner_text("#main")
    assert ann.inner_text("#message") == ""


# ---------------------------------------------------------------- the home page


def test_home_hosts_any_shipped_scenario_and_fits_1280(browser: Any, server: ServerProcess) -> None:
    home = page(browser, 1280, 800)
    home.goto(server.url + "/")
    # the rule-set select stays in its column: the Join column is not covered
    chooser = home.locator("#ruleset").bounding_box()
    joining = home.locator("#join-h").bounding_box()
    assert chooser["x"] + chooser["width"] <= joining["x"], (chooser, joining)
    assert home.evaluate("document.documentElement.scrollWidth") <= 1280
    shot(home, "home-1280")
    home.select_option("#ruleset", "skirmish")
    scenario = home.locator("#opt-skirmish-scenario")
    assert scenario.evaluate("e => e.tagName") == "SELECT"
    offered = scenario.locator("option").evaluate_all("os => os.map(o => o.value)")
    assert offered == [name for name, _ in shipped()]
    assert scenario.input_value() == "hill_assault"  # the rule set's default, selected
    home.select_option("#opt-skirmish-scenario", "village_street")
    assert home.locator("#opt-skirmish-plan").input_value() == ""  # the bots' plan: none unless asked
    home.select_option("#opt-skirmish-plan", "random")
    home.click("#create-form button[type=submit]")
    home.wait_for_url("**/host/*")
    home.wait_for_selector("#svg svg")
    title = dict(shipped())["village_street"]
    assert title in home.inner_text("#svg")
    # the host's choice reached the room: each side's plan committed after the start line (issue 31, item 1)
    committed = [line for line in conftest.stored_lines(server.db) if line.get("type") == "plan"]
    assert sorted(line["side"] for line in committed) == ["allies", "axis"]


def test_a_scenario_not_shipped_is_refused(server: ServerProcess) -> None:
    """The web takes only the scenarios offered: never a file on the server named by a host."""
    for name in ("/etc/passwd", "../scenarios/village_street.toml", "nowhere"):
        status, answer = call(server.url + "/api/rooms", {"ruleset": "skirmish", "options": {"scenario": name}})
        assert status == 400, answer
        assert answer["message"].startswith(f"option 'scenario': {name!r} is not one of castle_storm")
    status, answer = call(server.url + "/api/rooms", {"ruleset": "skirmish", "options": {"scenario": "convoy"}})
    assert status == 200, answer
    listed = {r["name"]: r for r in call(server.url + "/api/rulesets")[1]}
    spec = next(o for o in listed["skirmish"]["options"] if o["name"] == "scenario")
    assert spec["offered"] == [name for name, _ in shipped()]


# ---------------------------------------------------------------- the referee


def test_referee_dice_entry_first_and_refusal_said_once(browser: Any, server: ServerProcess) -> None:
    host, _ = make_game(browser, server, manual=True)
    host.wait_for_selector("#dice-panel:not([hidden])")
    # in sight without scrolling on a 1366x768 screen, and before the QR code and the settings
    box = host.locator("#dice-values").bounding_box()
    assert box["y"] + box["height"] <= 768, box
    assert host.evaluate("window.scrollY") == 0
    order = host.evaluate(
        "['dice-values', 'qr', 'settings'].map(id => document.getElementById(id))"
        ".map(e => e.compareDocumentPosition(document.getElementById('qr')))"
    )
    assert order[0] & 4, "the dice entry comes before the QR code"  # DOCUMENT_POSITION_FOLLOWING
    host.fill("#dice-values", "9")
    host.press("#dice-values", "Enter")
    text_is(host, "message", "Refused")
    text_is(host, "dice-problem", "Refused")  # from the next state
    assert host.inner_text("#message") == "Refused: 9 is not a face of a d6; type the roll again"
    assert host.inner_text("#dice-problem") == "Refused: 9 is not a face of a d6"
    assert "refused: refused" not in host.inner_text("body").lower()
    shot(host, "referee-refused")


# ---------------------------------------------------------------- the projector


def test_projector_shows_how_to_join_in_the_lobby_and_on_demand(browser: Any, server: ServerProcess) -> None:
    host, code = make_game(browser, server)
    projector = page(browser)
    projector.goto(f"{server.url}/projector/{code}")
    projector.wait_for_selector("#svg svg")
    info = projector.locator("#join-info")
    assert info.is_visible()
    assert projector.inner_text("#join-address") == f"{server.url}/play/{code}"
    assert projector.inner_text(".room-code") == code
    # readable from the back of a classroom: the code a tenth of the screen high, the QR code 40%, all in sight
    assert projector.locator(".room-code").bounding_box()["height"] >= 0.1 * 768
    qr = projector.locator(".join-qr")
    assert qr.evaluate("img => img.complete && img.naturalWidth > 0")
    box = qr.bounding_box()
    assert box["height"] >= 0.4 * 768 and box["y"] + box["height"] <= 768 and box["x"] + box["width"] <= 1366
    assert projector.evaluate("document.documentElement.scrollWidth") <= 1366
    assert "grognard serve --lan" in projector.inner_text("#join-info")  # 127.0.0.1: only this computer
    shot(projector, "projector-lobby-1366x768")
    _axe_clean(projector)
    # the game starts (and waits for Ann: it does not end meanwhile): the table instead; J or the button
    # shows how to join again, J or Escape hides it
    join(browser, server, code, "Ann")
    host.wait_for_function("!document.getElementById('start').disabled")
    host.click("#start")
    projector.wait_for_function("document.getElementById('join-info').hidden")
    toggle = projector.locator("#join-toggle")
    assert toggle.get_attribute("aria-expanded") == "false" and toggle.inner_text() == "How to join (J)"
    projector.keyboard.press("j")
    assert info.is_visible() and toggle.get_attribute("aria-expanded") == "true"
    shot(projector, "projector-play-join-1366x768")
    projector.keyboard.press("j")
    assert not info.is_visible()
    toggle.click()
    assert info.is_visible()
    projector.keyboard.press("Escape")
    assert not info.is_visible()


def _axe_clean(p: Any) -> None:
    """The page as it is passes axe-core's WCAG 2.1 A and AA rules (axe as test_web_browser installs it)."""
    from test_web_browser import _axe_source

    p.add_script_tag(content=_axe_source())
    result = p.evaluate(
        "async () => await axe.run(document, {runOnly: {type: 'tag', values: "
        "['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})"
    )
    assert not result["violations"], [(v["id"], v["nodes"][0]["target"]) for v in result["violations"]]


def _label_heights(p: Any, pattern: str) -> list[float]:
    return list(
        round(height, 2)
        for height in p.evaluate(
            "(re) => Array.from(document.querySelectorAll('#svg svg text'))"
            ".filter(t => new RegExp(re).test(t.textContent)).map(t => t.getBoundingClientRect().height)",
            pattern,
        )
    )  # to the hundredth of a pixel: a 14 px word measured 13.99997 once (the browser's float, not a smaller word)


def test_board_readable_from_the_back_row_with_28_seats(browser: Any, server: ServerProcess) -> None:
    host, code = make_game(browser, server, germans=7)  # 21 Americans and 7 Germans
    ann = join(browser, server, code, "Ann")
    host.click("#start")
    ann.wait_for_selector(".decision")
    projector = page(browser)
    projector.goto(f"{server.url}/projector/{code}")
    projector.wait_for_selector("#svg svg text")
    projector.wait_for_function("(document.getElementById('join-info') || {hidden: true}).hidden")
    # the table fills the screen: its width, or the height left under the header
    svg = projector.locator("#svg svg.table").bounding_box()
    header = projector.locator("header").bounding_box()
    assert svg["width"] >= 0.9 * 1366 or svg["height"] >= 0.9 * (768 - header["height"]), svg
    assert svg["y"] + svg["height"] <= 768, "the whole table in sight"
    squads = _label_heights(projector, "^A[0-9]+$")
    figures = _label_heights(projector, "^[0-9]+$")
    bunkers = _label_heights(projector, "^B[0-9]+ [0-9]+$")
    zones = _label_heights(projector, "^Z[0-9]+$")
    assert len(squads) == 21 and len(zones) == 21 and bunkers
    for name, heights in (("squad", squads), ("figures", figures), ("bunker", bunkers), ("zone", zones)):
        assert min(heights) >= 14, f"{name} labels {min(heights):.1f} px high on a 1366x768 projector"
    shot(projector, "projector-play-1366x768")
    _axe_clean(projector)
    # a player's page at 1366x768 and 1280x800: the table beside the orders, the labels still legible
    assert min(_label_heights(ann, "^A[0-9]+$")) >= 9
    shot(ann, "player-1366x768")
    ann.set_viewport_size({"width": 1280, "height": 800})
    ann.wait_for_timeout(300)
    assert min(_label_heights(ann, "^A[0-9]+$")) >= 8
    assert ann.evaluate("document.documentElement.scrollWidth") <= 1280
    shot(ann, "player-1280x800")
    # the player's own squad is ringed round its (larger) marker, not inside it
    ring = ann.locator("#svg .mine circle").first
    squad = ann.locator(f"#svg .t-squad[data-id='{ring.evaluate('r => r.parentNode.dataset.id')}'] circle").first
    assert float(ring.get_attribute("r") or 0) > 1.2 * float(squad.get_attribute("r") or 1)


def test_b17_aircraft_labels_readable_on_the_projector(browser: Any, server: ServerProcess) -> None:
    host = page(browser)
    host.goto(server.url + "/")
    host.select_option("#ruleset", "b17")
    host.click("#create-form button[type=submit]")
    host.wait_for_url("**/host/*")
    code = host.url.rsplit("/", 1)[1]
    join(
        browser, server, code, "Hans", "german"
    )  # a person flies the fighters: the raid waits for him, it does not end
    host.wait_for_function("!document.getElementById('start').disabled")
    host.click("#start")
    projector = page(browser)
    projector.goto(f"{server.url}/projector/{code}")
    projector.wait_for_function(
        "Array.from(document.querySelectorAll('#svg svg text')).some(t => /^B[0-9]+$/.test(t.textContent))",
        timeout=30000,
    )
    heights = _label_heights(projector, "^[BF][0-9]+( bombed)?$")
    assert heights and min(heights) >= 14, f"aircraft labels {min(heights):.1f} px high on a 1366x768 projector"
    shot(projector, "projector-b17-1366x768")


PROJECTED = {"omaha": ({}, "american"), "b17": ({}, "american"), "skirmish": ({"scenario": "village_street"}, "allies")}


@pytest.mark.parametrize("name", list(PROJECTED))
def test_the_projector_in_play_is_one_screen(browser: Any, server: ServerProcess, name: str) -> None:
    """A game under way (Al's seat waits for him) on the projector at 1280x800 and 1366x768 (and 1920x1080,
    its words larger): the page does not
    scroll; the title is one line (the skirmish's long one cut short) and the room code in it is large; the
    whole table, the win bar and its words, the line of the chances and the count are in sight together (the
    square skirmish table ran off the bottom of the screen, and B-17's and Omaha's odds were below it)."""
    options, side = PROJECTED[name]
    body = {"ruleset": name, "options": options, "solo": {"name": "Al", "side": side}}
    status, made = call(server.url + "/api/rooms", body)
    assert status == 200, made
    projector = page(browser, 1280, 800)
    projector.goto(f"{server.url}/projector/{made['code']}")
    projector.wait_for_selector("#odds-bar .odds-a", state="attached", timeout=90000)  # the first estimate
    projector.wait_for_function("document.getElementById('join-info').hidden")
    projector.wait_for_selector("#odds-line svg", state="visible")
    for width, height in at_chromebook_sizes(projector):
        one_screen(projector)
        one_line(projector, ".projector-head .head-title")
        code = in_sight(projector, ".projector-head .code")
        assert projector.inner_text(".projector-head .code") == made["code"]
        size = font_px(projector, ".projector-head .code")
        assert size >= 32 and code["height"] >= 32, (size, code)  # twice the page's words: read from the back
        table = in_sight(projector, "#svg svg.table")
        assert table["height"] * table["width"] >= 0.35 * height * width, table  # the most of the screen
        if projector.get_attribute("#svg", "data-long") == "true":  # a whole beach: across the screen
            assert table["width"] >= 0.9 * width, table
        for selector in ("#odds-labels", "#odds-bar svg", "#figures dt", "#odds-line svg"):
            in_sight(projector, selector)
        labels = projector.evaluate(  # found and measured in one evaluation: they are drawn anew at each estimate
            "() => Array.from(document.querySelectorAll('.odds-side'))"
            ".map(e => [parseFloat(getComputedStyle(e).fontSize), e.scrollWidth <= e.clientWidth])"
        )
        assert len(labels) == 2 and all(px >= 24 and fits for px, fits in labels), labels
        # the line's words as large as the page's own, none past its picture's edge (it is drawn again at the
        # width of its box when that changes: the long table's columns come after the first estimate)
        projector.wait_for_function(
            "() => { const b = document.getElementById('odds-line'), s = b.querySelector('svg');"
            " return s && Math.abs(s.viewBox.baseVal.width - Math.max(280, b.clientWidth)) <= 2; }"
        )
        # the picture and its words measured at one moment (a state may draw the line anew between two calls)
        line, words = projector.evaluate(  # eval_on_selector finds, then measures: two calls
            "() => { const s = document.querySelector('#odds-line svg'), r = s.getBoundingClientRect();"
            " return [[r.left, r.right], Array.from(s.querySelectorAll('text'))"
            ".map(t => { const q = t.getBoundingClientRect(); return [q.left, q.right, q.height]; })]; }"
        )
        assert words and all(h >= 16 and a >= line[0] and b <= line[1] + 1 for a, b, h in words), (line, words)
        shot(projector, f"projector-{name}-{width}x{height}")
    # a 1920x1080 projector: the words grow with the screen (20 px up to 1540 px wide), the line's with them
    projector.set_viewport_size({"width": 1920, "height": 1080})
    one_screen(projector)
    assert font_px(projector, "#figures dt") >= 24 and font_px(projector, ".projector-head .code") >= 40
    projector.wait_for_function(
        "() => Array.from(document.querySelectorAll('#odds-line svg text'))"
        ".every(t => t.getBoundingClientRect().height >= 24)"
    )
    in_sight(projector, "#odds-line svg")
    projector.context.close()
