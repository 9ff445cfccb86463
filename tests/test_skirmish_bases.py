"""Men keep their bases apart (skirmish.10, issue 21): no man ends his move on a friend's base.

Scenes on the 48" x 48" test table of ``test_skirmish_rules``; a base is 1" and the tolerance 0.01", so a man
may end 0.99" or more from a friend and not 0.98". Every refusal leaves the state as it was.
"""

from __future__ import annotations

import math

import pytest

from grognard.rulesets.skirmish import bots as B
from grognard.rulesets.skirmish.actions import Move, Order
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.moving import MoveSpace
from test_skirmish_rules import fig, figure, make, refusal, scenario, unit


def pair() -> SkirmishGame:
    """A.1 at (10, 10); a friend B.1 at (10, 15); the enemy far off."""
    return make(
        scenario([unit("A", "allies", fig(10, 10)), unit("B", "allies", fig(10, 15)), unit("G", "axis", fig(40, 40))])
    )


@pytest.mark.rule("skirmish.10")
def test_a_man_may_not_end_his_move_on_a_friends_base() -> None:
    game = pair()
    error = refusal(game, "Allies", Move("A", ((10.0, 14.02),)))  # 0.98" from B.1
    assert error.rule == "skirmish.10", error
    assert 'A.1 would end 0.98" from B.1, on his base' in str(error), error
    error = refusal(game, "Allies", Move("A", ((10.0, 15.0),)))  # onto the very spot
    assert 'A.1 would end 0.00" from B.1' in str(error), error


@pytest.mark.rule("skirmish.10")
def test_a_man_may_end_his_move_with_the_bases_touching_or_pass_through_a_friend() -> None:
    game = pair()
    game.apply("Allies", Move("A", ((10.0, 14.0),)))  # 1" apart: the bases touch
    assert (figure(game, "A.1").x, figure(game, "A.1").y) == (10.0, 14.0)
    game = pair()
    game.apply("Allies", Move("A", ((10.0, 14.01),)))  # 0.99": at the tolerance, allowed
    assert figure(game, "A.1").y == 14.01
    game = pair()
    game.apply("Allies", Move("A", ((10.0, 16.0),)))  # through B.1's base to 1" beyond him
    assert figure(game, "A.1").y == 16.0


@pytest.mark.rule("skirmish.10")
def test_two_men_of_one_unit_may_not_end_on_one_spot() -> None:
    game = make(scenario([unit("A", "allies", fig(10, 10), fig(12, 10)), unit("G", "axis", fig(40, 40))]))
    orders = (Order("A.1", "to", ((11.0, 13.0),)), Order("A.2", "to", ((11.5, 13.0),)))
    error = refusal(game, "Allies", Move("A", (), orders))
    assert error.rule == "skirmish.10" and 'A.1 would end 0.50" from A.2' in str(error), error
    orders = (Order("A.1", "to", ((10.5, 13.0),)), Order("A.2", "to", ((11.5, 13.0),)))
    game.apply("Allies", Move("A", (), orders))  # 1" apart
    assert figure(game, "A.2").x - figure(game, "A.1").x == 1.0


@pytest.mark.rule("skirmish.10")
def test_the_friends_are_counted_where_they_end_this_move() -> None:
    game = make(scenario([unit("A", "allies", fig(10, 10), fig(10, 12)), unit("G", "axis", fig(40, 40))]))
    # A.1 goes where A.2 stands now, while A.2 steps forward out of his way: allowed
    orders = (Order("A.1", "to", ((10.0, 12.0),)), Order("A.2", "to", ((10.0, 14.0),)))
    game.apply("Allies", Move("A", (), orders))
    assert figure(game, "A.1").y == 12.0 and figure(game, "A.2").y == 14.0


@pytest.mark.rule("skirmish.10")
def test_men_already_closer_than_a_base_may_keep_or_open_their_distance_not_close_it() -> None:
    def close() -> SkirmishGame:
        game = make(scenario([unit("A", "allies", fig(10, 10), fig(12, 10)), unit("G", "axis", fig(40, 40))]))
        figure(game, "A.2").x = 10.5  # put there as a drop or a dismount might: 0.5" apart
        return game

    game = close()
    game.apply("Allies", Move("A", ((10.0, 14.0),)))  # the unit moves as one: the same 0.5" apart
    assert (figure(game, "A.2").x, figure(game, "A.2").y) == (10.5, 14.0)
    game = close()
    error = refusal(game, "Allies", Move("A", (), (Order("A.2", "to", ((10.2, 10.0),)),)))  # closer: 0.2"
    assert error.rule == "skirmish.10" and 'A.2 would end 0.20" from A.1' in str(error), error
    game = close()
    game.apply("Allies", Move("A", (), (Order("A.2", "to", ((10.8, 10.0),)),)))  # further apart, still under 1"
    assert figure(game, "A.2").x == 10.8


@pytest.mark.rule("skirmish.10")
def test_the_doctrine_charges_two_men_onto_one_enemy_with_their_bases_apart() -> None:
    # A.1 and A.2 side by side 1" apart, one enemy straight ahead of them: both go in, neither on the other
    game = make(scenario([unit("A", "allies", fig(10, 10), fig(11, 10)), unit("G", "axis", fig(10.5, 14))]))
    move = B.charge_move(game.ctx, MoveSpace(game.ctx, "A"))
    assert move is not None
    game.apply("Allies", move)
    a1, a2, g = (figure(game, f) for f in ("A.1", "A.2", "G.1"))
    assert math.hypot(a1.x - a2.x, a1.y - a2.y) >= 0.99
    for f in (a1, a2):
        assert math.hypot(f.x - g.x, f.y - g.y) <= 1.01, (f.id, f.x, f.y)


@pytest.mark.rule("skirmish.10", "skirmish.81")
def test_a_ladder_man_taking_the_wall_never_steps_onto_a_man_already_there() -> None:
    # castle_storm, seed 1, game 40 (at 8710c88): a ladder man went onto the wall at the spot 1" along it from
    # the ladder's top, where a defender stood out of his reach; the doctrine's charge then divided by zero
    from test_skirmish_castles import castle, move, next_turn

    game = castle([fig(16, 28.5), fig(15, 28.5), fig(17, 28.5)], [fig(17, 30)])
    move(game, "move A / A.1 ladder 16,30")
    next_turn(game)
    move(game, "move A / A.2 climb L1")
    next_turn(game)  # at the top (15.75, 29.5), 1.35" from G.1: out of contact, no melee
    next_turn(game)  # nobody stood against him: he takes the wall, at the top's own spot, not on G.1
    a2, g1 = figure(game, "A.2"), figure(game, "G.1")
    assert a2.on_wall == "W.a" and (a2.x, a2.y) == (16.0, 30.0)
    assert math.hypot(a2.x - g1.x, a2.y - g1.y) >= 0.99


@pytest.mark.rule("skirmish.10")
def test_the_doctrine_never_charges_a_man_standing_on_its_own_mans_spot() -> None:
    game = make(scenario([unit("A", "allies", fig(10, 10), fig(12, 10)), unit("G", "axis", fig(10, 14))]))
    a1 = figure(game, "A.1")
    a1.x, a1.y = 10.0, 14.0  # put on G.1's very spot, as the ladder once did: no way to run at him
    move = B.charge_move(game.ctx, MoveSpace(game.ctx, "A"))  # raised ZeroDivisionError before
    assert move is None or all(o.figure != "A.1" for o in move.orders)
