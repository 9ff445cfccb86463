"""The fast sight and cover short cuts (rulesets/skirmish/sight.py) answer exactly as the rules do.

``sight.sight_many`` works out many lines of sight at once; it must give ``rules.line_of_sight``'s answer,
reason and all, for every pair; ``sight.seen`` (some eye sees the point, worked out nearest eyes first) the
rules' answer for every eye. ``rules.cover_possible`` may say "no cover" for a point only where
``rules.cover`` gives none from any firer. Checked on every shipped scenario's terrain over seeded random
points, points at every door and window, at the ends of walls and on hill edges (where the rules' edge
cases are), with the doors shut and open.
"""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish import sight as SG
from grognard.rulesets.skirmish.scenario import load_scenario, shipped
from grognard.rulesets.skirmish.terrain import Terrain, build_terrain

XY = tuple[float, float]


def awkward_points(terrain: Terrain, rng: np.random.Generator) -> list[XY]:
    """Points near the terrain's edge cases: openings, wall and feature corners, hill edges, jittered a little."""
    out: list[XY] = []
    for opening in terrain.openings.values():
        out.append(opening.at)
        for dx, dy in ((0.3, 0), (-0.3, 0), (0, 0.3), (0, -0.3)):
            out.append((opening.at[0] + dx, opening.at[1] + dy))
    for piece in [*terrain.features, *terrain.hills]:
        corners = shapely.get_coordinates(piece.shape.boundary if piece.shape.area > 0 else piece.shape)
        for x, y in corners[:12]:
            out.append((float(x), float(y)))
            out.append((float(x) + float(rng.uniform(-1.2, 1.2)), float(y) + float(rng.uniform(-1.2, 1.2))))
    return out


def sample_points(terrain: Terrain, seed: int, count: int = 160) -> list[XY]:
    rng = np.random.default_rng(seed)
    points = [(float(rng.uniform(0, terrain.width)), float(rng.uniform(0, terrain.depth))) for _ in range(count)]
    points += awkward_points(terrain, rng)
    return [(round(x, 2), round(y, 2)) for x, y in points]


SCENARIOS = [name for name, _ in shipped()]


@pytest.mark.parametrize("name", SCENARIOS)
def test_sight_many_answers_as_line_of_sight(name: str) -> None:
    scenario = load_scenario(name)
    terrain = build_terrain(scenario.spec, scenario.tables)
    points = sample_points(terrain, 7)
    rng = np.random.default_rng(11)
    picks = rng.integers(len(points), size=(1500, 2))
    pairs = [(points[i], points[j]) for i, j in picks.tolist()]
    pairs += [(p, p) for p in points[:5]]  # zero length: sees
    doors = frozenset(o.id for o in terrain.openings.values() if o.door)
    blocked = 0
    for opened in (frozenset(), doors):
        fast = SG.sight_many(terrain, pairs, opened)
        slow = [R.line_of_sight(terrain, a, b, opened) for a, b in pairs]
        assert fast == slow
        blocked += sum(1 for why in slow if why is not None)
    if terrain.buildings or terrain.sight_blockers or terrain.hills:
        assert blocked > 0  # the check saw blocked lines, not only clear ones


@pytest.mark.parametrize("name", SCENARIOS)
def test_cover_possible_is_false_only_where_nobody_has_cover(name: str) -> None:
    scenario = load_scenario(name)
    terrain = build_terrain(scenario.spec, scenario.tables)
    points = sample_points(terrain, 5, count=60)
    shooters = points[::4]
    attacks = sorted({w.kind for w in scenario.tables.weapons.values()})
    covered = 0
    for attack in attacks:
        for b in points:
            answers = [R.cover(terrain, a, b, attack) for a in shooters]
            covered += sum(1 for c in answers if c is not None)
            if not R.cover_possible(terrain, b, attack):
                assert answers == [None] * len(shooters), (attack, b)
    assert covered > 0


@pytest.mark.parametrize("name", ["village_street", "hill_assault", "castle_storm"])
def test_seen_is_any_eye_with_a_line_of_sight(name: str) -> None:
    scenario = load_scenario(name)
    terrain = build_terrain(scenario.spec, scenario.tables)
    points = sample_points(terrain, 3, count=90)
    rng = np.random.default_rng(5)
    answers: set[bool] = set()
    for _ in range(6):
        eyes = [points[i] for i in rng.choice(len(points), size=int(rng.integers(1, 14)), replace=False).tolist()]
        ats = [points[i] for i in rng.integers(len(points), size=25).tolist()]
        memo: dict[object, object] = {}
        fast = SG.seen(terrain, memo, eyes, ats, frozenset(), batch=3)
        slow = [any(R.line_of_sight(terrain, e, at, frozenset()) is None for e in eyes) for at in ats]
        assert fast == slow
        answers.update(slow)
    assert answers == {True, False}  # seen and unseen points both checked
    assert SG.seen(terrain, {}, [], points[:3], frozenset()) == [False] * 3
