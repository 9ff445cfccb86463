"""Vehicles and guns seen from above, for the skirmish's scene (``face.figure_shapes``): each a few polygons and
lines in table inches, turned to its facing, from the seat's view alone.

A vehicle's hull is its footprint exactly as the rules measure it (``view["vehicle_shapes"]``, skirmish.61);
what is drawn on it (tracks, wheels, a turret and its gun, a cab, a troop bay, a ramp: class ``top``, a darker
shade over the hull) says what it is and which way its front is. A field piece (``view["pieces"]``) is drawn
as a gun on its carriage: the barrel along its heading, the shield, two wheels and the split trail behind.
Every part carries the vehicle's or piece's ``id`` (a tap on any of it picks it) and its words (``title``);
the hull and the shield its side's colour.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

Point = list[float]
Part = tuple[str, str, list[tuple[float, float]]]  # (kind, cls, points along and across the vehicle, inches)
GUN_SIZE = {"light_artillery": 1.0, "medium_artillery": 1.2, "heavy_artillery": 1.4}


def _box(u0: float, u1: float, v0: float, v1: float) -> list[tuple[float, float]]:
    """A rectangle along (u: forward) and across (v: to the left) the vehicle, closed."""
    return [(u0, v0), (u1, v0), (u1, v1), (u0, v1), (u0, v0)]


def _octagon(u: float, v: float, r: float) -> list[tuple[float, float]]:
    return [(u + r * math.cos(math.pi * (k + 0.5) / 4), v + r * math.sin(math.pi * (k + 0.5) / 4)) for k in range(9)]


def _pairs(u0: float, u1: float, v: float, w: float) -> list[Part]:
    """A track or a pair of wheels: the same box either side, ``v`` from the middle to its outer edge."""
    return [("polygon", "track", _box(u0, u1, v - w, v)), ("polygon", "track", _box(u0, u1, -v, -v + w))]


def tank(length: float, width: float) -> list[Part]:
    """Tracks the whole length either side, the hull between, the turret and its gun forward."""
    a, b = length / 2, width / 2
    return [
        *_pairs(-a, a, b, 0.3 * width),
        ("polygon", "hull", _box(-0.46 * length, 0.44 * length, -0.34 * width, 0.34 * width)),
        ("polygon", "top", _octagon(-0.02 * length, 0.0, 0.32 * width)),
        ("polyline", "barrel", [(0.1 * length, 0.0), (a + 0.25 * length, 0.0)]),
    ]


def half_track(length: float, width: float) -> list[Part]:
    """Wheels at the front, tracks behind, a bonnet and the open troop bay with its MG."""
    a, b = length / 2, width / 2
    return [
        *_pairs(0.22 * length, 0.42 * length, b, 0.22 * width),
        *_pairs(-a, 0.02 * length, b, 0.24 * width),
        ("polygon", "hull", _box(-0.48 * length, a, -0.36 * width, 0.36 * width)),
        ("polygon", "top", _box(-0.45 * length, 0.12 * length, -0.3 * width, 0.3 * width)),
        ("polyline", "barrel", [(0.1 * length, 0.0), (0.45 * length, 0.0)]),
    ]


def truck(length: float, width: float) -> list[Part]:
    """Six wheels, the cab forward and the load bed behind."""
    a, b = length / 2, width / 2
    return [
        *_pairs(0.28 * length, 0.42 * length, b, 0.2 * width),
        *_pairs(-0.42 * length, -0.12 * length, b, 0.2 * width),
        ("polygon", "hull", _box(0.18 * length, a, -0.4 * width, 0.4 * width)),
        ("polygon", "top", _box(-a, 0.15 * length, -0.46 * width, 0.46 * width)),
    ]


def jeep(length: float, width: float) -> list[Part]:
    """Four wheels, the body and its windscreen across it."""
    b = width / 2
    return [
        *_pairs(0.22 * length, 0.42 * length, b, 0.22 * width),
        *_pairs(-0.42 * length, -0.22 * length, b, 0.22 * width),
        ("polygon", "hull", _box(-0.48 * length, 0.48 * length, -0.38 * width, 0.38 * width)),
        ("polyline", "barrel", [(0.1 * length, -0.36 * width), (0.1 * length, 0.36 * width)]),
    ]


def craft(length: float, width: float) -> list[Part]:
    """A landing craft: the hull, its bay and the ramp at the bow."""
    a, b = length / 2, width / 2
    return [
        (
            "polygon",
            "hull",
            [(-a, -b), (0.4 * length, -b), (a, -0.8 * b), (a, 0.8 * b), (0.4 * length, b), (-a, b), (-a, -b)],
        ),
        ("polygon", "top", _box(-0.25 * length, 0.4 * length, -0.7 * b, 0.7 * b)),
        ("polyline", "barrel", [(a, -0.8 * b), (a, 0.8 * b)]),
    ]


def field_gun(size: float) -> list[Part]:
    """A gun on its carriage, ``size`` times a light gun's: the split trail, two wheels, the shield, the barrel."""
    return [
        ("polyline", "track", [(0.0, 0.3 * size), (-1.1 * size, 0.0), (0.0, -0.3 * size)]),
        *_pairs(-0.18 * size, 0.18 * size, 0.55 * size, 0.14 * size),
        ("polygon", "hull", _box(0.05 * size, 0.22 * size, -0.42 * size, 0.42 * size)),
        ("polyline", "barrel", [(0.0, 0.0), (1.3 * size, 0.0)]),
    ]


KINDS: dict[str, Callable[[float, float], list[Part]]] = {
    "tank": tank,
    "half_track": half_track,
    "truck": truck,
    "jeep": jeep,
    "landing_craft": craft,
}


def placed(parts: Sequence[Part], x: float, y: float, heading: float) -> list[tuple[str, str, list[Point]]]:
    """``parts`` (along and across) turned to ``heading`` (the rules': degrees counter-clockwise from east) at
    ``(x, y)``, in table inches rounded to 0.01".

    >>> placed([("polyline", "barrel", [(0.0, 0.0), (1.0, 0.0)])], 10.0, 5.0, 90.0)
    [('polyline', 'barrel', [[10.0, 5.0], [10.0, 6.0]])]
    """
    c, s = math.cos(math.radians(heading)), math.sin(math.radians(heading))
    return [
        (kind, cls, [[round(x + u * c - v * s, 2) + 0.0, round(y + u * s + v * c, 2) + 0.0] for u, v in points])
        for kind, cls, points in parts
    ]


def _size(corners: Sequence[Sequence[float]]) -> tuple[float, float]:
    """A footprint's length and width (its long and short sides)."""
    sides = [math.dist(corners[k], corners[k + 1]) for k in range(min(2, len(corners) - 1))]
    return (max(sides), min(sides)) if len(sides) == 2 else (1.0, 1.0)


def vehicle(v: dict[str, Any], shape: dict[str, Any] | None, title: str) -> list[dict[str, Any]]:
    """Vehicle ``v`` of the view (its footprint ``shape``'s corners from ``view["vehicle_shapes"]``) from above:
    the footprint as the hull when its kind has no drawing of its own, the kind's parts turned to its heading."""
    corners = shape["shape"] if shape else []
    length, width = _size(corners) if corners else (2.0, 1.0)
    common = {"id": v["id"], "title": title}
    draw = KINDS.get(str(v.get("kind", "")))
    parts = placed(draw(length, width), float(v["x"]), float(v["y"]), float(v.get("heading", 90.0))) if draw else []
    out: list[dict[str, Any]] = []
    if corners:  # the rules' outline under it all, so what is measured is what is seen
        out.append(
            {
                "kind": "polygon",
                "points": corners,
                "cls": "hull",
                "state": "footprint",
                **common,
                **_side("hull", v.get("side")),
            }
        )
    for kind, cls, points in parts:
        out.append({"kind": kind, "points": points, "cls": cls, **common, **_side(cls, v.get("side"))})
    return out


def gun(p: dict[str, Any], side: str | None, title: str) -> list[dict[str, Any]]:
    """Field piece ``p`` of the view on its carriage, turned to its heading, ``side``'s colour on its shield."""
    parts = placed(field_gun(GUN_SIZE.get(str(p.get("weapon")), 1.0)), p["x"], p["y"], p.get("heading", 90.0))
    return [
        {"kind": kind, "points": points, "cls": cls, "id": p["id"], "title": title, **_side(cls, side)}
        for kind, cls, points in parts
    ]


def _side(cls: str, side: Any) -> dict[str, Any]:
    """The side's colour on the hull (a turret or a bay on it is drawn darker over it), not on tracks and guns."""
    return {"side": side} if side and cls == "hull" else {}
