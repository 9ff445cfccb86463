"""The doctrine's shortcuts (issue 33, item 4) give exactly what the long way gives.

While a bot weighs a decision the state stands still (``Context.still``): the terrain now, every man's shots,
what a man on foot may walk into and each move's plan are worked out once, not at every legality probe. A
burst placement's worth is added over arrays, and a template laid far from the firer skips the test of his
own position. Each is checked here against the way it was worked out before: whole games played both ways
event for event, and the shortcuts against the full test over many cases.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from typing import Any

import numpy as np
import pytest
import shapely

from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.errors import IllegalAction
from grognard.core.play import play_out
from grognard.rulesets import get
from grognard.rulesets.skirmish import artillery as AR
from grognard.rulesets.skirmish import boarding as BD
from grognard.rulesets.skirmish import driving as DV
from grognard.rulesets.skirmish import fire as FI
from grognard.rulesets.skirmish import melee as ME
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import moving as MV
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish import sight as SG
from grognard.rulesets.skirmish.actions import Move
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.bots_fire import TYPE_VALUE, WEAPON_VALUE, _worth_under, best_first
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.state import FireOrder
from skirmish_games import game_of


class LongWay(DoctrineBot):
    """The doctrine weighing each decision with nothing kept while it probes (how it played before)."""

    def choose(self, game: Any, decision: Any) -> Any:
        assert game.ctx.kept is None
        return self._choose(game.ctx, decision)


def played(scenario: str, bot: type[DoctrineBot], index: int) -> list[tuple[str, dict[str, Any]]]:
    """Every event of game ``index`` (seed 33) of ``scenario``, doctrine against doctrine."""
    ruleset = get("skirmish")
    game = ruleset.new_game(ruleset.resolve({"scenario": scenario}), SeededDice(stream(33, index, DICE)))
    rng = np.random.default_rng(stream(33, index, BOTS))
    made = {side: bot(rng) for side in ruleset.sides}
    events: list[tuple[str, dict[str, Any]]] = []
    game.listener = lambda event: events.append((event.kind, dict(event.data)))
    play_out(game, lambda seat: made[game.side_of(seat)], checked=False)
    return events


@pytest.mark.parametrize(
    ("scenario", "index", "kinds"),
    [("gun_line_armour", 3, {"burst_order", "moved", "fire_order"}), ("convoy", 1, {"drove", "moved", "fire_order"})],
)
def test_the_doctrine_plays_the_same_game_with_the_table_kept_while_it_weighs(
    scenario: str, index: int, kinds: set[str]
) -> None:
    kept = played(scenario, DoctrineBot, index)
    long_way = played(scenario, LongWay, index)
    assert len(kept) > 100  # a whole game: moves, drives, bursts, fire
    assert {kind for kind, _ in kept} >= kinds
    assert kept == long_way


def test_a_bots_probes_change_nothing_and_nothing_is_kept_after() -> None:
    ruleset = get("skirmish")
    game = ruleset.new_game(ruleset.resolve({"scenario": "gun_line_armour"}), SeededDice(stream(33, 0, DICE)))
    assert isinstance(game, SkirmishGame)
    bot = DoctrineBot(np.random.default_rng(0))
    for _ in range(40):  # past the first moves and into the fire phase
        decision = game.pending()[0]
        before = game.copy_state()
        action = bot.choose(game, decision)
        assert game.state == before and game.ctx.kept is None
        game.apply(decision.seat, action, checked=False, decision=decision)


def test_a_placements_worth_is_added_in_the_enemies_order_as_sum_adds_it() -> None:
    values = [w * t for w in [*WEAPON_VALUE.values(), 2.0] for t in [*TYPE_VALUE.values(), 1.0]]
    rng = np.random.default_rng(5)
    for size in (1, 2, 7, 23):
        worth = [values[i] for i in rng.integers(len(values), size=size)]
        theirs = rng.random((300, size)) < 0.4
        ours = rng.random(300) < 0.2
        under = _worth_under(theirs, worth)
        assert under.tolist() == [sum(itertools.compress(worth, row)) for row in theirs.tolist()]
        scored = [(v, i) for i, v in enumerate(under.tolist()) if not ours[i] and v > 0]
        assert best_first(ours, theirs, worth) == [i for _, i in sorted(scored, key=lambda item: -item[0])]


def test_a_template_said_far_from_its_firer_touches_none_of_his_own_position() -> None:
    ruleset = get("skirmish")
    game = ruleset.new_game(ruleset.resolve({"scenario": "gun_line_armour"}), SeededDice(stream(33, 0, DICE)))
    assert isinstance(game, SkirmishGame)
    ctx = game.ctx
    s = ctx.state
    firers = [*s.pieces, *(f.id for f in s.figures.values() if f.weapon == "mortar")]
    if s.vehicles:
        firers.append(next(iter(s.vehicles)))
    touched = skipped = 0
    for by in firers:
        thing = s.pieces.get(by) or s.vehicles.get(by) or s.figures[by]
        for tid, (_, corners) in ctx.templates.items():
            reach = max(math.hypot(x, y) for x, y in corners)
            for r, a, turn in itertools.product(np.linspace(0, reach + 3, 12), range(0, 360, 30), range(0, 360, 90)):
                at = (
                    round(thing.x + r * math.cos(math.radians(a)), 2),
                    round(thing.y + r * math.sin(math.radians(a)), 2),
                )
                own = AR.own_position(ctx, by, R.burst_shape(corners, at, float(turn)))
                near = AR._may_touch_own(ctx, by, at, corners)
                touched += bool(own)
                skipped += not near
                assert near or not own, (by, tid, at, turn, own)
    assert touched > 50 and skipped > 500  # both sides of the short cut were met


def doctrine_game(game: SkirmishGame, index: int) -> None:
    """``game`` played to its end on the fast path, doctrine against doctrine (play_one's way)."""
    rng = np.random.default_rng(stream(33, index, BOTS))
    made = {side: DoctrineBot(rng) for side in get("skirmish").sides}
    play_out(game, lambda seat: made[game.side_of(seat)], checked=False)


@pytest.mark.parametrize(("scenario", "index"), [("convoy", 1), ("gun_line_armour", 3)])
def test_a_bots_chosen_order_is_checked_once_and_carried_out_as_checked(
    monkeypatch: pytest.MonkeyPatch, scenario: str, index: int
) -> None:
    """The fast path takes a bot's chosen move, drive, fire or burst order as its check passed it while the bot
    weighed it: no check passes one order twice on one state (before, each was checked three times: the bot's
    probe, the fast path's check, and again to carry it out)."""
    game = game_of(scenario, index)
    passed: dict[str, list[tuple[Any, ...]]] = {}

    def counted(module: Any, name: str) -> None:
        check = getattr(module, name)

        def counting(*args: Any) -> Any:
            found = check(*args)
            s = game.state
            passed.setdefault(name, []).append((id(s), s.turn, s.phase, len(s.done), repr(args[-1])))
            return found

        monkeypatch.setattr(module, name, counting)

    counted(MV, "check_move")
    counted(DV, "check_drive")
    counted(FI, "plan_fire_and_wedges")
    counted(AR, "plan_burst")
    doctrine_game(game, index)
    assert game.result is not None
    assert {"check_move", "plan_fire_and_wedges"} <= set(passed)
    assert "check_drive" in passed or "plan_burst" in passed
    for name, keys in passed.items():
        twice = [key for key, n in Counter(keys).items() if n > 1]
        assert not twice, (name, twice[:3])


def test_the_decisions_owed_are_worked_out_once_an_action(monkeypatch: pytest.MonkeyPatch) -> None:
    """A unit's move decision is built once for each state it is owed on (before: once as the game looked for
    the decisions owed after an action, once again as it listed them)."""
    game = game_of("village_street", 2)
    built: list[tuple[Any, ...]] = []
    make = MV.MoveSpace.__init__

    def counting(space: Any, ctx: Any, unit: str) -> None:
        make(space, ctx, unit)
        s = ctx.state
        built.append((id(s), s.turn, s.phase, len(s.done), unit))

    monkeypatch.setattr(MV.MoveSpace, "__init__", counting)
    doctrine_game(game, 2)
    assert len(built) > 50
    assert max(Counter(built).values()) == 1


def test_an_order_that_passed_is_checked_again_once_the_state_changed_outside_apply() -> None:
    """A move the bot's probe passed is not taken as passed once the state changed (``changed``): here its
    leader is put 20" back, out of the move's reach, and the fast path refuses the move, the state untouched."""
    game = game_of("village_street", 0)
    bot = DoctrineBot(np.random.default_rng(0))
    for _ in range(60):
        decision = game.pending()[0]
        action = bot.choose(game, decision)
        if isinstance(action, Move) and action.path and not action.orders:
            break
        game.apply(decision.seat, action, checked=False, decision=decision)
    else:
        pytest.fail("the doctrine made no plain move in 60 decisions")
    assert decision.space.contains(action)
    leader = game.state.living(action.unit)[0]
    leader.y += 20.0 if leader.y < game.ctx.scenario.spec.table.depth / 2 else -20.0
    game.changed()
    before = game.copy_state()
    with pytest.raises(IllegalAction):
        game.apply(decision.seat, action, checked=False, decision=game.pending()[0])
    assert game.state == before


def test_a_mans_contact_alone_is_what_the_whole_tables_contacts_say() -> None:
    """``note_charges`` asks of each man of the unit that moved whether he touches an enemy (``in_contact_now``),
    not for every pair on the table (``contacts``): the same answer for every man, at every decision of whole
    games with melees, castle walls and ladders, vehicles and men aboard."""
    met = 0
    for scenario, index in (("village_street", 0), ("castle_storm", 1), ("convoy", 1)):
        game = game_of(scenario, index)
        bot = DoctrineBot(np.random.default_rng(stream(33, index, BOTS)))
        while game.result is None:
            ctx = game.ctx
            adj = ME.contacts(ctx)
            for f in ctx.state.figures.values():
                assert ME.in_contact_now(ctx, f) == bool(adj.get(f.id)), (scenario, f.id)
                met += bool(adj.get(f.id))
            decision = game.pending()[0]
            game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    assert met > 20  # men in contact were met, not only men apart


def test_a_shot_between_two_men_who_did_not_move_is_not_worked_out_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each pair's shot is kept in the terrain's memo: a table worked out again with nobody moved works out no
    shot, and every table of a whole game (vehicles moving, men dying) is the one worked out afresh."""
    game = game_of("convoy", 1)
    bot = DoctrineBot(np.random.default_rng(stream(33, 1, BOTS)))
    tables = 0
    while game.result is None:
        ctx = game.ctx
        if ctx.state.phase == "fire":
            table = FI.shot_table(ctx)
            terrain = ctx.terrain
            opened = frozenset(M.open_doors(ctx))
            fresh: dict[str, Any] = {}  # nothing kept: every line, range and cover worked out anew
            for shooter, row in table.items():
                f = ctx.state.figures[shooter]
                weapon = M.weapon_of(ctx, f)
                for target in row:
                    found = FI._shot(ctx, terrain, fresh, opened, f, weapon, ctx.state.figures[target])
                    assert row[target] == found, (shooter, target)
            tables += 1
        decision = game.pending()[0]
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    assert tables > 10
    game = game_of("village_street", 0)
    ctx = game.ctx
    game.state.phase = "fire"
    first = FI._shot_table(ctx)
    assert sum(isinstance(o, FireOrder) for row in first.values() for o in row.values()) > 5
    ctx.shot_cache = None
    calls = Counter[str]()
    shot = FI._shot

    def counting(*args: Any) -> Any:
        calls["shot"] += 1
        return shot(*args)

    monkeypatch.setattr(FI, "_shot", counting)
    again = FI._shot_table(ctx)
    assert again == first and again is not first
    assert calls["shot"] == 0


def test_an_aim_points_observer_is_looked_for_once_while_the_doctrine_weighs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The doctrine asks once whether its side sees each aim point of a mortar (``artillery.observed``); the
    check of each placement it then tries reads that answer (before: every landing looked for an observer
    again), and the bursts chosen are those of the long way (the whole game's events, above)."""
    game = game_of("gun_line_armour", 3)
    bot = DoctrineBot(np.random.default_rng(stream(33, 3, BOTS)))
    asked: list[tuple[Any, ...]] = []
    seen = SG.seen

    def counting(terrain: Any, memo: Any, eyes: Any, ats: Any, opened: Any, batch: int = 4) -> list[bool]:
        s = game.state
        asked.extend((id(s), s.turn, s.phase, len(s.done), at) for at in ats)
        return seen(terrain, memo, eyes, ats, opened, batch)

    monkeypatch.setattr(SG, "seen", counting)
    bursts = 0
    while game.result is None:
        decision = game.pending()[0]
        action = bot.choose(game, decision)
        bursts += isinstance(decision.space, AR.BurstSpace)
        game.apply(decision.seat, action, checked=False, decision=decision)
    assert bursts > 5 and len(asked) > 20
    assert max(Counter(asked).values()) == 1


def test_a_scenarios_digest_is_worked_out_once_not_at_every_games_setup(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game's setup names its scenario's digest twice (stats, the setup event): the scenario and its tables
    are dumped to JSON once a scenario (before: twice a game), the same digest."""
    import hashlib
    import json

    ruleset = get("skirmish")
    options = ruleset.resolve({"scenario": "village_street"})
    scenario = game_of("village_street", 0).ctx.scenario
    data = {key: value for key, value in scenario.data.items() if key != "plans"}
    body = json.dumps({"scenario": data, "tables": scenario.tables.model_dump()}, sort_keys=True, default=str)
    assert scenario.digest == hashlib.sha256(body.encode()).hexdigest()
    dumps = json.dumps
    calls = Counter[str]()

    def counting(*args: Any, **kwargs: Any) -> str:
        calls["dumps"] += 1
        return str(dumps(*args, **kwargs))

    monkeypatch.setattr(json, "dumps", counting)
    for index in range(3):
        game = ruleset.new_game(options, SeededDice(stream(33, index, DICE)))
        assert isinstance(game, SkirmishGame) and game.state.stats["scenario_sha256"] == scenario.digest
    assert calls["dumps"] == 0


def test_who_holds_an_objective_is_what_each_mans_point_in_its_shape_says() -> None:
    """``turn.holds`` tests every man against the objective's shape in one call: the same answer as each man's
    ``Polygon.covers(Point)``, at every decision of whole games where the objective changes hands."""
    from shapely.geometry import Point, Polygon

    from grognard.rulesets.skirmish import turn as TU

    held = Counter[bool]()
    for scenario, index in (("village_street", 0), ("hill_assault", 1)):
        game = game_of(scenario, index)
        bot = DoctrineBot(np.random.default_rng(stream(33, index, BOTS)))
        spec = game.ctx.scenario.spec
        while game.result is None:
            for objective in spec.objectives:
                shape = Polygon(objective.shape)
                for side in ("allies", "axis"):
                    men = [f for f in game.state.figures.values() if f.alive and f.on_table]
                    inside = [f for f in men if shape.covers(Point(f.x, f.y))]
                    want = any(f.side == side for f in inside) and not any(f.side != side for f in inside)
                    assert TU.holds(game.ctx, side, objective.id) == want
                    held[want] += 1
            decision = game.pending()[0]
            game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    assert held[True] > 10 and held[False] > 10


def test_a_sweep_said_to_meet_a_vehicle_without_its_body_meets_it() -> None:
    """``vehicles.sweep_meets`` says yes without the swept body only where the body surely shares more than 0.01
    square inch with the rectangle: the same answer as the body's own overlap for paths of one to three legs
    passing every distance from vehicles of every size and heading, the sure cases met well inside the band
    they used to be worked out in (before, within 0.22" of the base's edge)."""
    from shapely.geometry import LineString

    from grognard.rulesets.skirmish import vehicles as V

    rng = np.random.default_rng(33)
    half = 0.5
    sure = banded = 0
    for _ in range(6000):
        length, width = float(rng.uniform(0.3, 6.0)), float(rng.uniform(0.25, 3.0))
        shape = V.footprint((0.0, 0.0), float(rng.uniform(-180, 180)), length, width)
        start = (float(rng.uniform(-5, 5)), float(rng.uniform(-5, 5)))
        points = [start]
        for _ in range(int(rng.integers(1, 4))):
            points.append((points[-1][0] + float(rng.uniform(-4, 4)), points[-1][1] + float(rng.uniform(-4, 4))))
        line = LineString(points)
        gap = float(shapely.distance(line, shape))
        if gap > half + 0.05:
            continue
        truth = bool(line.buffer(half).intersection(shape).area > 0.01)
        side = min(length, width)
        assert V.sweep_meets(line, half, shape, functools.partial(line.buffer, half), side) == truth
        sure += half - 0.22 < gap <= half - V.CHORD - V.DEEP and side >= 2 * V.DEEP
        banded += gap > half - 0.22
    assert sure > 40 and banded > 2 * sure


@pytest.mark.parametrize("scenario", ["river_town", "landing"])
def test_a_point_in_the_river_or_a_pond_is_kept_and_what_the_shape_says(scenario: str) -> None:
    """``Terrain.in_river`` and ``in_pond`` keep each point's answer (the shot table asks of every shooter at every
    fire phase): asked twice, each is the shape's own ``covers``, in and out of the water both met."""
    from shapely.geometry import Point

    terrain = game_of(scenario, 0).ctx.terrain
    wet = Counter[tuple[str, bool]]()
    for x, y in itertools.product(np.arange(0.0, terrain.width, 0.75), np.arange(0.0, terrain.depth, 0.75)):
        at = (round(float(x), 2), round(float(y), 2))
        for name, shape, ask in (("river", terrain.river, terrain.in_river), ("pond", terrain.pond, terrain.in_pond)):
            want = not shape.is_empty and shape.covers(Point(at))
            assert ask(*at) == want and ask(*at) == want
            wet[name, want] += 1
    assert wet["river", True] + wet["pond", True] > 20 and wet["river", False] > 20


def long_way_exit_spots(ctx: Any, v: Any, at: Any, facing: float, afoot: dict[str, Any]) -> list[Any]:
    """``boarding.exit_spots`` on land as it was worked out before: each point of the ring and its distance to
    the rear one by one, and a base's shape made at every spot to test it against every other vehicle."""
    from shapely.geometry import Point

    from grognard.core.geometry import TOLERANCE, snap

    base, reach = ctx.tables.sight.base.value, ctx.tables.vehicles.board_reach.value
    entry = ctx.tables.vehicles.kind(v.kind)
    ring = ctx.vehicle_shape(v, at, facing).buffer(min(reach, base / 2 + 0.25), join_style="mitre").exterior
    h = math.radians(facing)
    rear = Point(at[0] - math.cos(h) * entry.length, at[1] - math.sin(h) * entry.length)
    count = max(8, int(ring.length / (base + 0.05)))
    points = sorted(
        (ring.interpolate(ring.length * k / count) for k in range(count)), key=lambda p: (p.distance(rear), p.x, p.y)
    )
    terrain, train = ctx.terrain, ctx.train_now()
    others = [ctx.vehicle_shape(o) for o in ctx.state.vehicles.values() if o.id != v.id]
    out: list[Any] = []
    for p in points:
        spot = (snap(p.x), snap(p.y))
        if not terrain.on_table(*spot) or terrain.in_river(*spot) or terrain.in_pond(*spot):
            continue
        if terrain.building_at(*spot) is not None or any(b.shape.covers(Point(spot)) for b in terrain.boulders):
            continue
        body = Point(spot).buffer(base / 2)
        if any(body.intersects(o) for o in others) or (train is not None and body.intersects(train)):
            continue
        if any(
            math.hypot(x - spot[0], y - spot[1]) < base - TOLERANCE
            or (ctx.state.figures[fid].side != v.side and math.hypot(x - spot[0], y - spot[1]) <= base + TOLERANCE)
            for fid, (x, y) in afoot.items()
        ) or any(math.hypot(x - spot[0], y - spot[1]) < base - TOLERANCE for x, y in out):
            continue
        out.append(spot)
    return out


def test_the_spots_men_get_out_at_are_those_worked_out_one_by_one() -> None:
    """``boarding.exit_spots`` finds the ring's points and their distances to the rear in one call each, and makes a
    base's shape only where a vehicle or the train is near: the same spots in the same order as the long way, for
    every vehicle at every decision of a convoy game, at its place and 3" on."""
    game = game_of("convoy", 1)
    bot = DoctrineBot(np.random.default_rng(stream(33, 1, BOTS)))
    spots = 0
    while game.result is None:
        ctx = game.ctx
        s = ctx.state
        afoot = {f.id: (f.x, f.y) for f in s.figures.values() if f.alive and f.on_table and f.aboard is None}
        for v in s.vehicles.values():
            for ahead in (0.0, 3.0):
                h = math.radians(v.heading)
                at = (round(v.x + ahead * math.cos(h), 2), round(v.y + ahead * math.sin(h), 2))
                found = BD.exit_spots(ctx, v, at, v.heading, dict(afoot))
                assert found == long_way_exit_spots(ctx, v, at, v.heading, dict(afoot)), (v.id, at)
                spots += len(found)
        decision = game.pending()[0]
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    assert spots > 100
