"""The men on the table, as the phases look them up: units, who is alive, a man's move, what he fires,
who drives, mans and serves what, and a man's death.

Plain functions of a :class:`~.context.Context` (the conventions are the rule set's: inches, origin
south-west, a figure is the centre of its 1" base). Readings (docs/rules/skirmish.md): the men aboard a
vehicle ride in order, so the first living man aboard drives (skirmish.57) and the next mans its weapons
(skirmish.31, 60); a piece is served by the men of its crew unit within its weapon's reach (skirmish.31);
when the last man of a crew dies its piece is abandoned (skirmish.72).
"""

from __future__ import annotations

import math

from grognard.core.errors import IllegalAction
from grognard.core.geometry import TOLERANCE
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.state import Figure, Piece, Unit, Vehicle

SIDES = ("allies", "axis")


def other(side: str) -> str:
    """The other side."""
    return "axis" if side == "allies" else "allies"


def unit(ctx: Context, label: str) -> Unit:
    unit = ctx.state.units.get(label)
    if unit is None:
        raise IllegalAction(f"no unit {label!r} in this game", "skirmish.2")
    return unit


def living(ctx: Context, unit: str) -> list[Figure]:
    return ctx.state.living(unit)


def waiting(ctx: Context, unit: Unit) -> bool:
    """The unit has not yet come onto the table."""
    return not any(ctx.state.figures[f].on_table for f in unit.figures)


def open_doors(ctx: Context) -> set[str]:
    return {d.id for d in ctx.state.doors.values() if d.open}


def allowance(ctx: Context, figure: Figure) -> float:
    """The man's move in inches: his type's, at most 6" carrying a MG or mortar (skirmish.21, 22, 54)."""
    move = ctx.tables.men[figure.type].move
    if figure.weapon in R.CARRIED_HEAVY:
        move = min(move, ctx.tables.movement.carry_heavy.value)
    return move


def enemies(ctx: Context, side: str) -> list[Figure]:
    return [f for f in ctx.state.figures.values() if f.side != side and f.alive and f.on_table]


def kill(ctx: Context, f: Figure, why: str) -> None:
    s = ctx.state
    f.alive = False
    s.stats["losses"][f.side] += 1
    if why == "killed in melee":
        s.stats["melee_dead"][f.side] += 1
    if s.stats["first_blood"] is None:
        s.stats["first_blood"] = s.turn
    ctx.emit("killed", figure=f.id, why=why)
    for piece in sorted(s.pieces.values(), key=lambda p: p.id):
        if piece.crew == f.unit and not living(ctx, f.unit):  # its crew is all dead (skirmish.72)
            piece.crew = None
            ctx.emit("piece_abandoned", piece=piece.id, crew=f.unit)


def crew_men(ctx: Context, piece: Piece) -> list[Figure]:
    """The men of ``piece``'s crew unit standing within its weapon's reach of it, in figure order."""
    if piece.crew is None:
        return []
    reach = ctx.tables.artillery[piece.weapon].reach
    return [
        f
        for f in living(ctx, piece.crew)
        if f.on_table and math.hypot(f.x - piece.x, f.y - piece.y) <= reach + TOLERANCE
    ]


def piece_ready(ctx: Context, piece: Piece) -> tuple[str, str] | None:
    """Why ``piece`` cannot fire now (rule, why), or None: it needs its crew, enough of them at it
    (skirmish.31), not to have been turned this turn (skirmish.55) nor to be hitched (skirmish.61)."""
    if piece.hitched is not None:
        return ("skirmish.61", f"piece {piece.id} is hitched to {piece.hitched} and cannot fire")
    if piece.turned == ctx.state.turn:
        return ("skirmish.55", f"piece {piece.id} was turned this turn and cannot fire")
    return crew_short(ctx, piece)


def crew_short(ctx: Context, piece: Piece) -> tuple[str, str] | None:
    """Why ``piece``'s crew cannot work it (rule, why), or None: a crew, its minimum within reach (skirmish.31)."""
    if piece.crew is None:
        return ("skirmish.72", f"piece {piece.id} has no crew (its crew is dead and nobody has taken it)")
    need = ctx.tables.artillery[piece.weapon].crew
    reach = ctx.tables.artillery[piece.weapon].reach
    have = len(crew_men(ctx, piece))
    if have < need:
        return (
            "skirmish.31",
            f'piece {piece.id} needs {need} of its crew ({piece.crew}) within {reach:g}" of it, has {have}',
        )
    return None


def serving(ctx: Context, f: Figure) -> str | None:
    """The piece ``f`` serves this turn (he fires it, not his own weapon), or None (skirmish.31)."""
    for piece in ctx.state.pieces.values():
        if piece.crew == f.unit and piece_ready(ctx, piece) is None and f in crew_men(ctx, piece):
            return str(piece.id)
    return None


def vehicle(ctx: Context, label: str) -> Vehicle:
    v = ctx.state.vehicles.get(label)
    if v is None:
        raise IllegalAction(f"no vehicle {label!r} in this game", "skirmish.23")
    return v


def riders(ctx: Context, v: Vehicle) -> list[Figure]:
    """The living men aboard ``v``, in order (the first drives, the next mans its MG)."""
    return [ctx.state.figures[f] for f in v.aboard if ctx.state.figures[f].alive]


def driver(ctx: Context, v: Vehicle) -> Figure | None:
    men = riders(ctx, v)
    return men[0] if men else None


def manned(ctx: Context, v: Vehicle) -> dict[str, Figure]:
    """Each of ``v``'s weapons that is manned -> the man who fires it (skirmish.31, 60): after the driver,
    the men aboard serve its weapons in their order, ``weapon_crew`` men each, the first of them firing it;
    a weapon with too few men left is silent (not in the answer)."""
    men = riders(ctx, v)
    need = max(1, round(ctx.tables.vehicles.weapon_crew.value))
    out: dict[str, Figure] = {}
    at = 1
    for w in v.weapons:
        if len(men) >= at + need:
            out[w] = men[at]
        at += need
    return out


def gunner(ctx: Context, v: Vehicle) -> Figure | None:
    """The man who fires the vehicle's MG (see :meth:`manned`), or None (it has none, or it is silent)."""
    return manned(ctx, v).get("mg")


def tank_gun(ctx: Context, v: Vehicle) -> str | None:
    """The tank gun ``v`` carries (a ``kind = "tank_gun"`` entry of ``[artillery]`` in its weapons), or None."""
    return next((w for w in v.weapons if w in ctx.tables.artillery), None)


def weapon_of(ctx: Context, f: Figure) -> str:
    """The weapon ``f`` fires: the vehicle's MG if he mans it, else his own."""
    if f.aboard is not None:
        v = ctx.state.vehicles[f.aboard]
        g = gunner(ctx, v)
        if g is not None and g.id == f.id:
            return "mg"
    return f.weapon


def just_dropped(ctx: Context, unit: str) -> bool:
    """``unit`` came down this move: it neither moves nor fires until the next (skirmish.26)."""
    return ctx.state.dropped.get(unit) == ctx.state.turn
