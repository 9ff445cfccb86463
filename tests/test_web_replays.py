"""The replay viewer's reading of a record (``web.replays``), without a server: the file's own line numbers
(a referee's typed rolls and blank lines counted), the dice of each step as recorded, a tampered line named."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from grognard.core.errors import RecordError
from grognard.web.replays import read, step


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """A short Omaha game's record as written by ``grognard play``, with a referee's typed roll and a blank
    line put in after its start line (outside the digest chain, as ``RecordWriter.typed`` writes them); played with
    ``--explain``, so that each action line keeps its bot's reason."""
    path = tmp_path_factory.mktemp("replays") / "game.jsonl"
    command = [sys.executable, "-m", "grognard.cli", "play", "omaha", "--germans", "1", "--turn-cap", "3"]
    subprocess.run([*command, "--seed", "4", "--explain", "--record", str(path)], check=True, capture_output=True)
    lines = path.read_text(encoding="utf-8").splitlines()
    typed = json.dumps({"type": "typed", "purpose": "landing A1 (inches out)", "sides": 6, "values": [3]})
    return [lines[0], lines[1], typed, "", *lines[2:]]


def test_steps_name_the_files_lines_and_carry_the_recorded_dice(record: list[str]) -> None:
    book = read(record, "game.jsonl")
    actions = [k for k, text in enumerate(record, 1) if text.strip() and json.loads(text)["type"] != "typed"]
    assert book.steps == len(actions) - 1  # the header is no step
    for n in range(book.steps):
        shown = step(book, n)
        line = json.loads(record[shown["line"] - 1])
        assert shown["line"] == actions[n + 1] and line["type"] in ("start", "action", "resign")
        rolled = [[e["values"], e["sides"], e["purpose"]] for e in line["events"] if e["kind"] == "dice"]
        assert [[e["dice"], e["sides"], e["purpose"]] for e in shown["events"] if "dice" in e] == rolled
        assert (shown["order"] or {}).get("text") == line.get("action")
        if line["type"] == "action":  # the bot's reason, for the viewer's "why?"
            assert shown["why"]["action"] == line["action"] and shown["why"]["clause"].startswith("omaha.")
    assert step(book, 1)["line"] == 5  # header, start, typed roll, blank line, then the first action


def test_a_tampered_die_is_named_at_its_line_in_the_file(record: list[str]) -> None:
    lines = list(record)
    k = next(k for k, text in enumerate(lines) if k > 3 and '"kind":"dice"' in text)
    line = json.loads(lines[k])
    roll = next(e for e in line["events"] if e["kind"] == "dice")
    roll["values"][0] = roll["values"][0] % 6 + 1
    lines[k] = json.dumps(line, separators=(",", ":"))
    with pytest.raises(RecordError) as refused:
        read(lines, "game.jsonl")
    assert refused.value.line == k + 1 and str(refused.value).startswith(f"line {k + 1}: "), str(refused.value)
