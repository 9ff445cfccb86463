"""A path's measure with its short cuts (issue 33, item 4) is the measure worked out the long way.

``paths.measure_path`` passes over a shape whose box lies apart from the path's box by more than 1e-9 inch
(``paths._apart``: shapely would find they do not meet), makes the path's line only when some shape is asked,
and finds the path's length in plain arithmetic (``paths._length``, GEOS's own sum). The long way is the same
function with those short cuts off: every shape asked of shapely, the length shapely's. Each measure here,
of real games' paths and of paths ending a hair either side of each shape's extreme points, is the long way's
field for field (floats bit for bit).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from shapely.geometry import LineString
from shapely.geometry.base import BaseGeometry

from grognard.analysis.montecarlo import play_one
from grognard.core.geometry import snap
from grognard.rulesets import get
from grognard.rulesets.skirmish import context
from grognard.rulesets.skirmish import paths as PA
from grognard.rulesets.skirmish.terrain import Terrain
from skirmish_games import game_of

XY = tuple[float, float]
GAMES = ["village_street", "castle_storm", "gun_line_armour", "river_town", "hill_assault"]  # each with men walking
HAIRS = (1e-10, 5e-10, 1e-9, 2e-9, 1e-8, 1e-6, 1e-4, 1e-2)  # inches either side of a limit


def long_way(terrain: Terrain, points: list[XY], allowance: float, **options: Any) -> PA.PathMeasure:
    """``paths.measure_path`` with its short cuts off: no shape passed over for its box, the line always made,
    the length shapely's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(PA, "_apart", lambda a, b: False)
        patch.setattr(PA, "_length", lambda pts: LineString(pts).length)
        return PA.measure_path(terrain, points, allowance, **options)


def shapes(terrain: Terrain) -> Iterator[BaseGeometry]:
    """Every shape of ``terrain`` a path is measured against, as ``measure_path`` reads them."""
    yield from (zone for _, zone, _ in terrain.zones)
    yield from (hill.shape for hill in terrain.hills)
    yield terrain.river
    if terrain.wire is not None:
        yield terrain.wire
    yield from (wall.line for wall in terrain.crossings if wall.line is not None)
    yield from (piece.shape for piece in [*terrain.boulders, *terrain.cliffs, *terrain.buildings])
    yield from (castle.line for castle in terrain.walls)


def extremes(shape: BaseGeometry) -> Iterator[tuple[XY, XY]]:
    """Each of ``shape``'s four extreme points (least and greatest x, least and greatest y: on its box's edge),
    with the way out of its box there."""
    if shape.is_empty:
        return
    coords = np.array([c for part in getattr(shape, "geoms", [shape]) for c in _coords(part)], dtype=float)
    for axis, sign in itertools.product((0, 1), (-1.0, 1.0)):
        at = coords[int(np.argmax(sign * coords[:, axis]))]
        out = (sign, 0.0) if axis == 0 else (0.0, sign)
        yield (float(at[0]), float(at[1])), out


def _coords(part: BaseGeometry) -> list[tuple[float, float]]:
    exterior = getattr(part, "exterior", None)
    return list((exterior if exterior is not None else part).coords)


def counted_apart(monkeypatch: pytest.MonkeyPatch) -> dict[bool, int]:
    """How often ``_apart`` answered each way from now on (the short cut taken, and not)."""
    seen = {True: 0, False: 0}
    apart = PA._apart

    def counting(a: PA.Box, b: PA.Box) -> bool:
        found = apart(a, b)
        seen[found] += 1
        return found

    monkeypatch.setattr(PA, "_apart", counting)
    return seen


@pytest.mark.parametrize("scenario", GAMES)
def test_every_path_a_game_measures_is_measured_as_the_long_way(scenario: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every path the doctrine's games of ``scenario`` measure (moves, charges, melee retreats), on memos of
    their own, is measured as the long way measures it; shapes are both passed over and asked."""
    monkeypatch.setattr(context, "_SHARED", {})
    asked: list[tuple[Terrain, list[XY], float, dict[str, Any]]] = []
    measure = PA.measure_path

    def keeping(terrain: Terrain, points: Any, allowance: float, **options: Any) -> PA.PathMeasure:
        asked.append((terrain, list(points), allowance, options))
        return measure(terrain, points, allowance, **options)

    monkeypatch.setattr(PA, "measure_path", keeping)
    ruleset = get("skirmish")
    options = ruleset.resolve({"scenario": scenario})
    play_one(ruleset, options, {side: "doctrine" for side in ruleset.sides}, 1, 0)
    monkeypatch.setattr(PA, "measure_path", measure)
    seen = counted_apart(monkeypatch)
    assert len(asked) > 20
    for terrain, points, allowance, extra in asked:
        short = PA.measure_path(terrain, points, allowance, **extra)
        assert short == long_way(terrain, points, allowance, **extra), (points, extra)
    assert seen[True] > 0 and seen[False] > 0


@pytest.mark.parametrize("scenario", ["proving_ground", "castle_storm", "convoy"])
def test_a_path_a_hair_either_side_of_each_shapes_box_is_measured_as_the_long_way(scenario: str) -> None:
    """Paths run along an axis up to each extreme point of every shape (a zone, a hill, the river, the wire,
    a wall, a boulder, a cliff, a building, a castle wall), ending 1e-10 to 1e-2 inch short of it or past it,
    and paths leaving it outward ending that far inside or out: each measured as the long way. Both answers of
    the box test are met beside the limit (1e-9 inch off the box)."""
    terrain = game_of(scenario, 0).ctx.terrain
    if scenario == "proving_ground":  # the wire, laid as a man lays it
        terrain = terrain.with_works([((20.0, 20.0), (26.0, 23.0))], [])
    near = {True: 0, False: 0}
    count = 0
    for shape in shapes(terrain):
        for (x, y), (ox, oy) in extremes(shape):
            for hair in HAIRS:
                for off in (-hair, hair):
                    end = (x + ox * off, y + oy * off)  # outside the box by ``off`` (inside when negative)
                    for points in ([(x + ox * 3.0, y + oy * 3.0), end], [end, (x + ox * 3.0, y + oy * 3.0)]):
                        short = PA.measure_path(terrain, points, 6.0, river_paid=True, open_doors={"d1"})
                        assert short == long_way(terrain, points, 6.0, river_paid=True, open_doors={"d1"}), points
                        count += 1
                    if hair in (5e-10, 2e-9):  # the box test of this shape, just either side of its limit
                        near[PA._apart(PA._box([end, end]), shape.bounds)] += 1
    assert count > 300
    assert near[True] > 0 and near[False] > 0


def test_a_paths_length_is_shapelys_bit_for_bit() -> None:
    """``_length`` of seeded paths of two to four points (on the table's 0.01" grid and off it, with legs of
    1e-10 to 1e-2 inch among them) is ``LineString(points).length``, the same float."""
    rng = np.random.default_rng(33)
    for k in range(4000):
        n = 2 + k % 3
        points = [(float(x), float(y)) for x, y in rng.uniform(-5.0, 80.0, size=(n, 2))]
        if k % 4 == 1:
            points = [(snap(x), snap(y)) for x, y in points]
        if k % 4 == 2:
            hair = HAIRS[k % len(HAIRS)]
            points[1] = (points[0][0] + hair, points[0][1] - hair / 3)
        assert PA._length(points) == LineString(points).length, points


def test_a_terrain_finished_anew_has_its_own_boxes() -> None:
    """The boxes are kept with the terrain they were found on: a terrain with wire laid since has the wire's
    box, and a path across the new wire pays for it as the long way says."""
    terrain = game_of("proving_ground", 0).ctx.terrain
    path = [(23.0, 18.0), (23.0, 24.0)]
    before = PA.measure_path(terrain, path, 6.0)
    wired = terrain.with_works([((20.0, 20.0), (26.0, 23.0))], [])
    after = PA.measure_path(wired, path, 6.0)
    assert after == long_way(wired, path, 6.0)
    assert after.wires == before.wires + 1
    assert PA._boxes(wired) is not PA._boxes(terrain)
