"""The hills' crests settled from a line's ends (``crests.settled``, issue 33 item 4) as ``rules.hill_in_the_way``.

``settled`` says a hill surely blocks a line of sight, or surely leaves it clear, from the line's ends alone. A
line it settles must get the rule's own answer for that hill (``rules.crest_blocks`` over the pieces of the
line ``rules.hill_in_the_way`` finds), and ``sight.sight_many`` must give ``rules.line_of_sight``'s answer,
reason and all. Checked on the shipped scenarios' hills over random lines and lines between points near each
hill's corners and a hair either side of its crest's reach, and on made-up tables where each limit of the short
cuts is straddled:

- an end inside the hill just either side of ``crest_reach`` and the tolerance from its edge;
- a line just either side of twice ``crest_reach`` and the tolerance long;
- long lines whose sight height, ``crest_reach`` from a man, clears the hill's top by a hair or falls under it;
- a line from a man at the crest that runs just either side of ``crest_reach`` and the tolerance deep in the
  hill, both ways round;
- a hill that is not convex, crossed by a line from its crest through a deep arm;
- two hills of different heights, a line from the higher one down over the lower (from a man standing beside
  the lower one's edge too: he is not at its crest).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import shapely
from shapely.geometry import LineString, Polygon

from grognard import rulesets
from grognard.analysis.montecarlo import play_one
from grognard.core.geometry import TOLERANCE
from grognard.rulesets.skirmish import crests as CR
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish import sight as SG
from grognard.rulesets.skirmish.scenario import load_scenario
from grognard.rulesets.skirmish.terrain import Feature, Terrain, build_terrain

XY = tuple[float, float]
Line = tuple[XY, XY]
HAIRS = (-0.005, -1e-4, -2e-6, -5e-7, 0.0, 5e-7, 2e-6, 1e-4, 0.005)  # inches either side of a limit


def _rule_blocks(terrain: Terrain, hill: Feature, a: XY, b: XY) -> bool:
    """``hill`` blocks the line from ``a`` to ``b``: ``rules.crest_blocks`` with the pieces of the line over the
    hill as ``rules.hill_in_the_way`` finds them (its loop, for this one hill)."""
    line = LineString([a, b])
    spans = []
    for piece in R._pieces(line.intersection(hill.shape)):
        ends = shapely.points(shapely.get_coordinates(piece)[[0, -1]])
        spans.append(np.asarray(shapely.line_locate_point(line, ends)).tolist())
    heights = (terrain.height(*a), terrain.height(*b), line.length)
    return R.crest_blocks(terrain, hill, line, a, b, heights, spans)


def _check(terrain: Terrain, lines: list[Line]) -> dict[str, int]:
    """Every line ``settled`` settles for a hill the rule would ask about gets the rule's answer for that hill,
    and ``sight_many`` answers every line as ``line_of_sight``; the counts of lines settled blocked and clear,
    of lines the rule finds blocked and clear by a hill, and of lines with one end on the hill (settled or not)."""
    reach = terrain.tables.sight.crest_reach.value
    counts = {
        "blocked": 0,
        "clear": 0,
        "rule blocked": 0,
        "rule clear": 0,
        "an end on it": 0,
        "settled so": 0,
        "behind": 0,
    }
    for hill in terrain.hills:
        asked = []
        for a, b in lines:
            line = LineString([a, b])
            low = min(terrain.height(*a), terrain.height(*b))
            if line.length - reach > reach and hill.height > low + TOLERANCE and hill.shape.intersects(line):
                asked.append((a, b))
        if not asked:
            continue
        ends = np.array(asked, dtype=float).reshape(-1, 2, 2)
        heights = np.array([(terrain.height(*a), terrain.height(*b)) for a, b in asked])
        length = shapely.length(shapely.linestrings(ends))
        blocked, clear = CR.settled(terrain, hill, ends, heights, length)
        assert not (blocked & clear).any()
        for (a, b), sure_block, sure_clear in zip(asked, blocked.tolist(), clear.tolist(), strict=True):
            rule = _rule_blocks(terrain, hill, a, b)
            counts["rule blocked" if rule else "rule clear"] += 1
            if sure_block or sure_clear:
                assert rule == sure_block, (hill.id, a, b)
                counts["blocked" if sure_block else "clear"] += 1
            if shapely.intersects_xy(hill.shape, *a) != shapely.intersects_xy(hill.shape, *b):
                counts["an end on it"] += 1  # as the aim points' and observers' lines mostly are
                counts["settled so"] += sure_block or sure_clear
    whys = [R.line_of_sight(terrain, a, b) for a, b in lines]
    assert SG.sight_many(terrain, lines, frozenset()) == whys
    for (a, b), why, behind in zip(lines, whys, SG.behind_a_crest(terrain, lines), strict=True):
        if behind:  # what seen keeps without the reason: some hill's crest is in the way
            assert why is not None and R.hill_in_the_way(terrain, LineString([a, b]), a, b) is not None
            counts["behind"] += 1
    return counts


def _near_edges(terrain: Terrain, rng: np.random.Generator) -> list[XY]:
    """Points at each hill's corners, on its sides, and a hair either side of ``crest_reach`` (and of it and
    the tolerance) from its edge, inside and out."""
    reach = terrain.tables.sight.crest_reach.value
    out: list[XY] = []
    for hill in terrain.hills:
        ring = shapely.get_coordinates(hill.shape.exterior)
        centre = hill.shape.centroid
        for (x0, y0), (x1, y1) in zip(ring[:-1].tolist(), ring[1:].tolist(), strict=True):
            out.append((x0, y0))
            for f in rng.uniform(0.05, 0.95, size=2).tolist():
                x, y = x0 + f * (x1 - x0), y0 + f * (y1 - y0)
                size = math.hypot(x1 - x0, y1 - y0)
                nx, ny = -(y1 - y0) / size, (x1 - x0) / size
                if hill.shape.contains(shapely.Point(x + 0.01 * nx, y + 0.01 * ny)) is False:
                    nx, ny = -nx, -ny  # inward
                for depth in (0.0, reach, reach + TOLERANCE):
                    for hair in (-0.003, -1e-7, 1e-7, 0.003):
                        out.append((x + (depth + hair) * nx, y + (depth + hair) * ny))
                out.append((x - 3 * nx, y - 3 * ny))
        out.append((centre.x, centre.y))
    return out


@pytest.mark.parametrize("name", ["gun_line_armour", "hill_assault", "convoy", "proving_ground"])
def test_the_crests_settled_from_the_ends_are_the_rules_on_the_shipped_hills(name: str) -> None:
    scenario = load_scenario(name)
    terrain = build_terrain(scenario.spec, scenario.tables)
    rng = np.random.default_rng(33)
    points = [(float(x), float(y)) for x, y in rng.uniform(0, [terrain.width, terrain.depth], size=(60, 2))]
    edges = _near_edges(terrain, rng)
    picks = rng.integers(len(points), size=(300, 2)).tolist()
    lines = [(points[i], points[j]) for i, j in picks]
    lines += [(p, q) for p in edges for q in points[:6]] + [(q, p) for p in edges for q in points[6:9]]
    lines += [(edges[i], edges[j]) for i, j in rng.integers(len(edges), size=(200, 2)).tolist()]
    counts = _check(terrain, lines)
    assert counts["blocked"] > 0 and counts["clear"] > 0 and counts["behind"] > 0  # every short cut answered
    assert counts["settled so"] > 0.25 * counts["an end on it"]  # many run deep over the hill: the rule's


def _table(width: float, depth: float, hills: list[tuple[str, float, list[XY]]]) -> Terrain:
    tables = load_scenario("gun_line_armour").tables
    return Terrain(width, depth, tables, hills=[Feature("hill", h, Polygon(c), height=t) for h, t, c in hills])


BOX = ("BOX", 1.0, [(10.0, 20.0), (40.0, 20.0), (40.0, 40.0), (10.0, 40.0)])


def test_each_limit_of_the_crest_short_cuts_straddled_gets_the_rules_answer() -> None:
    terrain = _table(60.0, 60.0, [BOX, ("TALL", 2.0, [(10.0, 40.5), (40.0, 40.5), (40.0, 50.0), (10.0, 50.0)])])
    reach = terrain.tables.sight.crest_reach.value
    families: dict[str, list[Line]] = {
        # an end inside farther than crest_reach and the tolerance from the edge (or not), the other below it
        "deep end": [((25.0, 15.0), (25.0, 20.0 + reach + TOLERANCE + h)) for h in HAIRS],
        # a line twice crest_reach and the tolerance long (or not), from a deep end to the ground below
        "length": [((25.0, 21.5 - 2 * reach - TOLERANCE - h), (25.0, 21.5)) for h in HAIRS],
        # a man at the crest (0.5" from the right side), his line crest_reach and the tolerance deep (or not)
        "crest depth": [((5.0, 20.0 + reach + TOLERANCE + h), (39.5, 20.0 + reach + TOLERANCE + h)) for h in HAIRS],
        # down from the higher hill over the lower one to the ground, from far back and from beside its edge
        "two heights": [((x, 47.0), (x + dx, 10.0)) for x in (15.0, 25.0) for dx in (-4.0, 0.0, 3.0)]
        + [((25.0, 40.7), (45.0, 39.5 - k)) for k in (0.0, 0.2, 0.4)],
    }
    families["crest depth"] += [(b, a) for a, b in families["crest depth"]]
    families["crest depth"] += [((5.0, 17.0 + k), (39.5, 20.95)) for k in np.linspace(3.0, 4.2, 13).tolist()]
    answers = {}
    for name, lines in families.items():
        _check(terrain, lines)
        answers[name] = {R.line_of_sight(terrain, a, b) is None for a, b in lines}
    assert answers["deep end"] == answers["length"] == answers["crest depth"] == {True, False}  # straddled
    assert answers["two heights"] == {False}


def test_long_lines_whose_sight_clears_the_top_by_a_hair_or_falls_under_it_get_the_rules_answer() -> None:
    terrain = _table(200.0, 20.0, [("FAR", 1.0, [(150.0, 2.0), (190.0, 2.0), (190.0, 18.0), (150.0, 18.0)])])
    reach = terrain.tables.sight.crest_reach.value
    top = 1.0
    edge = top * reach / (TOLERANCE + CR.EDGE)  # longer, and crest_reach from a man the sight is near the top
    deep = 1.2  # the far end this far inside: the rule finds the line blocked up to about 120" long
    lengths = [50.0, edge - 0.02, edge - 1e-4, edge, edge + 1e-4, edge + 0.02, 110.0, 119.9, 120.1, 130.0, 148.0]
    lines = [((150.0 + deep - length, 10.0), (150.0 + deep, 10.0)) for length in lengths]
    lines += [((150.0 + deep - length, 9.0), (150.0 + deep, 10.5)) for length in lengths]
    counts = _check(terrain, lines)
    assert counts["blocked"] > 0 and counts["rule clear"] > 0


def test_a_hill_that_is_not_convex_is_never_said_clear_from_its_sides() -> None:
    arm = ("ARM", 1.0, [(45.0, 5.0), (58.0, 5.0), (58.0, 18.0), (52.0, 18.0), (52.0, 10.0), (45.0, 10.0)])
    terrain = _table(70.0, 30.0, [arm])
    lines = [((45.5, 7.5), (51.0, 3.0)), ((45.5, 7.5), (50.0, 2.0)), ((45.5, 6.0), (62.0, 7.5))]
    lines += [((57.5, 17.5), (48.0, 1.0)), ((52.5, 17.5), (44.0, 12.0)), ((45.5, 9.5), (40.0, 1.0))]
    counts = _check(terrain, lines)
    assert counts["clear"] == 0 and counts["rule blocked"] >= 3


def test_the_lines_of_a_doctrine_game_are_settled_from_their_ends_as_the_rule_answers_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[tuple[Terrain, Feature, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    settled = CR.settled

    def keep(terrain: Terrain, hill: Feature, ends: np.ndarray, heights: np.ndarray, length: np.ndarray) -> Any:
        found = settled(terrain, hill, ends, heights, length)
        asked.append((terrain, hill, ends, heights, found[0], found[1]))
        return found

    monkeypatch.setattr(CR, "settled", keep)
    ruleset = rulesets.get("skirmish")
    play_one(ruleset, ruleset.resolve({"scenario": "gun_line_armour"}), {s: "doctrine" for s in ruleset.sides}, 1, 2)
    lines = sure = 0
    for terrain, hill, ends, heights, blocked, clear in asked:
        for (a, b), h, sure_block, sure_clear in zip(ends.tolist(), heights.tolist(), blocked, clear, strict=True):
            assert h == [terrain.height(*a), terrain.height(*b)]
            lines += 1
            if sure_block or sure_clear:
                sure += 1
                assert _rule_blocks(terrain, hill, tuple(a), tuple(b)) == sure_block
    assert lines > 100 and sure > 0.9 * lines


@pytest.mark.parametrize("name", ["gun_line_armour", "hill_assault"])
def test_an_observer_behind_a_crest_is_one_the_rule_finds_blind_and_seen_answers_as_the_rule(name: str) -> None:
    scenario = load_scenario(name)
    terrain = build_terrain(scenario.spec, scenario.tables)
    rng = np.random.default_rng(5)
    edges = _near_edges(terrain, rng)
    points = [(float(x), float(y)) for x, y in rng.uniform(0, [terrain.width, terrain.depth], size=(40, 2))]
    answers: set[bool] = set()
    behind = 0
    for _ in range(4):
        eyes = [edges[i] for i in rng.choice(len(edges), size=6, replace=False).tolist()] + points[:2]
        ats = [points[i] for i in rng.integers(len(points), size=20).tolist()] + edges[:4]
        memo: dict[object, object] = {}
        fast = SG.seen(terrain, memo, eyes, ats, frozenset(), batch=3)
        assert fast == [any(R.line_of_sight(terrain, e, at) is None for e in eyes) for at in ats]
        answers.update(fast)
        for eye, at in memo.get(SG.BEHIND, set()):
            behind += 1
            assert R.line_of_sight(terrain, eye, at) is not None
            assert R.hill_in_the_way(terrain, LineString([eye, at]), eye, at) is not None
    assert answers == {True, False} and behind > 20
