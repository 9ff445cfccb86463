"""The checks of a skirmish scenario's forces: units and their men (on their bases, on the table or waiting
beyond their edge), artillery pieces and their crews, vehicles and the men aboard, paratroop drops and the
train (skirmish.23-27, 31, 44, 61, 72). Each check yields problems as ``field: value: why``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from collections.abc import Set as AbstractSet

from shapely.geometry import Polygon
from shapely.ops import unary_union

from grognard.core.numbers import is_count
from grognard.rulesets.skirmish.ground import inside_blocking, on_table, piece_shape
from grognard.rulesets.skirmish.schema import OFF_TABLE_DEPTH, XY, ScenarioSpec
from grognard.rulesets.skirmish.tables import VEHICLE_KINDS, Tables, template_problem


def edge_side(x: float, y: float, width: float, depth: float) -> str | None:
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


def check_units(spec: ScenarioSpec, tables: Tables | None) -> Iterable[str]:
    """Each unit's id and side, and each man's type, weapon and place: on the table (``enters = 0``), beyond
    his side's edge (a unit entering later), or where he aims (a dropped unit, skirmish.26)."""
    width, depth = spec.table.width, spec.table.depth
    side_ids = [s.id for s in spec.sides]
    dropped = {d.unit.upper(): d.move for d in spec.drops}
    riding = dict(men_aboard(spec))
    unit_ids: set[str] = set()
    for i, unit in enumerate(spec.units):
        where = f"units[{i}]"
        if unit.id.upper() in unit_ids:
            yield f"{where}.id: {unit.id!r}: used twice (unit names are read in capitals)"
        unit_ids.add(unit.id.upper())
        if unit.side not in side_ids:
            yield f"{where}.side: {unit.side!r}: not a side of this scenario ({', '.join(side_ids)})"
            continue
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
                if not on_table(x, y, width, depth):
                    yield f"{fw}.at: {list(fig.at)}: off the table (a paratrooper's at is where he aims: skirmish.26)"
            elif unit.enters == 0:
                if not on_table(x, y, width, depth):
                    yield f'{fw}.at: {list(fig.at)}: off the {width:g}" x {depth:g}" table (enters = 0 stands on it)'
                else:
                    inside = inside_blocking(spec, x, y, fig.weapon)
                    if inside and f"{unit.id.upper()}.{j + 1}" not in riding:  # men aboard ride at its centre
                        yield f"{fw}.at: {list(fig.at)}: {inside}"
            else:
                beyond = edge_side(x, y, width, depth)
                if beyond != edge:
                    yield (
                        f"{fw}.at: {list(fig.at)}: a unit entering on move {unit.enters} waits beyond "
                        f"its side's {edge} edge"
                    )
                elif off_distance(x, y, width, depth) > OFF_TABLE_DEPTH:
                    yield f'{fw}.at: {list(fig.at)}: more than {OFF_TABLE_DEPTH:g}" beyond the {edge} edge'


def check_sides_manned(spec: ScenarioSpec) -> Iterable[str]:
    """Each side has a unit, and one of them on the table or entering on move 1 (or dropped on it)."""
    side_ids = [s.id for s in spec.sides]
    dropped = {d.unit.upper(): d.move for d in spec.drops}
    counts = dict.fromkeys(side_ids, 0)
    first_wave = dict.fromkeys(side_ids, 0)
    for unit in spec.units:
        if unit.side not in side_ids:
            continue
        counts[unit.side] += 1
        if dropped.get(unit.id.upper(), unit.enters) <= 1:
            first_wave[unit.side] += 1
    for side in side_ids:
        if counts[side] == 0:
            yield f"units: side {side!r} has no units"
        elif first_wave[side] == 0:
            yield f"units: side {side!r} has no unit on the table or entering on move 1"


def check_bases(spec: ScenarioSpec, tables: Tables | None, aboard: AbstractSet[str] = frozenset()) -> Iterable[str]:
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


def check_pieces(spec: ScenarioSpec, tables: Tables | None) -> Iterable[str]:
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
        if not on_table(*piece.at, width, depth):
            yield f'{where}.at: {list(piece.at)}: off the {width:g}" x {depth:g}" table'
        else:
            inside = inside_blocking(spec, *piece.at, "mortar")
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


def men_aboard(spec: ScenarioSpec) -> Iterable[tuple[str, str]]:
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
    return _footprint(at[0], at[1], heading, length, width)


@functools.lru_cache(maxsize=4096)  # kept: the drive checks ask for the same vehicles' places again and again
def _footprint(x: float, y: float, heading: float, length: float, width: float) -> Polygon:
    a = math.radians(heading)
    ux, uy = math.cos(a), math.sin(a)
    hx, hy = ux * length / 2, uy * length / 2
    wx, wy = -uy * width / 2, ux * width / 2
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


def check_vehicles(spec: ScenarioSpec, tables: Tables | None, aboard: dict[str, str]) -> Iterable[str]:
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
        if not on_table(x, y, spec.table.width, spec.table.depth):
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
                    and is_count(name.split(".")[1])
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
            waters = [piece_shape(p) for p in spec.terrain if p.kind in ("pond", "bay")]
            if kind.afloat and all(w is not None and w.is_valid for w in waters):  # a bad outline is told apart
                sea = unary_union([w for w in waters if w is not None]) if waters else Polygon()
                if shape.difference(sea).area > 0.02:
                    yield (
                        f"{where}.at: {list(vehicle.at)}: a landing craft starts afloat, wholly on a pond or bay "
                        "(skirmish.27)"
                    )
            for j, piece in enumerate(spec.terrain):
                if piece.kind not in VEHICLE_BARRIERS or (kind.afloat and piece.kind in ("pond", "bay")):
                    continue
                other = piece_shape(piece)
                if other is not None and other.intersects(shape):
                    yield f"{where}.at: {list(vehicle.at)}: the {vehicle.kind} stands on terrain[{j}], a {piece.kind}"
            for j, other in shapes:
                if other.intersects(shape):
                    yield f"{where}.at: {list(vehicle.at)}: overlaps vehicles[{j}]"
            shapes.append((i, shape))


def check_drops(spec: ScenarioSpec, aboard: dict[str, str]) -> Iterable[str]:
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


def check_train(spec: ScenarioSpec) -> Iterable[str]:
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


def off_distance(x: float, y: float, width: float, depth: float) -> float:
    return max(-x, x - width, -y, y - depth, 0.0)
