"""Skirmish part 4, the guns: a piece's firing arc and turning it (skirmish.55), hitching a piece to a vehicle
(skirmish.61), and tanks' guns (skirmish.12, 15, 31), scripted dice on both sides of every threshold.

Scenes are built in code on the 48" x 48" test table of ``test_skirmish_rules`` (allies south and moving
first, so no initiative die is rolled). Dice of a fire phase: small arms (by unit), then each burst by name:
its ranging die, then one effect die per man under the template; then the survival rolls of the men hit.
"""

from __future__ import annotations

from typing import Any

import pytest

from grognard.core.errors import IllegalAction
from grognard.rulesets.skirmish import artillery as AR
from grognard.rulesets.skirmish import fire as FI
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish.actions import Burst, Drive, Move, Turn, action_from_json, parse_action
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.scenario import check_scenario
from test_skirmish_artillery import GUN, crew, gun_scene
from test_skirmish_rules import fig, figure, fire, make, refusal, scenario, script, unit
from test_skirmish_vehicles import drive, vehicle


def moves(game: SkirmishGame, **given: Move | Drive) -> list[Any]:
    """This turn's move phase: the units and vehicles named get these orders, every other one holds."""
    turn = game.state.turn
    events: list[Any] = []
    while game.state.phase.startswith("move:") and game.state.turn == turn and game.result is None:
        d = game.pending()[0]
        verb, label = d.id.split()
        events += game.apply(d.seat, given.get(label, Drive(label) if verb == "drive" else Move(label)))
    return events


# ---------------------------------------------------------------------------------- skirmish.55
@pytest.mark.rule("skirmish.55")
def test_a_piece_fires_inside_its_arc_and_a_target_exactly_on_its_edge_is_inside() -> None:
    game = gun_scene((20, 20), (23, 19))
    piece = game.state.pieces["GUN"]
    entry = game.ctx.tables.artillery["light_artillery"]
    assert piece.heading == 90.0 and entry.arc == 45.0 and entry.source == "grognard default"
    assert R.off_arc((10, 10), 90.0, 45.0, (20, 20)) == 0.0  # bearing 45: on the edge
    moves(game)
    err = refusal(game, "Allies", Burst("GUN", (20.0, 19.9)))  # bearing 44.71: 0.29 degrees outside
    assert err.rule == "skirmish.55" and "0.29 degrees outside piece GUN's arc" in str(err)
    assert "turn it" in str(err)
    script(game, 4, 4, 5)  # on the edge: ranging 4 lands (4 or less), G.1 hit on 4, survival 5: dead
    events = fire(game, Burst("GUN", (20.0, 20.0)))
    assert next(e for e in events if e.kind == "burst_lands").data["under"] == ["G.1"]
    assert not figure(game, "G.1").alive and figure(game, "G.2").alive


@pytest.mark.rule("skirmish.55")
def test_turning_a_piece_is_its_crews_move_and_it_cannot_fire_that_turn() -> None:
    game = gun_scene((30, 10))  # due east: 90 degrees off the gun's heading (north)
    moves(game)
    assert refusal(game, "Allies", Burst("GUN", (30.0, 10.0))).rule == "skirmish.55"
    fire(game)
    # turn 2: the crew turns it east; that is their move, and the piece does not fire this turn
    assert refusal(game, "Allies", Move("C", ((10.0, 12.0),), (), Turn("GUN", 0.0))).rule == "skirmish.55"
    events = moves(game, C=parse_action("turn C GUN 30,10"))
    assert any(e.kind == "piece_turned" and e.data["heading"] == 0.0 for e in events)
    piece = game.state.pieces["GUN"]
    assert piece.heading == 0.0 and piece.turned == 2
    assert game.state.walked["C.1"] == 6.0  # the whole move
    assert game.state.phase == "fire" and "burst GUN" not in [d.id for d in game.pending()]
    with pytest.raises(IllegalAction) as info:
        AR.plan_burst(game.ctx, "allies", Burst("GUN", (30.0, 10.0)))
    assert info.value.rule == "skirmish.55" and "turned this turn" in str(info.value)
    fire(game)
    # turn 3: it fires east
    moves(game)
    assert "burst GUN" in [d.id for d in game.pending()]
    script(game, 3, 4, 6)  # 20": the second band, lands on 3 or less; G.1 hit on 4, survives on 6
    fire(game, Burst("GUN", (30.0, 10.0)))
    assert figure(game, "G.1").alive and figure(game, "G.1").wounds == 1


@pytest.mark.rule("skirmish.55", "skirmish.64")
def test_the_preview_note_of_a_turn_or_a_figures_own_order_says_what_it_does_not_stay() -> None:
    from grognard.rulesets.skirmish.faces import note

    game = gun_scene((30, 10))
    assert note(game, parse_action("turn C GUN 0")) == "turn GUN to face 0 degrees"
    assert note(game, parse_action("turn C GUN 30,10")) == "turn GUN to face (30, 10)"
    assert note(game, parse_action("move C / C.1 wire 10,11 11,11")) == "C.1 wire 10,11 11,11"
    assert note(game, parse_action("hold C")) == "stay"
    assert note(game, parse_action("fire C hold / C.1 G.1")).startswith("hold fire; C.1 G.1")


@pytest.mark.rule("skirmish.55")
def test_only_the_pieces_own_crew_at_it_turns_it_and_refusals_change_nothing() -> None:
    game = gun_scene((30, 10), crew_at=((10, 8.9), (11, 10)))  # C.1 1.1" away: one man at the gun, it needs 2
    err = refusal(game, "Allies", Move("C", turn=Turn("GUN", 0.0)))
    assert err.rule == "skirmish.31" and "needs 2 of its crew" in str(err)
    data = scenario([crew((10, 9), (11, 10)), unit("B", "allies", fig(9, 10)), unit("G", "axis", fig(30, 10))])
    data["pieces"] = [dict(GUN)]
    game = make(data)
    assert refusal(game, "Allies", Move("B", turn=Turn("GUN", 0.0))).rule == "skirmish.72"
    assert refusal(game, "Allies", Move("C", turn=Turn("GUNX", 0.0))).rule == "skirmish.55"
    assert refusal(game, "Allies", Move("C", turn=Turn("GUN", None, (10.0, 10.0)))).rule == "skirmish.55"
    action = parse_action("turn C GUN -45.5")
    assert str(action) == "turn C GUN -45.5" and action_from_json(action.to_json()) == action
    game.apply("Allies", action)
    assert game.state.pieces["GUN"].heading == -45.5


# ---------------------------------------------------------------------------------- skirmish.61
def towing(truck_y: float = 12.9, *, kind: str = "truck", weapon: str = "light_artillery") -> SkirmishGame:
    """A light gun at (10, 10) facing north, its crew C beside it, a vehicle T (driver A.1) north of it."""
    data = scenario(
        [
            crew((9.0, 10.5), (11.0, 10.5)),
            unit("A", "allies", fig(10, truck_y)),
            unit("G", "axis", fig(40, 46)),
        ]
    )
    data["pieces"] = [{**GUN, "weapon": weapon}]
    data["vehicles"] = [vehicle("T", kind, (10, truck_y), "A")]
    return make(data)


@pytest.mark.rule("skirmish.61")
def test_hitching_takes_half_a_move_and_the_piece_follows_behind_and_cannot_fire() -> None:
    game = towing(13.0)  # the truck's rear (3.8" long) at y 11.1: 1.1" from the gun
    err = refusal(game, "Allies", parse_action("drive T hitch GUN"))
    assert err.rule == "skirmish.61" and 'GUN is 1.10" from T' in str(err)
    game = towing(12.9)  # its rear 1.0" from the gun: within reach
    assert game.ctx.tables.vehicles.truck.tows == ["light_artillery", "medium_artillery", "heavy_artillery"]
    err = refusal(game, "Allies", parse_action("drive T hitch GUN C then 10,18.92"))  # 6.02": more than half
    assert err.rule == "skirmish.61" and "half of it for loading" in str(err)
    drive(game, "drive T hitch GUN C then 10,18.9")  # exactly half the truck's 12"
    piece = game.state.pieces["GUN"]
    assert piece.hitched == "T" and (piece.x, piece.y, piece.heading) == (10.0, 16.0, -90.0)  # 1" behind its rear
    assert [figure(game, f).aboard for f in ("C.1", "C.2")] == ["T", "T"]  # the crew rides
    assert game.state.walked["C.1"] == 3.0
    moves(game)
    assert "burst GUN" not in [d.id for d in game.pending()]
    with pytest.raises(IllegalAction) as info:
        AR.plan_burst(game.ctx, "allies", Burst("GUN", (40.0, 46.0)))
    assert info.value.rule == "skirmish.61" and "hitched to T" in str(info.value)
    fire(game)
    # turn 2: it may not be turned while hitched; the truck drives on and unhitches it, the crew gets out
    assert refusal(game, "Allies", Move("C", turn=Turn("GUN", 0.0))).rule == "skirmish.61"
    moves(game, T=parse_action("drive T 10,24.9 then unhitch GUN C"))
    assert piece.hitched is None and (piece.x, piece.y, piece.heading) == (10.0, 22.0, -90.0)
    assert [figure(game, f).aboard for f in ("C.1", "C.2")] == [None, None]


@pytest.mark.rule("skirmish.61")
def test_what_may_be_hitched_to_what_is_table_data_and_refusals_change_nothing() -> None:
    game = towing(12.9, kind="jeep", weapon="medium_artillery")  # a jeep's rear (1.8" long) at 12.0: 2" off
    game.state.vehicles["T"].y = 11.9  # its rear 1" from the gun
    err = refusal(game, "Allies", parse_action("drive T hitch GUN"))
    assert err.rule == "skirmish.61" and "a jeep tows light_artillery, not GUN's medium_artillery" in str(err)
    game = towing(12.9, kind="tank")
    assert "tows nothing" in str(refusal(game, "Allies", parse_action("drive T hitch GUN")))
    game = towing(12.9)
    assert refusal(game, "Allies", parse_action("drive T unhitch GUN")).rule == "skirmish.61"
    assert refusal(game, "Allies", parse_action("drive T hitch NOGUN")).rule == "skirmish.61"
    game.state.units["C"].side = "axis"  # an enemy crew holds it: no mixed crews
    assert refusal(game, "Allies", parse_action("drive T hitch GUN")).rule == "skirmish.72"


# ---------------------------------------------------------------------------------- tank guns
def tank(*men: tuple[float, float], weapons: tuple[str, ...] = ("medium_tank_gun",)) -> SkirmishGame:
    data = scenario([unit("A", "allies", *(fig(10, 10) for _ in men)), unit("G", "axis", fig(10, 30), fig(12, 30))])
    data["vehicles"] = [vehicle("TK", "tank", (10, 10), "A", weapons=list(weapons))]
    return make(data)


@pytest.mark.rule("skirmish.12", "skirmish.31")
def test_a_tanks_gun_lays_its_classs_template_manned_by_a_man_besides_the_driver() -> None:
    game = tank((10, 10))  # the driver alone: the gun is silent
    moves(game)
    assert "burst TK" not in [d.id for d in game.pending()]
    with pytest.raises(IllegalAction) as info:
        AR.plan_burst(game.ctx, "allies", Burst("TK", (10.0, 30.0)))
    assert info.value.rule == "skirmish.31" and "1 man besides the driver" in str(info.value)
    game = tank((10, 10), (10, 10))
    moves(game)
    assert "burst TK" in [d.id for d in game.pending()]
    why = FI.can_fire(game.ctx, figure(game, "A.2"))
    assert why is not None and why[0] == "skirmish.31" and "lays TK's medium tank gun" in why[1]
    order = AR.plan_burst(game.ctx, "allies", Burst("TK", (10.0, 30.0)))
    assert order is not None and order.template == "medium_a" and order.attack == "tank_gun"
    assert (order.ranging, order.hit_on, order.origin) == (3, 4, (10.0, 10.0))  # 20": the second band
    assert refusal(game, "Allies", Burst("TK", (47.0, 47.0))).rule == "skirmish.29"  # 52.3": beyond its 48"
    script(game, 4)  # ranging 4: more than 3, the shell misses
    fire(game, Burst("TK", (10.0, 30.0)))
    assert game.state.landed[0]["landed"] is False and figure(game, "G.1").wounds == 0
    moves(game)
    script(game, 3, 4, 3, 6)  # ranging 3 lands; G.1 hit on 4, G.2 missed on 3; G.1 survives on 6 (S3)
    fire(game, Burst("TK", (10.0, 30.0)))
    assert figure(game, "G.1").alive and figure(game, "G.1").wounds == 1 and figure(game, "G.2").wounds == 0


@pytest.mark.rule("skirmish.60")
def test_a_tank_with_a_gun_and_a_mg_needs_a_man_for_each_after_the_driver() -> None:
    game = tank((10, 10), (10, 10), weapons=("medium_tank_gun", "mg"))
    v = game.state.vehicles["TK"]
    assert M.manned(game.ctx, v) == {"medium_tank_gun": figure(game, "A.2")} and M.gunner(game.ctx, v) is None
    game = tank((10, 10), (10, 10), (10, 10), weapons=("medium_tank_gun", "mg"))
    v = game.state.vehicles["TK"]
    assert M.manned(game.ctx, v) == {"medium_tank_gun": figure(game, "A.2"), "mg": figure(game, "A.3")}


def test_only_tanks_carry_tank_guns_and_a_piece_starts_hitched_only_to_a_vehicle_that_tows_it() -> None:
    data = scenario([unit("A", "allies", fig(10, 10)), unit("G", "axis", fig(10, 30))])
    data["vehicles"] = [
        vehicle("J", "jeep", (10, 10), "A", weapons=["light_tank_gun"]),
        vehicle("TK", "tank", (20, 10), weapons=["light_tank_gun", "heavy_tank_gun"]),
    ]
    data["pieces"] = [
        {**GUN, "crew": "A", "hitched": "J", "weapon": "medium_artillery"},
        {**GUN, "id": "GUN2", "crew": "G", "hitched": "NOPE"},
    ]
    text = "\n".join(check_scenario(data))
    assert "pieces[0].hitched: a jeep tows light_artillery, not medium_artillery (skirmish.61)" in text
    assert "pieces[1].hitched: 'NOPE': no vehicle has this id (skirmish.61)" in text
    assert "vehicles[0].weapons: 'light_tank_gun' is a tank gun: only a tank carries one" in text
    assert "vehicles[1].weapons: a tank carries one gun, not 2" in text


# ---------------------------------------------------------------------------------- bots, scenario, picture
@pytest.mark.rule("skirmish.55", "skirmish.61")
def test_the_doctrine_unhitches_turns_and_fires_in_the_gun_line_and_the_picture_shows_arcs_and_tows() -> None:
    import numpy as np

    from grognard.core.dice import SeededDice
    from grognard.core.play import play_out
    from grognard.rulesets.skirmish import RULESET
    from grognard.rulesets.skirmish import render_svg as render
    from grognard.rulesets.skirmish.book import DoctrineBot

    game = RULESET.create({"scenario": "gun_line_armour"}, SeededDice(1))
    start = render(game.view(None))
    assert "light artillery ATG, crew U, facing -90 deg, arc 45 deg either side, hitched to JEEP" in start
    assert start.count("<title>PAK&#x27;s firing arc</title>") == 2  # PAK's two arc edges
    assert "ATG&#x27;s firing arc" not in start  # the hitched ATG shows none
    piece = game.state.pieces["ATG"]
    assert (piece.x, piece.y, piece.heading) == (40.0, 2.1, -90.0)  # 1" behind the jeep's rear
    # seed 2: the mortar spares the jeep and its crew (at seed 1 since men keep their bases apart, issue 21,
    # it shells them before they unhitch); the crew then takes its places round the piece a base apart
    game = RULESET.create({"scenario": "gun_line_armour"}, SeededDice(2))
    bot = DoctrineBot(np.random.default_rng(2))
    seen: list[str] = []
    kinds: list[str] = []

    def step(decision: Any, action: Any, events: Any) -> None:
        seen.append(str(action))
        kinds.extend(e.kind for e in events)

    play_out(game, lambda seat: bot, on_step=step)
    assert game.result is not None
    assert "unhitched" in kinds and "piece_turned" in kinds
    assert any(a.startswith("drive JEEP") and "unhitch ATG U" in a for a in seen)
    assert any(a.startswith("turn U ATG") for a in seen)
    assert any(a.startswith("burst SHERMAN") and not a.endswith("hold") for a in seen)


@pytest.mark.rule("skirmish.17")
def test_a_tanks_gun_shells_a_house_two_dice_a_section_like_artillery() -> None:
    from test_skirmish_structures import HOUSE

    data = scenario([unit("A", "allies", fig(25, 10), fig(25, 10)), unit("G", "axis", fig(46, 46))], [HOUSE])
    data["vehicles"] = [vehicle("TK", "tank", (25, 10), "A", weapons=["medium_tank_gun"])]
    game = make(data)
    script(game, 2, 3, 4, 6, 6)  # 9.5": ranging 2 lands (4 or less); H.a's top storey loses 7, H.b 12 (S11)
    fire(game, Burst("TK", (25.0, 19.5)))
    assert game.state.landed[0]["landed"] and game.state.sections == {"H.a": [20, 3], "H.b": [18]}
