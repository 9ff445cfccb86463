"""The table is the page (issue 17) on a Chromebook's screen: a player's page at 1280x800 and 1366x768 shows
the whole skirmish table at its start, larger than the old layout's 11 px an inch, with the tools, the key,
the header and the side panel in sight and the page itself not scrolling; the side panel folds away by the
header's button and the table grows into its room (a long table: B-17's)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browsers import needs_chromium
from grognard import rulesets
from grognard.core.record import replay
from grognard.web.testing import ServerProcess, call

pytestmark = needs_chromium
GOLDEN = Path(__file__).resolve().parent / "golden"
pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("layout")) as srv:
        yield srv


def player(browser: Any, server: ServerProcess, body: dict[str, Any], size: tuple[int, int]) -> Any:
    status, made = call(server.url + "/api/rooms", {"solo": {"name": "Al", "side": "allies"}, **body})
    assert status == 200, made
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.add_init_script(f"localStorage.setItem('grognard:player:{made['code']}', '{made['token']}')")
    page = context.new_page()
    page.goto(f"{server.url}{made['play_url']}")
    page.wait_for_selector("#svg svg.table .layer-units", state="attached")
    page.wait_for_selector(".decision")
    return page


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return dict(found)


@pytest.mark.parametrize("size", [(1280, 800), (1366, 768)], ids=["1280x800", "1366x768"])
def test_the_skirmish_table_fills_a_chromebooks_screen(
    browser: Any, server: ServerProcess, size: tuple[int, int]
) -> None:
    page = player(browser, server, {"ruleset": "skirmish", "options": {"scenario": "village_street"}}, size)
    width, height = size
    assert page.evaluate("document.documentElement.scrollHeight") <= height  # the page does not scroll
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert box(page, "header")["height"] <= 40  # one slim line
    table = box(page, "#svg svg.table")
    assert table["y"] + table["height"] <= height and table["x"] + table["width"] <= width
    assert table["height"] >= height - 80  # the height left under the header
    # the whole 48" table in sight at the start, at 13 px an inch or more (11 before issue 17); 14 and more when
    # no man waits off its edge (test_a_48_inch_table_at_14_px_an_inch: the room's dice decide whether the axis' last
    # section waits off the north edge, in sight above it)
    per_inch = page.evaluate("window.grognardTable.perInch()")
    assert per_inch >= 13, per_inch
    corners = [page.evaluate(f"window.grognardTable.screen({x}, {y})") for x, y in ((0, 0), (48, 48))]
    for x, y in corners:
        assert table["x"] <= x <= table["x"] + table["width"] and table["y"] <= y <= table["y"] + table["height"]
    # the tools and the key beside the table, the orders in the side panel, all in sight
    for selector in ("button[aria-label='zoom in']", ".table-key .key-item", "#side-toggle", ".decision h3"):
        found = box(page, selector)
        assert found["y"] >= 0 and found["y"] + found["height"] <= height, selector
    assert box(page, ".table-tools")["x"] + box(page, ".table-tools")["width"] <= table["x"]
    page.context.close()


def test_a_48_inch_table_at_14_px_an_inch(browser: Any, server: ServerProcess) -> None:
    """castle_storm's men all start on its 48" x 48" table: at 1366x768 it is drawn at 14 px an inch or more (13.7
    before issue 30: the scenario's title took 2.5" above the north edge; it runs along the west edge now, where a
    square table has width to spare), so a man's 1" base is 14 px across."""
    page = player(browser, server, {"ruleset": "skirmish", "options": {"scenario": "castle_storm"}}, (1366, 768))
    per_inch = page.evaluate("window.grognardTable.perInch()")
    assert per_inch >= 14, per_inch
    base = page.locator("svg.table .layer-units circle.base").first.bounding_box()
    assert base is not None and base["width"] >= 14 * 0.98, base  # a man's base at its true size, 1"
    corners = [page.evaluate(f"window.grognardTable.screen({x}, {y})") for x, y in ((0, 0), (48, 48))]
    table = box(page, "#svg svg.table")
    for x, y in corners:  # the whole table in sight
        assert table["x"] <= x <= table["x"] + table["width"] and table["y"] <= y <= table["y"] + table["height"]
    page.context.close()


def test_the_side_panel_folds_away_and_the_table_grows(browser: Any, server: ServerProcess) -> None:
    page = player(browser, server, {"ruleset": "b17", "solo": {"name": "Al", "side": "american"}}, (1280, 800))
    toggle = page.locator("#side-toggle")
    assert toggle.get_attribute("aria-expanded") == "true"
    before, narrow = box(page, "#svg svg.table"), page.evaluate("window.grognardTable.perInch()")
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "false" and toggle.inner_text() == "Show the side panel"
    assert not page.locator("#side").is_visible()
    grown = "w => document.querySelector('#svg svg.table').getBoundingClientRect().width > w"
    page.wait_for_function(grown, arg=before["width"] + 200)
    wide = page.evaluate("window.grognardTable.perInch()")
    assert wide > narrow * 1.2, (narrow, wide)  # a long table: the width was what limited it
    toggle.click()
    assert page.locator("#side .decision").first.is_visible()
    assert toggle.get_attribute("aria-expanded") == "true"
    page.context.close()


def test_the_win_bar_shows_each_side_in_its_colour_on_the_table(browser: Any, server: ServerProcess) -> None:
    """The allies' part of "Who is winning?" is the allies' colour on the table, the axis' part the axis'
    (a child reads the blue bar as the blue men)."""
    page = player(browser, server, {"ruleset": "skirmish", "options": {"scenario": "village_street"}}, (1366, 768))
    page.wait_for_selector("#odds-bar .odds-a", state="attached", timeout=60000)  # once the first estimate is in
    seen = page.evaluate(
        """() => {
        const fill = (id) => {
          const g = document.querySelector(`svg.table .layer-units g[data-id="${id}"]`);
          const shape = g && g.querySelector("[fill]");
          return shape ? shape.getAttribute("fill") : null;
        };
        return {
          allies: fill("A.1"), axis: fill("G.1"),
          bar: document.querySelector("#odds-bar .odds-a").getAttribute("fill"),
          hatch: document.querySelector("#odds-bar pattern rect").getAttribute("fill"),
        };
      }"""
    )
    assert seen["allies"] and seen["axis"] and seen["allies"] != seen["axis"], seen
    assert (seen["bar"], seen["hatch"]) == (seen["allies"], seen["axis"]), seen
    page.context.close()


DRAWN = """() => {
  const svg = window.grognardTable.element, perInch = window.grognardTable.perInch();
  const box = (n) => { const b = n.getBBox(); return {x: b.x, y: b.y, w: b.width, h: b.height}; };
  const words = Array.from(svg.querySelectorAll(".layers text")).map((n) => Object.assign(box(n), {
    text: n.textContent, of: n.parentNode.getAttribute("data-of"),
    px: parseFloat(n.getAttribute("font-size")) * perInch}));
  const marks = Array.from(svg.querySelectorAll(".layer-marks g[data-id], .layer-units g[data-id]"))
    .filter((g) => !g.classList.contains("t-ring") && g.firstElementChild.tagName !== "text")  // marks, not words
    .map((g) => Object.assign(box(g.firstElementChild), {id: g.getAttribute("data-id")}));
  return {words, marks};
}"""


def _met(a: dict[str, Any], b: dict[str, Any]) -> bool:
    across = a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"]
    return bool(across and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"])


def _overlapping(drawn: dict[str, Any]) -> list[tuple[str, str]]:
    words, marks = drawn["words"], drawn["marks"]
    found = [(a["text"], b["text"]) for k, a in enumerate(words) for b in words[k + 1 :] if _met(a, b)]
    return found + [(a["text"], m["id"]) for a in words for m in marks if a["of"] != m["id"] and _met(a, m)]


def _crowded_beach() -> dict[str, Any]:
    """The spectators' scene of the golden Omaha game with two Germans at its 195th action (turn 18: six squads
    at the sea wall under the bunkers, sections cleared beside sections still blocked)."""
    face = rulesets.get("omaha").face
    assert face is not None
    seen: list[dict[str, Any]] = []

    def keep(game: Any) -> bool:
        seen.append(game.view(None))
        return len(seen) > 195

    replay(GOLDEN / "omaha-g2-seed2-optional-rules.jsonl", rulesets.get, until=keep)
    return face.scene(json.loads(json.dumps(seen[-1])), ())


def test_the_words_drawn_on_omahas_table_lie_on_no_other_word_nor_on_a_mark(
    browser: Any, server: ServerProcess, shots: Any
) -> None:
    """The words on Omaha's beach at 1366x768, as Chromium lays them out (getBBox of each drawn <text>): none lies
    on another, none on a squad or a bunker not its own, and none is drawn smaller than 8 px (issue 30: "B10 4B11 4",
    "A18" over "B18 4", "clear" over "sea wall" at 1366x768). The page places nothing: these are the places
    core/placement.py gave them."""
    page = player(browser, server, {"ruleset": "omaha", "solo": {"name": "Al", "side": "american"}}, (1366, 768))
    drawn = page.evaluate(DRAWN)  # a player's first sight: their zone's stretch of the beach
    words = drawn["words"]
    assert len(words) > 40 and len(drawn["marks"]) > 10, drawn
    assert not _overlapping(drawn)
    assert min(w["px"] for w in words) >= 8, sorted(words, key=lambda w: w["px"])[:3]
    page.screenshot(path=str(shots / "omaha-1366x768-words.png"))
    page.evaluate("(scene) => window.grognardTable.draw(scene)", _crowded_beach())  # the whole beach, mid-game
    drawn = page.evaluate(DRAWN)
    assert len(drawn["words"]) > 30 and not _overlapping(drawn), _overlapping(drawn)
    page.screenshot(path=str(shots / "omaha-1366x768-words-crowded.png"))
    page.context.close()
