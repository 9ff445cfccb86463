"""The checks of a skirmish scenario's terrain (skirmish.17-19, 50-53, 73-92): each piece's shape on the table,
buildings' sections and storeys, castle walls, bridges over rivers, pieces that may not share ground, and
where a man may not stand. Each check yields problems as ``field: value: why`` (see ``scenario.py``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from shapely.geometry import LineString, Point, Polygon
from shapely.ops import unary_union

from grognard.core.words import counted
from grognard.rulesets.skirmish.schema import (
    HEAVY_IN_POND,
    HOUSES,
    LATER_KINDS,
    LINE_KINDS,
    MIN_RIVER_WIDTH,
    POLYGON_KINDS,
    TERRAIN_KINDS,
    XY,
    ScenarioSpec,
    StoreySpec,
    TerrainPiece,
)
from grognard.rulesets.skirmish.tables import Tables


def _polygon(points: list[XY]) -> Polygon:
    return Polygon(points)


def on_table(x: float, y: float, width: float, depth: float) -> bool:
    return 0 <= x <= width and 0 <= y <= depth


def storey_thresholds(storey: StoreySpec, tables: Tables, kind: str = "building") -> tuple[int, int, int, int]:
    """(points, full_from, no_art_cover_from, no_top_cover_from) of a storey, the tables' defaults filled in.

    ``kind`` is the structure's: a ``tower`` has the tables' ``castle.tower_points`` (20, skirmish.92) and a
    ``castle_wall`` section ``castle.wall_points`` unless the storey gives its own."""
    st = tables.structures
    default = {"tower": tables.castle.tower_points, "castle_wall": tables.castle.wall_points}.get(
        kind, st.storey_points
    )
    points = storey.points if storey.points is not None else int(default.value)
    full = storey.full_from if storey.full_from is not None else max(1, round(points * st.full_share.value))
    no_art = (
        storey.no_art_cover_from
        if storey.no_art_cover_from is not None
        else max(1, round(points * st.no_art_cover_share.value))
    )
    no_top = storey.no_top_cover_from if storey.no_top_cover_from is not None else 1
    return points, full, no_art, no_top


def check_structure(where: str, piece: TerrainPiece, tables: Tables | None, spec: ScenarioSpec) -> Iterable[str]:
    """A building's sections and storeys, a bridge's type and points (skirmish.17-19, 86-91, RULINGS S7)."""
    if piece.kind == "castle_wall":
        yield from _check_castle_wall(where, piece, tables)
    elif piece.kind not in HOUSES:
        if piece.sections is not None:
            yield f"{where}.sections: only buildings, towers and castle walls have sections"
    if piece.kind != "bridge":
        if piece.type is not None or piece.points is not None or not piece.built:
            yield f"{where}: type, points and built are a bridge's fields"
    if piece.kind == "bridge":
        yield from _check_bridge(where, piece, tables, spec)
        return
    if piece.kind not in HOUSES or not piece.sections:
        return
    outline = Polygon(piece.shape) if piece.shape is not None and len(piece.shape) >= 3 else None
    if len(piece.sections) > 1 and any(s.shape is None for s in piece.sections):
        yield f"{where}.sections: a building of {len(piece.sections)} sections gives each section its shape"
    shapes: list[tuple[str, Polygon]] = []
    for k, section in enumerate(piece.sections):
        sw = f"{where}.sections[{k}]"
        if section.shape is not None:
            if len(section.shape) < 3 or not Polygon(section.shape).is_valid or Polygon(section.shape).area <= 0:
                yield f"{sw}.shape: {[list(p) for p in section.shape[:4]]}: not a simple outline with an area"
            else:
                shape = Polygon(section.shape)
                if outline is not None and outline.is_valid and shape.difference(outline).area > 0.01:
                    yield f"{sw}.shape: {[list(p) for p in section.shape[:4]]}...: reaches outside the building"
                for other, other_shape in shapes:
                    if shape.intersection(other_shape).area > 0.01:
                        yield f"{sw}.shape: overlaps section {other!r} (sections have separate roofs)"
                shapes.append((section.id, shape))
        for n, storey in enumerate(section.storeys):
            if tables is None:
                continue
            points, full, no_art, no_top = storey_thresholds(storey, tables, piece.kind)
            if not points >= full > no_art > no_top >= 1:
                yield (
                    f"{sw}.storeys[{n}]: points {points}, full_from {full}, no_art_cover_from {no_art}, "
                    f"no_top_cover_from {no_top}: need points >= full_from > no_art_cover_from > "
                    "no_top_cover_from >= 1 (RULINGS S7: ALL DEAD below the last)"
                )
    if outline is not None and outline.is_valid and shapes and len(shapes) == len(piece.sections):
        left = outline.difference(unary_union([shape for _, shape in shapes])).area
        if left > 0.01:
            yield f"{where}.sections: {left:.2f} square inches of the building lie in no section (each has a roof)"


def _check_castle_wall(where: str, piece: TerrainPiece, tables: Tables | None) -> Iterable[str]:
    """A castle wall's doors lie on its line; its sections are stretches of it, one storey each, covering it."""
    if piece.line is None or len(piece.line) < 2 or LineString(piece.line).length <= 0:
        return
    line = LineString(piece.line)
    for k, door in enumerate(piece.doors):
        gap = line.distance(Point(door.at))
        if gap > 0.05:
            yield f"{where}.doors[{k}].at: {list(door.at)}: not on the castle wall's line ({gap:.2f}\" away)"
    if piece.windows:
        yield f"{where}.windows: a castle wall has doors, not windows"
    if not piece.sections:
        return
    covered = []
    for k, section in enumerate(piece.sections):
        sw = f"{where}.sections[{k}]"
        if section.shape is not None:
            yield f"{sw}.shape: a castle wall's section is a stretch of its line (give line, not shape)"
        if len(section.storeys) != 1:
            yield f"{sw}.storeys: a wall section has one storey of points, not {len(section.storeys)}"
        if section.line is None or len(section.line) < 2:
            if len(piece.sections) > 1:
                yield f"{sw}.line: (missing): a wall of {len(piece.sections)} sections gives each its stretch"
            continue
        stretch = LineString(section.line)
        off = max(line.distance(Point(p)) for p in section.line)
        if off > 0.05:
            yield f"{sw}.line: {[list(p) for p in section.line]}: not along the castle wall's line"
        covered.append(stretch)
        if tables is not None:
            points, full, no_art, no_top = storey_thresholds(section.storeys[0], tables, "castle_wall")
            if not points >= full > no_art > no_top >= 1:
                yield (
                    f"{sw}.storeys[0]: points {points}: need points >= full_from > no_art_cover_from "
                    "> no_top_cover_from >= 1"
                )
    if covered and len(covered) == len(piece.sections):
        left = line.length - sum(c.length for c in covered)
        if abs(left) > 0.05:
            yield f'{where}.sections: their stretches add up to {line.length - left:.2f}" of a {line.length:.2f}" wall'


def _check_bridge(where: str, piece: TerrainPiece, tables: Tables | None, spec: ScenarioSpec) -> Iterable[str]:
    if tables is not None:
        if piece.type is None:
            yield f"{where}.type: (missing): a bridge is one of {', '.join(tables.bridges.types)}"
        elif piece.type not in tables.bridges.types:
            yield f"{where}.type: {piece.type!r}: not a bridge in the tables ({', '.join(tables.bridges.types)})"
        elif piece.points is not None and piece.points > tables.bridges.types[piece.type].points:
            full = tables.bridges.types[piece.type].points
            yield f"{where}.points: {piece.points}: a {piece.type} bridge has at most {full} points (skirmish.88-89)"
    if not piece.built and piece.points is not None:
        yield f"{where}.points: {piece.points}: a bridge not yet built has no points (it gets them when built)"
    if piece.line is not None and len(piece.line) >= 2:
        deck = LineString(piece.line).buffer((piece.width or 1.0) / 2, cap_style="flat")
        rivers = [
            LineString(p.line).buffer((p.width or MIN_RIVER_WIDTH) / 2, cap_style="flat")
            for p in spec.terrain
            if p.kind == "river" and p.line is not None and len(p.line) >= 2
        ]
        if not any(deck.intersects(r) for r in rivers):
            yield f"{where}.line: {[list(p) for p in piece.line]}: a bridge spans a river, and this one meets none"


EXCLUSIVE_KINDS = ("building", "tower", "boulder", "pond", "bay")  # no two of these may share ground


def check_overlaps(spec: ScenarioSpec) -> Iterable[str]:
    """Buildings, boulders, ponds and bays may not overlap one another (a house cannot stand in a pond)."""
    placed: list[tuple[int, TerrainPiece, Polygon]] = []
    for i, piece in enumerate(spec.terrain):
        if piece.kind not in EXCLUSIVE_KINDS:
            continue
        shape = boulder_shape(piece) if piece.kind == "boulder" else None
        if piece.kind != "boulder" and piece.shape is not None and len(piece.shape) >= 3:
            shape = Polygon(piece.shape)
        if shape is None or not shape.is_valid:
            continue
        for j, other, other_shape in placed:
            if shape.intersection(other_shape).area > 0.01:
                name = f" {other.id!r}" if other.id else ""
                yield f"terrain[{i}].kind: {piece.kind!r}: overlaps terrain[{j}], a {other.kind}{name}"
        placed.append((i, piece, shape))


def piece_shape(piece: TerrainPiece) -> Polygon | None:
    """A terrain piece's ground for the scenario check (walls 0.5" thick, traps 0.5" across)."""
    if piece.kind == "boulder":
        return boulder_shape(piece)
    if piece.shape is not None and len(piece.shape) >= 3:
        return Polygon(piece.shape)
    if piece.line is not None and len(piece.line) >= 2:
        return LineString(piece.line).buffer(0.25)
    if piece.at is not None:
        return Point(piece.at).buffer(0.25)
    return None


def inside_blocking(spec: ScenarioSpec, x: float, y: float, weapon: str) -> str | None:
    """Why a figure may not stand at (x, y): in a boulder, or in a pond or bay with a heavy weapon."""
    point = Point(x, y)
    for piece in spec.terrain:
        if piece.kind == "boulder":
            shape = boulder_shape(piece)
            if shape is not None and shape.contains(point):
                return "inside a boulder"
        elif piece.kind in ("pond", "bay") and weapon in HEAVY_IN_POND:
            if piece.shape is not None and len(piece.shape) >= 3 and Polygon(piece.shape).is_valid:
                if Polygon(piece.shape).covers(point):
                    return f"a man with a {weapon} may not be in a {piece.kind} (skirmish.53: too deep)"
    return None


def boulder_shape(piece: TerrainPiece) -> Polygon | None:
    if piece.shape is not None and len(piece.shape) >= 3:
        return Polygon(piece.shape)
    if piece.at is not None and piece.radius is not None:
        return Point(piece.at).buffer(piece.radius, 16)
    return None


def check_polygon(where: str, points: list[XY], width: float, depth: float) -> Iterable[str]:
    if len(points) < 3:
        yield f"{where}: {counted(len(points), 'point')}: a shape needs at least 3 corners"
        return
    polygon = _polygon(points)
    if not polygon.is_valid:
        more = "..." if len(points) > 4 else ""  # the first four corners, and a mark when there are more
        yield f"{where}: {[list(p) for p in points[:4]]}{more}: the outline crosses itself"
    elif polygon.area <= 0:
        yield f"{where}: {[list(p) for p in points[:4]]}: the shape has no area"
    yield from check_points(where, points, width, depth)


def check_points(where: str, points: list[XY], width: float, depth: float) -> Iterable[str]:
    """Each point finite and on the table (terrain and objectives are drawn on it, edges included)."""
    for p in points:
        if not math.isfinite(p[0]) or not math.isfinite(p[1]):
            yield f"{where}: {list(p)}: not a finite point"
        elif not on_table(p[0], p[1], width, depth):
            size = f'{width:g}" x {depth:g}" ' if math.isfinite(width) and math.isfinite(depth) else ""
            yield f"{where}: {list(p)}: off the {size}table"


def check_piece(where: str, piece: TerrainPiece, width: float, depth: float) -> Iterable[str]:
    kind = piece.kind
    if kind in LATER_KINDS:
        yield f"{where}.kind: {kind!r}: comes with {LATER_KINDS[kind]} of the skirmish rules"
        return
    if kind not in TERRAIN_KINDS:
        yield f"{where}.kind: {kind!r}: unknown terrain; one of {', '.join(TERRAIN_KINDS)}"
        return
    if kind == "boulder" and piece.shape is None:
        if piece.at is None or piece.radius is None:
            yield f"{where}: a boulder needs a shape, or at and radius"
        else:
            yield from check_points(f"{where}.at", [piece.at], width, depth)
        return
    if kind in POLYGON_KINDS:
        if piece.shape is None:
            yield f"{where}.shape: (missing): a {kind} is a shape"
            return
        yield from check_polygon(f"{where}.shape", piece.shape, width, depth)
        if kind == "hill" and piece.height is None:
            yield f"{where}.height: (missing): a hill needs its height in inches"
        if kind in HOUSES and len(piece.shape) >= 3 and Polygon(piece.shape).is_valid:
            outline = Polygon(piece.shape).exterior
            for k, opening in enumerate([*piece.doors, *piece.windows]):
                name = "doors" if k < len(piece.doors) else "windows"
                index = k if k < len(piece.doors) else k - len(piece.doors)
                gap = outline.distance(Point(opening.at))
                if gap > 0.05:
                    yield (
                        f"{where}.{name}[{index}].at: {list(opening.at)}: not on the building's wall ({gap:.2f}\" away)"
                    )
        elif kind not in HOUSES and (piece.doors or piece.windows):
            yield f"{where}: only buildings, towers and castle walls have doors and windows"
    elif kind in LINE_KINDS:
        if piece.line is None or len(piece.line) < 2:
            yield f"{where}.line: {piece.line}: a {kind} is a line of at least 2 points"
            return
        yield from check_points(f"{where}.line", piece.line, width, depth)
        if LineString(piece.line).length <= 0:
            yield f"{where}.line: {piece.line}: the line has no length"
        if kind == "river":
            if piece.width is None:
                yield f'{where}.width: (missing): a river needs its width (at least {MIN_RIVER_WIDTH:g}")'
            elif piece.width < MIN_RIVER_WIDTH:
                yield f'{where}.width: {piece.width:g}: a river is at least {MIN_RIVER_WIDTH:g}" wide (skirmish.46)'
        if kind == "cliff" and piece.height is None:
            yield f"{where}.height: (missing): a cliff needs its height in inches"
        if kind == "railway" and piece.line and math.isfinite(width) and math.isfinite(depth):
            x, y = piece.line[0]
            if min(x, width - x, y, depth - y) > 0.01:
                yield f"{where}.line: {list(piece.line[0])}: a railway starts at the board's end (an edge of the table)"
    elif piece.at is None:
        yield f"{where}.at: (missing): a {kind} stands at a point"
    else:
        yield from check_points(f"{where}.at", [piece.at], width, depth)
