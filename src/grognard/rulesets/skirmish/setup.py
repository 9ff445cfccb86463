"""Setting a skirmish game up from its scenario (skirmish.2, 45; RULINGS S0): figures and units where the
scenario puts them (units that come on later, or by parachute, off the table), doors, building sections,
bridges, pieces and the game's statistics; then the vehicles with their men aboard and the castle walls.

Plain functions of the game's :class:`~.context.Context`. A figure's id is its unit's and its number in
the unit (``A.3``); positions are stored to 0.01".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grognard.core.geometry import snap
from grognard.core.options import recorded
from grognard.rulesets.skirmish import castles as CA
from grognard.rulesets.skirmish import driving as DV
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.men import SIDES
from grognard.rulesets.skirmish.options import OPTIONS
from grognard.rulesets.skirmish.state import Bridge, Door, Figure, Piece, SkirmishState, Unit


def set_up(ctx: Context, options: Mapping[str, Any]) -> None:
    """Build the game's state from ``ctx``'s scenario and the resolved ``options`` (``turn_limit``), lay out
    its vehicles and castle walls, and emit the ``setup`` event."""
    spec = ctx.scenario.spec
    figures: dict[str, Figure] = {}
    units: dict[str, Unit] = {}
    drops = {d.unit.upper(): d.move for d in spec.drops}
    for unit in spec.units:
        enters = drops.get(unit.id.upper(), unit.enters)
        ids = []
        for n, fig in enumerate(unit.figures, 1):
            fid = f"{unit.id.upper()}.{n}"
            ids.append(fid)
            figures[fid] = Figure(
                fid,
                unit.id.upper(),
                unit.side,
                fig.type,
                fig.weapon,
                snap(fig.at[0]),
                snap(fig.at[1]),
                on_table=enters == 0,
            )
        units[unit.id.upper()] = Unit(unit.id.upper(), unit.side, unit.name, enters, ids)
    doors = {o.id: Door(o.id, o.open) for o in ctx.base_terrain.openings.values() if o.door}
    limit = options.get("turn_limit") or spec.victory.turn_limit
    state = SkirmishState(recorded(OPTIONS, options), figures, units, doors)
    state.sections = {
        sec.id: [st.points for st in sec.storeys] for b in ctx.base_terrain.buildings for sec in b.sections
    }
    state.bridges = {b.id: Bridge(b.id, b.points, b.built) for b in ctx.base_terrain.bridges}
    state.pieces = {
        p.id.upper(): Piece(p.id.upper(), p.weapon, snap(p.at[0]), snap(p.at[1]), p.heading, p.crew.upper())
        for p in spec.pieces
    }
    state.stats = {
        "turn_limit": int(limit),
        "losses": dict.fromkeys(SIDES, 0),
        "wounds": dict.fromkeys(SIDES, 0),
        "shots": dict.fromkeys(SIDES, 0),
        "hits": dict.fromkeys(SIDES, 0),
        "first_blood": None,
        "melees": 0,
        "first_melee": None,
        "melee_rounds": 0,
        "melee_dead": dict.fromkeys(SIDES, 0),
        "scenario_sha256": ctx.scenario.digest,
    }
    ctx.state = state
    DV.setup_vehicles(ctx)
    CA.setup_castle(ctx)
    ctx.emit(
        "setup",
        scenario=spec.name,
        title=spec.title,
        tables=ctx.tables.name,
        scenario_sha256=ctx.scenario.digest,
        sides={s.id: s.name for s in spec.sides},
        units=len(units),
        figures=len(figures),
        turn_limit=int(limit),
    )
