"""The skirmish game's vehicles and train (skirmish.23, 31, 44, 49, 50, 56-61): setup, orders, checks, moves.

Plain functions of the game's context. Each vehicle of the side moving
gets a ``drive V`` decision in that side's move phase, beside its units'
``move`` decisions, in any order. A :class:`~.actions.Drive` is checked whole
(:func:`check_drive`) and refused with the first rule it breaks,
leaving the state as it was.

Readings (docs/rules/skirmish.md): the men aboard ride in order, so the first
living man aboard drives (skirmish.57) and the next mans the vehicle's MG
(skirmish.60); the driver fires nothing. Loading or unloading is half the
vehicle's move and half the move of each man who gets in or out (skirmish.61):
a man gets in within ``board_reach`` of the vehicle, if he has spent at most
half his move this turn, and men getting out stand round its rear within
``board_reach``, on free ground out of contact with the enemy. Men aboard do
not walk, touch no enemy base (no melee) and do not pay for rivers (the
vehicle does: skirmish.49). Men on foot walk round vehicles and the train.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from shapely.geometry import Point, Polygon

from grognard.core.engine import ActionSpace
from grognard.core.errors import IllegalAction
from grognard.core.geometry import TOLERANCE, at_most, snap, snap_angle
from grognard.rulesets.skirmish import afoot as AF
from grognard.rulesets.skirmish import boarding as BD
from grognard.rulesets.skirmish import landing as L
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import vehicles as V
from grognard.rulesets.skirmish.actions import Drive, Stop
from grognard.rulesets.skirmish.context import Context, Passed
from grognard.rulesets.skirmish.state import Figure, Vehicle
from grognard.rulesets.skirmish.terrain import Terrain

XY = tuple[float, float]
Standing = tuple[tuple[str, ...], dict[str, XY], tuple[str, ...], list[tuple[str, Any]]]  # see ``standing``


@dataclass
class DrivePlan:
    """A checked drive: the men loading or unloading at each stop (with where they get out), the measure."""

    before: list[tuple[str, XY | None]] = field(default_factory=list)
    after: list[tuple[str, XY | None]] = field(default_factory=list)
    measure: V.DriveMeasure | None = None
    end: XY | None = None
    towing: list[str] = field(default_factory=list)  # the pieces hitched once the drive is done (skirmish.61)


# ---------------------------------------------------------------------- the action space
class DriveSpace(ActionSpace[Drive]):
    """Every legal drive of a vehicle: a continuous space of paths with optional stops (skirmish.23, 61)."""

    def __init__(self, ctx: Context, vehicle: str) -> None:
        self.ctx = ctx
        self.vehicle = vehicle
        self.said: tuple[Any, int] | None = None  # the last drive asked about, and what its sure refusal found

    def check(self, action: Any) -> None:
        if not isinstance(action, Drive):
            raise IllegalAction(f"{action} is not a drive", "skirmish.23")
        if action.vehicle != self.vehicle:
            raise IllegalAction(f"{action}: this decision is for vehicle {self.vehicle}", "skirmish.23")
        if self.ctx.passed.get(self.ctx, action) is Passed:  # passed already at this moment: nothing to check again
            self.ctx.passed.put(self.ctx, action, check_drive(self.ctx, action))

    def passed(self, action: Drive) -> DrivePlan | None:
        """The plan ``check_drive`` gave for ``action`` when it was checked here and passed, on the state as it
        still is (the drive the bot chose, carried out as checked); else None."""
        found = self.ctx.passed.get(self.ctx, action)
        return None if found is Passed else cast(DrivePlan, found)

    def contains(self, action: Any) -> bool:
        """``check``'s yes or no; a drive ``surely_refused`` is refused without the rest of the check. What the
        sure refusal found is kept for the last drive asked (``said``)."""
        why = sure_refusal(self.ctx, self.vehicle, action)
        self.said = (action, why)
        return why == CLEAR and super().contains(action)

    def ground_refused(self, action: Drive) -> bool:
        """``ground_refuses(action)``, read from what ``contains`` found when it was the last drive asked: the
        sure refusal asks the ground first, so it refused by the ground exactly when the ground refuses it, and
        found the ground clear otherwise (unless it could not read the drive)."""
        said = self.said
        if said is not None and said[0] is action and said[1] != UNREAD:
            return bool(said[1] == GROUND)
        return ground_refuses(self.ctx, self.ctx.state.vehicles[self.vehicle], action)

    def hold(self) -> Drive:
        return Drive(self.vehicle)

    def toward(
        self,
        x: float,
        y: float,
        *,
        after: Stop | None = None,
        steps: int = 7,
        give_up: Callable[[XY, XY], bool] | None = None,
    ) -> Drive | None:
        """The furthest legal straight drive toward (x, y), maybe with ``after``; None if none gains ground.
        ``give_up(a, b)``, asked before each probe after the first with the part of the line (from ``a`` to
        ``b``) where the bisection's answer still ends: True stops it there, with the drive found so far (a
        caller that wants no drive ending on that part need not probe for it).

        When the ground alone refused every drive the bisection tried (``ground_refuses``: a pure function of
        the terrain and the path), that is kept in the terrain's memo, and the same search on the same terrain
        from the same place is answered None without its probes: it would try the same drives (each refused,
        the bisection's steps are the same) whoever stands where (a vehicle held up is offered the same drives
        turn after turn, and every game of the scenario starts alike)."""
        ctx = self.ctx
        v = ctx.state.vehicles[self.vehicle]
        memo = ctx.sight_memo(ctx.terrain)
        held = ("drive line held", (v.x, v.y), v.heading, v.kind, (x, y), steps)
        if held in memo:
            return None
        full = Drive(self.vehicle, ((snap(x), snap(y)),), None, after)
        if self.contains(full):
            return full
        held_up = self.ground_refused(full)
        lo, hi, best = 0.0, 1.0, None
        for _ in range(steps):
            if give_up is not None and give_up(
                (v.x + lo * (x - v.x), v.y + lo * (y - v.y)), (v.x + hi * (x - v.x), v.y + hi * (y - v.y))
            ):
                break
            mid = (lo + hi) / 2
            d = Drive(self.vehicle, ((snap(v.x + mid * (x - v.x)), snap(v.y + mid * (y - v.y))),), None, after)
            if self.contains(d):
                lo, best = mid, d
            else:
                hi = mid
                held_up = held_up and self.ground_refused(d)
        else:  # the bisection ran to its end
            if best is None and held_up:
                memo[held] = True
        return best

    def near_units(self) -> list[str]:
        """Units of the vehicle's side with a man on foot within ``board_reach`` of it (who might get in)."""
        ctx = self.ctx
        v = ctx.state.vehicles[self.vehicle]
        shape = ctx.vehicle_shape(v)
        reach = ctx.tables.vehicles.board_reach.value + TOLERANCE
        x0, y0, x1, y1 = shape.bounds
        near = reach + 1e-6  # a man farther than this from the box (by more than rounding) is farther from it
        out: list[str] = []
        for f in ctx.state.figures.values():
            if f.side == v.side and f.alive and f.on_table and f.aboard is None and f.unit not in out:
                if max(x0 - f.x, f.x - x1, y0 - f.y, f.y - y1) > near:
                    continue
                if shape.distance(Point(f.x, f.y)) <= reach:
                    out.append(f.unit)
        return sorted(out)

    def unload_all(self) -> Stop | None:
        """Every unit aboard with neither the driver nor a gunner in it (the passengers), as a stop; with the
        piece the vehicle tows first when it tows one (``unhitch GUN1 ...``: skirmish.61)."""
        ctx = self.ctx
        v = ctx.state.vehicles[self.vehicle]
        keep = {f.unit for f in (M.driver(ctx, v), *M.manned(ctx, v).values()) if f is not None}
        units: list[str] = []
        for f in M.riders(ctx, v):
            if f.unit not in keep and f.unit not in units:
                units.append(f.unit)
        towed = sorted(p.id for p in ctx.state.pieces.values() if p.hitched == v.id)
        if towed:
            return Stop("unhitch", (towed[0], *units))
        return Stop("unload", tuple(units)) if units else None

    def sample(self, rng: np.random.Generator) -> Drive:
        ctx = self.ctx
        v = ctx.state.vehicles[self.vehicle]
        move = ctx.tables.vehicles.kind(v.kind).move
        if ctx.tables.vehicles.kind(v.kind).afloat and L.grounded(ctx.base_terrain, ctx.vehicle_shape(v)):
            stop = self.unload_all()  # a grounded craft lands its men now and then, or waits (skirmish.27)
            if stop is not None and rng.random() < 0.5 and self.contains(Drive(self.vehicle, (), stop)):
                return Drive(self.vehicle, (), stop)
            return self.hold()
        near = self.near_units()
        if near and rng.random() < 0.3:
            stop = Stop("load", (near[int(rng.integers(len(near)))],))
            for d in (Drive(self.vehicle, (), stop), Drive(self.vehicle, ((v.x, v.y + 1.0),), stop)):
                if self.contains(d):
                    return d
        for _ in range(6):
            angle = float(rng.uniform(0.0, 2 * math.pi))
            dist = float(rng.uniform(0.2, 1.0)) * move
            x, y = v.x + dist * math.cos(angle), v.y + dist * math.sin(angle)
            after = self.unload_all() if rng.random() < 0.2 else None
            if after is not None:
                x, y = v.x + dist / 2 * math.cos(angle), v.y + dist / 2 * math.sin(angle)
            d = Drive(self.vehicle, ((snap(x), snap(y)),), None, after)
            if self.contains(d):
                return d
        return self.hold()

    def candidates(self, k: int = 16) -> list[Drive]:
        out = [self.hold()]
        stop = self.unload_all()
        if stop is not None and self.contains(Drive(self.vehicle, (), stop)):
            out.append(Drive(self.vehicle, (), stop))
        return out[:k]


CLEAR, GROUND, IN_THE_WAY, UNREAD = 0, 1, 2, 3  # sure_refusal's answers


def surely_refused(ctx: Context, vehicle: str, action: Any) -> bool:
    """A cheap test that ``check_drive`` refuses ``action`` (a drive of ``vehicle``): the ground refuses its
    path (``vehicles.ground_problem``, kept in the terrain's memo), another vehicle stands in the way (a stop
    before the drive moves none), or with no stop before it a man on foot does (``measure_drive``'s own tests
    of the vehicles and men the check gives it, in its order); ``check_drive`` measures every path on land
    (and ``measure_drive`` every path longer than the tolerance) unless it refused the drive before. False
    says nothing (and on anything it cannot read)."""
    return sure_refusal(ctx, vehicle, action) in (GROUND, IN_THE_WAY)


def sure_refusal(ctx: Context, vehicle: str, action: Any) -> int:
    """``surely_refused``'s finding: ``GROUND`` (the ground refuses the drive: ``ground_refuses``),
    ``IN_THE_WAY`` (a vehicle or a man), ``CLEAR`` (neither, nor the ground: or nothing to ask, a drive with no
    path, afloat, or not of ``vehicle``), ``UNREAD`` (it could not read the drive: nothing said)."""
    v = ctx.state.vehicles.get(vehicle)
    if v is None or not isinstance(action, Drive) or action.vehicle != vehicle or not action.path:
        return CLEAR
    try:
        entry = ctx.tables.vehicles.kind(v.kind)
        if entry.afloat:
            return CLEAR
        path = (v.x, v.y), *((snap(x), snap(y)) for x, y in action.path)
        if V.ground_problem(ctx.terrain, path, kind=v.kind, facing=v.heading, memo=memo_now(ctx)) is not None:
            return GROUND  # ground_refuses
        if V.no_length(path):
            return CLEAR  # measure_drive looks for nothing in the way
        drive = V.ground_of(path, v.heading, entry.length, entry.width)
        _, afoot, _, others = standing(ctx, v)
        if any(drive.overlaps(shape) for _, shape in others):
            return IN_THE_WAY  # another vehicle: measure_drive's refusal of the others it is given
        if action.before is not None:
            return CLEAR  # men may get in first
        # a man on foot in the way: measure_drive's last refusal, of the men the check puts there (skirmish.23)
        radius = ctx.tables.sight.base.value / 2 - TOLERANCE
        x0, y0, x1, y1 = drive.box
        grow = radius + 1e-6  # a disc's box lies within its centre's box grown by its radius (and rounding)
        men = (  # Ground.apart of each disc's box, first, by its centre
            at
            for at in afoot.values()
            if not (at[0] + grow < x0 or x1 < at[0] - grow or at[1] + grow < y0 or y1 < at[1] - grow)
        )
        if any(drive.overlaps_disc(at, radius) for at in men):
            return IN_THE_WAY
        clear(ctx).add((vehicle, path))
        return CLEAR
    except Exception:
        return UNREAD


def clear(ctx: Context) -> set[tuple[str, tuple[XY, ...]]]:
    """The drives (vehicle, path from where it stands) ``surely_refused`` found no vehicle and no man on foot in
    the way of, with no stop before them, while the state stands still (``Context.keep``; empty otherwise):
    ``check_drive`` does not ask ``measure_drive`` to look for them again (the same tests of the same shapes)."""
    found: set[tuple[str, tuple[XY, ...]]] = ctx.keep("drives clear", set)
    return found


def standing(ctx: Context, v: Vehicle) -> Standing:
    """What ``check_drive`` reads of the state for a drive of ``v``, whatever the drive: the living men aboard,
    the men on foot (where they stand), the pieces it tows, the other vehicles (id, footprint); once while the
    state stands still (``Context.keep_for``)."""

    def read() -> Standing:
        s = ctx.state
        return (
            tuple(f for f in v.aboard if s.figures[f].alive),
            {f.id: (f.x, f.y) for f in s.figures.values() if f.alive and f.on_table and f.aboard is None},
            tuple(sorted(p.id for p in s.pieces.values() if p.hitched == v.id)),
            [(o.id, ctx.vehicle_shape(o)) for o in s.vehicles.values() if o.id != v.id],
        )

    found: Standing = ctx.keep_for("drive standing", v.id, read)
    return found


def ground_refuses(ctx: Context, v: Vehicle, action: Drive, path: list[XY] | None = None) -> bool:
    """The ground alone refuses ``action``, a drive of ``v`` on land with a path (``vehicles.ground_problem``,
    kept in the terrain's memo; ``path``: its path from where ``v`` stands, when worked out): ``check_drive``
    refuses it whatever else it holds and whoever stands where."""
    if not action.path or ctx.tables.vehicles.kind(v.kind).afloat:
        return False
    if path is None:
        path = [(v.x, v.y), *((snap(x), snap(y)) for x, y in action.path)]
    return V.ground_problem(ctx.terrain, path, kind=v.kind, facing=v.heading, memo=memo_now(ctx)) is not None


def memo_now(ctx: Context, part: str = "problems") -> dict[Any, Any]:
    """``ground_memo`` of the terrain now, found once while the state stands still (``Context.keep``)."""
    found: dict[Any, Any] = ctx.keep(f"drive ground {part}", lambda: ground_memo(ctx, ctx.terrain, part))
    return found


STORES = 16  # the grounds whose memos are kept, at most (past it, the oldest is dropped)
STORE_ENTRIES = 10_000  # what each keeps, at most (then it starts afresh): some 50 MB in all, at the worst


def ground_memo(ctx: Context, terrain: Terrain, part: str = "problems") -> dict[Any, Any]:
    """A memo of what ``terrain``'s ground alone decides of drives, shared by every terrain of the scenario
    with the same ground (a vehicle's drive makes a new terrain of the moment and leaves the ground as it was):
    ``part`` "problems" (``vehicles.ground_problem``: the table's size, the ponds, the features that stop
    vehicles, the buildings and the cliffs) or "costs" (``vehicles.measure_drive``'s: the roads, hills and
    rivers). The ground is told by those shapes' WKB, read once a terrain."""
    memo = ctx.sight_memo(terrain)
    found: dict[Any, Any] | None = memo.get(("drive ground memo", part))
    if found is None:
        if part == "problems":
            stops = [f for f in terrain.features if f.kind in V.STOPS_VEHICLES or f.kind in V.TANKS_KEPT_OUT]
            key: tuple[Any, ...] = (
                terrain.width,
                terrain.depth,
                terrain.pond.wkb,
                tuple((f.kind, f.id, f.shape.wkb) for f in stops),
                tuple((b.id, b.shape.wkb) for b in terrain.buildings),
                tuple((c.id, c.shape.wkb) for c in terrain.cliffs),
            )
        else:
            key = (terrain.road.wkb, terrain.river.wkb, tuple((h.id, h.height, h.shape.wkb) for h in terrain.hills))
        stores: dict[Any, dict[Any, Any]] = ctx.shared.bot_cache.setdefault("drive grounds", {})
        ground = (part, id(terrain.tables), *key)
        found = stores.get(ground)
        if found is None:
            if len(stores) >= STORES:
                del stores[next(iter(stores))]
            found = stores[ground] = {}
        memo[("drive ground memo", part)] = found
    if len(found) > STORE_ENTRIES:
        found.clear()
    return found


def setup_vehicles(ctx: Context) -> None:
    """Vehicles from the scenario, their men aboard; the train waiting at the board's end."""
    spec = ctx.scenario.spec
    s = ctx.state
    for vs in spec.vehicles:
        vid = vs.id.upper()
        v = Vehicle(
            vid,
            vs.kind,
            vs.side,
            vs.name,
            snap(vs.at[0]),
            snap(vs.at[1]),
            snap_angle(vs.heading),
            tuple(vs.weapons),
            [],
        )
        for ref in [*vs.crew, *vs.passengers]:
            name = ref.upper()
            men = s.units[name].figures if name in s.units else [name]
            for fid in men:
                f = s.figures[fid]
                f.aboard, f.x, f.y = vid, v.x, v.y
                v.aboard.append(fid)
        v.armoured = ctx.tables.vehicles.kind(vs.kind).armoured if vs.armoured is None else vs.armoured
        s.vehicles[vid] = v
    for ps in spec.pieces:
        if ps.hitched is not None:  # it starts behind its vehicle (skirmish.61)
            piece = s.pieces[ps.id.upper()]
            v = s.vehicles[ps.hitched.upper()]
            piece.hitched = v.id
            piece.x, piece.y = BD.tow_point(ctx, v)
            piece.heading = snap_angle(v.heading + 180.0)
    ctx.railway = None
    if spec.train is not None:
        ctx.railway = spec.train.railway or next(f.id for f in ctx.base_terrain.by_kind("railway"))
        s.train = 0.0


def may_drive(ctx: Context, v: Vehicle) -> bool:
    """``v`` owes a drive decision: a living man is aboard, or one of its side stands within reach to get in."""
    return bool(M.riders(ctx, v)) or bool(DriveSpace(ctx, v.id).near_units())


def vehicles_view(ctx: Context) -> dict[str, Any]:
    """The vehicles' footprints (corners, inches) with who drives and who rides, and the train's ground,
    for views and pictures; empty when the scenario has neither."""
    out: dict[str, Any] = {}
    if ctx.state.vehicles:
        items = []
        for v in ctx.state.vehicles.values():
            corners = [[round(x, 2), round(y, 2)] for x, y in ctx.vehicle_shape(v).exterior.coords]
            driver = M.driver(ctx, v)
            gunner = M.gunner(ctx, v)
            items.append(
                {
                    "id": v.id,
                    "kind": v.kind,
                    "side": v.side,
                    "shape": corners,
                    "aboard": [f.id for f in M.riders(ctx, v)],
                    "driver": driver.id if driver else None,
                    "gunner": gunner.id if gunner else None,
                    **(
                        {"grounded": L.grounded(ctx.base_terrain, ctx.vehicle_shape(v))}
                        if ctx.tables.vehicles.kind(v.kind).afloat
                        else {}
                    ),
                }
            )
        out["vehicle_shapes"] = items
    train = ctx.train_now()
    if train is not None:
        out["train_shape"] = [[round(x, 2), round(y, 2)] for x, y in cast(Polygon, train).exterior.coords]
    return out


def check_foot_path(
    ctx: Context, action: Any, f: Figure, path: list[XY], cost: float, found: list[AF.Obstacle] | None = None
) -> None:
    """A man on foot: not aboard, within what his move has left this turn, round vehicles and the train
    (``found``: ``afoot.obstacles(ctx)``, made when not given)."""
    if f.aboard is not None:
        raise IllegalAction(
            f"{action}: {f.id} is aboard {f.aboard}: he moves with it, or gets out by unloading", "skirmish.61"
        )
    spent = ctx.state.walked.get(f.id, 0.0)
    if spent and not at_most(spent + cost, M.allowance(ctx, f)):
        raise IllegalAction(
            f'{action}: {f.id} got in or out of a vehicle this turn: {M.allowance(ctx, f) - spent:g}" of his '
            f'move is left, the path costs {cost:.2f}"',
            "skirmish.61",
        )
    hit = AF.walks_into(ctx, path, found)
    if hit == AF.TRAIN:
        raise IllegalAction(f"{action}: {f.id} would walk into the train: it cannot be boarded", "skirmish.44")
    if hit is not None:
        raise IllegalAction(f"{action}: {f.id} would walk through {hit}: men get in by loading", "skirmish.61")


def check_drive(ctx: Context, action: Drive) -> DrivePlan:
    """Check ``action`` whole (skirmish.23, 31, 44, 49, 50, 56-61); the plan, or IllegalAction naming the rule."""
    s = ctx.state
    v = M.vehicle(ctx, action.vehicle)
    entry = ctx.tables.vehicles.kind(v.kind)
    stops = [st for st in (action.before, action.after) if st is not None]
    move = entry.move
    budget = move - len(stops) * move / 2
    men_aboard, men_afoot, towing, others = standing(ctx, v)
    aboard, afoot = list(men_aboard), dict(men_afoot)  # check_stop changes them, stop by stop
    plan = DrivePlan()
    plan.towing.extend(towing)
    at, facing = (v.x, v.y), v.heading
    if action.before is not None:
        plan.before = BD.check_stop(ctx, action, action.before, v, at, facing, aboard, afoot, plan.towing)
    if action.path:
        path = [at, *((snap(x), snap(y)) for x, y in action.path)]
        if len(path) > 4:
            raise IllegalAction(f"{action}: a path has at most two waypoints", "skirmish.23")
        if not aboard:
            raise IllegalAction(f"{action}: {v.id} has nobody aboard to drive it", "skirmish.57")
        if len(aboard) < entry.crew_to_move:
            raise IllegalAction(
                f"{action}: a {v.kind} needs {entry.crew_to_move} men aboard to move, it has {len(aboard)}",
                "skirmish.31",
            )
        if budget <= TOLERANCE:
            raise IllegalAction(
                f"{action}: loading and unloading take half a move each: nothing is left to drive", "skirmish.61"
            )
        if not entry.afloat:  # measure_drive's first refusals, the ground's, before the shapes it is given
            terrain = ctx.terrain
            problem = V.ground_problem(terrain, path, kind=v.kind, facing=facing, memo=memo_now(ctx))
            if problem is not None:
                raise IllegalAction(f"{action}: {v.id}: {problem[1]}", problem[0])
        base = ctx.tables.sight.base.value
        radius = base / 2 - TOLERANCE
        if entry.afloat:
            others = [*others, *((fid, V.disc(xy, radius)) for fid, xy in afoot.items())]
            sail = L.measure_sail(
                ctx.base_terrain, path, length=entry.length, width=entry.width, facing=facing, others=others
            )
            measure = sail.measure
            path = [*path[:-1], sail.end] if sail.end != path[-1] else path
        else:
            seen = action.before is None and (v.id, tuple(path)) in clear(ctx)  # (surely_refused's path: a tuple)
            measure = V.measure_drive(
                ctx.terrain,
                path,
                kind=v.kind,
                facing=facing,
                allowance=move,
                river_paid=v.river_paid,
                others=() if seen else others,  # surely_refused found none of them in the way
                men=() if seen else list(afoot.items()),
                radius=radius,
                ground_ok=True,
                costs=memo_now(ctx, "costs"),
            )
        if measure.problem is not None:
            rule, why = measure.problem
            raise IllegalAction(f"{action}: {v.id}: {why}", rule)
        if not at_most(measure.cost, budget):
            rule = "skirmish.49" if measure.rivers else ("skirmish.61" if stops else "skirmish.23")
            raise IllegalAction(
                f"{action}: {v.id}'s path costs {measure.describe()}, more than the {budget:g}\" it has "
                f'(a {v.kind} moves {move:g}"' + (", half of it for loading or unloading)" if stops else ")"),
                rule,
            )
        at, facing = path[-1], measure.heading
        for o in s.vehicles.values():
            if o.id != v.id and V.abreast_on_road(ctx.terrain, at, facing, (o.x, o.y), entry.length):
                raise IllegalAction(
                    f"{action}: {v.id} would stand beside {o.id} on the road: vehicles go single file",
                    "skirmish.56",
                )
        plan.measure, plan.end = measure, at
    if action.after is not None:
        plan.after = BD.check_stop(ctx, action, action.after, v, at, facing, aboard, afoot, plan.towing)
    return plan


def drive(ctx: Context, action: Drive, checked: DrivePlan | None = None) -> None:
    """Carry out ``action``; ``checked``: the plan ``check_drive`` gave for it on this very state (else it is
    checked)."""
    s = ctx.state
    plan = check_drive(ctx, action) if checked is None else checked
    v = s.vehicles[action.vehicle]
    BD.hitch(ctx, v, action.before)
    BD.board(ctx, v, action.before, plan.before)
    if plan.measure is not None and plan.end is not None:
        v.x, v.y = plan.end
        v.heading = plan.measure.heading
        v.river_paid = ctx.base_terrain.in_river(v.x, v.y) and (v.river_paid or plan.measure.rivers > 0)
        for f in M.riders(ctx, v):
            f.x, f.y = v.x, v.y
        for piece in s.pieces.values():
            if piece.hitched == v.id:  # it follows behind, its muzzle to the rear
                piece.x, piece.y = BD.tow_point(ctx, v)
                piece.heading = snap_angle(v.heading + 180.0)
        ctx.emit(
            "drove",
            vehicle=v.id,
            at=[v.x, v.y],
            heading=v.heading,
            cost=round(plan.measure.cost, 2),
            men=[f.id for f in M.riders(ctx, v)],
        )
    elif not plan.before and not plan.after and action.before is None and action.after is None:
        ctx.emit("parks", vehicle=v.id)
    BD.hitch(ctx, v, action.after)
    BD.board(ctx, v, action.after, plan.after)


def run_train(ctx: Context) -> None:
    """The train runs 12" along its railway at the start of each move from the one it enters (skirmish.44)."""
    s = ctx.state
    spec = ctx.scenario.spec
    if ctx.railway is None or s.train is None or spec.train is None or s.turn < spec.train.enters:
        return
    railway = next(f for f in ctx.base_terrain.by_kind("railway") if f.id == ctx.railway)
    assert railway.line is not None
    gone = railway.line.length + ctx.tables.vehicles.train_length.value
    if s.train >= gone:
        return
    base = ctx.tables.sight.base.value
    men = [(f.x, f.y) for f in s.figures.values() if f.alive and f.on_table and f.aboard is None]
    blockers = [ctx.vehicle_shape(v) for v in s.vehicles.values()]
    run = V.train_run(ctx.base_terrain, ctx.railway, s.train, blockers, men, base / 2)
    s.train = round(min(gone, s.train + run), 2)
    ctx.emit("train", head=s.train, ran=round(run, 2), gone=s.train >= gone)
