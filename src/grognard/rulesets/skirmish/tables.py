"""The skirmish rules' tables: the lost pictures of the seed as data, every entry marked with its source.

The shipped file is ``tables/default.toml`` (every entry "seed" or "grognard
default", with a reason); a scenario may name a user's own file of the same
shape (``tables = "mine.toml"``, relative to the scenario). A file is checked
whole: :func:`check_tables` returns every problem at once, and
:func:`load_tables` refuses a file with problems (:class:`TablesError`).

Units: inches. A shot hits when the die, adjusted (cover -1, the target's
type), is ``hit_on`` or more; a hit man survives on ``survive_on`` or more.

>>> tables = load_tables()
>>> tables.band("rifle", 12.0).hit_on, tables.band("rifle", 12.02).hit_on
(4, 5)
>>> tables.band("rifle", 36.5) is None
True
"""

from __future__ import annotations

import itertools
import math
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import ErrorDetails
from shapely.geometry import Point, Polygon

from grognard.core.errors import GrognardError
from grognard.core.geometry import at_most
from grognard.core.words import counted

TABLES_DIR = Path(__file__).parent / "tables"
DEFAULT_TABLES = TABLES_DIR / "default.toml"

Attack = Literal["small_arms", "mg", "bazooka", "mortar", "flame_thrower", "artillery", "tank_gun"]
ATTACKS: tuple[str, ...] = ("small_arms", "mg", "bazooka", "mortar", "flame_thrower", "artillery", "tank_gun")
FIRES_IN_PART_1 = ("small_arms", "mg")  # the others fire templates and wedges (part 3)
WEDGE_ATTACKS = ("mg", "flame_thrower")  # fire a pie wedge out to the weapon's range (skirmish.16)
WEDGE_ANGLES = (25.0, 30.0)  # the seed: "The angle should be 25-30 degrees"
TEMPLATE_ATTACKS = ("artillery", "mortar", "bazooka", "tank_gun")  # burst-template weapons (skirmish.12)
TEMPLATE_SIZE_SLACK = 0.2  # a template shape's width may differ from its class's by at most this share
COVER_WHEN = ("inside", "behind", "in_building", "cliff_top", "aboard")
VEHICLE_KINDS = ("jeep", "half_track", "truck", "tank", "landing_craft")
COVER_TERRAIN = (
    "woods",
    "bushes",
    "small_rocks",
    "stone_wall",
    "castle_wall",
    "boulder",
    "sandbags",
    "building",
    "cliff",
    "tank_trap",
    *VEHICLE_KINDS,
    "train",
)


class TablesError(GrognardError):
    """A tables file with problems; ``problems`` lists every one ("field: value: why")."""

    code = "tables"

    def __init__(self, where: str, problems: list[str]) -> None:
        self.problems = problems
        self.where = where
        super().__init__(f"{where}: {counted(len(problems), 'problem')}:\n  " + "\n  ".join(problems))


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)  # NaN and infinity: "not finite"


class Sourced(_Model):
    """Where a number comes from: "seed" (the text gives it) or "grognard default" (with the reason)."""

    source: str = Field(min_length=1)
    reason: str = ""


class Entry(Sourced):
    """One number of the tables, with its source."""

    value: float = Field(ge=0)


class ManType(Sourced):
    """A type of man: his move (inches), how much a projectile's die against him is adjusted (``hit_shift``,
    +1: easier to hit) and how much a melee die against him is (``melee``, the same way; skirmish.69-70:
    "different kinds of men are affected differently by projectiles and in melee")."""

    move: float = Field(gt=0, le=48)
    hit_shift: int = Field(ge=-3, le=3)
    melee: int = Field(default=0, ge=-3, le=3)


class Band(_Model):
    """A range band: ranges up to ``to`` inches (inclusive, within 0.01") hit on ``hit_on`` or more."""

    to: float = Field(gt=0)
    hit_on: int = Field(ge=1, le=7)


class Weapon(Sourced):
    """A weapon: its kind of attack and its small-arms bands (none for template and wedge weapons)."""

    kind: Attack
    bands: list[Band]

    @field_validator("bands")
    @classmethod
    def _increasing(cls, bands: list[Band]) -> list[Band]:
        for a, b in itertools.pairwise(bands):
            if b.to <= a.to:
                raise ValueError(f"bands must go outwards: {b.to} after {a.to}")
        return bands

    @model_validator(mode="after")
    def _fires(self) -> Weapon:
        if (self.kind in FIRES_IN_PART_1 or self.kind in WEDGE_ATTACKS) and not self.bands:
            raise ValueError(f"a {self.kind} weapon needs range bands")
        return self


class Survival(Sourced):
    """A hit man survives (a flesh wound) on ``survive_on`` or more."""

    survive_on: int = Field(ge=1, le=7)


class SurvivalTable(_Model):
    """Survival rolls by the attack that hit; a template weapon with no row of its own uses artillery's (S3)."""

    small_arms: Survival
    mg: Survival
    artillery: Survival | None = None
    mortar: Survival | None = None
    bazooka: Survival | None = None
    tank_gun: Survival | None = None
    flame_thrower: Survival | None = None


class ArtilleryBand(_Model):
    """A burst weapon's range band: up to ``to`` inches (inclusive, within 0.01"), the ranging die must be
    at most ``ranging`` (RULINGS S2), and each man under a landed template is hit on ``hit_on`` or more."""

    to: float = Field(gt=0)
    ranging: int = Field(ge=1, le=6)
    hit_on: int = Field(ge=1, le=7)


class Artillery(Sourced):
    """A burst-template weapon (skirmish.12-15, 29, 31): its attack, template class, crew and range bands.

    ``crew`` men (the seed's lost CREWS table) must stand within ``reach``
    inches of a piece to fire it; ``indirect``: it fires in an arc, so a man of
    its side must see the aim point, else the firer himself must (direct fire).
    ``arc``: a piece's firing arc, degrees either side of its heading (skirmish.55;
    None: it fires all round, as a tank's turret or a man's mortar). A ``tank_gun``
    is a tank's own gun (a vehicle's ``weapons``), not a piece on the table.
    """

    kind: Literal["artillery", "mortar", "bazooka", "tank_gun"]
    burst: str
    crew: int = Field(ge=1, le=20)
    reach: float = Field(gt=0, le=6)
    indirect: bool
    bands: list[ArtilleryBand] = Field(min_length=1)
    arc: float | None = Field(default=None, gt=0, le=180)

    @field_validator("bands")
    @classmethod
    def _outwards(cls, bands: list[ArtilleryBand]) -> list[ArtilleryBand]:
        for a, b in itertools.pairwise(bands):
            if b.to <= a.to:
                raise ValueError(f"bands must go outwards: {b.to} after {a.to}")
        return bands


class TemplateShape(_Model):
    """One burst template: ``id`` and its corners (inches) around the point where the shell lands, (0, 0)."""

    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_]*$")
    points: list[tuple[float, float]] = Field(min_length=3, max_length=64)


def template_problem(points: list[tuple[float, float]], across: float) -> str | None:
    """Why ``points`` cannot be a burst template of a class ``across`` inches wide, or None.

    The shape must be a simple polygon holding its landing point (0, 0), and
    its width (the longest distance between two corners) within 20% of
    ``across``: the seed's templates are irregular, of about its sizes.
    """
    shape = Polygon(points)
    if not shape.is_valid or shape.area <= 0:
        return "not a simple polygon (its edges cross or it has no area)"
    if not shape.covers(Point(0.0, 0.0)):
        return "the landing point (0, 0) is not inside the shape"
    width = max(math.dist(a, b) for a, b in itertools.combinations(points, 2))
    if abs(width - across) > TEMPLATE_SIZE_SLACK * across:
        return f'{width:.2f}" across, not about {across:g}" (within {TEMPLATE_SIZE_SLACK:.0%})'
    return None


class BurstClass(Sourced):
    """A class of burst template (heavy 3.5", medium 3", light 2.5", small 1.5": skirmish.15) and its shapes."""

    across: float = Field(gt=0, le=12)
    shapes: list[TemplateShape] = Field(min_length=1)

    @model_validator(mode="after")
    def _shapes(self) -> BurstClass:
        seen: set[str] = set()
        for shape in self.shapes:
            if shape.id in seen:
                raise ValueError(f"template {shape.id!r} named twice")
            seen.add(shape.id)
            why = template_problem(shape.points, self.across)
            if why is not None:
                raise ValueError(f"template {shape.id!r}: {why}")
        return self


class Movement(_Model):
    river_loss: Entry
    pond_factor: Entry
    wire_loss: Entry
    carry_heavy: Entry
    uphill_per_inch: Entry
    downhill_per_inch: Entry
    road_cost: Entry
    wall_crossing: Entry
    boulder_crossing: Entry
    woods_factor: Entry
    bushes_factor: Entry
    rocks_factor: Entry


class WedgeTable(_Model):
    """The MG and flame thrower wedge (skirmish.16): its angle in degrees, 25-30 as the seed says.

    Its length is the weapon's last band (``Tables.max_range``), adjusted up
    and down hill like every range (``Hills``).
    """

    angle: Entry

    @field_validator("angle")
    @classmethod
    def _seed_angle(cls, entry: Entry) -> Entry:
        low, high = WEDGE_ANGLES
        if not low <= entry.value <= high:
            raise ValueError(f"the wedge's angle is {low:g}-{high:g} degrees (skirmish.16), not {entry.value:g}")
        return entry


class Hills(_Model):
    range_uphill_per_inch: Entry
    range_downhill_per_inch: Entry


class Sight(_Model):
    over_reach: Entry
    crest_reach: Entry
    opening_reach: Entry
    base: Entry
    cliff_reach: Entry


class Engineering(_Model):
    wire_per_move: Entry
    traps_per_move: Entry
    trap_spacing: Entry
    reach: Entry


class AttackList(Sourced):
    """A list of attacks (with its source): e.g. those that damage structures (RULINGS S11)."""

    attacks: list[Attack]


class OverTheTop(Sourced):
    """What gives over-the-top artillery cover (skirmish.40): ``terrain`` at least ``height`` inches high."""

    terrain: Literal["building", "cliff", "castle_wall"]
    height: float = Field(gt=0, le=12)


class Structures(_Model):
    """Buildings with points (skirmish.17-18, 39-42, 90-91, RULINGS S7, S11, S14).

    A storey of ``points`` is at FULL POINTS from ``round(points * full_share)``
    up, NO ART. COVER from ``round(points * no_art_cover_share)``, NO TOP COVER
    from 1, ALL DEAD at 0 (a scenario may give its own thresholds).
    """

    dice: Entry
    storey_points: Entry
    full_share: Entry
    no_art_cover_share: Entry
    wall_reach: Entry
    damaged_by: AttackList
    over_the_top: list[OverTheTop]

    @field_validator("full_share", "no_art_cover_share")
    @classmethod
    def _share(cls, entry: Entry) -> Entry:
        if not 0 < entry.value < 1:
            raise ValueError("a share of the points is between 0 and 1")
        return entry

    @model_validator(mode="after")
    def _order(self) -> Structures:
        if self.no_art_cover_share.value >= self.full_share.value:
            raise ValueError("no_art_cover_share must be below full_share")
        return self


class BridgeState(_Model):
    """A bridge's state from ``from_points`` up: men ``abreast`` and which vehicles it holds."""

    from_points: int = Field(ge=1)
    abreast: int = Field(ge=1, le=12)
    vehicles: Literal["all", "unarmoured", "none"]


class BridgeType(Sourced):
    """A kind of bridge: its points when whole and its states, best first (skirmish.88, 89)."""

    points: int = Field(ge=1, le=1000)
    states: list[BridgeState] = Field(min_length=1)

    @model_validator(mode="after")
    def _states(self) -> BridgeType:
        if self.states[0].from_points > self.points:
            raise ValueError(f"the best state starts above the bridge's {self.points} points")
        for a, b in itertools.pairwise(self.states):
            if b.from_points >= a.from_points:
                raise ValueError(f"states go from the best down: {b.from_points} after {a.from_points}")
        if self.states[-1].from_points != 1:
            raise ValueError("the last state starts at 1 point (at 0 the bridge is gone, RULINGS S7)")
        return self


class Bridges(_Model):
    """Bridges (skirmish.86-89, RULINGS S10): kinds, building them, how many men cross a move."""

    types: dict[str, BridgeType]
    man_moves: Entry
    most_builders: Entry
    ranks_per_move: Entry


class VehicleType(Sourced):
    """A kind of vehicle (skirmish.23, 31): its move and size in inches, what it carries, its crew minimum.

    ``length`` and ``width`` are its footprint (a 1/72 model's); ``carries`` is
    every man aboard, crew included; ``crew_to_move`` the men aboard it needs
    to move (one of them drives); ``armoured`` as the seed's "half tracks
    (armored)"; ``tows`` the artillery pieces it may hitch (skirmish.61). ``afloat``: a landing craft
    (skirmish.27), which moves only on ponds and bays and grounds at the shore.
    """

    move: float = Field(gt=0, le=48)
    length: float = Field(gt=0, le=12)
    width: float = Field(gt=0, le=6)
    carries: int = Field(ge=1, le=40)
    crew_to_move: int = Field(ge=1, le=10)
    armoured: bool
    tows: list[str] = []
    afloat: bool = False


class Vehicles(_Model):
    """Vehicle kinds and the numbers vehicles move by (lost tables: grognard defaults, skirmish.23)."""

    jeep: VehicleType
    half_track: VehicleType
    truck: VehicleType
    tank: VehicleType
    landing_craft: VehicleType
    road_cost: Entry
    board_reach: Entry
    weapon_crew: Entry
    tow_gap: Entry
    train_move: Entry
    train_length: Entry
    ramp_reach: Entry

    @model_validator(mode="after")
    def _craft(self) -> Vehicles:
        if not self.landing_craft.afloat:
            raise ValueError("landing_craft: afloat must be true (skirmish.27: a landing craft moves on water)")
        for name in VEHICLE_KINDS[:-1]:
            if self.kind(name).afloat:
                raise ValueError(f"{name}: afloat must be false (skirmish.50: no vehicle enters a pond or bay)")
        return self

    def kind(self, name: str) -> VehicleType:
        """The entry of vehicle kind ``name`` (one of ``VEHICLE_KINDS``)."""
        entry: VehicleType = getattr(self, name)
        return entry


class Paratroops(_Model):
    """Paratroop landings (skirmish.26, a lost table): each man lands ``scatter_per_pip`` inches times a d6
    from his aim toward a d12's clock hour; in a pond or bay he swims on ``water_survives_on`` or more (a d6);
    a hard landing (woods, a building, a wall...) kills him on ``hard_landing_dies_on`` or less."""

    scatter_per_pip: Entry
    water_survives_on: Entry
    hard_landing_dies_on: Entry

    @model_validator(mode="after")
    def _dice(self) -> Paratroops:
        if not 1 <= self.water_survives_on.value <= 7:
            raise ValueError("water_survives_on: a d6 number from 1 (all swim) to 7 (all drown)")
        if not 0 <= self.hard_landing_dies_on.value <= 6:
            raise ValueError("hard_landing_dies_on: a d6 number from 0 (none die) to 6 (all die)")
        return self


class CoverRow(Sourced):
    """A row of the cover lookup: ``terrain`` covers a man ``when`` so, against the attacks listed."""

    terrain: str
    when: str
    against: list[Attack]

    @field_validator("terrain")
    @classmethod
    def _terrain(cls, value: str) -> str:
        if value not in COVER_TERRAIN:
            raise ValueError(f"unknown terrain; one of {', '.join(COVER_TERRAIN)}")
        return value

    @field_validator("when")
    @classmethod
    def _when(cls, value: str) -> str:
        if value not in COVER_WHEN:
            raise ValueError(f"unknown test; one of {', '.join(COVER_WHEN)}")
        return value


class Castle(_Model):
    """Castles and storming (skirmish.73-85, 92): towers' and wall sections' points, where men get on walls,
    ladders and pushing them off, the cannon on a wall, melee on walls.

    ``push_on``: each man pushing rolls a die and the ladder falls on this or
    less (RULINGS S9); ``fall_survive``: a man on a falling ladder lives on
    this or more; ``corner_reach`` and ``ladder_reach`` are inches.
    """

    tower_points: Entry
    wall_points: Entry
    corner_reach: Entry
    ladder_reach: Entry
    ladder_share: Entry
    ladder_men: Entry
    push_men: Entry
    push_on: Entry
    fall_survive: Entry
    cannon_loss: Entry
    wall_melee: Entry

    @field_validator("push_on", "fall_survive")
    @classmethod
    def _a_die(cls, entry: Entry) -> Entry:
        if not 1 <= entry.value <= 6 or entry.value != int(entry.value):
            raise ValueError(f"a face of a d6 (1-6), not {entry.value:g}")
        return entry


class Tables(_Model):
    """Every table of the rules (see ``tables/default.toml``)."""

    name: str
    men: dict[str, ManType]
    weapons: dict[str, Weapon]
    survival: SurvivalTable
    movement: Movement
    hills: Hills
    sight: Sight
    engineering: Engineering
    wedge: WedgeTable
    cover: list[CoverRow]
    structures: Structures
    bridges: Bridges
    castle: Castle
    artillery: dict[str, Artillery] = {}
    burst: dict[str, BurstClass] = {}
    vehicles: Vehicles
    paratroops: Paratroops

    @model_validator(mode="after")
    def _needed(self) -> Tables:
        problems = self.cross_problems()
        if problems:  # every one at once (check_tables lists them one a line)
            raise ValueError(CROSS_SEPARATOR.join(problems))
        return self

    def cross_problems(self) -> list[str]:
        """What the tables' entries say of each other that does not hold (every problem, ``field: why``)."""
        problems = []
        if "infantry" not in self.men:
            problems.append("men: needs an 'infantry' entry (ordinary men)")
        ids: set[str] = set()
        for name, cls in self.burst.items():
            for shape in cls.shapes:
                if shape.id in ids:
                    problems.append(f"burst.{name}: template {shape.id!r} is named in two classes")
                ids.add(shape.id)
        for name, entry in self.artillery.items():
            if entry.burst not in self.burst:
                problems.append(
                    f"artillery.{name}.burst: {entry.burst!r} is not a burst class ({', '.join(self.burst)})"
                )
            if name in self.weapons and self.weapons[name].kind != entry.kind:
                problems.append(
                    f"artillery.{name}.kind: {entry.kind!r} but weapons.{name} is {self.weapons[name].kind!r}"
                )
        for kind in VEHICLE_KINDS:
            for name in self.vehicles.kind(kind).tows:
                if name not in self.pieces():
                    problems.append(
                        f"vehicles.{kind}.tows: {name!r} is not an artillery piece ({', '.join(self.pieces())})"
                    )
        return problems

    def pieces(self) -> list[str]:
        """The burst weapons that are pieces on the table (a scenario's ``[[pieces]]``): not a man's weapon,
        not a tank's gun."""
        return [name for name, e in self.artillery.items() if name not in self.weapons and e.kind != "tank_gun"]

    def tank_guns(self) -> list[str]:
        """The burst weapons a tank carries as its own (``kind = "tank_gun"``: a vehicle's ``weapons``)."""
        return [name for name, e in self.artillery.items() if e.kind == "tank_gun"]

    def burst_band(self, weapon: str, effective_range: float) -> tuple[int, ArtilleryBand] | None:
        """(index, band) of a burst weapon at ``effective_range`` inches, or None beyond its reach (skirmish.29)."""
        for index, band in enumerate(self.artillery[weapon].bands):
            if at_most(effective_range, band.to):
                return index, band
        return None

    def template(self, weapon: str, shape: str | None = None) -> TemplateShape | None:
        """The template ``shape`` of ``weapon``'s class (default: the class's first), or None if it has no such."""
        shapes = self.burst[self.artillery[weapon].burst].shapes
        if shape is None:
            return shapes[0]
        return next((s for s in shapes if s.id == shape), None)

    def band(self, weapon: str, effective_range: float) -> Band | None:
        """The band ``effective_range`` (inches) falls in, or None beyond the last (out of range)."""
        for band in self.weapons[weapon].bands:
            if at_most(effective_range, band.to):
                return band
        return None

    def band_index(self, weapon: str, effective_range: float) -> int | None:
        """0 for the first band, 1 for the next...; None out of range."""
        for index, band in enumerate(self.weapons[weapon].bands):
            if at_most(effective_range, band.to):
                return index
        return None

    def max_range(self, weapon: str) -> float:
        """The weapon's longest reach (inches); 0 for weapons that fire no small arms."""
        bands = self.weapons[weapon].bands
        return bands[-1].to if bands else 0.0

    def fires_wedge(self, weapon: str) -> bool:
        """The weapon fires a pie wedge (a MG or flame thrower kind of attack: skirmish.16)."""
        return self.weapons[weapon].kind in WEDGE_ATTACKS

    def attack(self, weapon: str) -> str:
        """The kind of attack ``weapon`` makes (small_arms, mg, bazooka...)."""
        return self.weapons[weapon].kind

    def survive_on(self, attack: str) -> int:
        """The lowest survival die after a hit by ``attack`` (small arms: 5; burst templates: 6, S3)."""
        entry = getattr(self.survival, attack, None)
        if entry is None and attack in TEMPLATE_ATTACKS:
            entry = self.survival.artillery
        return (entry or self.survival.small_arms).survive_on

    def cover_rows(self, attack: str) -> list[CoverRow]:
        """The rows of the cover lookup that cover against ``attack``."""
        return [row for row in self.cover if attack in row.against]


def describe_error(error: ErrorDetails, prefix: str = "") -> str:
    """One pydantic error as ``field: value: why``."""
    where = "".join(
        f"[{p}]" if isinstance(p, int) else f".{p}"
        for p in error["loc"]
        if p not in ("function-after", "function-before")
    ).removeprefix(".")
    where = f"{prefix}.{where}" if prefix and where else (prefix or where or "(file)")
    value = error.get("input")
    shown = "(missing)" if error.get("type") == "missing" else repr(value) if not isinstance(value, dict) else "{...}"
    if len(shown) > 60:
        shown = shown[:57] + "..."
    message = str(error["msg"]).removeprefix("Value error, ")
    return f"{where}: {shown}: {message}"


CROSS_SEPARATOR = "\n"  # between the cross-checks' problems in the one error pydantic carries


def check_tables(data: Any) -> list[str]:
    """Every problem of a tables file's data (parsed TOML), at once; empty when it is sound.

    The fields' problems, and those of the cross-checks (an artillery piece's burst class, what a vehicle
    tows) of the sections whose fields all check: a section with a field problem is left out of them.
    """
    try:
        Tables.model_validate(data)
    except ValidationError as exc:
        problems: list[str] = []
        faulty: set[str] = set()
        for error in exc.errors():
            if not error["loc"] and error["type"] == "value_error":  # the cross-checks: one a line
                problems += str(error["msg"]).removeprefix("Value error, ").split(CROSS_SEPARATOR)
            else:
                problems.append(describe_error(error))
                faulty.add(str(error["loc"][0]) if error["loc"] else "")
        if isinstance(data, dict) and faulty and "" not in faulty:
            problems += [p for p in _cross_of_the_rest(data, faulty) if p not in problems]
        return problems
    return []


def _cross_of_the_rest(data: dict[str, Any], faulty: set[str]) -> list[str]:
    """The cross-checks with each faulty section replaced by the default tables' own (so they can run)."""
    try:
        default = read_toml(DEFAULT_TABLES)
    except TablesError:
        return []
    rest = {**data, **{key: default[key] for key in faulty if key in default}}
    try:
        Tables.model_validate(rest)
    except ValidationError as exc:
        return [
            line
            for e in exc.errors()
            if not e["loc"] and e["type"] == "value_error"
            for line in str(e["msg"]).removeprefix("Value error, ").split(CROSS_SEPARATOR)
            if line.split(":")[0].split(".")[0] not in faulty  # not of a section put back from the default
        ]
    return []


def loads_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads``, with an array or table nested past Python's recursion limit (``x = [[[[...``, a
    RecursionError traceback) refused as not TOML, as any other text that cannot be parsed is."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError("nested too deep (arrays or tables inside each other)") from None


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file as data; :class:`TablesError` if it cannot be read or parsed."""
    try:  # utf-8-sig: an editor's byte order mark (Notepad's) is not TOML's, and is left out
        return loads_toml(path.read_bytes().decode("utf-8-sig"))
    except OSError as exc:
        raise TablesError(str(path), [f"(file): cannot read: {exc.strerror or exc}"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise TablesError(str(path), [f"(file): not TOML: {exc}"]) from None
    except UnicodeDecodeError as exc:
        raise TablesError(str(path), [f"(file): not UTF-8 text (TOML is UTF-8): byte {exc.start}"]) from None


@lru_cache(maxsize=16)
def _load(path: str, stamp: tuple[int, int]) -> Tables:
    data = read_toml(Path(path))
    problems = check_tables(data)
    if problems:
        raise TablesError(path, problems)
    return Tables.model_validate(data)


def load_tables(path: Path | str | None = None) -> Tables:
    """The tables of ``path`` (default: the shipped ``tables/default.toml``); raises :class:`TablesError`."""
    where = Path(path).resolve() if path is not None else DEFAULT_TABLES
    try:
        info = where.stat()
        stamp = (info.st_mtime_ns, info.st_size)
    except OSError:
        stamp = (0, 0)  # _load reports the file it cannot read
    return _load(str(where), stamp)
