"""The bots' quick measures (reckoning.py, numpy) count the same gunners as the rules (shapely)."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.data import PAIRS
from grognard.rulesets.b17.reckoning import distance_to_footprint, guns_met_many
from test_b17_rules import scene


def rules_count(options, fighter, bombers, x, y, h) -> int:
    ghost = fighter.copy()
    ghost.x, ghost.y, ghost.heading = x, y, h
    total = 0
    for b in bombers:
        in_range = R.guns_in_range(options, b, ghost)
        total += max(sum(1 for g in guns if g in in_range) for guns in PAIRS.values())
    return total


@pytest.mark.parametrize("arcs", [False, True])
def test_the_quick_count_of_gunners_is_the_rules_count(arcs: bool) -> None:
    game = scene({"B1": (50.0, 30.0, 0.0), "B2": (44.0, 38.0, 12.5)}, {"F1": (64.0, 36.5, -135.0)})
    options = dict(game.state.options, firing_arcs=arcs)
    fighter = game.aircraft("F1")
    bombers = game.flying_bombers()
    rng = np.random.default_rng(19)
    xs = [round(float(v), 2) for v in rng.uniform(36.0, 60.0, 600)]
    ys = [round(float(v), 2) for v in rng.uniform(22.0, 46.0, 600)]
    hs = [round(float(v), 2) for v in rng.uniform(-180.0, 180.0, 600)]
    quick = guns_met_many(options, fighter, bombers, xs, ys, hs)
    truth = [rules_count(options, fighter, bombers, x, y, h) for x, y, h in zip(xs, ys, hs, strict=True)]
    assert quick == truth
    assert 0 in truth and max(truth) >= (1 if arcs else 2)  # the sample is not all misses


def test_the_quick_distance_to_a_footprint_is_shapelys() -> None:
    dims = G.Dims(1.6, 1.9, False)
    rng = np.random.default_rng(5)
    px, py = rng.uniform(0.0, 10.0, 400), rng.uniform(0.0, 10.0, 400)
    quick = distance_to_footprint(dims, px, py, 5.0, 5.0, 33.3)
    truth = shapely.distance(shapely.points(np.stack([px, py], axis=1)), G.footprint(dims, 5.0, 5.0, 33.3))
    assert np.allclose(quick, truth, rtol=0, atol=1e-9)
    assert (quick == 0).any() and (quick > 3).any()  # points inside and far off
