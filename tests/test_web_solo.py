"""Playing alone in the browser, in a real headless Chromium against the real server: the home page's
"Play solo" makes the game, seats the player on the side picked, gives every other seat to a bot and
starts it, all in one page. Then the B-17 raid as the bombers: before the box is placed no bomber is
drawn or listed as flying; with four bombers to move the page shows one bomber's controls at a time,
a tap on a bomber in the picture picks that bomber, and a click beyond it steers that one (never the
first listed); the tables fold. Screenshots at 1280x800 and 1366x768 go to ``$GROGNARD_SHOTS``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browsers import needs_chromium, wait_said
from grognard.web.store import Store
from grognard.web.testing import ServerProcess, call

SIZES = ((1280, 800), (1366, 768))

pytestmark = needs_chromium
pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("solo")) as srv:
        yield srv


def new_page(browser: Any, size: tuple[int, int]) -> Any:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, bypass_csp=True)
    context.set_default_timeout(30000)
    return context.new_page()


def aircraft_rows(page: Any) -> dict[str, dict[str, str]]:
    """The Aircraft table, read from the page: {label: {column: cell}}."""
    return dict(
        page.evaluate(
            """() => { const t = document.querySelector('#tables table');
            const cols = [...t.querySelectorAll('thead th')].map((th) => th.textContent);
            return [...t.querySelectorAll('tbody tr')].map((tr) => { const cells =
            [...tr.children].map((c) => c.firstChild ? c.firstChild.textContent : ''); return [cells[0],
            Object.fromEntries(cols.map((c, i) => [c, cells[i]]))]; }); }"""
        )
    )


def screen(page: Any, x: float, y: float) -> list[float]:
    """A point of the B-17 table (inches) on the screen, as the page's table (static/table.js) draws it."""
    return list(page.evaluate("([x, y]) => window.grognardTable.screen(x, y)", [x, y]))


def test_solo_refuses_a_side_that_does_not_exist_and_makes_no_game(server: ServerProcess) -> None:
    def rooms() -> int:  # the rooms in the server's database, read through its own Store
        store = Store(server.db)
        try:
            return len(store.load())
        finally:
            store.close()

    before = rooms()
    status, answer = call(server.url + "/api/rooms", {"ruleset": "b17", "solo": {"name": "Al", "side": "italian"}})
    assert status == 400 and answer["code"] == "bad_side" and "american, german" in answer["message"]
    status, answer = call(server.url + "/api/rooms", {"ruleset": "b17", "solo": {"name": "Al"}})  # no side
    assert status == 400 and answer["message"] == "solo.side: none given; pick a side: american, german", answer
    status, answer = call(
        server.url + "/api/rooms", {"ruleset": "b17", "dice": "manual", "solo": {"name": "Al", "side": "german"}}
    )
    assert status == 400 and answer["code"] == "solo_dice"
    assert rooms() == before


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_solo_b17_from_the_home_page_one_bomber_at_a_time(
    browser: Any, server: ServerProcess, shots: Path, size: tuple[int, int]
) -> None:
    page = new_page(browser, size)
    page.goto(server.url + "/")
    page.select_option("#ruleset", "b17")
    assert page.locator("#solo-side option").evaluate_all("os => os.map((o) => o.value)") == ["american", "german"]
    page.select_option("#solo-side", "american")
    page.fill("#solo-name", "Tibbets")
    page.click("#solo-start")
    page.wait_for_url("**/play/*")
    page.wait_for_function("document.getElementById('you').textContent === 'Tibbets: you play American'")
    # the box is placed first: until then no bomber is on the table, in the picture or in the list
    page.wait_for_selector(".decision")
    assert page.inner_text("#d0-h").startswith("American: place box 1")
    assert (
        page.evaluate("[...document.querySelectorAll('#svg text')].filter((t) => /^B\\d/.test(t.textContent)).length")
        == 0
    )
    rows = aircraft_rows(page)
    assert {rows[b]["status"] for b in ("B1", "B2", "B3", "B4")} == {"not yet placed"}
    assert all(rows[b]["x"] == "" for b in ("B1", "B2", "B3", "B4"))
    assert page.locator("details.fold[open]").count() == 0  # the tables fold on a player's page
    page.locator(".decision fieldset").first.locator("button").click()  # the menu's first box placement
    # the bombers' move (the bots flew the fighters): four at once, one bomber's controls at a time
    for _ in range(20):  # gunners' answers to a fighter come one at a time: the menu's first, until the move
        page.wait_for_function(
            "(t) => document.querySelector('.picker button') || (document.querySelector('.decision h3')"
            " && document.querySelector('.decision h3').textContent !== t)",
            arg=page.inner_text("#d0-h") if page.locator("#d0-h").count() else "",
            timeout=60000,
        )
        if page.locator(".picker button").count():
            break
        page.locator(".decision fieldset").first.locator("button").click()
    tabs = page.locator(".picker button").all_inner_texts()
    assert len(tabs) >= 2 and all(t.startswith("B") for t in tabs), tabs
    assert page.locator(".decision:visible").count() == 1
    rows = aircraft_rows(page)
    assert {rows[b]["status"] for b in tabs} == {"flying"}
    shown = page.locator(".decision:not([hidden])")
    words = shown.locator(".choice label").evaluate_all("ls => ls.map((l) => l.firstChild.textContent)")
    assert words and all(w == "Fly straight on" or " straight, then turn " in w for w in words), words
    hint = shown.locator("label[for$=typed]").inner_text()
    assert f"for example: fly {tabs[0]} " in hint and "e.g. fly F1" not in hint and "guns BOMBER" not in hint
    page.screenshot(path=str(shots / f"b17-solo-{size[0]}x{size[1]}.png"))
    # one bomber's controls, not four bombers' forms one under another: the box holds the picker and the form
    # shown, no more (it was held under twice the screen's height, and one form's height varies with the
    # game's dice by two or three lines: 1,425 to 1,631 px at 1280x800)
    whole, parts = page.evaluate(
        "() => { const box = document.getElementById('decisions'), p = box.querySelector('.picker');"
        " const h = (e) => (e ? e.getBoundingClientRect().height : 0);"
        " return [h(box), h(box.querySelector('.decision:not([hidden])')) + h(p)]; }"
    )
    assert whole <= parts + 40, (whole, parts)
    page.screenshot(path=str(shots / f"b17-solo-full-{size[0]}x{size[1]}.png"), full_page=True)

    # a tap on a bomber other than the first listed picks it: the one with the clearest air a move ahead
    def ahead_of(label: str) -> tuple[float, float]:  # straight on, heading 0: its whole move (b17.25)
        return float(rows[label]["x"]) + float(rows[label]["moves"].rstrip('"')), float(rows[label]["y"])

    def clear_ahead(label: str) -> float:
        ax, ay = ahead_of(label)
        others = [r for b, r in rows.items() if b != label and r["x"]]
        return min(((float(r["x"]) - ax) ** 2 + (float(r["y"]) - ay) ** 2) ** 0.5 for r in others)

    target = max(tabs[1:], key=clear_ahead)
    assert clear_ahead(target) > 3.0  # 24 px: beyond the 18 px ring of any other aircraft
    x, y = float(rows[target]["x"]), float(rows[target]["y"])
    page.mouse.click(*screen(page, x, y))
    page.wait_for_function(
        "(b) => document.querySelector('.decision:not([hidden]) h3').textContent.includes(b)", arg=target
    )
    assert page.locator(".picker button[aria-pressed=true]").inner_text() == target
    # then a click ahead of it steers that bomber: its own "fly to" form is filled and previewed
    section = page.locator(".decision:not([hidden])")
    k = section.locator("h3").get_attribute("id")[1:-2]
    assert rows[target]["heading"] == "0"
    ahead = ahead_of(target)
    page.mouse.click(*screen(page, *ahead))
    page.wait_for_function(f"document.getElementById('preview').textContent.includes('fly {target} to ')")
    assert abs(float(page.input_value(f"#d{k}f1x")) - ahead[0]) < 0.2
    page.screenshot(path=str(shots / f"b17-solo-preview-{size[0]}x{size[1]}.png"))
    page.locator(f"#d{k}f1x").press("Enter")  # commit that one
    wait_said(page, f"Done: fly {target} to")
    page.wait_for_function(
        "(b) => ![...document.querySelectorAll('.picker button')].some((t) => t.textContent === b)", arg=target
    )
    page.context.close()
