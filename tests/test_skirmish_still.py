"""The doctrine's shortcuts (issue 33, item 4) give exactly what the long way gives.

While a bot weighs a decision the state stands still (``Context.still``): the terrain now, every man's shots,
what a man on foot may walk into and each move's plan are worked out once, not at every legality probe. A
burst placement's worth is added over arrays, and a template laid far from the firer skips the test of his
own position. Each is checked here against the way it was worked out before: whole games played both ways
event for event, and the shortcuts against the full test over many cases.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest

from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.play import play_out
from grognard.rulesets import get
from grognard.rulesets.skirmish import artillery as AR
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.bots_fire import TYPE_VALUE, WEAPON_VALUE, _worth_under, best_first
from grognard.rulesets.skirmish.game import SkirmishGame


class LongWay(DoctrineBot):
    """The doctrine weighing each decision with nothing kept while it probes (how it played before)."""

    def choose(self, game: Any, decision: Any) -> Any:
        assert game.ctx.kept is None
        return self._choose(game.ctx, decision)


def played(scenario: str, bot: type[DoctrineBot], index: int) -> list[tuple[str, dict[str, Any]]]:
    """Every event of game ``index`` (seed 33) of ``scenario``, doctrine against doctrine."""
    ruleset = get("skirmish")
    game = ruleset.new_game(ruleset.resolve({"scenario": scenario}), SeededDice(stream(33, index, DICE)))
    rng = np.random.default_rng(stream(33, index, BOTS))
    made = {side: bot(rng) for side in ruleset.sides}
    events: list[tuple[str, dict[str, Any]]] = []
    game.listener = lambda event: events.append((event.kind, dict(event.data)))
    play_out(game, lambda seat: made[game.side_of(seat)], checked=False)
    return events


@pytest.mark.parametrize(
    ("scenario", "index", "kinds"),
    [("gun_line_armour", 3, {"burst_order", "moved", "fire_order"}), ("convoy", 1, {"drove", "moved", "fire_order"})],
)
def test_the_doctrine_plays_the_same_game_with_the_table_kept_while_it_weighs(
    scenario: str, index: int, kinds: set[str]
) -> None:
    kept = played(scenario, DoctrineBot, index)
    long_way = played(scenario, LongWay, index)
    assert len(kept) > 100  # a whole game: moves, drives, bursts, fire
    assert {kind for kind, _ in kept} >= kinds
    assert kept == long_way


def test_a_bots_probes_change_nothing_and_nothing_is_kept_after() -> None:
    ruleset = get("skirmish")
    game = ruleset.new_game(ruleset.resolve({"scenario": "gun_line_armour"}), SeededDice(stream(33, 0, DICE)))
    assert isinstance(game, SkirmishGame)
    bot = DoctrineBot(np.random.default_rng(0))
    for _ in range(40):  # past the first moves and into the fire phase
        decision = game.pending()[0]
        before = game.copy_state()
        action = bot.choose(game, decision)
        assert game.state == before and game.ctx.kept is None
        game.apply(decision.seat, action, checked=False, decision=decision)


def test_a_placements_worth_is_added_in_the_enemies_order_as_sum_adds_it() -> None:
    values = [w * t for w in [*WEAPON_VALUE.values(), 2.0] for t in [*TYPE_VALUE.values(), 1.0]]
    rng = np.random.default_rng(5)
    for size in (1, 2, 7, 23):
        worth = [values[i] for i in rng.integers(len(values), size=size)]
        theirs = rng.random((300, size)) < 0.4
        ours = rng.random(300) < 0.2
        under = _worth_under(theirs, worth)
        assert under.tolist() == [sum(itertools.compress(worth, row)) for row in theirs.tolist()]
        scored = [(v, i) for i, v in enumerate(under.tolist()) if not ours[i] and v > 0]
        assert best_first(ours, theirs, worth) == [i for _, i in sorted(scored, key=lambda item: -item[0])]


def test_a_template_said_far_from_its_firer_touches_none_of_his_own_position() -> None:
    ruleset = get("skirmish")
    game = ruleset.new_game(ruleset.resolve({"scenario": "gun_line_armour"}), SeededDice(stream(33, 0, DICE)))
    assert isinstance(game, SkirmishGame)
    ctx = game.ctx
    s = ctx.state
    firers = [*s.pieces, *(f.id for f in s.figures.values() if f.weapon == "mortar")]
    if s.vehicles:
        firers.append(next(iter(s.vehicles)))
    touched = skipped = 0
    for by in firers:
        thing = s.pieces.get(by) or s.vehicles.get(by) or s.figures[by]
        for tid, (_, corners) in ctx.templates.items():
            reach = max(math.hypot(x, y) for x, y in corners)
            for r, a, turn in itertools.product(np.linspace(0, reach + 3, 12), range(0, 360, 30), range(0, 360, 90)):
                at = (
                    round(thing.x + r * math.cos(math.radians(a)), 2),
                    round(thing.y + r * math.sin(math.radians(a)), 2),
                )
                own = AR.own_position(ctx, by, R.burst_shape(corners, at, float(turn)))
                near = AR._may_touch_own(ctx, by, at, corners)
                touched += bool(own)
                skipped += not near
                assert near or not own, (by, tid, at, turn, own)
    assert touched > 50 and skipped > 500  # both sides of the short cut were met
