"""The B-17 raid's table as pictures, for its face's scene (``face.scene``): what a player sees of an aircraft,
the target and the flak, in table inches, from the rules' own geometry (``geometry``) and a view's entries.

- An aircraft is the very outline the rules measure to (``geometry.footprint``: wings, fuselage, tailplane),
  to scale and turned to its heading, with its engines on the wings (a bomber's four, a fighter's one in
  the nose) and, on a B-17, its four gun positions (``geometry.gun_positions``, b17.44) as dots.
- Each damaged engine trails smoke: a grey plume 2" long behind it, as the seed's pipe cleaners (b17.3:
  "cut into lengths of 2 inches or less ... to represent smoke trailing from each damaged engine").
- A fighter's element (b17.16) is told by a ring round it, each element's ring its own dashes (``e1``-``e4``,
  in turn), and by the element's name after the fighter's.
- An element above or below the bombers has its coin beside it, heads or tails, until its first move (b17.21).
- The target is a target (a bullseye on the 11" by 8" paper rectangle, b17.11); the flak's 6" reach round it
  (b17.53) is the face's dashed outline.

>>> from grognard.rulesets.b17.geometry import Dims, engine_positions
>>> [round(v, 2) for v in engine_positions(Dims(3.13, 4.37, True), 50.0, 30.0, 0.0)[0]]  # engine 1 (left outboard)
[50.53, 31.14]
>>> [round(v, 2) for v in smoke(Dims(3.13, 4.37, True), 50.0, 30.0, 0.0, 1)[0]]  # its plume starts beside it
[50.53, 31.2]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17.data import TABLE_LENGTH, TABLE_WIDTH, TARGET

SMOKE_LENGTH = 2.0  # inches: a pipe cleaner "2 inches or less" (b17.3)
SMOKE_WIDTH = (0.12, 0.55)  # inches across the plume, at the engine and at its end
GUN_DOT = 0.16  # inches: a gun position's dot
ENGINE = (0.07, 0.05)  # a nacelle's half-length and half-width, in the model's lengths
ELEMENT_RING = 1.35  # inches: the ring round a fighter that tells its element
ELEMENT_LOOKS = 4  # e1..e4 (then again): each its own dashes (style.css)
COIN = 0.9  # inches: the coin beside an element above or below the bombers (larger than a coin: its letter is read)
COIN_AWAY = 2.2  # inches right of and below its first fighter


def _points(pairs: Sequence[Sequence[float]]) -> list[list[float]]:
    return [[round(x, 3), round(y, 3)] for x, y in pairs]


def outline(dims: G.Dims, x: float, y: float, heading: float) -> list[list[float]]:
    """The rules' outline of the model on the table (``geometry.footprint``), its corners to 0.001"."""
    return _points(list(G.footprint(dims, x, y, heading).exterior.coords)[:-1])


def smoke(dims: G.Dims, x: float, y: float, heading: float, engine: int) -> list[tuple[float, float]]:
    """The smoke plume trailing from engine ``engine`` (1-based) of a model at (x, y, heading): a polygon
    from the engine back along the model's axis, widening and waving a little as it goes."""
    ex, ey = G.engine_positions(dims, x, y, heading)[engine - 1]
    steps = 8
    left, right = [], []
    for k in range(steps + 1):
        t = k / steps
        back = -SMOKE_LENGTH * t
        half = (SMOKE_WIDTH[0] + (SMOKE_WIDTH[1] - SMOKE_WIDTH[0]) * t) / 2
        wave = 0.12 * math.sin(t * 3 * math.pi) * t
        left.append(G.local_to_world(ex, ey, heading, back, wave + half))
        right.append(G.local_to_world(ex, ey, heading, back, wave - half))
    return left + right[::-1]


def _nacelles(dims: G.Dims, x: float, y: float, heading: float) -> list[list[tuple[float, float]]]:
    half_f, half_w = ENGINE[0] * dims.length, ENGINE[1] * dims.length
    out = []
    for ex, ey in G.engine_positions(dims, x, y, heading):
        corners = ((half_f, -half_w), (half_f, half_w), (-half_f, half_w), (-half_f, -half_w))
        out.append([G.local_to_world(ex, ey, heading, f, s) for f, s in corners])
    return out


def aircraft_details(entry: dict[str, Any], dims: G.Dims) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """What is drawn with a flying aircraft ``entry`` (a view's): (under it: its smoke and its element's ring;
    over it: its engines and gun positions). None of them can be tapped (the aircraft's outline is)."""
    x, y, heading, label = entry["x"], entry["y"], entry["heading"], entry["label"]
    under: list[dict[str, Any]] = []
    for engine in entry["damaged"]:
        under.append(
            {
                "kind": "polygon",
                "points": _points(smoke(dims, x, y, heading, engine)),
                "cls": "smoke",
                "title": f"{label}: engine {engine} damaged, trailing smoke",
            }
        )
    over: list[dict[str, Any]] = [
        {"kind": "polygon", "points": _points(p), "cls": "engine", "title": f"{label} engine {k}"}
        for k, p in enumerate(_nacelles(dims, x, y, heading), 1)
    ]
    if entry["kind"] == "bomber":
        for gun, (gx, gy) in G.gun_positions(dims, x, y, heading).items():
            over.append(
                {
                    "kind": "circle",
                    "x": round(gx, 3),
                    "y": round(gy, 3),
                    "r": GUN_DOT,
                    "cls": "gun",
                    "title": f"{label} {gun} gun",
                }
            )
    elif entry["element"]:
        under.append(
            {
                "kind": "circle",
                "x": x,
                "y": y,
                "r": ELEMENT_RING,
                "cls": "element",
                "state": element_look(entry["element"]),
                "title": f"{label} flies in element {entry['element']}",
            }
        )
    return under, over


def coins(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The coin beside an element above or below the bombers (b17.21: heads above, tails below), while its first
    move, the one its altitude changes (a dive +6", a climb -6", b17.22), is still to fly: beside its first
    fighter on the table."""
    out: list[dict[str, Any]] = []
    for element in view["elements"]:
        if element["altitude"] not in ("above", "below"):
            continue
        fighters = [e for e in view["aircraft"] if e["label"] in element["fighters"] and e["status"] == "flying"]
        first = next((e for e in fighters if e["moves"] == 0), None)
        if first is None:
            continue
        heads = element["altitude"] == "above"
        x = min(max(first["x"] + COIN_AWAY, COIN), TABLE_LENGTH - COIN)
        y = min(max(first["y"] - COIN_AWAY, COIN), TABLE_WIDTH - COIN)
        out.append(
            {
                "kind": "circle",
                "x": round(x, 2),
                "y": round(y, 2),
                "r": COIN,
                "cls": "coin",
                "state": "heads" if heads else "tails",
                "text": "H" if heads else "T",
                "title": f"{element['label']} is {element['altitude']} the bombers: "
                + ('heads (its first move dives 6" further)' if heads else 'tails (its first move climbs, 6" shorter)'),
            }
        )
    return out


def element_look(element: str) -> str:
    """The look (``e1``...``e4``) of an element's rings: E1's is e1, E5's e1 again.

    >>> [element_look(e) for e in ("E1", "E2", "E4", "E5")]
    ['e1', 'e2', 'e4', 'e1']
    """
    digits = "".join(c for c in element if c.isdigit())
    number = int(digits) if digits else 1
    return f"e{(number - 1) % ELEMENT_LOOKS + 1}"


def target() -> list[dict[str, Any]]:
    """The target drawn as a target: the paper rectangle (b17.11), a bullseye of three rings and cross hairs
    at its centre, its name."""
    x0, y0, x1, y1 = TARGET
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    reach = min(x1 - x0, y1 - y0) / 2 - 0.4
    shapes: list[dict[str, Any]] = [
        {"kind": "rect", "x": x0, "y": y0, "w": x1 - x0, "h": y1 - y0, "cls": "target", "title": "the target"}
    ]
    for k in (3, 2, 1):
        shapes.append(
            {
                "kind": "circle",
                "x": cx,
                "y": cy,
                "r": round(reach * k / 3, 3),
                "cls": "target",
                "state": "bull",
                "title": "the target",
            }
        )
    for (ax, ay), (bx, by) in (((cx - reach, cy), (cx + reach, cy)), ((cx, cy - reach), (cx, cy + reach))):
        shapes.append({"kind": "polyline", "points": [[ax, ay], [bx, by]], "cls": "target", "state": "cross"})
    shapes.append({"kind": "text", "x": x0 + 0.3, "y": y0 + 0.8, "text": "TARGET", "cls": "label", "anchor": "start"})
    return shapes


KEY = [
    {"cls": "bomber", "name": "B-17"},
    {"cls": "fighter", "name": "fighter"},
    {"cls": "gun", "name": "gun position"},
    {"cls": "gunring", "name": "a gun's 4\" reach"},
    {"cls": "smoke", "name": "smoke: an engine damaged"},
    {"cls": "element", "name": "ring: the fighter's element"},
    {"cls": "coin", "name": "coin: above (H) or below (T)"},
    {"cls": "flak", "name": "flak range"},
    {"cls": "target", "name": "target"},
]
