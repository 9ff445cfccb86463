"""Buildings, bridges and walls with points: artillery cover, shells landing on them, building bridges.

The seed's BUILDINGS AND STRUCTURES, the cover rules for artillery, the door
blown by a 1, and its BRIDGES and BUILDINGS sections (skirmish.17-19, 39-42,
77, 86-91; RULINGS S7, S8, S10, S11, S14). Conventions as the rule set's:
inches, origin south-west, a figure is the centre of its 1" base.

A building is made of sections (separate roofs), each of one or two storeys
with points and the thresholds of four states (scenario data, defaults in the
tables): FULL POINTS (men inside cannot be hit by artillery, except at a door
or window), NO ART. COVER (men more than ``wall_reach`` (2") from the wall can
be hit; nearer it the wall gives over-the-top cover), NO TOP COVER (rubble:
small-arms cover only) and ALL DEAD (the section has collapsed on everyone
inside). The men inside feel the state of the highest storey still standing.

The contract with the artillery code (which places burst templates and rolls
the ranging shot): for each man under a landed template it asks
:func:`artillery_cover` (a reason he cannot be hit, or None), and for each
landed shot it calls ``shelling.shell`` once (what the shell does to the
buildings, walls and bridges under it).

Bridges: a large bridge (30 points) or a foot bridge (15) with the seed's
states; artillery takes 2d6 a shot; at 0 it is gone and the men on it fall
into the river. Vehicles ask :func:`bridge_takes`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import icepool
import numpy as np
import shapely
from shapely.geometry import LineString, Point

from grognard.core.dice import DiceSource, Mechanic
from grognard.core.geometry import TOLERANCE
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.options import over_the_top_all_round
from grognard.rulesets.skirmish.tables import ATTACKS, BridgeState, Tables
from grognard.rulesets.skirmish.terrain import (
    FULL_POINTS,
    NO_ART_COVER,
    BridgeSite,
    Section,
    WallSection,
    section_state,
    storey_state,
    top_storey,
)

if TYPE_CHECKING:
    from grognard.rulesets.skirmish.state import Figure

XY = tuple[float, float]
ARCING = ("artillery", "tank_gun", "mortar")  # shells in an arc: roofs stop them (a bazooka is direct fire)
OVER_THE_TOP = ("artillery", "tank_gun")  # skirmish.41: no over-the-top cover from mortars


# ------------------------------------------------------------------------------ mechanics
@dataclass(frozen=True)
class Damage(Mechanic):
    """The points one shot takes from a structure: the total of ``dice`` d6 (skirmish.17, 87, 90).

    >>> Damage(2).distribution().probability(7)
    Fraction(1, 6)
    """

    dice: int = 2

    def roll(self, source: DiceSource, purpose: str) -> int:
        return sum(self.rolled(source, purpose))

    def rolled(self, source: DiceSource, purpose: str) -> list[int]:
        """The dice themselves (their total is ``roll``'s), for "a 1 on a damage die" (option ``artillery_one``)."""
        return list(source.roll(self.dice, 6, purpose))

    def distribution(self) -> icepool.Die:
        return self.dice @ icepool.d6

    @property
    def text(self) -> str:
        return f"{self.dice}d6 points off a shot"


@dataclass(frozen=True)
class OneFromArtillery(Mechanic):
    """ "A 1 from artillery" on a shell that landed (skirmish.75, 77): ``True`` blows off a door under it, and costs
    a wall section with a cannon on it 5 points more. With ``reading`` ``ranging`` (RULINGS S8) the shot's ranging
    die shows 1 (it showed at most ``ranging``, each face alike); with ``damage_die`` (the option
    ``artillery_one``) either of the ``dice`` d6 the shell takes from the door's or cannon's section shows 1.

    >>> [OneFromArtillery(4, reading).distribution().probability(True) for reading in ("ranging", "damage_die")]
    [Fraction(1, 4), Fraction(11, 36)]
    """

    ranging: int
    reading: str = "ranging"
    dice: int = 2

    def roll(self, source: DiceSource, purpose: str) -> bool:
        if self.reading == "damage_die":
            return 1 in source.roll(self.dice, 6, purpose)
        while True:  # the ranging die of a shot that landed
            die = source.roll(1, 6, purpose)[0]
            if die <= self.ranging:
                return die == 1

    def distribution(self) -> icepool.Die:
        if self.reading == "damage_die":
            return (self.dice @ (icepool.d6 <= 1)) >= 1
        return icepool.d(self.ranging) <= 1

    @property
    def text(self) -> str:
        if self.reading == "damage_die":
            return f"a 1 on either of the {self.dice}d6 of damage"
        return f"the ranging die (1 to {self.ranging}, it landed) shows 1"


@dataclass(frozen=True)
class ShotsUntil(Mechanic):
    """How many shots of ``dice`` d6 take a structure of ``points`` down to ``below`` or fewer points.

    Exact: the chance of each number of shots, from the damage's own
    distribution (icepool); ``roll`` rolls the shots one by one.

    >>> ShotsUntil(30, 19).distribution().probability(1)
    Fraction(1, 12)
    >>> ShotsUntil(30, 0).distribution().probability(2)
    Fraction(0, 1)
    """

    points: int
    below: int
    dice: int = 2

    def roll(self, source: DiceSource, purpose: str) -> int:
        left, shots = self.points, 0
        while left > self.below:
            left -= Damage(self.dice).roll(source, purpose)
            shots += 1
        return shots

    def distribution(self) -> icepool.Die:
        damage = Damage(self.dice).distribution()
        faces = [(int(v), Fraction(damage.quantity(v), damage.denominator())) for v in damage.outcomes()]
        alive: dict[int, Fraction] = {self.points: Fraction(1)}  # points left -> chance, not yet down
        out: dict[int, Fraction] = {}
        shots = 0
        while alive:
            shots += 1
            nxt: dict[int, Fraction] = {}
            for left, p in alive.items():
                for lost, q in faces:
                    after = left - lost
                    if after <= self.below:
                        out[shots] = out.get(shots, Fraction(0)) + p * q
                    else:
                        nxt[after] = nxt.get(after, Fraction(0)) + p * q
            alive = nxt
        common = 1
        for p in out.values():
            common = common * p.denominator // _gcd(common, p.denominator)
        return icepool.Die({k: int(p * common) for k, p in sorted(out.items())})

    @property
    def text(self) -> str:
        return f"shots of {self.dice}d6 until {self.points} points are down to {self.below}"


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


# ------------------------------------------------------------------------------ lookups
def attack_of(tables: Tables, weapon: str) -> str:
    """The kind of attack of ``weapon``: a weapon of the tables (``heavy_artillery``) or a kind (``mortar``)."""
    if weapon in tables.artillery:
        return tables.artillery[weapon].kind
    if weapon in tables.weapons:
        return tables.attack(weapon)
    if weapon in ATTACKS:
        return weapon
    raise ValueError(f"{weapon!r} is neither a weapon of the tables nor a kind of attack ({', '.join(ATTACKS)})")


def sections(ctx: Context) -> dict[str, Section]:
    """Every building section of the table, by id."""
    return {sec.id: sec for b in ctx.base_terrain.buildings for sec in b.sections}


def wall_sections(ctx: Context) -> dict[str, WallSection]:
    """Every castle wall section of the table, by id (skirmish.74)."""
    return {sec.id: sec for w in ctx.base_terrain.walls for sec in w.sections}


def wall_state(ctx: Context, section: str) -> str:
    """The state of castle wall section ``section`` now (the four states of a storey; ALL DEAD at 0)."""
    return storey_state(wall_sections(ctx)[section].storey, ctx.state.walls[section])


def wall_section_at(ctx: Context, x: float, y: float) -> str | None:
    """The castle wall section whose top holds (x, y) (inches), standing or not, if any."""
    if not ctx.base_terrain.walls:
        return None  # no castle on the table
    kept = ctx.bot_cache.get("wall tops")  # the sections' ids in order and their tops, as an array (kept)
    if kept is None:
        ordered = sorted(wall_sections(ctx).items())
        kept = ctx.bot_cache["wall tops"] = ([sid for sid, _ in ordered], np.array([sec.shape for _, sec in ordered]))
    ids: list[str] = kept[0]
    tops: np.ndarray = kept[1]
    # a top covers the point where it meets it (a point has no inside of its own to leave out)
    for sid, hit in zip(ids, shapely.intersects_xy(tops, x, y).tolist(), strict=True):
        if hit:
            return sid
    return None


def bridge_sites(ctx: Context) -> dict[str, BridgeSite]:
    """Every bridge of the table (standing, gone or not yet built), by id."""
    return {b.id: b for b in ctx.base_terrain.bridges}


def state_of(ctx: Context, section: str) -> str:
    """The state of ``section`` now: FULL POINTS, NO ART. COVER, NO TOP COVER or ALL DEAD (skirmish.18)."""
    return section_state(sections(ctx)[section], ctx.state.sections[section])


def standing(ctx: Context) -> frozenset[str]:
    """The bridges standing now: built, with points left."""
    return ctx.standing()


def section_states(ctx: Context) -> dict[str, str]:
    """Each building section's and castle wall section's state now."""
    return ctx.section_states()


def bridge_state(ctx: Context, bridge: str) -> BridgeState | None:
    """The row of the bridge's type its points are in now; None when it is gone or not built (skirmish.88-89)."""
    b = ctx.state.bridges[bridge]
    if not b.built or b.points <= 0:
        return None
    kind = ctx.tables.bridges.types[bridge_sites(ctx)[bridge].type]
    return next(row for row in kind.states if b.points >= row.from_points)


def bridge_takes(ctx: Context, bridge: str, *, armoured: bool) -> bool:
    """Whether ``bridge`` in its state now holds a vehicle, armoured or not (for the vehicles' moves)."""
    row = bridge_state(ctx, bridge)
    if row is None:
        return False
    return row.vehicles == "all" or (row.vehicles == "unarmoured" and not armoured)


def bridge_capacity(ctx: Context, bridge: str) -> int:
    """Men of one side who may cross ``bridge`` in a turn: abreast x ranks a move (0 when it is not standing)."""
    row = bridge_state(ctx, bridge)
    if row is None:
        return 0
    return row.abreast * int(ctx.tables.bridges.ranks_per_move.value)


def describe_bridge(ctx: Context, bridge: str) -> str:
    """``B1 (large, 14 points: men 4 abreast and unarmoured vehicles)``."""
    b = ctx.state.bridges[bridge]
    site = bridge_sites(ctx)[bridge]
    if not b.built:
        need = int(ctx.tables.bridges.man_moves.value)
        return f"{bridge} ({site.type}, being built: {b.work} of {need} man-moves)"
    row = bridge_state(ctx, bridge)
    if row is None:
        return f"{bridge} ({site.type}, gone)"
    files = "single file" if row.abreast == 1 else f"{row.abreast} abreast"
    vehicles = {"all": " and vehicles", "unarmoured": " and unarmoured vehicles", "none": " only"}[row.vehicles]
    return f"{bridge} ({site.type}, {b.points} points: men {files}{vehicles})"


def at_opening(ctx: Context, figure: Figure, section: Section) -> str | None:
    """The door or window of the man's building he stands at (within ``opening_reach``), if any (skirmish.39)."""
    reach = ctx.tables.sight.opening_reach.value
    building = next(b for b in ctx.base_terrain.buildings if b.id == section.building)
    for opening in building.openings:
        if Point(opening.at).distance(Point(figure.x, figure.y)) <= reach + TOLERANCE:
            return opening.id
    return None


# ------------------------------------------------------------------------------ the contract with artillery
def artillery_cover(ctx: Context, figure: Figure, centre: XY, weapon: str, *, fired: bool = False) -> str | None:
    """Why ``figure`` cannot be hit by a burst centred at ``centre`` (inches) from ``weapon``, or None.

    ``weapon`` is a weapon of the tables or a kind of attack; ``fired``: the man
    fired this turn (small arms, a wedge or a burst weapon). Raises
    ValueError for neither. Rules (skirmish.18, 39-42, RULINGS S14):

    - a man inside a standing section (FULL POINTS or NO ART. COVER) at a door
      or window of his building (within ``opening_reach``) who fired this turn
      fired from it: no artillery cover at all, just regular cover (skirmish.39);
    - otherwise inside a section at FULL POINTS, the shell hits the roof:
      covered from artillery, tank guns and mortars;
    - inside a section at NO ART. COVER (its roof gone), within ``wall_reach``
      (2") of its wall: over-the-top cover whatever the burst point (the walls
      stand all round him, skirmish.18, 40), not from mortars;
    - outside a standing section, within ``wall_reach`` of its wall with the
      wall between him and the burst's centre (RULINGS S14): over-the-top
      cover, not from mortars; a cliff at least as high as the tables say (3")
      and a castle wall likewise;
    - rubble (NO TOP COVER) and collapsed sections (ALL DEAD) give none; nor do
      artillery pieces (they are not terrain); a bazooka's burst is direct
      fire: only the ordinary cover table (walls, buildings) answers it.

    >>> # see tests/test_skirmish_structures.py for worked cases
    """
    tables = ctx.tables
    attack = attack_of(tables, weapon)
    if attack not in ARCING:
        return None
    terrain = ctx.terrain
    me = (figure.x, figure.y)
    states = section_states(ctx)
    inside = terrain.section_at(*me)
    if inside is not None and states[inside.id] in (FULL_POINTS, NO_ART_COVER):
        opening = at_opening(ctx, figure, inside)
        if opening is not None and fired:
            return None  # he fired from a door or window: no cover from artillery, just regular cover (skirmish.39)
        if states[inside.id] == FULL_POINTS:
            return f"inside section {inside.id} at full points: the shell hits the roof (skirmish.39)"
    if attack not in OVER_THE_TOP:
        return None  # skirmish.41: no over-the-top cover from mortars
    reach = tables.structures.wall_reach.value
    heights = {row.terrain: row.height for row in tables.structures.over_the_top}
    here = Point(me)
    if inside is not None and states[inside.id] == NO_ART_COVER and "building" in heights:
        gap = inside.shape.exterior.distance(here)
        if gap <= reach + TOLERANCE:
            return (
                f'inside section {inside.id}, its roof gone, {gap:.2f}" from its wall (within {reach:g}"): the '
                "shell in its arc hits the wall, not him (skirmish.18, 40)"
            )
    all_round = over_the_top_all_round(ctx.state.options)  # the option over_the_top (S14 read the other way)
    line = LineString([me, centre]) if Point(me).distance(Point(centre)) > TOLERANCE else None
    if line is None and not all_round:
        return None  # the burst's centre is on him: no wall between

    def near(wall: Any) -> bool:
        if all_round:
            return bool(wall.distance(here) <= reach + TOLERANCE)
        return line is not None and _crosses_near(line, wall, here, reach)

    between = " (option over_the_top = all_round)" if all_round else ", which lies between him and the burst"
    if "building" in heights:
        for sid, sec in sorted(sections(ctx).items()):
            if states[sid] not in (FULL_POINTS, NO_ART_COVER):
                continue  # rubble and collapse give no artillery cover
            if near(sec.shape.exterior):
                return f'within {reach:g}" of the wall of section {sid}{between} (skirmish.40)'
    if "castle_wall" in heights and figure.on_wall is None and figure.on_ladder is None:
        for sid, wsec in sorted(wall_sections(ctx).items()):
            wall = next(w for w in terrain.walls if w.id == wsec.wall)
            if states[sid] not in (FULL_POINTS, NO_ART_COVER) or wall.height + TOLERANCE < heights["castle_wall"]:
                continue  # a broken or fallen stretch, or a low wall, gives none
            if near(wsec.line):
                return f'within {reach:g}" of castle wall section {sid}{between} (skirmish.40)'
    if "cliff" in heights:
        for cliff in terrain.cliffs:
            if cliff.height + TOLERANCE < heights["cliff"]:
                continue
            if near(cliff.shape):
                return f'within {reach:g}" of cliff {cliff.id}{between} (skirmish.40)'
    return None


def _crosses_near(line: LineString, wall: Any, man: Point, reach: float) -> bool:
    """The line from the man to the burst's centre crosses ``wall`` within ``reach`` of him (RULINGS S14)."""
    if not wall.intersects(line):
        return False
    crossing = line.intersection(wall)
    return bool(crossing.distance(man) <= reach + TOLERANCE)


# ------------------------------------------------------------------------------ for the bots
def collapse_chance(ctx: Context, section: str) -> Fraction:
    """The chance one shot brings ``section`` to ALL DEAD now (its last storey; exact over 2d6)."""
    sec = sections(ctx)[section]
    points = ctx.state.sections[section]
    n = top_storey(sec, points)
    if n is None:
        return Fraction(1)
    if n > 0:
        return Fraction(0)  # the second storey must go first (skirmish.91)
    storey = sec.storeys[0]
    need = points[0] - (storey.no_top_cover_from - 1)  # points to lose to fall below NO TOP COVER
    return _at_least(int(ctx.tables.structures.dice.value), need)


@functools.lru_cache(maxsize=256)  # kept: a handful of (dice, points) in any game; the bots ask every move
def _at_least(dice: int, need: int) -> Fraction:
    """The exact chance one shot of ``dice`` d6 takes ``need`` points or more (``Damage``'s distribution)."""
    dist = Damage(dice).distribution()
    return Fraction(sum(dist.quantity(v) for v in dist.outcomes() if v >= need), dist.denominator())
