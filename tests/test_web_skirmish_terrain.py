"""The skirmish table's terrain in a real headless Chromium (Debian's): every kind of ground a scenario has
looks unlike open ground and unlike the others (its own fill or texture), and the key under the table names
each look with a swatch drawn in the table's own classes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browsers import needs_chromium
from grognard.web.testing import ServerProcess, call

pytestmark = needs_chromium
pytest.importorskip("playwright.sync_api")

# what a drawn area's look is: its computed fill (a texture's url and its fallback colour) and stroke
LOOKS = """() => { const out = {};
  for (const g of document.querySelectorAll('svg.table .layer-terrain > g')) {
    const cls = [...g.classList].filter((c) => c.startsWith('t-') || c.startsWith('s-')).join(' ');
    const m = g.firstElementChild; if (!m || !['polygon', 'rect', 'polyline'].includes(m.tagName)) continue;
    const s = getComputedStyle(m);
    (out[cls] = out[cls] || new Set()).add([s.fill, s.stroke, s.strokeWidth, s.strokeDasharray].join(' | '));
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, [...v]])); }"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("skirmish-terrain")) as srv:
        yield srv


def table_of(browser: Any, server: ServerProcess, scenario: str, width: int, height: int) -> Any:
    status, made = call(server.url + "/api/rooms", {"ruleset": "skirmish", "options": {"scenario": scenario}})
    assert status == 200, made
    joined = call(server.url + f"/api/rooms/{made['code']}/join", {"name": "Ann", "side": "allies"})[1]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(20000)
    page = context.new_page()
    page.add_init_script(f"localStorage.setItem('grognard:player:{made['code']}', '{joined['token']}')")
    page.goto(server.url + f"/play/{made['code']}")
    page.wait_for_selector("svg.table .layer-terrain")
    page.wait_for_selector(".table-key .key-item")
    return page


@pytest.mark.parametrize(
    ("scenario", "wanted"),
    [
        ("proving_ground", {"wood", "hill", "water", "road", "wall", "wire", "building", "obstacle"}),
        ("convoy", {"wood", "hill", "water", "road", "rail", "wall", "obstacle"}),
        ("river_town", {"wood", "water", "road", "building", "bridge", "wall"}),
    ],
)
def test_every_kind_of_ground_has_its_own_look_and_a_key(
    browser: Any, server: ServerProcess, shots: Path, scenario: str, wanted: set[str]
) -> None:
    page = table_of(browser, server, scenario, 1366, 768)
    looks: dict[str, list[str]] = page.evaluate(LOOKS)
    drawn = {cls.split()[0][2:] for cls in looks}
    assert wanted <= drawn, (wanted - drawn, sorted(looks))
    ground = looks["t-ground"][0]
    for cls, seen in looks.items():
        if cls.startswith(("t-ground", "t-label", "t-target")):
            continue
        assert ground not in seen, (cls, seen)  # nothing looks like open ground
    # no two kinds of area share a look (woods are not hills are not water...)
    firsts = {cls: seen[0] for cls, seen in looks.items() if not cls.startswith(("t-label", "t-target"))}
    assert len(set(firsts.values())) == len(firsts), firsts
    # the textured kinds are filled by their texture, a pattern in the table's own defs
    for cls, pattern in (("t-wood", "gt-wood"), ("t-hill", "gt-hill"), ("t-water", "gt-water"), ("t-rail", "gt-rail")):
        if cls in looks and any(s.startswith("url(") for s in looks[cls]):
            assert any(pattern in s for s in looks[cls]), (cls, looks[cls])
            assert page.locator(f"svg.table defs pattern#{pattern}").count() == 1
    assert any("url(" in s and "gt-wood" in s for s in looks["t-wood"])
    # a texture's marks are inches of the table (a ripple 0.13" wide), not hairlines of 0.13 px: it reads in grey
    marks = page.evaluate(
        "() => [...document.querySelectorAll('svg.table pattern > :not(rect)')]"
        ".map((m) => getComputedStyle(m).vectorEffect)"
    )
    assert marks and set(marks) == {"none"}, marks
    # the key: one swatch for each look drawn, with its name, in the same classes as the table
    keyed = page.evaluate(
        "() => [...document.querySelectorAll('.table-key .key-item')].map((k) => [k.dataset.cls, k.innerText.trim(),"
        " getComputedStyle(k.querySelector('svg g').firstElementChild).fill])"
    )
    classes = {k[0] for k in keyed}
    assert wanted <= classes and "ground" in classes, keyed
    assert all(name for _, name, _ in keyed)
    wood = next(k for k in keyed if k[0] == "wood")
    assert "woods" in wood[1] and "gt-wood" in wood[2]
    page.screenshot(path=str(shots / f"terrain-{scenario}-1366x768.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_timeout(200)
    page.screenshot(path=str(shots / f"terrain-{scenario}-1280x800.png"))
    if scenario == "river_town":  # a building of more storeys than one is drawn darker, with a heavier outline
        tall = [cls for cls in looks if cls.startswith("t-building s-tall")]
        plain = [cls for cls in looks if cls == "t-building"]
        if tall and plain:
            assert looks[tall[0]][0] != looks[plain[0]][0]
    page.context.close()
