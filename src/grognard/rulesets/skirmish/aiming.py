"""Many burst landing points checked at once: the doctrine's aim points (``bots_fire.burst_order``).

``landings`` answers for each point what ``BurstSpace(ctx, by).contains(Burst(by, at))`` answers (the rules'
``artillery.plan_burst``), faster. What does not depend on the point is checked once (``artillery._origin``);
the point's own measures, in plain floats: on the table, inside a piece's arc (skirmish.55), within the weapon's
reach (skirmish.29, the range adjusted up or down hill), clear of the firer's own position and its minimum range
(skirmish.12). A measure within ``EDGE`` of its limit, where this module's rounding could differ from the rules',
and a point near enough the firer's own position for the template to touch it, go through
``artillery._aimed`` (the rules' own check, point by point). Only the points all those measures let through are
then asked for sight (skirmish.11: an observer of the side for indirect fire, else the firer's own line), all
at once: a point out of range or arc costs no line of sight.
"""

from __future__ import annotations

import math

from grognard.core.errors import IllegalAction
from grognard.core.geometry import TOLERANCE, snap
from grognard.rulesets.skirmish import artillery as AR
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import sight as SG
from grognard.rulesets.skirmish.actions import XY, Burst
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.options import burst_min_range

EDGE = 1e-6  # inches: a measure nearer its limit than this is the rules' to decide (a short cut rounds otherwise)
ANGLE_EDGE = 0.006  # degrees: a bearing is stored to 0.01 (rounded by up to 0.005), so nearer its arc, the rules'
Flags = list[bool]  # one a point
Corners = tuple[XY, ...]


def landings(ctx: Context, side: str, by: str, ats: list[XY]) -> list[bool]:
    """``BurstSpace(ctx, by).contains(Burst(by, at))`` for each point of ``ats`` (the unturned first template):
    see the module's docstring."""
    try:
        origin = AR._origin(ctx, side, Burst(by, None))
    except IllegalAction:
        return [False] * len(ats)
    weapon = AR.burst_weapon(ctx, by)
    shape = AR.template_shape(ctx, weapon, None)
    if not ats or shape is None:
        return [False] * len(ats)
    ends = [(snap(x), snap(y)) for x, y in ats]
    passes, doubt = _measured(ctx, by, weapon, shape[1], origin, ends)
    out = [False] * len(ats)
    for i in [i for i, d in enumerate(doubt) if d]:
        out[i] = _rules_pass(ctx, side, by, ats[i], origin)
    asked = [i for i, p in enumerate(passes) if p]
    if asked:
        for i, ok in zip(asked, _sighted(ctx, side, weapon, origin, [ends[i] for i in asked]), strict=True):
            out[i] = ok
    return out


def _rules_pass(ctx: Context, side: str, by: str, at: XY, origin: XY) -> bool:
    """``artillery._aimed`` passes a burst of ``by`` at ``at`` (the long way)."""
    try:
        AR._aimed(ctx, side, Burst(by, at), origin)
    except IllegalAction:
        return False
    return True


def _measured(ctx: Context, by: str, weapon: str, corners: Corners, origin: XY, ends: list[XY]) -> tuple[Flags, Flags]:
    """For each (stored) landing point of ``ends``: whether every measure ``artillery._aimed`` takes of it before
    sight surely passes (on the table, the arc, the reach, the minimum range, clear of the firer's own position),
    and whether the rules must say (no measure surely refuses it, and one lies within ``EDGE`` of its limit, or
    the point near enough the firer's own position for a template of ``corners`` to touch it). Point by point
    (a decision asks of some 20: plain floats cost less than arrays' calls)."""
    s = ctx.state
    entry = ctx.tables.artillery[weapon]
    terrain = ctx.terrain
    memo = ctx.sight_memo(terrain)
    t, width, depth = TOLERANCE, terrain.width + TOLERANCE, terrain.depth + TOLERANCE
    ox, oy = origin
    heading = s.pieces[by].heading if by in s.pieces and entry.arc is not None else None
    arc = (entry.arc or 0.0) + 0.01  # rules.off_arc: the bearing's turn off the heading, past the arc
    base = SG.height(terrain, memo, origin)
    hills = ctx.tables.hills
    up, down = hills.range_uphill_per_inch.value, hills.range_downhill_per_inch.value
    reach = max(band.to for band in entry.bands) + TOLERANCE  # tables.burst_band: None beyond the last band
    least = burst_min_range(s.options) - TOLERANCE  # artillery._check_min_range
    # artillery._may_touch_own: a point within a template's reach of the firer's own position is the rules'
    spots, touch = ctx.keep(f"own position {by}", lambda: AR._own_spots(ctx, by))
    near_own = max(math.hypot(cx, cy) for cx, cy in corners) + 1e-6 + touch + EDGE
    passes: Flags = []
    doubts: Flags = []
    for x, y in ends:
        if not (-t <= x <= width and -t <= y <= depth):  # on_table, exactly: surely refused
            passes.append(False)
            doubts.append(False)
            continue
        dx, dy = x - ox, y - oy
        apart = math.hypot(dx, dy)
        checks: list[tuple[bool, bool]] = []  # (passes, near its limit) of each measure
        if heading is not None:
            turn = abs((math.degrees(math.atan2(dy, dx)) - heading + 180.0) % 360.0 - 180.0)
            near = abs(apart - TOLERANCE) <= EDGE or abs(turn - arc) <= ANGLE_EDGE
            checks.append((apart <= TOLERANCE or turn <= arc, near))
        # rules.range_between: the distance, plus (or less) the rise times the hills' inches a rise; never below 0
        rise = SG.height(terrain, memo, (x, y)) - base
        distance = max(0.0, apart + rise * (up if rise > 0 else down)) if rise != 0 else apart
        checks.append((distance <= reach, abs(distance - reach) <= EDGE))
        checks.append((distance >= least, abs(distance - least) <= EDGE))
        if any(not ok and not near for ok, near in checks):
            passes.append(False)
            doubts.append(False)
            continue
        doubt = any(near for _, near in checks) or any(math.hypot(x - sx, y - sy) <= near_own for sx, sy in spots)
        passes.append(not doubt)
        doubts.append(doubt)
    return passes, doubts


def _sighted(ctx: Context, side: str, weapon: str, origin: XY, ends: list[XY]) -> list[bool]:
    """Sight of each point of ``ends`` as ``artillery._aimed`` asks it (skirmish.11): an observer of ``side``
    for an indirect weapon (``artillery.observed``), else the firer's own line, all at once."""
    if ctx.tables.artillery[weapon].indirect:
        return AR.observed(ctx, side, ends)
    opened: frozenset[str] = ctx.keep("open doors", lambda: frozenset(M.open_doors(ctx)))
    terrain = ctx.terrain
    memo = ctx.sight_memo(terrain)
    SG.fill_sight(terrain, memo, [(origin, at) for at in ends], opened)
    return [memo[("sight", origin, at, opened)] is None for at in ends]
