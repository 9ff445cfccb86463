"""Paratroop landings (skirmish.26): plain functions of the game's context.

At the start of the move a scenario's ``[[drops]]`` names (after the train,
before initiative), each living man of the dropped unit scatters from the
point he aims at (his ``at`` in the scenario): a d6 for the distance
(``scatter_per_pip`` inches a pip) and a d12 for the clock hour (12 north, 3
east), ``landing.scatter``. Where he comes down (``landing.landing_ground``):

- off the table: he is lost (dead, counted among his side's losses);
- in a pond or bay: with a MG, mortar or bazooka he drowns (skirmish.53: too
  deep); otherwise a d6 of ``water_survives_on`` or more and he swims where he
  is, else he drowns;
- hard ground (woods, a building, a wall, sandbags, a boulder, a tank trap, a
  cliff, a vehicle or the train): a d6 of ``hard_landing_dies_on`` or less
  kills him; otherwise he gets down, staying in woods where he fell and
  beside anything else;
- a river or open ground: he lands.

A man who comes down on another man's base, or in contact with an enemy,
drifts to the nearest free place (reading: nothing lands on a man; a melee
starts only by a charge). The dropped unit neither moves nor fires in the move
it lands; it acts from the next (the enemy may fire on it at once).
"""

from __future__ import annotations

import math
from typing import Any

from shapely.geometry import Point

from grognard.core.geometry import TOLERANCE, snap
from grognard.rulesets.skirmish import landing as L
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.schema import HEAVY_IN_POND
from grognard.rulesets.skirmish.state import Figure
from grognard.rulesets.skirmish.terrain import Terrain

XY = tuple[float, float]


def drop_moves(ctx: Context) -> dict[str, int]:
    """Unit -> the move it comes down on, for every unit the scenario drops."""
    return {d.unit.upper(): d.move for d in ctx.scenario.spec.drops}


def drop_aims(ctx: Context) -> dict[str, XY]:
    """Each paratrooper -> where he aims (his ``at`` in the scenario)."""
    out: dict[str, XY] = {}
    spec = ctx.scenario.spec
    for unit in spec.units:
        if unit.id.upper() in drop_moves(ctx):
            for n, fig in enumerate(unit.figures, 1):
                out[f"{unit.id.upper()}.{n}"] = (snap(fig.at[0]), snap(fig.at[1]))
    return out


def drop_zones(ctx: Context) -> list[dict[str, Any]]:
    """The drops still to come: unit, side, move and each man's aim (for views and pictures)."""
    s = ctx.state
    aims = drop_aims(ctx)
    out: list[dict[str, Any]] = []
    for unit, move in sorted(drop_moves(ctx).items()):
        if unit not in s.dropped:
            men = s.units[unit].figures
            out.append({"unit": unit, "side": s.units[unit].side, "move": move, "aims": [list(aims[m]) for m in men]})
    return out


def drop_paratroops(ctx: Context) -> None:
    s = ctx.state
    s.chutes = []  # last move's drops come off the picture
    aims = drop_aims(ctx)
    for unit, move in sorted(drop_moves(ctx).items(), key=lambda item: item[0]):
        if move != s.turn or unit in s.dropped:
            continue
        s.dropped[unit] = s.turn
        for fid in s.units[unit].figures:
            f = s.figures[fid]
            if f.alive:
                _drop_man(ctx, f, aims[fid])


def _drop_man(ctx: Context, f: Figure, aim: XY) -> None:
    p = ctx.tables.paratroops
    pips = ctx.roll(1, 6, f"paratroop scatter, inches: {f.id}")[0]
    hour = ctx.roll(1, 12, f"paratroop scatter, clock hour: {f.id}")[0]
    at = L.scatter(aim, pips, hour, p.scatter_per_pip.value)
    terrain = ctx.terrain
    ground = L.landing_ground(terrain, at)
    event: dict[str, Any] = {"figure": f.id, "aim": list(aim), "scatter": pips, "hour": hour, "at": list(at)}
    fate = "landed"
    if ground == "off":
        fate = "lost off the table"
    elif ground == "water":
        if f.weapon in HEAVY_IN_POND:
            fate = "drowned"
            event["why"] = f"a {f.weapon} is too heavy to swim with (skirmish.53)"
        else:
            die = ctx.roll(1, 6, f"paratrooper in the water swims on {p.water_survives_on.value:g}+: {f.id}")[0]
            event["die"] = die
            fate = "swims" if die >= p.water_survives_on.value else "drowned"
    elif ground == "hard":
        die = ctx.roll(1, 6, f"paratrooper's hard landing dies on {p.hard_landing_dies_on.value:g}-: {f.id}")[0]
        event["die"] = die
        fate = "killed in a hard landing" if die <= p.hard_landing_dies_on.value else "got down"
    if fate in ("landed", "swims", "got down"):
        keep_in_woods = ground == "hard" and _woods_only(terrain, at)
        spot = _free_place(ctx, f, at, allow_hard=keep_in_woods, allow_water=fate == "swims")
        if spot is None:
            fate = "lost: no room to land"
        else:
            f.x, f.y = spot
            f.on_table = True
            event["at"] = list(spot)
    event["fate"] = fate
    ctx.state.chutes.append({"figure": f.id, "side": f.side, "aim": list(aim), "at": event["at"], "fate": fate})
    ctx.emit("dropped", **event)
    if fate not in ("landed", "swims", "got down"):
        f.on_table = False
        M.kill(ctx, f, fate)


def _free_place(ctx: Context, f: Figure, at: XY, *, allow_hard: bool, allow_water: bool) -> XY | None:
    """The nearest place to ``at`` a landing man may stand: on the table, on ground he may land on, a
    base from every man on the table and out of contact with the enemy (rings 0.25" apart, to 6")."""
    base = ctx.tables.sight.base.value
    terrain = ctx.terrain
    men = [g for g in ctx.state.figures.values() if g.alive and g.on_table and g.id != f.id]
    for r in [0.0, *(0.25 * k for k in range(1, 25))]:
        count = 1 if r == 0 else max(8, int(2 * math.pi * r / 0.25))
        for k in range(count):
            a = 2 * math.pi * k / count
            spot = (snap(at[0] + r * math.cos(a)), snap(at[1] + r * math.sin(a)))
            ground = L.landing_ground(terrain, spot)
            in_woods = ground == "hard" and _woods_only(terrain, spot)
            water = ground == "water" and allow_water
            if not (ground in ("ground", "river") or (allow_hard and in_woods) or water):
                continue
            ok = True
            for g in men:
                gap = math.hypot(g.x - spot[0], g.y - spot[1])
                if gap < base - TOLERANCE or (g.side != f.side and gap <= base + TOLERANCE):
                    ok = False
                    break
            if ok:
                return spot
    return None


def _woods_only(terrain: Terrain, at: XY) -> bool:
    """``at`` is in woods and near nothing else hard (he may stay there once he has got down)."""
    p = Point(at)
    if terrain.building_at(*at) is not None or not any(w.shape.covers(p) for w in terrain.by_kind("woods")):
        return False
    return not any(
        f.kind != "woods" and f.kind in (*L.HARD_LANDING, *L.CRAFT_AND_VEHICLES) and f.shape.distance(p) <= 0.5
        for f in terrain.features
    )
