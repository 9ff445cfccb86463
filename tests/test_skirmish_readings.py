"""RULINGS S4 and S5 as options: each reading decided both ways by scripted dice, on both sides of its threshold.

The default is the RULINGS reading; the option plays the other one (``cover_six = hits``: a 6 always hits a man
in cover; ``wounds = last``: a man with a flesh wound dies at his next hit). Play (the game engine's real
``apply``), the odds tables, ``grognard odds -o`` and the records follow the option; at its default an option
is left out of the record and the state (quiet), so records made before it replay.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from grognard.analysis.odds import distribution_rows
from grognard.rulesets.skirmish import RULESET
from grognard.rulesets.skirmish.actions import Fire, Move
from grognard.rulesets.skirmish.analysis import odds_tables
from grognard.rulesets.skirmish.game import SkirmishGame
from odds_check import check
from terminal_driver import run_cli
from test_odds_in_play_skirmish import play_melee_to_end, play_shot, play_shots_to_kill
from test_skirmish_rules import fig, figure, hold_moves, make, scenario, unit


def woods_around(x: float, y: float) -> dict[str, Any]:
    return {"kind": "woods", "shape": [[x - 1.5, y - 1.5], [x + 1.5, y - 1.5], [x + 1.5, y + 1.5], [x - 1.5, y + 1.5]]}


def duel(weapon: str, distance: float, dice: tuple[int, ...], **options: str) -> SkirmishGame:
    """A.1 with ``weapon`` at (10, 10), G.1 ``distance`` north of him in woods; keepers far off; at the fire phase."""
    data = scenario(
        [
            unit("A", "allies", fig(10, 10, weapon)),
            unit("B", "allies", fig(46, 2)),
            unit("G", "axis", fig(10, 10 + distance)),
            unit("H", "axis", fig(46, 46, "pistol")),
        ],
        [woods_around(10, 10 + distance)],
        turn_limit=20,
    )
    game = make(data, *dice, options=options)
    hold_moves(game)
    return game


def fire_all(game: SkirmishGame, unit_id: str, target: str | None) -> list[Any]:
    """``unit_id`` fires at ``target``, every other owed fire order holds; the turn's events."""
    events: list[Any] = []
    while game.state.phase == "fire" and game.result is None:
        d = game.pending()[0]
        label = d.id.split()[1]
        events += game.apply(d.seat, Fire(label, target if label == unit_id else None))
    return events


@pytest.mark.rule("skirmish.32")
@pytest.mark.parametrize(
    ("weapon", "distance", "die", "options", "hit"),
    [
        ("pistol", 6.0, 6, {}, False),  # 4-8": only a 6 hits; in cover it counts 5 (RULINGS S4)
        ("pistol", 6.0, 6, {"cover_six": "hits"}, True),  # a 6 always hits
        ("pistol", 6.0, 5, {"cover_six": "hits"}, False),  # and only a 6
        ("rifle", 18.0, 5, {}, False),  # 12-24": 5+ hits; in cover the 5 counts 4
        ("rifle", 18.0, 5, {"cover_six": "hits"}, False),  # the option leaves a 5+ band alone
        ("rifle", 18.0, 6, {"cover_six": "hits"}, True),
    ],
)
def test_the_cover_six_option_lets_a_six_hit_a_man_in_cover_where_only_a_six_hits(
    weapon: str, distance: float, die: int, options: dict[str, str], hit: bool
) -> None:
    game = duel(weapon, distance, (die, 1), **options)  # a hit, then a survival roll of 1: dead
    events = fire_all(game, "A", "G")
    (shots,) = [e.data for e in events if e.kind == "shots"]
    assert shots["cover"] is True and shots["hits"] == int(hit)
    assert figure(game, "G.1").alive is not hit
    assert game.dice.remaining == (0 if hit else 1)  # a miss asks no survival roll


@pytest.mark.rule("skirmish.6", "skirmish.7")
@pytest.mark.parametrize(("options", "dead"), [({}, False), ({"wounds": "last"}, True)])
def test_the_wounds_option_kills_a_wounded_man_at_his_next_hit_in_a_later_turn(
    options: dict[str, str], dead: bool
) -> None:
    # turn 1: a hit (4+ at 6", no cover) and a flesh wound (5); turn 2: a hit again, then (the ruling) his roll, 5
    data = scenario(
        [unit("A", "allies", fig(10, 10)), unit("B", "allies", fig(46, 2)),
         unit("G", "axis", fig(10, 16)), unit("H", "axis", fig(46, 46, "pistol"))],
        turn_limit=20,
    )  # fmt: skip
    game = make(data, 4, 5, 4, 5, options=options)
    hold_moves(game)
    fire_all(game, "A", "G")
    assert figure(game, "G.1").wounds == 1 and game.state.turn == 2
    hold_moves(game)
    events = fire_all(game, "A", "G")
    assert figure(game, "G.1").alive is not dead
    assert game.dice.remaining == (1 if dead else 0)  # the option asks no survival roll
    if dead:
        (killed,) = [e.data for e in events if e.kind == "killed"]
        assert "flesh wound" in killed["why"], killed


@pytest.mark.rule("skirmish.70", "skirmish.7")
@pytest.mark.parametrize(("options", "dead"), [({}, False), ({"wounds": "last"}, True)])
def test_the_wounds_option_holds_in_melee(options: dict[str, str], dead: bool) -> None:
    # turn 1: G.1 wounds A.1 (4, then 5); turn 2: A.1 charges, misses (1), G.1 strikes back and hits (4): the
    # ruling rolls survival (5) and a second round both miss (1, 1); the option kills A.1 with no roll
    data = scenario(
        [unit("A", "allies", fig(10, 10)), unit("B", "allies", fig(46, 2)),
         unit("G", "axis", fig(10, 15)), unit("H", "axis", fig(46, 46, "pistol"))],
        turn_limit=20,
    )  # fmt: skip
    game = make(data, 4, 5, 1, 4, 5, 1, 1, options=options)
    hold_moves(game)
    fire_all(game, "G", "A")
    assert figure(game, "A.1").wounds == 1 and game.state.turn == 2
    game.apply("Allies", Move("A", ((10.0, 14.0),)))
    hold_moves(game)
    fire_all(game, "A", None)
    assert figure(game, "A.1").alive is not dead
    assert game.dice.remaining == (3 if dead else 0)


def _rows(name: str, **options: str) -> dict[Any, dict[Any, Fraction]]:
    table = next(t for t in odds_tables(None, options) if t.name == name)
    return {param: dict(distribution_rows(mechanic)) for param, mechanic in table.rows}


@pytest.mark.rule("skirmish.32", "skirmish.7")
def test_the_odds_tables_follow_the_options() -> None:
    assert _rows("shot_pistol")['4-8" cover'] == {"miss": Fraction(1)}
    assert _rows("shot_pistol", cover_six="hits")['4-8" cover'] == _rows("shot_pistol")['4-8" open']
    assert _rows("shot_rifle", cover_six="hits")['12-24" cover'] == _rows("shot_rifle")['12-24" cover']
    assert 'pistol 4-8"' not in _rows("shots_to_kill") and 'pistol 4-8"' in _rows("shots_to_kill", cover_six="hits")
    plain, lasting = _rows("shots_to_kill"), _rows("shots_to_kill", wounds="last")
    assert plain.keys() == lasting.keys()
    for param in plain:  # a lasting wound only shortens the shooting: the chance of a kill by each turn grows
        assert plain[param] != lasting[param]
        assert sum(lasting[param].get(k, 0) for k in range(1, 4)) > sum(plain[param].get(k, 0) for k in range(1, 4))
    melee, melee_last = _rows("melee_to_end"), _rows("melee_to_end", wounds="last")
    assert melee.keys() == melee_last.keys() and all(melee[k] != melee_last[k] for k in melee)
    assert all(sum(row.values()) == 1 for row in melee_last.values())
    note = next(t for t in odds_tables(None, {"wounds": "last"}) if t.name == "shots_to_kill").note
    assert "option wounds = last" in note


@pytest.mark.rule("skirmish.32", "skirmish.7")
def test_the_option_tables_are_what_play_does() -> None:
    """The rows the options change, played through the engine with the option (tests/odds_check.py)."""
    cases = [
        ("shot_pistol", '4-8" cover', lambda p, n: play_shot("pistol", {"cover_six": "hits"})(p, n), 300),
        ("shots_to_kill", 'pistol 4-8"', lambda p, n: play_shots_to_kill(p, n, {"cover_six": "hits"}), 60),
        ("shots_to_kill", 'rifle 0-12"', lambda p, n: play_shots_to_kill(p, n, {"wounds": "last"}), 200),
        ("melee_to_end", "1 v 1", lambda p, n: play_melee_to_end(p, n, {"wounds": "last"}), 300),
        ("melee_to_end", "2 v 1", lambda p, n: play_melee_to_end(p, n, {"wounds": "last"}), 300),
    ]
    options = {"cover_six": "hits", "wounds": "last"}
    tables = {t.name: dict(t.rows) for t in odds_tables(None, options)}
    for name, param, play, n in cases:
        check(play(param, n), distribution_rows(tables[name][param]), (name, param))


@pytest.mark.rule("skirmish.32", "skirmish.7")
def test_grognard_odds_takes_the_options() -> None:
    done = run_cli("odds", "skirmish", "--json", "--exact", "-o", "cover_six=hits", "--what", "shot_pistol")
    assert done.returncode == 0, done.stderr
    (table,) = json.loads(done.stdout)["tables"]
    row = next(r for r in table["rows"] if r["parameter"] == '4-8" cover')
    assert {o["outcome"]: o["probability"] for o in row["outcomes"]}["dead"] == "1/9"
    bad = run_cli("odds", "skirmish", "-o", "wounds=sometimes")
    assert bad.returncode == 2 and bad.stderr.strip() == "error: option 'wounds': 'sometimes' is not one of heal, last"


def test_a_reading_in_force_is_in_the_record_and_state_one_at_its_default_is_left_out(tmp_path: Path) -> None:
    assert "cover_six" not in RULESET.recorded(RULESET.resolve({}))
    assert RULESET.recorded(RULESET.resolve({"wounds": "last"}))["wounds"] == "last"
    game = duel("rifle", 6.0, ())
    assert "cover_six" not in game.state.options and "wounds" not in game.state.options
    assert duel("rifle", 6.0, (), wounds="last").state.options["wounds"] == "last"
    record = tmp_path / "last.jsonl"
    done = run_cli(
        "play", "skirmish", "--seed", "1", "-o", "wounds=last", "-o", "turn_limit=2", "--record", str(record), "-q"
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(record.read_text().splitlines()[0])["options"]["wounds"] == "last"
    replay = run_cli("replay", str(record))
    assert replay.returncode == 0 and "every die and digest matches the record" in replay.stdout, replay.stderr


@pytest.mark.rule("skirmish.7")
def test_simulate_plays_the_wounds_option() -> None:
    """Bot games as `grognard simulate` plays them (``montecarlo.play_one``'s path): with wounds = last no man
    lives on with two flesh wounds (the ruling allows it: seed 5's game 2 on village_street ended with two)."""
    import numpy as np

    from grognard.core.dice import BOTS, DICE, SeededDice, stream
    from grognard.core.play import play_out

    options = RULESET.resolve({"scenario": "village_street", "wounds": "last"})
    wounded_dead = 0
    for index in range(4):
        game = RULESET.new_game(options, SeededDice(stream(5, index, DICE)))
        rng = np.random.default_rng(stream(5, index, BOTS))
        bots = {side: RULESET.bots["doctrine"](rng) for side in RULESET.sides}
        play_out(game, lambda seat, g=game, b=bots: b[g.side_of(seat)], checked=False)
        figures = game.state.figures.values()
        assert not [f.id for f in figures if f.alive and f.wounds >= 2]
        wounded_dead += sum(1 for f in figures if not f.alive and f.wounds)
    assert wounded_dead
    done = run_cli("simulate", "skirmish", "-n", "1", "--jobs", "1", "--json", "-o", "wounds=last")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["plan"]["options"]["wounds"] == "last"


CLIFF = [
    {"kind": "hill", "id": "top", "height": 3.0, "shape": [[0, 40], [10, 40], [10, 48], [0, 48]]},
    {"kind": "cliff", "id": "C3", "height": 3.0, "line": [[0, 40], [10, 40]]},
]


def shelled_at_the_cliff_foot(dice: tuple[int, ...], **options: str) -> tuple[SkirmishGame, list[Any]]:
    """A.1 stands 2" south of a 3" cliff (its foot at y=40); an axis light gun at (5, 10), its crew beside it,
    shells (5, 37), on A.1's side of the cliff: the turn's events."""
    from grognard.rulesets.skirmish.actions import Burst
    from test_odds_in_play_skirmish import fire_burst

    data = scenario(
        [unit("A", "allies", fig(5, 38)), unit("B", "allies", fig(46, 2)),
         unit("C", "axis", fig(4, 10, type="crew"), fig(5, 9, type="crew")), unit("H", "axis", fig(46, 46))],
        CLIFF,
        turn_limit=20,
    )  # fmt: skip
    data["pieces"] = [{"id": "GUN", "weapon": "light_artillery", "at": [5.0, 10.0], "crew": "C"}]
    game = make(data, *dice, options=options)
    hold_moves(game)
    return game, fire_burst(game, Burst("GUN", (5.0, 37.0)))


@pytest.mark.rule("skirmish.40")
@pytest.mark.parametrize(("options", "covered"), [({}, False), ({"over_the_top": "all_round"}, True)])
def test_the_over_the_top_option_covers_a_man_by_a_cliff_wherever_the_shell_falls(
    options: dict[str, str], covered: bool
) -> None:
    # the ranging die 1 lands it; (the ruling) his effect die 6 hits, his survival roll 1: dead
    game, events = shelled_at_the_cliff_foot((1, 6, 1), **options)
    assert [e.data["under"] for e in events if e.kind == "burst_lands"] == [["A.1"]]
    why = [e.data["why"] for e in events if e.kind == "burst_covered"]
    assert bool(why) is covered and figure(game, "A.1").alive is covered
    assert game.dice.remaining == (2 if covered else 0)
    if covered:
        assert "cliff C3 (option over_the_top = all_round)" in why[0]


@pytest.mark.rule("skirmish.40")
def test_the_over_the_top_option_still_needs_the_two_inches_and_the_height() -> None:
    from grognard.rulesets.skirmish import structures as ST

    data = scenario(
        [unit("A", "allies", fig(5, 38), fig(7, 37.98)), unit("G", "axis", fig(46, 46))], CLIFF, turn_limit=20
    )
    game = make(data, options={"over_the_top": "all_round"})
    a1, a2 = figure(game, "A.1"), figure(game, "A.2")
    assert ST.artillery_cover(game.ctx, a1, (5, 34), "heavy_artillery") is not None  # the burst on his side
    assert ST.artillery_cover(game.ctx, a1, (5, 38), "heavy_artillery") is not None  # even on him
    assert ST.artillery_cover(game.ctx, a2, (7, 34), "heavy_artillery") is None  # 2.02" off
    assert ST.artillery_cover(game.ctx, a1, (5, 34), "mortar") is None  # never from mortars (skirmish.41)
    plain = make(data)
    assert ST.artillery_cover(plain.ctx, figure(plain, "A.1"), (5, 34), "heavy_artillery") is None  # RULINGS S14
    assert ST.artillery_cover(plain.ctx, figure(plain, "A.1"), (5, 44), "heavy_artillery") is not None


def shelled_house(second: int, dice: tuple[int, ...], **options: str) -> tuple[SkirmishGame, list[Any]]:
    """A light gun at (10, 10) (crew of two) shells a house 20" north whose one section has a first storey of
    20 points and a second down to ``second``; the shot lands just short of its face, touching it."""
    from grognard.rulesets.skirmish.actions import Burst
    from test_odds_in_play_skirmish import fire_burst

    house = {
        "kind": "building",
        "id": "HS",
        "shape": [[8, 28], [12, 28], [12, 32], [8, 32]],
        "sections": [{"id": "HS.a", "shape": [[8, 28], [12, 28], [12, 32], [8, 32]],
                      "storeys": [{"points": 20}, {"points": 10}]}],
    }  # fmt: skip
    data = scenario(
        [unit("C", "allies", fig(9, 10, type="crew"), fig(10, 9, type="crew")), unit("B", "allies", fig(46, 2)),
         unit("H", "axis", fig(46, 46, "pistol"))],
        [house],
        turn_limit=20,
    )  # fmt: skip
    data["pieces"] = [{"id": "GUN", "weapon": "light_artillery", "at": [10.0, 10.0], "crew": "C"}]
    game = make(data, *dice, options=options)
    game.state.sections["HS.a"] = [20, second]
    game.changed()
    game.ctx.structures_changed()
    hold_moves(game)
    return game, fire_burst(game, Burst("GUN", (10.0, 27.5)))


@pytest.mark.rule("skirmish.91", "skirmish.17")
@pytest.mark.parametrize(
    ("second", "dice", "options", "left"),
    [
        (3, (2, 3, 4), {}, [20, 0]),  # 7 off a second storey of 3: the rest is lost (RULINGS S7)
        (3, (2, 3, 4), {"storey_damage": "carries"}, [16, 0]),  # the rest, 4, comes off the first
        (7, (2, 3, 4), {"storey_damage": "carries"}, [20, 0]),  # exactly its points: nothing to carry
        (8, (2, 3, 4), {"storey_damage": "carries"}, [20, 1]),
    ],
)
def test_the_storey_damage_option_carries_a_shells_rest_to_the_storey_below(
    second: int, dice: tuple[int, ...], options: dict[str, str], left: list[int]
) -> None:
    # the ranging die 2 lands the light gun's shell (18-36": 3 or less); its 2d6 are 3 and 4
    game, events = shelled_house(second, dice, **options)
    assert game.state.sections["HS.a"] == left
    hits = [(e.data["storey"], e.data["lost"]) for e in events if e.kind == "structure_hit"]
    assert hits == ([(2, 7)] if left[0] == 20 else [(2, second), (1, 7 - second)])


# ---------------------------------------------------------------------------------- RULINGS S8: "a 1 from artillery"
@pytest.mark.rule("skirmish.77")
@pytest.mark.parametrize(
    ("artillery_one", "ranging_die", "damage_dice", "blown"),
    [
        ("ranging", 1, (3, 4), True),  # RULINGS S8: the ranging die's 1
        ("ranging", 2, (1, 4), False),  # a 1 on a damage die is nothing
        ("damage_die", 1, (3, 4), False),  # the other reading: the ranging die's 1 is nothing
        ("damage_die", 2, (1, 4), True),  # a 1 on either damage die of the door's section
        ("damage_die", 2, (4, 1), True),
        ("damage_die", 2, (2, 2), False),
    ],
)
def test_the_artillery_one_option_blows_a_door_on_the_ranging_dies_one_or_a_damage_dies(
    artillery_one: str, ranging_die: int, damage_dice: tuple[int, int], blown: bool
) -> None:
    from grognard.rulesets.skirmish import shelling as SH
    from test_skirmish_structures import HOUSE, burst

    data = scenario([unit("A", "allies", fig(5, 5)), unit("G", "axis", fig(46, 46))], [HOUSE])
    game = make(data, *damage_dice, options={"artillery_one": artillery_one})  # H.a's 2d6 (the door D is in it)
    assert SH.door_section(game.ctx, "D") == "H.a"
    SH.shell(game.ctx, burst(22, 19, 2.0), (22, 19), "heavy_artillery", ranging_die)
    assert game.state.doors["D"].blown is blown and game.state.sections["H.a"][1] == 10 - sum(damage_dice)


@pytest.mark.rule("skirmish.75")
@pytest.mark.parametrize(
    ("artillery_one", "ranging_die", "damage_dice", "points"),
    [
        ("ranging", 1, (3, 4), 30 - 7 - 5),  # RULINGS S8: 7 and the cannon's 5
        ("ranging", 2, (1, 4), 30 - 5),
        ("damage_die", 1, (3, 4), 30 - 7),
        ("damage_die", 2, (1, 4), 30 - 5 - 5),
    ],
)
def test_the_artillery_one_option_reads_a_cannon_hit_by_a_one_alike(
    artillery_one: str, ranging_die: int, damage_dice: tuple[int, int], points: int
) -> None:
    from shapely.geometry import box

    from grognard.rulesets.skirmish import shelling as SH
    from test_skirmish_castles import CASTLE, FAR

    data = scenario([unit("A", "allies", fig(20, 10)), unit("G", "axis", fig(27, 31), fig(28, 31)), FAR], CASTLE)
    data["pieces"] = [{"id": "C", "weapon": "light_artillery", "at": [27.5, 30], "crew": "G"}]
    game = make(data, *damage_dice, options={"artillery_one": artillery_one})
    SH.shell(game.ctx, box(26, 29, 29, 31), (27.5, 30), "heavy_artillery", ranging_die)
    assert game.state.walls["W.b"] == points


@pytest.mark.rule("skirmish.77")
def test_the_odds_of_a_one_from_artillery_follow_the_option() -> None:
    def rows(**options: str) -> dict[str, Fraction]:
        table = next(t for t in odds_tables(None, options) if t.name == "artillery_one")
        return {p: dict(distribution_rows(m))[True] for p, m in table.rows}

    assert rows() == {"lands on 4 or less": Fraction(1, 4), "lands on 3 or less": Fraction(1, 3),
                      "lands on 2 or less": Fraction(1, 2)}  # fmt: skip
    assert set(rows(artillery_one="damage_die").values()) == {Fraction(11, 36)}
    done = run_cli("odds", "skirmish", "--json", "--exact", "-o", "artillery_one=damage_die", "--what", "artillery_one")
    assert done.returncode == 0 and '"11/36"' in done.stdout
