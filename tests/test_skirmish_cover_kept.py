"""The cover lookup's per-target short cuts and the wedge's lines found at once give the rules' own answers.

- ``covers.cover`` with a memo (what depends on the target's place alone kept: the pieces near him, whether his
  section still stands for him) and without one is ``rules.cover``, for every attack a cover row names, with
  the buildings' sections in each state (standing, rubble with no top cover, all dead), over men a hair either
  side of each building's and each section's outline, men inside and outside them, near walls and far from
  everything; the memo read again for the same targets from other firers (the order the table asks them in).
- ``fire.wedge_rows`` finds the lines from the gunner to the men under his wedges in one batch: each line kept
  is ``rules.line_of_sight``, and the rows and dice are the long way's, on a memo nothing was kept in before.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import shapely

from grognard.core.geometry import snap_angle
from grognard.rulesets.skirmish import context
from grognard.rulesets.skirmish import covers as CV
from grognard.rulesets.skirmish import fire as FI
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish.scenario import load_scenario
from grognard.rulesets.skirmish.terrain import ALL_DEAD, FULL_POINTS, NO_TOP_COVER, Terrain, build_terrain
from skirmish_games import mg_gunners
from test_skirmish_drive_lean import long_way_wedge_rows

XY = tuple[float, float]
HAIRS = (-1e-2, -1e-6, -1e-9, -1e-10, 0.0, 1e-10, 1e-9, 1e-6, 1e-2)


def terrain_of(scenario: str) -> Terrain:
    spec = load_scenario(scenario)
    return build_terrain(spec.spec, spec.tables)


def edge_points(shape: object) -> list[XY]:
    """Points a hair (``HAIRS``, inches) either side of each edge of the outline of ``shape``, at a quarter and
    at the middle of each edge, and its corners."""
    coords = [tuple(map(float, p)) for p in shapely.get_coordinates(shapely.get_exterior_ring(shape))]
    out: list[XY] = []
    for (x0, y0), (x1, y1) in itertools.pairwise(coords):
        size = math.hypot(x1 - x0, y1 - y0)
        if size == 0:
            continue
        nx, ny = -(y1 - y0) / size, (x1 - x0) / size
        for t in (0.25, 0.5):
            px, py = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
            out += [(px + h * nx, py + h * ny) for h in HAIRS]
        out.append((x0, y0))
    return out


def targets_and_firers(terrain: Terrain, rng: np.random.Generator) -> tuple[list[XY], list[XY]]:
    """Targets by every building's and section's outline and walls' faces, and random ones (some 0.01" apart as
    men stand); firers at random places, some inside the buildings."""
    targets: list[XY] = []
    for b in terrain.buildings:
        targets += edge_points(b.shape)
        for sec in b.sections:
            targets += edge_points(sec.shape)
    for f in terrain.blockers:
        targets += edge_points(f.shape)[::3]
    targets += [
        (round(float(rng.uniform(0, terrain.width)), 2), round(float(rng.uniform(0, terrain.depth)), 2))
        for _ in range(60)
    ]
    firers = [
        (round(float(rng.uniform(0, terrain.width)), 2), round(float(rng.uniform(0, terrain.depth)), 2))
        for _ in range(6)
    ]
    for b in terrain.buildings[:3]:
        c = b.shape.representative_point()
        firers.append((float(c.x), float(c.y)))
    return targets, firers


@pytest.mark.parametrize("scenario", ["village_street", "river_town", "castle_storm"])
@pytest.mark.parametrize("state", [FULL_POINTS, NO_TOP_COVER, ALL_DEAD])
def test_cover_with_what_the_target_point_alone_decides_kept_is_the_rules_cover(scenario: str, state: str) -> None:
    base = terrain_of(scenario)
    sections = {sec.id: state for b in base.buildings for sec in b.sections}
    terrain = base.with_works([], [], section_states=sections) if sections else base
    rng = np.random.default_rng(41)
    targets, firers = targets_and_firers(terrain, rng)
    attacks = sorted({attack for row in terrain.tables.cover for attack in row.against})
    memo: dict[object, object] = {}
    found: dict[object, int] = {}
    for attack in attacks:
        for a in firers:  # each target asked again from every firer: the memo's answers read back
            for b in targets:
                want = R.cover(terrain, a, b, attack)
                assert CV.cover(terrain, a, b, attack, memo) == want, (a, b, attack)
                assert CV.cover(terrain, a, b, attack) == want, (a, b, attack)
                found[want] = found.get(want, 0) + 1
    inside = sum(n for cover, n in found.items() if cover is not None and "building" in str(cover))
    if terrain.buildings:  # the in-building row holds, or (all dead, rubble against some attacks) is passed over
        assert (inside > 20) == (state != ALL_DEAD), found
    assert found.get(None, 0) > 100, found
    stands = [v for key, v in memo.items() if isinstance(key, tuple) and key[0] == "stands"]
    assert state != ALL_DEAD or not any(stands)
    if scenario != "castle_storm":  # there the castle's walls (not convex) near its buildings send them to the rule
        assert not inside or any(stands)  # kept, and read


@pytest.mark.parametrize("scenario", ["convoy", "castle_storm"])
def test_a_wedges_lines_found_at_once_are_the_rules_and_give_the_long_ways_rows(
    scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(context, "_SHARED", {})  # this test's games keep memos of their own
    lines = 0
    for ctx, gunner in mg_gunners(scenario):
        terrain = ctx.terrain
        ctx.shared.memos, ctx.sight_cache = {}, None  # nothing kept: the batch finds every line
        memo = ctx.sight_memo(terrain)
        assert not memo
        apex = (gunner.x, gunner.y)
        headings = sorted({snap_angle(R.bearing(apex, (f.x, f.y))) for f in M.enemies(ctx, gunner.side)})
        headings = headings or [0.0]
        men, dice, rows = FI.wedge_rows(ctx, gunner, headings)
        opened = frozenset(M.open_doors(ctx))
        for k in sorted({k for row in rows for k in row}):
            at = (men[k].x, men[k].y)
            assert memo[("sight", apex, at, opened)] == R.line_of_sight(terrain, apex, at, opened)
            lines += 1
        assert (men, dice, rows) == long_way_wedge_rows(ctx, gunner, headings)
    assert lines >= 10, lines
