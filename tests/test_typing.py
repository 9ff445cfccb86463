"""The core, the web server and the rule sets' games type-check under ``mypy --strict`` (the files ``[tool.mypy]`` in
pyproject.toml names): the contracts between the core, the rule sets and the faces are typed, and stay so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_core_and_web_type_check_strictly(monkeypatch: pytest.MonkeyPatch) -> None:
    """mypy's own cache (``.mypy_cache``, as ``mypy`` at the root keeps it): a run after a change checks again what
    changed and what depends on it (a minute and a half of a loaded suite from a cache made afresh each time)."""
    api = pytest.importorskip("mypy.api")
    monkeypatch.chdir(ROOT)  # the configuration and its files are read from the project's root
    out, err, status = api.run(["--no-error-summary"])
    assert status == 0, out + err


def test_each_rule_sets_game_is_generic_in_its_own_state() -> None:
    """``Game[S]``: a rule set's game names its state class, so mypy reads ``game.state`` as that class (it read
    ``Any``), and a game's state is an instance of it."""
    from typing import get_args

    from grognard import rulesets
    from grognard.core.dice import SeededDice
    from grognard.core.engine import Game

    for name in ("omaha", "b17", "skirmish"):
        ruleset = rulesets.get(name)
        game = ruleset.create({}, SeededDice(1))
        base = next(b for b in type(game).__orig_bases__ if getattr(b, "__origin__", None) is Game)
        (state_class,) = get_args(base)
        assert state_class is not Any and isinstance(game.state, state_class), name
        assert state_class.__name__.lower().startswith(name), (name, state_class)
