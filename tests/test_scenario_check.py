"""The skirmish scenario check lists every problem of a file at once (skirmish.2, STYLE habit 10; issue 32,
item 2): a field that does not check (the victory's turn limit left out, the title a number, a side's name
left out, a unit's man mistyped) no longer hides the cross-checks of the rest (two men on one base, a
self-crossing outline), which came back only once the first mistakes were mended."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from grognard.rulesets.skirmish.scenario import SCENARIOS_DIR, check_scenario
from grognard.rulesets.skirmish.tables import read_toml

CASTLE = read_toml(SCENARIOS_DIR / "castle_storm.toml")


def mistakes(**changes: Any) -> dict[str, Any]:
    """Castle storm with two men too close (A.2 on A.1) and a self-crossing wood, and ``changes``' field
    mistakes (a field that does not check) besides."""
    data = copy.deepcopy(CASTLE)
    data["units"][0]["figures"][1]["at"] = [18.2, 23.0]
    data["terrain"][5]["shape"] = [[2.0, 10.0], [10.0, 18.0], [10.0, 10.0], [2.0, 18.0]]
    for path, value in changes.items():
        node: Any = data
        keys = path.split(".")
        for key in keys[:-1]:
            node = node[int(key)] if key.isdigit() else node[key]
        if value is None:
            node.pop(keys[-1])
        else:
            node[int(keys[-1]) if keys[-1].isdigit() else keys[-1]] = value
    return data


CROSS_CHECKS = ("units[0].figures[1].at: [18.2, 23.0]: closer than a base", "terrain[5].shape: ")


@pytest.mark.rule("skirmish.2")
@pytest.mark.parametrize(
    "changes",
    [
        {"victory.turn_limit": None},  # a required field of the victory left out
        {"title": 5},  # the title not a text
        {"sides.1.name": None},  # a side's name left out
        {"units": "two"},  # the units not a list: nothing more can be checked
    ],
    ids=["no-turn-limit", "title-a-number", "side-without-name", "units-not-a-list"],
)
def test_the_check_lists_every_problem_at_once(changes: dict[str, Any]) -> None:
    # before: a field problem of the victory or the title hid every cross-check (the men too close)
    problems = check_scenario(mistakes(**changes))
    field = next(iter(changes)).split(".")[0]
    assert any(p.startswith(field) for p in problems), problems
    assert any(p.startswith(CROSS_CHECKS[1]) for p in problems), problems
    if changes != {"units": "two"}:
        assert any(p.startswith(CROSS_CHECKS[0]) for p in problems), problems


@pytest.mark.rule("skirmish.2")
def test_a_unit_set_aside_for_its_field_leaves_the_rest_checked() -> None:
    data = copy.deepcopy(CASTLE)
    data["units"] = [data["units"][0], data["units"][5]]  # A (allies), G (axis)
    data["pieces"], data["vehicles"] = [], []
    data["units"][0]["figures"][1]["at"] = [18.2, 23.0]
    data["units"][1]["figures"][0]["at"] = "x"
    problems = check_scenario(data)
    assert problems[0].startswith("units[1].figures[0].at: 'x'")
    assert any(p.startswith(CROSS_CHECKS[0]) for p in problems), problems
    assert not any("side 'axis' has no units" in p for p in problems), problems  # its unit is there, mistyped
