"""The skirmish's terrain as a scene's shapes (``face.scene``'s first layer) and the table's key, from the seat's
view alone: hills with their contours and heights, woods, water, roads, the railway, walls, wire, cliffs, buildings
by section with their storeys and points, doors and windows, bridges standing or down, the castle's court and its
walls by section with their battlements, the objectives and the scenario's title. Each kind has its own look in
grey as well as in colour (web/static/table.js's patterns, style.css's classes).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from typing import Any

TITLE_ROOM = 1.6  # inches beside the west edge for the scenario's title (along it: the table's depth is what
# limits it on a screen, and a 48" table is drawn at 14 px an inch or more at 1366x768)
CLS = {
    "hill": "hill",
    "pond": "water",
    "bay": "water",
    "river": "water",
    "woods": "wood",
    "bushes": "wood",
    "small_rocks": "obstacle",
    "boulder": "obstacle",
    "road": "road",
    "railway": "rail",
    "stone_wall": "wall",
    "sandbags": "wall",
    "castle_wall": "wall",
    "cliff": "wall",
    "barbed_wire": "wire",
    "tank_trap": "obstacle",
    "building": "building",
    "tower": "building",
    "castle": "court",
    "bridge": "bridge",
}
LINES = ("barbed_wire", "cliff")  # drawn as lines, not areas
ORDER = (
    "castle",
    "hill",
    "pond",
    "bay",
    "river",
    "road",
    "railway",
    "bridge",
    "woods",
    "bushes",
    "small_rocks",
    "boulder",
    "stone_wall",
    "sandbags",
    "tank_trap",
    "cliff",
    "barbed_wire",
    "castle_wall",
    "building",
    "tower",
)


def _name(kind: str) -> str:
    return kind.replace("_", " ")


def _flat(shape: Any) -> list[list[list[float]]]:
    """A piece's shape as a list of rings (a multi-part shape has several)."""
    if not shape or not isinstance(shape, list) or not isinstance(shape[0], list):
        return []
    return shape if isinstance(shape[0][0], list) else [shape]


def _centre(points: Iterable[Any]) -> tuple[float, float]:
    pts = [(float(p[0]), float(p[1])) for p in points]
    if not pts:
        return 0.0, 0.0
    return sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)


def _opening_label(view: dict[str, Any], opening: dict[str, Any]) -> str:
    door = next((d for d in view.get("doors", []) if d["id"] == opening["id"]), None)
    if not opening.get("door"):
        return f"window {opening['id']}"
    if door is None:
        return f"door {opening['id']}"
    state = "blown" if door.get("blown") else "open" if door.get("open") else "shut"
    return f"door {opening['id']} ({state})"


def terrain_shapes(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The terrain to scale: hills with their heights, woods, water, roads, railway, walls, wire, cliffs,
    buildings by section with their storeys, state, doors and windows, bridges standing or down, castle walls
    by section, the objectives."""
    terrain = view["terrain"]
    width, depth = float(terrain["width"]), float(terrain["depth"])
    structures = view.get("structures", {})
    sections = structures.get("sections", {})
    bridges = structures.get("bridges", {})
    walls = structures.get("walls", {})
    out: list[dict[str, Any]] = [
        {"kind": "rect", "x": 0, "y": 0, "w": width, "h": depth, "cls": "ground", "title": f'{width:g}" x {depth:g}"'}
    ]
    pieces = sorted(terrain["pieces"], key=lambda p: ORDER.index(p["kind"]) if p["kind"] in ORDER else len(ORDER))
    for piece in pieces:
        kind, pid = piece["kind"], piece.get("id", "")
        cls = CLS.get(kind, "obstacle")
        if kind in LINES:
            height = f', {piece["height"]:g}" high' if piece.get("height") else ""
            out.append({"kind": "polyline", "points": piece["line"], "cls": cls, "title": f"{_name(kind)}{height}"})
            if kind == "barbed_wire":
                out.append(coil(piece["line"], f"{_name(kind)}{height}"))
            continue
        if kind == "castle_wall" and "sections" in piece:
            for sec in piece["sections"]:
                state = walls.get(sec["id"], {}).get("state", "")
                points = walls.get(sec["id"], {}).get("points", sec.get("points"))
                out.append(
                    {
                        "kind": "polyline",
                        "points": sec["line"],
                        "cls": "wall",
                        "id": sec["id"],
                        "title": f'castle wall {sec["id"]}, {piece.get("height", 3):g}" high: {points} points, {state}',
                    }
                )
                out.append({**out[-1], "state": "battlement"})  # its crenels along the top
            for opening in piece.get("openings", []):
                out.append(_opening(view, opening))
            continue
        if kind == "castle_wall":  # its footprint (a band round the court, sent as its outside) is not drawn filled
            if "line" in piece and not any(q.get("sections") and q.get("id") == pid for q in pieces):
                title = f'castle wall {pid}, {piece.get("height", 3):g}" high'
                out.append({"kind": "polyline", "points": piece["line"], "cls": "wall", "title": title})
                out.append({**out[-1], "state": "battlement"})
            continue
        if kind == "bridge":
            info = bridges.get(pid, {})
            standing = info.get("standing", True)
            for ring in _flat(piece.get("shape")):
                out.append(
                    {
                        "kind": "polygon" if standing else "polyline",
                        "points": ring,
                        "cls": "bridge",
                        "id": pid,
                        "title": (info.get("text") or f"bridge {pid}") + ("" if standing else " (down or not built)"),
                    }
                )
            continue
        rings = _flat(piece.get("shape"))
        if kind in ("building", "tower"):
            out += _building(view, piece, sections)
            continue
        for ring in rings:
            title = _name(kind) + (f" {pid}" if pid else "")
            if kind == "hill":
                title = f'hill {pid}, {piece.get("height", 0):g}" high'
            out.append({"kind": "polygon", "points": ring, "cls": cls, "title": title})
        if kind == "hill" and rings:
            out += contours(rings[0], float(piece.get("height", 0)), f'hill {pid}, {piece.get("height", 0):g}" high')
            x, y = _centre(rings[0][:-1])
            out.append({"kind": "text", "x": x, "y": y, "text": f'{piece.get("height", 0):g}"', "cls": "label"})
    out.append(  # the scenario's title along the west edge, read upwards from its south end
        {
            "kind": "text",
            "x": -TITLE_ROOM / 2,
            "y": 0.0,
            "text": view["scenario"]["title"],
            "cls": "label",
            "anchor": "start",
            "rotate": -90,
            "size": 0.8,
        }
    )
    for objective in view["scenario"].get("objectives", []):
        x, y = _centre(objective["shape"][:-1] if len(objective["shape"]) > 3 else objective["shape"])
        name = objective.get("name") or objective["id"]
        out.append({"kind": "polygon", "points": objective["shape"], "cls": "target", "title": f"objective: {name}"})
        out.append({"kind": "text", "x": x, "y": y, "text": name, "cls": "label"})
    return out


def _opening(view: dict[str, Any], opening: dict[str, Any]) -> dict[str, Any]:
    x, y = opening["at"]
    w = float(opening.get("width", 1.0))
    side = w if opening.get("door") else w * 0.6
    return {
        "kind": "rect",
        "x": x - side / 2,
        "y": y - side / 2,
        "w": side,
        "h": side,
        "cls": "door" if opening.get("door") else "window",
        "id": opening["id"],
        "title": _opening_label(view, opening),
    }


def _building(view: dict[str, Any], piece: dict[str, Any], states: dict[str, Any]) -> list[dict[str, Any]]:
    """A building or tower: each section (its own roof) with its storeys' points and state (skirmish.17, 18),
    its doors and windows (skirmish.39)."""
    out: list[dict[str, Any]] = []
    kind = "tower" if piece["kind"] == "tower" else "building"
    sections = piece.get("sections") or [{"id": piece["id"], "shape": piece["shape"], "storeys": []}]
    for sec in sections:
        info = states.get(sec["id"], {})
        storeys = len(sec.get("storeys") or []) or len(info.get("points") or []) or 1
        points = "/".join(str(p) for p in info.get("points", [])) or "?"
        state = info.get("state", "")
        for ring in _flat(sec.get("shape")):
            out.append(
                {
                    "kind": "polygon",
                    "points": ring,
                    "cls": "building",
                    "id": sec["id"],
                    **({"state": "tall"} if storeys > 1 else {}),
                    "title": f"{kind} {sec['id']}: {storeys} storey{'s' if storeys > 1 else ''}, "
                    f"{points} points, {state}",
                }
            )
        outlines = _flat(sec.get("shape"))
        if outlines:
            for k in range(1, min(storeys, 3)):  # each storey above the ground floor: an outline inside the last
                points_in = [[round(a, 2), round(b, 2)] for a, b in _scaled(outlines[0], 1 - 0.16 * k)]
                out.append({"kind": "polyline", "points": points_in, "cls": "building", "state": "storey"})
            x, y = _centre(outlines[0][:-1])
            label = f"{sec['id']} ({storeys} storeys)" if storeys > 1 else sec["id"]
            out.append({"kind": "text", "x": x, "y": y + 0.3, "text": label, "cls": "label", "size": 0.8})
            out.append({"kind": "text", "x": x, "y": y - 0.7, "text": f"{points} pts", "cls": "label", "size": 0.7})
    for opening in piece.get("openings", []):
        out.append(_opening(view, opening))
    return out


def _scaled(ring: list[list[float]], k: float) -> list[tuple[float, float]]:
    """``ring`` shrunk by ``k`` about its centre."""
    cx, cy = _centre(ring[:-1] if len(ring) > 3 and ring[0] == ring[-1] else ring)
    return [(cx + (float(x) - cx) * k, cy + (float(y) - cy) * k) for x, y in ring]


def contours(ring: list[list[float]], height: float, title: str) -> list[dict[str, Any]]:
    """A hill's contour lines inside its foot, one for each inch of height above the first (at most three), closed.

    >>> [len(c["points"]) for c in contours([[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]], 2.0, "hill")]
    [5]
    """
    n = max(0, min(3, round(height) - 1)) if height >= 1.5 else 1
    out = []
    for k in range(1, n + 1):
        points = [[round(x, 2), round(y, 2)] for x, y in _scaled(ring, 1 - k / (n + 1))]
        out.append({"kind": "polyline", "points": points, "cls": "hill", "state": "contour", "title": title})
    return out


def coil(line: list[list[float]], title: str) -> dict[str, Any]:
    """Barbed wire's coil along ``line``: a zigzag 0.25" either side of it, a turn every half inch."""
    points: list[list[float]] = []
    for (x0, y0), (x1, y1) in itertools.pairwise(line):
        length = math.hypot(x1 - x0, y1 - y0)
        if length == 0:
            continue
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        steps = max(1, round(length / 0.25))
        for k in range(1 if points else 0, steps + 1):  # a segment starts where the last ended
            t, side = length * k / steps, 0.25 if len(points) % 2 else -0.25
            points.append([round(x0 + ux * t - uy * side, 2), round(y0 + uy * t + ux * side, 2)])
    return {"kind": "polyline", "points": points, "cls": "wire", "state": "coil", "title": title}


def terrain_key(view: dict[str, Any]) -> list[dict[str, str]]:
    """The table's key: one ``{"cls", "name", "state"?}`` for each look the scenario's terrain has (the kinds
    that share a look named together, "woods / bushes"), open ground first, then doors, windows and buildings
    of more than one storey where there are any."""
    names: dict[str, list[str]] = {"ground": ["open ground"]}
    tall = openings = False
    for piece in view["terrain"]["pieces"]:
        kind = piece["kind"]
        cls = CLS.get(kind, "obstacle")
        names.setdefault(cls, [])
        if _name(kind) not in names[cls]:
            names[cls].append(_name(kind))
        if kind in ("building", "tower"):
            tall = tall or any(len(sec.get("storeys") or []) > 1 for sec in piece.get("sections") or [])
        openings = openings or bool(piece.get("openings"))
    out = [{"cls": cls, "name": " / ".join(words)} for cls, words in names.items() if words]
    if tall:
        out.append({"cls": "building", "state": "tall", "name": "building, 2 or more storeys"})
    if openings:
        out += [{"cls": "door", "name": "door"}, {"cls": "window", "name": "window"}]
    return out
