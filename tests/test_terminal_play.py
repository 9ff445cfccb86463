"""Playing at the terminal: a resignation asked twice, a take-back (``undo``), and hot-seat secrets.

Through the real program: piped answers, and for what only a terminal shows (echo, a cleared
screen) a pseudo-terminal, as a person at the keyboard has.
"""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

from terminal_driver import cli_env, lines_of, records_of, run_cli

GERMAN = ("play", "omaha", "--germans", "1", "--human", "german", "--seed", "1", "--turn-cap", "2")


def test_resign_is_asked_again_and_only_yes_resigns(tmp_path: Path) -> None:
    record = tmp_path / "resign.jsonl"
    done = run_cli(*GERMAN, "--record", str(record), stdin="resign\nno\n1\nresign\nyes\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.count("resign for German 1? The game ends now; american win. Type yes to resign> ") == 2
    assert "not resigned: German 1 plays on" in out
    assert re.search(r"Result: american win on turn \d+: German 1 resigned", out), out[-1500:]
    lines = records_of(record)
    people = [line for line in lines if line["type"] == "action" and line["seat"] == "German 1"]
    assert len(people) == 1, "the 'no' left the question open; '1' answered it; then the resignation"
    assert lines[-1]["type"] == "resign"


VILLAGE = ("play", "skirmish", "village_street", "--human", "allies", "--seed", "6")
MOVES = "move A 11.26,15.95\nmove B 19.76,13.24\nmove C 35,15.5\n"


def test_undo_takes_back_the_last_order_and_the_game_is_the_one_played_without_it(tmp_path: Path) -> None:
    """The last move, undo, hold gives the very record of the hold: the same dice, the same bots, nothing of the
    taken-back order. Nothing was rolled since the move (the bots' moves roll none): it may be taken back."""
    undone, straight = tmp_path / "undone.jsonl", tmp_path / "straight.jsonl"
    done = run_cli(*VILLAGE, "--record", str(undone), stdin=MOVES + "undo\nhold C\nfire A hold\nquit\n")
    assert done.returncode == 0, done.stderr
    first = records_of(undone)
    assert re.search(r"took back Allies\S* move C 35,15.5 and \d+ bot actions after it; turn 1 again", done.stdout)
    plain_moves = MOVES.replace("move C 35,15.5", "hold C")
    plain = run_cli(*VILLAGE, "--record", str(straight), stdin=plain_moves + "fire A hold\nquit\n")
    assert plain.returncode == 0, plain.stderr
    assert lines_of(undone) == lines_of(straight)
    assert [line.get("action") for line in first if line.get("seat") == "Allies"][2:] == ["hold C", "fire A hold"]
    replayed = run_cli("replay", str(undone))
    assert replayed.returncode == 0, replayed.stderr
    resumed = run_cli("play", "skirmish", "--resume", str(undone), "--human", "allies", stdin="1\n" * 8 + "quit\n")
    assert resumed.returncode == 0 and "continue with: grognard play skirmish --resume" in resumed.stdout, (
        resumed.stdout[-1500:] + resumed.stderr
    )


AMERICAN = ("play", "omaha", "--germans", "1", "--human", "american", "--seed", "1", "--turn-cap", "2")


def test_undo_without_a_record_and_with_nothing_to_take_back() -> None:
    done = run_cli(*AMERICAN, stdin="undo\n1\nundo\nundo\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "nothing to take back: no person has given an order yet" in done.stdout
    assert re.search(r"took back American 1's .*; turn \d+ again", done.stdout)
    after = done.stdout.split("took back ", 1)[1]  # an order was given and taken back: not 'none given yet'
    assert "nothing to take back: every order a person gave is taken back already" in after, after[-800:]
    assert "no person has given an order yet" not in after
    assert "Traceback" not in done.stdout + done.stderr


def test_hot_seat_undo_takes_back_only_the_own_sides_order(tmp_path: Path) -> None:
    """Both sides at one keyboard: at American 1's prompt, 'undo' may not take back German 1's order (nothing
    changes, the record keeps it); once American 1 has given one, American 2 may take it back (their side)."""
    record = tmp_path / "hot.jsonl"
    both = ("play", "omaha", "--germans", "1", "--human", "all", "--seed", "1", "--turn-cap", "2")
    done = run_cli(*both, "--record", str(record), stdin="1\nundo\n1\nundo\nquit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "nothing of yours to take back: the last order was German 1's (german), and only that side may" in out
    assert out.count("took back ") == 1 and re.search(r"took back American 1's .*; turn \d+ again", out), out[-1500:]
    seats = [line["seat"] for line in records_of(record) if line["type"] == "action"]
    assert seats == ["German 1"], "the German order stays; the American one is taken back"
    assert "Traceback" not in out + done.stderr


class PseudoTerminal:
    """The program with a pseudo-terminal for keyboard and screen: what a person at a terminal sees."""

    def __init__(self, *args: str) -> None:
        self.master, slave = pty.openpty()
        env = {**cli_env(), "TERM": "xterm", "COLUMNS": "120", "LINES": "40"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "grognard", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,  # the pty is the only terminal it has (getpass must not find ours)
        )
        os.close(slave)
        self.out = b""
        self.seen = 0  # how much of ``out`` read_until has consumed

    def read_until(self, pattern: bytes, timeout: float = 60.0) -> bytes:
        """Read until ``pattern`` (a regex) matches the output not yet consumed; that output, up to the match's end."""
        deadline = time.monotonic() + timeout
        while (match := re.search(pattern, self.out[self.seen :])) is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"no {pattern!r} after {timeout}s; last output:\n{self.out[-3000:]!r}")
            ready, _, _ = select.select([self.master], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                raise AssertionError(f"the program ended without {pattern!r}:\n{self.out[-3000:]!r}")
            self.out += chunk
        start, self.seen = self.seen, self.seen + match.end()
        return self.out[start : self.seen]

    def send(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\r")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        os.close(self.master)


CLEAR = b"\x1b[2J"


def test_hot_seat_secret_choices_are_not_echoed_and_the_screen_is_cleared_between_seats() -> None:
    """Both sides at one keyboard: a stay/retreat typed in full is not shown, and the next seat sees a clean screen."""
    # seed 2: two melee groups owe a stay or retreat in one turn (since men keep their bases apart, issue 21;
    # seed 0 was before)
    t = PseudoTerminal("play", "skirmish", "village_street", "--human", "all", "--seed", "2")
    typed: list[tuple[str, bytes]] = []
    try:
        while len(typed) < 2:
            shown = t.read_until(rb"> $")
            if b"press Enter when the others look away> " in shown[-60:]:
                assert CLEAR in shown and b"a secret choice. Only" in shown
                t.send("")
                continue
            group = re.search(rb"melee group (M\d+) \([^)]*\): stay or retreat, in secret", shown)
            if group is None:  # the second choice of every menu (the first when it is the only one)
                t.send("2" if re.search(rb"\n +2  ", shown) else "1")
                continue
            order = f"melee {group[1].decode()} stay"
            t.send(order)
            after = t.read_until(rb"chosen, sealed until every side has chosen")
            typed.append((order, after))
        for order, after in typed:
            before_clear = after.split(CLEAR)[0]
            assert order.encode() not in before_clear, f"{order!r} was echoed: {before_clear!r}"
            assert CLEAR in after, "the screen is cleared once the secret is in"
        shown = t.read_until(rb"melee choices shown: [^\r\n]*\r\n")
        assert shown.count(b" stay") == 2, shown  # revealed together, once both were in
    finally:
        t.close()


SINGULAR_MISSED = re.compile(r"\b1 (men|dice|hits|figures|defenders|units|obstacles|bombers|fighters|turns)\b|\w\(s\)")


def test_every_rule_set_s_play_says_one_man_one_die_one_hit() -> None:
    """The texts a game prints (every event, verbose) never say '1 men', '1 dice' or 'hit(s)'."""
    games = [
        ("omaha", "--germans", "1", "--seed", "3", "--turn-cap", "6"),
        ("b17", "--seed", "2"),
        ("skirmish", "village_street", "--seed", "4"),
        ("skirmish", "hill_assault", "--seed", "1"),
    ]
    printed = ""
    for args in games:
        done = run_cli("play", *args, "--verbose")
        assert done.returncode == 0, done.stderr
        missed = sorted({m[0] for m in SINGULAR_MISSED.finditer(done.stdout)})
        assert not missed, (args, missed)
        printed += done.stdout
    for singular in ("1 man", "1 die", "1 hit"):
        assert re.search(rf"\b{singular}\b", printed), singular  # the singular is used where it belongs


def test_play_help_names_the_scenario_once_and_each_default_once() -> None:
    for ruleset in ("omaha", "b17", "skirmish"):
        done = run_cli("play", ruleset, "--help")
        assert done.returncode == 0, done.stderr
        assert "[[" not in done.stdout
        doubled = [line for line in done.stdout.splitlines() if line.count("(default") > 1]
        assert not doubled, doubled
    help_text = " ".join(run_cli("play", "skirmish", "--help").stdout.replace("│", " ").split())
    assert "[SCENARIO]" in help_text
    assert "--scenario=hill_assault (text)" in help_text and "str .." not in help_text  # was '; str ..)'


def test_manual_dice_skirmish_shows_the_scenario_before_the_first_roll() -> None:
    done = run_cli("play", "skirmish", "village_street", "--dice", "manual", stdin="quit\n")
    assert done.returncode == 0, done.stderr
    banner = done.stdout.index("Village street across the river: 8 units, 31 men")
    assert banner < done.stdout.index("dice: initiative")


def test_play_help_gives_the_key_of_the_compact_log() -> None:
    for ruleset, abbreviation in (("omaha", "B2>A1 -1"), ("b17", "o'clock (above)"), ("skirmish", "A 1/5")):
        done = run_cli("play", ruleset, "--help")
        assert done.returncode == 0, done.stderr
        text = " ".join(done.stdout.split())
        assert "How to read the turn summary:" in text and abbreviation in text, ruleset
