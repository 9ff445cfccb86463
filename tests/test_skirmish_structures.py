"""Skirmish part 3: buildings, bridges and walls with points; artillery cover (docs/rules/skirmish.md).

The artillery code calls ``structures.artillery_cover`` and ``structures.shell``;
here they are called directly with hand-made burst templates (shapely
polygons) and scripted dice, on both sides of every threshold.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from shapely.geometry import Point, box

from grognard.core.dice import ScriptedDice
from grognard.rulesets.skirmish import artillery as AR
from grognard.rulesets.skirmish import fire as FI
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import moving as MV
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish import shelling as SH
from grognard.rulesets.skirmish import structures as ST
from grognard.rulesets.skirmish.actions import Move, Order, action_from_json, parse_action
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.scenario import check_scenario
from grognard.rulesets.skirmish.state import BurstOrder
from grognard.rulesets.skirmish.terrain import ALL_DEAD, FULL_POINTS, NO_ART_COVER, NO_TOP_COVER, storey_state
from test_skirmish_rules import fig, figure, hold_moves, make, refusal, scenario, script, unit

# A house of two sections: H.a (west, two storeys: 20 and 10 points) and H.b (east, one storey of the
# tables' 30). A window on H.b's east wall, a door on H.a's south wall. A cliff 3" high and one 1" high.
HOUSE = {
    "kind": "building",
    "id": "H",
    "shape": [[20, 20], [30, 20], [30, 28], [20, 28]],
    "doors": [{"id": "D", "at": [22, 20]}],
    "windows": [{"at": [30, 24]}],
    "sections": [
        {"id": "H.a", "shape": [[20, 20], [25, 20], [25, 28], [20, 28]], "storeys": [{"points": 20}, {"points": 10}]},
        {"id": "H.b", "shape": [[25, 20], [30, 20], [30, 28], [25, 28]]},
    ],
}
CLIFFS = [
    {"kind": "hill", "id": "top", "height": 3.0, "shape": [[0, 40], [10, 40], [10, 48], [0, 48]]},
    {"kind": "cliff", "id": "C3", "height": 3.0, "line": [[0, 40], [10, 40]]},
    {"kind": "cliff", "id": "C1", "height": 1.0, "line": [[38, 40], [48, 40]]},
]
RIVER = {"kind": "river", "line": [[0, 10], [48, 10]], "width": 4.0}
LARGE = {"kind": "bridge", "id": "B", "type": "large", "line": [[40, 6], [40, 14]]}
FOOT = {"kind": "bridge", "id": "F", "type": "foot", "line": [[6, 6], [6, 14]]}


def town(*men: dict[str, Any], terrain: list[dict[str, Any]] | None = None) -> SkirmishGame:
    """Allies ``A`` are ``men``; a far axis man keeps the game on."""
    pieces = [HOUSE, *CLIFFS] if terrain is None else terrain
    return make(scenario([unit("A", "allies", *men), unit("G", "axis", fig(46, 46))], pieces))


def burst(x: float, y: float, size: float = 3.0) -> Any:
    """A square template ``size`` inches across centred at (x, y) (the shape matters not here)."""
    return box(x - size / 2, y - size / 2, x + size / 2, y + size / 2)


def cover(
    game: SkirmishGame, fid: str, centre: tuple[float, float], weapon: str = "heavy_artillery", *, fired: bool = False
) -> str | None:
    return ST.artillery_cover(game.ctx, figure(game, fid), centre, weapon, fired=fired)


# ---------------------------------------------------------------------------------- points and states
@pytest.mark.rule("skirmish.17", "skirmish.90")
def test_each_shell_takes_two_dice_from_each_section_under_it() -> None:
    game = town(fig(5, 5))
    script(game, 3, 4, 6, 6)  # H.a's second storey loses 7, H.b 12
    SH.shell(game.ctx, burst(25, 24), (25, 24), "heavy_artillery", 3)
    assert game.state.sections == {"H.a": [20, 3], "H.b": [18]}
    # a template whose edge only touches a section still hits it (touching is under)
    script(game, 1, 1)
    SH.shell(game.ctx, box(30, 22, 33, 25), (31.5, 23.5), "medium_artillery", 4)
    assert game.state.sections["H.b"] == [16]
    # nothing under the template: no dice; a mortar or bazooka does not damage structures (S11): no dice either
    script(game)
    SH.shell(game.ctx, burst(40, 40), (40, 40), "heavy_artillery", 2)
    SH.shell(game.ctx, burst(25, 24), (25, 24), "mortar", 2)
    SH.shell(game.ctx, burst(25, 24), (25, 24), "bazooka", 2)
    assert game.state.sections == {"H.a": [20, 3], "H.b": [16]}
    # a tank gun does (the kind may be given for the weapon)
    script(game, 2, 2, 2, 2)
    SH.shell(game.ctx, burst(25, 24), (25, 24), "tank_gun", 2)
    assert game.state.sections == {"H.a": [20, 0], "H.b": [12]}
    with pytest.raises(ValueError, match="neither a weapon"):
        SH.shell(game.ctx, burst(25, 24), (25, 24), "laser", 2)
    with pytest.raises(ValueError, match="ranging die 7"):
        SH.shell(game.ctx, burst(25, 24), (25, 24), "heavy_artillery", 7)


@pytest.mark.rule("skirmish.18")
def test_the_four_states_at_exactly_their_thresholds() -> None:
    game = town(fig(27.5, 24), fig(24, 24), fig(5, 5))  # A.1 inside H.b, A.2 inside H.a, A.3 outside
    storey = ST.sections(game.ctx)["H.b"].storeys[0]
    assert (storey.points, storey.full_from, storey.no_art_cover_from, storey.no_top_cover_from) == (30, 20, 10, 1)
    states = [storey_state(storey, p) for p in (30, 20, 19, 10, 9, 1, 0)]
    assert states == [FULL_POINTS, FULL_POINTS, NO_ART_COVER, NO_ART_COVER, NO_TOP_COVER, NO_TOP_COVER, ALL_DEAD]
    # through play: 30 - 10 = 20 is still full points; one more point off and the roof is broken
    script(game, 5, 5)
    SH.shell(game.ctx, burst(28, 24, 1.0), (28, 24), "heavy_artillery", 3)
    assert ST.state_of(game.ctx, "H.b") == FULL_POINTS and cover(game, "A.1", (28, 24)) is not None
    script(game, 1, 1)
    SH.shell(game.ctx, burst(28, 24, 1.0), (28, 24), "heavy_artillery", 3)
    assert game.state.sections["H.b"] == [18] and ST.state_of(game.ctx, "H.b") == NO_ART_COVER
    assert cover(game, "A.1", (28, 24)) is None  # 2.5" from every wall, the roof gone: he can be hit
    # 18 - 9 = 9: rubble
    script(game, 4, 5)
    SH.shell(game.ctx, burst(28, 24, 1.0), (28, 24), "heavy_artillery", 3)
    assert ST.state_of(game.ctx, "H.b") == NO_TOP_COVER
    # ALL DEAD: the section collapses on everyone inside it, and on no one else; points stop at 0 (S7)
    script(game, 6, 6)
    SH.shell(game.ctx, burst(28, 24, 1.0), (28, 24), "heavy_artillery", 3)
    assert game.state.sections["H.b"] == [0] and ST.state_of(game.ctx, "H.b") == ALL_DEAD
    assert not figure(game, "A.1").alive and figure(game, "A.2").alive and figure(game, "A.3").alive
    events = [e for e in game.take_events() if e.kind in ("section_collapses", "killed")]
    assert [e.kind for e in events] == ["section_collapses", "killed"]
    # a collapsed section takes no more dice
    script(game)
    SH.shell(game.ctx, burst(28, 24, 1.0), (28, 24), "heavy_artillery", 3)


@pytest.mark.rule("skirmish.18")
def test_one_point_above_all_dead_the_men_inside_live() -> None:
    game = town(fig(27, 24), fig(5, 5))
    game.state.sections["H.b"] = [13]
    script(game, 6, 6)  # 13 - 12 = 1: rubble, not yet collapsed
    SH.shell(game.ctx, burst(28, 24, 1.0), (28, 24), "heavy_artillery", 3)
    assert ST.state_of(game.ctx, "H.b") == NO_TOP_COVER and figure(game, "A.1").alive


@pytest.mark.rule("skirmish.91")
def test_the_second_storey_goes_before_the_first_and_damage_does_not_carry() -> None:
    game = town(fig(22, 24), fig(5, 5))  # A.1 in H.a (first storey 20, second 10)
    script(game, 6, 6)  # 12 on the second storey's 10: it is gone, the first keeps all 20 (S7)
    SH.shell(game.ctx, burst(22, 24, 1.0), (22, 24), "heavy_artillery", 3)
    assert game.state.sections["H.a"] == [20, 0]
    assert figure(game, "A.1").alive  # the first storey still stands over the men inside: nobody below dies
    assert ST.state_of(game.ctx, "H.a") == FULL_POINTS and cover(game, "A.1", (22, 24)) is not None
    kinds = [e.kind for e in game.take_events()]
    assert "storey_gone" in kinds and "section_collapses" not in kinds
    first = ST.sections(game.ctx)["H.a"].storeys[0]
    assert (first.full_from, first.no_art_cover_from) == (13, 7)  # the tables' shares of its 20 points
    script(game, 4, 3)  # now the first storey takes the shots: 20 - 7 = 13, still full points
    SH.shell(game.ctx, burst(22, 24, 1.0), (22, 24), "heavy_artillery", 3)
    assert game.state.sections["H.a"] == [13, 0] and ST.state_of(game.ctx, "H.a") == FULL_POINTS
    script(game, 1, 1)
    SH.shell(game.ctx, burst(22, 24, 1.0), (22, 24), "heavy_artillery", 3)
    assert game.state.sections["H.a"] == [11, 0] and ST.state_of(game.ctx, "H.a") == NO_ART_COVER
    # while the second storey stands the section's state is the second storey's
    game = town(fig(22, 24), fig(5, 5))
    script(game, 2, 2)
    SH.shell(game.ctx, burst(22, 24, 1.0), (22, 24), "heavy_artillery", 3)
    assert game.state.sections["H.a"] == [20, 6] and ST.state_of(game.ctx, "H.a") == NO_ART_COVER


# ---------------------------------------------------------------------------------- artillery cover
@pytest.mark.rule("skirmish.18", "skirmish.40")
def test_a_roofless_sections_walls_cover_the_men_within_two_inches_whatever_the_burst_point() -> None:
    # H.b (x 25-30, y 20-28) at NO ART. COVER; A.1 exactly 2" from its west wall, A.2 2.02", A.3 2.4" from all
    game = town(fig(27, 22.5), fig(27.02, 24), fig(27.5, 25.6), fig(5, 5))
    game.state.sections["H.b"] = [15]
    game.ctx.structures_changed()
    for centre in ((27.5, 24), (27, 24), (34, 24), (27.5, 31)):  # the burst inside, on him, outside east, north
        assert "its roof gone" in (cover(game, "A.1", centre) or ""), centre
        assert cover(game, "A.2", centre) is None, centre
        assert cover(game, "A.3", centre) is None, centre
    assert cover(game, "A.1", (27.5, 24), "mortar") is None  # no over-the-top cover from mortars (skirmish.41)
    # a landed shell inside the roofless section spares the man by the wall and fires on the man in the middle
    game = town(fig(27, 22.5), fig(27.5, 24.5), fig(5, 5))
    game.state.sections["H.b"] = [15]
    game.ctx.structures_changed()
    game.state.bursts["GUN"] = BurstOrder(
        "GUN", "axis", "heavy_artillery", "artillery", (46.0, 46.0), (27.5, 24.0), 0.0, "heavy_a", 0, 6, 4, 26.0
    )
    script(game, 1, 6, 3, 3)  # the ranging die lands; A.2's effect die hits; the section's 2d6
    hits: dict[str, int] = {}
    AR.resolve_bursts(game.ctx, hits, {})
    events = game.take_events()
    covered = [e.data["figure"] for e in events if e.kind == "burst_covered"]
    assert covered == ["A.1"] and hits == {"A.2": 1}


@pytest.mark.rule("skirmish.39")
def test_a_man_at_a_window_loses_artillery_cover_only_when_he_fired_this_turn() -> None:
    # A.1 at H.b's east window (30, 24), inside at FULL POINTS; a rifleman G.1 in sight to the east
    game = make(scenario([unit("A", "allies", fig(29.5, 24), fig(27, 24)), unit("G", "axis", fig(40, 24))], [HOUSE]))
    hold_moves(game)
    assert FI.fired_this_turn(game.ctx) == set()
    assert "hits the roof" in (cover(game, "A.1", (29.5, 24)) or "")  # he has not fired: the roof covers him
    game.apply("Allies", parse_action("fire A G / A.2 hold"))
    assert FI.fired_this_turn(game.ctx) == {"A.1"}
    assert cover(game, "A.1", (29.5, 24), fired="A.1" in FI.fired_this_turn(game.ctx)) is None
    assert "hits the roof" in (cover(game, "A.2", (29.5, 24), fired="A.2" in FI.fired_this_turn(game.ctx)) or "")


@pytest.mark.rule("skirmish.39")
def test_inside_a_building_with_points_no_artillery_hits_except_at_doors_and_windows() -> None:
    game = town(fig(27, 24), fig(29.5, 24), fig(22, 21), fig(5, 5))  # A.2 at the window, A.3 at the door
    assert "hits the roof" in (cover(game, "A.1", (27, 24)) or "")
    assert "hits the roof" in (cover(game, "A.1", (27, 24), "mortar") or "")  # a roof stops a mortar bomb too
    assert cover(game, "A.1", (27, 24), "bazooka") is None  # direct fire: the ordinary cover table answers it
    # at the window or door, having fired from it this turn: no artillery cover at all
    assert cover(game, "A.2", (27, 24), fired=True) is None and cover(game, "A.2", (33, 24), fired=True) is None
    assert cover(game, "A.3", (22, 24), fired=True) is None
    # standing there without firing, the roof covers him like any man inside
    assert "hits the roof" in (cover(game, "A.2", (27, 24)) or "") and "hits the roof" in (
        cover(game, "A.3", (22, 24)) or ""
    )
    # at a window a man has regular cover from small arms still (skirmish.34)
    assert R.cover(game.ctx.terrain, (40, 24), (29.5, 24), "small_arms") == "building"
    # a man 1.02" from the window is away from it: the roof covers him again
    game = town(fig(28.98, 24), fig(5, 5))
    assert cover(game, "A.1", (33, 24)) is not None
    assert cover(game, "A.1", (5, 5), "flame_thrower") is None  # not a shell at all


@pytest.mark.rule("skirmish.40")
def test_over_the_top_cover_within_two_inches_of_a_wall_between_the_man_and_the_burst() -> None:
    # H.b's roof is broken (NO ART. COVER): men inside are covered near its wall; outside, by a wall between
    game = town(fig(28, 24), fig(27.98, 25.5), fig(27, 22), fig(32, 24), fig(32.02, 26), fig(5, 5))
    game.state.sections["H.b"] = [15]
    game.ctx.structures_changed()
    assert ST.state_of(game.ctx, "H.b") == NO_ART_COVER
    assert "its roof gone" in (cover(game, "A.1", (34, 24)) or "")  # exactly 2" from the east wall
    assert cover(game, "A.2", (34, 26)) is None  # 2.02" from the nearest wall: hit
    # inside, within 2" of the wall, the burst inside too: the walls stand all round him (skirmish.18)
    assert "its roof gone" in (cover(game, "A.1", (27, 24)) or "")
    assert "its roof gone" in (cover(game, "A.3", (34, 22)) or "")  # 3" from the east wall, 2" from the west
    # outside, 2" from the wall, the burst beyond it (on the house): covered; 2.02": not; burst on his side: not
    assert cover(game, "A.4", (28, 24)) is not None
    assert cover(game, "A.5", (28, 26)) is None
    assert cover(game, "A.4", (36, 24)) is None
    # rubble and collapse give no artillery cover, inside or out
    game.state.sections["H.b"] = [5]
    assert ST.state_of(game.ctx, "H.b") == NO_TOP_COVER
    assert cover(game, "A.1", (34, 24)) is None and cover(game, "A.4", (28, 24)) is None


@pytest.mark.rule("skirmish.40")
def test_cliffs_three_inches_high_cover_over_the_top_and_lower_cliffs_do_not() -> None:
    game = town(fig(5, 38), fig(7, 37.98), fig(43, 38), fig(5, 5))
    assert "cliff C3" in (cover(game, "A.1", (5, 44)) or "")  # at the foot, 2" off, the burst on the cliff top
    assert cover(game, "A.2", (7, 44)) is None  # 2.02" off
    assert cover(game, "A.1", (5, 34)) is None  # the burst on his side of the cliff
    assert cover(game, "A.3", (43, 44)) is None  # a 1" cliff is not high enough (the tables: 3")


@pytest.mark.rule("skirmish.41")
def test_no_over_the_top_cover_from_mortars() -> None:
    game = town(fig(32, 24), fig(5, 38), fig(5, 5))
    assert cover(game, "A.1", (28, 24)) is not None and cover(game, "A.1", (28, 24), "mortar") is None
    assert cover(game, "A.2", (5, 44)) is not None and cover(game, "A.2", (5, 44), "mortar") is None


@pytest.mark.rule("skirmish.42")
def test_artillery_pieces_give_no_cover() -> None:
    # A.1 stands with a field gun between him and the burst, and between him and a rifleman: no cover either way
    data = scenario(
        [unit("A", "allies", fig(10, 30), fig(11, 31, "rifle", "crew")), unit("G", "axis", fig(46, 46))], []
    )
    data["pieces"] = [{"id": "GUN", "weapon": "heavy_artillery", "at": [10.0, 31.5], "heading": 90.0, "crew": "A"}]
    game = make(data)
    assert cover(game, "A.1", (10, 33)) is None
    assert R.cover(game.ctx.terrain, (10, 36), (10, 30), "small_arms") is None
    assert all(row.terrain not in ("artillery", "piece") for row in game.ctx.tables.cover)


# ---------------------------------------------------------------------------------- doors
@pytest.mark.rule("skirmish.77")
def test_a_one_on_the_ranging_die_blows_off_the_doors_under_the_template() -> None:
    game = town(fig(22, 19), fig(5, 5))
    script(game, 1, 1)  # the section's 2d6
    SH.shell(game.ctx, burst(22, 19, 2.0), (22, 19), "heavy_artillery", 2)  # a 2: the door holds
    assert not game.state.doors["D"].blown and not game.state.doors["D"].open
    script(game, 1, 1)
    SH.shell(game.ctx, burst(40, 40, 2.0), (40, 40), "heavy_artillery", 1)  # a 1 far from the door: nothing
    assert not game.state.doors["D"].blown
    script(game, 1, 1)
    SH.shell(game.ctx, burst(22, 19, 2.0), (22, 19), "heavy_artillery", 1)
    door = game.state.doors["D"]
    assert door.blown and door.open
    # a blown door stays open: closing it is refused and changes nothing
    error = refusal(game, "Allies", Move("A", (), (Order("A.1", "close", (), "D"),)))
    assert error.rule == "skirmish.77" and "blown off" in str(error)
    game.apply("Allies", Move("A", ((22.0, 22.0),)))  # men pass through where it was
    assert figure(game, "A.1").y == 22.0


# ---------------------------------------------------------------------------------- bridges
def river_game(*men: dict[str, Any], pieces: list[dict[str, Any]] | None = None, turns: int = 10) -> SkirmishGame:
    terrain = pieces if pieces is not None else [RIVER, LARGE, FOOT]
    return make(scenario([unit("A", "allies", *men), unit("G", "axis", fig(46, 46))], terrain, turn_limit=turns))


@pytest.mark.rule("skirmish.19", "skirmish.87", "skirmish.88")
def test_large_bridges_thirty_points_and_their_states_at_twenty_ten_and_zero() -> None:
    game = river_game(fig(40, 10), fig(20, 2))
    assert game.state.bridges["B"].points == 30 and ST.bridge_takes(game.ctx, "B", armoured=True)
    script(game, 5, 5)
    SH.shell(game.ctx, burst(40, 10), (40, 10), "heavy_artillery", 3)
    assert game.state.bridges["B"].points == 20 and ST.bridge_takes(game.ctx, "B", armoured=True)
    script(game, 1, 1)
    SH.shell(game.ctx, burst(40, 10), (40, 10), "heavy_artillery", 3)
    assert game.state.bridges["B"].points == 18
    assert not ST.bridge_takes(game.ctx, "B", armoured=True) and ST.bridge_takes(game.ctx, "B", armoured=False)
    assert ST.bridge_capacity(game.ctx, "B") == 24  # 4 abreast, 6 ranks a move
    game.state.bridges["B"].points = 10
    assert ST.bridge_takes(game.ctx, "B", armoured=False) and ST.bridge_capacity(game.ctx, "B") == 24
    game.state.bridges["B"].points = 9
    assert not ST.bridge_takes(game.ctx, "B", armoured=False) and ST.bridge_capacity(game.ctx, "B") == 12  # 2 abreast
    assert "men 2 abreast only" in ST.describe_bridge(game.ctx, "B")
    # at 0 it is gone: the man on it falls into the river (he stands in it and cannot fire)
    assert not game.ctx.terrain.in_river(40, 10)
    script(game, 6, 6)
    SH.shell(game.ctx, burst(40, 10), (40, 10), "heavy_artillery", 3)
    assert game.state.bridges["B"].points == 0 and ST.bridge_capacity(game.ctx, "B") == 0
    assert game.ctx.terrain.in_river(40, 10) and figure(game, "A.1").river_paid
    assert FI.can_fire(game.ctx, figure(game, "A.1")) is not None
    assert "falls_in_river" in [e.kind for e in game.take_events()]


@pytest.mark.rule("skirmish.89")
def test_foot_bridges_fifteen_points_two_abreast_then_single_file() -> None:
    game = river_game(fig(20, 2))
    assert game.state.bridges["F"].points == 15 and not ST.bridge_takes(game.ctx, "F", armoured=False)
    script(game, 2, 3)
    SH.shell(game.ctx, burst(6, 10), (6, 10), "light_artillery", 3)
    assert game.state.bridges["F"].points == 10 and ST.bridge_capacity(game.ctx, "F") == 12  # 2 abreast
    script(game, 1, 1)
    SH.shell(game.ctx, burst(6, 10), (6, 10), "light_artillery", 3)
    assert game.state.bridges["F"].points == 8 and ST.bridge_capacity(game.ctx, "F") == 6  # single file
    assert "single file" in ST.describe_bridge(game.ctx, "F")


@pytest.mark.rule("skirmish.88", "skirmish.89")
def test_men_cross_a_bridge_dry_and_only_as_many_a_turn_as_it_takes_abreast() -> None:
    # seven men in a column a base apart south of the foot bridge at 8 points (single file: 6 men a turn)
    game = river_game(*[fig(6, 1 + k) for k in range(7)], pieces=[RIVER, {**FOOT, "points": 8}])
    error = refusal(game, "Allies", Move("A", ((6.0, 7.0),)))
    assert error.rule == "skirmish.89" and "takes 6 men of a side a turn; 0 have crossed, 7 more" in str(error)
    six = Move("A", ((6.0, 7.0),), (Order("A.1", "stay"),))
    paths = MV.check_move(game.ctx, six)
    assert all(m.rivers == 0 for _, m in paths.values())  # no half move lost over the river on the bridge
    game.apply("Allies", six)
    assert figure(game, "A.7").y == 13.0 and game.state.bridges["F"].crossed == {"allies": 6}
    hold_moves(game)  # a new turn: the count starts again
    assert game.state.turn == 2 and game.state.bridges["F"].crossed == {}
    # a large bridge takes 24 men of a side a turn (4 abreast)
    game = river_game(*[fig(40, 1 + k) for k in range(7)])
    game.apply("Allies", Move("A", ((40.0, 7.0),)))
    assert game.state.bridges["B"].crossed == {"allies": 7}


@pytest.mark.rule("skirmish.86")
def test_a_bridge_is_built_in_a_hundred_man_moves_by_at_most_ten_men() -> None:
    site = {"kind": "bridge", "id": "N", "type": "foot", "line": [[24, 6], [24, 14]], "built": False}
    builders = [fig(19.5 + k, 5.5) for k in range(11)]
    game = river_game(*builders, pieces=[RIVER, site], turns=30)
    bridge = game.state.bridges["N"]
    assert not bridge.built and bridge.points == 0 and game.ctx.terrain.in_river(24, 10)
    assert "being built: 0 of 100" in ST.describe_bridge(game.ctx, "N")
    eleven = Move("A", (), tuple(Order(f"A.{k + 1}", "build", (), None, "N") for k in range(11)))
    error = refusal(game, "Allies", eleven)
    assert error.rule == "skirmish.86" and "at most 10 men" in str(error)
    far = Move("A", (), (Order("A.1", "build", (), None, "N"),))  # A.1 at (19.5, 5.5): 3.5" from the deck
    error = refusal(game, "Allies", far)
    assert error.rule == "skirmish.86" and 'more than 1"' in str(error)
    assert refusal(game, "Allies", Move("A", (), (Order("A.5", "build", (), None, "X"),))).rule == "skirmish.86"
    # the four men within 1" of the deck (x 23 to 25, from y 6): those at x 22.5 to 25.5
    near = [k for k in range(11) if abs(19.5 + k - 24) <= 2.0]
    assert len(near) == 4
    work = Move("A", (), tuple(Order(f"A.{k + 1}", "build", (), None, "N") for k in near))
    assert parse_action(str(work)) == work and action_from_json(work.to_json()) == work
    for _ in range(25):  # S10: ceil(100 / 4) = 25 moves
        assert not game.state.bridges["N"].built
        game.apply("Allies", work)
        hold_moves(game)
    bridge = game.state.bridges["N"]
    assert bridge.built and bridge.work == 100 and bridge.points == 15
    assert not game.ctx.terrain.in_river(24, 10)
    assert refusal(game, "Allies", work).rule == "skirmish.86"  # already built


# ---------------------------------------------------------------------------------- scenario and state
@pytest.mark.rule("skirmish.17", "skirmish.2")
def test_scenario_sections_storeys_and_bridges_are_checked_whole() -> None:
    bad_house = {
        **HOUSE,
        "sections": [
            {
                "id": "H.a",
                "shape": [[20, 20], [26, 20], [26, 28], [20, 28]],
                "storeys": [{"points": 5, "full_from": 6}],
            },
            {"id": "H.b", "shape": [[25, 20], [32, 20], [32, 28], [25, 28]]},
            {"id": "H.c"},
        ],
    }
    data = scenario(
        [unit("A", "allies", fig(1, 1)), unit("G", "axis", fig(47, 47))],
        [
            bad_house,
            RIVER,
            {**LARGE, "points": 31},
            {**FOOT, "built": False, "points": 3},
            {"kind": "bridge", "id": "Z", "type": "rope", "line": [[30, 30], [30, 34]]},
            {"kind": "woods", "shape": [[1, 30], [5, 30], [5, 34]], "sections": [{"id": "W"}]},
            {"kind": "woods", "shape": [[1, 35], [5, 35], [5, 38]], "type": "large"},
        ],
    )
    text = "\n".join(check_scenario(data))
    for needle in (
        "terrain[0].sections: a building of 3 sections gives each section its shape",
        "terrain[0].sections[0].storeys[0]: points 5, full_from 6",
        "terrain[0].sections[1].shape: [[25.0, 20.0], [32.0, 20.0], [32.0, 28.0], [25.0, 28.0]]...: reaches outside",
        "terrain[0].sections[1].shape: overlaps section 'H.a'",
        "terrain[2].points: 31: a large bridge has at most 30 points",
        "terrain[3].points: 3: a bridge not yet built has no points",
        "terrain[4].type: 'rope': not a bridge in the tables (large, foot)",
        "terrain[4].line: [[30.0, 30.0], [30.0, 34.0]]: a bridge spans a river, and this one meets none",
        "terrain[5].sections: only buildings, towers and castle walls have sections",
        "terrain[6]: type, points and built are a bridge's fields",
    ):
        assert needle in text, f"missing {needle!r} in:\n{text}"
    half = {**HOUSE, "sections": [{"id": "H.a", "shape": [[20, 20], [25, 20], [25, 28], [20, 28]]}]}
    data = scenario([unit("A", "allies", fig(1, 1)), unit("G", "axis", fig(47, 47))], [half])
    text = "\n".join(check_scenario(data))
    for needle in ("terrain[0].sections: 40.00 square inches of the building lie in no section",):
        assert needle in text, f"missing {needle!r} in:\n{text}"


@pytest.mark.rule("skirmish.18", "skirmish.34")
def test_rubble_covers_only_against_small_arms_and_a_collapse_not_at_all() -> None:
    game = town(fig(27, 24), fig(5, 5))
    shooter = (40.0, 24.0)
    window = (30.0, 24.0)
    assert R.line_of_sight(game.ctx.terrain, shooter, (29.5, 24.0)) is None and window
    for points, small, bazooka in (([30], True, True), ([5], True, False), ([0], False, False)):
        game.state.sections["H.b"] = points
        terrain = game.ctx.terrain
        assert (R.cover(terrain, shooter, (29.5, 24), "small_arms") is not None) == small, points
        assert (R.cover(terrain, shooter, (29.5, 24), "bazooka") is not None) == bazooka, points


@pytest.mark.rule("skirmish.17")
def test_points_are_state_kept_in_copies_and_the_json_and_a_plain_building_has_the_tables_points() -> None:
    plain = {"kind": "building", "id": "P", "shape": [[20, 20], [24, 20], [24, 24], [20, 24]]}
    game = town(fig(5, 5), terrain=[plain, RIVER, LARGE])
    assert game.state.sections == {"P": [30]}
    copy = game.state.copy()
    game.state.sections["P"][0] = 3
    game.state.bridges["B"].points = 4
    assert copy.sections == {"P": [30]} and copy.bridges["B"].points == 30
    data = game.state.to_json()
    assert data["sections"] == {"P": [3]} and data["bridges"][0]["points"] == 4
    view = game.view("Allies")
    piece = next(p for p in view["terrain"]["pieces"] if p["kind"] == "building")
    assert piece["sections"][0]["storeys"][0]["full_from"] == 20
    assert any(p["kind"] == "bridge" and p["type"] == "large" for p in view["terrain"]["pieces"])


def test_a_shell_on_a_section_uses_the_scripted_dice_purpose() -> None:
    game = town(fig(5, 5))
    dice = ScriptedDice([2, 2])
    game.dice = dice
    SH.shell(game.ctx, burst(27, 24, 1.0), (27, 24), "heavy_artillery", 3)
    assert dice.log[0][0].startswith("shell on section H.b (first storey, 30 points)")
    assert Point(27, 24).within(ST.sections(game.ctx)["H.b"].shape)


# ---------------------------------------------------------------------------------- players
@pytest.mark.rule("skirmish.18")
def test_the_doctrine_leaves_a_section_that_one_shot_would_likely_bring_down() -> None:
    import numpy as np

    from grognard.rulesets.skirmish.book import DoctrineBot
    from grognard.rulesets.skirmish.bots import in_danger

    house = {**HOUSE, "doors": [{"id": "D", "at": [22, 20], "open": True}]}
    game = town(fig(22, 21.5), fig(5, 5), terrain=[house])
    bot = DoctrineBot(np.random.default_rng(1))
    # H.a's second storey at 3: one shot cannot bring the section down (its first storey stands under it)
    game.state.sections["H.a"] = [20, 3]
    assert in_danger(game.ctx, figure(game, "A.1")) is None
    # the first storey at 12 points: one shot of 12 brings it down (1/36), under 1/6: stay
    game.state.sections["H.a"] = [12, 0]
    assert ST.collapse_chance(game.ctx, "H.a") == Fraction(1, 36) and in_danger(game.ctx, figure(game, "A.1")) is None
    # at 9 points: 10/36 >= 1/6: A.1 goes out through the open door
    game.state.sections["H.a"] = [9, 0]
    assert ST.collapse_chance(game.ctx, "H.a") == Fraction(10, 36)
    game.changed()
    decision = game.pending()[0]
    move = bot.choose(game, decision)
    game.apply("Allies", move)
    assert game.ctx.terrain.building_at(figure(game, "A.1").x, figure(game, "A.1").y) is None
    # with the door closed, a man within 1" of it opens it first
    game = town(fig(22, 20.8), fig(5, 5))
    game.state.sections["H.a"] = [9, 0]
    move = bot.choose(game, game.pending()[0])
    assert move.orders == (Order("A.1", "open", (), "D"),)


@pytest.mark.rule("skirmish.17", "skirmish.86", "skirmish.88")
def test_river_town_plays_to_a_result_with_the_engineers_at_work_and_is_drawn_by_state() -> None:
    import numpy as np

    from grognard.core.dice import SeededDice
    from grognard.core.play import play_out
    from grognard.rulesets.skirmish import RULESET
    from grognard.rulesets.skirmish import render_svg as render

    game = RULESET.create({"scenario": "river_town"}, SeededDice(1))
    bots = {seat: RULESET.bots["doctrine"](np.random.default_rng(1)) for seat in game.seats()}
    work: list[int] = []
    shells: list[str] = []

    def note(decision: Any, action: Any, events: list[Any]) -> None:
        work.extend(1 for e in events if e.kind == "bridge_work" and e.data["bridge"] == "FB1")
        shells.extend(e.data["section"] for e in events if e.kind == "structure_hit")

    result = play_out(game, lambda seat: bots[seat], on_step=note)
    assert result.outcome in ("win", "draw")
    # the engineers work every move they live (one man-move each): four at first, fewer as they fall
    assert 0 < game.state.bridges["FB1"].work == len(work) <= 4 * result.turn
    # the US gun crew stays at its gun and shells the inn: the points lost are the shells' 2d6
    crew = game.state.pieces["GUN"]
    assert all(f in M.crew_men(game.ctx, crew) for f in M.living(game.ctx, "P"))
    assert shells and set(shells) <= {"INN.w", "INN.e"}
    assert game.state.sections != {"INN.w": [30, 20], "INN.e": [30]}
    # the picture names each section's points and state, and each bridge's
    game.state.sections["INN.w"] = [30, 20]
    game.state.sections["INN.e"] = [0]
    game.state.bridges["BR1"].points = 12
    game.ctx.structures_changed()
    svg = render(game.view("Allies"))
    assert "building INN.w: 2 storeys, 30/20 points, full points" in svg
    assert "building INN.e: 1 storey, 0 points, all dead" in svg
    assert "BR1 (large, 12 points: men 4 abreast and unarmoured vehicles)" in svg
    assert "FB1 (foot, being built: " in svg


# ---------------------------------------------------------------------------------- the artillery's shells
def shelled_house() -> SkirmishGame:
    """A medium gun at (40, 5) served by C sees the house's east wall; G.1 is inside H.b (full points, away
    from the window), G.2 outside the east wall; both under a template landing at (30.2, 23)."""
    data = scenario(
        [
            unit("C", "allies", *(fig(x, y, type="crew") for x, y in ((40, 4), (41, 5), (39, 5)))),
            unit("G", "axis", fig(28.9, 22.3), fig(31.2, 22.0)),
            unit("H", "axis", fig(46, 46, "pistol")),
        ],
        [HOUSE],
    )
    data["pieces"] = [{"id": "GUN", "weapon": "medium_artillery", "at": [40.0, 5.0], "crew": "C"}]
    return make(data)


@pytest.mark.rule("skirmish.17", "skirmish.39")
def test_a_gun_shell_that_lands_on_a_house_spares_the_men_under_its_roof_and_takes_two_dice_from_it() -> None:
    from grognard.rulesets.skirmish.actions import Burst
    from test_skirmish_rules import fire

    game = shelled_house()
    order = AR.plan_burst(game.ctx, "allies", Burst("GUN", (30.2, 23.0)))
    assert order is not None
    assert [f.id for f in AR.under(game.ctx, AR.burst_polygon(game.ctx, order))] == ["G.1", "G.2"]
    script(game, 2, 6, 3, 4, 1)  # ranging 2 lands; G.2's effect die 6 hits; H.b loses 3 + 4; G.2 dies on 1
    events = fire(game, Burst("GUN", (30.2, 23.0)))
    covered = [e.data for e in events if e.kind == "burst_covered"]
    assert [c["figure"] for c in covered] == ["G.1"] and "roof" in covered[0]["why"]
    assert figure(game, "G.1").alive and figure(game, "G.1").hits == 0
    assert not figure(game, "G.2").alive
    assert game.state.sections["H.b"] == [23] and game.state.sections["H.a"] == [20, 10]  # H.a is not under it
    assert ST.state_of(game.ctx, "H.b") == FULL_POINTS


@pytest.mark.rule("skirmish.18")
def test_a_gun_shell_that_brings_a_section_down_kills_the_men_inside_once() -> None:
    from grognard.rulesets.skirmish.actions import Burst
    from test_skirmish_rules import fire

    game = shelled_house()
    game.state.sections["H.b"] = [5]  # rubble: no top cover, so G.1 is fired on like a man in the open
    game.ctx.structures_changed()
    script(game, 2, 6, 6, 3, 4, 6)  # lands; G.1 and G.2 hit; H.b loses 7 and collapses; G.2 survives on 6
    events = fire(game, Burst("GUN", (30.2, 23.0)))
    assert game.state.sections["H.b"] == [0] and ST.state_of(game.ctx, "H.b") == ALL_DEAD
    assert not figure(game, "G.1").alive and figure(game, "G.2").alive and figure(game, "G.2").wounds == 1
    assert [e.data["figure"] for e in events if e.kind == "killed"] == ["G.1"]  # killed once, by the collapse
    assert game.state.stats["losses"]["axis"] == 1
