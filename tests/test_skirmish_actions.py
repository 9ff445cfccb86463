"""Skirmish actions: the text form parses back and the JSON form rebuilds, for any action (hypothesis)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grognard.core.errors import ParseError
from grognard.rulesets.skirmish.actions import Fire, Move, Order, action_from_json, parse_action

coord = st.integers(min_value=-600, max_value=6000).map(lambda n: n / 100)
point = st.tuples(coord, coord)
unit = st.sampled_from(["A", "B2", "G", "HQ"])


@st.composite
def orders(draw: st.DrawFn, label: str) -> tuple[Order, ...]:
    figures = draw(st.lists(st.integers(1, 12), unique=True, max_size=3))
    out = []
    for n in figures:
        verb = draw(st.sampled_from(["to", "stay", "wire", "traps", "open", "close"]))
        fid = f"{label}.{n}"
        if verb == "to":
            out.append(Order(fid, verb, tuple(draw(st.lists(point, min_size=1, max_size=3)))))
        elif verb in ("wire", "traps"):
            out.append(Order(fid, verb, (draw(point), draw(point))))
        elif verb in ("open", "close"):
            out.append(Order(fid, verb, (), draw(st.sampled_from(["D1", "FARM.d1"]))))
        else:
            out.append(Order(fid, verb))
    return tuple(out)


@st.composite
def moves(draw: st.DrawFn) -> Move:
    label = draw(unit)
    return Move(label, tuple(draw(st.lists(point, max_size=3))), draw(orders(label)))


@st.composite
def fires(draw: st.DrawFn) -> Fire:
    label = draw(unit)
    target = draw(st.sampled_from([None, "G", "H1"]))
    figures = draw(st.lists(st.integers(1, 9), unique=True, max_size=3))
    aims = tuple((f"{label}.{n}", draw(st.sampled_from(["hold", "G.2", "H1"]))) for n in figures)
    return Fire(label, target, aims)


@given(st.one_of(moves(), fires()))
def test_text_and_json_forms_round_trip(action: Move | Fire) -> None:
    assert parse_action(str(action)) == action
    assert action_from_json(json.loads(json.dumps(action.to_json()))) == action


@pytest.mark.parametrize(
    "text",
    [
        "",
        "walk A 1,2",
        "move A 1,2 3,4 5,6 7,8",
        "move A 1;2",
        "move A 1,nan",
        "move A / A.1 fly",
        "move A / A.1 wire 1,1",
        "move A / A.1 stay / A.1 stay",
        "fire A",
        "fire A G / A.1",
        "fire A G / A.1 G.1 / A.1 hold",
        "hold A B",
    ],
)
def test_malformed_text_is_a_parse_error_quoting_it(text: str) -> None:
    with pytest.raises(ParseError):
        parse_action(text)
