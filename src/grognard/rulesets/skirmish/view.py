"""What a seat sees of a skirmish game (``view``): the JSON-safe picture render and every channel work from.

Plain functions of the game's :class:`~.context.Context`; shapes are corners in inches, rounded to 0.01".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shapely.geometry import Polygon

from grognard.core.engine import Decision
from grognard.rulesets.skirmish import castles as CA
from grognard.rulesets.skirmish import driving as DV
from grognard.rulesets.skirmish import drops as DP
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish import structures as ST
from grognard.rulesets.skirmish import view_facts as VF
from grognard.rulesets.skirmish.commanders import Commanders
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.terrain import terrain_json


def view(
    ctx: Context, seat: str | None, side: str | None, pending: Sequence[Decision], commanders: Commanders
) -> dict[str, Any]:
    """What ``seat`` (playing ``side``; None: a spectator) sees, JSON-safe: the state less its bookkeeping, the
    decisions ``pending``, ``commanders`` (unit -> the seat commanding it: every seat of a side sees what the
    side sees, its own units among them), the scenario, the terrain, the structures' states, ladders, wedge outlines,
    pieces' arcs, templates laid, vehicles and drop zones. Part 1 hides nothing: every seat sees the whole
    table (the secret stay/retreat choices are the core's sealed events, not part of the state)."""
    full = ctx.state.to_json()
    full.pop("done")
    full["seat"] = seat
    full["side"] = side
    full["pending"] = [{"id": d.id, "seat": d.seat, "prompt": d.prompt} for d in pending]
    full["commanders"] = dict(commanders.units)
    full["scenario"] = {
        "name": ctx.scenario.spec.name,
        "title": ctx.scenario.spec.title,
        "sides": {s.id: {"name": s.name, "edge": s.edge} for s in ctx.scenario.spec.sides},
        "objectives": [
            {"id": o.id, "name": o.name, "shape": [list(p) for p in o.shape]} for o in ctx.scenario.spec.objectives
        ],
        "source": ctx.scenario.source,
    }
    if ctx.terrain_json is None:
        ctx.terrain_json = terrain_json(ctx.base_terrain)
    full["terrain"] = ctx.terrain_json
    full["structures"] = {
        "sections": {
            sid: {"points": list(points), "state": ST.state_of(ctx, sid)}
            for sid, points in sorted(ctx.state.sections.items())
        },
        "bridges": {
            bid: {
                "points": b.points,
                "standing": bid in ST.standing(ctx),
                "text": ST.describe_bridge(ctx, bid),
            }
            for bid, b in sorted(ctx.state.bridges.items())
        },
        "walls": {
            sid: {"points": points, "state": ST.wall_state(ctx, sid)} for sid, points in sorted(ctx.state.walls.items())
        },
    }
    full["ladders"] = [
        {**lad.to_json(), "men": [f.id for f in CA.ladder_men(ctx, lad)]}
        for _, lad in sorted(ctx.state.ladders.items())
    ]
    for wedge in full["wedges"]:
        wedge["outline"] = wedge_outline(ctx, wedge)
    for piece in full["pieces"]:  # its firing arc, degrees either side of its heading (skirmish.55)
        piece["arc"] = ctx.tables.artillery[piece["weapon"]].arc
    for laid in full["landed"]:  # the templates laid this turn, as drawn (never stored: shapely's floats)
        shape = R.burst_shape(ctx.templates[laid["template"]][1], tuple(laid["at"]), laid["angle"])
        laid["shape"] = [[round(x, 2), round(y, 2)] for x, y in shape.exterior.coords]
    full.update(DV.vehicles_view(ctx))
    for fig in full["figures"]:  # a man firing another weapon than his own (a vehicle's MG): what he fires
        fires = M.weapon_of(ctx, ctx.state.figures[fig["id"]])
        if fires != fig["weapon"]:
            fig["fires"] = fires
    zones = DP.drop_zones(ctx)
    if zones:
        full["drop_zones"] = zones
    full.update(VF.facts(ctx, pending))  # the figures of the words a person reads (view_words)
    return full


def wedge_outline(ctx: Context, wedge: Mapping[str, Any]) -> list[list[float]]:
    """A wedge's outline over the table's hills, cut at the table's edges (inches; for pictures)."""
    outline = R.wedge_outline(ctx.terrain, tuple(wedge["at"]), wedge["heading"], wedge["angle"], wedge["reach"])
    table = Polygon([(0, 0), (ctx.terrain.width, 0), (ctx.terrain.width, ctx.terrain.depth), (0, ctx.terrain.depth)])
    cut = Polygon(outline).intersection(table)
    points = list(cut.exterior.coords)[:-1] if isinstance(cut, Polygon) and not cut.is_empty else outline
    return [[round(x, 2), round(y, 2)] for x, y in points]
