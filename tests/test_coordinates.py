"""One coordinate grammar across the three rule sets: a point is ``X,Y``, ``X, Y`` or ``X Y`` everywhere."""

from __future__ import annotations

import pytest

from grognard.rulesets import get


@pytest.mark.parametrize(
    ("ruleset", "forms"),
    [
        ("omaha", ["move A3 20 24.5", "move A3 20,24.5", "move A3 20, 24.5", "move A3 20 ,24.5"]),
        ("b17", ["fly B1 to 40 30", "fly B1 to 40,30", "fly B1 to 40, 30 "]),
        (
            "b17",
            ["place 1 16,30 12.5,34.5 12.5,25.5 8.5,30", "place 1 16 30 12.5 34.5 12.5 25.5 8.5 30"],
        ),
        ("skirmish", ["move A 20,30 25,35", "move A 20 30 25 35", "move A 20, 30 25 ,35"]),
        ("skirmish", ["move A / A.1 ladder 20,30", "move A / A.1 ladder 20 30"]),
        ("skirmish", ["drive Half 20,30 then unload B", "drive Half 20 30 then unload B"]),
        ("skirmish", ["burst G 20,30 45", "burst G 20 30 45"]),  # the angle after the point stays an angle
        ("skirmish", ["turn A G 20,30", "turn A G 20 30"]),
        ("skirmish", ["fire A G / A.3 wedge 20,30", "fire A G / A.3 wedge 20 30"]),
    ],
)
def test_a_point_is_read_the_same_however_it_is_typed(ruleset: str, forms: list[str]) -> None:
    parse = get(ruleset).parse_action
    actions = [parse(text) for text in forms]
    assert all(action == actions[0] for action in actions), actions
    assert parse(str(actions[0])) == actions[0]  # the text form still parses back
