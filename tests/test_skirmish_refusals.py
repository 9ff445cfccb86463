"""Skirmish refusals that say what is wrong (issue 21): a unit the game lacks, a move off the table.

Scenes on the 48" x 48" test table of ``test_skirmish_rules``; every refusal leaves the state as it was.
"""

from __future__ import annotations

import pytest

from grognard.rulesets.skirmish.actions import Fire, Move
from grognard.rulesets.skirmish.game import SkirmishGame
from test_skirmish_rules import fig, make, refusal, scenario, unit


def scene() -> SkirmishGame:
    return make(scenario([unit("A", "allies", fig(10, 10)), unit("G", "axis", fig(10, 15))]))


@pytest.mark.rule("skirmish.2")
def test_an_order_for_a_unit_the_game_lacks_says_it_does_not_exist() -> None:
    game = scene()
    for action in (Move("Z", ((12.0, 12.0),)), Fire("Q", "G")):
        error = refusal(game, "Allies", action)
        assert f"there is no unit {action.unit} in this game (A, G)" in str(error), error
    # a unit the game has, whose decision is not owed now, is told so instead
    error = refusal(game, "Allies", Fire("A", "G"))
    assert "no unit" not in str(error) and "not owed now" in str(error), error


@pytest.mark.rule("skirmish.2", "skirmish.10")
def test_a_move_off_the_table_says_off_the_table_even_through_a_base() -> None:
    game = scene()
    error = refusal(game, "Allies", Move("A", ((10.0, 500.0),)))  # through G.1's base, then off the table
    assert error.rule == "skirmish.2" and "would leave the table at (10, 500)" in str(error), error
    error = refusal(game, "Allies", Move("A", ((10.0, 16.0),)))  # through G.1's base, on the table
    assert error.rule == "skirmish.10" and "through G.1's base" in str(error), error
