"""Skirmish part 3: the MG and flame thrower wedge (skirmish.16), scripted dice on both sides of every threshold.

The gunner stands at (10, 10) unless a test says otherwise. Headings are degrees
counterclockwise from east (0 east, 90 north). With heading 15 the wedge's edges
run due east (0 degrees) and at 30 degrees, so a man's distance from the east
edge is just his offset in y.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pytest

from grognard.core.errors import ParseError
from grognard.rulesets.skirmish import fire as FI
from grognard.rulesets.skirmish import render_svg as render
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish.actions import Fire, WedgeOrder, action_from_json, parse_action
from grognard.rulesets.skirmish.analysis import odds_tables
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.bots_fire import wedge_heading
from grognard.rulesets.skirmish.describe import describe
from grognard.rulesets.skirmish.faces import preview
from grognard.rulesets.skirmish.fire import FireSpace
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.tables import DEFAULT_TABLES, check_tables, load_tables, read_toml
from test_skirmish_rules import fig, figure, fire, hold_moves, make, refusal, scenario, script, unit


def nest(
    targets: list[tuple[float, float]],
    *,
    weapon: str = "mg",
    at: tuple[float, float] = (10, 10),
    friends: list[tuple[float, float]] = (),  # type: ignore[assignment]
    terrain: list[dict[str, Any]] | None = None,
    size: float = 48.0,
) -> SkirmishGame:
    """A.1 (the gunner) at ``at``; G's men at ``targets`` (G holds fire); B's men at ``friends``; keepers far off."""
    data = scenario(
        [
            unit("A", "allies", fig(*at, weapon)),
            unit("B", "allies", *(fig(*p) for p in friends or [(size - 2, 2)])),
            unit("G", "axis", *(fig(*p, "pistol") for p in targets)),
            unit("H", "axis", fig(size - 2, size - 2, "pistol")),
        ],
        terrain,
    )
    data["table"] = {"width": size, "depth": size}
    return make(data)


def wedge_of(game: SkirmishGame, heading: float) -> Any:
    record, shots = FI.wedge(game.ctx, figure(game, "A.1"), heading)
    return record, {o.target: o for o in shots}


# ---------------------------------------------------------------------------------- the wedge's shape
@pytest.mark.rule("skirmish.16")
def test_a_man_whose_base_touches_either_edge_of_the_thirty_degree_wedge_is_under_it() -> None:
    # G.1's base touches the east edge; G.2's misses it by 0.02"; G.3 stands on the 30-degree edge;
    # G.4's base just touches it from outside (0.496"); G.5's misses it by 0.02" (0.521")
    game = nest([(30, 9.5), (34, 9.48), (27.32, 20.0), (32.27, 23.43), (37.45, 26.45)])
    record, shots = wedge_of(game, 15.0)
    assert record.angle == 30.0 and record.heading == 15.0
    assert record.men == ["G.1", "G.3", "G.4"]
    assert "G.2" not in shots and "G.5" not in shots
    # the same men against a wedge turned 1 degree: the east edge leaves G.1 behind
    assert "G.1" not in wedge_of(game, 16.5)[1]
    # a 25-degree wedge (the seed's narrowest) leaves out the men at the 30-degree edge
    data = read_toml(DEFAULT_TABLES)
    data["wedge"]["angle"]["value"] = 25.0
    assert not check_tables(data)
    data["wedge"]["angle"]["value"] = 31.0
    assert check_tables(data) == ["wedge.angle: {...}: the wedge's angle is 25-30 degrees (skirmish.16), not 31"]


def under(where: tuple[float, float], heading: float, **kw: Any) -> Any:
    """The shot G.1 at ``where`` gets from A.1's wedge at ``heading`` (None: he is not under it)."""
    game = nest([where], **kw)
    return wedge_of(game, heading)[1].get("G.1")


@pytest.mark.rule("skirmish.16")
def test_a_wedge_reaches_the_weapons_range_and_a_base_touching_its_arc() -> None:
    shot = under((58, 10), 0.0, size=80.0)  # exactly 48": the last band, 5+
    assert (shot.band, shot.hit_on, shot.range) == (2, 5, 48.0)
    shot = under((58.5, 10), 0.0, size=80.0)  # his base reaches in past 48": the last band
    assert (shot.band, shot.hit_on) == (2, 5)
    assert under((58.52, 10), 0.0, size=80.0) is None
    assert under((30, 10), 0.0, size=80.0).hit_on == 4  # 20": the 18-36" band
    # the flame thrower's wedge is 8" long: 0-4" hits on 2+, 4-8" on 4+
    assert under((10, 14), 90.0, weapon="flame_thrower").hit_on == 2
    assert under((10, 18), 90.0, weapon="flame_thrower").hit_on == 4
    assert under((10, 18.5), 90.0, weapon="flame_thrower").hit_on == 4
    assert under((10, 18.52), 90.0, weapon="flame_thrower") is None


@pytest.mark.rule("skirmish.16", "skirmish.25")
def test_the_wedge_is_shorter_uphill_and_longer_downhill_man_by_man() -> None:
    # men stand within 1" of the crest so that the gunner below sees them (and the gunner on it sees down)
    hill = {"kind": "hill", "id": "H1", "height": 1.0, "shape": [[55.5, 0], [80, 0], [80, 80], [55.5, 80]]}
    # uphill: the pattern for a man 1" up is 46" long; a man on the flat beside him is measured flat
    assert under((56, 10), 0.0, terrain=[hill], size=80.0).range == 48.0
    assert under((56.5, 10), 0.0, terrain=[hill], size=80.0) is not None
    assert under((56.52, 10), 0.0, terrain=[hill], size=80.0) is None
    assert under((48, 12), 0.0, terrain=[hill], size=80.0).range == pytest.approx(38.05, abs=0.01)
    # downhill: from the hill the pattern for men 1" below is 50" long
    assert under((6, 10), 180.0, at=(56, 10), terrain=[hill], size=80.0).range == 48.0
    assert under((5.5, 10), 180.0, at=(56, 10), terrain=[hill], size=80.0) is not None
    assert under((5.48, 10), 180.0, at=(56, 10), terrain=[hill], size=80.0) is None
    terrain = nest([(30, 30)], terrain=[hill], size=80.0).ctx.terrain
    assert R.wedge_length(terrain, (56, 10), (6, 10), 48.0) == 50.0
    assert R.wedge_length(terrain, (10, 10), (60, 10), 48.0) == 46.0
    # the drawn outline bends where the ground rises: at 0 degrees it stops 46" out, on the hill
    outline = R.wedge_outline(terrain, (10, 10), 0.0, 30.0, 48.0)
    middle = outline[1 + len(outline[1:]) // 2]
    assert middle[0] == pytest.approx(56.0, abs=0.3) and middle[1] == pytest.approx(10.0, abs=0.01)


@pytest.mark.rule("skirmish.16", "skirmish.11")
def test_men_under_the_wedge_out_of_sight_are_not_fired_on() -> None:
    wall = {"kind": "stone_wall", "id": "W", "line": [[20, 5], [20, 15]]}
    game = nest([(30, 10), (16, 10)], terrain=[wall], friends=[(2, 46)])
    record, shots = wedge_of(game, 0.0)
    assert record.men == ["G.2"] and record.unseen == ["G.1"] and sorted(shots) == ["G.2"]


# ---------------------------------------------------------------------------------- fire: dice, cover, friends
@pytest.mark.rule("skirmish.16", "skirmish.4")
def test_every_man_under_the_wedge_gets_one_die_friend_and_foe() -> None:
    game = nest([(30, 12), (30, 8)], friends=[(20, 10)])
    hold_moves(game)
    # G.1 and G.2 at ~20" (band 2, 4+); B.1, our own man, at 10" (band 1, 3+)
    script(game, 3, 4, 2, 1, 2)  # B.1: 3 hits; G.1: 4 hits, G.2: 2 misses; then B.1 and G.1 survival: 1, 2 (dead)
    events = fire(game, Fire("A", None, (), (WedgeOrder("A.1", 0.0),)))
    wedge = next(e for e in events if e.kind == "wedge")
    assert wedge.data["men"] == ["B.1", "G.1", "G.2"] and wedge.data["friends"] == ["B.1"]
    assert [
        (e.data["target"], e.data["dice"], e.data["hit_on"], e.data["hits"]) for e in events if e.kind == "shots"
    ] == [
        ("B.1", 1, 3, 1),
        ("G.1", 1, 4, 1),
        ("G.2", 1, 4, 0),
    ]
    assert not figure(game, "B.1").alive and not figure(game, "G.1").alive and figure(game, "G.2").alive


@pytest.mark.rule("skirmish.16", "skirmish.33", "skirmish.34")
def test_mg_fire_takes_cover_and_flame_throwers_ignore_it() -> None:
    woods = {"kind": "woods", "id": "WD", "shape": [[7, 15], [10, 15], [10, 17], [7, 17]]}
    wall = {"kind": "stone_wall", "id": "W", "line": [[11, 17.3], [13, 17.3]]}
    # G.1 in the woods (6.2"), G.2 just behind a wall (8.2"): both covered from the MG
    game = nest([(8.5, 16), (12, 18)], terrain=[woods, wall])
    _, shots = wedge_of(game, 90.0)
    assert shots["G.1"].cover and shots["G.2"].cover and shots["G.1"].shift == -1
    hold_moves(game)
    script(game, 3, 4, 6)  # band 1 hits on 3+, one less for cover: a 3 misses G.1, a 4 hits G.2; survival 6
    events = fire(game, Fire("A", None, (), (WedgeOrder("A.1", 90.0),)))
    assert [(e.data["hits"], e.data["cover"]) for e in events if e.kind == "shots"] == [(0, True), (1, True)]
    assert figure(game, "G.2").wounds == 1
    # the flame thrower: the same men, no cover (G.2's base reaches in past its 8": the last band, 4+)
    game = nest([(8.5, 16), (12, 18)], terrain=[woods, wall], weapon="flame_thrower")
    _, shots = wedge_of(game, 90.0)
    assert not shots["G.1"].cover and not shots["G.2"].cover and shots["G.2"].hit_on == 4
    hold_moves(game)
    script(game, 4, 3, 5)  # a 4 hits G.1 (in cover it would have missed); a 3 misses G.2; G.1 survives on 5
    events = fire(game, Fire("A", None, (), (WedgeOrder("A.1", 90.0),)))
    assert [(e.data["hits"], e.data["cover"]) for e in events if e.kind == "shots"] == [(1, False), (0, False)]
    assert figure(game, "G.1").wounds == 1


@pytest.mark.rule("skirmish.16", "skirmish.33", "skirmish.6")
def test_flame_hits_a_man_in_woods_with_no_cover_and_he_survives_on_five() -> None:
    woods = {"kind": "woods", "id": "WD", "shape": [[8, 11], [12, 11], [12, 15], [8, 15]]}
    game = nest([(10, 13), (11, 13)], weapon="flame_thrower", terrain=[woods])  # 3" and 3.16": band 1, 2+
    hold_moves(game)
    script(game, 2, 1, 4)  # G.1: a 2 hits (no cover to take one off); G.2: a 1 misses; G.1 survival 4: dead
    events = fire(game, Fire("A", None, (), (WedgeOrder("A.1", 90.0),)))
    shots = [(e.data["target"], e.data["hit_on"], e.data["cover"], e.data["hits"]) for e in events if e.kind == "shots"]
    assert shots == [("G.1", 2, False, 1), ("G.2", 2, False, 0)]
    assert not figure(game, "G.1").alive
    game = nest([(10, 13)], weapon="flame_thrower", terrain=[woods])
    hold_moves(game)
    script(game, 2, 5)
    fire(game, Fire("A", None, (), (WedgeOrder("A.1", 90.0),)))
    assert figure(game, "G.1").alive and figure(game, "G.1").wounds == 1
    assert load_tables().survive_on("flame_thrower") == 5


@pytest.mark.rule("skirmish.16", "skirmish.7")
def test_a_wedge_hit_and_a_rifle_hit_in_one_turn_kill_with_no_survival_roll() -> None:
    data = scenario(
        [
            unit("A", "allies", fig(10, 10, "mg"), fig(30, 10)),
            unit("G", "axis", fig(10, 20, "pistol")),
            unit("H", "axis", fig(46, 46, "pistol")),
        ]
    )
    game = make(data)
    hold_moves(game)
    # A.1's wedge (10", band 1: 3+) and A.2's rifle (22.4", band 2: 5+) both hit G.1: dead, no survival die
    script(game, 3, 5)
    fire(game, Fire("A", "G", (), (WedgeOrder("A.1", 90.0),)))
    assert not figure(game, "G.1").alive
    # one hit only: he rolls for survival
    game = make(data)
    hold_moves(game)
    script(game, 3, 4, 6)
    fire(game, Fire("A", "G", (), (WedgeOrder("A.1", 90.0),)))
    assert figure(game, "G.1").alive and figure(game, "G.1").wounds == 1


# ---------------------------------------------------------------------------------- orders
@pytest.mark.rule("skirmish.16", "skirmish.30")
def test_a_wedge_order_by_heading_point_or_target_and_one_into_nobody() -> None:
    game = nest([(20, 20), (21, 40)])
    hold_moves(game)
    shots, wedges = FI.plan_fire_and_wedges(game.ctx, Fire("A", None, (), (WedgeOrder("A.1", None, (30.0, 30.0)),)))
    assert wedges[0].heading == 45.0 and [o.target for o in shots] == ["G.1"]
    _, wedges = FI.plan_fire_and_wedges(game.ctx, Fire("A", "G"))  # no wedge order: at the man he would have shot
    assert wedges[0].heading == 45.0
    _, wedges = FI.plan_fire_and_wedges(game.ctx, Fire("A", None, (("A.1", "G.2"),)))
    assert wedges[0].heading == R.bearing((10, 10), (21, 40))
    events = fire(game, Fire("A", None, (), (WedgeOrder("A.1", -90.0),)))  # due south: nobody there
    wedge = next(e for e in events if e.kind == "wedge")
    assert wedge.data["men"] == [] and describe(wedge) == "A.1's MG wedge at -90\u00b0 covers nobody"
    assert not [e for e in events if e.kind == "shots"]


@pytest.mark.rule("skirmish.16", "skirmish.30")
def test_illegal_wedge_orders_are_refused_and_change_nothing() -> None:
    river = {"kind": "river", "id": "R", "width": 4.0, "line": [[0, 30], [48, 30]]}
    data = scenario(
        [
            unit("A", "allies", fig(10, 10, "mg"), fig(12, 10), fig(14, 30, "flame_thrower")),
            unit("G", "axis", fig(20, 20, "pistol")),
        ],
        [river],
    )
    game = make(data)
    hold_moves(game)
    cases = [
        (Fire("A", None, (), (WedgeOrder("A.2", 0.0),)), "skirmish.16", "A.2's rifle fires no wedge"),
        (Fire("A", None, (), (WedgeOrder("A.1", None, (10.0, 10.0)),)), "skirmish.16", "aimed at his own place"),
        (Fire("A", None, (), (WedgeOrder("A.1"),)), "skirmish.16", "needs a heading or a point"),
        (Fire("A", None, (), (WedgeOrder("A.1", math.inf),)), "skirmish.16", "is not a heading"),
        (Fire("A", None, (), (WedgeOrder("G.1", 0.0),)), "skirmish.30", "G.1 is not a living man of A"),
        (Fire("A", None, (("A.1", "G.1"),), (WedgeOrder("A.1", 0.0),)), "skirmish.30", "given two targets"),
        (Fire("A", None, (), (WedgeOrder("A.3", 0.0),)), "skirmish.47", "A.3 is in the river"),
    ]
    for action, rule, words in cases:
        error = refusal(game, "Allies", action)
        assert error.rule == rule and words in str(error), str(error)
    for text in ("fire A hold / A.1 wedge north", "fire A hold / A.1 wedge 1,2,3", "fire A G / A.1 G.1 / A.1 wedge 9"):
        with pytest.raises(ParseError):
            parse_action(text)
    with pytest.raises(ParseError, match="is not a heading in degrees or a point X,Y"):
        parse_action("fire A hold / A.1 wedge nan")
    action = Fire("A", "G", (("A.2", "hold"),), (WedgeOrder("A.1", 12.5), WedgeOrder("A.3", None, (3.0, 4.25))))
    assert parse_action(str(action)) == action
    assert action_from_json(json.loads(json.dumps(action.to_json()))) == action


# ---------------------------------------------------------------------------------- players and faces
@pytest.mark.rule("skirmish.16")
def test_the_doctrine_keeps_the_wedge_on_the_most_enemies_and_off_its_own_men() -> None:
    # three enemies to the north-east, one alone due east, our own man due north
    game = nest([(30, 30), (31, 28), (28, 31), (40, 10)], friends=[(10, 30)])
    hold_moves(game)
    heading = wedge_heading(game.ctx, figure(game, "A.1"))
    _, shots = wedge_of(game, heading)
    assert {"G.1", "G.2", "G.3"} <= set(shots) and "B.1" not in shots
    decision = next(d for d in game.pending() if d.id == "fire A")
    order = DoctrineBot(np.random.default_rng(0)).choose(game, decision)
    assert order.wedges == (WedgeOrder("A.1", heading),)
    # with no enemy in sight, along the approach: toward the nearest enemy unseen behind a building
    house = {"kind": "building", "id": "HS", "shape": [[18, 6], [22, 6], [22, 14], [18, 14]]}
    game = nest([(30, 10)], terrain=[house])
    assert wedge_heading(game.ctx, figure(game, "A.1")) == 0.0


def test_the_random_bot_samples_wedge_headings() -> None:
    game = nest([(30, 30), (40, 10)])
    hold_moves(game)
    decision = next(d for d in game.pending() if d.id == "fire A")
    assert isinstance(decision.space, FireSpace)
    rng = np.random.default_rng(5)
    samples = [decision.space.sample(rng) for _ in range(40)]
    headings = {w.heading for s in samples for w in s.wedges}
    assert len(headings) >= 10 and all(-180 <= h <= 180 for h in headings)
    assert all(decision.space.contains(s) for s in samples)


def test_wedges_are_drawn_and_previewed_and_their_odds_are_tabled() -> None:
    game = nest([(30, 12)], friends=[(2, 46)])
    hold_moves(game)
    view = preview(game, "Allies", Fire("A", None, (), (WedgeOrder("A.1", 0.0),)))
    assert view["preview"]["wedges"][0]["men"] == ["G.1"] and view["preview"]["shots"] == []
    svg = render(view)
    assert '<g class="p-shape"><polygon' in svg and "<title>A.1 MG wedge, turn 1, 0\u00b0: G.1</title>" in svg
    script(game, 6, 6)
    fire(game, Fire("A", None, (), (WedgeOrder("A.1", 0.0),)))
    view = game.view("Axis")
    assert view["wedges"][0]["gunner"] == "A.1"
    assert "A.1 MG wedge, turn 1" in render(view)
    tables = {t.name: t for t in odds_tables()}
    flame = tables["wedge_flame_thrower"]
    # only an armoured half track covers against flame (skirmish.36): ordinary cover never does
    assert [label for label, _ in flame.rows] == ['0-4" open', '0-4" cover', '4-8" open', '4-8" cover']
    assert {row.terrain for row in load_tables().cover_rows("flame_thrower")} == {"half_track"}
    mg = tables["wedge_mg"]
    open_close, cover_close = mg.rows[0][1], mg.rows[1][1]
    assert open_close.distribution().probability("dead") == pytest.approx(4 / 6 * 4 / 6)
    assert cover_close.distribution().probability("dead") == pytest.approx(3 / 6 * 4 / 6)
