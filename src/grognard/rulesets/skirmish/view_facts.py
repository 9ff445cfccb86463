"""What a skirmish view (``SkirmishGame.view``) says beyond the state, worked out by the rules for the words a
person reads (``view_words``: the situation of a decision, the table as text). Part 1 hides nothing, so every
seat is told all of it; the sealed stay/retreat choices are the core's, never the state's, and stay out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from grognard.core.engine import Decision
from grognard.rulesets.skirmish import artillery as AR
from grognard.rulesets.skirmish import fire as FI
from grognard.rulesets.skirmish import melee as ME
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.state import Figure, FireOrder, Vehicle


def facts(ctx: Context, pending: Sequence[Decision]) -> dict[str, Any]:
    """The view's words' figures: ``places`` (each living man on the table and not aboard: his height, the
    woods, bushes or rocks he stands in, river, pond, building), ``vehicle_terms`` (each vehicle's crew, load
    and move), ``pieces_of_terrain`` (the scenario's terrain pieces as written), ``railway``, and for each
    decision owed: ``moving`` (a unit's move, skirmish.21), ``shots`` (each man's shots, skirmish.40-45),
    ``contacts`` (a melee group's men and whom they touch, skirmish.46) and ``burst_terms`` (a burst's weapon,
    bands, template and the enemy in reach, skirmish.55-58)."""
    s = ctx.state
    out: dict[str, Any] = {
        "places": {f.id: _place(ctx, f) for f in s.figures.values() if f.alive and f.on_table and f.aboard is None},
        "vehicle_terms": {v.id: _vehicle(ctx, v) for v in s.vehicles.values()},
        "pieces_of_terrain": [
            {
                "kind": p.kind,
                "id": p.id,
                "height": p.height,
                "width": p.width,
                "shape": [list(q) for q in p.shape] if p.shape else None,
                "line": [list(q) for q in p.line] if p.line else None,
                "at": list(p.at) if p.at is not None else None,
                "radius": p.radius,
            }
            for p in ctx.scenario.spec.terrain
        ],
        "railway": ctx.railway,
        "moving": {},
        "shots": {},
        "contacts": {},
        "burst_terms": {},
    }
    table: dict[str, Any] | None = None
    for decision in pending:
        kind, _, label = decision.id.partition(" ")
        if kind == "move" and M.living(ctx, label):
            out["moving"][label] = M.allowance(ctx, M.living(ctx, label)[0])
        elif kind == "fire":
            table = FI.shot_table(ctx) if table is None else table
            out["shots"][label] = {
                f.id: [
                    [o.target, o.range, o.hit_on, bool(o.cover)]
                    for o in sorted(
                        (o for o in table.get(f.id, {}).values() if isinstance(o, FireOrder)), key=lambda o: o.range
                    )[:4]
                ]
                for f in M.living(ctx, label)[:10]
            }
        elif kind == "melee":
            contacts = ME.contacts(ctx)
            out["contacts"][label] = {fid: sorted(contacts.get(fid, ())) for fid in s.groups.get(label, [])}
        elif kind == "burst":
            out["burst_terms"][label] = _burst(ctx, label)
    return out


def _place(ctx: Context, f: Figure) -> dict[str, Any]:
    t = ctx.terrain
    building = t.building_at(f.x, f.y)
    return {
        "height": t.height(f.x, f.y),
        "in": [kind for kind in ("woods", "bushes", "small_rocks") if t.inside(kind, f.x, f.y)],
        "river": t.in_river(f.x, f.y),
        "pond": t.in_pond(f.x, f.y),
        "building": building.id if building is not None else None,
    }


def _vehicle(ctx: Context, v: Vehicle) -> dict[str, Any]:
    entry = ctx.tables.vehicles.kind(v.kind)
    gun = M.tank_gun(ctx, v)
    layer = M.manned(ctx, v).get(gun) if gun is not None else None
    gunner = M.gunner(ctx, v)
    return {
        "river": ctx.base_terrain.in_river(v.x, v.y),
        "riders": [f.id for f in M.riders(ctx, v)],
        "gunner": gunner.id if gunner is not None else None,
        "carries": entry.carries,
        "move": entry.move,
        "road_cost": ctx.tables.vehicles.road_cost.value,
        "tank_gun": gun,
        "layer": layer.id if layer is not None else None,
        "towed": [p.id for p in ctx.state.pieces.values() if p.hitched == v.id],
        "tows": list(entry.tows),
    }


def _burst(ctx: Context, by: str) -> dict[str, Any]:
    """A burst decision's figures: who fires what from where, its bands and template, the enemy in reach."""
    s = ctx.state
    weapon = AR.burst_weapon(ctx, by)
    entry = ctx.tables.artillery[weapon]
    out: dict[str, Any] = {"weapon": weapon}
    if by in s.pieces:
        piece = s.pieces[by]
        origin = (piece.x, piece.y)
        out.update(kind="piece", crew=[f.id for f in M.crew_men(ctx, piece)], arc=entry.arc)
        side = s.units[piece.crew or ""].side
    elif by in s.vehicles:
        v = s.vehicles[by]
        origin = (v.x, v.y)
        layer = M.manned(ctx, v).get(weapon)
        out.update(kind="vehicle", layer=layer.id if layer is not None else None)
        side = v.side
    else:
        f = s.figures[by]
        origin = (f.x, f.y)
        out.update(kind="man")
        side = f.side
    ranged = sorted((R.effective_range(ctx.terrain, origin, (e.x, e.y)), e.id) for e in M.enemies(ctx, side))
    out["bands"] = [[band.to, band.ranging, band.hit_on] for band in entry.bands]
    out["burst"] = entry.burst
    out["across"] = ctx.tables.burst[entry.burst].across
    out["shapes"] = sorted(t for t, (c, _) in ctx.templates.items() if c == entry.burst)
    out["indirect"] = bool(entry.indirect)
    out["near"] = [[eid, d] for d, eid in ranged[:6] if ctx.tables.burst_band(weapon, d) is not None]
    return out
