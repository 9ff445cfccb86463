"""The doctrine's short cuts of issue 33, item 4 (the slow skirmish scenarios) give what the long way gives.

Each is checked against the long way: the drive search that stops probing a direction whose drive could not
be chosen, a search whose every drive the ground refused answered again from the terrain's memo, and a drive
into another vehicle refused before its whole check (on the decisions of real games); a wedge's men surely
under it found over arrays (against ``rules.under_wedge`` over random men and men just inside and outside its
edges and arc).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest

from grognard.core.dice import BOTS, stream
from grognard.core.errors import IllegalAction
from grognard.core.geometry import snap, snap_angle
from grognard.rulesets.skirmish import bots_drive as BV
from grognard.rulesets.skirmish import bots_fire as BF
from grognard.rulesets.skirmish import context
from grognard.rulesets.skirmish import driving as DV
from grognard.rulesets.skirmish import fire as FI
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish.actions import Drive
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.driving import DriveSpace
from grognard.rulesets.skirmish.scenario import load_scenario
from grognard.rulesets.skirmish.state import FireOrder
from grognard.rulesets.skirmish.terrain import build_terrain
from skirmish_games import game_of


class Counted(DriveSpace):
    """A drive space that counts the drives it is asked about."""

    probes = 0

    def contains(self, action: Any) -> bool:
        self.probes += 1
        return super().contains(action)


def long_way_toward(space: DriveSpace, x: float, y: float, steps: int, after: Any = None) -> Drive | None:
    """``DriveSpace.toward`` as it was before: every search probed to its end."""
    v = space.ctx.state.vehicles[space.vehicle]
    full = Drive(space.vehicle, ((snap(x), snap(y)),), None, after)
    if space.contains(full):
        return full
    lo, hi, best = 0.0, 1.0, None
    for _ in range(steps):
        mid = (lo + hi) / 2
        d = Drive(space.vehicle, ((snap(v.x + mid * (x - v.x)), snap(v.y + mid * (y - v.y))),), None, after)
        if space.contains(d):
            lo, best = mid, d
        else:
            hi = mid
    return best


def long_way_best_drive(space: DriveSpace, aim: tuple[float, float], reach: float, after: Any) -> Drive | None:
    """``bots_drive._best_drive`` as it was before: each direction's bisection run to its end
    (``long_way_toward``)."""
    v = space.ctx.state.vehicles[space.vehicle]
    base = math.atan2(aim[1] - v.y, aim[0] - v.x)
    d = math.hypot(aim[0] - v.x, aim[1] - v.y)
    best: tuple[float, Drive] | None = None
    for off in (0, 20, -20, 40, -40, 60, -60):
        a = base + math.radians(off)
        r = min(reach, d) if off == 0 else reach
        to = (v.x + r * math.cos(a), v.y + r * math.sin(a))
        nearest = BV._from_segment(aim, (v.x, v.y), to) - 0.02
        if nearest >= d - 0.5 or (best is not None and nearest >= best[0]):
            continue
        drive = long_way_toward(space, *to, 5, after)
        if drive is None or not drive.path:
            continue
        x, y = drive.path[-1]
        left = math.hypot(aim[0] - x, aim[1] - y)
        if left < d - 0.5 and (best is None or left < best[0]):
            best = (left, drive)
        if off == 0 and best is not None and math.hypot(x - v.x, y - v.y) >= r - 0.5:
            break
    return best[1] if best is not None else None


def test_the_drive_search_gives_up_a_direction_whose_drive_could_not_be_chosen_and_finds_the_same_drive() -> None:
    """At every drive decision of a convoy game, for the aims the doctrine drives at (the objective) and
    others round the vehicle, at a whole and a half move: ``_best_drive`` finds the drive the long way finds,
    with fewer probes in all (before, it probed as many)."""
    game = game_of("convoy", 1)
    bot = DoctrineBot(np.random.default_rng(stream(33, 1, BOTS)))
    rng = np.random.default_rng(5)
    cases = fewer = found = 0
    probes = {"short": 0, "long": 0}
    while game.result is None and cases < 64:
        decision = game.pending()[0]
        if isinstance(decision.space, DriveSpace):
            ctx = game.ctx
            v = ctx.state.vehicles[decision.space.vehicle]
            move = ctx.tables.vehicles.kind(v.kind).move
            aims = [(v.x + float(dx), v.y + float(dy)) for dx, dy in rng.uniform(-14.0, 14.0, (3, 2))]
            spec = ctx.scenario.spec
            aims += [tuple(np.mean(o.shape, axis=0).tolist()) for o in spec.objectives][:1]
            for aim in aims:
                for reach in (move, move / 2):
                    with ctx.still():
                        short, long = Counted(ctx, v.id), Counted(ctx, v.id)
                        chosen = BV._best_drive(ctx, short, aim, reach, None)
                        assert chosen == long_way_best_drive(long, aim, reach, None), (v.id, aim, reach)
                    cases += 1
                    found += chosen is not None
                    fewer += short.probes < long.probes
                    probes["short"] += short.probes
                    probes["long"] += long.probes
                    assert short.probes <= long.probes
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    assert cases >= 40 and found >= 8
    assert fewer >= 5 and probes["short"] < probes["long"], (fewer, probes)


@pytest.mark.parametrize("scenario", ["hill_assault", "convoy"])
def test_a_man_surely_under_a_wedge_is_under_it_by_the_rule(scenario: str) -> None:
    """``fire.surely_under`` never says a man is under a wedge whom ``rules.under_wedge`` leaves out: random men
    and men just inside and outside its edges and its arc, on a table with hills (the wedge's length for each
    man's height) and one without; it takes most of the men under it out of the rule's one-by-one test."""
    spec = load_scenario(scenario)
    terrain = build_terrain(spec.spec, spec.tables)
    rng = np.random.default_rng(33)
    base, angle, reach = 1.0, float(spec.tables.wedge.angle.value), 30.0
    checked = under = sure = 0
    for _ in range(150):
        apex = (round(float(rng.uniform(0, terrain.width)), 2), round(float(rng.uniform(0, terrain.depth)), 2))
        heading = round(float(rng.uniform(-180, 180)), 2)
        men = [(float(rng.uniform(-40, 40)), float(rng.uniform(-40, 40))) for _ in range(6)]
        for side in (-1, 1):  # just either side of each edge, at several ranges
            edge = math.radians(heading + side * angle / 2)
            for r_ in (2.0, 10.0, 29.0):
                for gap in (-0.01, -0.001, 0.001, 0.01):
                    normal = edge + side * math.pi / 2
                    men.append(
                        (r_ * math.cos(edge) + gap * math.cos(normal), r_ * math.sin(edge) + gap * math.sin(normal))
                    )
        for k in (-0.02, -0.005, 0.0, 0.005, 0.02):  # just inside and outside the arc, straight ahead
            t = math.radians(heading)
            men.append(((reach + base / 2 + k) * math.cos(t), (reach + base / 2 + k) * math.sin(t)))
        ats = [(round(apex[0] + dx, 2), round(apex[1] + dy, 2)) for dx, dy in men]
        lengths = np.array([R.wedge_length(terrain, apex, at, reach) for at in ats])
        surely = FI.surely_under(apex, heading, angle, np.array(ats), lengths, base).tolist()
        for at, yes in zip(ats, surely, strict=True):
            want = R.under_wedge(terrain, apex, heading, angle, reach, at, base)
            assert want or not yes, (apex, heading, at)
            checked += 1
            under += want
            sure += yes
    assert 0 < under < checked
    assert sure > under // 2, (sure, under)


def test_a_gunners_wedges_ask_the_rule_only_of_the_men_near_their_edges(monkeypatch: pytest.MonkeyPatch) -> None:
    """``fire.wedges`` at many headings puts the men surely under a wedge under it without asking
    ``rules.under_wedge`` of them, and fires on the same men as each heading's wedge alone (before, the rule
    was asked of every man not surely aside)."""
    game = game_of("convoy", 1)
    bot = DoctrineBot(np.random.default_rng(stream(33, 1, BOTS)))
    asked = {"n": 0}
    rule = R.under_wedge

    def counted(*args: Any) -> bool:
        asked["n"] += 1
        return rule(*args)

    under = 0
    while game.result is None and under < 30:
        decision = game.pending()[0]
        ctx = game.ctx
        gunners = [f for f in ctx.state.figures.values() if f.alive and f.on_table and f.weapon == "mg"]
        if decision.id.startswith("fire") and gunners:
            headings = [float(h) for h in range(-180, 180, 15)]
            for gunner in gunners:
                one = [FI.wedges(ctx, gunner, [h])[0] for h in headings]
                monkeypatch.setattr(R, "under_wedge", counted)
                many = FI.wedges(ctx, gunner, headings)
                monkeypatch.setattr(R, "under_wedge", rule)
                assert [(w.men, w.unseen, shots) for w, shots in many] == [(w.men, w.unseen, s) for w, s in one]
                under += sum(len(w.men) + len(w.unseen) for w, _ in many)
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    assert under >= 30
    assert asked["n"] < under // 2, (asked, under)


def long_way_heading_and_worth(ctx: Any, gunner: Any) -> tuple[float, float | None]:
    """``bots_fire._heading_and_worth`` the long way: each heading's wedge alone (``fire.wedge``), its worth
    (``bots_fire._worth``) summed over its shots."""
    apex = (gunner.x, gunner.y)
    half = ctx.tables.wedge.angle.value / 2
    row = FI.shot_table(ctx).get(gunner.id, {})
    seen = sorted(
        {
            R.bearing(apex, (ctx.state.figures[t].x, ctx.state.figures[t].y))
            for t, o in row.items()
            if isinstance(o, FireOrder)
        }
    )
    tries: set[float] = set()
    for b in seen:
        tries |= {b, snap_angle(b - half + 0.5), snap_angle(b + half - 0.5)}
    for a, b in itertools.pairwise([*seen, *(s + 360.0 for s in seen[:1])]):
        if b - a <= 2 * half:
            tries.add(snap_angle((a + b) / 2))
    if tries:
        worth = {h: BF._worth(ctx, gunner, FI.wedge(ctx, gunner, h)[1]) for h in sorted(tries)}
        best = max(worth, key=lambda h: worth[h])
        if worth[best] > 0:
            return best, worth[best]
    return BF.approach(ctx, gunner), None


def test_a_gunners_wedge_headings_are_weighed_at_once_as_each_wedge_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """At every fire decision of a convoy game, each MG gunner's wedge heading and its worth are the long
    way's (each heading's wedge alone), with the men's places against the wedges' edges worked out once for
    all the headings (before, once for each heading)."""
    calls = {"aside": 0, "weighed": 0}
    aside = FI.surely_aside

    def counted(*args: Any) -> Any:
        calls["aside"] += 1
        return aside(*args)

    worthy = 0
    for index in (1, 2, 3):
        game = game_of("convoy", index)
        bot = DoctrineBot(np.random.default_rng(stream(33, index, BOTS)))
        while game.result is None and calls["weighed"] < 40:
            decision = game.pending()[0]
            ctx = game.ctx
            if decision.id.startswith("fire"):
                for gunner in FI.FireSpace(ctx, decision.space.unit).gunners():
                    with ctx.still():
                        monkeypatch.setattr(FI, "surely_aside", counted)
                        before = calls["aside"]
                        got = BF._heading_and_worth(ctx, gunner)
                        assert calls["aside"] - before <= 1
                        monkeypatch.setattr(FI, "surely_aside", aside)
                        assert got == long_way_heading_and_worth(ctx, gunner)
                    calls["weighed"] += 1
                    worthy += got[1] is not None
            game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    assert calls["weighed"] >= 20 and worthy >= 10, (calls, worthy)


def test_a_drive_search_the_ground_refused_throughout_is_answered_again_without_its_probes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At every drive decision of a gun_line_armour game, straight drives every 45 degrees round each vehicle,
    searched twice: each search finds what the long way finds; the second of one whose every drive the ground
    refused makes no probe (before, it probed as much as the first)."""
    monkeypatch.setattr(context, "_SHARED", {})  # the game's own memos: the first search probes, whatever ran before
    game = game_of("gun_line_armour", 2)
    bot = DoctrineBot(np.random.default_rng(stream(33, 2, BOTS)))
    searches = held = 0
    while game.result is None and searches < 64:
        decision = game.pending()[0]
        if isinstance(decision.space, DriveSpace):
            ctx = game.ctx
            v = ctx.state.vehicles[decision.space.vehicle]
            reach = ctx.tables.vehicles.kind(v.kind).move
            for k in range(8):
                a = math.radians(45 * k)
                to = (v.x + reach * math.cos(a), v.y + reach * math.sin(a))
                with ctx.still():
                    first, again, long = Counted(ctx, v.id), Counted(ctx, v.id), Counted(ctx, v.id)
                    want = long_way_toward(long, *to, 5)
                    assert first.toward(*to, steps=5) == want == again.toward(*to, steps=5), (v.id, to)
                searches += 1
                if first.probes == long.probes and again.probes == 0:
                    held += 1
                    assert want is None
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    assert searches >= 40
    assert held >= 3, (held, searches)


def test_a_drive_into_another_vehicle_is_surely_refused_and_the_whole_check_refuses_it() -> None:
    """At every drive decision of a convoy game (a column of vehicles), drives every 30 degrees round the
    vehicle, a whole and a half move: each the whole check refuses because another vehicle is in the way,
    ``driving.surely_refused`` refuses without it (before, only the ground and men on foot were); and every
    drive it refuses, the whole check refuses."""
    game = game_of("convoy", 1)
    bot = DoctrineBot(np.random.default_rng(stream(33, 1, BOTS)))
    in_the_way = probes = 0
    while game.result is None and probes < 400:
        decision = game.pending()[0]
        if isinstance(decision.space, DriveSpace):
            ctx = game.ctx
            v = ctx.state.vehicles[decision.space.vehicle]
            move = ctx.tables.vehicles.kind(v.kind).move
            others = [o.id for o in ctx.state.vehicles.values() if o.id != v.id]
            for k in range(12):
                for r in (move, move / 2):
                    a = math.radians(30 * k)
                    drive = Drive(v.id, ((snap(v.x + r * math.cos(a)), snap(v.y + r * math.sin(a))),))
                    sure = DV.surely_refused(ctx, v.id, drive)
                    try:
                        DV.check_drive(ctx, drive)
                    except IllegalAction as refusal:
                        if refusal.rule == "skirmish.23" and any(
                            f": {o} is in the way" in str(refusal) for o in others
                        ):
                            assert sure, str(refusal)
                            in_the_way += 1
                    else:
                        assert not sure, drive
                    probes += 1
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    assert probes >= 120 and in_the_way >= 5, (probes, in_the_way)
