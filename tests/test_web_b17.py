"""The B-17 face of the web pages, in-process: the controls of a fighter's move, and a preview of an attack
(its exact odds in words, the picture with the path, the stop and the 4" rings of the guns that answer)."""

from __future__ import annotations

import numpy as np

from grognard import rulesets
from grognard.core.dice import SeededDice
from grognard.core.errors import IllegalAction
from grognard.rulesets.b17.actions import Fly
from grognard.web import faces


def _german_to_move() -> tuple[object, object]:
    ruleset = rulesets.get("b17")
    game = ruleset.create({}, SeededDice(1))
    bot = ruleset.bots["doctrine"](np.random.default_rng(1))
    for _ in range(100):
        decision = game.pending()[0]
        if decision.seat == "German":
            return game, decision
        game.apply(decision.seat, bot.choose(game, decision))
    raise AssertionError("the German never had to move")


def test_fighter_controls_and_an_attack_preview() -> None:
    ruleset = rulesets.get("b17")
    game, decision = _german_to_move()
    label = decision.id.split()[1]
    fighter, bomber = game.aircraft(label), game.aircraft("B1")
    # the fighter put 20" straight ahead of B1, flying at it: a head-on attack near the end of its path
    fighter.x, fighter.y, fighter.heading = bomber.x + 20.0, bomber.y, 180.0
    shown = faces.decision_json(ruleset, game, decision)
    forms = {f["verb"]: f for f in shown["forms"]}
    assert list(forms) == ["fly", "fly to", "fly and attack"]
    target = next(f for f in forms["fly and attack"]["fields"] if f["name"] == "target")
    assert "B1" in target["options"]
    length = game.allowance(fighter)
    attack = None
    for k in range(int(length * 4), -1, -1):
        candidate = Fly(label, length, 0.0, "B1", k / 4)
        try:
            decision.space.check(candidate)
        except IllegalAction:
            continue
        attack = candidate
        break
    assert attack is not None
    odds = ruleset.adviser.odds(game, attack)
    assert odds is not None and odds.startswith("damages ") and "destroys" in odds
    assert "head-on +1" in ruleset.adviser.note(game, attack)
    shown_preview = ruleset.adviser.preview(game, "German", attack)
    rings = shown_preview["preview"]["rings"]
    assert rings and {ring["r"] for ring in rings} == {4.0}  # a 4" ring around each gun that answers (b17.46)
    picture = ruleset.render(shown_preview)
    assert "attacks B1" in picture and "preview (not given)" in picture
    assert picture.count('<g class="p-ring">') == len(rings)  # each drawn
    # a stop the fighter cannot reach: refused, naming the rule
    try:
        ruleset.adviser.preview(game, "German", Fly(label, length, 0.0, "B1", 0.0))
    except IllegalAction as exc:
        assert "b17." in str(exc)
    else:
        raise AssertionError("an attack from 20 inches away was allowed")
