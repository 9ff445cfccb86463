"""RULINGS B1-B3 as options: each reading decided both ways by scripted dice, on both sides of its threshold.

The default is the RULINGS reading; the option plays the other one. Play (the game engine's real ``apply``),
the odds tables and ``grognard odds -o`` follow the option.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from grognard.analysis.odds import distribution_rows
from grognard.rulesets.b17.actions import Fly
from grognard.rulesets.b17.analysis import odds_tables
from terminal_driver import run_cli
from test_b17_rules import BOMBER, RUN, RUN_MOVE, american, first, german, scene


@pytest.mark.rule("b17.40")
@pytest.mark.parametrize(
    ("dice", "doubled", "outcome"),
    [
        ((5, 1), "at_least", "destroyed"),  # 8 against 4: exactly twice
        ((5, 1), "more_than", "damaged"),
        ((6, 1), "at_least", "destroyed"),  # 9 against 4: more than twice
        ((6, 1), "more_than", "destroyed"),
        ((4, 1), "at_least", "damaged"),  # 7 against 4: less than twice
        ((4, 1), "more_than", "damaged"),
    ],
)
def test_the_doubled_option_reads_exactly_twice_as_destroyed_or_as_damaged(
    dice: tuple[int, int], doubled: str, outcome: str
) -> None:
    game = scene(BOMBER, {"F1": (50.0, 36.0, -90.0)}, dice=(*dice, 1, 6, 1, 6, 1, 6), doubled=doubled)
    events = german(game, Fly("F1", 14.0, 0.0, "B1", 1.5))
    assert first(events, "attack")["outcome"] == outcome
    assert game.aircraft("B1").status == ("destroyed" if outcome == "destroyed" else "flying")


@pytest.mark.rule("b17.57", "b17.58", "b17.59")
@pytest.mark.parametrize(
    ("dice", "options", "hits"),
    [
        ((3, 3), {}, 0),  # a tie: no hit (RULINGS B2)
        ((3, 3), {"bomb_tie": "hit"}, 1),
        ((2, 3), {"bomb_tie": "hit"}, 0),  # the target higher: no hit either way
        ((4, 3), {"bomb_tie": "hit"}, 1),
        ((4, 2), {}, 2),  # exactly twice: two hits (RULINGS B1)
        ((4, 2), {"doubled": "more_than"}, 1),
        ((5, 2), {"doubled": "more_than"}, 2),
    ],
)
def test_the_bomb_tie_and_doubled_options_decide_a_bomb_roll(
    dice: tuple[int, int], options: dict[str, str], hits: int
) -> None:
    game = scene(RUN, phase="bombers", dice=(1, 6, *dice, 1, 6, 1, 6, 1, 6), **options)
    events = american(game, RUN_MOVE)
    assert first(events, "bombs")["rolls"] == [hits, 0, 0, 0]
    assert game.state.hits == hits


@pytest.mark.rule("b17.53", "b17.54", "b17.55", "b17.56")
@pytest.mark.parametrize(
    ("dice", "flak_dice", "outcome", "bomber_score"),
    [
        ((3, 2), "bare", "damaged", 2),
        ((3, 2), "bomber_defence", "no damage", 5),  # 3 against 2 + 3
        ((4, 1), "bomber_defence", "no damage", 4),  # a tie: no damage
        ((5, 1), "bomber_defence", "damaged", 4),  # the AA one higher
        ((6, 1), "bare", "destroyed", 1),
        ((6, 1), "bomber_defence", "damaged", 4),  # 6 never doubles 4
    ],
)
def test_the_flak_dice_option_adds_the_bombers_defence_or_not(
    dice: tuple[int, int], flak_dice: str, outcome: str, bomber_score: int
) -> None:
    game = scene(RUN, phase="bombers", dice=(*dice, *(1, 6) * 4), flak_dice=flak_dice)
    events = american(game, RUN_MOVE)
    flak = first(events, "flak")
    assert (flak["outcome"], flak["bomber_score"]) == (outcome, bomber_score)
    assert game.aircraft("B1").bombed is (outcome != "destroyed")


@pytest.mark.rule("b17.55")
@pytest.mark.parametrize(
    ("dice", "flak_damage", "outcome", "bombs"),
    [
        ((3, 2), "bombs", "damaged", True),  # a damaged bomber still bombs (RULINGS B6)
        ((3, 2), "breaks_off", "damaged", False),  # it breaks off its run
        ((2, 2), "breaks_off", "no damage", True),  # a tie: no damage, the bomb run continues
        ((2, 3), "breaks_off", "no damage", True),
    ],
)
def test_the_flak_damage_option_lets_a_damaged_bomber_bomb_or_breaks_off_its_run(
    dice: tuple[int, int], flak_damage: str, outcome: str, bombs: bool
) -> None:
    game = scene(RUN, phase="bombers", dice=(*dice, *(6, 1) * 4), flak_damage=flak_damage)
    events = american(game, RUN_MOVE)
    assert first(events, "flak")["outcome"] == outcome
    bomber = game.aircraft("B1")
    assert bomber.bombed is bombs and bomber.flying and game.state.hits == (8 if bombs else 0)
    assert any(e.kind == "breaks_off" for e in events) is (not bombs)
    assert game.dice.remaining == (0 if bombs else 8)  # no bomb rolls after breaking off
    assert ("broke_off" in bomber.to_json()) is (not bombs)  # quiet: a state at the ruling is as it was


@pytest.mark.rule("b17.39")
@pytest.mark.parametrize(
    ("out", "fourth_engine", "status"),
    [
        (3, "flies_on", "flying"),  # RULINGS B4: the fourth engine goes, the bomber flies on
        (4, "flies_on", "destroyed"),  # and the damage after it destroys it
        (3, "destroys", "destroyed"),  # the other reading: the damage that takes the fourth destroys it
        (2, "destroys", "flying"),  # the third still only takes an engine
    ],
)
def test_the_fourth_engine_option_destroys_a_b17_on_its_fourth_damage_or_the_next(
    out: int, fourth_engine: str, status: str
) -> None:
    # 3 + 3 = 6 against 2 + 3 = 5: less, not doubled, "damaged"; then the gunners miss (1 against 6)
    game = scene(BOMBER, {"F1": (50.0, 36.0, -90.0)}, dice=(3, 2, *(1, 6) * 4), fourth_engine=fourth_engine)
    game.aircraft("B1").damaged = [1, 4, 2, 3][:out]
    game.changed()
    events = german(game, Fly("F1", 14.0, 0.0, "B1", 1.5))
    assert first(events, "attack")["outcome"] == "damaged"
    bomber = game.aircraft("B1")
    assert bomber.status == status
    assert len(bomber.damaged) == (out + 1 if status == "flying" else out)


@pytest.mark.rule("b17.39")
@pytest.mark.parametrize("fourth_engine", ["flies_on", "destroys"])
def test_a_fighters_one_engine_out_never_downs_it_under_either_reading(fourth_engine: str) -> None:
    # the attack misses (1 against 6); the first gunner's 4 + 1 = 5 against 2 + 2 = 4 damages F1 (its one engine)
    game = scene(BOMBER, {"F1": (50.0, 36.0, -90.0)}, dice=(1, 6, 4, 2, *(1, 6) * 4), fourth_engine=fourth_engine)
    german(game, Fly("F1", 14.0, 0.0, "B1", 1.5))
    fighter = game.aircraft("F1")
    assert fighter.damaged == [1] and fighter.status != "destroyed"


def _table(name: str, **options: str) -> dict[object, Fraction]:
    table = next(t for t in odds_tables(options) if t.name == name)
    return dict(distribution_rows(table.rows[0][1]))


@pytest.mark.rule("b17.40", "b17.53", "b17.57")
def test_the_odds_tables_follow_the_options() -> None:
    assert _table("bomb") == {0: Fraction(21, 36), 1: Fraction(6, 36), 2: Fraction(9, 36)}
    assert _table("bomb", bomb_tie="hit") == {0: Fraction(15, 36), 1: Fraction(12, 36), 2: Fraction(9, 36)}
    strict = _table("bomb", doubled="more_than")
    assert strict[2] == Fraction(6, 36)  # 3-1, 4-1, 5-1, 6-1, 5-2, 6-2
    flak = _table("flak", flak_dice="bomber_defence")
    assert flak == {"no damage": Fraction(33, 36), "damaged": Fraction(3, 36)}
    assert _table("attack", doubled="more_than")["destroyed"] < _table("attack")["destroyed"]
    load = next(t for t in odds_tables({"flak_damage": "breaks_off"}) if t.name == "bomb_load_flak").rows[0][1]
    assert dict(distribution_rows(load))[0] == 1 - Fraction(21, 36) * (
        1 - _table("bomb_load")[0]
    )  # only undamaged (21/36) drop
    # fourth_engine = destroys: the last row is a bomber with 3 engines out, where "damaged" destroys
    attack = {p: dict(distribution_rows(m)) for p, m in next(t for t in odds_tables({}) if t.name == "attack").rows}
    other = next(t for t in odds_tables({"fourth_engine": "destroys"}) if t.name == "attack")
    assert {p: dict(distribution_rows(m)) for p, m in other.rows}["plain, 3 engines out"] == attack[
        "plain, 4 engines out"
    ]
    assert attack["plain, 4 engines out"]["destroyed"] == Fraction(15, 36) and "not RULINGS B4" in other.note


@pytest.mark.rule("b17.57")
def test_grognard_odds_takes_the_options() -> None:
    done = run_cli("odds", "b17", "--json", "-o", "bomb_tie=hit")
    assert done.returncode == 0, done.stderr
    bomb = next(t for t in json.loads(done.stdout)["tables"] if t["name"] == "bomb")
    assert {o["outcome"]: o["probability"] for o in bomb["rows"][0]["outcomes"]} == {0: "5/12", 1: "1/3", 2: "1/4"}
    bad = run_cli("odds", "b17", "-o", "bomb_tie=sometimes")
    assert (
        bad.returncode == 2 and bad.stderr.strip() == "error: option 'bomb_tie': 'sometimes' is not one of no_hit, hit"
    )


@pytest.mark.rule("b17.40", "b17.57")
def test_a_reading_in_force_is_in_the_record_and_replays_one_at_its_default_is_left_out(tmp_path: Path) -> None:
    other, default = tmp_path / "tie.jsonl", tmp_path / "default.jsonl"
    assert run_cli("play", "b17", "--seed", "1", "-o", "bomb_tie=hit", "--record", str(other), "-q").returncode == 0
    assert run_cli("play", "b17", "--seed", "1", "--record", str(default), "-q").returncode == 0
    assert json.loads(other.read_text().splitlines()[0])["options"]["bomb_tie"] == "hit"
    assert "bomb_tie" not in json.loads(default.read_text().splitlines()[0])["options"]  # older records replay
    for record in (other, default):
        done = run_cli("replay", str(record))
        assert done.returncode == 0 and "every die and digest matches the record" in done.stdout, done.stderr


@pytest.mark.rule("b17.57")
def test_simulate_plays_the_bomb_tie_option() -> None:
    """The same seeded games with a tie scoring a hit: the dice are the same (a bomb roll always takes two
    dice), so each game's hits can only grow, and grow somewhere; `grognard simulate` reports it."""
    from grognard.analysis.montecarlo import play_one
    from grognard.rulesets.b17 import RULESET

    bots = {"american": "doctrine", "german": "doctrine"}
    plain = [play_one(RULESET, RULESET.resolve({}), bots, 5, i)["bomb_hits"] for i in range(8)]
    tie = [play_one(RULESET, RULESET.resolve({"bomb_tie": "hit"}), bots, 5, i)["bomb_hits"] for i in range(8)]
    assert all(t >= p for t, p in zip(tie, plain, strict=True)) and sum(tie) > sum(plain)
    means = []
    for options in ((), ("-o", "bomb_tie=hit")):
        done = run_cli("simulate", "b17", "-n", "8", "--seed", "5", "--jobs", "1", "--json", *options)
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout)
        means.append(data["figures"]["metrics"]["bomb_hits"]["mean"])
    assert means == [sum(plain) / 8, sum(tie) / 8]


@pytest.mark.rule("b17.55")
def test_simulate_plays_the_flak_damage_option() -> None:
    """Bot raids as `grognard simulate` plays them (``montecarlo.play_one``'s path) with flak_damage =
    breaks_off: a bomber the flak damaged drops nothing and the raid still ends (B18)."""
    import numpy as np

    from grognard.core.dice import BOTS, DICE, SeededDice, stream
    from grognard.core.play import play_out
    from grognard.rulesets.b17 import RULESET

    broke = 0
    for index in range(6):
        game = RULESET.new_game(RULESET.resolve({"flak_damage": "breaks_off"}), SeededDice(stream(5, index, DICE)))
        rng = np.random.default_rng(stream(5, index, BOTS))
        bots = {side: RULESET.bots["doctrine"](rng) for side in RULESET.sides}
        result = play_out(game, lambda seat, g=game, b=bots: b[g.side_of(seat)], checked=False)
        assert result.outcome == "win"
        for b in game.state.bombers():
            assert not (b.broke_off and (b.bombed or b.hits)), b.label
            broke += b.broke_off
        assert game.state.hits == sum(b.hits for b in game.state.bombers())
    assert broke
