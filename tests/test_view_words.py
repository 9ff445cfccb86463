"""The situation of a decision and the board as text are read from a seat's view alone (issue 30, item 2).

``Face.situation`` and ``Face.board`` take the view of a seat sent through JSON, as the web and the terminal
have it, and must give a person the very words the game itself gave: ``tests/golden/words`` holds those words at
sampled steps of golden records, written while ``situation`` and ``board`` still read the whole game
(``tests/golden/make_words.py``).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

GOLDEN = Path(__file__).resolve().parent / "golden"


def _make_words() -> Any:
    spec = importlib.util.spec_from_file_location("make_words", GOLDEN / "make_words.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKE = _make_words()


@pytest.mark.parametrize("name", sorted(MAKE.RECORDS))
def test_situation_and_board_from_the_view_read_as_from_the_game(name: str) -> None:
    expected = json.loads((GOLDEN / "words" / f"{name}.json").read_text(encoding="utf-8"))
    got = MAKE.sampled(name, MAKE.RECORDS[name])
    assert [step["action"] for step in got] == [step["action"] for step in expected]
    for mine, theirs in zip(got, expected, strict=True):
        assert mine["words"] == theirs["words"], f"{name}, action {mine['action']}: the words differ"
    shown = json.dumps(expected)
    # what the views carry is put to the test: a bunker in contact, a move's reach, the guns in range
    assert "in contact with" in shown if name.startswith("omaha") else True
    assert "from the fighter's nose" in shown and "guns in range: " in shown if name.startswith("b17") else True
