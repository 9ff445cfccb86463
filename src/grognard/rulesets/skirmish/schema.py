"""The skirmish scenario file's schema: the fields of its TOML (pydantic models), the names it may use, and
the checked :class:`Scenario` a game is played on.

Conventions (the whole rule set's): inches; the table's origin is its south-west corner, x runs east (0 to
``table.width``), y runs north (0 to ``table.depth``). A figure stands at the centre of its 1" base. Terrain is
given as shapes: ``shape`` (a polygon's corners), ``line`` (a polyline's points) with a ``width`` for roads
and rivers, or ``at`` (a point). The checks beyond the fields' own are in ``ground.py`` (the terrain) and
``forces.py`` (units, pieces, vehicles, drops, the train); ``scenario.py`` checks a file whole and loads it.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, FiniteFloat

from grognard.core.errors import GrognardError
from grognard.core.words import counted
from grognard.rulesets.skirmish.tables import Tables

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
        self.where = where
        super().__init__(f"{where}: {counted(len(problems), 'problem')}:\n  " + "\n  ".join(problems))


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
    commander: int | None = Field(default=None, ge=1, le=8)  # its seat with the option commanders > 1


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


class PlanGroup(_Model):
    """Units of one side given one task by a plan (``rulesets/skirmish/plans.py``): ``hold`` (hold where they
    have cover, else take the nearest), ``objective`` (go for the nearest objective of the victory) or ``enemy``
    (go for the nearest enemy), by way of the ``flank`` (``west`` or ``east``) when given."""

    units: list[str] = Field(min_length=1, max_length=40)
    task: Literal["hold", "objective", "enemy"]
    flank: Literal["west", "east"] | None = None


class PlanSpec(_Model):
    """A side's plan (``grognard.core.plans``): a ``name`` (a slug), the ``side`` that follows it, a one-line
    ``description``, the doctrine ``clauses`` it sets, and its ``groups`` (the units not named play the book)."""

    name: str = Field(pattern=r"^[a-z][a-z0-9\-]*$", max_length=40)
    side: str
    description: str = Field(min_length=1, max_length=160, pattern=r"^[^\n]*$")
    clauses: list[str] = []
    groups: list[PlanGroup] = Field(min_length=1, max_length=20)


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
    plans: list[PlanSpec] = []


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

    @functools.cached_property
    def digest(self) -> str:
        """SHA-256 of the scenario's data and its tables' (a record names the exact files it was played on); the
        bots' ``plans`` are left out (they change no rule, and a record's states stay as without them). Worked out
        once a scenario (a checked scenario is never changed; every game of it names it twice at its setup)."""
        data = {key: value for key, value in self.data.items() if key != "plans"}  # the bots', not the game's
        body = json.dumps({"scenario": data, "tables": self.tables.model_dump()}, sort_keys=True, default=str)
        return hashlib.sha256(body.encode()).hexdigest()
