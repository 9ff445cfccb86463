"""The whole package type-checks under ``mypy --strict`` (``[tool.mypy]`` in pyproject.toml names
``src/grognard``, every module of it, none excepted): the contracts between the core, the rule sets and the faces
are typed, and stay so. A ``type: ignore`` stands only at a third-party boundary, with its code and a reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_package_type_checks_strictly(monkeypatch: pytest.MonkeyPatch) -> None:
    """mypy's own cache (``.mypy_cache``, as ``mypy`` at the root keeps it): a run after a change checks again what
    changed and what depends on it (from a cache made afresh the whole package costs 15 to 25 s of CPU; 0.4 s when
    nothing changed)."""
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


def _bare_any(hint: Any) -> list[str]:
    """Where ``Any`` stands as a callable's parameter or result anywhere in ``hint`` (a ``dict[str, Any]`` of data
    is JSON, not a loose callable)."""
    import collections.abc
    import typing

    found: list[str] = []
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is collections.abc.Callable and args:
        params, result = args[0], args[-1]
        loose = (
            params is Ellipsis or result is Any or any(p is Any for p in (params if isinstance(params, list) else []))
        )
        if loose:
            found.append(str(hint))
    for arg in args:
        found += _bare_any(arg) if not isinstance(arg, list) else [x for a in arg for x in _bare_any(a)]
    return found


def test_ruleset_is_data_and_typed_parts_with_no_any_callable() -> None:
    """``Ruleset`` is facts as data and a few typed parts (issue 30, item 2): no field is ``Any``, no field is a
    callable taking or giving ``Any`` (it had 21 callables, 18 of them so), and the parts' protocols type every
    parameter and result of their methods, none of them ``Any``. Each shipped rule set's parts are instances of
    its protocols, whole."""
    import dataclasses
    import inspect
    import typing

    from grognard import rulesets
    from grognard.analysis.odds import OddsTable
    from grognard.core import ruleset as core

    hints = typing.get_type_hints(core.Ruleset, vars(core) | {"OddsTable": OddsTable})
    fields = [f.name for f in dataclasses.fields(core.Ruleset)]
    assert not [name for name in fields if hints[name] is Any], "a field typed Any"
    assert not {name: _bare_any(hints[name]) for name in fields if _bare_any(hints[name])}
    callables = [name for name in fields if "Callable" in str(hints[name]) and name not in ("bots", "render")]
    assert not callables, f"loose callables on Ruleset: {callables}"
    parts = {"rules": core.Rules, "adviser": core.Adviser, "analysis": core.Analysis, "files": core.ScenarioFiles}
    for protocol in (*parts.values(), core.Batch):
        for name, method in inspect.getmembers(protocol, inspect.isfunction):
            if name.startswith("_"):
                continue
            signature = typing.get_type_hints(method, vars(core) | {"OddsTable": OddsTable})
            assert "return" in signature and all(v is not Any for v in signature.values()), (protocol, name)
            assert set(inspect.signature(method).parameters) - {"self"} <= set(signature), (protocol, name)
    for name in rulesets.names():
        ruleset = rulesets.get(name)
        for part, protocol in parts.items():
            value = getattr(ruleset, part)
            if value is not None:
                missing = [m for m, _ in inspect.getmembers(protocol, inspect.isfunction) if not m.startswith("_")]
                assert all(callable(getattr(value, m, None)) for m in missing), (name, part)
        assert ruleset.adviser is not None and ruleset.analysis is not None, name


def test_the_rule_sets_declarations_are_never_excused_from_mypy() -> None:
    """What mypy must check whole: the core's ``Ruleset`` and its protocols, and each rule set's declaration and
    parts (``__init__``, ``advice``, ``faces``, ``menu``, ``levels``, ``game``), so that a rule set's parts are
    checked against the protocols; none of them may go back on pyproject's ``ignore_errors`` list."""
    import fnmatch
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    excused = [m for o in config.get("overrides", []) if o.get("ignore_errors") for m in o["module"]]
    names = ["grognard.core.ruleset", "grognard.core.engine", "grognard.core.face"]
    for rs in ("omaha", "b17", "skirmish"):
        names += [f"grognard.rulesets.{rs}"] + [
            f"grognard.rulesets.{rs}.{m}" for m in ("advice", "faces", "levels", "game")
        ]
    names += ["grognard.rulesets.omaha.menu", "grognard.rulesets.b17.menu"]
    assert not [n for n in names if any(fnmatch.fnmatchcase(n, pattern) for pattern in excused)]
    assert config["files"] == ["src/grognard"]


def test_the_adviser_keeps_what_needs_the_game_and_the_face_reads_the_rest_from_the_view() -> None:
    """The adviser is the menu, a note, the odds and a preview, which need the game (issue 30, item 2); the
    situation of a decision and the board as text are each rule set's face's, given the seat's view, and the
    modules that word them import nothing of the game or its state."""
    import ast
    import inspect
    from pathlib import Path

    from grognard import rulesets
    from grognard.core import ruleset as core

    methods = {name for name, _ in inspect.getmembers(core.Adviser, inspect.isfunction) if not name.startswith("_")}
    assert methods == {"menu", "note", "odds", "preview"}
    for name in rulesets.names():
        ruleset = rulesets.get(name)
        assert ruleset.face is not None and ruleset.face.situation is not None and ruleset.face.board is not None
        assert not hasattr(ruleset.adviser, "situation") and not hasattr(ruleset.adviser, "board"), name
        module = inspect.getmodule(ruleset.face.board)
        assert module is not None and module is inspect.getmodule(ruleset.face.situation), name
        tree = ast.parse(Path(inspect.getfile(module)).read_text(encoding="utf-8"))
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not {m for m in imported if m.rsplit(".", 1)[-1] in ("game", "state")}, (name, imported)
