"""'undo' at the terminal is free until a die is rolled or a secret revealed; then the order stands (issue 28).

Taken back and given again, an order whose dice were rolled would roll the same seeded dice: a player could
look at the phase's dice before choosing. Each rule set, a person alone against bots and hot seat, through
the real program with piped answers: a refused 'undo' leaves the record exactly as the game without it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from grognard.core.takeback import stands
from terminal_driver import lines_of, records_of, run_cli

HERE = Path(__file__).parent


def played(record: Path, *args: str, answers: str) -> subprocess.CompletedProcess[str]:
    """``grognard play ARGS --record RECORD`` answered with ``answers``; it ends well."""
    done = run_cli("play", *args, "--record", str(record), stdin=answers)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    return done


def said_at_prompts(out: str) -> list[str]:
    """What the program said right after each answer about an undo (taken back, stands, nothing)."""
    return re.findall(r"> ((?:took back|that order stands|nothing)[^\n]*)", out)


# the game: three moves and three fire orders, then 'undo' once the phase's fire was rolled
VILLAGE = ("skirmish", "village_street", "--human", "allies", "--seed", "6")
MOVES = "move A 11.26,15.95\nmove B 19.76,13.24\nmove C 35,15.5\n"
FIRE = "fire A G\nfire B G\nfire C L\n"


def test_skirmish_a_fire_order_stands_once_the_phase_s_fire_is_rolled(tmp_path: Path) -> None:
    """The issue's command: 'fire C L' waits for the phase's last fire order (the bots'), which rolls every
    shot; 'undo' then refuses in one line naming the roll, and 'fire C K' cannot replace it."""
    tried, straight = tmp_path / "tried.jsonl", tmp_path / "straight.jsonl"
    done = played(tried, *VILLAGE, answers=MOVES + FIRE + "undo\nfire C K\nquit\n")
    said = said_at_prompts(done.stdout)
    assert len(said) == 1 and re.fullmatch(
        r"that order stands: dice were rolled after it \(fire \w+ \w+ by Axis: \d+ dice\)", said[0]
    ), said
    assert "refused: fire C K answers 'fire C'" in done.stdout
    played(straight, *VILLAGE, answers=MOVES + FIRE + "quit\n")
    assert lines_of(tried) == lines_of(straight), "the refused undo changed nothing"
    orders = [line["action"] for line in records_of(tried) if line.get("seat") == "Allies"]
    assert "fire C L" in orders and "fire C K" not in orders


def test_skirmish_a_move_and_a_fire_order_not_yet_rolled_are_taken_back(tmp_path: Path) -> None:
    """Free until a die is rolled: a move, and a fire order the phase has not rolled yet, are taken back; the
    game is the one played without them (the same dice after, the same bots)."""
    undone, straight = tmp_path / "undone.jsonl", tmp_path / "straight.jsonl"
    answers = "move A 11.26,15.95\nundo\n" + MOVES + "fire A G\nundo\nfire A hold\nquit\n"
    done = played(undone, *VILLAGE, answers=answers)
    said = said_at_prompts(done.stdout)
    assert [re.sub(r"took back \S+ ", "took back ", s) for s in said] == [
        "took back move A 11.26,15.95; turn 1 again",
        "took back fire A G; turn 1 again",
    ], said
    played(straight, *VILLAGE, answers=MOVES + "fire A hold\nquit\n")
    assert lines_of(undone) == lines_of(straight)


def test_skirmish_hot_seat_a_revealed_melee_choice_stands(tmp_path: Path) -> None:
    """Both sides at one keyboard, a melee where both strikes miss: the Allies' stay-or-retreat is the second
    sealed choice, so giving it reveals both; at the Allies' next prompt 'undo' says it stands."""
    yard = (HERE / "skirmish_melee_yard.toml").read_text(encoding="utf-8")
    scenario = tmp_path / "yard_allies_first.toml"
    scenario.write_text(yard.replace('first_mover = "axis"', 'first_mover = "allies"'), encoding="utf-8")
    args = ("skirmish", str(scenario), "--human", "all", "--seed", "2")  # seed 2: both melee strikes miss
    opening = "hold A\nmove G / G.1 to 12,12\nfire A hold\nfire G hold\nmelee M1 retreat\nmelee M2 retreat\n"
    tried, straight = tmp_path / "tried.jsonl", tmp_path / "straight.jsonl"
    done = played(tried, *args, answers=opening + "undo\nquit\n")
    assert said_at_prompts(done.stdout) == [
        "that order stands: it revealed the secret choices (melee M2 retreat: melee M1, melee M2 shown)"
    ]
    played(straight, *args, answers=opening + "quit\n")
    assert lines_of(tried) == lines_of(straight)
    last = records_of(tried)[-1]
    assert last["action"] == "melee M2 retreat" and "revealed" in [e["kind"] for e in last["events"]]


OMAHA_HOT_SEAT = ("omaha", "--germans", "1", "--human", "A1,A2,G1", "--seed", "1", "--turn-cap", "2")


def test_omaha_hot_seat_a_move_is_taken_back_and_bunker_fire_stands(tmp_path: Path) -> None:
    """A1, A2 and G1 at one keyboard (A3 a bot): the German places (its landing dice are rolled), A1's move is
    taken back at A2's prompt (a move rolls nothing), and once bunker B1 has fired, 'undo' at the German's
    next prompt says the fire stands; the record is the game played without the refused undo."""
    tried, straight = tmp_path / "tried.jsonl", tmp_path / "straight.jsonl"
    done = played(tried, *OMAHA_HOT_SEAT, answers="1\n1\nundo\n2\n1\n1\nundo\nquit\n")
    assert said_at_prompts(done.stdout) == [
        "took back American 1's move A1 4 4; turn 1 again",
        "that order stands: its dice were rolled (fire B1 A1: 4 dice)",
    ]
    played(straight, *OMAHA_HOT_SEAT, answers="1\n2\n1\n1\nquit\n")
    assert lines_of(tried) == lines_of(straight)


def test_omaha_an_american_alone_cannot_take_back_past_the_germans_fire(tmp_path: Path) -> None:
    """An American alone against the German bot: the turn's last American move is followed by the bunkers'
    fire; at the next turn's prompt 'undo' names that roll and the record keeps the move."""
    args = ("omaha", "--germans", "1", "--human", "american", "--seed", "1", "--turn-cap", "2")
    tried, straight = tmp_path / "tried.jsonl", tmp_path / "straight.jsonl"
    done = played(tried, *args, answers="1\n1\n1\nundo\nquit\n")
    said = said_at_prompts(done.stdout)
    assert len(said) == 1 and re.fullmatch(
        r"that order stands: dice were rolled after it \(\w+ \w+ A\d+ by German 1: \d+ dice\)", said[0]
    ), said
    played(straight, *args, answers="1\n1\n1\nquit\n")
    assert lines_of(tried) == lines_of(straight)


B17 = ("b17", "--human", "american", "--seed", "2")


def test_b17_a_bomber_s_move_is_taken_back_and_the_turn_s_last_stands(tmp_path: Path) -> None:
    """The bombers alone against the fighters' bot: the box's placement rolls the fighters' entry (it stands),
    B1's move rolls nothing (taken back), B4's, the last of the turn, rolls the next turn's dice (it stands)."""
    tried, straight = tmp_path / "tried.jsonl", tmp_path / "straight.jsonl"
    done = played(tried, *B17, answers="1\nundo\n1\nundo\n2\n1\n1\n1\nundo\nquit\n")
    said = said_at_prompts(done.stdout)
    assert [s.split(" (")[0] for s in said] == [
        "that order stands: its dice were rolled",
        "took back American's fly B1 10 0; turn 1 again",
        "that order stands: its dice were rolled",
    ], said
    assert re.search(r"\(place 1 [\d.,]+ [\d.,]+ [\d.,]+ [\d.,]+: \d+ dice\)$", said[0]), said
    assert re.search(r"\(fly B4 [\d.-]+ [\d.-]+: \d+ dice\)$", said[2]), said
    played(straight, *B17, answers="1\n2\n1\n1\n1\nquit\n")
    assert lines_of(tried) == lines_of(straight)


def test_the_rule_reads_the_record_lines_events() -> None:
    """What stands: a line with a die (its own, or a later one's), a line revealing secret choices; a line
    whose roll was of no dice, a sealed choice not yet revealed and a move do not."""
    move = {"type": "action", "seat": "Allies", "action": "move A 1,1", "events": [{"kind": "moved"}]}
    none_rolled = {**move, "events": [{"kind": "dice", "purpose": "no shots", "sides": 6, "values": []}]}
    sealed = {"type": "action", "seat": "Axis", "action": "melee M1 stay", "events": [{"kind": "chosen"}]}
    one = {**move, "action": "fire A G", "events": [{"kind": "dice", "purpose": "p", "sides": 6, "values": [4]}]}
    reveal = {"kind": "revealed", "group": "melee 1", "choices": {"melee M2": {}, "melee M1": {}}}
    shown = {**sealed, "events": [reveal]}
    assert stands([move, none_rolled, sealed, move]) is None
    assert stands([one]) == "its dice were rolled (fire A G: 1 die)"
    assert stands([move, sealed, one]) == "dice were rolled after it (fire A G by Allies: 1 die)"
    assert stands([shown]) == "it revealed the secret choices (melee M1 stay: melee M1, melee M2 shown)"
    assert stands([move, shown, one]) == (
        "secret choices were revealed after it (melee M1 stay by Axis: melee M1, melee M2 shown)"
    )
