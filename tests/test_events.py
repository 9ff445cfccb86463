"""Event kinds as data (issue 30, item 3): each rule set declares the kinds of event its game emits, with their
fields and types (``rulesets/<rs>/events.py``); the engine refuses an undeclared kind or a missing field, and
reading a record refuses an event its game does not declare."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from grognard import rulesets
from grognard.core.dice import ScriptedDice, SeededDice
from grognard.core.errors import EventError, RecordError
from grognard.core.events import CORE_EVENTS, EventKinds, kind
from grognard.core.record import replay
from toy_game import RULESET as TOY
from toy_game import SentryRun

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
RULESETS = ("omaha", "b17", "skirmish")


def _emitted(path: Path) -> set[str]:
    """The kinds a module's code emits: the first argument of each ``emit(...)`` call, a string or a choice of
    two (``"hitched" if ... else "unhitched"``)."""
    kinds: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "emit"):
            continue
        first = node.args[0] if node.args else None
        if isinstance(first, ast.Name) and first.id == "kind":  # a forwarder (the skirmish's Context.emit)
            continue
        options = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
        for option in options:
            assert isinstance(option, ast.Constant) and isinstance(option.value, str), (
                f"{path.name}:{node.lineno}: an event's kind is a literal string, so its table can be checked"
            )
            kinds.add(option.value)
    return kinds


@pytest.mark.parametrize("name", RULESETS)
def test_every_kind_the_code_emits_is_declared_and_every_declared_kind_is_emitted(name: str) -> None:
    """The table and the code agree both ways: no kind emitted undeclared, none declared and never emitted."""
    game_class = type(rulesets.get(name).create({}, SeededDice(1)))
    table = game_class.event_kinds
    emitted: set[str] = set()
    for path in sorted((ROOT / "src" / "grognard" / "rulesets" / name).rglob("*.py")):
        emitted |= _emitted(path)
    emitted |= _emitted(ROOT / "src" / "grognard" / "core" / "engine.py") | {"dice"}  # dice: Game.roll's own
    assert emitted - set(table) == set()
    assert set(table) - emitted == set()
    assert set(CORE_EVENTS) <= set(table)
    assert all(table[k].meaning and "\n" not in table[k].meaning for k in table)  # a one-line meaning each


def test_the_engine_refuses_an_undeclared_kind_and_a_missing_field() -> None:
    game = rulesets.get("omaha").create({}, SeededDice(3))
    game.take_events()
    with pytest.raises(EventError, match="event kind 'teleported' is not declared"):
        game.emit("teleported", squad="A1")
    with pytest.raises(EventError, match="event 'moved' lacks its fields x, y"):
        game.emit("moved", squad="A1", x0=1.0, y0=2.0)
    with pytest.raises(EventError, match="event 'holds' has no field inches"):
        game.emit("holds", squad="A1", inches=3.0)
    assert game.take_events() == []  # nothing refused was recorded
    game.emit("holds", squad="A1")
    assert [e.kind for e in game.take_events()] == ["holds"]


class _Careless(SentryRun):
    """The toy game with a rule that emits a kind its table lacks: after each dash, ``"waved"``."""

    def _apply(self, decision: Any, action: Any) -> None:
        super()._apply(decision, action)
        self.emit("waved", at=self.state.position)


def test_an_action_whose_rule_emits_an_undeclared_kind_leaves_the_state_as_it_was() -> None:
    game = _Careless(TOY.resolve({}), ScriptedDice([]))
    game.take_events()
    lanes = [d for d in game.pending()]
    for decision in lanes:  # the secret lanes: the runner's left, the sentry's right
        game.apply(decision.seat, decision.space.candidates(2)[lanes.index(decision)])
    before, pending = game.digest(), [d.id for d in game.pending()]
    runner = game.pending()[0]
    with pytest.raises(EventError, match="'waved' is not declared"):
        game.apply(runner.seat, runner.space.candidates(1)[0])
    assert game.digest() == before and [d.id for d in game.pending()] == pending


def _golden_lines(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (GOLDEN / name).read_text(encoding="utf-8").splitlines()]


def _first_event(lines: list[dict[str, Any]], kind_name: str) -> tuple[int, int]:
    for number, line in enumerate(lines, 1):
        for k, event in enumerate(line.get("events", []), 1):
            if event.get("kind") == kind_name:
                return number, k
    raise AssertionError(f"no {kind_name} event")


def test_a_record_whose_event_lacks_a_field_is_refused_naming_it() -> None:
    lines = _golden_lines("omaha-g1-seed1.jsonl")
    number, k = _first_event(lines, "moved")
    del lines[number - 1]["events"][k - 1]["y"]
    with pytest.raises(RecordError) as refused:
        replay(lines, rulesets.get)
    assert str(refused.value) == (
        f"line {number}: event {k}: event 'moved' lacks its field y (a squad moved: squad, x0, y0, x, y)"
    )


def test_a_record_naming_an_undeclared_kind_or_a_wrong_type_is_refused_naming_it() -> None:
    lines = _golden_lines("b17-seed1.jsonl")
    number, k = _first_event(lines, "turn")
    lines[number - 1]["events"][k - 1]["kind"] = "tea_break"
    with pytest.raises(RecordError, match=rf"^line {number}: event {k}: event kind 'tea_break' is not declared"):
        replay(lines, rulesets.get)
    lines = _golden_lines("b17-seed1.jsonl")
    lines[number - 1]["events"][k - 1]["turn"] = "two"
    with pytest.raises(
        RecordError, match=rf"^line {number}: event {k}: event 'turn': its field turn is 'two', not int"
    ):
        replay(lines, rulesets.get)


def test_a_table_refuses_a_kind_declared_twice_and_an_optional_field_it_lacks() -> None:
    with pytest.raises(ValueError, match="'dice' is declared twice"):
        EventKinds(kind("dice", "again", values=list))
    with pytest.raises(ValueError, match="optional"):
        kind("moved", "a move", squad=str, optional=("x",))
    table = EventKinds(kind("landed", "a squad landed", squad=str, x=float, why=str | None))
    table.check_types("landed", {"squad": "A1", "x": 3, "why": None})  # an int is a float's value in JSON
    with pytest.raises(EventError, match="its field x is True, not float"):
        table.check_types("landed", {"squad": "A1", "x": True, "why": None})
