"""A referee types the dice (``--dice manual``), through the real program.

Every prompt says what is rolled, how many dice and for whom; an impossible
answer (a wrong count, a face off the die, a letter) is refused in one line
and the same roll is asked again; the game plays on the typed values and the
record holds exactly them, so it replays. Stopping in the middle of a roll
leaves no half-played action behind.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from terminal_driver import DICE, Terminal, error_line, records_of, run_cli

MANUAL = ("play", "omaha", "--germans", "1", "--dice", "manual", "--seed", "1", "--turn-cap", "2")
FIRE = re.compile(r"bunker B\d+ fires at A\d+ \(kills on 5-6\)")

# bad answers to a roll of one die, and of four; each is refused with this reason
BAD_ONE = {
    "0": "0 is not a face of a d6",
    "7": "7 is not a face of a d6",
    "x": "'x' is not a face of a d6",
    "-1": "-1 is not a face of a d6",
    "5 5": "1 die rolled but 2 values typed",
    "56": "1 die rolled but 2 values typed",
    "": "1 die rolled but 0 values typed",
}
BAD_FOUR = {
    "52": "4 dice rolled but 2 values typed",
    "5 2 6": "4 dice rolled but 3 values typed",
    "5 2 6 1 3": "4 dice rolled but 5 values typed",
    "52617": "4 dice rolled but 5 values typed",
    "5 2 6 7": "7 is not a face of a d6",
    "5 2 0 1": "0 is not a face of a d6",
    "a b c d": "'a' is not a face of a d6",
    "5 2 six 1": "'six' is not a face of a d6",
}


def dice_events(path: Path) -> list[tuple[str, int, list[int]]]:
    """Every roll in a record, in order: (purpose, sides, values)."""
    return [
        (event["purpose"], event["sides"], event["values"])
        for line in records_of(path)
        for event in line.get("events", [])
        if event["kind"] == "dice"
    ]


def refused_then_asked_again(t: Terminal, prompt: str, bad: str, reason: str) -> None:
    t.send(bad)
    assert t.prompt() == prompt, f"{bad!r} should be asked again"
    assert t.shown.strip() == f"refused: {reason}; roll again or type the dice again", (bad, t.shown)


def test_referee_types_every_roll_bad_ones_are_refused_and_the_record_holds_them(tmp_path: Path) -> None:
    record = tmp_path / "manual.jsonl"
    rng = random.Random(2024)
    typed: list[tuple[str, list[int]]] = []  # (purpose, values) as accepted, in order
    tried_one = fires = 0
    with Terminal(*MANUAL, "--record", str(record)) as t:
        while (prompt := t.next_prompt()) is not None:
            if not typed:
                assert "Manual dice: type each roll as the table rolls it (e.g. 5 2 6 or 526)." in t.shown
            match = DICE.fullmatch(prompt)
            assert match, f"every question of a bot game is a roll: {prompt!r}"
            purpose, count = match["purpose"], int(match["count"])
            assert match["sides"] is None, "Omaha rolls only d6"
            assert prompt.endswith(f": {count} {'die' if count == 1 else 'dice'}")
            if count == 1 and not tried_one:
                assert purpose == "obstacles O1", "the first roll is the first obstacle section's"
                for bad, reason in BAD_ONE.items():
                    refused_then_asked_again(t, prompt, bad, reason)
                tried_one += 1
            values = [rng.randint(1, 6) for _ in range(count)]
            if FIRE.fullmatch(purpose):
                assert count == 4, "a bunker of 4 fires 4 dice"
                if fires == 0:
                    for bad, reason in BAD_FOUR.items():
                        refused_then_asked_again(t, prompt, bad, reason)
                values = [5, 2, 6, 1]
                answer = ["5261", "5 2 6 1", "5,2,6,1", " 5  2 6 1 "][fires % 4]
                fires += 1
            else:
                answer = " ".join(map(str, values))
            t.send(answer)
            typed.append((purpose, values))
        code, out, err = t.finish()
    assert code == 0, err
    assert "Traceback" not in out + err
    assert fires == 4, "two bunkers fired in each of 2 turns"
    assert "Result: unfinished on turn 2: the turn cap of 2 was reached" in out
    assert f"record written to {record}" in out
    # every fire of 5 2 6 1 (two of 5-6) killed 2
    assert len(re.findall(r"B\d+ fires 4 dice at A\d+: 2 killed", out)) == 4

    # the record holds exactly the typed rolls, for the purposes asked, and replays
    assert [(purpose, values) for purpose, _, values in dice_events(record)] == typed
    assert all(sides == 6 for _, sides, _ in dice_events(record))
    header = records_of(record)[0]
    assert header["dice"] == "manual" and header["seed"] == 1
    replayed = run_cli("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    assert "manual dice" in replayed.stdout and "every die and digest matches the record" in replayed.stdout
    assert "Result: unfinished on turn 2" in replayed.stdout


def test_typed_dice_with_a_person_playing_and_quitting_in_the_middle_of_a_roll(tmp_path: Path) -> None:
    """A German player and a referee at one keyboard; quitting while a bunker's dice are asked loses that shot."""
    record = tmp_path / "manual-human.jsonl"
    rng = random.Random(7)
    args = ("play", "omaha", "--germans", "1", "--dice", "manual", "--human", "german", "--seed", "1")
    question = ""
    with Terminal(*args, "--turn-cap", "2", "--record", str(record)) as t:
        while True:
            prompt = t.prompt()
            if prompt == "German 1":
                question = t.shown
                t.send("1")
                if "fire at a squad" in question:
                    fire = t.prompt()
                    assert FIRE.fullmatch(DICE.fullmatch(fire)["purpose"]), fire  # type: ignore[index]
                    assert fire.endswith(": 4 dice")
                    t.send("quit")
                    break
                continue
            count = int(DICE.fullmatch(prompt)["count"])  # type: ignore[index]
            t.send(" ".join(str(rng.randint(1, 6)) for _ in range(count)))
        code, out, _ = t.finish()
    assert code == 0
    assert out.rstrip().endswith(f"stopped at turn 1; continue with: grognard play omaha --resume {record}")
    head = next(line for line in question.splitlines() if "fire at a squad" in line)
    bunker = re.search(r"bunker (B\d+)", head)[1]  # type: ignore[index]

    # the unfinished shot is not in the record: no fire line, no dice for it
    lines = records_of(record)
    assert not any(line.get("action", "").startswith(f"fire {bunker}") for line in lines)
    assert not any(FIRE.fullmatch(purpose) for purpose, _, _ in dice_events(record))
    assert lines[-1]["type"] == "action"
    assert run_cli("replay", str(record)).returncode == 0

    # resumed: the same question again (the header says who is a person and that the dice are typed)
    with Terminal("play", "omaha", "--resume", str(record)) as t:
        assert t.prompt() == "German 1"
        assert head in t.shown
        t.send("1")
        assert FIRE.fullmatch(DICE.fullmatch(t.prompt())["purpose"])  # type: ignore[index]
        t.send("6666")
        while (prompt := t.next_prompt()) is not None:
            if prompt == "German 1":
                t.send("1")
            else:
                count = int(DICE.fullmatch(prompt)["count"])  # type: ignore[index]
                t.send("".join(str(rng.randint(1, 6)) for _ in range(count)))  # digits run together
        code, out, err = t.finish()
    assert code == 0, err
    assert re.search(rf"{bunker} fires 4 dice at A\d+: 4 killed", out)
    assert "Result:" in out
    assert run_cli("replay", str(record)).returncode == 0


def test_input_ending_while_the_setup_dice_are_typed_stops_cleanly(tmp_path: Path) -> None:
    record = tmp_path / "never.jsonl"
    done = run_cli(*MANUAL, "--record", str(record), stdin="5\n1\n")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr and not done.stderr
    assert done.stdout.count("dice: obstacles O") == 3 + 2, "three asked, the two typed shown as they happened"
    assert "obstacles in O1: 1" in done.stdout, "the setup's story is told as the dice are typed"
    assert done.stdout.rstrip().endswith("stopped at turn 0, during the setup: nothing was recorded")
    assert not record.exists()
    quit_ = run_cli(*MANUAL, stdin="5\nquit\n")
    assert quit_.returncode == 0 and "stopped at turn 0" in quit_.stdout


def test_a_bad_seat_is_refused_before_the_referee_types_anything() -> None:
    done = run_cli(*MANUAL, "--human", "martians", stdin="5\n1\n2\n3\n")
    assert error_line(done).startswith("error: --human 'martians': no such side or seat")
    assert "dice:" not in done.stdout
