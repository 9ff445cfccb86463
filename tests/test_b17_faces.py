"""What a person sees of the B-17 raid: the situation, the board, a move's note and odds, its preview picture."""

from __future__ import annotations

import re

import pytest

from grognard.core.dice import ScriptedDice
from grognard.core.errors import IllegalAction
from grognard.rulesets.b17 import RULESET, B17Game
from grognard.rulesets.b17.actions import USAGE, Fly, Guns, parse_action
from grognard.rulesets.b17.faces import note, odds, preview
from grognard.rulesets.b17.view_words import board, situation
from test_b17_rules import scene


def test_a_moves_preview_draws_its_path_stop_and_the_guns_that_would_answer() -> None:
    game = scene({"B1": (50.0, 30.0, 0.0)}, {"F1": (47.0, 36.0, -90.0)})
    view = preview(game, "German", Fly("F1", 14.0, 0.0, "B1", 3.0))
    p = view["preview"]
    assert p["path"] == [[47.0, 36.0], [47.0, 22.0]] and p["stop"] == [47.0, 33.0] and not p["leaves"]
    assert {(g["bomber"], g["gun"], g["when"]) for g in p["guns"]} == {
        ("B1", "tail", "stop"),
        ("B1", "left waist", "stop"),
        ("B1", "right waist", "stop"),
    }
    svg = RULESET.render(view)  # type: ignore[misc]
    assert "preview (not given): fly F1 14 0 attack B1 at 3" in svg and "attacks B1" in svg
    assert game.state.to_move == ["F1"]  # nothing was given


def test_the_preview_of_a_move_off_the_table_says_so() -> None:
    game = scene({"B1": (50.0, 30.0, 0.0)}, {"F1": (100.0, 55.0, 90.0)})
    p = preview(game, "German", Fly("F1", 14.0, 0.0))["preview"]
    assert p["leaves"] and p["path"][-1] == [100.0, 60.01]
    assert "LEAVES THE TABLE" in note(game, Fly("F1", 14.0, 0.0))


def test_notes_odds_situation_and_board() -> None:
    game = scene({"B1": (50.0, 30.0, 0.0)}, {"F1": (47.0, 36.0, -90.0)}, dice=(1, 6, 1, 6, 1, 6))
    attack = Fly("F1", 14.0, 0.0, "B1", 3.0)
    assert note(game, attack).startswith("attack B1 at (47, 33), 2 gunners answer")
    assert odds(game, attack) == "damages 36%, destroys 5.6%"
    lines = situation(game.view("German"), game.pending()[0])
    assert lines[0].startswith('Turn 1, fighters move - German: F1 (Me-109) flies 14"')
    assert 'at least 6" straight' in lines[2]
    game.apply("German", attack)
    decision = game.pending()[0]
    assert "guns in range: " in situation(game.view(decision.seat), decision)[-1]
    assert odds(game, Guns("B1", "F1", "waists")) == "each gun damages 22%, destroys 5.6%"
    text = board(game.view(None))
    assert '1 character = 4"' in text and "F1 Me-109 at (47, 33)" in text


def test_the_place_example_in_the_help_is_a_legal_box_at_the_default_model_sizes() -> None:
    example = re.search(r"e\.g\. (place [^)]*)\)", USAGE["place"])
    assert example is not None
    game = B17Game(RULESET.resolve({}), ScriptedDice([1, 1]))
    game.apply("American", parse_action(example.group(1)))  # not refused
    assert game.state.placed


def test_a_wrong_box_names_each_problems_rule_once() -> None:
    game = B17Game(RULESET.resolve({}), ScriptedDice([1, 1]))
    with pytest.raises(IllegalAction) as info:
        game.apply("American", parse_action("place 1 3,30 11.5,34.5 11.5,25.5 7.5,30"))
    text = str(info.value)
    assert info.value.rule == "b17.12"
    assert text.endswith("(b17.14)") and "(b17.12) (b17.12)" not in text and text.count("(b17.12)") == 2
