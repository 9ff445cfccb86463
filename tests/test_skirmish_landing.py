"""Skirmish part 4, landing craft and paratroop landings (skirmish.26-28): both sides of every threshold."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from grognard.core.dice import SeededDice
from grognard.core.play import play_out
from grognard.rulesets.skirmish import RULESET
from grognard.rulesets.skirmish import fire as FI
from grognard.rulesets.skirmish import landing as L
from grognard.rulesets.skirmish import melee as ME
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish.actions import Drive, Fire, Move, Stop, parse_action
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.scenario import check_scenario, load_scenario
from test_skirmish_rules import fig, figure, make, refusal, scenario, script, unit

BAY = {"kind": "bay", "shape": [[0, 0], [20, 0], [20, 48], [0, 48]]}  # the sea west of x = 20: the shore
WOODS = {"kind": "woods", "shape": [[30, 30], [36, 30], [36, 36], [30, 36]]}
FAR = [unit("G", "axis", fig(46, 46, "pistol"))]  # keeps the axis in the game


def craft(at: tuple[float, float] = (10.0, 24.0), heading: float = 0.0, **more: Any) -> dict[str, Any]:
    return {"id": "LC", "kind": "landing_craft", "side": "allies", "at": list(at), "heading": heading,
            "crew": ["C"], "passengers": ["P"], **more}  # fmt: skip


def afloat_game(at: tuple[float, float] = (11.0, 24.0), men: int = 5) -> SkirmishGame:
    data = scenario(
        [unit("C", "allies", fig(1, 1)), unit("P", "allies", *[fig(1, 1) for _ in range(men)]), *FAR], [BAY]
    )
    data["vehicles"] = [craft(at)]
    return make(data)


def drive(game: SkirmishGame, text: str) -> Any:
    return game.apply("Allies", parse_action(text))


def next_turn(game: SkirmishGame) -> None:
    """Everyone holds (moves, fire, bursts; melee groups stay) until the next turn's first move."""
    turn = game.state.turn
    while game.result is None and (game.state.turn == turn or not game.state.phase.startswith("move:")):
        d = game.pending()[0]
        space = d.space
        game.apply(d.seat, space.hold() if hasattr(space, "hold") else Fire(d.id.split()[1], None))


# ---------------------------------------------------------------------------------- landing craft
@pytest.mark.rule("skirmish.27")
def test_a_landing_craft_grounds_exactly_at_the_shore_and_only_then_lowers_its_ramp() -> None:
    game = afloat_game()
    lc = game.ctx.tables.vehicles.landing_craft
    assert (lc.move, lc.length, lc.carries, lc.source) == (12.0, 6.0, 30, "grognard default")
    # its bow 0.02" short of the shore (x = 20): afloat, the ramp stays up
    error = refusal(game, "Allies", parse_action("drive LC 16.98,24 then unload P"))
    assert error.rule == "skirmish.27" and "afloat, 0.02" in str(error)
    drive(game, "drive LC 16.98,24")
    v = game.state.vehicles["LC"]
    assert not L.grounded(game.ctx.base_terrain, game.ctx.vehicle_shape(v))
    # the bow exactly at the shore: grounded, the men run down the ramp onto the beach
    game = afloat_game()
    drive(game, "drive LC 17,24 then unload P")
    v = game.state.vehicles["LC"]
    assert (v.x, v.y) == (17.0, 24.0) and L.grounded(game.ctx.base_terrain, game.ctx.vehicle_shape(v))
    bow = L.bow((v.x, v.y), v.heading, 6.0)
    for n in range(1, 6):
        f = figure(game, f"P.{n}")
        assert f.aboard is None and f.x > 20.0 and ((f.x - bow[0]) ** 2 + (f.y - bow[1]) ** 2) ** 0.5 <= 3.01
        assert not game.ctx.terrain.in_pond(f.x, f.y)
        assert game.state.walked[f.id] == 3.0  # getting out takes half his move (skirmish.61)
    assert figure(game, "C.1").aboard == "LC"  # the coxswain stays aboard


@pytest.mark.rule("skirmish.27")
def test_a_craft_driven_at_the_land_stops_where_it_grounds_and_stays_on_the_beach() -> None:
    game = afloat_game()
    events = drive(game, "drive LC 21,24")  # ordered 10" onto the land: it sails 6" and grounds
    v = game.state.vehicles["LC"]
    assert (v.x, v.y) == (17.0, 24.0)
    assert next(e for e in events if e.kind == "drove").data["cost"] == 6.0
    next_turn(game)
    error = refusal(game, "Allies", parse_action("drive LC 10,24"))
    assert error.rule == "skirmish.27" and "stays on the beach" in str(error)
    # twelve inches a move on the water (within the 0.01" tolerance): 12.02" is refused, 12.01" sails
    game = afloat_game((4.0, 24.0))
    error = refusal(game, "Allies", parse_action("drive LC 4,36.02"))
    assert error.rule == "skirmish.23"
    drive(game, "drive LC 4,36.01")
    assert game.state.vehicles["LC"].y == 36.01


@pytest.mark.rule("skirmish.27")
def test_a_craft_cannot_turn_into_the_beach_nor_load_men_while_afloat() -> None:
    data = scenario([unit("C", "allies", fig(1, 1)), unit("P", "allies", fig(1, 1)), *FAR], [BAY])
    data["vehicles"] = [craft((18.5, 24.0), 90.0)]  # alongside the shore, its side 0.6" off it
    game = make(data)
    error = refusal(game, "Allies", parse_action("drive LC 10,24"))  # swinging round west sweeps its bow ashore
    assert error.rule == "skirmish.27" and "turning at 18.5,24 would run it aground" in str(error)
    error = refusal(game, "Allies", Drive("LC", (), Stop("unload", ("P",))))
    assert error.rule == "skirmish.27" and "afloat, 0.60" in str(error)
    data["vehicles"] = [craft((16.5, 24.0), 90.0)]  # 2.6" off the shore it swings round
    game = make(data)
    drive(game, "drive LC 10,24")
    assert game.state.vehicles["LC"].heading == 180.0


@pytest.mark.rule("skirmish.27")
def test_men_aboard_a_craft_afloat_are_covered_from_small_arms_and_mgs_only() -> None:
    data = scenario([unit("C", "allies", fig(1, 1)), unit("P", "allies", fig(1, 1)), unit("G", "axis", fig(24, 24))])
    data["terrain"] = [BAY]
    data["vehicles"] = [craft((10.0, 24.0))]
    game = make(data)
    got = {
        a
        for a in ("small_arms", "mg", "artillery", "flame_thrower", "bazooka")
        if R.cover(game.ctx.terrain, (24, 24), (10, 24), a)
    }
    assert got == {"small_arms", "mg"}
    shot = FI.shot_at(game.ctx, figure(game, "G.1"), figure(game, "P.1"))
    assert not isinstance(shot, tuple) and shot.cover


@pytest.mark.rule("skirmish.28")
def test_what_a_craft_carries_and_where_it_starts_are_checked_whole() -> None:
    data = scenario([unit("C", "allies", fig(1, 1)), unit("P", "allies", *[fig(1, 1) for _ in range(30)]), *FAR])
    data["terrain"] = [BAY]
    data["vehicles"] = [craft((24.0, 24.0))]
    text = "\n".join(check_scenario(data))
    assert "vehicles[0]: 31 men aboard: a landing_craft carries at most 30 (skirmish.23)" in text
    assert "vehicles[0].at: [24.0, 24.0]: a landing craft starts afloat, wholly on a pond or bay (skirmish.27)" in text
    data["units"][1]["figures"] = data["units"][1]["figures"][:29]
    data["vehicles"] = [craft((10.0, 24.0))]
    assert check_scenario(data) == []  # 30 men, afloat: a platoon and its coxswain
    data["vehicles"].append({"id": "T", "kind": "truck", "side": "allies", "at": [10.0, 10.0]})
    assert any("vehicles[1].at" in p and "a bay" in p for p in check_scenario(data))  # skirmish.50 still


# ---------------------------------------------------------------------------------- paratroops
def drop_game(*men: dict[str, Any], move: int = 1, terrain: list[dict[str, Any]] | None = None,
              others: list[dict[str, Any]] | None = None, dice: tuple[int, ...] = ()) -> SkirmishGame:  # fmt: skip
    data = scenario([unit("A", "allies", fig(40, 2)), unit("P", "allies", *men), *(others or FAR)], terrain or [])
    data["drops"] = [{"unit": "P", "move": move}]
    return make(data, *dice)


@pytest.mark.rule("skirmish.26")
def test_a_paratrooper_scatters_a_d6_inches_toward_a_d12_clock_hour() -> None:
    assert L.scatter((10.0, 10.0), 4, 6, 1.0) == (10.0, 6.0)  # 6 o'clock: south
    assert L.scatter((10.0, 10.0), 2, 1, 1.0) == (11.0, 11.73)  # 1 o'clock: 30 degrees east of north
    game = drop_game(fig(30, 10), fig(30, 20), dice=(3, 12, 5, 3))
    assert (figure(game, "P.1").x, figure(game, "P.1").y) == (30.0, 13.0)
    assert (figure(game, "P.2").x, figure(game, "P.2").y) == (35.0, 20.0)
    assert game.dice.remaining == 0  # type: ignore[attr-defined]
    drops = [e for e in game.take_events() if e.kind == "dropped"]
    assert [e.data["fate"] for e in drops] == ["landed", "landed"]


@pytest.mark.rule("skirmish.26")
def test_scatter_into_the_water_swims_on_five_and_drowns_below_and_heavy_weapons_go_down() -> None:
    # aimed 2" from the shore (x = 20): 1" west lands on the beach, 3" west in the bay
    game = drop_game(fig(22, 10), fig(22, 20), fig(22, 30), fig(22, 40, "mg"), terrain=[BAY],
                     dice=(1, 9, 3, 9, 5, 3, 9, 4, 3, 9))  # fmt: skip
    p = {n: figure(game, f"P.{n}") for n in range(1, 5)}
    assert p[1].alive and (p[1].x, p[1].y) == (21.0, 10.0) and not game.ctx.terrain.in_pond(21.0, 10.0)
    assert p[2].alive and (p[2].x, p[2].y) == (19.0, 20.0) and game.ctx.terrain.in_pond(19.0, 20.0)  # swims on 5
    assert not p[3].alive  # 4: drowned
    assert not p[4].alive  # his MG takes him down, no die (skirmish.53)
    assert game.state.stats["losses"]["allies"] == 2
    assert game.dice.remaining == 0  # type: ignore[attr-defined]


@pytest.mark.rule("skirmish.26")
def test_a_hard_landing_kills_on_a_one_and_off_the_table_a_man_is_lost() -> None:
    game = drop_game(fig(33, 28), fig(33, 27), fig(47, 10), fig(47, 20), terrain=[WOODS],
                     dice=(3, 12, 1, 3, 12, 2, 1, 3, 2, 3))  # fmt: skip
    p = {n: figure(game, f"P.{n}") for n in range(1, 5)}
    assert not p[1].alive  # into the trees at (33, 31), a 1: killed
    assert p[2].alive and (p[2].x, p[2].y) == (33.0, 30.0)  # a 2: he gets down and stays in the woods
    assert p[3].alive and (p[3].x, p[3].y) == (48.0, 10.0)  # 1" east: on the table's edge
    assert not p[4].alive and not p[4].on_table  # 2" east: off the table, lost
    fates = [e.data["fate"] for e in game.take_events() if e.kind == "dropped"]
    assert fates == ["killed in a hard landing", "got down", "landed", "lost off the table"]


@pytest.mark.rule("skirmish.26")
def test_a_man_never_lands_on_another_or_in_contact_with_the_enemy() -> None:
    game = drop_game(fig(30, 10), others=[unit("G", "axis", fig(30, 14))], dice=(3, 12))  # onto G.1's base
    p = figure(game, "P.1")
    gap = ((p.x - 30.0) ** 2 + (p.y - 14.0) ** 2) ** 0.5
    assert 1.01 < gap <= 1.26 and not any(ME.contacts(game.ctx).values())  # drifted to the nearest place out of contact


@pytest.mark.rule("skirmish.26")
def test_dropped_men_neither_move_nor_fire_until_the_next_move() -> None:
    game = drop_game(fig(30, 10), move=2, others=[unit("G", "axis", fig(30, 20))])
    assert not figure(game, "P.1").on_table and "move P" not in [d.id for d in game.pending()]
    script(game, 1, 12)  # move 2: P.1 comes down 1" north of his aim
    next_turn(game)
    assert (figure(game, "P.1").x, figure(game, "P.1").y) == (30.0, 11.0)
    assert "move P" not in [d.id for d in game.pending()]
    assert FI.can_fire(game.ctx, figure(game, "P.1")) == (
        "skirmish.26",
        "P.1 came down by parachute this move: he acts from the next",
    )
    refused = refusal(game, "Allies", Move("P", ((30.0, 14.0),)))
    assert "'move P' is not owed now" in str(refused)
    next_turn(game)
    assert "move P" in [d.id for d in game.pending()] and FI.can_fire(game.ctx, figure(game, "P.1")) is None


@pytest.mark.rule("skirmish.26")
def test_a_scenarios_drops_are_checked_whole() -> None:
    data = scenario([unit("A", "allies", fig(1, 1)), unit("P", "allies", fig(60, 10), enters=2), *FAR])
    data["drops"] = [{"unit": "P", "move": 30}, {"unit": "Q"}, {"unit": "P"}]
    text = "\n".join(check_scenario(data))
    for part in (
        "units[1].figures[0].at: [60.0, 10.0]: off the table (a paratrooper's at is where he aims: skirmish.26)",
        "drops[0].unit: 'P': enters = 2: a dropped unit comes by air on move 30; leave its enters out",
        "drops[0].move: 30: after the turn limit",
        "drops[1].unit: 'Q': no unit of that name (skirmish.26)",
        "drops[2].unit: 'P': dropped twice (skirmish.26)",
    ):
        assert part in text, f"{part!r} not in:\n{text}"


# ---------------------------------------------------------------------------------- the scenario
def test_the_landing_plays_to_a_result_with_doctrine_and_random_bots() -> None:
    from grognard.bots.random_bot import RandomBot

    assert load_scenario("landing").spec.drops
    for seed, bot_kind in ((1, DoctrineBot), (2, RandomBot), (3, DoctrineBot)):
        game = RULESET.create({"scenario": "landing"}, SeededDice(seed))
        bot = bot_kind(np.random.default_rng(seed))
        kinds: list[str] = [e.kind for e in game.take_events()]  # the stick comes down as move 1 begins
        play_out(
            game,
            lambda seat, bot=bot: bot,
            on_step=lambda d, a, events, kinds=kinds: kinds.extend(e.kind for e in events),
        )
        assert game.result is not None and game.result.outcome in ("win", "draw")
        assert "dropped" in kinds and "drove" in kinds
        if bot_kind is DoctrineBot:
            assert "unloaded" in kinds  # the doctrine runs its craft onto the beach and lands its men


def test_the_picture_draws_craft_afloat_or_grounded_drop_zones_and_scatter() -> None:
    from grognard.rulesets.skirmish import render_svg as render

    game = drop_game(fig(30, 10), fig(33, 28), move=2, terrain=[WOODS])
    svg = render(game.view(None))
    assert ">P drops on move 2</text>" in svg and svg.count("<title>P drops on move 2</title>") >= 2  # each aim
    script(game, 2, 3, 3, 12, 1)  # P.1 2" east; P.2 into the trees, killed
    next_turn(game)
    view = game.view(None)
    assert "drop_zones" not in view and [c["fate"] for c in view["chutes"]] == ["landed", "killed in a hard landing"]
    svg = render(view)
    assert ": killed in a hard landing</title>" in svg and "P.2 aimed at" in svg and "P drops" not in svg
    game = afloat_game()
    assert "(landing craft) LC, facing 0 deg (afloat): driver C.1, " in render(game.view(None))
    drive(game, "drive LC 17,24")
    assert " (grounded): driver " in render(game.view(None))


def test_the_turn_log_tells_each_paratroopers_drop() -> None:
    from grognard.rulesets.skirmish.describe import describe, summarize_turn

    game = drop_game(fig(22, 10), terrain=[BAY], dice=(3, 9, 4))
    events = [e for e in game.take_events() if e.kind == "dropped"]
    line = "P.1 jumps at (22, 10), scatters 3\" toward 9 o'clock to (19, 10): drowned, die 4"
    assert describe(events[0]) == line and line in summarize_turn(events)
