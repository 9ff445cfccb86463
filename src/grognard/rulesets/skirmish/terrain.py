"""The table's terrain as shapely shapes, and the measures the rules take on it.

Conventions: inches; origin at the table's south-west corner, x east, y north;
a figure is the centre of its 1" base. Shapes are built once from the
scenario (and from engineering works laid during play) and never stored in the
state: the state keeps positions rounded to 0.01" (``core.geometry.snap``).

Ground height: hills are flat-topped plateaus; the height at a point is the
greatest ``height`` of the hills that hold it (0 elsewhere), so hills drawn one
inside another make steps.

The line of sight (skirmish.11, written down): the straight line between the
two figures' centres is blocked by

1. a building, unless every place it passes through the building's wall is a
   window or an open door (a man inside sees out, and is seen, only through
   them);
2. a stone wall, sandbags or a boulder, unless the line crosses it within
   ``over_reach`` (1") of one of the two figures (a man at a wall fires over
   it and is seen); a line that only grazes the end or corner of a wall
   (crossing less than 0.01" of it) passes; walls and sandbags are 0.5" thick;
3. a hill crest: a hill whose top is higher than the line at some point of the
   line more than ``crest_reach`` (1") from both figures along it (the line's
   height runs straight from the firer's ground height to the target's),
   except where that point is within ``crest_reach`` of the hill's edge and a
   man standing on the hill is within ``crest_reach`` of its edge too (a man
   at the crest sees down over it at any slant, and is seen);

and never by figures. Woods, bushes, rocks, rivers, ponds and wire do not
block it (they give cover, or cost movement).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from grognard.core.geometry import TOLERANCE
from grognard.rulesets.skirmish.ground import boulder_shape, storey_thresholds
from grognard.rulesets.skirmish.schema import CASTLE_WALL_HEIGHT, HOUSES, ScenarioSpec, SectionSpec, TerrainPiece
from grognard.rulesets.skirmish.tables import CoverRow, Tables

WALL_THICKNESS = 0.5  # inches: a stone wall or a line of sandbags, for sight (the seed gives none)
CASTLE_WALL_THICKNESS = 1.0  # inches: a castle wall's top holds a man's 1" base (grognard reading)
TRAP_SIZE = 0.5  # inches across a tank trap
DEFAULT_ROAD_WIDTH = 2.0
DEFAULT_RAILWAY_WIDTH = 1.5  # inches: a 1/72 track and the train on it

XY = tuple[float, float]


@dataclass(frozen=True)
class Opening:
    """A door or a window: its centre on the wall, its width."""

    id: str
    building: str
    at: XY
    width: float
    door: bool
    open: bool = False  # a door's state at the start of the game


@dataclass(frozen=True)
class Storey:
    """A storey's points when whole and the lower bounds of its states (RULINGS S7)."""

    points: int
    full_from: int
    no_art_cover_from: int
    no_top_cover_from: int


@dataclass
class Section:
    """A part of a building with its own roof: its outline and storeys (first first) (skirmish.17, 91)."""

    id: str
    building: str
    shape: Polygon
    storeys: tuple[Storey, ...]


@dataclass
class BridgeSite:
    """A bridge: its centre line across the river, its deck (a polygon ``width`` wide), its kind."""

    id: str
    type: str
    line: LineString
    deck: Polygon
    width: float
    points: int  # at the start (0 for one not yet built)
    built: bool


@dataclass
class WallSection:
    """A stretch of a castle wall with its own points (skirmish.74): its line, and its top (where men stand)."""

    id: str
    wall: str
    line: LineString
    shape: Polygon
    storey: Storey


@dataclass
class CastleWall:
    """A castle wall (skirmish.73-85): its line, its top ``shape`` (``CASTLE_WALL_THICKNESS`` wide), its
    ``height`` (3"), its doors, its sections; its corners are the line's points (skirmish.76)."""

    id: str
    line: LineString
    shape: Polygon
    height: float
    openings: list[Opening]
    sections: list[WallSection]

    @property
    def corners(self) -> list[XY]:
        return [(float(x), float(y)) for x, y in self.line.coords]


@dataclass
class Building:
    id: str
    shape: Polygon
    openings: list[Opening]
    sections: list[Section] = field(default_factory=list)
    tower: bool = False  # a castle tower (skirmish.92): a building of 20 points


@dataclass
class Feature:
    """A terrain piece as a shape: ``kind`` from the scenario, ``shape`` a polygon, ``line`` its centre line."""

    kind: str
    id: str
    shape: BaseGeometry
    line: BaseGeometry | None = None
    height: float = 0.0


@dataclass
class Terrain:
    """Every piece of terrain of a table, with the lookups the rules need (build with :func:`build_terrain`)."""

    width: float
    depth: float
    tables: Tables
    features: list[Feature] = field(default_factory=list)
    hills: list[Feature] = field(default_factory=list)
    buildings: list[Building] = field(default_factory=list)
    openings: dict[str, Opening] = field(default_factory=dict)
    cliffs: list[Feature] = field(default_factory=list)
    wires: list[BaseGeometry] = field(default_factory=list)
    traps: list[XY] = field(default_factory=list)
    bridges: list[BridgeSite] = field(default_factory=list)
    standing: frozenset[str] = frozenset()  # the bridges standing now (built, points left)
    section_states: dict[str, str] = field(default_factory=dict)  # section -> its state now (structures.py)
    vehicles: list[Feature] = field(default_factory=list)  # footprints of the vehicles now (kind = vehicle kind)
    walls: list[CastleWall] = field(default_factory=list)  # castle walls (skirmish.73-85)

    def __post_init__(self) -> None:
        self.finish()

    # ------------------------------------------------------------------ built once
    def finish(self) -> None:
        """Build the unions and zones used by the measures (call after changing features)."""
        m = self.tables.movement
        self._kinds: dict[str, list[Feature]] = {}  # features by kind
        self._heights: dict[XY, float] = {}  # ground height by point (the hills do not change)
        self._inside: dict[tuple[str, float, float], bool] = {}  # (kind, x, y) -> inside a piece of that kind
        self._wet: dict[tuple[str, float, float], bool] = {}  # ("river" or "pond", x, y) -> in it
        self.crests: dict[tuple[str, XY], bool] = {}  # (hill, point) -> on it near its edge (rules._at_edge)
        self._houses: dict[XY, Building | None] = {}  # (x, y) -> the building holding it (buildings never move)
        self._cover_rows: dict[str, list[CoverRow]] = {}  # attack -> tables.cover_rows(attack)
        by = self.by_kind
        river = _union(f.shape for f in by("river"))
        decks = _union(b.deck for b in self.bridges if b.id in self.standing)
        self.river = river.difference(decks) if not decks.is_empty and not river.is_empty else river
        self.pond = _union(f.shape for f in [*by("pond"), *by("bay")])
        self.road = _union(f.shape for f in by("road"))
        self.blockers = [
            f
            for f in self.features
            if f.kind in ("stone_wall", "sandbags", "boulder", "tank_trap", "train", "castle_wall")
        ]
        self.sight_blockers = [f for f in self.blockers if f.kind != "tank_trap"]
        self.blocker_boxes = [(f, f.shape.bounds) for f in self.blockers]  # (piece, (minx, miny, maxx, maxy))
        self.feature_boxes = [f.shape.bounds for f in self.features]  # each feature's, in order
        self.hill_boxes = [h.shape.bounds for h in self.hills]  # each hill's, in order
        self.feature_box_array = np.array(self.feature_boxes, dtype=float).reshape(-1, 4)  # the same, as an array
        self.crossings = [f for f in self.features if f.kind in ("stone_wall", "sandbags")]
        self.boulders = [f for f in self.features if f.kind == "boulder"]
        self.wire = _union(self.wires) if self.wires else None
        zones: list[tuple[str, BaseGeometry, float]] = []
        covered: BaseGeometry = Polygon()
        for name, shape, factor in (
            ("pond", self.pond, m.pond_factor.value),
            ("road", self.road, m.road_cost.value),
            ("woods", _union(f.shape for f in by("woods")), m.woods_factor.value),
            ("bushes", _union(f.shape for f in by("bushes")), m.bushes_factor.value),
            ("small rocks", _union(f.shape for f in by("small_rocks")), m.rocks_factor.value),
        ):
            if shape.is_empty:
                continue
            if factor != 1.0:
                zone = shape.difference(covered) if not covered.is_empty else shape
                if not zone.is_empty:
                    shapely.prepare(zone)
                    zones.append((name, zone, factor))
            covered = covered.union(shape)
        self.zones = zones
        for geometry in (self.river, self.pond, self.road):
            if not geometry.is_empty:
                shapely.prepare(geometry)
        for f in [*self.features, *self.hills]:
            shapely.prepare(f.shape)
        for b in self.buildings:
            shapely.prepare(b.shape)

    def by_kind(self, kind: str) -> list[Feature]:
        found = self._kinds.get(kind)
        if found is None:
            found = self._kinds[kind] = [f for f in self.features if f.kind == kind]
        return list(found)

    def with_works(
        self,
        wires: Sequence[tuple[XY, XY]],
        traps: Sequence[XY],
        standing: frozenset[str] | None = None,
        section_states: dict[str, str] | None = None,
    ) -> Terrain:
        """This terrain with wire laid and tank traps set during play added, and the structures as they stand now.

        ``standing``: the bridges standing (default: as at the start);
        ``section_states``: each building section's state (default: as at the start).
        """
        standing = self.standing if standing is None else standing
        states = self.section_states if section_states is None else section_states
        if not wires and not traps and standing == self.standing and states == self.section_states:
            return self
        other = Terrain(
            self.width,
            self.depth,
            self.tables,
            list(self.features),
            self.hills,
            self.buildings,
            self.openings,
            self.cliffs,
            [*self.wires, *(LineString(w) for w in wires)],
            [*self.traps, *traps],
            self.bridges,
            standing,
            dict(states),
            self.vehicles,
            self.walls,
        )
        for k, (x, y) in enumerate(traps):
            other.features.append(
                Feature("tank_trap", f"trap{k + 1}", Point(x, y).buffer(TRAP_SIZE / 2, 8), Point(x, y))
            )
        other.finish()
        return other

    def with_moving(self, train: BaseGeometry | None, vehicles: Sequence[Feature]) -> Terrain:
        """This terrain with the train where it stands now (a blocker, like a wall: skirmish.44) and the
        vehicles' footprints (for cover aboard: skirmish.35-38)."""
        if train is None and not vehicles:
            return self
        other = Terrain(
            self.width,
            self.depth,
            self.tables,
            [*self.features, *([Feature("train", "train", train)] if train is not None else [])],
            self.hills,
            self.buildings,
            self.openings,
            self.cliffs,
            self.wires,
            self.traps,
            bridges=self.bridges,
            standing=self.standing,
            section_states=self.section_states,
            vehicles=list(vehicles),
            walls=self.walls,
        )
        return other

    def aboard(self, kind: str, x: float, y: float) -> bool:
        """(x, y) is inside the footprint of a vehicle of ``kind`` (where the men aboard it ride)."""
        return any(v.kind == kind and _covers(v.shape, x, y) for v in self.vehicles)

    # ------------------------------------------------------------------ where
    def on_table(self, x: float, y: float) -> bool:
        t = TOLERANCE
        return -t <= x <= self.width + t and -t <= y <= self.depth + t

    def height(self, x: float, y: float) -> float:
        """Ground height (inches) at (x, y): the highest hill holding it, else 0."""
        found = self._heights.get((x, y))
        if found is not None:
            return found
        best = 0.0
        for hill in self.hills:
            if hill.height > best and _covers(hill.shape, x, y):
                best = hill.height
        if len(self._heights) < 100_000:
            self._heights[(x, y)] = best
        return best

    def in_river(self, x: float, y: float) -> bool:
        """(x, y) is in the river (the standing bridges' decks left out), kept by point: men stand still."""
        return self._wet_at("river", self.river, x, y)

    def in_pond(self, x: float, y: float) -> bool:
        """(x, y) is in a pond or bay, kept by point."""
        return self._wet_at("pond", self.pond, x, y)

    def _wet_at(self, kind: str, water: BaseGeometry, x: float, y: float) -> bool:
        """Whether ``water`` (the river or the ponds, ``kind``) covers (x, y), kept by point (100,000 at most)."""
        key = (kind, x, y)
        found = self._wet.get(key)
        if found is None:
            found = not water.is_empty and _covers(water, x, y)
            if len(self._wet) < 100_000:
                self._wet[key] = found
        return found

    def section_at(self, x: float, y: float) -> Section | None:
        """The building section holding (x, y), if any."""
        for b in self.buildings:
            if _covers(b.shape, x, y):
                for section in b.sections:
                    if _covers(section.shape, x, y):
                        return section
        return None

    def bridge_at(self, x: float, y: float) -> BridgeSite | None:
        """The standing bridge whose deck holds (x, y), if any."""
        for b in self.bridges:
            if b.id in self.standing and _covers(b.deck, x, y):
                return b
        return None

    def building_at(self, x: float, y: float) -> Building | None:
        """The building holding (x, y), if any, kept by point (100,000 at most)."""
        houses = self._houses
        if (x, y) in houses:
            return houses[(x, y)]
        found = next((b for b in self.buildings if _covers(b.shape, x, y)), None)
        if len(houses) < 100_000:
            houses[(x, y)] = found
        return found

    def cover_rows(self, attack: str) -> list[CoverRow]:
        """``tables.cover_rows(attack)``, kept (the tables never change): the cover lookup asks it of every pair."""
        found = self._cover_rows.get(attack)
        if found is None:
            found = self._cover_rows[attack] = self.tables.cover_rows(attack)
        return found

    def inside(self, kind: str, x: float, y: float) -> bool:
        key = (kind, x, y)
        found = self._inside.get(key)
        if found is None:
            found = any(_covers(f.shape, x, y) for f in self.by_kind(kind))
            if len(self._inside) < 100_000:
                self._inside[key] = found
        return found

    # ------------------------------------------------------------------ movement
    def profile(self, line: LineString) -> list[tuple[float, float, float]]:
        """Ground along ``line``: pieces (from, to, height), distances from its start, in order."""
        if not self.hills:
            return [(0.0, line.length, 0.0)]
        x0, y0, x1, y1 = line.bounds
        if all(
            hx0 > x1 + 1e-9 or x0 > hx1 + 1e-9 or hy0 > y1 + 1e-9 or y0 > hy1 + 1e-9
            for hx0, hy0, hx1, hy1 in self.hill_boxes
        ):
            return [(0.0, line.length, 0.0)]  # clear of every hill's box (by more than rounding): height 0 all along
        cuts = {0.0, line.length}
        for hill in self.hills:
            if not hill.shape.intersects(line):
                continue
            crossing = shapely.get_coordinates(line.intersection(hill.shape.boundary))  # its points, every end
            if len(crossing):
                cuts.update(np.asarray(shapely.line_locate_point(line, shapely.points(crossing))).tolist())
        spans = [(a, b) for a, b in itertools.pairwise(sorted(cuts)) if b - a > 1e-9]
        # the middle of each span, all at once (the same interpolation, over an array)
        mids = shapely.get_coordinates(shapely.line_interpolate_point(line, [(a + b) / 2 for a, b in spans]))
        out: list[tuple[float, float, float]] = []
        for (a, b), (x, y) in zip(spans, mids.tolist(), strict=True):
            h = self.height(x, y)
            if out and out[-1][2] == h:
                out[-1] = (out[-1][0], b, h)
            else:
                out.append((a, b, h))
        return out or [(0.0, line.length, self.height(*line.coords[0]))]


@functools.lru_cache(maxsize=8192)  # kept: the bots measure the same paths again and again
def line_of(points: tuple[XY, ...]) -> LineString:
    """``LineString(points)`` (a path's centre line; shapely shapes never change, so one serves every caller)."""
    return LineString(points)


def _covers(shape: BaseGeometry, x: float, y: float) -> bool:
    """``shape.covers(Point(x, y))`` without making the point: a point is covered exactly when it meets the
    shape (it has no interior to fall outside), which shapely tests from the coordinates."""
    return bool(shapely.intersects_xy(shape, x, y))


def _points(geometry: BaseGeometry) -> list[Point]:
    """The points of an intersection result (the ends of any line pieces)."""
    if geometry.is_empty:
        return []
    kind = geometry.geom_type
    if kind == "Point":
        return [cast(Point, geometry)]
    if kind in ("LineString", "LinearRing"):
        return [Point(c) for c in cast(LineString, geometry).coords]
    out: list[Point] = []
    for part in getattr(geometry, "geoms", []):
        out += _points(part)
    return out


def _union(shapes: Iterable[BaseGeometry]) -> BaseGeometry:
    shapes = [s for s in shapes if not s.is_empty]
    if not shapes:
        return Polygon()
    return unary_union(shapes)


def _feature(piece: TerrainPiece, index: int) -> Feature:
    kind = piece.kind
    ident = piece.id or f"{kind}{index + 1}"
    if kind == "boulder":
        shape = boulder_shape(piece)
        assert shape is not None
        return Feature(kind, ident, shape)
    if piece.shape is not None:
        return Feature(kind, ident, Polygon(piece.shape), height=piece.height or 0.0)
    if piece.line is not None:
        line = LineString(piece.line)
        if kind in ("road", "river", "railway"):
            width = piece.width or (DEFAULT_RAILWAY_WIDTH if kind == "railway" else DEFAULT_ROAD_WIDTH)
            return Feature(kind, ident, line.buffer(width / 2, cap_style="flat"), line)
        if kind in ("stone_wall", "sandbags"):
            return Feature(kind, ident, line.buffer(WALL_THICKNESS / 2, cap_style="flat", join_style="mitre"), line)
        if kind == "castle_wall":
            top = line.buffer(CASTLE_WALL_THICKNESS / 2, cap_style="flat", join_style="mitre")
            return Feature(kind, ident, top, line, height=piece.height or CASTLE_WALL_HEIGHT)
        return Feature(kind, ident, line, line, height=piece.height or 0.0)
    assert piece.at is not None
    return Feature(kind, ident, Point(piece.at).buffer(TRAP_SIZE / 2, 8), Point(piece.at))


def build_terrain(spec: ScenarioSpec, tables: Tables) -> Terrain:
    """The terrain of a checked scenario."""
    features: list[Feature] = []
    hills: list[Feature] = []
    buildings: list[Building] = []
    openings: dict[str, Opening] = {}
    cliffs: list[Feature] = []
    wires: list[BaseGeometry] = []
    traps: list[XY] = []
    bridges: list[BridgeSite] = []
    walls: list[CastleWall] = []
    for index, piece in enumerate(spec.terrain):
        feature = _feature(piece, index)
        if piece.kind == "hill":
            hills.append(feature)
        elif piece.kind == "castle_wall":
            wall = _castle_wall(piece, feature, tables)
            walls.append(wall)
            for opening in wall.openings:
                openings[opening.id] = opening
            features.append(feature)
        elif piece.kind in HOUSES:
            own: list[Opening] = []
            for k, door in enumerate(piece.doors):
                opening = Opening(door.id or f"{feature.id}.d{k + 1}", feature.id, door.at, door.width, True, door.open)
                own.append(opening)
                openings[opening.id] = opening
            for k, window in enumerate(piece.windows):
                opening = Opening(window.id or f"{feature.id}.w{k + 1}", feature.id, window.at, window.width, False)
                own.append(opening)
                openings[opening.id] = opening
            buildings.append(
                Building(
                    feature.id,
                    cast(Polygon, feature.shape),
                    own,
                    _sections(piece, feature, tables),
                    piece.kind == "tower",
                )
            )
        elif piece.kind == "bridge":
            bridges.append(_bridge(piece, feature.id, tables))
        elif piece.kind == "cliff":
            cliffs.append(feature)
        elif piece.kind == "barbed_wire":
            wires.append(feature.shape)
        elif piece.kind == "tank_trap":
            assert piece.at is not None
            traps.append(piece.at)
            features.append(feature)
        else:
            features.append(feature)
    standing = frozenset(b.id for b in bridges if b.built and b.points > 0)
    states = {sec.id: section_state(sec, [st.points for st in sec.storeys]) for b in buildings for sec in b.sections}
    states.update({sec.id: storey_state(sec.storey, sec.storey.points) for w in walls for sec in w.sections})
    return Terrain(
        spec.table.width,
        spec.table.depth,
        tables,
        features,
        hills,
        buildings,
        openings,
        cliffs,
        wires,
        traps,
        bridges,
        standing,
        states,
        walls=walls,
    )


# the four states of a building section (skirmish.18), best first
FULL_POINTS, NO_ART_COVER, NO_TOP_COVER, ALL_DEAD = "full points", "no art. cover", "no top cover", "all dead"
STATES = (FULL_POINTS, NO_ART_COVER, NO_TOP_COVER, ALL_DEAD)


def storey_state(storey: Storey, points: int) -> str:
    """The state of ``storey`` at ``points`` (RULINGS S7: ALL DEAD below ``no_top_cover_from``, so at 0)."""
    if points >= storey.full_from:
        return FULL_POINTS
    if points >= storey.no_art_cover_from:
        return NO_ART_COVER
    if points >= storey.no_top_cover_from:
        return NO_TOP_COVER
    return ALL_DEAD


def top_storey(section: Section, points: Sequence[int]) -> int | None:
    """The index of the highest storey still standing (not ALL DEAD), or None when the section has collapsed."""
    for n in range(len(section.storeys) - 1, -1, -1):
        if storey_state(section.storeys[n], points[n]) != ALL_DEAD:
            return n
    return None


def section_state(section: Section, points: Sequence[int]) -> str:
    """The state the men inside feel: that of the highest storey still standing (ALL DEAD when none is)."""
    n = top_storey(section, points)
    return ALL_DEAD if n is None else storey_state(section.storeys[n], points[n])


def _castle_wall(piece: TerrainPiece, feature: Feature, tables: Tables) -> CastleWall:
    """A castle wall from its piece: its doors (``W.d1``...), its sections (default: one, ``W``, the whole line)."""
    assert isinstance(feature.line, LineString)
    own = [
        Opening(door.id or f"{feature.id}.d{k + 1}", feature.id, door.at, door.width, True, door.open)
        for k, door in enumerate(piece.doors)
    ]
    out = []
    for spec in piece.sections or [SectionSpec(id=feature.id)]:
        line = LineString(spec.line) if spec.line is not None else feature.line
        top = line.buffer(CASTLE_WALL_THICKNESS / 2, cap_style="flat", join_style="mitre")
        out.append(
            WallSection(
                spec.id, feature.id, line, top, Storey(*storey_thresholds(spec.storeys[0], tables, "castle_wall"))
            )
        )
    return CastleWall(feature.id, feature.line, cast(Polygon, feature.shape), feature.height, own, out)


def _sections(piece: TerrainPiece, feature: Feature, tables: Tables) -> list[Section]:
    specs = piece.sections or [SectionSpec(id=feature.id)]
    out = []
    for spec in specs:
        shape = Polygon(spec.shape) if spec.shape is not None else cast(Polygon, feature.shape)
        storeys = tuple(Storey(*storey_thresholds(st, tables, piece.kind)) for st in spec.storeys)
        out.append(Section(spec.id, feature.id, shape, storeys))
    return out


def _bridge(piece: TerrainPiece, ident: str, tables: Tables) -> BridgeSite:
    assert piece.line is not None and piece.type is not None
    kind = tables.bridges.types[piece.type]
    width = piece.width or kind.states[0].abreast * tables.sight.base.value
    line = LineString(piece.line)
    deck = line.buffer(width / 2, cap_style="flat")
    points = 0 if not piece.built else (piece.points if piece.points is not None else kind.points)
    return BridgeSite(ident, piece.type, line, deck, width, points, piece.built)


def terrain_json(terrain: Terrain) -> dict[str, Any]:
    """The terrain as JSON-safe shapes for views and pictures (coordinates rounded to 0.01")."""

    def coords(geometry: BaseGeometry) -> Any:
        if geometry.geom_type == "Polygon":
            return [[round(x, 2), round(y, 2)] for x, y in cast(Polygon, geometry).exterior.coords]
        if geometry.geom_type in ("LineString", "LinearRing"):
            return [[round(x, 2), round(y, 2)] for x, y in geometry.coords]
        if geometry.geom_type == "Point":
            point = cast(Point, geometry)
            return [round(point.x, 2), round(point.y, 2)]
        return [coords(g) for g in getattr(geometry, "geoms", [])]

    out: list[dict[str, Any]] = []
    for hill in terrain.hills:
        out.append({"kind": "hill", "id": hill.id, "shape": coords(hill.shape), "height": hill.height})
    for f in terrain.features:
        item: dict[str, Any] = {"kind": f.kind, "id": f.id, "shape": coords(f.shape)}
        if f.line is not None:
            item["line"] = coords(f.line)
        out.append(item)
    for w in terrain.walls:
        out.append(
            {
                "kind": "castle_wall",
                "id": w.id,
                "line": coords(w.line),
                "height": w.height,
                "openings": [{"id": o.id, "at": list(o.at), "width": o.width, "door": True} for o in w.openings],
                "sections": [
                    {"id": sec.id, "line": coords(sec.line), "points": sec.storey.points} for sec in w.sections
                ],
            }
        )
    for b in terrain.buildings:
        out.append(
            {
                "kind": "tower" if b.tower else "building",
                "id": b.id,
                "shape": coords(b.shape),
                "openings": [{"id": o.id, "at": list(o.at), "width": o.width, "door": o.door} for o in b.openings],
                "sections": [
                    {
                        "id": sec.id,
                        "shape": coords(sec.shape),
                        "storeys": [
                            {
                                "points": st.points,
                                "full_from": st.full_from,
                                "no_art_cover_from": st.no_art_cover_from,
                                "no_top_cover_from": st.no_top_cover_from,
                            }
                            for st in sec.storeys
                        ],
                    }
                    for sec in b.sections
                ],
            }
        )
    for br in terrain.bridges:
        out.append(
            {
                "kind": "bridge",
                "id": br.id,
                "type": br.type,
                "line": coords(br.line),
                "shape": coords(br.deck),
                "width": br.width,
            }
        )
    for c in terrain.cliffs:
        out.append({"kind": "cliff", "id": c.id, "line": coords(c.shape), "height": c.height})
    for wire in terrain.wires:
        out.append({"kind": "barbed_wire", "line": coords(wire)})
    return {"width": terrain.width, "depth": terrain.depth, "pieces": out}
