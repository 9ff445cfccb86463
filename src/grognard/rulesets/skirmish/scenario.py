"""Skirmish scenarios: TOML files of a table, its terrain, two sides, their units, and how to win.

A scenario is checked whole: :func:`check_scenario` returns every problem at
once as ``field: value: why`` (for a scenario editor), and
:func:`load_scenario` refuses a file with problems (:class:`ScenarioError`).
Shipped scenarios live in ``scenarios/`` and are named by their file's stem
(``hill_assault``); any other value is a path to the user's own file.

Conventions (the whole rule set's): inches; the table's origin is its
south-west corner, x runs east (0 to ``table.width``), y runs north (0 to
``table.depth``). A figure stands at the centre of its 1" base. Terrain is
given as shapes: ``shape`` (a polygon's corners), ``line`` (a polyline's
points) with a ``width`` for roads and rivers, or ``at`` (a point).

A unit with ``enters = 0`` stands on the table at the start; one with
``enters = k`` waits off its side's edge and may come on from move ``k``:
its figures' positions are given off the table, at most 6" beyond that edge.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, FiniteFloat, ValidationError
from shapely.geometry import LineString, Point, Polygon
from shapely.ops import unary_union

from grognard.core.errors import GrognardError
from grognard.rulesets.skirmish.tables import (
    VEHICLE_KINDS,
    Tables,
    TablesError,
    check_tables,
    describe_error,
    load_tables,
    read_toml,
    template_problem,
)

SCENARIOS_DIR = Path(__file__).parent / "scenarios"
SIDE_IDS = ("allies", "axis")
EDGES = ("south", "north", "west", "east")
OFF_TABLE_DEPTH = 6.0  # a waiting unit stands at most this far beyond its edge
MIN_RIVER_WIDTH = 4.0  # seed: a river is at least 4" wide
HEAVY_IN_POND = ("bazooka", "mg", "mortar")  # seed: too deep for them (skirmish.53)

POLYGON_KINDS = ("hill", "pond", "bay", "woods", "small_rocks", "bushes", "building", "boulder", "tower", "castle")
LINE_KINDS = ("road", "river", "stone_wall", "barbed_wire", "cliff", "sandbags", "bridge", "railway", "castle_wall")
POINT_KINDS = ("tank_trap",)
TERRAIN_KINDS = POLYGON_KINDS + LINE_KINDS + POINT_KINDS
LATER_KINDS: dict[str, str] = {}
HOUSES = ("building", "tower")  # structures men go into through doors (a tower is a building of 20 points)
CASTLE_WALL_HEIGHT = 3.0  # inches: castle walls are 3" high (seed, COVER)

XY = tuple[FiniteFloat, FiniteFloat]  # NaN or infinity is refused as the field's problem, before any geometry


class ScenarioError(GrognardError):
    """A scenario with problems; ``problems`` lists every one (``field: value: why``)."""

    code = "scenario"

    def __init__(self, where: str, problems: list[str]) -> None:
        self.problems = problems
        super().__init__(f"{where}: {len(problems)} problem(s):\n  " + "\n  ".join(problems))


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)  # NaN and infinity: "not a finite number"


class TableSize(_Model):
    width: float = Field(gt=0, le=480)
    depth: float = Field(gt=0, le=480)


class Opening(_Model):
    """A door or window on a building's wall: its centre ``at`` and ``width`` (inches)."""

    id: str | None = None
    at: XY
    width: float = Field(default=1.0, gt=0, le=6)
    open: bool = False


class StoreySpec(_Model):
    """One storey of a building section (RULINGS S7): its points and, if not the tables', its thresholds.

    ``full_from``: FULL POINTS from this many points up; ``no_art_cover_from``:
    NO ART. COVER from here; ``no_top_cover_from``: NO TOP COVER (rubble) from
    here (default 1); below it ALL DEAD (the storey has collapsed).
    """

    points: int | None = Field(default=None, ge=1, le=1000)
    full_from: int | None = Field(default=None, ge=1)
    no_art_cover_from: int | None = Field(default=None, ge=1)
    no_top_cover_from: int | None = Field(default=None, ge=1)


class SectionSpec(_Model):
    """A section of a building with its own roof: its outline (default: the whole building) and storeys.

    ``storeys`` lists the first (ground) storey first, then the second; the
    second must be gone before the first takes damage (skirmish.91).
    """

    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_.\-]*$", max_length=24)
    shape: list[XY] | None = None
    line: list[XY] | None = None  # a castle wall's section: its stretch of the wall's line
    storeys: list[StoreySpec] = Field(default_factory=lambda: [StoreySpec()], min_length=1, max_length=2)


class TerrainPiece(_Model):
    """One piece of terrain. Which of ``shape``/``line``/``at`` it needs depends on ``kind``.

    A castle wall (skirmish.73-85) is a ``line`` (its corners are the line's
    points), ``height`` 3" unless given, with ``doors`` on it and ``sections``
    each a stretch of the ``line`` with one storey of points (default the
    tables' ``castle.wall_points``). A tower is a building (a ``shape``, doors
    and windows) of one storey of ``castle.tower_points`` (20, skirmish.92); a
    ``castle`` is the castle's ground (a ``shape``) that tanks may not enter
    (skirmish.62).

    A building may have ``sections`` (default: one section, the whole building,
    one storey of the tables' points). A bridge is a ``line`` across a river
    with a ``type`` (``large`` or ``foot``), a deck ``width`` (default: its men
    abreast when whole, a base each), its ``points`` at the start (default: whole)
    and ``built = false`` for a site where men must build it first (skirmish.86).
    """

    kind: str
    id: str | None = None
    shape: list[XY] | None = None
    line: list[XY] | None = None
    at: XY | None = None
    radius: float | None = Field(default=None, gt=0)
    width: float | None = Field(default=None, gt=0)
    height: float | None = Field(default=None, gt=0, le=12)
    doors: list[Opening] = []
    windows: list[Opening] = []
    sections: list[SectionSpec] | None = None
    type: str | None = None
    points: int | None = Field(default=None, ge=0, le=1000)
    built: bool = True


class FigureSpec(_Model):
    type: str = "infantry"
    weapon: str = "rifle"
    at: XY


class UnitSpec(_Model):
    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9]*$", max_length=12)
    side: str
    name: str = ""
    enters: int = Field(default=0, ge=0, le=100)
    figures: list[FigureSpec] = Field(min_length=1, max_length=60)


class PieceSpec(_Model):
    """An artillery piece on the table (skirmish.12, 31): ``weapon`` a piece of the tables' ``[artillery]``
    (heavy, medium or light artillery), its centre ``at`` (inches), ``heading`` (degrees, counter-clockwise
    from east: the middle of its firing arc, skirmish.55), ``crew``, the unit that serves it, and ``hitched``,
    a vehicle it starts hitched to (skirmish.61: it then stands behind that vehicle, wherever ``at`` says)."""

    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9]*$", max_length=12)
    weapon: str
    at: XY
    heading: float = Field(default=90.0, ge=0, lt=360)
    crew: str
    hitched: str | None = None


class TemplateSpec(_Model):
    """A scenario's own burst template: ``id``, the ``burst`` class it belongs to, its corners around (0, 0)."""

    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_]*$")
    burst: str
    points: list[XY] = Field(min_length=3, max_length=64)


class SideSpec(_Model):
    id: str
    name: str
    edge: str
    breaks_at: float = Field(default=1.0, gt=0, le=1)


class Objective(_Model):
    id: str
    name: str = ""
    shape: list[XY]


class Victory(_Model):
    attacker: str
    objectives: list[str] = []
    turn_limit: int = Field(ge=1, le=1000)
    at_limit: Literal["defender", "draw", "unfinished"] = "defender"


class VehicleSpec(_Model):
    """A vehicle (skirmish.23, 31, 57, 60): ``kind`` from the tables, where it stands (``at``, its centre)
    and its ``heading`` (degrees, 0 east, counter-clockwise: ``core.geometry`` headings).

    ``crew`` and ``passengers`` name the men aboard at the start, figures
    (``A.1``) or whole units (``A``); the crew come first, so the first of them
    drives and the next man each of its weapons in their order. ``weapons`` are the vehicle's own (a MG;
    a tank's gun, ``medium_tank_gun``: skirmish.12);
    ``armoured`` overrides its kind's (for bridges that bear unarmoured vehicles only).
    """

    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9]*$", max_length=12)
    kind: str
    side: str
    name: str = ""
    at: XY
    heading: float = Field(default=0.0, ge=-360, le=360)
    crew: list[str] = []
    passengers: list[str] = []
    weapons: list[str] = []
    armoured: bool | None = None  # None: as its kind in the tables (half tracks and tanks are)


class TrainSpec(_Model):
    """The train (skirmish.44): it runs along the railway ``railway`` (a terrain id; the only one if omitted),
    coming on at the line's first point on move ``enters``."""

    railway: str | None = None
    enters: int = Field(default=1, ge=1, le=100)


class DropSpec(_Model):
    """A paratroop drop (skirmish.26): unit ``unit`` comes down on move ``move``; each of its men aims at
    his own ``at`` (on the table) and scatters from it (tables' ``[paratroops]``). The unit acts from the
    next move. Its ``enters`` is left at 0: it waits in the air, not beyond an edge."""

    unit: str
    move: int = Field(default=1, ge=1, le=100)


class ScenarioSpec(_Model):
    """A whole scenario file (see the module's conventions)."""

    name: str
    title: str
    description: str = ""
    tables: str = "default"
    first_mover: str = "initiative"
    table: TableSize
    sides: list[SideSpec] = Field(min_length=2, max_length=2)
    terrain: list[TerrainPiece] = []
    units: list[UnitSpec] = Field(min_length=2)
    pieces: list[PieceSpec] = []
    templates: list[TemplateSpec] = []
    objectives: list[Objective] = []
    victory: Victory
    vehicles: list[VehicleSpec] = []
    train: TrainSpec | None = None
    drops: list[DropSpec] = []


@dataclass(frozen=True)
class Scenario:
    """A checked scenario: its spec, its tables, and where it came from (a shipped name or a path)."""

    spec: ScenarioSpec
    tables: Tables
    source: str
    data: dict[str, Any]

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def digest(self) -> str:
        """SHA-256 of the scenario's data and its tables' (a record names the exact files it was played on)."""
        body = json.dumps({"scenario": self.data, "tables": self.tables.model_dump()}, sort_keys=True, default=str)
        return hashlib.sha256(body.encode()).hexdigest()


def _polygon(points: list[XY]) -> Polygon:
    return Polygon(points)


def _edge_side(x: float, y: float, width: float, depth: float) -> str | None:
    """Which edge a point off the table lies beyond (None if it is on the table)."""
    if y < 0:
        return "south"
    if y > depth:
        return "north"
    if x < 0:
        return "west"
    if x > width:
        return "east"
    return None


def _on_table(x: float, y: float, width: float, depth: float) -> bool:
    return 0 <= x <= width and 0 <= y <= depth


def _semantic(spec: ScenarioSpec, tables: Tables | None) -> Iterable[str]:
    """Problems pydantic's field checks cannot see: references, shapes, positions."""
    width, depth = spec.table.width, spec.table.depth
    side_ids = [s.id for s in spec.sides]
    for i, side in enumerate(spec.sides):
        if side.id not in SIDE_IDS:
            yield f"sides[{i}].id: {side.id!r}: must be one of {', '.join(SIDE_IDS)}"
        if side.edge not in EDGES:
            yield f"sides[{i}].edge: {side.edge!r}: must be one of {', '.join(EDGES)}"
    if len(set(side_ids)) != len(side_ids):
        yield f"sides: {side_ids}: the two sides must differ"
    if spec.first_mover not in ("initiative", *SIDE_IDS):
        yield f"first_mover: {spec.first_mover!r}: 'initiative' (RULINGS S0) or a side"
    if spec.victory.attacker not in side_ids:
        yield f"victory.attacker: {spec.victory.attacker!r}: not a side of this scenario ({', '.join(side_ids)})"
    objective_ids = [o.id for o in spec.objectives]
    for ref in spec.victory.objectives:
        if ref not in objective_ids:
            yield f"victory.objectives: {ref!r}: no objective has this id"
    for i, objective in enumerate(spec.objectives):
        yield from _check_polygon(f"objectives[{i}].shape", objective.shape, width, depth)
    ids: dict[str, str] = {}
    for i, piece in enumerate(spec.terrain):
        yield from _check_piece(f"terrain[{i}]", piece, width, depth)
        yield from _check_structure(f"terrain[{i}]", piece, tables, spec)
        if piece.id is not None:
            if piece.id in ids:
                yield f"terrain[{i}].id: {piece.id!r}: used twice"
            ids[piece.id] = piece.kind
        for section in piece.sections or []:
            if section.id in ids:
                yield f"terrain[{i}].sections: {section.id!r}: id used twice"
            ids[section.id] = "section"
        for door in piece.doors:
            if door.id is not None:
                if door.id in ids:
                    yield f"terrain[{i}].doors: {door.id!r}: id used twice"
                ids[door.id] = "door"
    yield from _check_overlaps(spec)
    unit_ids: set[str] = set()
    dropped = {d.unit.upper(): d.move for d in spec.drops}
    riding = dict(_aboard(spec))
    counts = dict.fromkeys(side_ids, 0)
    first_wave = dict.fromkeys(side_ids, 0)
    for i, unit in enumerate(spec.units):
        where = f"units[{i}]"
        if unit.id.upper() in unit_ids:
            yield f"{where}.id: {unit.id!r}: used twice (unit names are read in capitals)"
        unit_ids.add(unit.id.upper())
        if unit.side not in side_ids:
            yield f"{where}.side: {unit.side!r}: not a side of this scenario ({', '.join(side_ids)})"
            continue
        counts[unit.side] += 1
        if dropped.get(unit.id.upper(), unit.enters) <= 1:
            first_wave[unit.side] += 1
        edge = next(s.edge for s in spec.sides if s.id == unit.side)
        for j, fig in enumerate(unit.figures):
            fw = f"{where}.figures[{j}]"
            if tables is not None:
                if fig.type not in tables.men:
                    yield f"{fw}.type: {fig.type!r}: not a type of man in the tables ({', '.join(tables.men)})"
                if fig.weapon not in tables.weapons:
                    yield f"{fw}.weapon: {fig.weapon!r}: not a weapon in the tables ({', '.join(tables.weapons)})"
            x, y = fig.at
            if unit.id.upper() in dropped:
                if not _on_table(x, y, width, depth):
                    yield f"{fw}.at: {list(fig.at)}: off the table (a paratrooper's at is where he aims: skirmish.26)"
            elif unit.enters == 0:
                if not _on_table(x, y, width, depth):
                    yield f'{fw}.at: {list(fig.at)}: off the {width:g}" x {depth:g}" table (enters = 0 stands on it)'
                else:
                    inside = _inside_blocking(spec, x, y, fig.weapon)
                    if inside and f"{unit.id.upper()}.{j + 1}" not in riding:  # men aboard ride at its centre
                        yield f"{fw}.at: {list(fig.at)}: {inside}"
            else:
                beyond = _edge_side(x, y, width, depth)
                if beyond != edge:
                    yield (
                        f"{fw}.at: {list(fig.at)}: a unit entering on move {unit.enters} waits beyond "
                        f"its side's {edge} edge"
                    )
                elif _off_distance(x, y, width, depth) > OFF_TABLE_DEPTH:
                    yield f'{fw}.at: {list(fig.at)}: more than {OFF_TABLE_DEPTH:g}" beyond the {edge} edge'
    aboard = dict(_aboard(spec))
    yield from _check_vehicles(spec, tables, aboard)
    yield from _check_train(spec)
    yield from _check_drops(spec, aboard)
    yield from _check_bases(spec, tables, set(aboard) | {f"{u}.{n}" for u in dropped for n in range(1, 61)})
    yield from _check_pieces(spec, tables)
    for side in side_ids:
        if counts[side] == 0:
            yield f"units: side {side!r} has no units"
        elif first_wave[side] == 0:
            yield f"units: side {side!r} has no unit on the table or entering on move 1"


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


def _check_structure(where: str, piece: TerrainPiece, tables: Tables | None, spec: ScenarioSpec) -> Iterable[str]:
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


def _check_overlaps(spec: ScenarioSpec) -> Iterable[str]:
    """Buildings, boulders, ponds and bays may not overlap one another (a house cannot stand in a pond)."""
    placed: list[tuple[int, TerrainPiece, Polygon]] = []
    for i, piece in enumerate(spec.terrain):
        if piece.kind not in EXCLUSIVE_KINDS:
            continue
        shape = _boulder(piece) if piece.kind == "boulder" else None
        if piece.kind != "boulder" and piece.shape is not None and len(piece.shape) >= 3:
            shape = Polygon(piece.shape)
        if shape is None or not shape.is_valid:
            continue
        for j, other, other_shape in placed:
            if shape.intersection(other_shape).area > 0.01:
                name = f" {other.id!r}" if other.id else ""
                yield f"terrain[{i}].kind: {piece.kind!r}: overlaps terrain[{j}], a {other.kind}{name}"
        placed.append((i, piece, shape))


def _check_bases(spec: ScenarioSpec, tables: Tables | None, aboard: AbstractSet[str] = frozenset()) -> Iterable[str]:
    """Men at the start stand on their own bases, out of contact with the enemy (touching is contact);
    men aboard a vehicle ride in it and are left out."""
    base = tables.sight.base.value if tables is not None else 1.0
    placed: list[tuple[str, str, XY]] = []
    for i, unit in enumerate(spec.units):
        if unit.enters != 0:
            continue
        for j, fig in enumerate(unit.figures):
            if f"{unit.id.upper()}.{j + 1}" in aboard:
                continue
            where = f"units[{i}].figures[{j}]"
            for other, side, at in placed:
                apart = math.hypot(fig.at[0] - at[0], fig.at[1] - at[1])
                if side == unit.side and apart < base - 0.01:
                    why = f'closer than a base ({base:g}") to {other}: two men cannot stand there'
                elif side != unit.side and apart <= base + 0.01:
                    why = f"in contact with the enemy {other} (bases touching: a melee starts only by a charge)"
                else:
                    continue
                yield f"{where}.at: {list(fig.at)}: {why}"
                break
            placed.append((f"units[{i}].figures[{j}]", unit.side, fig.at))


def _check_pieces(spec: ScenarioSpec, tables: Tables | None) -> Iterable[str]:
    """Pieces: a known piece weapon, on the table, crewed by one unit each (skirmish.31, 72); own templates."""
    width, depth = spec.table.width, spec.table.depth
    units = {u.id.upper(): u for u in spec.units}
    seen: set[str] = set()
    crews: dict[str, str] = {}
    for i, piece in enumerate(spec.pieces):
        where = f"pieces[{i}]"
        if piece.id.upper() in seen or piece.id.upper() in units:
            yield f"{where}.id: {piece.id!r}: used twice (pieces and units share names)"
        seen.add(piece.id.upper())
        if tables is not None and piece.weapon not in tables.pieces():
            known = ", ".join(tables.pieces())
            yield f"{where}.weapon: {piece.weapon!r}: not an artillery piece in the tables ({known})"
        if not _on_table(*piece.at, width, depth):
            yield f'{where}.at: {list(piece.at)}: off the {width:g}" x {depth:g}" table'
        else:
            inside = _inside_blocking(spec, *piece.at, "mortar")
            if inside:
                yield f"{where}.at: {list(piece.at)}: {inside.replace('a man with a mortar', 'a piece')}"
        crew = piece.crew.upper()
        if crew not in units:
            yield f"{where}.crew: {piece.crew!r}: no unit has this id"
        elif crew in crews:
            yield f"{where}.crew: {piece.crew!r}: already serves piece {crews[crew]} (skirmish.72: one crew, one piece)"
        else:
            crews[crew] = piece.id.upper()
        if piece.hitched is not None:
            towed = [p.id for p in spec.pieces if p.hitched is not None and p.hitched.upper() == piece.hitched.upper()]
            vehicle = next((v for v in spec.vehicles if v.id.upper() == piece.hitched.upper()), None)
            if vehicle is None:
                yield f"{where}.hitched: {piece.hitched!r}: no vehicle has this id (skirmish.61)"
            elif towed[0] != piece.id:
                yield f"{where}.hitched: {piece.hitched!r} already tows {towed[0]}: one piece a vehicle (skirmish.61)"
            else:
                if crew in units and units[crew].side != vehicle.side:
                    yield f"{where}.hitched: {vehicle.id} is the {vehicle.side}', its crew {crew} not (skirmish.72)"
                if tables is not None and vehicle.kind in VEHICLE_KINDS:
                    tows = tables.vehicles.kind(vehicle.kind).tows
                    if piece.weapon not in tows:
                        yield (
                            f"{where}.hitched: a {vehicle.kind} tows {', '.join(tows) or 'nothing'}, "
                            f"not {piece.weapon} (skirmish.61)"
                        )
    if tables is None:
        return
    names = {s.id for c in tables.burst.values() for s in c.shapes}
    for i, shape in enumerate(spec.templates):
        where = f"templates[{i}]"
        if shape.id in names:
            yield f"{where}.id: {shape.id!r}: used twice (the tables' templates: {', '.join(sorted(names))})"
        names.add(shape.id)
        cls = tables.burst.get(shape.burst)
        if cls is None:
            yield f"{where}.burst: {shape.burst!r}: not a burst class ({', '.join(tables.burst)})"
            continue
        why = template_problem(list(shape.points), cls.across)
        if why is not None:
            yield f"{where}.points: {why}"


def _aboard(spec: ScenarioSpec) -> Iterable[tuple[str, str]]:
    """(figure id, vehicle id) for every man a vehicle names in its crew or passengers (units expanded)."""
    units = {u.id.upper(): u for u in spec.units}
    for vehicle in spec.vehicles:
        for ref in [*vehicle.crew, *vehicle.passengers]:
            name = ref.upper()
            if name in units:
                for n in range(1, len(units[name].figures) + 1):
                    yield f"{name}.{n}", vehicle.id.upper()
            else:
                yield name, vehicle.id.upper()


def vehicle_footprint(at: XY, heading: float, length: float, width: float) -> Polygon:
    """A vehicle's footprint: a ``length`` x ``width`` rectangle (inches) centred ``at``, its long side
    along ``heading`` (degrees, 0 east, counter-clockwise)."""
    a = math.radians(heading)
    ux, uy = math.cos(a), math.sin(a)
    hx, hy = ux * length / 2, uy * length / 2
    wx, wy = -uy * width / 2, ux * width / 2
    x, y = at
    return Polygon(
        [(x + hx + wx, y + hy + wy), (x - hx + wx, y - hy + wy), (x - hx - wx, y - hy - wy), (x + hx - wx, y + hy - wy)]
    )


VEHICLE_BARRIERS = (
    "stone_wall",
    "castle_wall",
    "tower",
    "sandbags",
    "boulder",
    "building",
    "cliff",
    "pond",
    "bay",
    "tank_trap",
)  # skirmish.50, 58, 59


def _check_vehicles(spec: ScenarioSpec, tables: Tables | None, aboard: dict[str, str]) -> Iterable[str]:
    """Vehicles: a known kind and side, on the table clear of what stops vehicles, their men real and
    of their side, on the table at the start, aboard one vehicle only, within what it carries."""
    side_ids = [s.id for s in spec.sides]
    units = {u.id.upper(): u for u in spec.units}
    seen: dict[str, str] = {}
    ids: set[str] = set()
    shapes: list[tuple[int, Polygon]] = []
    for i, vehicle in enumerate(spec.vehicles):
        where = f"vehicles[{i}]"
        vid = vehicle.id.upper()
        if vid in ids or vid in units:
            yield f"{where}.id: {vehicle.id!r}: used twice (vehicles and units are named apart)"
        ids.add(vid)
        if vehicle.side not in side_ids:
            yield f"{where}.side: {vehicle.side!r}: not a side of this scenario ({', '.join(side_ids)})"
        kind = None
        if tables is not None:
            if vehicle.kind not in VEHICLE_KINDS:
                yield f"{where}.kind: {vehicle.kind!r}: not a vehicle ({', '.join(VEHICLE_KINDS)}) (skirmish.23)"
            else:
                kind = tables.vehicles.kind(vehicle.kind)
            guns = tables.tank_guns()
            for w in vehicle.weapons:
                if w in guns:
                    if vehicle.kind != "tank":
                        yield f"{where}.weapons: {w!r} is a tank gun: only a tank carries one (skirmish.12)"
                elif w not in tables.weapons:
                    known = ", ".join([*tables.weapons, *guns])
                    yield f"{where}.weapons: {w!r}: not a weapon in the tables ({known})"
            if len([w for w in vehicle.weapons if w in guns]) > 1:
                yield f"{where}.weapons: a tank carries one gun, not {len([w for w in vehicle.weapons if w in guns])}"
        x, y = vehicle.at
        if not _on_table(x, y, spec.table.width, spec.table.depth):
            yield f"{where}.at: {list(vehicle.at)}: off the table (vehicles start on it)"
        men: list[str] = []
        for field, refs in (("crew", vehicle.crew), ("passengers", vehicle.passengers)):
            for ref in refs:
                name = ref.upper()
                if name in units:
                    unit = units[name]
                    names = [f"{name}.{n}" for n in range(1, len(unit.figures) + 1)]
                elif (
                    "." in name
                    and name.split(".")[0] in units
                    and name.split(".")[1].isdigit()
                    and (1 <= int(name.split(".")[1]) <= len(units[name.split(".")[0]].figures))
                ):
                    unit = units[name.split(".")[0]]
                    names = [name]
                else:
                    yield f"{where}.{field}: {ref!r}: no unit or figure (A or A.1) of that name"
                    continue
                if unit.side != vehicle.side:
                    yield f"{where}.{field}: {ref!r}: men of {unit.side} cannot ride a {vehicle.side} vehicle"
                if unit.enters != 0:
                    yield (
                        f"{where}.{field}: {ref!r}: unit {unit.id} enters on move {unit.enters}; "
                        "vehicles start on the table"
                    )
                for n in names:
                    if n in seen:
                        yield f"{where}.{field}: {ref!r}: {n} is already aboard {seen[n]}"
                    seen[n] = vid
                    men.append(n)
        if kind is not None:
            if len(men) > kind.carries:
                yield f"{where}: {len(men)} men aboard: a {vehicle.kind} carries at most {kind.carries} (skirmish.23)"
            shape = vehicle_footprint(vehicle.at, vehicle.heading, kind.length, kind.width)
            if kind.afloat:
                waters = [_piece_shape(p) for p in spec.terrain if p.kind in ("pond", "bay")]
                sea = unary_union([w for w in waters if w is not None]) if waters else Polygon()
                if shape.difference(sea).area > 0.02:
                    yield (
                        f"{where}.at: {list(vehicle.at)}: a landing craft starts afloat, wholly on a pond or bay "
                        "(skirmish.27)"
                    )
            for j, piece in enumerate(spec.terrain):
                if piece.kind not in VEHICLE_BARRIERS or (kind.afloat and piece.kind in ("pond", "bay")):
                    continue
                other = _piece_shape(piece)
                if other is not None and other.intersects(shape):
                    yield f"{where}.at: {list(vehicle.at)}: the {vehicle.kind} stands on terrain[{j}], a {piece.kind}"
            for j, other in shapes:
                if other.intersects(shape):
                    yield f"{where}.at: {list(vehicle.at)}: overlaps vehicles[{j}]"
            shapes.append((i, shape))


def _piece_shape(piece: TerrainPiece) -> Polygon | None:
    """A terrain piece's ground for the scenario check (walls 0.5" thick, traps 0.5" across)."""
    if piece.kind == "boulder":
        return _boulder(piece)
    if piece.shape is not None and len(piece.shape) >= 3:
        return Polygon(piece.shape)
    if piece.line is not None and len(piece.line) >= 2:
        return LineString(piece.line).buffer(0.25)
    if piece.at is not None:
        return Point(piece.at).buffer(0.25)
    return None


def _check_drops(spec: ScenarioSpec, aboard: dict[str, str]) -> Iterable[str]:
    """Paratroop drops (skirmish.26): a unit of the scenario, dropped once, within the turn limit, with its
    ``enters`` left at 0 and nobody of it aboard a vehicle."""
    units = {u.id.upper(): u for u in spec.units}
    seen: set[str] = set()
    for i, drop in enumerate(spec.drops):
        where = f"drops[{i}]"
        name = drop.unit.upper()
        unit = units.get(name)
        if unit is None:
            yield f"{where}.unit: {drop.unit!r}: no unit of that name (skirmish.26)"
            continue
        if name in seen:
            yield f"{where}.unit: {drop.unit!r}: dropped twice (skirmish.26)"
        seen.add(name)
        if unit.enters != 0:
            yield (
                f"{where}.unit: {drop.unit!r}: enters = {unit.enters}: a dropped unit comes by air on move "
                f"{drop.move}; leave its enters out (skirmish.26)"
            )
        if any(a.split(".")[0] == name for a in aboard):
            yield f"{where}.unit: {drop.unit!r}: its men ride a vehicle; a dropped unit comes by air (skirmish.26)"
        if drop.move > spec.victory.turn_limit:
            yield f"{where}.move: {drop.move}: after the turn limit ({spec.victory.turn_limit}) (skirmish.26)"


def _check_train(spec: ScenarioSpec) -> Iterable[str]:
    """The train runs on a railway of the terrain (skirmish.44)."""
    if spec.train is None:
        return
    railways = [p.id for p in spec.terrain if p.kind == "railway"]
    if not railways:
        yield 'train: a train needs a railway in the terrain (kind = "railway", a line from the board\'s end)'
    elif spec.train.railway is None and len(railways) > 1:
        yield f"train.railway: (missing): {len(railways)} railways: name the train's"
    elif spec.train.railway is not None and spec.train.railway not in railways:
        yield f"train.railway: {spec.train.railway!r}: no railway has this id"


def _off_distance(x: float, y: float, width: float, depth: float) -> float:
    return max(-x, x - width, -y, y - depth, 0.0)


def _inside_blocking(spec: ScenarioSpec, x: float, y: float, weapon: str) -> str | None:
    """Why a figure may not stand at (x, y): in a boulder, or in a pond or bay with a heavy weapon."""
    point = Point(x, y)
    for piece in spec.terrain:
        if piece.kind == "boulder":
            shape = _boulder(piece)
            if shape is not None and shape.contains(point):
                return "inside a boulder"
        elif piece.kind in ("pond", "bay") and weapon in HEAVY_IN_POND:
            if piece.shape is not None and len(piece.shape) >= 3 and Polygon(piece.shape).is_valid:
                if Polygon(piece.shape).covers(point):
                    return f"a man with a {weapon} may not be in a {piece.kind} (skirmish.53: too deep)"
    return None


def _boulder(piece: TerrainPiece) -> Polygon | None:
    if piece.shape is not None and len(piece.shape) >= 3:
        return Polygon(piece.shape)
    if piece.at is not None and piece.radius is not None:
        return Point(piece.at).buffer(piece.radius, 16)
    return None


def _check_polygon(where: str, points: list[XY], width: float, depth: float) -> Iterable[str]:
    if len(points) < 3:
        yield f"{where}: {len(points)} point(s): a shape needs at least 3 corners"
        return
    polygon = _polygon(points)
    if not polygon.is_valid:
        yield f"{where}: {[list(p) for p in points[:4]]}...: the outline crosses itself"
    elif polygon.area <= 0:
        yield f"{where}: {[list(p) for p in points[:4]]}: the shape has no area"
    yield from _check_points(where, points, width, depth)


def _check_points(where: str, points: list[XY], width: float, depth: float) -> Iterable[str]:
    """Each point finite and on the table (terrain and objectives are drawn on it, edges included)."""
    for p in points:
        if not math.isfinite(p[0]) or not math.isfinite(p[1]):
            yield f"{where}: {list(p)}: not a finite point"
        elif not _on_table(p[0], p[1], width, depth):
            size = f'{width:g}" x {depth:g}" ' if math.isfinite(width) and math.isfinite(depth) else ""
            yield f"{where}: {list(p)}: off the {size}table"


def _check_piece(where: str, piece: TerrainPiece, width: float, depth: float) -> Iterable[str]:
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
            yield from _check_points(f"{where}.at", [piece.at], width, depth)
        return
    if kind in POLYGON_KINDS:
        if piece.shape is None:
            yield f"{where}.shape: (missing): a {kind} is a shape"
            return
        yield from _check_polygon(f"{where}.shape", piece.shape, width, depth)
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
        elif piece.doors or piece.windows:
            yield f"{where}: only buildings, towers and castle walls have doors and windows"
    elif kind in LINE_KINDS:
        if piece.line is None or len(piece.line) < 2:
            yield f"{where}.line: {piece.line}: a {kind} is a line of at least 2 points"
            return
        yield from _check_points(f"{where}.line", piece.line, width, depth)
        if LineString(piece.line).length <= 0:
            yield f"{where}.line: {piece.line}: the line has no length"
        if kind == "river":
            if piece.width is None:
                yield f'{where}.width: (missing): a river needs its width (at least {MIN_RIVER_WIDTH:g}")'
            elif piece.width < MIN_RIVER_WIDTH:
                yield f'{where}.width: {piece.width:g}: a river is at least {MIN_RIVER_WIDTH:g}" wide (seed)'
        if kind == "cliff" and piece.height is None:
            yield f"{where}.height: (missing): a cliff needs its height in inches"
        if kind == "railway" and piece.line and math.isfinite(width) and math.isfinite(depth):
            x, y = piece.line[0]
            if min(x, width - x, y, depth - y) > 0.01:
                yield f"{where}.line: {list(piece.line[0])}: a railway starts at the board's end (an edge of the table)"
    elif piece.at is None:
        yield f"{where}.at: (missing): a {kind} stands at a point"
    else:
        yield from _check_points(f"{where}.at", [piece.at], width, depth)


def check_scenario(data: Any, base: Path | None = None, tables: Tables | None = None) -> list[str]:
    """Every problem of a scenario's data (parsed TOML), at once; empty when it is sound.

    ``base`` is the folder a relative ``tables`` path is read from; ``tables``, when given, are the
    tables to check against instead (a record's embedded copy of the file the scenario names).
    """
    try:
        spec = ScenarioSpec.model_validate(data)
    except ValidationError as exc:
        problems = [describe_error(e) for e in exc.errors()]
        problems += [p for p in _terrain_alone(data) if p not in problems]
        return problems + [p for p in _checks_of_the_rest(data, exc, base, tables) if p not in problems]
    return _checks(spec, base, tables)


def _checks(spec: ScenarioSpec, base: Path | None, tables: Tables | None) -> list[str]:
    """The tables' problems and the cross-checks of a scenario whose fields all check."""
    problems: list[str] = []
    if tables is None:
        try:
            tables = _tables_for(spec, base)
        except TablesError as exc:
            problems += [f"tables: {spec.tables!r}: {p}" for p in exc.problems]
    problems += list(_semantic(spec, tables))
    return problems


def _checks_of_the_rest(data: Any, error: ValidationError, base: Path | None, tables: Tables | None) -> list[str]:
    """The cross-checks of what is left once the entries with field problems are set aside, so that a file
    with several mistakes lists them all at once.

    An entry of a list (``units[2]``) with a field problem is left out, a field with a default that does not
    check falls back to its default; the checks then run on the rest, their problems numbered as in the file.
    A problem naming an entry that was left out (by its id) is not listed: it may be that entry's doing. When
    a field that has no default does not check (the table's size, the sides), nothing more can be checked.
    """
    if not isinstance(data, dict):
        return []
    rest = dict(data)
    dropped: dict[str, set[int]] = {}
    gone: set[str] = set()
    for item in error.errors():
        loc = item["loc"]
        if not loc:
            return []
        top = str(loc[0])
        field = ScenarioSpec.model_fields.get(top)
        if field is None:  # a key the file should not have: leave it out
            rest.pop(top, None)
        elif len(loc) >= 2 and isinstance(loc[1], int) and isinstance(data.get(top), list):
            dropped.setdefault(top, set()).add(loc[1])
        elif not field.is_required():
            rest.pop(top, None)
        elif len(loc) >= 2 and isinstance(rest.get(top), dict):
            model = field.annotation
            inner = getattr(model, "model_fields", {}).get(str(loc[1]))
            if inner is None or inner.is_required():
                return []
            rest[top] = {k: v for k, v in rest[top].items() if k != loc[1]}
        else:
            return []
    kept: dict[str, list[int]] = {}
    for top, indices in dropped.items():
        kept[top] = [i for i in range(len(data[top])) if i not in indices]
        rest[top] = [data[top][i] for i in kept[top]]
        for i in indices:
            entry = data[top][i]
            if isinstance(entry, dict):
                gone.update(str(entry[key]) for key in ("id", "unit") if isinstance(entry.get(key), str))
    try:
        spec = ScenarioSpec.model_validate(rest)
    except ValidationError:
        return []  # what is left does not stand alone (two sides, two units): the field problems first

    def renumber(problem: str) -> str:
        for top, old in kept.items():
            problem = re.sub(rf"\b{top}\[(\d+)\]", lambda m, old=old, top=top: f"{top}[{old[int(m[1])]}]", problem)
        return problem

    out = []
    for problem in _checks(spec, base, tables):
        if any(f"'{name}'" in problem or f"'{name}." in problem or f" {name}." in problem for name in gone):
            continue
        out.append(renumber(problem))
    return out


def _terrain_alone(data: Any) -> Iterable[str]:
    """The terrain's own problems when the file's fields do not all check (so these are reported at once too)."""
    if not isinstance(data, dict) or not isinstance(data.get("terrain"), list):
        return
    try:
        size = TableSize.model_validate(data.get("table"))
        width, depth = size.width, size.depth
    except ValidationError:
        width = depth = math.inf  # no table to measure against: only the pieces' own shapes
    for i, raw in enumerate(data["terrain"]):
        try:
            piece = TerrainPiece.model_validate(raw)
        except ValidationError:
            continue  # its field errors are already listed
        yield from _check_piece(f"terrain[{i}]", piece, width, depth)


def _tables_for(spec: ScenarioSpec, base: Path | None) -> Tables:
    if spec.tables == "default":
        return load_tables()
    path = Path(spec.tables)
    if not path.is_absolute() and base is not None:
        path = base / path
    return load_tables(path)


def shipped() -> list[tuple[str, str]]:
    """The shipped scenarios: (name, title), by name."""
    out = []
    for path in sorted(SCENARIOS_DIR.glob("*.toml")):
        data = read_toml(path)
        out.append((path.stem, str(data.get("title", ""))))
    return out


def resolve_path(name: str) -> Path:
    """The file a scenario name stands for: a shipped name, else a path; :class:`ScenarioError` if neither."""
    shipped_path = SCENARIOS_DIR / f"{name}.toml"
    if "/" not in name and "\\" not in name and not name.endswith(".toml") and shipped_path.is_file():
        return shipped_path
    path = Path(name)
    if path.is_file():
        return path
    names = ", ".join(n for n, _ in shipped())
    raise ScenarioError(name, [f"scenario: {name!r}: no shipped scenario of that name ({names}) and no such file"])


def load_scenario(name: str) -> Scenario:
    """The checked scenario ``name`` (shipped name or path); raises :class:`ScenarioError` listing every problem."""
    path = resolve_path(name).resolve()
    info = path.stat()
    return _load(str(path), name, (info.st_mtime_ns, info.st_size))


@lru_cache(maxsize=32)
def _load(path: str, name: str, stamp: tuple[int, int]) -> Scenario:
    try:
        data = read_toml(Path(path))
    except TablesError as exc:
        raise ScenarioError(name, exc.problems) from None
    return scenario_from_data(data, name, Path(path).parent)


def scenario_from_data(
    data: dict[str, Any], source: str, base: Path | None = None, tables: Tables | None = None
) -> Scenario:
    """A checked scenario from parsed TOML; raises :class:`ScenarioError` listing every problem.

    ``tables``: the scenario's tables when they do not come from its ``tables`` path (an embedded copy).
    """
    problems = check_scenario(data, base, tables)
    if problems:
        raise ScenarioError(source, problems)
    spec = ScenarioSpec.model_validate(data)
    scenario = Scenario(spec, tables if tables is not None else _tables_for(spec, base), source, data)
    _SEEN[scenario.digest] = scenario
    while len(_SEEN) > 64:  # the scenarios of the games in this process, for their pictures
        _SEEN.pop(next(iter(_SEEN)))
    return scenario


_SEEN: dict[str, Scenario] = {}


def scenario_for_view(view: dict[str, Any]) -> Scenario:
    """The scenario a game's view was made from: the one of that digest this process has played
    (a record's embedded copy), else the file or shipped name the view gives as its source."""
    digest = view.get("stats", {}).get("scenario_sha256")
    found = _SEEN.get(str(digest))
    return found if found is not None else load_scenario(view["scenario"]["source"])


def embed_files(options: dict[str, Any] | Any) -> dict[str, Any] | None:
    """The scenario file of one's own (not a shipped one) that ``options`` name, and its tables file, as text
    for a record's header: ``{"scenario": {"file", "toml", "tables": {"file", "toml"} | None}}``; None for
    a shipped scenario. Raises :class:`ScenarioError` (every problem) for a file that does not load."""
    name = str(options["scenario"])
    path = resolve_path(name)
    if path.parent.resolve() == SCENARIOS_DIR.resolve():
        return None
    scenario = load_scenario(name)  # checked whole first: a file with problems is refused, listing them
    tables = None
    if scenario.spec.tables != "default":
        tables_path = Path(scenario.spec.tables)
        if not tables_path.is_absolute():
            tables_path = path.resolve().parent / tables_path
        tables = {"file": scenario.spec.tables, "toml": _text(tables_path, name)}
    return {"scenario": {"file": name, "toml": _text(path, name), "tables": tables}}


def _text(path: Path, name: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(name, [f"(file) {str(path)!r}: cannot read: {exc}"]) from None


def scenario_from_embedded(embedded: dict[str, Any] | Any, source: str) -> Scenario:
    """The scenario (and its tables) a record's header keeps (see :func:`embed_files`), read from that copy
    and not from the files, which may have changed or gone; :class:`ScenarioError` lists its problems."""
    import tomllib

    kept = embedded["scenario"]
    try:
        data = tomllib.loads(str(kept["toml"]))
        tables = None
        if kept.get("tables"):
            tables_data = tomllib.loads(str(kept["tables"]["toml"]))
            problems = check_tables(tables_data)
            if problems:
                raise ScenarioError(f"{source} (the record's copy of its tables)", problems)
            tables = Tables.model_validate(tables_data)
    except (tomllib.TOMLDecodeError, KeyError, TypeError) as exc:
        raise ScenarioError(f"{source} (the record's copy)", [f"(file): not the TOML it was: {exc}"]) from None
    return scenario_from_data(data, source, None, tables)
