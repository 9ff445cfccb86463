"""The table editor in a real headless Chromium (issue 32, items 1-3): a small table drawn from nothing by clicks
and drags (a building with a door, a wall, a river with a bridge, two units a side), a problem seen and mended,
the file saved and read back by the game; markup typed shown as text; a file too large refused in one line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browsers import needs_chromium
from grognard.rulesets.skirmish.scenario import load_scenario
from grognard.web.testing import ServerProcess

pytestmark = needs_chromium
pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("editor-browser")) as srv:
        yield srv


def editor(browser: Any, server: ServerProcess, width: int = 1366, height: int = 768, touch: bool = False) -> Any:
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=touch, accept_downloads=True, bypass_csp=True
    )
    context.set_default_timeout(20000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(server.url + "/editor")
    page.wait_for_selector("main[data-checked]")
    return page


def at(page: Any, x: float, y: float) -> tuple[float, float]:
    """The screen point of table point (x, y) inches."""
    sx, sy = page.evaluate(f"window.grognardEditor.screen({x}, {y})")
    return float(sx), float(sy)


def settled(page: Any) -> list[dict[str, Any]]:
    """The problems once the check of the last edit is drawn."""
    page.wait_for_function("String(window.grognardEditor.checked()) === document.querySelector('main').dataset.checked")
    page.wait_for_timeout(300)  # the debounce: an edit just made is asked after it
    page.wait_for_function("String(window.grognardEditor.checked()) === document.querySelector('main').dataset.checked")
    return list(page.evaluate("window.grognardEditor.problems()"))


def drag(page: Any, a: tuple[float, float], b: tuple[float, float]) -> None:
    page.mouse.move(*at(page, *a))
    page.mouse.down()
    for k in range(1, 6):
        page.mouse.move(*at(page, a[0] + (b[0] - a[0]) * k / 5, a[1] + (b[1] - a[1]) * k / 5))
    page.mouse.up()


def click(page: Any, x: float, y: float) -> None:
    page.mouse.click(*at(page, x, y))


def test_a_table_drawn_from_nothing_is_checked_mended_saved_played_and_balanced(
    browser: Any, server: ServerProcess, tmp_path: Path
) -> None:
    page = editor(browser, server)
    assert [p["field"] for p in settled(page)] == ["units"]  # a blank table: no units yet
    page.click("[data-tool=building]")
    drag(page, (8, 28), (16, 36))
    page.click("#ed-add-doors")
    click(page, 12, 28.2)  # the door goes on the wall nearest the tap
    page.click("[data-tool=stone_wall]")
    click(page, 22, 30)
    click(page, 32, 30)
    click(page, 32, 30)  # the last point again: the wall is done
    page.click("[data-tool=river]")
    drag(page, (0, 20), (48, 20))
    page.click("[data-tool=bridge]")
    drag(page, (40, 8), (40, 13))  # a bridge short of the river
    page.click("[data-tool=men]")
    page.fill("#ed-men-count", "3")
    for x, y, side in ((6, 6, "allies"), (26, 6, "allies"), (6, 42, "axis"), (26, 42, "axis")):
        page.select_option("#ed-men-side", side)
        click(page, x, y)
    problems = settled(page)
    assert [p["field"] for p in problems] == ["terrain[3].line"], problems
    assert "meets none" in problems[0]["text"] and page.locator("#ed-problems li").count() == 1
    assert page.locator(".ed-over .ed-problem").count() == 1  # drawn where it lies
    assert page.locator("#ed-play-note").is_visible()  # why Play is off
    page.click("[data-tool=pick]")
    drag(page, (40, 10.5), (40, 20))  # the bridge moved onto the river: mended
    assert settled(page) == []
    assert page.inner_text("#ed-status") == "checked: no problems, it can be played"
    assert not page.locator("#ed-play-note").is_visible()  # it said so beside a table that could be played
    data = page.evaluate("window.grognardEditor.data()")
    kinds = [t["kind"] for t in data["terrain"]]
    assert kinds == ["building", "stone_wall", "river", "bridge"]
    assert len(data["terrain"][0]["doors"]) == 1 and len(data["units"]) == 4
    page.keyboard.press("Control+z")  # undone: the bridge back where it was drawn, its problem again
    assert [p["field"] for p in settled(page)] == ["terrain[3].line"]
    page.keyboard.press("Control+y")
    assert settled(page) == []
    page.click("[data-tool=objective]")  # the square north of the river, to be taken
    drag(page, (20, 36), (28, 44))
    assert page.evaluate("window.grognardEditor.data().victory.objectives") == ["obj1"]
    page.click("text=Add a plan")  # the bots' plan for the allies: A and B go for the objective
    page.fill("#ed-form input[id$='-groups-0-units']", "A, B")
    page.press("#ed-form input[id$='-groups-0-units']", "Tab")
    assert [p["field"] for p in settled(page)] == ["plans"]  # one plan alone: the bot would have no choice
    page.click("text=Add a plan")  # a second: A holds
    page.fill("#ed-form input[id$='-1-name']", "a-holds")
    page.press("#ed-form input[id$='-1-name']", "Tab")
    page.fill("#ed-form input[id$='-1-groups-0-units']", "A")
    page.press("#ed-form input[id$='-1-groups-0-units']", "Tab")
    page.select_option("#ed-form select[id$='-1-groups-0-task']", "hold")
    assert settled(page) == []
    data = page.evaluate("window.grognardEditor.data()")
    assert data["plans"][0]["groups"] == [{"units": ["A", "B"], "task": "objective"}]
    assert data["plans"][1]["groups"] == [{"units": ["A"], "task": "hold"}]
    with page.expect_download() as got:
        page.click("#ed-download")
    path = tmp_path / "drawn.toml"
    got.value.save_as(path)
    scenario = load_scenario(str(path))  # what grognard play skirmish FILE.toml reads
    assert [p.kind for p in scenario.spec.terrain] == kinds and len(scenario.spec.units) == 4
    assert [p.name for p in scenario.spec.plans] == ["plan", "a-holds"]
    page.reload()  # the draft is the server's: back as it was
    page.wait_for_selector("main[data-checked]")
    assert page.evaluate("window.grognardEditor.data()") == data
    # the table drawn, played: one game of the book against the book to its end (its replay linked), then a
    # small balance run with each side's chance
    page.click("#ed-test")
    page.wait_for_selector("#ed-run a.trial-replay", timeout=120000)
    assert "One game, the book against the book (seed " in page.inner_text("#ed-run")
    page.fill("#ed-games", "4")
    page.click("#ed-balance")
    page.wait_for_selector("#ed-run[data-run='done']", timeout=120000)
    words = page.inner_text("#ed-run")
    assert "4 of 4 games (done)" in words and "95% interval" in words, words
    assert page.errors == []
    page.context.close()


def test_markup_is_text_and_a_file_too_large_is_refused_in_one_line(browser: Any, server: ServerProcess) -> None:
    page = editor(browser, server, 1280, 800, touch=True)
    page.fill("#ed-f-0", "<b>Bold</b><img src=x onerror=\"document.title='owned'\">")
    page.press("#ed-f-0", "Tab")
    settled(page)
    assert page.inner_text("#ed-title") == "\u2014 <b>Bold</b><img src=x onerror=\"document.title='owned'\">"
    assert page.inner_text("header h1").startswith("Table editor \u2014 <b>Bold</b>")  # not run together
    assert page.locator("header b, header img").count() == 0 and page.title() != "owned"
    page.click("[data-tool=men]")
    page.touchscreen.tap(*at(page, 10, 10))  # a finger places men as a mouse does
    before = page.evaluate("window.grognardEditor.data()")
    assert len(before["units"]) == 1
    big = {"name": "big.toml", "mimeType": "text/plain", "buffer": b"#" * 1_000_000}
    page.set_input_files("#ed-file", files=[big])
    page.wait_for_selector("#message.error")
    message = page.inner_text("#message")
    assert message.startswith("error: big.toml: 1000000 bytes; a scenario file has at most") and "\n" not in message
    assert page.evaluate("window.grognardEditor.data()") == before
    page.context.close()


def tap(page: Any, x: float, y: float) -> None:
    page.touchscreen.tap(*at(page, x, y))


def test_keys_alone_draw_and_a_finger_places_the_scenarios_parts(browser: Any, server: ServerProcess) -> None:
    page = editor(browser, server, 1280, 800, touch=True)
    page.click("#ed-new")
    page.click("[data-tool=woods]")
    page.focus("svg.table")
    for key in ["ArrowRight"] * 8 + ["Space"] + ["ArrowUp"] * 8 + ["Space"] + ["ArrowLeft"] * 8 + ["Space", "Enter"]:
        page.keyboard.press(key)
    woods = page.evaluate("window.grognardEditor.data().terrain[0]")
    (x0, y0), (x1, y1), (x2, y2) = woods["shape"]
    assert woods["kind"] == "woods" and (x1 - x0, y1 - y0, x2 - x1, y2 - y1) == (0, 4, -4, 0), woods
    page.keyboard.press("Escape")  # back to picking
    page.keyboard.press("n")  # the woods picked
    page.keyboard.press("ArrowRight")
    assert page.evaluate("window.grognardEditor.data().terrain[0].shape[0]") == [x0 + 0.5, y0]
    page.keyboard.press("r")
    turned = page.evaluate("window.grognardEditor.data().terrain[0].shape")
    assert turned[0] != [x0 + 0.5, y0]
    page.keyboard.press("Control+z")
    assert page.evaluate("window.grognardEditor.data().terrain[0].shape[0]") == [x0 + 0.5, y0]

    page.click("[data-tool=building]")
    drag(page, (30, 30), (38, 34))
    page.select_option("#ed-p-storeys", "2")
    page.fill("#ed-p-points", "12")
    page.press("#ed-p-points", "Tab")
    house = page.evaluate("window.grognardEditor.data().terrain[1]")
    assert house["sections"][0]["storeys"] == [{"points": 12}, {"points": 12}]
    page.click("#ed-split")
    assert len(page.evaluate("window.grognardEditor.data().terrain[1].sections")) == 2
    page.select_option("#ed-p-storeys-1", "2")  # the second roof over two storeys
    assert len(page.evaluate("window.grognardEditor.data().terrain[1].sections[1].storeys")) == 2

    page.select_option("#ed-men-side", "allies")
    page.click("[data-tool='machine:vehicles']")
    tap(page, 20, 8)
    page.click("[data-tool=men]")
    page.fill("#ed-men-count", "2")  # with its crew of two, as many as a jeep carries
    tap(page, 4, 4)
    page.select_option("#ed-p-rides", "V1")
    page.click("[data-tool=railway]")
    drag(page, (0, 44), (48, 44))
    page.fill("#ed-p-train", "2")
    page.press("#ed-p-train", "Tab")
    page.select_option("#ed-men-side", "axis")
    page.click("[data-tool=men]")
    tap(page, 10, 30)
    page.fill("#ed-p-drop", "1")
    page.press("#ed-p-drop", "Tab")
    data = page.evaluate("window.grognardEditor.data()")
    assert data["vehicles"][0]["passengers"] == ["B"] and data["train"] == {"railway": "RA1", "enters": 2}
    assert data["drops"] == [{"unit": "C", "move": 1}]
    assert all(f["at"] == data["vehicles"][0]["at"] for f in data["units"][1]["figures"])  # aboard: at the vehicle
    problems = settled(page)
    assert problems == [], problems
    assert page.errors == []
    page.context.close()


def test_every_shipped_scenario_opened_in_the_page_saves_back_to_the_same_scenario(
    browser: Any, server: ServerProcess, tmp_path: Path
) -> None:
    """Each shipped scenario opened by the page's own "Open a shipped one" and saved by "Download the file": the
    file reads back to the shipped file's data and plays as the shipped one (bench/fingerprint.py's hash of a
    doctrine game on the same dice). Its digest may differ: the page's numbers are JavaScript's (24.0 is 24)."""
    from grognard.rulesets.skirmish import editor as E
    from grognard.rulesets.skirmish.scenario import SCENARIOS_DIR, shipped
    from grognard.rulesets.skirmish.tables import read_toml
    from test_editor import fingerprint_module

    fp = fingerprint_module()
    page = editor(browser, server)
    for name, _ in shipped():
        page.select_option("#ed-shipped", name)
        page.click("#ed-open-shipped")
        page.wait_for_function(
            "n => window.grognardEditor.data().name === n && document.getElementById('ed-status')"
            ".textContent.startsWith('checked: no problems')",
            arg=name,
        )
        with page.expect_download() as got:
            page.click("#ed-download")
        path = tmp_path / f"{name}.toml"
        got.value.save_as(path)
        assert E.read(path.read_text(encoding="utf-8")) == read_toml(SCENARIOS_DIR / f"{name}.toml"), name
        shipped_hash, _ = fp.fingerprint("skirmish", {"scenario": name}, 1, 3, 1)
        saved_hash, _ = fp.fingerprint("skirmish", {"scenario": str(path)}, 1, 3, 1)
        assert saved_hash == shipped_hash, name
    assert page.errors == []
    page.context.close()
