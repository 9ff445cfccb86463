"""Pictures of the B-17 raid and of Omaha (issue 30, item 5), as the faces' scenes hold them: an aircraft is the
rules' own outline to scale and turned to its heading, with its gun positions and a smoke plume per damaged
engine; fighters' elements are told apart; the target is a target. A squad is a figure per man round its
number; a bunker shows its defenders (cotton when destroyed); obstacles are coils of wire, hedgehogs line the
water, craters and red markers lie where the record put them. Cheap: no browser, one short replay."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from shapely.geometry import Polygon

from grognard import rulesets
from grognard.core.record import replay
from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.data import TARGET
from grognard.rulesets.omaha import picture as OP
from test_b17_rules import scene as b17_scene

GOLDEN = Path(__file__).parent / "golden"


def _shapes(scene: dict[str, Any], name: str | None = None) -> list[dict[str, Any]]:
    return [s for layer in scene["layers"] if name in (None, layer["name"]) for s in layer["shapes"]]


def _b17_picture(damaged: dict[str, list[int]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The American's scene of B1 at (50, 30) heading 30 and B2 at (40, 45) heading -10, F1 (element E1) and
    F3 (element E2) near them, the engines ``damaged`` hurt; and the view it was drawn from."""
    game = b17_scene({"B1": (50.0, 30.0, 30.0), "B2": (40.0, 45.0, -10.0)}, {"F1": (47.0, 36.0, -90.0),
                                                                             "F3": (60.0, 20.0, 135.0)})  # fmt: skip
    for label, engines in damaged.items():
        game.aircraft(label).damaged = list(engines)
    game.changed()
    view = json.loads(json.dumps(game.view("American")))
    return rulesets.get("b17").face.scene(view, {"American"}), view


def test_an_aircraft_is_the_rules_outline_to_scale_turned_to_its_heading() -> None:
    picture, view = _b17_picture({})
    drawn = {s["id"]: s for s in _shapes(picture, "units") if s.get("id")}
    for label in ("B1", "B2", "F1", "F3"):
        entry = next(e for e in view["aircraft"] if e["label"] == label)
        dims = R.dims_of(view["options"], entry["model"])
        rules = G.footprint(dims, entry["x"], entry["y"], entry["heading"])  # what the rules measure to
        shape = Polygon(drawn[label]["points"])
        corners = list(rules.exterior.coords)[:-1]  # the same outline, corner for corner (to 0.001")
        assert len(drawn[label]["points"]) == len(corners) and shape.equals_exact(Polygon(corners), 1e-3), label
        # to scale: nose to tail is the model's length along its heading, wingtip to wingtip its span
        rad = math.radians(entry["heading"])
        along = [(x - entry["x"]) * math.cos(rad) + (y - entry["y"]) * math.sin(rad) for x, y in shape.exterior.coords]
        across = [
            -(x - entry["x"]) * math.sin(rad) + (y - entry["y"]) * math.cos(rad) for x, y in shape.exterior.coords
        ]
        assert max(along) - min(along) == pytest.approx(dims.length, abs=1e-3)
        assert max(across) - min(across) == pytest.approx(dims.span, abs=1e-3)
        assert "marker" not in drawn[label]  # no side glyph over the silhouette: its shape tells the side
    # the four gun positions of each B-17, where the rules measure a gunner's 4" from (b17.44)
    guns = [s for s in _shapes(picture) if s.get("cls") == "gun"]
    for label in ("B1", "B2"):
        entry = next(e for e in view["aircraft"] if e["label"] == label)
        dims = R.dims_of(view["options"], entry["model"])
        want = G.gun_positions(dims, entry["x"], entry["y"], entry["heading"])
        mine = {s["title"].split(" ", 1)[1]: (s["x"], s["y"]) for s in guns if s["title"].startswith(label + " ")}
        assert set(mine) == {f"{gun} gun" for gun in want}
        for gun, (x, y) in want.items():
            assert mine[f"{gun} gun"] == pytest.approx((x, y), abs=1e-3)


def test_each_damaged_engine_trails_its_own_smoke() -> None:
    clean, _ = _b17_picture({})
    assert not [s for s in _shapes(clean) if s.get("cls") == "smoke"]
    picture, view = _b17_picture({"B1": [1, 4], "B2": [3], "F3": [1]})
    smoke = [s for s in _shapes(picture) if s.get("cls") == "smoke"]
    by_aircraft: dict[str, list[dict[str, Any]]] = {}
    for s in smoke:
        by_aircraft.setdefault(s["title"].split(":")[0], []).append(s)
    assert {k: len(v) for k, v in by_aircraft.items()} == {"B1": 2, "B2": 1, "F3": 1}
    for label, plumes in by_aircraft.items():
        entry = next(e for e in view["aircraft"] if e["label"] == label)
        dims = R.dims_of(view["options"], entry["model"])
        engines = G.engine_positions(dims, entry["x"], entry["y"], entry["heading"])
        for plume, engine in zip(plumes, entry["damaged"], strict=True):
            ex, ey = engines[engine - 1]
            start = plume["points"][0]
            assert math.dist(start, (ex, ey)) < 0.1  # it leaves the damaged engine...
            far = max(plume["points"], key=lambda p: math.dist(p, (ex, ey)))
            assert 1.9 <= math.dist(far, (ex, ey)) <= 2.4  # ...as a pipe cleaner of 2" or less, behind it
            rad = math.radians(entry["heading"])
            assert (far[0] - ex) * math.cos(rad) + (far[1] - ey) * math.sin(rad) < -1.5
    # the smoke lies under the aircraft (drawn before it), and a hurt aircraft's title says so
    layers = [layer["name"] for layer in picture["layers"]]
    assert layers.index("marks") < layers.index("units") and all(s in _shapes(picture, "marks") for s in smoke)


def test_fighters_elements_and_the_target_are_told_apart() -> None:
    picture, view = _b17_picture({})
    rings = {s["title"].split()[0]: s for s in _shapes(picture) if s.get("cls") == "element"}
    elements = {e["label"]: e["element"] for e in view["aircraft"] if e["kind"] == "fighter"}
    assert set(rings) == {"F1", "F3"} and elements["F1"] != elements["F3"]
    assert rings["F1"]["state"] != rings["F3"]["state"]  # each element its own ring
    labels = {s["of"]: s["text"] for s in _shapes(picture, "units") if s.get("word") == "name"}  # placed names
    assert labels["F1"] == f"F1 {elements['F1']}" and labels["F3"] == f"F3 {elements['F3']}"
    x0, y0, x1, y1 = TARGET
    bull = [s for s in _shapes(picture, "terrain") if s.get("cls") == "target" and s["kind"] == "circle"]
    assert len(bull) == 3 and len({s["r"] for s in bull}) == 3  # a bullseye of three rings...
    for s in bull:  # ...at the target's middle, inside the paper rectangle
        assert (s["x"], s["y"]) == pytest.approx(((x0 + x1) / 2, (y0 + y1) / 2))
        assert s["r"] <= min(x1 - x0, y1 - y0) / 2
    assert {k["cls"] for k in picture["key"]} >= {"bomber", "fighter", "smoke", "gun", "element", "target"}


@pytest.mark.rule("b17.21")
def test_the_coin_beside_an_element_above_or_below_until_its_first_move() -> None:
    game = b17_scene({"B1": (50.0, 30.0, 0.0)}, {"F1": (70.0, 36.0, 180.0), "F3": (70.0, 20.0, 180.0)})
    altitude = {"E1": "above", "E2": "below"}
    for element in game.state.elements:
        element.altitude = altitude.get(element.label, "level")
    for label in ("F1", "F3"):
        game.aircraft(label).moves = 0
    game.changed()
    face = rulesets.get("b17").face

    def coins() -> dict[str, dict[str, Any]]:
        view = json.loads(json.dumps(game.view("American")))
        drawn = _shapes(face.scene(view, set()))  # a coin's letter is the word placed right after it
        return {
            s["title"].split()[0]: dict(s, text=drawn[k + 1]["text"])
            for k, s in enumerate(drawn)
            if s.get("cls") == "coin"
        }

    shown = coins()
    assert {k: (v["state"], v["text"]) for k, v in shown.items()} == {"E1": ("heads", "H"), "E2": ("tails", "T")}
    assert math.dist((shown["E1"]["x"], shown["E1"]["y"]), (70.0, 36.0)) < 3.5  # beside the element's fighter
    game.aircraft("F1").moves = 1  # E1 has flown its first move: its altitude no longer counts
    game.changed()
    assert set(coins()) == {"E2"}


@pytest.fixture(scope="module")
def omaha_picture() -> tuple[dict[str, Any], dict[str, Any]]:
    """Omaha's two-German golden game (craters and red markers on) at record line 180 (turn 16: a bunker active,
    one silenced, two destroyed), as the spectators see it."""
    lines = (GOLDEN / "omaha-g2-seed2-optional-rules.jsonl").read_text().splitlines()
    game = replay(lines[:180], rulesets.get).game
    view = json.loads(json.dumps(game.view(None)))
    return rulesets.get("omaha").face.scene(view, set()), view


def test_a_squad_is_a_figure_per_man_round_its_number(omaha_picture: tuple[dict[str, Any], dict[str, Any]]) -> None:
    picture, view = omaha_picture
    units = _shapes(picture, "units")
    squads = {a["squad"]["label"]: a["squad"] for a in view["americans"] if a["squad"]}
    assert len(squads) >= 4 and len({q["figures"] for q in squads.values()}) >= 2
    starts = [k for k, s in enumerate(units) if s.get("cls") == "squad"]
    for k, end in zip(starts, [*starts[1:], len(units)], strict=True):
        squad = squads[units[k]["id"]]
        men = [s for s in units[k + 1 : end] if s["kind"] != "text"]  # its words are placed after it
        assert len(men) == squad["figures"]
        assert all(m["cls"] == "man" and m["marker"] == "man" and m["side"] == "american" for m in men)
        assert all("id" not in m for m in men)  # a man is drawn to scale, never tapped: the squad's disc is
        number = next(s for s in units[k + 1 : end] if s.get("word") == "inside")
        assert number["text"] == str(squad["figures"]) and number["of"] == units[k]["id"]  # and the number...
        assert (number["x"], number["y"]) == pytest.approx((squad["x"], squad["y"]), abs=0.6)  # ...in their middle
        for m in men:  # each round the squad's point, on its disc, clear of the number
            assert 0.6 <= math.dist((m["x"], m["y"]), (squad["x"], squad["y"])) <= units[k]["r"] - m["r"]
    assert len(starts) == len(squads)


def test_bunkers_obstacles_and_markers_as_the_seed_makes_them(
    omaha_picture: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    picture, view = omaha_picture
    marks = _shapes(picture, "marks")
    german = [s for s in marks if s.get("cls") == "man"]
    assert all(s["side"] == "german" for s in german)
    assert len(german) == sum(b["defenders"] for b in view["bunkers"]) > 0  # each defender standing in his bunker
    destroyed = [b for b in view["bunkers"] if b["status"] == "destroyed"]
    cotton = [s for s in marks if s.get("cls") == "cotton"]
    assert destroyed and len(cotton) == len(destroyed) * len(OP.cotton(0, 0))
    for b in destroyed:  # the cotton at the bunker's two ends: its name, in the middle, is still read
        box = next(s for s in marks if s.get("id") == b["label"])
        mid = box["x"] + box["w"] / 2
        near = [c for c in cotton if abs(c["x"] - mid) < box["w"]]
        assert len(near) == len(OP.cotton(0, 0)) and all(abs(c["x"] - mid) - c["r"] >= 0.55 for c in near)
    cards = [s for s in marks if s.get("cls") == "obstacle" and s.get("state") == "card"]
    assert len(cards) == sum(c or 0 for c in view["obstacles"]) > 0  # a card of coiled wire per obstacle
    assert {s["id"] for s in cards if "id" in s} == {f"O{k + 1}" for k, c in enumerate(view["obstacles"]) if c}
    assert 2 in view["obstacles"]
    kinds = [m["kind"] for m in view["markers"]]
    assert len([s for s in marks if s.get("cls") == "crater"]) == kinds.count("crater") > 0
    assert len([s for s in marks if s.get("cls") == "casualty"]) == kinds.count("casualty") > 0
    hedgehogs = [s for s in _shapes(picture, "terrain") if s.get("cls") == "hedgehog"]
    assert len({(m["x"], m["y"]) for m in view["markers"]}) < len(view["markers"])  # some on one spot...
    spots = [(s["x"], s["y"]) for s in marks if s.get("cls") in ("crater", "casualty")]
    assert len(set(spots)) == len(spots)  # ...each seen
    assert len(hedgehogs) >= view["width"] / 6 and all(abs(p[1]) <= 1.5 for s in hedgehogs for p in s["points"])
