"""The cover lookup (``rules.cover``, skirmish.32-34, 43) with its ``behind`` test measured in plain arithmetic.

``rules.cover`` goes down the cover rows and gives the first whose test holds. Its ``behind`` test (a wall,
sandbags, a boulder... on the line between the men, within ``over_reach`` of the target) makes the line and
asks shapely how it crosses each such piece near the target. Here, for a piece that is a convex polygon, the
line's piece inside it and that piece's distance from the target are worked out from the polygon's edges
(``crossings.clip_one``), and the rows are gone down as the rule goes down them, with the rule's own tests for
the other rows. Wherever a measure lies within 1e-6" of a threshold, a piece near the target is not convex,
the two men stand within ``TOLERANCE`` and that, or a row's test is one this does not know, ``rules.cover`` itself
answers. With no piece near the target, the rows are gone down with every ``behind`` test failing.
"""

from __future__ import annotations

import math
from typing import Any

import shapely

from grognard.core.geometry import TOLERANCE
from grognard.core.memo import kept_in
from grognard.rulesets.skirmish import crossings as XS
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish.terrain import Terrain

XY = tuple[float, float]
KNOWN = ("inside", "cliff_top", "aboard")  # the rows whose tests are asked of the rule as they stand


def cover(terrain: Terrain, a: XY, b: XY, attack: str, memo: dict[Any, Any] | None = None) -> str | None:
    """``rules.cover(terrain, a, b, attack)``: the terrain covering a man at ``b`` from a shot by ``attack``
    from ``a``, or None. ``memo``: a dict kept with ``terrain`` (``Context.sight_memo``), where what depends on
    ``b`` alone (the pieces near him, whether his building's section still covers him) is kept."""
    if not math.hypot(b[0] - a[0], b[1] - a[1]) > TOLERANCE + XS.MARGIN:
        return R.cover(terrain, a, b, attack)
    near = kept_in(memo, ("cover near", b, attack), lambda: _near(terrain, b, attack))
    behind = _behind(terrain, a, b, near) if near else {}  # no piece near him: every behind row fails
    settled, found = (False, None) if behind is None else _by_rows(terrain, a, b, attack, behind, memo)
    return found if settled else R.cover(terrain, a, b, attack)


def _near(terrain: Terrain, b: XY, attack: str) -> list[int]:
    """The blockers (indices into ``terrain.blockers``) that a ``behind`` row against ``attack`` asks about
    for a man at ``b``: of the row's kind, their box within the rule's reach of him (``rules._behind``'s
    candidates)."""
    kinds = [row.terrain for row in terrain.cover_rows(attack) if row.when == "behind"]
    reach = terrain.tables.sight.over_reach.value + TOLERANCE + 1e-6
    tx, ty = b
    return [
        k
        for k, (f, (x0, y0, x1, y1)) in enumerate(terrain.blocker_boxes)
        if f.kind in kinds and math.hypot(max(x0 - tx, 0.0, tx - x1), max(y0 - ty, 0.0, ty - y1)) <= reach
    ]


def _behind(terrain: Terrain, a: XY, b: XY, near: list[int]) -> dict[str, bool | None] | None:
    """For each kind of the pieces ``near`` the target: whether ``rules._behind`` holds for it from a firer at
    ``a`` (True where one piece of the kind surely holds, None where none does and one is not sure); None
    where a piece is not convex."""
    reach = terrain.tables.sight.over_reach.value + TOLERANCE
    m = XS.MARGIN
    out: dict[str, bool | None] = {}
    for k in near:
        feature = terrain.blockers[k]
        if out.get(feature.kind) is True:
            continue  # the rule's any() holds already
        edges = XS.plain_edges(feature.shape)
        if edges is None:
            return None
        clipped = XS.clip_one(a, b, edges)
        holds: bool | None = None
        if clipped is not None:
            inside, from_b = clipped
            if inside < TOLERANCE - m or from_b > reach + m:
                holds = False
            elif inside > TOLERANCE + m and from_b < reach - m:
                holds = not shapely.intersects_xy(feature.shape, *a)  # the firer is not on it (covers his point)
        known = out.get(feature.kind, False)
        out[feature.kind] = True if holds else (None if holds is None or known is None else False)
    return out


def _by_rows(
    terrain: Terrain, a: XY, b: XY, attack: str, behind: dict[str, bool | None], memo: dict[Any, Any] | None = None
) -> tuple[bool, str | None]:
    """``rules.cover`` down its rows with ``behind``'s answers for the ``behind`` rows (a kind not in it has
    no piece near the target: False): (settled, the cover), not settled where the rule is to answer itself.
    An ``in_building`` row that holds covers him where his section still stands for him against ``attack``
    (``rules._building_stands_for``, kept in ``memo`` by his place), as the rule reads it."""
    for row in terrain.cover_rows(attack):
        if row.when == "behind":
            held = behind.get(row.terrain, False)
            if held is None:
                return False, None
        elif row.when in KNOWN:
            held = R.COVER_TESTS[row.when](terrain, row.terrain, a, b)
        elif row.when == "in_building":
            if not R.COVER_TESTS[row.when](terrain, row.terrain, a, b):
                continue
            held = kept_in(memo, ("stands", b, attack), lambda: R._building_stands_for(terrain, b, attack))
        else:
            return False, None  # a test not known here
        if held:
            return True, row.terrain
    return True, None
