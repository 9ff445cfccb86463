"""The table is the page (issue 17): the browser draws the face's scene (static/table.js) and the player acts on
it, in Debian's Chromium (Playwright with ``executable_path``, never a Playwright download).

An Omaha squad moved by a tap and a refused tap that leaves the game as it was; a bunker's fire by a tap on
its target, the odds beside the pointer equal to the menu's; a B-17 fighter steered by a drag, its attack on a
bomber offered by a tap; zoom and pan by wheel, buttons and keys; the forms still the keyboard's way; the
axe scan clean with the pointer's box open; the state carries a scene in inches and no server picture.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browsers import CHROMIUM, needs_chromium, wait_said
from grognard.web.testing import ServerProcess, call

pytestmark = needs_chromium
pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("table")) as srv:
        yield srv


def test_the_browser_is_debians_chromium(browser: Any) -> None:
    """The tests drive /usr/bin/chromium (what a fresh CI machine has), not a browser Playwright downloaded."""
    debian = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True, timeout=60).stdout
    assert browser.version in debian.split(), (browser.version, debian)  # "Chromium 120.0.6099.224 built on Debian"


def solo(browser: Any, server: ServerProcess, ruleset: str, side: str, size: tuple[int, int] = (1366, 768)) -> Any:
    status, made = call(server.url + "/api/rooms", {"ruleset": ruleset, "solo": {"name": "Al", "side": side}})
    assert status == 200, made
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, bypass_csp=True)
    context.set_default_timeout(30000)
    context.add_init_script(f"localStorage.setItem('grognard:player:{made['code']}', '{made['token']}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"{server.url}{made['play_url']}")
    page.wait_for_selector("#svg svg.table")
    return page


def state(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("window.grognardState()"))


def shapes(page: Any, unit: str, held: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The scene's shapes of ``unit``, in the state the page holds (or in ``held``, a state read before)."""
    return [s for layer in (held or state(page))["scene"]["layers"] for s in layer["shapes"] if s.get("id") == unit]


def screen(page: Any, x: float, y: float) -> list[float]:
    return list(page.evaluate("([x, y]) => window.grognardTable.screen(x, y)", [x, y]))


def hit_at(page: Any, at: list[float]) -> str | None:
    """The id of the table's mark on top at screen point ``at`` (the one a tap there is on), or None."""
    found = page.evaluate(
        """([x, y]) => {
          const e = document.elementFromPoint(x, y);
          const g = e && e.closest ? e.closest("[data-id],[data-of]") : null;
          return g ? g.getAttribute("data-id") || g.getAttribute("data-of") : null;
        }""",
        at,
    )
    return None if found is None else str(found)


def wait_decision(page: Any, prefix: str, timeout: float = 60000) -> None:
    """Until the shown decision's id starts with ``prefix``, giving each other decision its menu's first."""
    for _ in range(40):
        page.wait_for_function(
            "() => window.grognardState() && (window.grognardState().decisions || []).length", timeout=timeout
        )
        ids = [d["id"] for d in state(page)["decisions"]]
        if any(i.startswith(prefix) for i in ids):
            return
        before = state(page)["version"]
        page.locator(".decision:not([hidden]) fieldset").first.locator("button").click()
        page.wait_for_function(f"() => window.grognardState().version > {before}")
    raise AssertionError(f"no decision {prefix!r}")


def tip(page: Any) -> str:
    page.wait_for_selector(".table-tip:not([hidden])")
    return str(page.inner_text(".table-tip"))


def axe_clean(page: Any) -> None:
    from test_web_browser import _axe_source

    page.add_script_tag(content=_axe_source())
    result = page.evaluate(
        "async () => await axe.run(document, {runOnly: {type: 'tag', values: "
        "['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})"
    )
    assert not result["violations"], json.dumps([(v["id"], v["nodes"][0]["target"]) for v in result["violations"]])


def test_an_omaha_squad_moves_by_a_tap_and_a_refused_tap_changes_nothing(
    browser: Any, server: ServerProcess, shots: Path
) -> None:
    page = solo(browser, server, "omaha", "american")
    wait_decision(page, "orders A1")
    s = state(page)
    assert "svg" not in s and "scene" in s  # the server sends the scene in inches, not a picture
    assert len(json.dumps(s["scene"])) < 60000
    squad = next(x for x in shapes(page, "A1") if x["kind"] == "figure")
    x, y = squad["x"], squad["y"]
    # its men are drawn round it (issue 30, item 5), one per figure; a finger on a man finds the squad under him
    units = next(layer["shapes"] for layer in s["scene"]["layers"] if layer["name"] == "units")
    at = units.index(squad)
    count = int(next(w["text"] for w in units[at + 1 :] if w.get("of") == "A1" and w.get("word") == "inside"))
    men = [m for m in units[at + 1 :] if m["kind"] != "text"][:count]  # its words are placed after it
    assert count >= 1 and [m["marker"] for m in men] == ["man"] * count
    found = "([x, y]) => { const g = document.elementFromPoint(x, y).closest('[data-id]'); return g && g.dataset.id; }"
    assert page.evaluate(found, screen(page, men[0]["x"], men[0]["y"])) == "A1"
    # a tap on the squad itself says what the table can do with it, and gives nothing
    page.mouse.click(*screen(page, x, y))
    words = tip(page)
    assert words.startswith("A1: ") and "Move A1 to a point" in words and "Commit" not in words, words
    page.click(".table-tip .tip-cancel")
    # too far a tap: refused with the rule, drawn as a refused line; no Commit; nothing changes
    page.mouse.click(*screen(page, x, y + 9))
    page.wait_for_function("() => document.querySelector('.table-tip .tip-head')")
    words = tip(page)
    assert "Not allowed" in words and "omaha.14" in words, words
    assert page.locator(".table-tip .tip-commit").count() == 0
    assert page.locator("#svg .p-path.refused").count() == 1
    page.screenshot(path=str(shots / "omaha-tap-refused.png"))
    page.click(".table-tip .tip-cancel")
    assert page.locator("#svg .p-path").count() == 0 and page.locator(".table-tip").is_hidden()
    assert not page.inner_text("#message").startswith("Done")  # nothing given (the bots' squads may move on)
    assert [(q["x"], q["y"]) for q in shapes(page, "A1") if q["kind"] == "figure"] == [(x, y)]
    # a tap within reach: the preview beside the pointer (path, cost, odds), then Commit gives it
    page.mouse.click(*screen(page, x + 0.5, y + 2))
    page.wait_for_selector(".table-tip .tip-commit")
    words = tip(page)
    assert words.startswith("move A1 ") and 'of 6" used' in words and "Exact odds: no dice" in words, words
    assert page.locator("#svg .p-path:not(.refused)").count() == 1
    order = words.splitlines()[0]
    tx, ty = (float(v) for v in order.split()[2:4])
    assert abs(tx - (x + 0.5)) < 0.1 and abs(ty - (y + 2)) < 0.1
    assert float(page.input_value("#d0f0x")) == tx and float(page.input_value("#d0f0y")) == ty  # the form too
    page.screenshot(path=str(shots / "omaha-tap-preview.png"))
    axe_clean(page)  # with the pointer's box open
    page.click(".table-tip .tip-commit")
    wait_said(page, f"Done: {order}")
    page.wait_for_function(
        "([x, y]) => window.grognardState().scene.layers.some((l) => l.shapes.some((s) => s.id === 'A1' &&"
        " s.kind === 'figure' && Math.abs(s.x - x) < 0.01 && Math.abs(s.y - y) < 0.01))",
        arg=[tx, ty],
    )
    # a scene drawn again keeps each layer whose shapes it left as they were, and makes anew the one it changed (in
    # one evaluation: no state of the bots' can come between)
    layers = page.evaluate(
        """() => {
          const table = window.grognardTable, scene = JSON.parse(JSON.stringify(window.grognardState().scene));
          table.draw(scene);
          document.querySelectorAll('#svg g.layer').forEach((g) => { g.dataset.before = 'kept'; });
          const moved = JSON.parse(JSON.stringify(scene));
          moved.layers.find((l) => l.name === 'units').shapes[0].x += 1;
          table.draw(moved);
          const drawn = document.querySelectorAll('#svg g.layer');
          return Array.from(drawn, (g) => [g.classList[1], g.dataset.before || 'new']);
        }"""
    )
    assert dict(layers) == {"layer-terrain": "kept", "layer-marks": "kept", "layer-units": "new", "layer-rings": "kept"}
    assert not page.errors, page.errors
    page.context.close()


def test_a_bunker_fires_by_a_tap_on_its_target_with_the_menus_odds(browser: Any, server: ServerProcess) -> None:
    page = solo(browser, server, "omaha", "german")
    wait_decision(page, "fire ", timeout=120000)
    held = state(page)  # one state read: the decision and the table it was asked on
    d = next(d for d in held["decisions"] if d["id"].startswith("fire "))
    # the page keeps showing the decision it showed (another bunker's, asked first): this one is chosen by its
    # button, and the table shows it before the tap (a CI run tapped with the other bunker's shown)
    tab = page.get_by_role("button", name=d["unit"]["id"], exact=True)
    control = next(c for c in d["controls"] if c["kind"] == "pick-target")
    squads = {t: next(x for x in shapes(page, t, held) if x["kind"] == "figure") for t in control["targets"]}
    near = sorted(squads, key=lambda t: abs(squads[t]["x"] - d["unit"]["x"]))  # in sight: the page shows its own
    from playwright.sync_api import TimeoutError as NoTip

    target = near[0]
    for _ in range(4):  # a tap that came as the table was drawn anew (CI runs: no tip in 30 s) is tapped again, as a
        if tab.count():  # person would, with the bunker's decision shown again first
            tab.click()
        page.wait_for_function("id => document.querySelector('svg.table').dataset.shown === id", arg=d["id"])
        # the nearest target whose own figure is on top where it is drawn (a CI run tapped a squad drawn under
        # another's figure, and the tap was the other's, no target: no tip in four tries)
        at = {t: screen(page, squads[t]["x"], squads[t]["y"]) for t in near}
        target = next((t for t in near if hit_at(page, at[t]) == t), near[0])
        page.mouse.click(*at[target])
        try:
            page.wait_for_selector(".table-tip:not([hidden])", timeout=8000)
            break
        except NoTip:
            continue
    words = tip(page)
    assert page.locator(".table-tip .tip-commit").count() == 1, (words, d["id"], target, squads[target])
    order = f"{d['id'].split()[0]} {d['unit']['id']} {target}"
    assert words.startswith(order), words
    menu = next(c for c in d["choices"] if c["text"] == order)
    assert menu["odds"] and f"Exact odds: {menu['odds']}" in words, (menu, words)
    shown = page.inner_text(".decision:not([hidden]) fieldset")  # the odds the menu shows, word for word
    assert menu["odds"] in shown
    before = state(page)["version"]
    page.click(".table-tip .tip-commit")
    # the order is taken: the game moves on (the "Done" line can be cleared at once when the next bunker's fire is
    # asked: a fresh-clone CI run waited 30 s for it in vain, the order taken)
    page.wait_for_function(f"() => window.grognardState().version > {before}")
    page.context.close()


def test_a_b17_fighter_is_steered_by_a_drag_and_offered_its_attacks_by_a_tap(
    browser: Any, server: ServerProcess, shots: Path
) -> None:
    page = solo(browser, server, "b17", "german")
    wait_decision(page, "move F")
    d = state(page)["decisions"][0]
    label = d["unit"]["id"]
    # a tap on a bomber: the menu's attacks on it beside the pointer, each with the menu's odds
    bomber = next(s for layer in state(page)["scene"]["layers"] for s in layer["shapes"] if s.get("cls") == "bomber")
    page.mouse.click(*screen(page, bomber["x"], bomber["y"]))
    page.wait_for_selector(".table-tip:not([hidden])")
    offered = page.locator(".table-tip button[data-order]").evaluate_all("bs => bs.map((b) => b.dataset.order)")
    menu = {c["text"]: c for c in d["choices"]}
    assert all(o in menu and f" attack {bomber['id']} " in o for o in offered), offered
    assert offered or "No order of the menu on " + bomber["id"] in tip(page)  # out of reach: said so
    for button in page.locator(".table-tip button[data-order]").all():
        assert menu[button.get_attribute("data-order")]["odds"] in button.inner_text()
    page.click(".table-tip .tip-cancel")
    # to where a move of the menu ends (a point the rules let it reach: the whole move
    # is flown, b17.29)
    # the menu's move flown furthest straight ahead (b17.25 asks 6" before a turn): a drag to its end, read
    # back from screen pixels, must not land on the edge of what the rules allow (6" and a turn would)
    ends = max((c for c in d["choices"] if "ends at (" in c["note"]), key=lambda c: float(c["text"].split()[2]))["note"]
    tx, ty = (float(v) for v in ends.split("ends at (")[1].split(")")[0].split(", "))
    way = 1 if ty < 30 else -1  # the drag comes from the table's middle side of that point
    sx, sy = screen(page, tx, ty + 4 * way)
    ex, ey = screen(page, tx, ty)
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move((sx + ex) / 2, (sy + ey) / 2, steps=5)
    page.mouse.move(ex, ey, steps=5)
    page.mouse.up()
    # the point is set at the drop; the tip may still show an answer asked on the way (the drag asks as it
    # goes), so the wait is for the answer about the point dropped on
    page.wait_for_function(  # the form is filled as the drop is handled (read at once, it was 0 once, loaded)
        "([x, y]) => Math.abs(parseFloat(document.getElementById('d0f1x').value) - x) < 0.3"
        " && Math.abs(parseFloat(document.getElementById('d0f1y').value) - y) < 0.3",
        arg=[tx, ty],
    )
    x, y = float(page.input_value("#d0f1x")), float(page.input_value("#d0f1y"))
    assert abs(x - tx) < 0.3 and abs(y - ty) < 0.3
    page.wait_for_function(
        f"() => {{ const t = document.querySelector('.table-tip'); return !t.hidden &&"
        f" t.textContent.includes('fly {label} to {x:g} {y:g}') }}"
    )
    words = tip(page)
    assert page.locator("#svg .p-path").count() == 1 and "preview (not given)" in page.inner_text("#svg")
    page.screenshot(path=str(shots / "b17-drag-preview.png"))
    assert "Exact odds:" in words and "Not allowed" not in words, words
    page.click(".table-tip .tip-commit")
    wait_said(page, f"Done: fly {label} to")
    assert not page.errors, page.errors
    page.context.close()


def test_zoom_and_pan_by_wheel_buttons_and_keys(browser: Any, server: ServerProcess) -> None:
    page = solo(browser, server, "b17", "american")
    svg = page.locator("#svg svg.table")

    def box() -> list[float]:
        return [float(v) for v in (svg.get_attribute("viewBox") or "").split()]

    whole = box()
    page.click("button[aria-label='zoom in']")
    closer = box()
    assert closer[2] < whole[2] * 0.8 and float(svg.get_attribute("data-zoom") or 0) > 1.2
    page.click("button[aria-label='move the view right']")
    assert box()[0] > closer[0]
    # the wheel zooms about the pointer: the table point under it stays under it
    mx, my = screen(page, 30, 30)
    page.mouse.move(mx, my)
    page.mouse.wheel(0, -400)
    page.wait_for_timeout(200)
    assert box()[2] < closer[2]
    assert all(abs(a - b) < 2 for a, b in zip(screen(page, 30, 30), (mx, my), strict=True))
    # the keys: 0 the whole table, + closer, an arrow across, - further
    svg.focus()
    page.keyboard.press("0")
    assert box() == whole
    page.keyboard.press("+")
    zoomed = box()
    assert zoomed[2] < whole[2]
    page.keyboard.press("ArrowLeft")
    assert box()[0] < zoomed[0]
    page.keyboard.press("-")
    assert box()[2] > zoomed[2]
    page.click("button[aria-label='show the whole table']")
    assert box() == whole
    page.context.close()


def test_the_forms_stay_the_keyboards_way(browser: Any, server: ServerProcess) -> None:
    page = solo(browser, server, "omaha", "american")
    wait_decision(page, "orders A1")
    squad = next(x for x in shapes(page, "A1") if x["kind"] == "figure")
    page.focus("#d0f0x")
    page.keyboard.press("Control+A")
    page.keyboard.type(f"{squad['x']:g}")
    page.focus("#d0f0y")
    page.keyboard.press("Control+A")
    page.keyboard.type(f"{squad['y'] + 1:g}")
    page.keyboard.press("Enter")
    wait_said(page, f"Done: move A1 {squad['x']:g} {squad['y'] + 1:g}")
    page.context.close()
