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
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from grognard.core.errors import GrognardError
from grognard.core.geometry import at_most

TABLES_DIR = Path(__file__).parent / "tables"
DEFAULT_TABLES = TABLES_DIR / "default.toml"

Attack = Literal["small_arms", "mg", "bazooka", "mortar", "flame_thrower", "artillery", "tank_gun"]
ATTACKS: tuple[str, ...] = ("small_arms", "mg", "bazooka", "mortar", "flame_thrower", "artillery", "tank_gun")
FIRES_IN_PART_1 = ("small_arms", "mg")  # the others fire templates and wedges (part 3)
COVER_WHEN = ("inside", "behind", "in_building", "cliff_top", "aboard")
VEHICLE_KINDS = ("jeep", "half_track", "truck", "tank")
COVER_TERRAIN = (
    "woods",
    "bushes",
    "small_rocks",
    "stone_wall",
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
        super().__init__(f"{where}: {len(problems)} problem(s):\n  " + "\n  ".join(problems))


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Sourced(_Model):
    """Where a number comes from: "seed" (the text gives it) or "grognard default" (with the reason)."""

    source: str = Field(min_length=1)
    reason: str = ""


class Entry(Sourced):
    """One number of the tables, with its source."""

    value: float = Field(ge=0)


class ManType(Sourced):
    """A type of man: his move (inches) and how much a die against him is adjusted (+1: easier to hit)."""

    move: float = Field(gt=0, le=48)
    hit_shift: int = Field(ge=-3, le=3)


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
        if self.kind in FIRES_IN_PART_1 and not self.bands:
            raise ValueError(f"a {self.kind} weapon needs range bands")
        return self


class Survival(Sourced):
    """A hit man survives (a flesh wound) on ``survive_on`` or more."""

    survive_on: int = Field(ge=1, le=7)


class SurvivalTable(_Model):
    """Survival rolls by the attack that hit (artillery's is part 3's)."""

    small_arms: Survival
    mg: Survival
    artillery: Survival | None = None
    flame_thrower: Survival | None = None


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


class VehicleType(Sourced):
    """A kind of vehicle (skirmish.23, 31): its move and size in inches, what it carries, its crew minimum.

    ``length`` and ``width`` are its footprint (a 1/72 model's); ``carries`` is
    every man aboard, crew included; ``crew_to_move`` the men aboard it needs
    to move (one of them drives); ``armoured`` as the seed's "half tracks
    (armored)".
    """

    move: float = Field(gt=0, le=48)
    length: float = Field(gt=0, le=12)
    width: float = Field(gt=0, le=6)
    carries: int = Field(ge=1, le=30)
    crew_to_move: int = Field(ge=1, le=10)
    armoured: bool


class Vehicles(_Model):
    """Vehicle kinds and the numbers vehicles move by (lost tables: grognard defaults, skirmish.23)."""

    jeep: VehicleType
    half_track: VehicleType
    truck: VehicleType
    tank: VehicleType
    road_cost: Entry
    board_reach: Entry
    weapon_crew: Entry
    train_move: Entry
    train_length: Entry

    def kind(self, name: str) -> VehicleType:
        """The entry of vehicle kind ``name`` (one of ``VEHICLE_KINDS``)."""
        entry: VehicleType = getattr(self, name)
        return entry


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
    cover: list[CoverRow]
    vehicles: Vehicles

    @model_validator(mode="after")
    def _needed(self) -> Tables:
        if "infantry" not in self.men:
            raise ValueError("men needs an 'infantry' entry (ordinary men)")
        return self

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

    def attack(self, weapon: str) -> str:
        """The kind of attack ``weapon`` makes (small_arms, mg, bazooka...)."""
        return self.weapons[weapon].kind

    def survive_on(self, attack: str) -> int:
        """The lowest survival die after a hit by ``attack`` (small arms: 5)."""
        entry = getattr(self.survival, attack, None) or self.survival.small_arms
        return entry.survive_on

    def cover_rows(self, attack: str) -> list[CoverRow]:
        """The rows of the cover lookup that cover against ``attack``."""
        return [row for row in self.cover if attack in row.against]


def describe_error(error: dict[str, Any], prefix: str = "") -> str:
    """One pydantic error as ``field: value: why``."""
    where = ".".join(str(p) for p in error["loc"] if p not in ("function-after", "function-before"))
    where = f"{prefix}.{where}" if prefix and where else (prefix or where or "(file)")
    value = error.get("input")
    shown = "(missing)" if error.get("type") == "missing" else repr(value) if not isinstance(value, dict) else "{...}"
    if len(shown) > 60:
        shown = shown[:57] + "..."
    message = str(error["msg"]).removeprefix("Value error, ")
    return f"{where}: {shown}: {message}"


def check_tables(data: Any) -> list[str]:
    """Every problem of a tables file's data (parsed TOML), at once; empty when it is sound."""
    try:
        Tables.model_validate(data)
    except ValidationError as exc:
        return [describe_error(e) for e in exc.errors()]
    return []


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file as data; :class:`TablesError` if it cannot be read or parsed."""
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
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
