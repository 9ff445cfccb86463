"""What a person is told of a skirmish choice that needs the game: its note, its odds, its preview.

Everything here reads the game through its state and the rules' own functions; the odds come from the
mechanics the game rolls. The situation of a decision and the table as text read a seat's view alone:
``view_words``.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from grognard.core.errors import IllegalAction
from grognard.core.words import counted, percent
from grognard.rulesets.skirmish import artillery as AR
from grognard.rulesets.skirmish import driving as DV
from grognard.rulesets.skirmish import face_controls as FC
from grognard.rulesets.skirmish import fire as FI
from grognard.rulesets.skirmish import mechanics as MX
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import moving as MV
from grognard.rulesets.skirmish import paths as PA
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish import view as VW
from grognard.rulesets.skirmish.actions import Burst, Drive, Fire, Move, SkirmishAction
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.state import Figure, FireOrder


def note(game: SkirmishGame, action: SkirmishAction) -> str:
    """A few words on a choice: where a move goes and what it costs, what a fire order aims at."""
    if isinstance(action, Move):
        if action.turn is not None:
            turn = action.turn
            aim = f"({turn.at[0]:g}, {turn.at[1]:g})" if turn.at is not None else f"{turn.heading or 0.0:g} degrees"
            return f"turn {turn.piece} to face {aim}"
        if not action.path:
            return "; ".join(str(o) for o in action.orders) or "stay"
        men = M.living(game.ctx, action.unit)
        if not men:
            return ""
        leader = men[0]
        x, y = action.path[-1]
        measure = PA.measure_path(
            game.ctx.terrain,
            [(leader.x, leader.y), *action.path],
            M.allowance(game.ctx, leader),
            river_paid=leader.river_paid,
        )
        allowance = M.allowance(game.ctx, leader)
        left = max(0.0, allowance - measure.cost)
        return (
            f'{math.hypot(x - leader.x, y - leader.y):.1f}" to ({x:g}, {y:g}), costs {measure.cost:.1f}", '
            f'{left:.1f}" left of {allowance:g}"'
        )
    if isinstance(action, Fire):
        head = "hold fire" if action.target is None else f"fire at {action.target}"
        own = [f"{f} {t}" for f, t in action.orders] + [str(w) for w in action.wedges]
        return "; ".join([head, *own])
    if isinstance(action, Burst):
        if action.at is None:
            return "hold fire"
        return f"lay the template at ({action.at[0]:g}, {action.at[1]:g}), turned {action.angle:g} degrees"
    if isinstance(action, Drive):
        try:
            plan = DV.check_drive(game.ctx, action)
        except IllegalAction:
            return ""
        v = game.state.vehicles[action.vehicle]
        words = []
        if plan.before:
            words.append(f"{len(plan.before)} {action.before.verb if action.before else ''}")
        if plan.measure is not None and plan.end is not None:
            x, y = plan.end
            words.append(f'{math.hypot(x - v.x, y - v.y):.1f}" to ({x:g}, {y:g}), costs {plan.measure.cost:.1f}"')
        if plan.after:
            words.append(f"{len(plan.after)} {action.after.verb if action.after else ''}")
        return ", then ".join(words) or "stay put"
    return ""


def odds(game: SkirmishGame, action: SkirmishAction) -> str | None:
    """Expected kills of a fire order, from the rules' own mechanics."""
    if isinstance(action, Burst):
        return _burst_odds(game, action)
    if isinstance(action, Move):
        return _push_odds(game, action)
    if not isinstance(action, Fire) or (action.target is None and not action.orders and not action.wedges):
        return None  # hold fire: no dice (an aimed man's own order rolls even when his unit holds)
    try:
        shots = FI.plan_fire(game.ctx, action)
    except Exception:  # an illegal order has no odds
        return None
    kills = 0.0
    for o in shots:
        hit = float(MX.Shots(1, o.hit_on, o.shift).distribution().probability(1))
        survive = float(MX.Survival(game.ctx.tables.survive_on(o.attack)).distribution().probability(True))
        kills += hit * (1 - survive)
    head = f"{counted(len(shots), 'die', 'dice')}, about {kills:.1f} killed"
    if len(shots) > 3:
        return head
    each = [_shot_json(game, o) for o in shots]  # a few shots: each one's band, cover and chance of a kill
    return head + "".join(
        f"; {j['shooter']} at {j['target']} {j['band_text']} {j['cover_text']}: "
        f"dead {percent(j['dead_decimal'])} ({j['dead']})"
        for j in each
    )


def _push_odds(game: SkirmishGame, action: Move) -> str | None:
    """The chance each ladder a move pushes comes down (``PushOff``: skirmish.83, RULINGS S9; the
    ``ladder_push`` rows of ``grognard odds skirmish``); None for a move that pushes nothing."""
    pushers: dict[str, int] = {}
    for order in action.orders:
        if order.verb == "push":
            pushers[order.name or ""] = pushers.get(order.name or "", 0) + 1
    if not pushers:
        return None
    on = int(game.ctx.tables.castle.push_on.value)
    words = []
    for name, men in sorted(pushers.items()):
        p = MX.PushOff(men, on).distribution().probability(True)
        words.append(f"ladder {name} falls {percent(p)} ({p.numerator}/{p.denominator}: {men}d6, any {on} or less)")
    return "; ".join(words)


def _burst_odds(game: SkirmishGame, action: Burst) -> str | None:
    """The chance the shell lands and the expected dead under the template, from the rules' mechanics."""
    if action.at is None:
        return None
    by = action.by
    s = game.state
    side = s.figures[by].side if by in s.figures else s.units[s.pieces[by].crew or ""].side if by in s.pieces else ""
    try:
        order = AR.plan_burst(game.ctx, side, action)
    except Exception:  # an illegal order has no odds
        return None
    if order is None:
        return None
    lands = float(MX.RangingShot(order.ranging).distribution().probability(True))
    under = AR.under(game.ctx, AR.burst_polygon(game.ctx, order))
    dead = 0.0
    for f in under:
        fate = MX.BurstFate(
            order.ranging, order.hit_on, game.ctx.tables.men[f.type].hit_shift, game.ctx.tables.survive_on(order.attack)
        )
        dead += float(fate.distribution().probability("dead"))
    return f"lands {lands:.0%}; {counted(len(under), 'man', 'men')} under it, about {dead:.1f} killed"


def _path_json(game: SkirmishGame, fid: str, path: Any, cost: float) -> dict[str, Any]:
    """One man's previewed path: its points (inches, start first), length and cost walked, his allowance and
    what is left of it (skirmish.3, 21)."""
    length = sum(math.dist(a, b) for a, b in itertools.pairwise(path))
    f = game.state.figures.get(fid)
    allowance = M.allowance(game.ctx, f) if f is not None else 0.0
    return {
        "figure": fid,
        "path": [list(p) for p in path],
        "cost": round(cost, 2),
        "length": round(length, 2),
        "allowance": round(allowance, 2),
        "left": round(max(0.0, allowance - cost), 2),
    }


def _shot_json(game: SkirmishGame, o: FireOrder) -> dict[str, Any]:
    """One man's previewed shot (``FireOrder.to_json``) with its range band in words, cover in words and the
    exact chance the man shot at dies of it, from the mechanic ``grognard odds skirmish`` tabulates
    (``ShotFate``: skirmish.5, 6, 8, 32)."""
    fate = MX.ShotFate(o.hit_on, o.shift, game.ctx.tables.survive_on(o.attack)).distribution()
    dead = fate.probability("dead")
    weapon = M.weapon_of(game.ctx, game.state.figures[o.shooter])
    bands = game.ctx.tables.weapons[weapon].bands if weapon in game.ctx.tables.weapons else ()
    low = 0.0 if o.band == 0 or not bands else bands[o.band - 1].to
    band = f'{low:g}-{bands[o.band].to:g}"' if bands and o.band < len(bands) else f"band {o.band + 1}"
    return o.to_json() | {
        "weapon": weapon,
        "band_text": band,
        "cover_text": "cover" if o.cover else "open",
        "dead": f"{dead.numerator}/{dead.denominator}" if dead else "0",
        "dead_decimal": round(float(dead), 4),
    }


def _fraction(p: Any) -> dict[str, Any]:
    """An exact chance as ``{"exact": "n/d", "decimal"}`` (4 places, as ``grognard odds skirmish``)."""
    return {"exact": f"{p.numerator}/{p.denominator}" if p else "0", "decimal": round(float(p), 4)}


def _under_json(game: SkirmishGame, order: Any, f: Figure) -> dict[str, Any]:
    """One man under a previewed template: the engine's own reading of him when it fires (``resolve_bursts``):
    covered from the shell by a structure (skirmish.39-42), or his chance of dying of it, ranging shot
    included (``BurstFate``: skirmish.13, 14, 6), with the cover the terrain gives him against it. A man who
    fires from a door or window this turn loses a roof's cover (skirmish.39): the preview cannot know that yet
    and reads him as not firing."""
    from grognard.rulesets.skirmish import structures as ST

    ctx = game.ctx
    why = ST.artillery_cover(ctx, f, order.at, order.weapon)
    if why is not None:
        return {"id": f.id, "covered_by": why, "dead": "0", "dead_decimal": 0.0, "cover_text": f"covered by {why}"}
    from grognard.rulesets.skirmish.analysis import burst_label

    source = order.at if ctx.tables.artillery[order.weapon].indirect else order.origin
    covered = R.cover(ctx.terrain, source, (f.x, f.y), order.attack)
    type_shift = ctx.tables.men[f.type].hit_shift
    six = ctx.state.options.get("cover_six") == "hits"  # the option (RULINGS S4), as options.six_hits_in_cover
    shift = type_shift + R.cover_shift(covered is not None, order.hit_on, type_shift, six)
    fate = MX.BurstFate(order.ranging, order.hit_on, shift, ctx.tables.survive_on(order.attack))
    dead = _fraction(fate.distribution().probability("dead"))
    cover = ("cover" if covered else "open") if ctx.tables.cover_rows(order.attack) else "no cover"
    return {
        "id": f.id,
        "cover_text": f"{burst_label(ctx.tables, order.weapon, order.band)} {cover}",
        "dead": dead["exact"],
        "dead_decimal": dead["decimal"],
    }


def preview(game: SkirmishGame, seat: str, action: SkirmishAction) -> dict[str, Any]:
    """``seat``'s view with an order not yet given drawn in (for ``render``).

    A move: every man's path (inches, start first) and its cost; a fire order:
    every man's shot (shooter, target, the die's numbers, cover) and every
    MG's or flame thrower's wedge (``WedgeFire.to_json``, skirmish.16); a burst
    order: the template as it would be laid and the men under it. Raises
    :class:`IllegalAction` (naming the rule) for an order the rules forbid.
    """
    view = game.view(seat)
    if isinstance(action, Move):
        checked = MV.check_move(game.ctx, action)
        view["preview"] = {
            "order": str(action),
            "paths": [
                _path_json(game, fid, path, measure.cost)
                for fid, (path, measure) in sorted(checked.items())
                if len(path) > 1
            ],
            "shots": [],
        }
    elif isinstance(action, Fire):
        shots, wedges = FI.plan_fire_and_wedges(game.ctx, action)
        view["preview"] = {
            "order": str(action),
            "paths": [],
            "shots": [
                _shot_json(game, o)
                for o in shots
                if not game.ctx.tables.fires_wedge(M.weapon_of(game.ctx, game.state.figures[o.shooter]))
            ],
            "wedges": [
                w.to_json()
                | {
                    "outline": VW.wedge_outline(game.ctx, w.to_json()),
                    "odds": [_shot_json(game, o) for o in shots if o.shooter == w.gunner],
                }
                for w in wedges
            ],
        }
    elif isinstance(action, Burst):
        side = game.side_of(seat) if seat in game.seats() else ""
        order = AR.plan_burst(game.ctx, side, action)
        templates = []
        if order is not None:
            shape = AR.burst_polygon(game.ctx, order)
            templates.append(
                {
                    "by": order.by,
                    "shape": [[round(x, 2), round(y, 2)] for x, y in shape.exterior.coords],
                    "under": [f.id for f in AR.under(game.ctx, shape)],
                    "odds": _burst_odds(game, action) or "",
                    "at": list(order.at),
                    "angle": order.angle,
                    "lands": _fraction(MX.RangingShot(order.ranging).distribution().probability(True)),
                    "ranging": order.ranging,
                    "each": [_under_json(game, order, f) for f in AR.under(game.ctx, shape)],
                }
            )
        view["preview"] = {"order": str(action), "paths": [], "shots": [], "templates": templates}
    elif isinstance(action, Drive):
        plan = DV.check_drive(game.ctx, action)
        v = game.state.vehicles[action.vehicle]
        paths = []
        if plan.measure is not None and plan.end is not None:
            path = [[v.x, v.y], *([x, y] for x, y in action.path)]
            paths.append({"figure": v.id, "path": path, "cost": round(plan.measure.cost, 2)})
        for fid, spot in [*plan.before, *plan.after]:
            if spot is not None:
                f = game.state.figures[fid]
                paths.append({"figure": fid, "path": [[f.x, f.y], list(spot)], "cost": 0.0})
        view["preview"] = {"order": str(action), "paths": paths, "shots": []}
    if "preview" in view:  # as the web table draws it (its path, lines of fire, templates, men under them)
        view["preview"].update(FC.drawn(view))
    return view
