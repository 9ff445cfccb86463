"""RULINGS O9-O11 as options: each reading decided both ways by scripted dice, on both sides of its threshold.

The default is the RULINGS reading; the option plays the other one (docs/rules/omaha.md names each at its
rule). Play (the engine's real ``apply``), the doctrine bots, the batch path and ``grognard simulate`` follow
the option; at its default an option is left out of records (it is ``quiet``).
"""

from __future__ import annotations

import numpy as np
import pytest

from grognard.rulesets.omaha.actions import Fight
from terminal_driver import run_cli
from test_omaha_rules import decision, illegal, new_game, of_kind, order, put, script, seat_of


# ---------------------------------------------------------------------------------- O9 (omaha.17)
@pytest.mark.rule("omaha.17")
@pytest.mark.parametrize(
    ("y", "shoot_from", "may_shoot"),
    [
        (23.95, "wall_or_beyond", False),  # short of the wall: never
        (23.95, "wall", False),
        (24.0, "wall_or_beyond", True),  # at the wall: both readings
        (24.0, "wall", True),
        (25.0, "wall_or_beyond", True),  # past the wall ("or closer", O9)
        (25.0, "wall", False),  # past the wall: only assault (the other reading)
    ],
)
def test_the_shoot_from_option_lets_squads_past_the_wall_shoot_or_not(
    y: float, shoot_from: str, may_shoot: bool
) -> None:
    game = new_game(place=(1, 2), shoot_from=shoot_from)
    put(game, "A2", 12, y)  # B2 (section 2) in front; at y=25 not in contact (1" is from y=28)
    action = Fight("A2", shoot=2)
    if not may_shoot:
        refused = illegal(game, seat_of("A2"), action)
        assert refused.rule == "omaha.17"
        assert ("O9" in str(refused)) is (y > 24)
        return
    dice = script(game, 6, 5)  # one 6: one defender killed, the 5 misses
    events = order(game, "A2", action)
    assert [(e["bunker"], e["killed"]) for e in of_kind(events, "shot")] == [("B2", 1)]
    assert game.state.bunkers[1].defenders == 3 and dice.remaining == 0


@pytest.mark.rule("omaha.17")
def test_the_shoot_from_option_is_recorded_only_away_from_its_default() -> None:
    assert "shoot_from" not in new_game().state.options
    assert new_game(shoot_from="wall").state.options["shoot_from"] == "wall"


@pytest.mark.rule("omaha.17")
@pytest.mark.parametrize(("shoot_from", "kinds"), [("wall_or_beyond", ["shoot"]), ("wall", [])])
def test_the_fights_a_bot_may_pick_past_the_wall_follow_the_shoot_from_option(
    shoot_from: str, kinds: list[str]
) -> None:
    """The random and search bots pick among the kinds the space allows (the doctrine never shoots past the
    wall: it assaults in contact, or moves on)."""
    game = new_game(place=(1, 2), shoot_from=shoot_from)
    put(game, "A2", 12, 25.0)
    space = decision(game, "orders A2").space.fight
    assert space.kinds() == kinds
    assert all(space.sample(np.random.default_rng(k)).shoot == 0 for k in range(20)) is (not kinds)


def test_a_bad_shoot_from_value_is_one_line() -> None:
    bad = run_cli("simulate", "omaha", "-n", "1", "-o", "shoot_from=sand")
    assert bad.returncode == 2
    assert bad.stderr.strip() == "error: option 'shoot_from': 'sand' is not one of wall_or_beyond, wall"
