"""Nothing a person typed or saved is lost at the terminal, through the real program (issue 21).

``replay --seat S --out FILE`` never writes over a file; Ctrl-C says how to
continue, as ``quit`` does; a record cut by a crash in the middle of its last
line is offered back without that line (and only that line); a scenario file
of one's own is kept in the record, so the game replays after the file is
edited, moved or sent; the dice a referee typed for the action in progress
when the program was killed are shown again, not silently asked for again.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from terminal_driver import HANG_GUARD, Terminal, error_line, lines_of, run_cli


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("kept") / "game.jsonl"
    done = run_cli("play", "omaha", "--germans", "1", "--seed", "11", "--record", str(path), "-q")
    assert done.returncode == 0, done.stderr
    return path


# ---------------------------------------------------------------------- replay --out
def test_replay_out_never_writes_over_the_record_itself(record: Path) -> None:
    before = record.read_bytes()
    line = error_line(run_cli("replay", str(record), "--seat", "G1", "--out", str(record)))
    assert "--out" in line and "the record itself" in line and "nothing was written" in line
    assert record.read_bytes() == before


def test_replay_out_never_writes_over_another_file(record: Path, tmp_path: Path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("my notes\n", encoding="utf-8")
    line = error_line(run_cli("replay", str(record), "--seat", "G1", "--out", str(other)))
    assert "the file is already there" in line
    assert other.read_text(encoding="utf-8") == "my notes\n"
    fresh = tmp_path / "mine.jsonl"
    done = run_cli("replay", str(record), "--seat", "G1", "--out", str(fresh))
    assert done.returncode == 0, done.stderr
    assert len(lines_of(fresh)) == len(lines_of(record))


# ---------------------------------------------------------------------- Ctrl-C
def test_ctrl_c_at_a_prompt_says_how_to_continue(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    with Terminal("play", "omaha", "--germans", "1", "--seed", "3", "--human", "german", "--record", str(path)) as t:
        t.prompt()
        t.reading()
        t.proc.send_signal(signal.SIGINT)
        code, out, err = t.finish()
    assert code == 130, (out[-800:], err)
    assert "Traceback" not in out + err
    assert f"continue with: grognard play omaha --resume {path}" in out
    done = run_cli("play", "omaha", "--resume", str(path), "-q", stdin="quit\n")
    assert done.returncode == 0, done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the threads of another process: /proc and tgkill")
def test_ctrl_c_at_a_prompt_is_heard_whichever_thread_of_the_program_takes_it() -> None:
    """The kernel may hand a Ctrl-C to any thread of the program. numpy's OpenBLAS started one more, and Python
    3.11 acts on a signal caught there only at the main thread's next bytecode: at a prompt, a Ctrl-C handed to
    that thread went unheard until a line was typed. The program now runs no thread but the main one. The Ctrl-C
    goes to the last thread the program has, once it sits reading, and its keyboard stays open."""
    tgkill = ctypes.CDLL(None, use_errno=True).tgkill
    with Terminal("play", "omaha", "--germans", "1", "--seed", "3", "--human", "german") as t:
        t.prompt()
        t.reading()
        threads = sorted(int(name) for name in os.listdir(f"/proc/{t.proc.pid}/task"))
        assert tgkill(t.proc.pid, threads[-1], signal.SIGINT) == 0, ctypes.get_errno()
        try:
            t.proc.wait(HANG_GUARD)
        except subprocess.TimeoutExpired:
            t.kill()
            raise AssertionError(f"a Ctrl-C taken by thread {threads[-1]} of {threads} was not heard") from None
        code, out, err = t.finish()
    assert code == 130 and "Traceback" not in out + err, (code, out[-400:], err)
    assert "interrupted at turn 0" in out


def test_ctrl_c_without_a_record_says_nothing_was_saved() -> None:
    with Terminal("play", "omaha", "--germans", "1", "--seed", "3", "--human", "german") as t:
        t.prompt()
        t.reading()
        t.proc.send_signal(signal.SIGINT)
        code, out, err = t.finish()
    assert code == 130 and "Traceback" not in out + err
    assert "nothing was saved (play with --record FILE to keep a game)" in out


# ---------------------------------------------------------------------- a record cut by a crash
def torn_copy(whole: Path, to: Path, lines: int, keep: int) -> Path:
    """``whole``'s first ``lines`` lines, then the first ``keep`` bytes of the next one: a crash mid-write."""
    raw = whole.read_bytes().split(b"\n")
    to.write_bytes(b"".join(line + b"\n" for line in raw[:lines]) + raw[lines][:keep])
    return to


def test_a_torn_last_line_is_dropped_on_resume_when_the_person_says_yes(record: Path, tmp_path: Path) -> None:
    torn = torn_copy(record, tmp_path / "torn.jsonl", 40, 57)
    before = torn.read_bytes()
    done = run_cli("play", "omaha", "--resume", str(torn), "-q", stdin="no\n")
    assert done.returncode == 0, done.stderr
    assert "line 41, the last, is cut short: the game stopped while writing it" in done.stdout
    assert f"nothing changed: {torn} is as it was" in done.stdout
    assert torn.read_bytes() == before  # asked, refused: not a byte changed
    done = run_cli("play", "omaha", "--resume", str(torn), "-q", stdin="yes\n")
    assert done.returncode == 0, done.stderr
    assert f"dropped line 41 of {torn}; its action is played again" in done.stdout
    assert torn.read_bytes() == record.read_bytes()  # the same game as the one never cut


def test_replay_and_render_read_a_torn_record_without_its_cut_line(record: Path, tmp_path: Path) -> None:
    torn = torn_copy(record, tmp_path / "torn.jsonl", 40, 3)
    done = run_cli("replay", str(torn))
    assert done.returncode == 0, done.stderr
    assert "40 lines replayed, 38 actions; every die and digest matches" in done.stdout
    assert f"note: {torn}: line 41 is cut short (the game stopped while writing it)" in done.stderr
    done = run_cli("render", "omaha", str(torn), "-o", str(tmp_path / "b.svg"))
    assert done.returncode == 0, done.stderr


def test_a_damaged_line_that_is_not_the_last_is_still_an_error(record: Path, tmp_path: Path) -> None:
    raw = record.read_bytes().split(b"\n")
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_bytes(b"\n".join([*raw[:40], raw[40][:57], *raw[41:60]]) + b"\n")
    before = damaged.read_bytes()
    line = error_line(run_cli("play", "omaha", "--resume", str(damaged), "-q", stdin="yes\n"))
    assert "line 41: not JSON" in line
    assert "line 41: not JSON" in error_line(run_cli("replay", str(damaged)))
    assert damaged.read_bytes() == before


def test_a_last_line_whole_but_for_its_newline_resumes_on_a_line_of_its_own(record: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"\n".join(record.read_bytes().split(b"\n")[:41]))  # 41 whole lines, no newline after
    done = run_cli("play", "omaha", "--resume", str(cut), "-q")
    assert done.returncode == 0, done.stderr
    assert cut.read_bytes() == record.read_bytes()


def test_record_lines_are_on_the_disk_after_a_pause_and_every_typed_roll_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer syncs the file after a line that follows a pause (the first, a person's answer), after each
    typed roll at once, and on closing; bots' fast lines at most every SYNC_GAP (they replay from the seed)."""
    import os

    from grognard.core.record import RecordWriter, make_header

    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    sink = (tmp_path / "r.jsonl").open("w", encoding="utf-8")
    writer = RecordWriter(make_header("omaha", {}, "seeded", 1), sink)
    assert synced == [sink.fileno()]
    writer.typed("landing A1 (inches out)", 6, [3])
    assert len(synced) == 2
    writer.close()
    assert len(synced) == 3 and sink.closed


# ---------------------------------------------------------------------- one's own scenario kept in the record
def test_a_record_of_ones_own_scenario_replays_after_the_files_are_edited_or_gone(tmp_path: Path) -> None:
    from grognard.rulesets.skirmish.scenario import SCENARIOS_DIR
    from grognard.rulesets.skirmish.tables import DEFAULT_TABLES

    folder = tmp_path / "mine"
    folder.mkdir()
    text = (SCENARIOS_DIR / "village_street.toml").read_text(encoding="utf-8")
    text = "\n".join(line for line in text.splitlines() if not line.startswith("tables ="))
    (folder / "street.toml").write_text('tables = "my_tables.toml"\n' + text + "\n", encoding="utf-8")
    (folder / "my_tables.toml").write_text(DEFAULT_TABLES.read_text(encoding="utf-8"), encoding="utf-8")
    record = tmp_path / "game.jsonl"
    done = run_cli(
        "play",
        "skirmish",
        "street.toml",
        "--seed",
        "3",
        "--turn-limit",
        "2",
        "--record",
        str(record),
        "-q",
        cwd=folder,
    )
    assert done.returncode == 0, done.stderr
    header = json.loads(lines_of(record)[0])
    assert header["embedded"]["scenario"]["toml"].startswith('tables = "my_tables.toml"')
    assert header["embedded"]["scenario"]["tables"]["file"] == "my_tables.toml"
    # edit both files, then take them away: the record plays from its own copy
    (folder / "street.toml").write_text(text.replace("Village", "Edited") + "\n", encoding="utf-8")
    (folder / "my_tables.toml").write_text("name = 'broken'\n", encoding="utf-8")
    done = run_cli("replay", str(record))
    assert done.returncode == 0, done.stderr
    assert "every die and digest matches the record" in done.stdout
    (folder / "street.toml").unlink()
    (folder / "my_tables.toml").unlink()
    done = run_cli("replay", str(record))
    assert done.returncode == 0, done.stderr
    done = run_cli("render", "skirmish", str(record), "--turn", "2", "-o", str(tmp_path / "t.svg"))
    assert done.returncode == 0, done.stderr
    cut = tmp_path / "cut.jsonl"  # and a game cut in the middle goes on as it would have
    cut.write_text("".join(line + "\n" for line in lines_of(record)[:12]), encoding="utf-8")
    done = run_cli("play", "skirmish", "--resume", str(cut), "-q")
    assert done.returncode == 0, done.stderr
    assert cut.read_bytes() == record.read_bytes()


def test_a_shipped_scenario_is_named_not_copied(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    done = run_cli("play", "skirmish", "hill_assault", "--seed", "1", "--turn-limit", "1", "--record", str(record))
    assert done.returncode == 0, done.stderr
    header = json.loads(lines_of(record)[0])
    assert header["options"]["scenario"] == "hill_assault" and "embedded" not in header


# ---------------------------------------------------------------------- typed dice and kill -9
def test_dice_typed_for_an_action_cut_by_kill_are_kept_and_shown_on_resume(tmp_path: Path) -> None:
    from terminal_driver import DICE, records_of

    path = tmp_path / "table.jsonl"
    manual = ("play", "omaha", "--germans", "1", "--dice", "manual", "--seed", "1", "--turn-cap", "2")
    with Terminal(*manual, "--record", str(path)) as t:
        for value in ("4", "4", "4", "4", "2", "5"):  # the obstacles (setup), then A1's and A2's landings
            t.expect(DICE)
            t.prompt()
            t.send(value)
        assert t.expect(DICE)["purpose"] == "landing A3 (inches out)"
        t.prompt()
        t.kill()  # kill -9 in the middle of the German's placing: its line was never written
    assert [line["type"] for line in records_of(path)] == ["header", "start", "typed", "typed"]
    with Terminal("play", "omaha", "--resume", str(path)) as t:
        match = t.expect(DICE)
        assert match["purpose"] == "landing A3 (inches out)"  # A1's and A2's are not asked again
        assert "the action under way when the game stopped was not saved; the 2 rolls typed for it are kept" in t.shown
        assert "dice: landing A1 (inches out): 2 (typed before the program stopped: kept)" in t.shown
        assert "dice: landing A2 (inches out): 5 (typed before the program stopped: kept)" in t.shown
        t.prompt()
        t.send("6")
        t.expect(DICE)
        t.prompt()
        t.send("quit")
        code, _, err = t.finish()
    assert code == 0 and "Traceback" not in err
    placed = next(line for line in records_of(path) if line.get("action", "").startswith("place G1"))
    landings = [e["values"] for e in placed["events"] if e["kind"] == "dice"]
    assert landings == [[2], [5], [6]]
    done = run_cli("replay", str(path))
    assert done.returncode == 0, done.stderr
