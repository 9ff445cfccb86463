"""Skirmish part 2: melee, rule by rule (docs/rules/skirmish.md), scripted dice on both sides of every threshold."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grognard.core.dice import SeededDice
from grognard.core.errors import IllegalAction
from grognard.core.record import SEALED, WITHHELD, RecordWriter, make_header, readable_by
from grognard.rulesets.skirmish import mechanics as MX
from grognard.rulesets.skirmish import melee as ME
from grognard.rulesets.skirmish.actions import Choice, Fire, Move, action_from_json, parse_action
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.game import SkirmishGame
from test_skirmish_rules import fig, figure, fire, make, refusal, scenario, script, unit


def lines(a: tuple[float, float] = (10, 10), g: tuple[float, float] = (10, 15)) -> SkirmishGame:
    """A.1 and G.1 face each other; B and H far away keep each side in the game. Allies move first."""
    return make(
        scenario(
            [
                unit("A", "allies", fig(*a)),
                unit("B", "allies", fig(46, 2)),
                unit("G", "axis", fig(*g)),
                unit("H", "axis", fig(46, 46, "pistol")),
            ]
        )
    )


def charge(*dice: int) -> tuple[SkirmishGame, list[Any]]:
    """A.1 charges G.1 (their bases touch at 1"), nobody fires; the melee is fought with ``dice``."""
    game = lines()
    game.apply("Allies", Move("A", ((10.0, 14.0),)))
    left = script(game, *dice)
    events = fire(game)
    assert left.remaining == 0, "not every scripted die was used"
    return game, events


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events if e.kind not in ("dice",)]


def both_miss() -> SkirmishGame:
    game, _ = charge(3, 3)  # A.1 misses, G.1 strikes back and misses
    return game


def choose(game: SkirmishGame, allies: str, axis: str) -> list[Any]:
    events = game.apply("Allies", Choice("M1", allies))
    return events + game.apply("Axis", Choice("M2", axis))


# ---------------------------------------------------------------------------------- contact and groups
@pytest.mark.rule("skirmish.66")
def test_men_whose_bases_touch_fight_and_a_group_has_at_most_ten_men() -> None:
    allies = [fig(10 + i, 10) for i in range(11)]  # a line of 11, shoulder to shoulder
    axis = [fig(10.5 + i, 12.5) for i in range(11)]
    game = make(scenario([unit("A", "allies", *allies), unit("G", "axis", *axis)]))
    game.apply("Allies", Move("A"))
    game.apply("Axis", Move("G", ((10.5, 10.87),)))  # each man touches two (1.003" apart): one melee
    assert len(ME.melees_now(game.ctx)) == 1 and len(ME.melees_now(game.ctx)[0]) == 22
    script(game, *[1] * 22)  # the attacker (axis, who charged) and the defender all miss
    fire(game)
    groups = game.state.groups
    assert [len(groups[g]) for g in ("M1", "M2", "M3", "M4")] == [10, 1, 10, 1]
    assert {figure(game, f).side for f in groups["M1"] + groups["M2"]} == {"axis"}
    assert sorted(d.id for d in game.pending()) == ["melee M1", "melee M2", "melee M3", "melee M4"]
    assert all(d.secret_group == "melee 1" for d in game.pending())


@pytest.mark.rule("skirmish.66")
def test_a_man_just_over_a_base_away_is_not_in_melee() -> None:
    game = lines()
    game.apply("Allies", Move("A", ((10.0, 13.98),)))  # 1.02" apart: no contact
    events = fire(game)
    assert "melee_round" not in kinds(events) and game.state.turn == 2


@pytest.mark.rule("skirmish.67")
def test_men_killed_by_fire_are_removed_before_the_melee() -> None:
    game = lines()
    game.apply("Allies", Move("A", ((10.0, 14.0),)))
    script(game, 6, 1)  # A.1 fires at G.1 first: hits (6), G fails his survival roll (1); no melee die is asked
    events = fire(game, Fire("A", "G"))
    assert not figure(game, "G.1").alive and "melee_round" not in kinds(events)
    game = lines()
    game.apply("Allies", Move("A", ((10.0, 14.0),)))
    script(game, 1, 4)  # the shot misses (1): G.1 stands and the melee follows; A's hit kills him (4)
    events = fire(game, Fire("A", "G"))
    assert not figure(game, "G.1").alive and "melee_round" in kinds(events)


# ---------------------------------------------------------------------------------- the first round
@pytest.mark.rule("skirmish.69")
def test_first_round_the_attackers_hit_kills_outright_and_the_dead_do_not_strike_back() -> None:
    game, events = charge(4)  # 4+ hits: G.1 dead, no survival roll, no blow back
    assert not figure(game, "G.1").alive and figure(game, "A.1").alive
    assert kinds(events).count("melee_strike") == 1
    assert game.state.engaged == {} and game.state.turn == 2


@pytest.mark.rule("skirmish.69")
def test_first_round_a_miss_lets_the_defender_strike_and_his_hit_makes_the_attacker_roll_survival() -> None:
    # A misses (3); G hits (4); A survives on 5; a hit was scored, so round 2 follows: both miss (3, 3)
    game, _ = charge(3, 4, 5, 3, 3)
    assert figure(game, "A.1").alive and figure(game, "A.1").wounds == 1
    assert figure(game, "G.1").alive and game.state.groups == {"M1": ["A.1"], "M2": ["G.1"]}
    game, _ = charge(3, 4, 4)  # A misses; G hits; A fails survival on 4
    assert not figure(game, "A.1").alive and figure(game, "G.1").alive
    assert game.state.engaged == {}


@pytest.mark.rule("skirmish.69")
def test_when_both_miss_each_group_owes_a_secret_stay_or_retreat() -> None:
    game = both_miss()
    assert game.state.phase == "melee" and game.state.groups == {"M1": ["A.1"], "M2": ["G.1"]}
    pending = {d.id: d for d in game.pending()}
    assert set(pending) == {"melee M1", "melee M2"}
    assert pending["melee M1"].seat == "Allies" and pending["melee M2"].seat == "Axis"


# ---------------------------------------------------------------------------------- later rounds
@pytest.mark.rule("skirmish.70")
def test_later_rounds_a_hit_allows_survival_and_the_dead_strike_back_before_removal() -> None:
    # round 1: A misses, G hits, A survives (6); round 2: A hits (4), G fails survival (4) yet strikes back
    # before he is removed: hits (4), and A, hit twice this turn, dies with no roll: both die together
    game, _ = charge(3, 4, 6, 4, 4, 4)
    assert not figure(game, "A.1").alive and not figure(game, "G.1").alive
    # round 2: A hits, G survives on 5 and strikes back: misses (3); round 3: A misses (3), G misses (3): choose
    game, _ = charge(3, 4, 6, 4, 5, 3, 3, 3)
    assert figure(game, "G.1").alive and figure(game, "G.1").wounds == 1
    assert game.state.groups == {"M1": ["A.1"], "M2": ["G.1"]}


@pytest.mark.rule("skirmish.70", "skirmish.7")
def test_a_second_hit_in_one_turn_kills_in_melee_as_in_fire() -> None:
    # round 1: A misses, G hits, A survives (5); round 2: A misses, G hits again: A's second hit this turn
    game, _ = charge(3, 4, 5, 3, 4)
    assert not figure(game, "A.1").alive


@pytest.mark.rule("skirmish.70")
def test_when_both_stay_the_melee_goes_on_next_turn_as_a_later_round() -> None:
    game = both_miss()
    choose(game, "stay", "stay")
    assert game.state.turn == 2 and game.state.engaged == {"A.1": "allies", "G.1": "allies"}
    error = refusal(game, "Allies", Move("A", ((10.0, 9.0),)))  # a man in melee does not walk away
    assert error.rule == "skirmish.68"
    game.apply("Allies", Move("A"))
    # round 2: A hits (4), G fails survival (4, needs 5+); G strikes back before removal: hits (4); A survives (5)
    script(game, 4, 4, 4, 5)
    fire(game)
    assert not figure(game, "G.1").alive and figure(game, "A.1").alive and figure(game, "A.1").wounds == 1


# ---------------------------------------------------------------------------------- retreat
@pytest.mark.rule("skirmish.68")
def test_a_retreat_is_a_full_move_straight_away_from_the_enemy() -> None:
    game = both_miss()
    events = choose(game, "retreat", "stay")
    assert (figure(game, "A.1").x, figure(game, "A.1").y) == (10.0, 8.0)  # 6" straight back from G.1
    assert (figure(game, "G.1").x, figure(game, "G.1").y) == (10.0, 15.0)
    assert "retreats" in kinds(events) and game.state.engaged == {} and game.state.turn == 2
    retreat = next(e for e in events if e.kind == "retreats")
    assert retreat.to is None and retreat.data["at"] == [10.0, 8.0]  # public, seen by both seats
    assert ME.retreat_point(game.ctx, figure(game, "A.1")) is None  # nobody touches him now


@pytest.mark.rule("skirmish.68")
def test_a_retreat_is_cut_short_by_the_table_edge() -> None:
    game = lines(a=(10, 5), g=(10, 10))
    game.apply("Allies", Move("A", ((10.0, 9.0),)))
    script(game, 3, 3)
    fire(game)
    choose(game, "retreat", "retreat")
    a, g = figure(game, "A.1"), figure(game, "G.1")
    assert (a.x, a.y) == (10.0, 3.0)  # both retreat from where the melee stood: a full 6" each
    game = lines(a=(10, 1), g=(10, 5))
    game.apply("Allies", Move("A", ((10.0, 4.0),)))
    script(game, 3, 3)
    fire(game)
    choose(game, "retreat", "stay")
    assert figure(game, "A.1").y == 0.0  # 6" would leave the table (y=-2): cut short to its edge
    assert (g.x, g.y) == (10.0, 16.0)


# ---------------------------------------------------------------------------------- the secret choice
@pytest.mark.rule("skirmish.66")
def test_the_melee_choice_reads_and_writes_back() -> None:
    action = parse_action("melee m1 retreat")
    assert action == Choice("M1", "retreat") and str(action) == "melee M1 retreat"
    assert action_from_json(action.to_json()) == action
    game = both_miss()
    with pytest.raises(IllegalAction):
        game.apply("Axis", Choice("M1", "stay"))  # M1 is the Allies' group


def seen_by(game: SkirmishGame, seat: str, events: list[Any], record: RecordWriter | None = None) -> str:
    """Everything ``seat`` may read: its view, the picture drawn of it, the events (as the web pages get them),
    the terminal's log lines, and the record as the seat may read it."""
    from grognard.rulesets import get
    from grognard.rulesets.skirmish import render_svg as render
    from grognard.rulesets.skirmish.describe import describe
    from grognard.web.faces import event_json

    view = game.view(seat)
    visible = [e for e in events if e.visible_to(seat)]
    channels = {
        "view": view,
        "svg": render(view),
        "events": [e.to_json() for e in visible],
        "web": [event_json(get("skirmish"), e, i) for i, e in enumerate(visible)],
        "log": [describe(e) for e in visible],
        "record": readable_by(record.lines, seat) if record is not None else None,
    }
    return json.dumps(channels, sort_keys=True)


def recorded(game: SkirmishGame) -> RecordWriter:
    """A record of ``game`` from now on (the header and a start line)."""
    writer = RecordWriter(make_header("skirmish", game.state.options, "scripted"))
    writer.start(game, [])
    return writer


@settings(max_examples=12, derandomize=True, deadline=None)
@given(st.booleans(), st.sampled_from(["stay", "retreat"]), st.sampled_from(["stay", "retreat"]))
def test_a_committed_choice_never_reaches_the_other_seat_before_the_reveal(
    allies_first: bool, mine: str, theirs: str
) -> None:
    seat, group, other_seat = ("Allies", "M1", "Axis") if allies_first else ("Axis", "M2", "Allies")
    seen: dict[str, str] = {}
    for choice in ("stay", "retreat"):
        game = both_miss()
        record = recorded(game)
        events = game.apply(seat, Choice(group, choice))
        record.action(game, seat, Choice(group, choice), events)
        assert any(e.kind == "sealed" and e.visible_to(seat) for e in events)
        assert record.lines[-1]["action"].endswith(choice), "the full record keeps the choice (for replay)"
        mine_read = readable_by(record.lines, seat)[-1]
        assert mine_read["action"].endswith(choice) and mine_read["digest"] == record.lines[-1]["digest"]
        seen[choice] = seen_by(game, other_seat, events, record)
        theirs_read = readable_by(record.lines, other_seat)[-1]
        assert theirs_read["action"] == SEALED and theirs_read["digest"] == WITHHELD
        assert readable_by(record.lines, None)[-1]["action"] == SEALED
        assert "sealed" not in seen[choice] or choice not in json.loads(seen[choice])["events"]
        assert game.sealed_json(other_seat)[f"melee {game.state.turn}"][f"melee {group}"]["action"] == "chosen"
    assert seen["stay"] == seen["retreat"], "the other seat could tell the choices apart"
    # and a spectator sees nothing either
    game = both_miss()
    record = recorded(game)
    events = game.apply(seat, Choice(group, mine))
    record.action(game, seat, Choice(group, mine), events)
    assert not any(e.kind == "sealed" for e in events if e.visible_to(other_seat) or e.visible_to(None))
    other_group = "M2" if group == "M1" else "M1"
    events = game.apply(other_seat, Choice(other_group, theirs))
    record.action(game, other_seat, Choice(other_group, theirs), events)
    revealed = [e for e in events if e.kind == "revealed"]
    assert revealed and revealed[0].visible_to(other_seat)
    assert json.dumps(revealed[0].data).count(mine) >= 1
    # once both are shown, every reader reads both choices and every digest again
    for reader in (seat, other_seat, None):
        read = readable_by(record.lines, reader)
        assert [line.get("action") for line in read[2:]] == [f"melee {group} {mine}", f"melee {other_group} {theirs}"]
        assert [line["digest"] for line in read] == [line["digest"] for line in record.lines]
        assert read == record.lines  # nothing is secret any more: the record reads (and replays) as written


def test_melee_numbers_are_the_marked_defaults() -> None:
    assert (MX.MELEE_HIT_ON, MX.MELEE_SURVIVE_ON, MX.MELEE_GROUP) == (4, 5, 10)


# ---------------------------------------------------------------------------------- players
def test_the_doctrine_charges_when_the_odds_favour_it_and_not_otherwise() -> None:
    three = [fig(10, 10), fig(12, 10), fig(14, 10)]
    game = make(scenario([unit("A", "allies", *three), unit("G", "axis", fig(10, 14))]))
    bot = DoctrineBot(np.random.default_rng(0))
    move = bot.choose(game, game.pending()[0])
    assert isinstance(move, Move) and move.path == ((10.0, 13.0),)  # 3 to 1: the leader runs until bases touch
    game.apply("Allies", move)
    assert game.state.charged == {"A.1", "A.2", "A.3"}  # and so does every man with the enemy within his move
    # one man against two who could join: the first round kills 1/2 of theirs for 11/24 of ours: charge
    # against three: 1/2 for 2/3: no charge (rules.MeleeRound's exact odds)
    for enemies, charges in (([fig(10, 14), fig(11, 15)], True), ([fig(10, 14), fig(11, 15), fig(9, 15)], False)):
        game = make(scenario([unit("A", "allies", fig(10, 10)), unit("G", "axis", *enemies)]))
        move = bot.choose(game, game.pending()[0])
        assert isinstance(move, Move)
        assert (move.path == ((10.0, 13.0),)) is charges, (len(enemies), move)


def test_the_doctrine_stays_with_even_odds_and_retreats_when_outnumbered() -> None:
    bot = DoctrineBot(np.random.default_rng(0))
    game = both_miss()  # one man a side: stay
    choices = {d.id: bot.choose(game, d) for d in game.pending()}
    assert choices == {"melee M1": Choice("M1", "stay"), "melee M2": Choice("M2", "stay")}
    game = make(scenario([unit("A", "allies", fig(10, 10), fig(11, 10)), unit("G", "axis", fig(10.5, 12.5))]))
    game.apply("Allies", Move("A"))
    game.apply("Axis", Move("G", ((10.5, 10.87),)))  # G.1 charges into both
    script(game, 1, 1, 1)  # G.1 (the attacker) misses; both defenders strike back and miss
    fire(game)
    picks = {d.id: bot.choose(game, d) for d in game.pending()}
    assert picks["melee M1"] == Choice("M1", "retreat") and picks["melee M2"] == Choice("M2", "stay")


def test_bots_play_melee_to_a_result() -> None:
    from grognard.bots.random_bot import RandomBot
    from grognard.core.play import play_out

    for make_bot in (DoctrineBot, RandomBot):
        three = [fig(10, 10), fig(12, 10), fig(14, 10)]
        game = make(scenario([unit("A", "allies", *three), unit("G", "axis", fig(10, 14), fig(30, 30))]))
        game.dice = SeededDice(7)
        seen: list[str] = []
        bot = make_bot(np.random.default_rng(1))

        def note(d: Any, a: Any, ev: list[Any], seen: list[str] = seen) -> None:
            seen.extend(e.kind for e in ev)

        result = play_out(game, lambda seat, bot=bot: bot, on_step=note)
        assert result is not None
        if make_bot is DoctrineBot:
            assert "melee_round" in seen


def test_a_person_sees_the_melee_choice_and_the_log_tells_the_melee() -> None:
    from grognard.rulesets.skirmish.describe import describe
    from grognard.rulesets.skirmish.view_words import situation

    game, events = charge(3, 3)
    decision = next(d for d in game.pending() if d.id == "melee M1")
    text = "\n".join(situation(game.view(decision.seat), decision))
    assert "A.1" in text and "touching G.1" in text and "retreat" in text
    lines = [describe(e) for e in events]
    assert "A.1 strikes at G.1: miss" in lines
    lines = [describe(e) for e in choose(game, "retreat", "stay")]
    assert "melee choices shown: M1 retreat, M2 stay" in lines and "A.1 retreats to (10, 8)" in lines


def two_on_one_later_round(*dice: int) -> SkirmishGame:
    """G.1 charges A.1 and A.2 (turn 1: everyone misses, both stay); turn 2 is a later round fought with ``dice``."""
    game = make(scenario([unit("A", "allies", fig(10, 10), fig(11, 10)), unit("G", "axis", fig(10.5, 12.5))]))
    game.apply("Allies", Move("A"))
    game.apply("Axis", Move("G", ((10.5, 10.87),)))
    script(game, 1, 1, 1)
    fire(game)
    game.apply("Axis", Choice("M1", "stay"))  # the attacker's group is M1
    game.apply("Allies", Choice("M2", "stay"))
    left = script(game, *dice)
    fire(game)
    assert left.remaining == 0
    return game


@pytest.mark.rule("skirmish.70", "skirmish.7")
def test_two_men_striking_one_in_a_round_the_second_hit_kills_a_man_who_survived_the_first() -> None:
    # G misses A.1 (1); A.1 hits G (4), G survives (5); A.2 hits G (4): his second hit this turn, dead
    game = two_on_one_later_round(1, 4, 5, 4)
    assert not figure(game, "G.1").alive
    # the same, but A.2 misses (3): G keeps his flesh wound; round 3 everyone misses (1, 1, 1)
    game = two_on_one_later_round(1, 4, 5, 3, 1, 1, 1)
    assert figure(game, "G.1").alive and figure(game, "G.1").wounds == 1


@pytest.mark.parametrize("name", ["skirmish-hill-assault-seed7", "skirmish-landing-seed1"])  # with a sealed choice
def test_a_finished_games_record_reads_as_written_for_every_seat(name: str) -> None:
    from pathlib import Path

    from grognard.core.record import read_lines

    lines = read_lines(Path(__file__).parent / "golden" / f"{name}.jsonl")
    assert any(e["kind"] == "sealed" for line in lines for e in line.get("events", []))
    for seat in ("Allies", "Axis", None):  # the web's download (a spectator's reading) replays as the full record
        assert readable_by(lines, seat) == lines
    cut = next(i for i, line in enumerate(lines) if any(e["kind"] == "sealed" for e in line.get("events", [])))
    seat = lines[cut]["seat"]
    other = "Axis" if seat == "Allies" else "Allies"
    part = readable_by(lines[: cut + 1], other)
    assert part[-1]["action"] == SEALED and part[-1]["digest"] == WITHHELD and part[1:-1] == lines[1:cut]
    assert part[0] == {**lines[0], "view": {"seat": other}}  # the header says whose view it is: never resumed


@pytest.mark.rule("skirmish.9", "skirmish.69")
def test_kinds_of_men_differ_in_melee_by_the_tables_melee_shift() -> None:
    def against(kind: str, *dice: int) -> SkirmishGame:
        game = make(
            scenario(
                [
                    unit("A", "allies", fig(10, 10)),
                    unit("B", "allies", fig(46, 2)),
                    unit("G", "axis", fig(10, 15, type=kind)),
                    unit("H", "axis", fig(46, 46, "pistol")),
                ]
            )
        )
        game.apply("Allies", Move("A", ((10.0, 14.0),)))
        left = script(game, *dice)
        fire(game)
        assert left.remaining == 0, "not every scripted die was used"
        return game

    tables = make(scenario([unit("A", "allies", fig(1, 1)), unit("G", "axis", fig(40, 40))])).ctx.tables
    assert {k: m.melee for k, m in tables.men.items()} == {
        "infantry": 0, "officer": 0, "cavalry": 1, "crew": 1, "engineer": 0
    }  # fmt: skip
    assert all(m.source for m in tables.men.values())
    # a 3 is one short against a rifleman (4+) and kills a gun crew's man (3 + 1): the attacker's advantage
    assert figure(against("infantry", 3, 3), "G.1").alive  # A.1 misses on 3, G.1 strikes back and misses on 3
    assert not figure(against("crew", 3), "G.1").alive
    assert figure(against("crew", 2, 3), "G.1").alive  # a 2 + 1 misses him
    # the odds tables show the same numbers (grognard odds skirmish)
    from grognard.rulesets.skirmish.analysis import odds_tables

    table = next(t for t in odds_tables(tables) if t.name == "melee_by_type")
    rows = dict(table.rows)
    assert rows["1 v 1 crew (+1)"] == MX.MeleeRound(1, 1, first=True, defender_shift=1)
    assert rows["1 v 1 infantry (+0)"] == MX.MeleeRound(1, 1, first=True)
