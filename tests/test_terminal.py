"""Playing at the terminal, through the real program: people answer questions typed on stdin.

A person is shown the situation and a numbered menu with the odds, answers by
number or with an order typed in full, and every bad answer is refused in one
line with the same question asked again (the game does not move). Resigning
ends the game; quitting or the end of input stops it cleanly with the record
consistent, and ``--resume`` carries on from there.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from grognard.core.errors import ParseError
from grognard.rulesets.omaha.actions import parse_action
from terminal_driver import Terminal, lines_of, menu_of, records_of, run_cli

GERMAN = ("play", "omaha", "--germans", "1", "--human", "german", "--seed", "1", "--turn-cap", "3")
AMERICAN = ("play", "omaha", "--germans", "1", "--human", "american", "--seed", "1", "--turn-cap", "2")


def action_lines(path: Path) -> list[dict[str, object]]:
    return [line for line in records_of(path) if line["type"] == "action"]


def answer_the_rest(t: Terminal, answer: str = "1") -> list[str]:
    """Answer every question still to come with ``answer`` (the last one shown is answered); the prompts seen."""
    seen = []
    while (prompt := t.next_prompt()) is not None:
        seen.append(prompt)
        t.send(answer)
    return seen


def test_german_player_sees_situation_menu_odds_and_bad_answers_ask_the_same_question(tmp_path: Path) -> None:
    record = tmp_path / "german.jsonl"
    with Terminal(*GERMAN, "--record", str(record)) as t:
        # setup: where to put the bunkers, answered by number
        assert t.prompt() == "German 1"
        first = t.shown
        assert "people: German 1 (type 'help' at a prompt)" in first
        assert "Turn 0, setup - German 1: G1: put 2 bunkers in 2 of sections 1-3" in first
        assert [action for action, _ in menu_of(first).values()] == ["place G1 1 2", "place G1 1 3", "place G1 2 3"]
        t.send("3")

        # the first bunker's fire: situation, the squads, and the odds of every target
        assert t.prompt() == "German 1"
        question = t.shown
        assert "G1 puts bunkers in sections 2 and 3" in question
        assert "Turn 1, Germans act - German 1: bunker B2 (4 defenders): fire at a squad" in question
        assert "B2: 4 defenders, rolls 4 dice" in question
        assert "squads (furthest up the beach first):" in question
        choices = menu_of(question)
        targets = [action for action, _ in choices.values()]
        assert targets[-1] == "fire B2 pass" and choices[len(choices)][1] == "hold fire"
        assert all(action.startswith("fire B2 A") for action in targets[:-1]) and len(targets) == 4
        for action, extra in list(choices.values())[:-1]:
            assert "figures" in extra and "kills 1.33 on average; at least one: 80%" in extra, (action, extra)

        # bad answers: one line each, then the same question again; nothing is played meanwhile
        refusals = {
            "banana": "refused: 'banana': unknown action 'banana'; one of: move, fight, hold, place, fire, artillery",
            "fire B9 A1": "refused: 'fire B9 A1': there is no bunker B9 in this game (B2, B3)",
            "fire B3 A1": "refused: fire B3 A1 answers 'fire B3', but this question is 'fire B2'",
            "99": f"no choice 99: choose 1 to {len(choices)}",
            "0": f"no choice 0: choose 1 to {len(choices)}",
            "fire B2 A7": "refused: fire B2 A7: squad A7 is not on the beach (omaha.19)",
            "move A1 4 4": "refused: move A1 4 4 answers 'orders A1', but this question is 'fire B2'",
            "fire B2": "refused: 'fire B2': usage: fire BUNKER SQUAD|pass",
        }
        for bad, reply in refusals.items():
            t.send(bad)
            assert t.prompt() == "German 1", bad
            assert t.shown.strip().splitlines() == [t.shown.strip()], (bad, t.shown)
            assert t.shown.strip().startswith(reply), (bad, t.shown)
        t.send("")  # an empty line asks again, silently
        assert t.prompt() == "German 1" and t.shown == ""

        t.send("help")
        assert t.prompt() == "German 1"
        assert "Answer with the number of a choice, or type an order in full" in t.shown
        assert "fire BUNKER SQUAD|pass" in t.shown and "'resign' gives up" in t.shown and "'quit' stops" in t.shown
        t.send("board")
        assert t.prompt() == "German 1"
        assert "Turn 1, Germans act; exits open 0 of 2" in t.shown and "bunkers   |" in t.shown
        assert "bunkers: B2 4 defenders  B3 4 defenders" in t.shown and "squads:" in t.shown
        t.send("choices")
        assert t.prompt() == "German 1" and menu_of(t.shown) == choices

        # an order typed in full is played, for this question
        typed = targets[1]
        t.send(typed.upper().replace("FIRE", "fire"))  # labels may be typed in either case
        assert t.prompt() == "German 1"
        assert re.search(rf"B2 fires 4 dice at {typed.split()[-1]}: \d+ killed", t.shown), t.shown
        assert "bunker B3 (4 defenders): fire at a squad" in t.shown

        # the rest by number; the artillery question shows its odds
        questions = [t.shown]
        t.send("1")
        while (prompt := t.next_prompt()) is not None:
            assert prompt == "German 1"
            questions.append(t.shown)
            t.send("1")
        code, out, err = t.finish()
    assert code == 0, err
    assert "Traceback" not in out + err
    artillery = [q for q in questions if "call an artillery strike" in q]
    assert len(artillery) == 3, "one artillery question a turn"
    for question in artillery:
        odds = [extra for action, extra in menu_of(question).values() if not action.endswith("pass")]
        assert odds and all("lands 33%; then kills 2.00 on average (0.67 per call)" in extra for extra in odds)
    assert "Result: unfinished on turn 3: the turn cap of 3 was reached" in out
    assert f"record written to {record}" in out

    # the record holds exactly the answers given: the refused ones left no trace
    german = [(line["action"]) for line in action_lines(record) if line["seat"] == "German 1"]
    assert german[:2] == ["place G1 2 3", typed]
    assert len(german) == 1 + 3 * 3, "placement, then two bunkers and one artillery strike in each of 3 turns"
    replayed = run_cli("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    assert "every die and digest matches the record" in replayed.stdout


def test_hot_seat_americans_by_number_and_typed_moves_too_far_refused(tmp_path: Path) -> None:
    """Three American seats at one keyboard: menu numbers, typed moves, and moves the rules forbid."""
    record = tmp_path / "americans.jsonl"
    played: dict[str, str] = {}
    with Terminal(*AMERICAN, "--record", str(record)) as t:
        assert t.prompt() == "American 1"
        assert "people: American 1, American 2, American 3 (type 'help' at a prompt)" in t.shown
        assert "Turn 1, Americans act - American 1: A1 (12 figures): move or fight" in t.shown
        assert re.search(r'A1: 12 figures at x=4, \d" out in the water; obstacles in front O1: \d', t.shown)
        choices = menu_of(t.shown)
        assert choices[len(choices)] == ("hold A1", "do nothing this turn")
        assert all(
            re.fullmatch(r'to x=[\d.]+, .* \([\d.]+" of 6" used\)', extra) for _, extra in list(choices.values())[:-1]
        )

        for bad, reply in {
            "move A1 4 20": (
                'refused: move A1 to (4, 20) needs 22.00" of a 6" move (water inches count double) (omaha.14)'
            ),
            "move A2 12 0": "refused: move A2 12 0 answers 'orders A2', but this question is 'orders A1'",
            "move A1 x y": "refused: 'move A1 x y': x 'x' is not a number of inches",
            "fight A1 shoot=3": (
                "refused: fight A1 shoot=3: figures may shoot only from the sea wall or closer (omaha.17)"
            ),
            "fight A1 clear=13": "refused: fight A1 clear=13: only figures at the sea wall may clear obstacles",
            "fire B1 A1": "refused: fire B1 A1 answers 'fire B1', but this question is 'orders A1'",
            "7": f"no choice 7: choose 1 to {len(choices)}",
        }.items():
            t.send(bad)
            assert t.prompt() == "American 1", bad
            assert t.shown.strip().startswith(reply) and "\n" not in t.shown.strip(), (bad, t.shown)

        typed = choices[1][0]  # e.g. "move A1 4 4": typed in full
        assert typed.startswith("move A1 ")
        t.send(typed)
        played["American 1"] = typed
        assert t.prompt() == "American 2"
        x = float(typed.split()[2])
        assert f"A1 moves to x={x:g}, " in t.shown
        second = menu_of(t.shown)
        t.send("2")  # by number
        played["American 2"] = second[2][0]
        assert t.prompt() == "American 3"
        third = menu_of(t.shown)
        last_move = [action for action, _ in third.values() if action.startswith("move")][-1]
        t.send(f"  {last_move.replace('move', 'MOVE')}  ")  # case and spaces do not matter
        played["American 3"] = last_move
        prompts = answer_the_rest(t)
        code, out, err = t.finish()
    assert code == 0, err
    assert set(prompts) <= {"American 1", "American 2", "American 3"}, "the bots answer for the Germans"
    assert "Result: unfinished on turn 2: the turn cap of 2 was reached" in out
    first_turn = {line["seat"]: line["action"] for line in action_lines(record)[1:4]}
    assert first_turn == played
    assert records_of(record)[0]["humans"] == "american"
    assert run_cli("replay", str(record)).returncode == 0


@pytest.mark.parametrize(
    ("human", "answers", "seat", "winner"),
    [
        ("german", ["1", "resign", "yes"], "German 1", "american"),
        ("american", ["1", "resign", "yes"], "American 2", "german"),
    ],
)
def test_resign_ends_the_game_at_once_for_the_other_side(
    tmp_path: Path, human: str, answers: list[str], seat: str, winner: str
) -> None:
    record = tmp_path / "resigned.jsonl"
    args = ("play", "omaha", "--germans", "1", "--human", human, "--seed", "1", "--record", str(record))
    # answers after the resignation are never read
    done = run_cli(*args, stdin="\n".join([*answers, "1", "1", "1"]) + "\n")
    assert done.returncode == 0, done.stderr
    assert re.search(rf"Result: {winner} win on turn \d+: {seat} resigned", done.stdout), done.stdout[-1500:]
    lines = records_of(record)
    assert lines[-1]["type"] == "resign" and lines[-1]["seat"] == seat
    assert [e["kind"] for e in lines[-1]["events"]] == ["resigned", "game_over"]
    people = [line for line in lines if line["type"] == "action" and str(line["seat"]).lower().startswith(human)]
    assert len(people) == 1, "one answer before the resignation, then nothing"
    replayed = run_cli("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    assert f"Result: {winner} win" in replayed.stdout and f"{seat} resigned" in replayed.stdout
    again = run_cli("play", "omaha", "--resume", str(record))
    assert again.returncode == 0 and "is already over" in again.stdout


@pytest.mark.parametrize("stop", ["quit", "EXIT", "end of input"])
def test_quit_or_end_of_input_stops_cleanly_and_resume_carries_on(tmp_path: Path, stop: str) -> None:
    """Stopped at the third German question: the record replays as far as it goes, --resume asks that question."""
    record = tmp_path / "stopped.jsonl"
    answers = ["1", "2"] + ([] if stop == "end of input" else [stop, "1", "1"])
    done = run_cli(*GERMAN, "--record", str(record), stdin="".join(a + "\n" for a in answers))
    assert done.returncode == 0, done.stderr
    assert not done.stderr and "Traceback" not in done.stdout
    assert done.stdout.rstrip().endswith(f"stopped at turn 1; continue with: grognard play omaha --resume {record}")
    assert "Result:" not in done.stdout
    heads = re.findall(r"^Turn \d+, .* - German 1: .*$", done.stdout, re.M)
    assert len(heads) == 3
    asked_last = heads[-1]

    lines = records_of(record)
    written = lines_of(record)
    assert [line["seat"] for line in lines if line["type"] == "action"].count("German 1") == 2
    assert lines[-1]["type"] == "action" and lines[-1]["seat"] == "German 1", "nothing after the last answer"
    replayed = run_cli("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    assert "the game is not over: it stands at turn 1 (continue it with --resume)" in replayed.stdout

    with Terminal("play", "omaha", "--resume", str(record), "--human", "german") as t:
        assert t.prompt() == "German 1"
        assert f"resumed {record} at turn 1: {len(lines) - 2} actions replayed, digests match" in t.shown
        assert asked_last in t.shown, "the question left unanswered is asked again"
        t.send("1")
        answer_the_rest(t)
        code, out, err = t.finish()
    assert code == 0, err
    assert "Result: unfinished on turn 3" in out
    assert lines_of(record)[: len(written)] == written, "resuming writes on after the lines already there"
    final = run_cli("replay", str(record))
    assert final.returncode == 0 and "Result: unfinished on turn 3" in final.stdout


def test_a_stopped_and_resumed_game_is_the_game_played_without_stopping(tmp_path: Path) -> None:
    """Same seed, same answers: stopping and resuming changes nothing (dice and bots carry on their streams)."""
    whole, split = tmp_path / "whole.jsonl", tmp_path / "split.jsonl"
    assert run_cli(*GERMAN, "--record", str(whole), stdin="1\n" * 40).returncode == 0
    first = run_cli(*GERMAN, "--record", str(split), stdin="1\n" * 5 + "quit\n")
    assert first.returncode == 0 and "stopped at turn" in first.stdout
    assert len(lines_of(split)) < len(lines_of(whole))
    rest = run_cli("play", "omaha", "--resume", str(split), stdin="1\n" * 40)
    assert rest.returncode == 0, rest.stderr
    assert lines_of(split) == lines_of(whole)


@pytest.mark.parametrize(
    ("args", "typed"),
    [
        (("play", "b17", "--human", "german", "--seed", "2"), "²"),  # a menu number that is no number
        (("play", "b17", "--dice", "manual", "--seed", "2"), "3²"),  # typed dice
        (("play", "b17", "--human", "american", "--seed", "2"), "place ² 16,30 12.5,34.5 12.5,25.5 8.5,30"),
        (("play", "omaha", "--germans", "1", "--human", "german", "--seed", "3"), "place G1 ² 1"),
    ],
)
def test_a_superscript_digit_at_a_prompt_is_refused_not_a_crash(args: tuple[str, ...], typed: str) -> None:
    """'²' passes str.isdigit() but not int(): it crashed the game with a traceback."""
    done = run_cli(*args, stdin=typed + "\n")
    assert done.returncode == 0 and "Traceback" not in done.stdout + done.stderr, done.stderr[-600:]
    assert "refused" in done.stdout and "stopped at turn" in done.stdout


def test_a_section_that_is_not_a_number_is_called_a_section() -> None:
    with pytest.raises(ParseError, match="section 'nan' is not a section number"):
        parse_action("place G1 nan 1")
