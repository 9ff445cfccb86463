"""The examples of README and of the guides in docs/ (`grognard odds`: a capped table, composites by --what,
readings as options; `grognard sheet`) run as shown: each `$ grognard ...` line of a text block gives the lines
printed under it (a `…` line stands for rows left out), each sheet command writes its PDF."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from terminal_driver import run_cli

ROOT = Path(__file__).parent.parent
README = "\n".join(p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])


def shown() -> list[tuple[list[str], list[str]]]:
    """Each `$ grognard odds ...` command of README's text blocks with the lines shown under it."""
    out: list[tuple[list[str], list[str]]] = []
    for block in re.findall(r"```text\n(.*?)```", README, re.S):
        lines = [line.strip() for line in block.splitlines()]
        for i, line in enumerate(lines):
            if line.startswith("$ grognard odds "):
                following = []
                for nxt in lines[i + 1 :]:
                    if nxt.startswith("$ ") or not nxt:
                        break
                    following.append(nxt)
                out.append((shlex.split(line[2:])[1:], following))
    return out


EXAMPLES = shown()


def test_readme_shows_a_capped_table_a_composite_a_reading_as_an_option_and_a_sheet() -> None:
    commands = [" ".join(args) for args, _ in EXAMPLES]
    assert any("bunker_fire" in c for c in commands)  # a table as play caps it (kills beyond the men present)
    assert any("--what shots_to_empty" in c for c in commands)  # a composite
    assert any(" -o " in c for c in commands)  # a reading as an option
    assert re.search(r"`grognard sheet \w+ [^`]*-o \S+\.pdf`", README)


@pytest.mark.parametrize(("args", "lines"), EXAMPLES, ids=[" ".join(a) for a, _ in EXAMPLES])
def test_a_readme_odds_example_prints_what_it_shows(args: list[str], lines: list[str]) -> None:
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    printed = [" ".join(line.split()) for line in done.stdout.splitlines() if line.strip()]
    wanted = [" ".join(line.split()) for line in lines if not line.startswith("…")]
    at = 0
    for line in wanted:  # in order, rows left out where README shows "…"
        assert line in printed[at:], (line, printed)
        at = printed.index(line, at) + 1


@pytest.mark.parametrize("command", re.findall(r"`(grognard sheet [^`]*-o [^`]+)`", README))
def test_a_readme_sheet_command_writes_its_pdf(command: str, tmp_path: Path) -> None:
    args = shlex.split(command)[1:]
    done = run_cli(*args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    written = tmp_path / args[args.index("-o") + 1]
    assert written.read_bytes().startswith(b"%PDF")
