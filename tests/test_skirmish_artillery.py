"""Skirmish part 3, first third: artillery pieces and crews, the ranging shot, burst templates, fire for
effect, and the gun crew's melee (docs/rules/skirmish.md), scripted dice on both sides of every threshold.

Scenes are built in code on the 48" x 48" test table of ``test_skirmish_rules`` (allies south and moving
first, so no initiative die is rolled). Dice of a fire phase come in this order: small arms (by unit),
then each burst by name: its ranging die, then one effect die per man under the template (by name);
then the survival rolls of the men hit (by name).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grognard.core.dice import SeededDice
from grognard.core.errors import IllegalAction, ParseError
from grognard.core.play import play_out
from grognard.rulesets.skirmish import RULESET
from grognard.rulesets.skirmish import artillery as AR
from grognard.rulesets.skirmish import fire as FI
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish import turn as TU
from grognard.rulesets.skirmish.actions import Burst, Fire, Move, action_from_json, parse_action
from grognard.rulesets.skirmish.analysis import odds_tables
from grognard.rulesets.skirmish.artillery import BurstSpace
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.bots_fire import burst_order
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.scenario import check_scenario, load_scenario
from grognard.rulesets.skirmish.tables import load_tables, template_problem
from test_skirmish_rules import fig, figure, fire, hold_moves, make, refusal, scenario, script, unit

GUN = {"id": "GUN", "weapon": "light_artillery", "at": [10.0, 10.0], "crew": "C"}


def crew(*at: tuple[float, float], ident: str = "C", side: str = "allies") -> dict[str, Any]:
    return unit(ident, side, *(fig(x, y, type="crew") for x, y in at))


def gun_scene(
    *targets: tuple[float, float], crew_at: tuple[tuple[float, float], ...] = ((10, 9), (11, 10))
) -> SkirmishGame:
    """A light gun at (10, 10) served by C (two men within 1"), axis men G at ``targets``; H keeps the axis on."""
    data = scenario(
        [crew(*crew_at), unit("G", "axis", *(fig(x, y) for x, y in targets)), unit("H", "axis", fig(46, 46, "pistol"))]
    )
    data["pieces"] = [dict(GUN)]
    return make(data)


def laid(game: SkirmishGame) -> dict[str, Any]:
    assert len(game.state.landed) == 1
    return game.state.landed[0]


# ---------------------------------------------------------------------------------- skirmish.12, 14, 15
@pytest.mark.rule("skirmish.12", "skirmish.14")
def test_the_template_lands_where_ordered_and_fires_for_effect_on_every_man_whose_base_touches_it() -> None:
    # light_a's corners reach 1.25" east and west of its landing point: a base (1") touches at 1.75"
    game = gun_scene((10, 25), (11.75, 25), (8.23, 25))
    script(game, 4, 4, 3, 6)  # ranging 4 (needs 4 or less), G.1 hit, G.2 missed, G.1 survives on 6
    events = fire(game, Burst("GUN", (10.0, 25.0)))
    landed = next(e for e in events if e.kind == "burst_lands")
    assert landed.data["under"] == ["G.1", "G.2"]  # G.2's base touches the corner exactly; G.3 is 0.02" off
    record = laid(game)
    assert record["landed"] and record["die"] == 4 and record["template"] == "light_a" and record["hit"] == ["G.1"]
    assert figure(game, "G.1").alive and figure(game, "G.1").wounds == 1
    assert figure(game, "G.2").alive and figure(game, "G.2").wounds == 0


@pytest.mark.rule("skirmish.12")
def test_the_player_turns_the_template_and_chooses_its_shape() -> None:
    game = gun_scene((10, 25), (11.75, 25))
    hold_moves(game)
    order = AR.plan_burst(game.ctx, "allies", Burst("GUN", (10.0, 25.0), 90.0, "light_b"))
    assert order is not None and order.template == "light_b" and order.angle == 90.0
    shape = AR.burst_polygon(game.ctx, order)
    corners = list(R.burst_shape(game.ctx.templates["light_b"][1], (0.0, 0.0), 90.0).exterior.coords)
    assert shape.equals(R.burst_shape([(x, y) for x, y in corners[:-1]], (10.0, 25.0), 0.0))
    x0, y0 = game.ctx.templates["light_b"][1][0]  # (1.05, 0.2) turned a quarter: (-0.2, 1.05)
    assert any(math.isclose(x, 10 - y0) and math.isclose(y, 25 + x0) for x, y in shape.exterior.coords)
    assert [f.id for f in AR.under(game.ctx, shape)] == ["G.1"]  # turned, light_b no longer reaches G.2 at 1.75" east
    for bad, rule, words in (
        (Burst("GUN", (10.0, 25.0), 0.0, "heavy_a"), "skirmish.15", "not a light template"),
        (Burst("GUN", (10.0, 49.0)), "skirmish.12", "off the table"),
        (Burst("C.1", (10.0, 25.0)), "skirmish.12", "fires no burst template"),
        (Burst("NOPE", (10.0, 25.0)), "skirmish.12", "no piece or man"),
    ):
        with pytest.raises(IllegalAction) as info:
            AR.plan_burst(game.ctx, "allies", bad)
        assert info.value.rule == rule and words in str(info.value)
    assert "burst GUN 10,25 90 light_b" == str(Burst("GUN", (10.0, 25.0), 90.0, "light_b"))
    assert action_from_json(Burst("GUN", (10.0, 25.0), 90.0, "light_b").to_json()) == parse_action(
        "burst gun 10,25 90 light_b"
    )
    with pytest.raises(ParseError, match="not an angle"):
        parse_action("burst GUN 10,25 north")


@pytest.mark.rule("skirmish.12", "skirmish.13")
def test_an_illegal_burst_order_leaves_the_state_as_it_was_and_a_piece_fires_once_a_turn() -> None:
    game = gun_scene((10, 25))
    hold_moves(game)
    assert [d.id for d in game.pending()] == ["fire G", "burst GUN"]
    err = refusal(game, "Allies", Burst("GUN", (47.0, 47.0)))  # 52.3": beyond the light gun's 48"
    assert err.rule == "skirmish.29" and "beyond the light_artillery's 48\"" in str(err)
    err = refusal(game, "Allies", Burst("GUN", (10.0, 25.0), 0.0, "small_a"))
    assert err.rule == "skirmish.15"
    game.apply("Allies", Burst("GUN", (10.0, 25.0)))  # ordered; it is fired with all other fire (S0)
    assert [d.id for d in game.pending()] == ["fire G"]
    with pytest.raises(IllegalAction) as info:
        AR.plan_burst(game.ctx, "allies", Burst("GUN", (10.0, 24.0)))
    assert info.value.rule == "skirmish.13" and "already fired this turn" in str(info.value)
    refusal(game, "Allies", Burst("GUN", (10.0, 24.0)))  # and the engine owes it no second order


@pytest.mark.rule("skirmish.15")
def test_template_sizes_are_the_seeds_and_the_shapes_are_irregular() -> None:
    tables = load_tables()
    sizes = {name: cls.across for name, cls in tables.burst.items()}
    assert sizes == {"heavy": 3.5, "medium": 3.0, "light": 2.5, "small": 1.5}
    assert {w: tables.artillery[w].burst for w in tables.artillery} == {
        "heavy_artillery": "heavy",
        "medium_artillery": "medium",
        "light_artillery": "light",
        "mortar": "small",
        "bazooka": "small",
        "heavy_tank_gun": "heavy",  # the seed: heavy artil./tank 3.5", medium 3", light 2.5"
        "medium_tank_gun": "medium",
        "light_tank_gun": "light",
    }
    for cls in tables.burst.values():
        assert len(cls.shapes) >= 2
        for shape in cls.shapes:
            radii = [math.hypot(x, y) for x, y in shape.points]
            assert max(radii) - min(radii) > 0.1 * cls.across  # irregular, not a circle
            width = max(math.dist(a, b) for a in shape.points for b in shape.points)
            assert abs(width - cls.across) <= 0.05  # the seed's size, to a twentieth of an inch
    assert template_problem([(0.5, 0), (0, 0.5), (-0.5, 0), (0, -0.5)], 3.5) is not None  # 1" is not 3.5"
    assert "edges cross" in (template_problem([(1, 1), (-1, -1), (1, -1), (-1, 1)], 2.0) or "")


@pytest.mark.rule("skirmish.15")
def test_a_scenario_adds_its_own_templates_checked_like_the_tables() -> None:
    data = scenario([crew((10, 9), (11, 10)), unit("G", "axis", fig(10, 25)), unit("H", "axis", fig(46, 46))])
    data["pieces"] = [dict(GUN)]
    data["templates"] = [{"id": "crater", "burst": "light", "points": [[1.25, 0], [0, 1.0], [-1.25, 0], [0, -0.9]]}]
    game = make(data)
    hold_moves(game)
    order = AR.plan_burst(game.ctx, "allies", Burst("GUN", (10.0, 25.0), 0.0, "crater"))
    assert order is not None and order.template == "crater"
    data["templates"] = [
        {"id": "light_a", "burst": "light", "points": [[1.25, 0], [0, 1.0], [-1.25, 0]]},
        {"id": "huge", "burst": "light", "points": [[4, 0], [0, 4], [-4, 0], [0, -4]]},
        {"id": "odd", "burst": "enormous", "points": [[1, 0], [0, 1], [-1, 0]]},
    ]
    text = "\n".join(check_scenario(data))
    assert "templates[0].id: 'light_a': used twice" in text
    assert 'templates[1].points: 8.00" across, not about 2.5"' in text
    assert "templates[2].burst: 'enormous': not a burst class" in text


# ---------------------------------------------------------------------------------- skirmish.13, 14, 6, 7
@pytest.mark.rule("skirmish.13", "skirmish.14")
@pytest.mark.parametrize(("die", "lands"), [(1, True), (4, True), (5, False), (6, False)])
def test_the_ranging_shot_lands_at_most_on_the_pieces_number_and_a_miss_takes_the_template_away(
    die: int, lands: bool
) -> None:
    game = gun_scene((10, 25))  # 15": the light gun's first band, ranging 4
    left = script(game, die, *([6, 6] if lands else []))  # landed: G.1's effect die hits, he survives on 6
    events = fire(game, Burst("GUN", (10.0, 25.0)))
    assert left.remaining == 0  # a miss rolls nothing more: no effect dice
    assert laid(game)["landed"] is lands
    assert any(e.kind == ("burst_lands" if lands else "burst_missed") for e in events)
    assert [e.data["hit"] for e in events if e.kind == "burst_effect"] == ([["G.1"]] if lands else [])


@pytest.mark.rule("skirmish.14", "skirmish.6")
@pytest.mark.parametrize(("effect", "survival", "fate"), [(3, None, "missed"), (4, 6, "wounded"), (4, 5, "dead")])
def test_fire_for_effect_hits_on_the_bands_number_and_only_a_six_survives_artillery(
    effect: int, survival: int | None, fate: str
) -> None:
    game = gun_scene((10, 25))  # light gun, first band: each man under it hit on 4+
    left = script(game, 1, effect, *([survival] if survival else []))
    fire(game, Burst("GUN", (10.0, 25.0)))
    assert left.remaining == 0
    g = figure(game, "G.1")
    assert {"missed": g.alive and g.wounds == 0, "wounded": g.alive and g.wounds == 1, "dead": not g.alive}[fate]


@pytest.mark.rule("skirmish.7", "skirmish.14")
def test_a_man_hit_by_a_rifle_and_a_shell_in_one_turn_dies_with_no_survival_roll() -> None:
    data = scenario(
        [
            crew((10, 9), (11, 10)),
            unit("B", "allies", fig(20, 20)),
            unit("G", "axis", fig(20, 25)),
            unit("H", "axis", fig(46, 46)),
        ]
    )
    data["pieces"] = [dict(GUN)]
    game = make(data)
    left = script(game, 5, 2, 6)  # B.1's rifle (5" away, 4+) hits G.1; the ranging die lands; the effect die hits
    fire(game, Fire("B", "G"), Burst("GUN", (20.0, 25.0)))
    assert left.remaining == 0 and not figure(game, "G.1").alive  # no survival die was rolled


@pytest.mark.rule("skirmish.14")
def test_a_shell_hits_every_man_under_it_whatever_his_side() -> None:
    data = scenario([crew((10, 9), (11, 10)), unit("B", "allies", fig(20, 24)), unit("G", "axis", fig(20, 25.2))])
    data["pieces"] = [dict(GUN)]
    game = make(data)
    script(game, 1, 6, 6, 6, 6)  # lands; B.1 and G.1 both under it, both hit, both survive
    events = fire(game, Burst("GUN", (20.0, 24.6)))
    assert next(e for e in events if e.kind == "burst_lands").data["under"] == ["B.1", "G.1"]
    assert figure(game, "B.1").wounds == 1 and figure(game, "G.1").wounds == 1


@pytest.mark.rule("skirmish.14", "skirmish.34")
def test_a_stone_wall_covers_against_a_bazooka_burst_not_against_a_mortar() -> None:
    wall = {"kind": "stone_wall", "line": [[5, 19.5], [15, 19.5]]}
    data = scenario(
        [
            unit("A", "allies", fig(10, 10, "bazooka"), fig(12, 10, "mortar")),
            unit("G", "axis", fig(10, 20)),
            unit("H", "axis", fig(46, 46)),
        ],
        [wall],
    )
    for by, effect, hit in (("A.1", 4, False), ("A.1", 5, True), ("A.2", 4, True)):
        game = make(data)
        left = script(game, 1, effect, *([6] if hit else []))
        events = fire(game, Burst(by, (10.0, 20.0)))
        assert left.remaining == 0
        assert [e.data["hit"] for e in events if e.kind == "burst_effect"] == [["G.1"] if hit else []], (by, effect)


# ---------------------------------------------------------------------------------- skirmish.29, 11
@pytest.mark.rule("skirmish.29")
def test_artillery_ranges_are_table_bands_measured_to_the_aim_point_at_the_edge_inclusive() -> None:
    game = gun_scene((40, 40))
    hold_moves(game)
    first = AR.plan_burst(game.ctx, "allies", Burst("GUN", (10.0, 28.0)))  # exactly 18": the first band
    second = AR.plan_burst(game.ctx, "allies", Burst("GUN", (10.0, 28.02)))
    assert first is not None and (first.band, first.ranging, first.hit_on) == (0, 4, 4)
    assert second is not None and (second.band, second.ranging) == (1, 3)
    tables = load_tables()
    for name, entry in tables.artillery.items():
        assert entry.source == "grognard default" and entry.reason, name
    mortar = make(scenario([unit("A", "allies", fig(10, 5, "mortar")), unit("G", "axis", fig(40, 46))]))
    hold_moves(mortar)
    assert AR.plan_burst(mortar.ctx, "allies", Burst("A.1", (10.0, 35.0))) is not None  # exactly 30"
    with pytest.raises(IllegalAction) as info:
        AR.plan_burst(mortar.ctx, "allies", Burst("A.1", (10.0, 35.02)))
    assert info.value.rule == "skirmish.29" and "beyond the mortar's 30\"" in str(info.value)


@pytest.mark.rule("skirmish.29", "skirmish.25")
def test_artillery_ranges_are_adjusted_up_and_down_hill() -> None:
    hill = {"kind": "hill", "height": 1.0, "shape": [[0, 30], [48, 30], [48, 48], [0, 48]]}
    up = make(scenario([unit("A", "allies", fig(10, 2.5, "mortar")), unit("G", "axis", fig(40, 46))], [hill]))
    hold_moves(up)
    with pytest.raises(IllegalAction) as info:  # 28.02" measured, +2" for the inch the aim point stands higher
        AR.plan_burst(up.ctx, "allies", Burst("A.1", (10.0, 30.52)))
    assert info.value.rule == "skirmish.29"
    assert AR.plan_burst(up.ctx, "allies", Burst("A.1", (10.0, 30.5))) is not None  # 28 + 2 = 30: in range
    down = make(scenario([unit("A", "allies", fig(10, 31, "mortar")), unit("G", "axis", fig(40, 46))], [hill]))
    hold_moves(down)
    order = AR.plan_burst(down.ctx, "allies", Burst("A.1", (10.0, 0.5)))  # 30.5" measured, 2" off firing down
    assert order is not None and order.range == 28.5


@pytest.mark.rule("skirmish.11", "skirmish.29")
def test_direct_fire_needs_the_firers_sight_indirect_fire_any_mans() -> None:
    house = {"kind": "building", "shape": [[8, 14], [12, 14], [12, 18], [8, 18]]}
    data = scenario(
        [crew((10, 9), (11, 10)), unit("A", "allies", fig(30, 10, "mortar")), unit("G", "axis", fig(10, 25))],
        [house],
    )
    data["pieces"] = [dict(GUN)]
    game = make(data)
    hold_moves(game)
    with pytest.raises(IllegalAction) as info:  # the house stands between the light gun and the aim point
        AR.plan_burst(game.ctx, "allies", Burst("GUN", (10.0, 25.0)))
    assert info.value.rule == "skirmish.11" and "direct fire" in str(info.value)
    assert AR.plan_burst(game.ctx, "allies", Burst("A.1", (10.0, 25.0))) is not None  # the mortar lobs it
    hidden = scenario(
        [unit("A", "allies", fig(10, 10, "mortar")), unit("G", "axis", fig(10, 25))],
        [{"kind": "building", "shape": [[2, 14], [18, 14], [18, 18], [2, 18]]}],
    )
    blind = make(hidden)
    hold_moves(blind)
    with pytest.raises(IllegalAction) as info:
        AR.plan_burst(blind.ctx, "allies", Burst("A.1", (10.0, 25.0)))
    assert info.value.rule == "skirmish.11" and "observer" in str(info.value)


# ---------------------------------------------------------------------------------- skirmish.31, 72
@pytest.mark.rule("skirmish.31")
def test_a_piece_fires_only_with_its_minimum_crew_within_reach_and_they_serve_it_not_their_rifles() -> None:
    short = gun_scene((10, 20), crew_at=((10, 9), (11.02, 10)))  # C.2 is 1.02" from the piece: one man at it
    hold_moves(short)
    assert "burst GUN" not in [d.id for d in short.pending()]
    with pytest.raises(IllegalAction) as info:
        AR.plan_burst(short.ctx, "allies", Burst("GUN", (10.0, 20.0)))
    assert info.value.rule == "skirmish.31" and 'needs 2 of its crew (C) within 1" of it, has 1' in str(info.value)
    assert FI.can_fire(short.ctx, figure(short, "C.1")) is None  # nobody serves a piece that cannot fire
    full = gun_scene((10, 20), crew_at=((10, 9), (11.0, 10)))  # exactly 1": both at it
    hold_moves(full)
    assert "burst GUN" in [d.id for d in full.pending()]
    why = FI.can_fire(full.ctx, figure(full, "C.1"))
    assert why is not None and why[0] == "skirmish.31" and "serves piece GUN" in why[1]
    assert "fire C" not in [d.id for d in full.pending()]


@pytest.mark.rule("skirmish.72", "skirmish.2")
def test_pieces_are_checked_whole_one_crew_one_piece() -> None:
    data = scenario([crew((10, 9), (11, 10)), unit("G", "axis", fig(10, 25))])
    data["pieces"] = [
        dict(GUN),
        {"id": "GUN", "weapon": "mortar", "at": [50, 10], "crew": "C"},
        {"id": "P3", "weapon": "heavy_artillery", "at": [20, 10], "crew": "Z"},
    ]
    text = "\n".join(check_scenario(data))
    for words in (
        "pieces[1].id: 'GUN': used twice",
        "pieces[1].weapon: 'mortar': not an artillery piece in the tables (heavy_artillery, medium_artillery, "
        "light_artillery)",
        'pieces[1].at: [50.0, 10.0]: off the 48" x 48" table',
        "pieces[1].crew: 'C': already serves piece GUN (skirmish.72: one crew, one piece)",
        "pieces[2].crew: 'Z': no unit has this id",
    ):
        assert words in text, words


@pytest.mark.rule("skirmish.72")
def test_no_mixed_crews_the_enemy_cannot_serve_a_piece_while_its_crew_lives() -> None:
    data = scenario([crew((10, 9), (11, 10)), unit("G", "axis", fig(9.2, 10.6)), unit("H", "axis", fig(46, 46))])
    data["pieces"] = [dict(GUN)]
    game = make(data)
    hold_moves(game)
    piece = game.state.pieces["GUN"]
    assert [f.id for f in M.crew_men(game.ctx, piece)] == ["C.1", "C.2"]  # G.1 stands at it but is no crew of it
    with pytest.raises(IllegalAction) as info:
        AR.plan_burst(game.ctx, "axis", Burst("GUN", (10.0, 25.0)))
    assert info.value.rule == "skirmish.72" and "no mixed crews" in str(info.value)
    before = game.digest()
    with pytest.raises(IllegalAction):
        game.apply("Axis", Burst("GUN", (10.0, 25.0)))
    assert game.digest() == before


@pytest.mark.rule("skirmish.72")
@pytest.mark.parametrize("allies_at_it", [False, True])
def test_a_piece_whose_crew_is_dead_is_taken_by_the_one_side_at_it(allies_at_it: bool) -> None:
    allies = [crew((10, 9), (11, 10))]
    allies.append(unit("A", "allies", fig(10, 11) if allies_at_it else fig(30, 2)))
    data = scenario([*allies, unit("G", "axis", fig(9, 10), fig(40, 40)), unit("H", "axis", fig(46, 46))])
    data["pieces"] = [dict(GUN)]
    game = make(data)
    game.take_events()
    for fid in ("C.1", "C.2"):
        M.kill(game.ctx, figure(game, fid), "test: the crew falls")
    game.changed()
    events: list[Any] = game.take_events()  # the last of the crew falls: the piece is abandoned at once
    assert game.state.pieces["GUN"].crew is None
    while game.state.phase.startswith("move:"):  # the fire phase begins: whoever alone stands at it takes it
        d = game.pending()[0]
        events += game.apply(d.seat, Move(d.id.split()[1]))
    piece = game.state.pieces["GUN"]
    if allies_at_it:  # men of both sides at it: nobody takes it (no mixed crews)
        assert piece.crew is None and "burst GUN" not in [d.id for d in game.pending()]
    else:  # G's one man at it takes it, and the axis may fire it once two of G stand at it
        assert piece.crew == "G"
        assert [e.data for e in events if e.kind == "piece_taken"] == [{"piece": "GUN", "crew": "G", "side": "axis"}]
        why = M.piece_ready(game.ctx, piece)
        assert why is not None and "needs 2 of its crew (G)" in why[1]
    assert [e.data["piece"] for e in events if e.kind == "piece_abandoned"] == ["GUN"]


# ---------------------------------------------------------------------------------- skirmish.71
def gun_crew_melee() -> SkirmishGame:
    """GUN at (20, 20) served by C (three men, two within 1"); A.1 charges C.1 from the south."""
    data = scenario(
        [
            unit("A", "allies", fig(20, 12)),
            unit("B", "allies", fig(46, 2)),
            crew((20, 19), (21, 20), (19, 20.8), ident="C", side="axis"),
            unit("H", "axis", fig(46, 46, "pistol")),
        ]
    )
    data["pieces"] = [{"id": "GUN", "weapon": "light_artillery", "at": [20.0, 20.0], "crew": "C"}]
    game = make(data)
    game.apply("Allies", Move("A", ((20.0, 18.0),)))  # A.1's base touches C.1's
    return game


@pytest.mark.rule("skirmish.71")
def test_when_the_attacker_beats_part_of_a_gun_crew_the_rest_must_attack_in_the_same_turn() -> None:
    game = gun_crew_melee()
    # A.1 hits C.1 (first round: dead outright); C.2 and C.3 are moved into contact and attack A.1:
    # C.2's hit kills him outright (their first round), C.3's die is rolled too
    left = script(game, 4, 4, 1)
    events = fire(game)
    assert left.remaining == 0
    attacks = [e for e in events if e.kind == "crew_attacks"]
    assert [e.data["figure"] for e in attacks] == ["C.2", "C.3"] and all(e.data["at"] == "A.1" for e in attacks)
    assert not figure(game, "C.1").alive and not figure(game, "A.1").alive
    for fid in ("C.2", "C.3"):
        f = figure(game, fid)
        assert R.in_contact((f.x, f.y), (20.0, 18.0), 1.0)
    rounds = [e for e in events if e.kind == "melee_round"]
    assert [(e.data["round"], e.data["attacker"]) for e in rounds] == [(1, "allies"), (1, "axis")]


@pytest.mark.rule("skirmish.71")
def test_no_crew_counterattack_when_the_attacker_has_not_won() -> None:
    game = gun_crew_melee()
    left = script(game, 2, 3)  # A.1 misses C.1 (2: a die counts one more against a gun crew), C.1 misses back
    events = fire(game)
    assert left.remaining == 0
    assert not [e for e in events if e.kind == "crew_attacks"]
    assert figure(game, "C.2").x == 21 and figure(game, "C.3").y == 20.8
    assert sorted(d.id for d in game.pending()) == ["melee M1", "melee M2"]


@pytest.mark.rule("skirmish.71")
def test_a_crewman_out_of_reach_does_not_join_the_counterattack() -> None:
    data = scenario(
        [
            unit("A", "allies", fig(20, 12)),
            unit("B", "allies", fig(46, 2)),
            crew((20, 19), (21, 20), (40, 40), ident="C", side="axis"),
        ]
    )
    data["pieces"] = [{"id": "GUN", "weapon": "light_artillery", "at": [20.0, 20.0], "crew": "C"}]
    game = make(data)
    game.apply("Allies", Move("A", ((20.0, 18.0),)))
    script(game, 4, 3, 2)  # C.1 dies; C.2 attacks and misses, A.1 misses back (2, +1 against a crew): both miss
    events = fire(game)
    assert [e.data["figure"] for e in events if e.kind == "crew_attacks"] == ["C.2"]
    assert [e.data["figure"] for e in events if e.kind == "crew_cannot_reach"] == ["C.3"]
    assert figure(game, "C.3").x == 40  # 20"+ away: beyond his move


# ---------------------------------------------------------------------------------- players and faces
@pytest.mark.rule("skirmish.12")
def test_the_doctrine_lays_its_template_on_the_most_enemies_and_never_on_its_own_men() -> None:
    data = scenario(
        [
            crew((10, 9), (11, 10)),
            unit("B", "allies", fig(12.2, 24.5)),
            unit("G", "axis", fig(20, 25), fig(21.2, 25.4), fig(30, 25), fig(12, 25.6)),
        ]
    )
    data["pieces"] = [dict(GUN)]
    game = make(data)
    hold_moves(game)
    space = BurstSpace(game.ctx, "GUN")
    order = burst_order(game.ctx, space)
    assert order.at is not None
    planned = AR.plan_burst(game.ctx, "allies", order)
    assert planned is not None
    under = [f.id for f in AR.under(game.ctx, AR.burst_polygon(game.ctx, planned))]
    assert under == ["G.1", "G.2"]  # two together beat one alone; G.4 stands by our own B.1


def test_bots_play_the_gun_line_to_a_result_and_the_picture_shows_pieces_and_templates() -> None:
    from grognard.rulesets.skirmish import render_svg as render

    game = RULESET.create({"scenario": "gun_line"}, SeededDice(7))
    rng = np.random.default_rng(7)
    bot = DoctrineBot(rng)
    seen: list[str] = []
    pictures: list[str] = []

    def step(decision: Any, action: Any, events: Any) -> None:
        seen.append(str(action))
        if game.state.landed and len(pictures) < 1:
            pictures.append(render(game.view(None)))

    play_out(game, lambda seat: bot, on_step=step)
    assert game.result is not None
    assert any(a.startswith("burst ") and not a.endswith("hold") for a in seen)
    assert pictures and "ranging" in pictures[0] and "light artillery" in render(game.view(None))
    from grognard.bots.random_bot import RandomBot

    rgame = RULESET.create({"scenario": "gun_line"}, SeededDice(11))
    rbot = RandomBot(np.random.default_rng(11))
    play_out(rgame, lambda seat: rbot)
    assert rgame.result is not None


def test_the_odds_tables_give_the_ranging_shot_and_the_effect_under_a_template_exactly() -> None:
    tables = {t.name: t for t in odds_tables()}
    ranging = tables["ranging_light_artillery"]
    assert [m.distribution().probability(True) for _, m in ranging.rows] == [
        pytest.approx(4 / 6),
        pytest.approx(3 / 6),
        pytest.approx(2 / 6),
    ]
    under = tables["under_light_artillery"]
    label, fate = under.rows[0]
    assert label == '0-18" open'
    # lands 4/6, hits on 4+ (3/6), survives only on 6: dead 4/6 * 3/6 * 5/6
    assert fate.distribution().probability("dead") == pytest.approx(4 / 6 * 3 / 6 * 5 / 6)


def test_the_gun_line_scenario_loads() -> None:
    sc = load_scenario("gun_line")
    assert sc.spec.pieces and any(f.weapon == "mortar" for u in sc.spec.units for f in u.figures)
    assert any(f.weapon == "bazooka" for u in sc.spec.units for f in u.figures)


@pytest.mark.parametrize(("lost", "broken"), [(10, False), (11, True)])
def test_gun_line_breaks_the_attack_at_two_thirds_of_the_americans_down_as_it_says(lost: int, broken: bool) -> None:
    game = RULESET.create({"scenario": "gun_line"}, SeededDice(5))
    assert "two thirds of the Americans down: 11 of the 16" in " ".join(game.ctx.scenario.spec.description.split())
    allies = [f for f in game.state.figures.values() if f.side == "allies"]
    assert len(allies) == 16  # 10 down is 62.5%, short of the scenario's 0.66; 11 down is 68.75%
    for f in allies[:lost]:
        f.alive = False
    TU.end_turn(game.ctx)
    assert (game.result is not None and game.result.winner == "axis") is broken


def test_a_burst_order_can_be_previewed_and_drawn_before_it_is_given() -> None:
    from grognard.rulesets.skirmish import render_svg as render
    from grognard.rulesets.skirmish.faces import odds, preview

    game = gun_scene((10, 25), (11.75, 25))
    hold_moves(game)
    view = preview(game, "Allies", Burst("GUN", (10.0, 25.0)))
    (laid_now,) = view["preview"]["templates"]
    assert laid_now["under"] == ["G.1", "G.2"] and len(laid_now["shape"]) == 11
    assert "preview (not given): burst GUN 10,25" in render(view)
    # lands 4 in 6; each of the two men: hit 3 in 6, then dead 5 in 6
    assert odds(game, Burst("GUN", (10.0, 25.0))) == "lands 67%; 2 men under it, about 0.6 killed"
    with pytest.raises(IllegalAction):
        preview(game, "Allies", Burst("GUN", (47.0, 47.0)))


@settings(max_examples=40, deadline=None)
@given(
    x=st.floats(-2, 50, allow_nan=False),
    y=st.floats(-2, 50, allow_nan=False),
    angle=st.sampled_from([0.0, 45.0, 200.0]),
    shape=st.sampled_from([None, "light_b", "small_a", "nope"]),
)
def test_a_burst_order_is_either_taken_or_refused_leaving_the_state_unchanged(
    x: float, y: float, angle: float, shape: str | None
) -> None:
    game = gun_scene((10, 25), (20, 30))
    hold_moves(game)
    action = Burst("GUN", (round(x, 2), round(y, 2)), angle, shape)
    before = game.digest()
    try:
        AR.plan_burst(game.ctx, "allies", action)
    except IllegalAction as exc:
        assert exc.rule in ("skirmish.12", "skirmish.15", "skirmish.29", "skirmish.11", "skirmish.55")
        with pytest.raises(IllegalAction):
            game.apply("Allies", action)
        assert game.digest() == before
    else:
        game.apply("Allies", action)
        assert "GUN" in game.state.bursts
