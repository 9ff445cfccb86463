"""The skirmish table's drags in a real headless Chromium (Debian's): one man picked and dragged alone (by a
finger: touch is the pointer events' same path), a refused path snapping back with the rule named; a MG's wedge
aimed by a drag from the gunner and a mortar's template laid by a drag and turned, every man under them ringed
and each man's exact chance of death the one ``grognard odds skirmish`` prints; the ranging shot drawn where it
fell (tests/skirmish_fire_range.toml, the referee's dice typed on the host page)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from browsers import needs_chromium, referee_types
from grognard.core.words import percent
from grognard.web.testing import ServerProcess
from test_web_skirmish_browser import centre, commit_menu, drag, new_page, seated, snap, tip
from test_web_table import axe_clean

pytestmark = needs_chromium
pytest.importorskip("playwright.sync_api")

RANGE = (Path(__file__).parent / "skirmish_fire_range.toml").read_text(encoding="utf-8")
UPLOAD = {"upload": {"name": "fire_range.toml", "text": RANGE}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("skirmish-drag")) as srv:
        yield srv


def odds_row(table: str, parameter: str) -> float:
    """The chance of 'dead' in one row of ``grognard odds skirmish --json``."""
    done = subprocess.run(
        [sys.executable, "-m", "grognard.cli", "odds", "skirmish", "--json"], capture_output=True, text=True, check=True
    )
    rows = next(t for t in json.loads(done.stdout)["tables"] if t["name"] == table)["rows"]
    row = next(r for r in rows if r["parameter"] == parameter)
    return float(next((o["decimal"] for o in row["outcomes"] if o["outcome"] == "dead"), 0.0))


def finger_drag(page: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    """A drag with one finger (Chromium's touch events, turned into pointer events of type touch)."""
    a = page.evaluate(f"window.grognardTable.screen({start[0]}, {start[1]})")
    b = page.evaluate(f"window.grognardTable.screen({end[0]}, {end[1]})")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": a[0], "y": a[1]}]})
    for k in range(1, 9):
        x, y = a[0] + (b[0] - a[0]) * k / 8, a[1] + (b[1] - a[1]) * k / 8
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def tap(page: Any, at: tuple[float, float]) -> None:
    point = page.evaluate(f"window.grognardTable.screen({at[0]}, {at[1]})")
    page.mouse.click(point[0], point[1])


def show(page: Any, decision: str) -> None:
    """Show decision ``decision`` (by its button above the orders while there are several; the buttons go
    when the orders owed change, so it is tried until the decision is the one shown)."""
    for _ in range(100):
        if page.get_attribute("svg.table", "data-shown") == decision:
            return
        button = page.locator(".picker").get_by_role("button", name=decision.split()[1], exact=True)
        if button.count():
            try:
                button.first.click(timeout=1000)
            except Exception:  # rebuilt under the pointer: try again
                pass
        page.wait_for_timeout(150)
    raise AssertionError(f"{decision} never shown: {page.get_attribute('svg.table', 'data-shown')!r}")


def exact(line: str) -> Fraction:
    """A man's chance of dying as the pointer's box gives it ('... dead 42% (7/16)'): the exact fraction, checked
    against the percentage beside it."""
    found = re.search(r"dead (\S+) \((\S+)\)$", line)
    assert found, line
    dead = Fraction(found.group(2))
    assert found.group(1) == percent(dead), line
    return dead


def tip_with(page: Any, *words: str) -> str:
    """The pointer's box once it says every one of ``words`` (its text on failure)."""
    try:
        page.wait_for_function(
            "ws => { const t = document.querySelector('.table-tip'); return t && !t.hidden"
            " && ws.every(w => t.innerText.includes(w)); }",
            arg=list(words),
        )
    except Exception as e:
        raise AssertionError(f"{words} not in the tip: {page.inner_text('.table-tip')!r}") from e
    return str(page.inner_text(".table-tip"))


def test_one_man_picked_and_dragged_alone_by_a_finger(browser: Any, server: ServerProcess, shots: Path) -> None:
    """Ann taps A.3 (picked, ringed), drags him 14" (refused: the rule named, his ghost sent back, nobody
    moved), then 4" by a finger: the path's length and cost are shown, Commit moves A.3 alone."""
    game = seated(browser, server, dict(UPLOAD), touch=True)
    ann = game["allies"]
    show(ann, "move A")
    leader, gunner, rifleman = centre(ann, "A.1"), centre(ann, "A.2"), centre(ann, "A.3")
    tap(ann, rifleman)
    words = tip(ann, "A.3 is picked")
    assert "acts alone" in words
    ann.wait_for_selector("svg.table .drag-layer .d-picked[data-picked='A.3']", state="attached")
    axe_clean(ann)  # a man picked, his box open
    drag(ann, rifleman, (rifleman[0], rifleman[1] + 14))  # 14": past a man's 6"
    words = tip_with(ann, "Not allowed", "A.3")
    assert re.search(r"\(skirmish\.\d+\)", words), words
    ann.wait_for_selector("svg.table .p-path.refused", state="attached")
    ann.wait_for_function("() => !document.querySelector('svg.table .d-ghost')")  # snapped back and gone
    assert centre(ann, "A.3") == rifleman
    snap(ann, shots, "skirmish-man-refused")
    finger_drag(ann, rifleman, (rifleman[0] + 1, rifleman[1] + 4))
    order = f"move A / A.3 to {rifleman[0] + 1:g},{rifleman[1] + 4:g}"
    words = tip_with(ann, order, "Commit")
    found = re.search(r'Path ([0-9.]+)", costs ([0-9.]+)" of his move, ([0-9.]+)" left', words)
    assert found, words
    assert float(found.group(1)) == pytest.approx((1 + 16) ** 0.5, abs=0.06)
    assert float(found.group(2)) == pytest.approx(float(found.group(1)), abs=0.06)  # open ground: cost = length
    assert float(found.group(3)) == pytest.approx(6 - float(found.group(2)), abs=0.06)
    label = ann.text_content("svg.table .preview-layer text.p-label") or ""
    assert f'{float(found.group(1)):.1f}" walked, costs {float(found.group(2)):.1f}"' in label, label
    snap(ann, shots, "skirmish-man-drag")
    ann.locator(".table-tip .tip-commit").click()
    ann.wait_for_function(
        "y => { const g = document.querySelector('svg.table .layer-units g[data-id=\"A.3\"] circle');"
        " return g && Math.abs(-g.getAttribute('cy') - y) < 0.05; }",
        arg=rifleman[1] + 4,
    )
    assert centre(ann, "A.3") == pytest.approx((rifleman[0] + 1, rifleman[1] + 4), abs=0.01)
    assert (centre(ann, "A.1"), centre(ann, "A.2")) == (leader, gunner)  # the rest of A stayed


def both_hold(ann: Any, axel: Any) -> None:
    """Ann holds A and M, Axel holds G: the fire phase comes with nobody moved."""
    show(ann, "move A")
    commit_menu(ann, "hold A")
    show(ann, "move M")
    commit_menu(ann, "hold M")
    axel.wait_for_selector(".decision input[value='hold G']")
    commit_menu(axel, "hold G", wait=False)


def referee(host: Any, value: str) -> int:
    """The host types ``value`` for every roll asked until none is; how many were typed."""
    typed = 0
    for _ in range(60):
        if referee_types(host, value):
            typed += 1
        elif typed:
            return typed
        else:
            host.wait_for_timeout(250)
    return typed


def test_a_wedge_and_a_template_placed_by_drag_and_the_ranging_shot_drawn(
    browser: Any, server: ServerProcess, shots: Path
) -> None:
    """Both sides hold their moves; Ann drags from the MG man to aim his wedge (the Germans under it ringed,
    each one's chance of death that of wedge_mg in the odds command), lays the mortar's template by a drag,
    turns it, sees each man under it with under_mortar's figure; the referee's 1s land the shell: the table
    draws the template where it landed, the aim point and the ranging die, as the event says."""
    game = seated(browser, server, {"dice": "manual", **UPLOAD})
    ann, axel, host = game["allies"], game["axis"], game["host"]
    both_hold(ann, axel)
    # the wedge: a drag from the gunner to the German line
    show(ann, "fire A")
    gunner = centre(ann, "A.2")
    drag(ann, gunner, (18.0, 22.0))
    words = tip_with(ann, "fire A hold / A.2 wedge 18,22", "Under it", "Commit")
    ann.wait_for_function("() => document.querySelectorAll('svg.table .p-ring.under').length >= 4")
    ringed = ann.eval_on_selector_all("svg.table .p-ring.under", "l => l.map(c => c.dataset.under)")
    lines = dict(re.findall(r"(G\.\d): (0-18\" open: dead \S+ \(\S+\))", words))
    assert set(ringed) == set(lines) >= {"G.1", "G.2", "G.3", "G.4"}, (ringed, words)
    for line in lines.values():
        assert float(exact(line)) == pytest.approx(odds_row("wedge_mg", '0-18" open'), abs=5e-5)
    assert "4 dice" in words or "5 dice" in words
    snap(ann, shots, "skirmish-wedge")
    ann.locator(".table-tip .tip-commit").click()
    # the template: laid by a drag, turned 15 degrees by the button beside the pointer
    show(ann, "burst M.1")
    drag(ann, (12.0, 16.0), (18.0, 22.0))
    tip_with(ann, "burst M.1 18,22", "turned 0 degrees", "Under it", "Commit")
    ann.locator(".table-tip .tip-left").click()
    words = tip_with(ann, "burst M.1 18,22 15", "Under it", "Commit")
    assert ann.input_value(".decision:not([hidden]) form.order-form input[name='angle']") == "15"
    lands = re.search(r"lands on 3 or less: (\S+) \((\S+)\)", words)
    assert lands and (lands.group(1), Fraction(lands.group(2))) == ("50%", Fraction(1, 2)), words
    lines = dict(re.findall(r"(G\.\d): (12-30\" no cover: dead \S+ \(\S+\))", words))
    ringed = ann.eval_on_selector_all("svg.table .p-ring.under", "l => l.map(c => c.dataset.under)")
    assert lines and set(ringed) == set(lines), (ringed, words)
    for line in lines.values():
        assert float(exact(line)) == pytest.approx(odds_row("under_mortar", '12-30" no cover'), abs=5e-5)
    snap(ann, shots, "skirmish-template")
    axe_clean(ann)  # with the men under the template ringed and the turning buttons open
    ann.keyboard.press("]")  # the key turns it back, as the other button would
    tip_with(ann, "burst M.1 18,22", "turned 0 degrees", "Commit")
    assert ann.input_value(".decision:not([hidden]) form.order-form input[name='angle']") == "0"
    ann.locator(".table-tip .tip-commit").click()
    axel.wait_for_selector(".decision input[value='fire G hold']")
    commit_menu(axel, "fire G hold", wait=False)
    assert referee(host, "1") >= 1  # a 1: the ranging shot lands (3 or less), every effect die misses
    ann.wait_for_selector("svg.table .layer-shells .t-template.s-landed")
    label = ann.text_content("svg.table .layer-shells .t-label text") or ""
    assert "M.1: ranging 1 (needs 3 or less), landed" in label, label
    aim = ann.eval_on_selector(
        "svg.table .layer-shells .t-aim polyline", "p => p.getAttribute('points').split(' ')[2].split(',').map(Number)"
    )
    assert aim == [18, -22]  # where it was aimed (y drawn up)
    assert "M.1's ranging shot: 1 (needs 3 or less): lands on" in ann.inner_text("body")
    snap(ann, shots, "skirmish-ranging")


def handle_at(page: Any) -> tuple[float, float]:
    """Where the turning handle of the wedge or template shown is (inches), as the table draws it."""
    page.wait_for_selector("svg.table .rotate-handle .d-turn", state="attached")
    x, y = (float(v) for v in (page.get_attribute("svg.table", "data-handle") or "").split(","))
    return x, y


def outline(page: Any) -> str:
    """The points of the wedge's or template's outline drawn by the preview (SVG: y drawn down)."""
    return str(page.get_attribute("svg.table .preview-layer .p-shape", "points") or "")


def points(drawn: str) -> list[tuple[float, float]]:
    return [(float(p.split(",")[0]), -float(p.split(",")[1])) for p in drawn.split()]


def ringed(page: Any) -> set[str]:
    return set(page.eval_on_selector_all("svg.table .p-ring.under", "l => l.map(c => c.dataset.under)"))


def test_a_wedge_and_a_template_turned_by_dragging_their_handle(
    browser: Any, server: ServerProcess, shots: Path
) -> None:
    """The wedge's handle (its aim point) dragged round the gunner by a finger: the aim goes round at the same
    range, the form follows, and the men ringed and their odds are those of the new aim. The template's handle
    dragged a quarter turn by the mouse: its angle 90 in the form and the order, its outline turned, the men
    ringed those its new preview lists; the keys still turn it."""
    game = seated(browser, server, dict(UPLOAD), touch=True)
    ann, axel = game["allies"], game["axis"]
    both_hold(ann, axel)
    # the wedge, aimed up the table at the German line, then turned away from it by its handle
    show(ann, "fire A")
    gunner = centre(ann, "A.2")
    drag(ann, gunner, (gunner[0], 22.0))
    tip_with(ann, f"A.2 wedge {gunner[0]:g},22", "Under it", "Commit")
    before = ringed(ann)
    assert before >= {"G.1", "G.2"}, before
    hx, hy = handle_at(ann)
    assert hx == pytest.approx(gunner[0], abs=0.05) and hy > 22.5  # the wedge's handle: beyond its aim point
    reach = 22.0 - gunner[1]
    beyond = hy - gunner[1]
    turned = (gunner[0] - reach * 0.7071, gunner[1] + reach * 0.7071)  # 45 degrees to the left, same range
    finger_drag(ann, (hx, hy), turned)
    words = tip_with(ann, f"A.2 wedge {turned[0]:.1f},{turned[1]:.1f}", "Commit")
    form = ".decision:not([hidden]) form.order-form"
    aim = (float(ann.input_value(f"{form} input[name='x']")), float(ann.input_value(f"{form} input[name='y']")))
    assert aim == pytest.approx(turned, abs=0.11), aim
    assert ringed(ann) != before and "G.1: 0-18" not in words, words
    went = (gunner[0] - beyond * 0.7071, gunner[1] + beyond * 0.7071)  # the handle went round with it
    assert handle_at(ann) == pytest.approx(went, abs=0.11)
    # the template, laid on the German line and turned a quarter by its handle (the mouse)
    show(ann, "burst M.1")
    drag(ann, (12.0, 16.0), (18.0, 22.0))
    words = tip_with(ann, "burst M.1 18,22", "turned 0 degrees", "Under it", "Commit")
    assert "Drag the" in words and "handle round" in words
    flat = outline(ann)
    hx, hy = handle_at(ann)
    assert hy == pytest.approx(22.0, abs=0.05) and hx > 18.5  # beyond its east edge at 0 degrees
    reach = hx - 18.0
    drag(ann, (hx, hy), (18.0, 22.0 + reach))  # a quarter turn, counter-clockwise
    words = tip_with(ann, "burst M.1 18,22 90", "turned 90 degrees", "Commit")
    assert ann.input_value(f"{form} input[name='angle']") == "90"
    assert handle_at(ann) == pytest.approx((18.0, 22.0 + reach), abs=0.05)
    # the outline drawn is the template turned a quarter about its centre, and the men ringed are those the
    # new preview lists under it (a template 1.5" across covers the same two men either way here)
    ann.wait_for_function("p => document.querySelector('svg.table .p-shape').getAttribute('points') !== p", arg=flat)
    quarter = [(18.0 - (y - 22.0), 22.0 + (x - 18.0)) for x, y in points(flat)]
    drawn = points(outline(ann))
    assert len(drawn) == len(quarter), drawn
    assert all(p == pytest.approx(q, abs=0.02) for p, q in zip(drawn, quarter, strict=True)), drawn
    after = ringed(ann)
    assert after and after == set(re.findall(r"(G\.\d): \S", words)), (after, words)
    snap(ann, shots, "skirmish-template-turned")
    axe_clean(ann)  # the handle drawn, the box open
    ann.keyboard.press("]")  # the keys still turn it, 15 degrees a press
    tip_with(ann, "burst M.1 18,22 75", "Commit")


# a rifle section B spread round the MG team A: every man of A stands inside B's ring (the browser trial's crowd)
CROWDED_TITLE = "Crowded range: a rifle section round the MG team"
CROWDED = RANGE.replace(
    'title = "Fire range: a MG and a mortar against a section in the open"', f'title = "{CROWDED_TITLE}"'
) + (
    '\n[[units]]\nid = "B"\nside = "allies"\nname = "rifle section"\nenters = 0\nfigures = [\n'
    '  { weapon = "rifle", at = [14.0, 11.0] },\n  { weapon = "rifle", at = [22.0, 11.0] },\n'
    '  { weapon = "rifle", at = [18.0, 13.0] },\n]\n'
)


def inside_ring(page: Any, unit: str, man: str) -> bool:
    """Whether man ``man`` stands inside unit ``unit``'s ring (``face.unit_place``: the ring a tap in chooses
    the unit by), every man where the page draws him."""
    from grognard.rulesets.skirmish.face import unit_place

    ids = page.eval_on_selector_all("svg.table .layer-units g.t-figure[data-id]", "l => l.map(g => g.dataset.id)")
    figures = [
        {"id": i, "unit": i.split(".")[0], "alive": True, "x": centre(page, i)[0], "y": centre(page, i)[1]} for i in ids
    ]
    ring = unit_place({"figures": figures}, unit)
    assert ring is not None, unit
    x, y = centre(page, man)
    return bool((x - ring["x"]) ** 2 + (y - ring["y"]) ** 2 <= ring["r"] ** 2)


def slow_drag(page: Any, start: tuple[float, float], end: tuple[float, float], *words: str) -> str:
    """A mouse drag held at its end until the tape beside the pointer says every one of ``words``; the tape's
    words and where it starts (its ``data-from``), then the button let go."""
    a = page.evaluate(f"window.grognardTable.screen({start[0]}, {start[1]})")
    b = page.evaluate(f"window.grognardTable.screen({end[0]}, {end[1]})")
    page.mouse.move(a[0], a[1])
    page.mouse.down()
    for k in range(1, 9):
        page.mouse.move(a[0] + (b[0] - a[0]) * k / 8, a[1] + (b[1] - a[1]) * k / 8)
    said = ""
    for _ in range(60):  # a move now and then asks the preview again where the pointer is
        page.wait_for_timeout(250)
        page.mouse.move(b[0] + 0.01, b[1])
        page.mouse.move(b[0], b[1])
        said = page.evaluate(
            "() => { const g = document.querySelector('svg.table .d-ghost');"
            " return g ? g.dataset.from + '|' + g.querySelector('.d-label').textContent : ''; }"
        )
        if all(w in said for w in words):
            break
    page.mouse.up()
    return str(said)


def test_a_man_in_another_units_ring_is_his_units_and_a_units_drag_is_held_by_him(
    browser: Any, server: ServerProcess, shots: Path
) -> None:
    """Every man of the MG team A stands inside the ring of rifle section B. With A's move shown, a tap on A.3
    picks him (it chose B's move before: the man could not be dragged); a drag of A from A.3 (let go first)
    runs its tape from A.3 and reads his path's cost, and A.3 ends where the pointer did (the order names
    A.1's point, 4" west of him). A tap on a man of B chooses B."""
    game = seated(browser, server, {"upload": {"name": "crowded.toml", "text": CROWDED}})
    ann = game["allies"]
    show(ann, "move A")
    a1, a3 = centre(ann, "A.1"), centre(ann, "A.3")
    assert inside_ring(ann, "B", "A.3") and inside_ring(ann, "B", "A.1")
    tap(ann, a3)
    tip(ann, "A.3 is picked")
    assert ann.get_attribute("svg.table", "data-shown") == "move A"
    tap(ann, a3)  # let go
    ann.wait_for_function("() => !document.querySelector('svg.table .d-picked')")
    end = (a3[0] + 1, a3[1] - 3)
    said = slow_drag(ann, a3, end, "costs")
    assert said.startswith(f"{a3[0]:g},{a3[1]:g}|A.3: "), said  # from the man grabbed, his path's cost
    found = re.search(r'A\.3: ([0-9.]+)" walked, costs ([0-9.]+)", ([0-9.]+)" left', said)
    assert found and float(found.group(1)) == pytest.approx(10**0.5, abs=0.06), said
    assert float(found.group(3)) == pytest.approx(6 - float(found.group(2)), abs=0.06)
    lead = (a1[0] + 1, a1[1] - 3)
    words = tip_with(ann, f"move A {lead[0]:g},{lead[1]:g}", "A.3's path", "Commit")
    assert re.search(r'A\.3\'s path 3\.2", costs 3\.2" of his move, 2\.8" left', words), words
    snap(ann, shots, "skirmish-unit-held-by-a-man")
    ann.locator(".table-tip .tip-commit").click()
    ann.wait_for_function(
        "y => { const g = document.querySelector('svg.table .layer-units g[data-id=\"A.3\"] circle');"
        " return g && Math.abs(-g.getAttribute('cy') - y) < 0.05; }",
        arg=end[1],
    )
    assert centre(ann, "A.3") == pytest.approx(end, abs=0.01)
    assert centre(ann, "A.1") == pytest.approx(lead, abs=0.01)
    # a tap on a man of B (his unit owes its move): B's move is shown
    show(ann, "move M")
    tap(ann, centre(ann, "B.2"))
    ann.wait_for_function("() => document.querySelector('svg.table').dataset.shown === 'move B'")


def test_a_wedge_aimed_from_a_man_in_another_units_ring_says_its_own_men_under_it(
    browser: Any, server: ServerProcess, shots: Path
) -> None:
    """The fire phase: the MG gunner A.2 stands in B's ring; a drag from him (with A's fire shown) aims his
    wedge (it chose B's fire before); the wedge covers B.3, one of Ann's own: the box says so first, with his
    name and exact chance of death, before Commit, and rings him apart from the enemy."""
    game = seated(browser, server, {"upload": {"name": "crowded.toml", "text": CROWDED}})
    ann, axel = game["allies"], game["axis"]
    for unit in ("A", "M", "B"):  # each held by its shown decision's menu
        show(ann, f"move {unit}")
        box = ann.locator(".decision:not([hidden])")
        box.locator(f"input[type=radio][value='hold {unit}']").check()
        box.get_by_role("button", name="Commit the chosen order").click()
        ann.wait_for_function("u => !document.querySelector(`.decision input[value='hold ${u}']`)", arg=unit)
    axel.wait_for_selector(".decision input[value='hold G']")
    commit_menu(axel, "hold G", wait=False)
    show(ann, "fire A")
    gunner = centre(ann, "A.2")
    assert inside_ring(ann, "B", "A.2")
    drag(ann, gunner, (18.0, 22.0))
    words = tip_with(ann, "fire A hold / A.2 wedge 18,22", "Your own man is under it", "Commit")
    assert ann.get_attribute("svg.table", "data-shown") == "fire A"
    own = re.search(r"Your own man is under it: B\.3 \((\S+ \S+: dead \S+ \(\S+\))\)", words)
    assert own, words
    assert float(exact(own.group(1))) > 0
    assert words.index("Your own man") < words.index("Under it")  # said first
    assert "B.3 (yours): " in words
    ann.wait_for_selector("svg.table .p-ring.under.own[data-under='B.3']", state="attached")
    assert set(ann.eval_on_selector_all("svg.table .p-ring.under.own", "l => l.map(c => c.dataset.under)")) == {"B.3"}
    snap(ann, shots, "skirmish-wedge-own-men")


def test_the_header_and_the_tab_say_the_scenarios_title(browser: Any, server: ServerProcess, shots: Path) -> None:
    """A solo game on a scenario of one's own: the player page's header and its tab's title name the scenario
    (they said "Skirmish: Player, room ..." alone), and the player's own name, the room code still in sight."""
    from grognard.web.testing import call

    status, made = call(
        server.url + "/api/rooms",
        {
            "ruleset": "skirmish",
            "upload": {"name": "crowded.toml", "text": CROWDED},
            "solo": {"name": "Sol", "side": "axis"},
        },
    )
    assert status == 200, made
    page = new_page(browser)
    page.add_init_script(f"localStorage.setItem('grognard:player:{made['code']}', '{made['token']}')")
    page.goto(server.url + made["play_url"])
    page.wait_for_function("t => document.title.startsWith(t + ' - ')", arg=CROWDED_TITLE)
    page.wait_for_function("() => document.getElementById('head-who').textContent === 'Sol'")
    head = page.inner_text("header h1")
    assert CROWDED_TITLE in head and f"Sol, room {made['code']}" in head and "Player" not in head, head
    # said in the rule set's long title's place, cut short before the room's words are: both in sight
    h1, game, room = page.evaluate(
        "() => ['header h1', '#head-game', '.head-room'].map(q => { const r = document.querySelector(q)"
        ".getBoundingClientRect(); return [r.left, r.right]; })"
    )
    assert h1[0] <= game[0] and game[1] - game[0] > 100 and game[1] <= room[0] + 1 and room[1] <= h1[1] + 1, (
        h1,
        game,
        room,
    )
    snap(page, shots, "skirmish-heading")
    page.context.close()
