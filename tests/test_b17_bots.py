"""The B-17 bots: the fighters' automaton, the bombers' doctrine, the gunners' choice, the random bot."""

from __future__ import annotations

import numpy as np
import pytest

from grognard.core.dice import ScriptedDice, SeededDice
from grognard.core.play import play_out
from grognard.rulesets.b17 import RULESET
from grognard.rulesets.b17 import reckoning as K
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.actions import Fly, Guns
from grognard.rulesets.b17.bots import (
    DoctrineBot,
    _bonus_attacks,
    _generic_attacks,
    _score_attack,
    _score_attacks,
    _score_by_resolve,
    bomber_plans,
    fighter_plans,
    gun_choice,
    guns_met,
)
from grognard.rulesets.b17.ends import PLAIN
from grognard.rulesets.b17.game import FlySpace
from test_b17_rules import placed_game, scene


def test_the_automaton_weighs_the_bonus_against_the_guns_it_meets() -> None:
    """The closest bomber's attack of least cost: the gunners met (at the stop, the end and the bombers' next
    reach) and ``ends.PLAIN`` more for an attack without the +1 (the doctrine's clause gunners)."""
    bombers = {"B1": (50.0, 30.0, 0.0), "B2": (44.0, 38.0, 0.0)}
    game = scene(bombers, {"F1": (64.0, 36.5, -135.0)})  # one turn puts it on B1's axis, facing it
    f1 = game.aircraft("F1")
    plan = fighter_plans(game, f1, 1)[0]
    assert plan.target == "B1"  # the closest
    space = FlySpace(game, "F1")
    b1 = game.aircraft("B1")
    plans = _bonus_attacks(game, f1, b1, 14.0, 6.0) + _generic_attacks(game, f1, b1, 14.0, 6.0)
    costs = [s[2] + PLAIN * s[1] for p in plans if (s := _score_attack(game, f1, p, space)) and not s[0]]
    chosen = _score_attack(game, f1, plan, space)
    assert chosen is not None and not chosen[0]
    assert chosen[2] + PLAIN * chosen[1] == min(costs)  # the least cost of all of B1's attacks
    # the book before weighed only the paths built for the +1 here, and took one meeting 5 gunners
    bonus = [s for p in _bonus_attacks(game, f1, b1, 14.0, 6.0) if (s := _score_attack(game, f1, p, space))]
    assert chosen[2] < min(s[2] for s in bonus if not s[0] and not s[1]) == 5


def test_with_no_attack_in_reach_the_fighter_closes_for_next_turn() -> None:
    game = scene({"B1": (20.0, 30.0, 0.0)}, {"F1": (80.0, 30.0, 180.0)})
    before = R.attack_range(game.state.options, game.aircraft("F1"), 80.0, 30.0, 180.0, game.aircraft("B1"))
    plan = fighter_plans(game, game.aircraft("F1"), 1)[0]
    assert plan.target is None
    game.apply("German", plan)
    f1 = game.aircraft("F1")
    assert f1.flying and R.attack_range(game.state.options, f1, f1.x, f1.y, f1.heading, game.aircraft("B1")) < before


def test_the_fighter_never_flies_off_the_table_when_it_need_not() -> None:
    game = scene({"B1": (30.0, 30.0, 0.0)}, {"F1": (100.0, 55.0, 45.0)})  # heading for the corner
    plan = fighter_plans(game, game.aircraft("F1"), 1)[0]
    path, _, _ = FlySpace(game, "F1").resolve(plan)
    assert path.leaves_table_at() is None


def test_unopposed_bombers_hold_the_box_then_each_bombs() -> None:
    game = placed_game([1, 1])  # no element comes in on turn 1
    game.dice = SeededDice(3)
    bot = DoctrineBot(np.random.default_rng(3))
    for e in game.state.elements:  # nor ever after
        e.entered = 0
    for f in game.state.fighters():
        f.status = "left"
    game.changed()
    start = {b.label: (b.x - game.aircraft("B1").x, b.y - game.aircraft("B1").y) for b in game.state.bombers()}
    for _ in range(3):  # three turns in box
        for label in ("B1", "B2", "B3", "B4"):
            game.apply("American", bot.choose(game, next(d for d in game.pending() if d.id == f"move {label}")))
    lead = game.aircraft("B1")
    for b in game.state.bombers():
        dx, dy = b.x - lead.x, b.y - lead.y
        assert abs(dx - start[b.label][0]) < 1.0 and abs(dy - start[b.label][1]) < 1.0, (b.label, dx, dy)
    result = play_out(game, lambda seat: bot)
    fates = [(b.label, b.status, b.bombed) for b in game.state.bombers()]
    waiting = [b for b in game.state.bombers() if not b.bombed and b.status != "destroyed"]
    # only flak stops them, or the raid is decided (five hits in, no fighter left: b17.9) before the last bombs
    assert not waiting or (game.state.hits >= 5 and result.winner == "american"), (fates, game.state.hits)
    assert any(b.bombed for b in game.state.bombers()), fates
    assert result.turn <= 14


def test_a_bomber_over_the_target_next_move_takes_that_move() -> None:
    game = scene({"B1": (94.0, 30.0, 0.0)}, phase="bombers")
    plan = bomber_plans(game, game.aircraft("B1"), 1)[0]
    path, _, _ = FlySpace(game, "B1").resolve(plan)
    from grognard.rulesets.b17.geometry import over_target

    x, y, h = path.snapped(path.length)
    assert over_target(game.dims(game.aircraft("B1")), x, y, path.new_heading if path.length > path.straight else h)


def test_the_gunners_fire_the_pair_with_more_guns_in_range() -> None:
    game = scene({"B1": (50.0, 30.0, 0.0)}, {"F1": (47.0, 36.0, -90.0)}, dice=(1, 6, 1, 6, 1, 6))
    from grognard.rulesets.b17.actions import Fly

    game.apply("German", Fly("F1", 14.0, 0.0, "B1", 3.0))
    decision = game.pending()[0]
    assert gun_choice(game, decision) == Guns("B1", "F1", "waists")  # two waist guns against the tail alone
    assert guns_met(game, game.aircraft("F1"), 47.0, 33.0, -90.0) == 2


def test_the_random_bot_plays_the_raid_to_its_end() -> None:
    game = RULESET.create({}, SeededDice(9))
    bot = RULESET.bots["random"](np.random.default_rng(9))
    result = play_out(game, lambda seat: bot)
    assert result.outcome in ("win", "unfinished")


def test_scripted_scene_helper_is_shared() -> None:
    game = scene({"B1": (50.0, 30.0, 0.0)})
    assert isinstance(game.dice, ScriptedDice)


@pytest.mark.parametrize("auto_intercept", [False, True])
def test_the_quick_scores_of_attacks_are_the_rules_scores(auto_intercept: bool) -> None:
    """_score_attacks (one numpy pass, its own check of the plain attacks) scores every plan as scoring it
    through FlySpace.resolve does: legal or refused (too little straight, a turn with nothing after it,
    out of range, off the table before the stop, a bomber not the closest), and the same score."""
    bombers = {"B1": (50.0, 30.0, 0.0), "B2": (44.0, 38.0, 12.5), "B3": (97.0, 49.0, 30.0)}
    fighters = {"F1": (64.0, 36.5, -135.0), "F2": (96.0, 43.0, 40.0)}  # F2 by B3, a corner ahead
    game = scene(bombers, fighters, auto_intercept=auto_intercept)
    rng = np.random.default_rng(23)
    for label in fighters:
        f = game.aircraft(label)
        length = game.allowance(f)
        plans = [
            Fly(
                label,
                float(rng.choice([0.0, 5.99, 6.0, float(rng.uniform(6.0, length)), length - 0.005, length])),
                float(rng.choice([0.0, 180.0, -179.99, float(rng.uniform(-180.0, 180.0))])),
                str(rng.choice(["B1", "B2", "B3"])),
                float(rng.uniform(-0.5, length + 0.5)),
            )
            for _ in range(400)
        ]
        plans += [p for b in ("B1", "B2", "B3") for p in _generic_attacks(game, f, game.aircraft(b), length, 6.0)]
        closest = K.closest_bombers(game.state.options, f, game.flying_bombers())
        for space in (FlySpace(game, label), FlySpace(game, label, closest)):
            quick = _score_attacks(game, f, plans, space)
            truth = _score_by_resolve(game, f, plans, FlySpace(game, label))
            assert quick == truth
            assert any(s is None for s in truth) and sum(s is not None for s in truth) > 10
