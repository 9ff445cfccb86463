"""B-17 actions: text forms that parse back, JSON round trips, and parse errors that quote the input."""

from __future__ import annotations

import json

import pytest

from grognard.core.errors import ParseError
from grognard.rulesets.b17.actions import Fly, Guns, PlaceBox, action_from_json, parse_action

ACTIONS = [
    PlaceBox(1, ((16.42, 30.0), (12.86, 34.19), (12.86, 25.81), (9.29, 30.0))),
    PlaceBox(2, ((16.0, 40.0), (12.5, 44.0), (12.5, 36.0), (9.0, 40.0))),
    Fly("F1", 6.0, -30.0),
    Fly("F3", 7.25, 180.0, "B2", 9.5),
    Fly("B4", 3.0, 90.0),
    Fly("F2", to=(40.0, 30.5)),
    Fly("F2", target="B1", at=3.0, to=(40.0, 30.5)),
    Guns("B2", "F1", "waists"),
    Guns("B8", "F7", "nose-tail"),
]


@pytest.mark.parametrize("action", ACTIONS, ids=[str(a) for a in ACTIONS])
def test_text_and_json_round_trip(action: object) -> None:
    assert parse_action(str(action)) == action
    assert action_from_json(json.loads(json.dumps(action.to_json()))) == action  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "text",
    [
        "fly F1 6.004 -30.004",
        "fly F2 6.336 -30.336 attack B1 at 9.995",
        "fly F4 to 40.125 30.0051",
        "place 1 16.004,30 12.499,34.5 12.5,25.5 8.5,30",
    ],
)
def test_an_order_finer_than_the_hundredth_is_the_order_its_record_line_writes(text: str) -> None:
    """A person typing 6.004 once flew 6.004" but the record said 6: the record did not replay ("diverges")."""
    action = parse_action(text)
    assert parse_action(str(action)) == action
    assert action_from_json(json.loads(json.dumps(action.to_json()))) == action  # type: ignore[union-attr]


def test_parse_is_forgiving_about_case_and_spaces() -> None:
    assert parse_action("  FLY  f1 6   -30  ATTACK b2 AT 9.5 ") == Fly("F1", 6.0, -30.0, "B2", 9.5)
    assert parse_action("guns b1 f2 WAISTS") == Guns("B1", "F2", "waists")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "empty action"),
        ("loop F1", "unknown action"),
        ("fly", "usage"),
        ("fly F1 6", "usage"),
        ("fly F1 six 30", "is not a number"),
        ("fly F1 6 nan", "is not a number"),
        ("fly X1 6 30", "is not an aircraft"),
        ("fly F1 6 30 attack B2", "attack BOMBER at INCHES"),
        ("fly F1 6 30 attack F2 at 3", "is not a bomber"),
        ("fly F1 to 40", "usage"),
        ("guns B1 F1 all", "nose-tail or waists"),
        ("guns F1 B1 waists", "is not a bomber"),
        ("place 1 10 20 30", "is not X,Y"),  # 10 20 is a point (X Y); 30 alone is not
        ("place one 1,2", "usage"),
    ],
)
def test_malformed_text_is_a_parse_error_quoting_it(text: str, says: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_action(text)
    assert says in str(info.value)


def test_malformed_json_is_a_parse_error() -> None:
    with pytest.raises(ParseError):
        action_from_json({"type": "fly"})
    with pytest.raises(ParseError):
        action_from_json({"type": "barrel roll"})
