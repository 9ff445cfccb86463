"""Nothing a person typed or saved is lost at the terminal, through the real program (issue 21).

``replay --seat S --out FILE`` never writes over a file; Ctrl-C says how to
continue, as ``quit`` does; a record cut by a crash in the middle of its last
line is offered back without that line (and only that line); a scenario file
of one's own is kept in the record, so the game replays after the file is
edited, moved or sent; the dice a referee typed for the action in progress
when the program was killed are shown again, not silently asked for again.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from terminal_driver import Terminal, error_line, lines_of, run_cli


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
    assert "a file already there" in line
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
        t.proc.send_signal(signal.SIGINT)
        code, out, err = t.finish()
    assert code == 130, (out[-800:], err)
    assert "Traceback" not in out + err
    assert f"continue with: grognard play omaha --resume {path}" in out
    done = run_cli("play", "omaha", "--resume", str(path), "-q", stdin="quit\n")
    assert done.returncode == 0, done.stderr


def test_ctrl_c_without_a_record_says_nothing_was_saved() -> None:
    with Terminal("play", "omaha", "--germans", "1", "--seed", "3", "--human", "german") as t:
        t.prompt()
        t.proc.send_signal(signal.SIGINT)
        code, out, err = t.finish()
    assert code == 130 and "Traceback" not in out + err
    assert "nothing was saved (play with --record FILE to keep a game)" in out
