"""'draw FILE [ORDER]' at a person's prompt, for every rule set: a picture of the table, nothing given."""

from __future__ import annotations

from pathlib import Path

from terminal_driver import run_cli


def test_draw_the_beach_at_an_omaha_prompt(tmp_path: Path) -> None:
    picture = tmp_path / "beach.svg"
    answers = f"draw {picture}\ndraw\ndraw {picture}\ndraw --force {picture}\nquit\n"
    done = run_cli("play", "omaha", "--germans", "1", "--human", "german", "--seed", "3", stdin=answers)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count(f"drew the table to {picture} (nothing given yet)") == 2  # the second with --force
    assert "draw [--force] FILE.svg [ORDER]: name the picture to write" in done.stdout
    # the picture already there is refused as every command's output is, --force replacing it
    assert f"refused: draw '{picture}': the file is already there; --force writes over it" in done.stdout
    assert "Omaha Beach - turn" in picture.read_text(encoding="utf-8")


def test_draw_refuses_a_picture_it_cannot_write(tmp_path: Path) -> None:
    answers = f"draw {tmp_path / 'beach.txt'}\nquit\n"
    done = run_cli("play", "b17", "--human", "german", "--seed", "5", stdin=answers)
    assert done.returncode == 0, done.stderr
    assert "the picture must end in .svg or .png" in done.stdout
    assert f"refused: draw '{tmp_path / 'beach.txt'}'" in done.stdout  # what was typed, not the -o of 'render'
