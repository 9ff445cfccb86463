"""The burst doctrine's short cuts of issue 33, item 4 (``aiming``, ``bots_fire``) give what the long way gives.

Each is checked against the rules' own function on the burst decisions of real games, over many points: those
the doctrine aims at, random ones on and off the table, and ones placed at the edge of each measure (a weapon's
reach on flat ground and up the hill, a piece's arc, the firer's own position), where rounding would tell a
short cut from the rule first.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.geometry import snap
from grognard.rulesets import get
from grognard.rulesets.skirmish import aiming as AI
from grognard.rulesets.skirmish import artillery as AR
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish.actions import Burst
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.context import Context
from grognard.rulesets.skirmish.game import SkirmishGame

XY = tuple[float, float]


def burst_decisions(scenario: str, index: int, most: int) -> Iterator[tuple[SkirmishGame, AR.BurstSpace]]:
    """The first ``most`` burst decisions of a doctrine game, each before the bot chooses."""
    ruleset = get("skirmish")
    game = ruleset.new_game(ruleset.resolve({"scenario": scenario}), SeededDice(stream(33, index, DICE)))
    assert isinstance(game, SkirmishGame)
    game = game.unobserved()
    bot = DoctrineBot(np.random.default_rng(stream(33, index, BOTS)))
    found = 0
    while game.result is None and found < most:
        decision = game.pending()[0]
        if isinstance(decision.space, AR.BurstSpace):
            found += 1
            yield game, decision.space
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)


def edge_points(ctx: Context, space: AR.BurstSpace, rng: np.random.Generator) -> list[XY]:
    """Points for ``space``'s firer: the enemy men, random points on and off the table, points on the 0.01" grid
    whose range (the rule's, up or down hill) lies within 0.015" of the weapon's reach, points along the edges of a
    piece's arc, and points near the firer's own position."""
    s = ctx.state
    weapon = AR.burst_weapon(ctx, space.by)
    entry = ctx.tables.artillery[weapon]
    thing = s.pieces.get(space.by) or s.vehicles.get(space.by) or s.figures[space.by]
    origin = (thing.x, thing.y)
    reach = max(band.to for band in entry.bands) + R.TOLERANCE
    points = [(f.x, f.y) for f in s.figures.values() if f.alive and f.on_table]
    points += [(snap(float(x)), snap(float(y))) for x, y in rng.uniform(-2, 50, size=(40, 2))]
    for k in range(24):  # along 24 bearings, the grid points whose range is at the reach
        a = math.radians(15 * k)
        for step in range(-60, 61):
            r = reach + step / 100
            at = (snap(origin[0] + r * math.cos(a)), snap(origin[1] + r * math.sin(a)))
            if abs(R.effective_range(ctx.terrain, origin, at) - reach) <= 0.015:
                points.append(at)
    for k in (3, 4, 6, 8, 12, 16, 20, 24):  # 3-4-5 triangles: a range exact in decimals, so at the reach itself
        for sx, sy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            unit = reach / 5
            points.append((snap(origin[0] + sx * 3 * unit), snap(origin[1] + sy * 4 * unit)))
            points.append((snap(origin[0] + sx * k), snap(origin[1] + sy * k * 0.75)))
    if space.by in s.pieces and entry.arc is not None:
        heading = s.pieces[space.by].heading
        for side in (-1, 1):
            for off in np.arange(-0.03, 0.0301, 0.0025):
                a = math.radians(heading + side * (entry.arc + float(off)))
                for r in (3.0, 12.0, 30.0):
                    points.append((snap(origin[0] + r * math.cos(a)), snap(origin[1] + r * math.sin(a))))
    for dx, dy in rng.uniform(-4, 4, size=(30, 2)):  # near the firer's own position
        points.append((snap(origin[0] + float(dx)), snap(origin[1] + float(dy))))
    return list(dict.fromkeys(points))


@pytest.mark.parametrize(("scenario", "index"), [("gun_line_armour", 3), ("castle_storm", 1)])
def test_burst_landings_over_arrays_are_the_rules_answers_at_every_edge(
    scenario: str, index: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``aiming.landings`` answers as ``BurstSpace.contains`` for every point, and asks the rules
    (``artillery._aimed``) only of the few whose measure lies at its edge (before: of every point)."""
    rng = np.random.default_rng(33)
    aimed: Callable[..., Any] = AR._aimed
    asked: list[Any] = []

    def counting(*args: Any) -> Any:
        asked.append(args[2])
        return aimed(*args)

    answers: set[bool] = set()
    checked = doubted = 0
    for game, space in burst_decisions(scenario, index, 6):
        ctx = game.ctx
        side, by = space.side, space.by
        points = edge_points(ctx, space, rng)
        want = [space.contains(Burst(by, at)) for at in points]
        asked.clear()
        monkeypatch.setattr(AR, "_aimed", counting)
        got = AI.landings(ctx, side, by, points)
        monkeypatch.setattr(AR, "_aimed", aimed)
        assert got == want, [(at, g, w) for at, g, w in zip(points, got, want, strict=True) if g != w][:5]
        assert len(asked) < len(points) / 4
        answers.update(want)
        checked += len(points)
        doubted += len(asked)
    assert checked > 1000 and answers == {True, False}
    assert doubted > 0  # the edges were met, and the rules settled them
