"""The doctrine's short cuts of issue 33, item 4 (the slow skirmish scenarios) give what the long way gives.

Each is checked against the long way on the decisions of a real game: the drive search that stops probing a
direction whose drive could not be chosen.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.rulesets import get
from grognard.rulesets.skirmish import bots_drive as BV
from grognard.rulesets.skirmish.actions import Drive
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.driving import DriveSpace
from grognard.rulesets.skirmish.game import SkirmishGame


def game_of(scenario: str, index: int) -> SkirmishGame:
    ruleset = get("skirmish")
    game = ruleset.new_game(ruleset.resolve({"scenario": scenario}), SeededDice(stream(33, index, DICE)))
    assert isinstance(game, SkirmishGame)
    return game.unobserved()


class Counted(DriveSpace):
    """A drive space that counts the drives it is asked about."""

    probes = 0

    def contains(self, action: Any) -> bool:
        self.probes += 1
        return super().contains(action)


def long_way_best_drive(space: DriveSpace, aim: tuple[float, float], reach: float, after: Any) -> Drive | None:
    """``bots_drive._best_drive`` as it was before: each direction's bisection run to its end."""
    v = space.ctx.state.vehicles[space.vehicle]
    base = math.atan2(aim[1] - v.y, aim[0] - v.x)
    d = math.hypot(aim[0] - v.x, aim[1] - v.y)
    best: tuple[float, Drive] | None = None
    for off in (0, 20, -20, 40, -40, 60, -60):
        a = base + math.radians(off)
        r = min(reach, d) if off == 0 else reach
        to = (v.x + r * math.cos(a), v.y + r * math.sin(a))
        nearest = BV._from_segment(aim, (v.x, v.y), to) - 0.02
        if nearest >= d - 0.5 or (best is not None and nearest >= best[0]):
            continue
        drive = space.toward(*to, after=after, steps=5)
        if drive is None or not drive.path:
            continue
        x, y = drive.path[-1]
        left = math.hypot(aim[0] - x, aim[1] - y)
        if left < d - 0.5 and (best is None or left < best[0]):
            best = (left, drive)
        if off == 0 and best is not None and math.hypot(x - v.x, y - v.y) >= r - 0.5:
            break
    return best[1] if best is not None else None


def test_the_drive_search_gives_up_a_direction_whose_drive_could_not_be_chosen_and_finds_the_same_drive() -> None:
    """At every drive decision of a convoy game, for the aims the doctrine drives at (the objective) and
    others round the vehicle, at a whole and a half move: ``_best_drive`` finds the drive the long way finds,
    with fewer probes in all (before, it probed as many)."""
    game = game_of("convoy", 1)
    bot = DoctrineBot(np.random.default_rng(stream(33, 1, BOTS)))
    rng = np.random.default_rng(5)
    cases = fewer = found = 0
    probes = {"short": 0, "long": 0}
    while game.result is None and cases < 64:
        decision = game.pending()[0]
        if isinstance(decision.space, DriveSpace):
            ctx = game.ctx
            v = ctx.state.vehicles[decision.space.vehicle]
            move = ctx.tables.vehicles.kind(v.kind).move
            aims = [(v.x + float(dx), v.y + float(dy)) for dx, dy in rng.uniform(-14.0, 14.0, (3, 2))]
            spec = ctx.scenario.spec
            aims += [tuple(np.mean(o.shape, axis=0).tolist()) for o in spec.objectives][:1]
            for aim in aims:
                for reach in (move, move / 2):
                    with ctx.still():
                        short, long = Counted(ctx, v.id), Counted(ctx, v.id)
                        chosen = BV._best_drive(ctx, short, aim, reach, None)
                        assert chosen == long_way_best_drive(long, aim, reach, None), (v.id, aim, reach)
                    cases += 1
                    found += chosen is not None
                    fewer += short.probes < long.probes
                    probes["short"] += short.probes
                    probes["long"] += long.probes
                    assert short.probes <= long.probes
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    assert cases >= 40 and found >= 8
    assert fewer >= 5 and probes["short"] < probes["long"], (fewer, probes)
