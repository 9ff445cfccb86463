"""Line of sight, range and cover for many pairs of points at once, memoised per terrain (skirmish.11, 25, 32-34).

The rules are ``rules.line_of_sight``, ``rules.effective_range`` and ``rules.cover``; nothing here decides
anything they would not. What this module adds is speed, by two exact short cuts:

- **Sight**: every new line (shooter to target) is measured against every building's outline and every convex
  sight blocker over arrays (``crossings``): where it crosses a wall and whether an opening holds the place, how
  long a piece of a wall it crosses and how far from each man. Where such a measure lies within 1e-6" of the
  rule's threshold, or the line meets a piece that is not convex, shapely's overlays answer as the rule does
  (the same operations, over an array of lines); then hills (``crests.settled`` from the lines' ends, the
  others ``rules.crest_blocks`` line by line).
- **Cover**: a man at a point that lies in no piece a cover row tests for, and farther than the row's reach
  from every wall and cliff, has no cover from anyone (``rules.cover_possible``); only the others go through
  ``rules.cover``.

Heights are looked up once per point. Every answer is kept in the memo ``Context.sight_memo`` gives for the
terrain object it was worked out on (a new terrain, a new memo), under the keys ``fire.shot_table`` reads:
``("sight", a, b, doors)``, ``("range", a, b)``, ``("cover", a, b, attack)``; points are (x, y) in inches.
``seen`` keeps the lines a hill's crest surely blocks (whatever else blocks them) in the set ``memo[BEHIND]``.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Sequence
from typing import Any

import numpy as np
import shapely

from grognard.core.geometry import TOLERANCE
from grognard.rulesets.skirmish import covers as CV
from grognard.rulesets.skirmish import crests as CR
from grognard.rulesets.skirmish import crossings as XS
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish.terrain import Feature, Terrain

XY = tuple[float, float]
Memo = dict[Any, Any]
BEHIND = "behind a crest"  # the memo's set of lines (a, b) a hill's crest surely blocks (``seen``)


def fill_sight(terrain: Terrain, memo: Memo, pairs: Iterable[tuple[XY, XY]], opened: frozenset[str]) -> None:
    """Work out, into ``memo``, the line of sight of every pair (shooter point, target point) not yet in it
    with the doors ``opened`` open: ``memo[("sight", a, b, opened)]`` is ``rules.line_of_sight``'s answer."""
    todo = list(dict.fromkeys((a, b) for a, b in pairs if ("sight", a, b, opened) not in memo))
    if not todo:
        return
    for (a, b), why in zip(todo, sight_many(terrain, todo, opened), strict=True):
        memo[("sight", a, b, opened)] = why


def seen(
    terrain: Terrain, memo: Memo, eyes: Sequence[XY], ats: Sequence[XY], opened: frozenset[str], batch: int = 4
) -> list[bool]:
    """For each point of ``ats``: does some point of ``eyes`` see it (``rules.line_of_sight`` is None) with the
    doors ``opened`` open? The lines go into ``memo`` as ``fill_sight`` puts them, but only until an eye that
    sees is found: the ``batch`` nearest eyes of every point not yet seen at once, then the next nearest. A new
    line a hill's crest surely blocks (``behind_a_crest``) is kept in the set ``memo[BEHIND]`` as (eye, point),
    without the reason ``line_of_sight`` would give (which may be a building or a wall before the hill)."""
    found: dict[XY, bool] = {}
    left: dict[XY, list[XY]] = {}
    points = list(dict.fromkeys(ats))
    if not eyes:
        return [False] * len(ats)
    xy = np.array(eyes, dtype=float).reshape(-1, 2)
    to = np.array(points, dtype=float).reshape(-1, 2)
    # each point's eyes nearest first (a stable sort of each row: the same order as one point at a time)
    gap = np.hypot(xy[np.newaxis, :, 0] - to[:, np.newaxis, 0], xy[np.newaxis, :, 1] - to[:, np.newaxis, 1])
    for at, near in zip(points, np.argsort(gap, axis=1, kind="stable").tolist(), strict=True):
        left[at] = [eyes[k] for k in near]
    hills = bool(terrain.hills)  # with no hill, no line is behind a crest: every new line to fill_sight
    behind: set[tuple[XY, XY]] = memo.setdefault(BEHIND, set()) if hills else set()
    if len(behind) > 100_000:
        behind.clear()
    while left:
        asked = {at: rest[:batch] for at, rest in left.items()}
        if not hills:
            fill_sight(terrain, memo, ((eye, at) for at, some in asked.items() for eye in some), opened)
        else:
            todo = [
                (eye, at)
                for at, some in asked.items()
                for eye in some
                if (eye, at) not in behind and ("sight", eye, at, opened) not in memo
            ]
            todo = list(dict.fromkeys(todo))
            behind.update(p for p, blind in zip(todo, behind_a_crest(terrain, todo), strict=True) if blind)
            fill_sight(terrain, memo, [p for p in todo if p not in behind], opened)
        for at, some in asked.items():
            if any((eye, at) not in behind and memo[("sight", eye, at, opened)] is None for eye in some):
                found[at] = True
                del left[at]
            elif len(left[at]) <= batch:
                found[at] = False
                del left[at]
            else:
                left[at] = left[at][batch:]
    return [found[at] for at in ats]


def sight_many(terrain: Terrain, pairs: Sequence[tuple[XY, XY]], opened: Collection[str]) -> list[str | None]:
    """``rules.line_of_sight(terrain, a, b, opened)`` for each pair (a, b), worked out piece by piece over
    all the lines at once (``crossings``' arrays, shapely's vectorised predicates and overlays where they are
    not sure); the same answers in the same order of tests: buildings in order, then sight blockers in order,
    then hills (``rules.hill_in_the_way``)."""
    n = len(pairs)
    out: list[str | None] = [None] * n
    if n == 0:
        return out
    ends = _Ends(np.fromiter(itertools.chain.from_iterable(itertools.chain.from_iterable(pairs)), float, 4 * n))
    xy = ends.xy
    apart = np.hypot(xy[:, 1, 0] - xy[:, 0, 0], xy[:, 1, 1] - xy[:, 0, 1]) > TOLERANCE
    open_ = np.flatnonzero(apart)  # lines still unblocked (a zero-length line sees)
    if open_.size:
        open_ = _buildings(terrain, ends, open_, opened, out)
    if open_.size:
        open_ = _blockers(terrain, ends, open_, out)
    if open_.size and terrain.hills:
        _crests(terrain, pairs, ends.lines(), open_, out)
    return out


class _Ends:
    """The lines of one ``sight_many``: their ends ``xy`` (n, 2, 2), and as shapely shapes once asked."""

    def __init__(self, xy: np.ndarray) -> None:
        self.xy = xy.reshape(-1, 2, 2)
        self.made: np.ndarray | None = None

    def lines(self) -> np.ndarray:
        if self.made is None:
            self.made = np.asarray(shapely.linestrings(self.xy))
        return self.made


def _still_open(open_: np.ndarray, out: list[str | None]) -> np.ndarray:
    return np.array([i for i in open_.tolist() if out[i] is None], dtype=np.intp)


def _buildings(
    terrain: Terrain, ends: _Ends, open_: np.ndarray, opened: Collection[str], out: list[str | None]
) -> np.ndarray:
    """The buildings' test of ``rules.line_of_sight`` for the lines ``open_``, into ``out``: the lines left open."""
    asked = open_
    verdicts = XS.walls(terrain, terrain.buildings, XS.Lines(ends.xy[asked]), opened)
    for j, building in enumerate(terrain.buildings):
        verdict = verdicts[np.searchsorted(asked, open_), j]
        why = f"building {building.id}"
        walled = open_[verdict == XS.BLOCKED].tolist()
        rest = open_[verdict == XS.UNSURE]
        if rest.size:  # near a threshold: shapely's crossings, as the rule finds them
            walled += [int(rest[k]) for k in _walls_between(terrain, building, ends.lines()[rest], opened)]
        for i in walled:
            out[i] = why
        if walled:
            open_ = _still_open(open_, out)
            if open_.size == 0:
                break
    return open_


def _blockers(terrain: Terrain, ends: _Ends, open_: np.ndarray, out: list[str | None]) -> np.ndarray:
    """The sight blockers' test of ``rules.line_of_sight`` for the lines ``open_``, into ``out``: the lines left
    open. A convex piece is measured over arrays (``crossings.clips``), shapely's overlays where not sure."""
    reach = terrain.tables.sight.over_reach.value + TOLERANCE
    outlines, columns = XS.convex_outlines(terrain.sight_blockers)
    asked, m = open_, XS.MARGIN
    if len(outlines.first):
        sure, inside, from_a, from_b = XS.clips(XS.Lines(ends.xy[asked]), outlines)
        passes = sure & ((inside < TOLERANCE - m) | (from_a < reach - m) | (from_b < reach - m))
        stops = sure & ~passes & (inside > TOLERANCE + m) & (from_a > reach + m) & (from_b > reach + m)
    for feature, column in zip(terrain.sight_blockers, columns, strict=True):
        ask, stopped = open_, []
        if column >= 0:
            row = np.searchsorted(asked, open_)
            ask, stopped = open_[~passes[row, column] & ~stops[row, column]], open_[stops[row, column]].tolist()
        if ask.size:
            stopped += _over(feature, ends.xy, ends.lines(), ask, reach).tolist()
        if stopped:
            why = f"{feature.kind.replace('_', ' ')} {feature.id}"
            for i in stopped:
                out[i] = why
            open_ = _still_open(open_, out)
            if open_.size == 0:
                break
    return open_


def _walls_between(terrain: Terrain, building: Any, lines: np.ndarray, opened: Collection[str]) -> set[int]:
    """The lines (indices into ``lines``) that cross ``building``'s outline somewhere no window or open door
    holds: ``rules.line_of_sight``'s building test, with shapely's crossings, over an array of lines."""
    crossings = shapely.intersection(lines, building.shape.exterior)
    coords, which = shapely.get_coordinates(crossings, return_index=True)
    blocked: set[int] = set()
    for (x, y), k in zip(coords.tolist(), which.tolist(), strict=True):
        if k in blocked:
            continue
        opening = R.opening_at_xy(building, x, y, doors_only=False)
        if opening is None or (terrain.openings[opening].door and opening not in opened):
            blocked.add(k)
    return blocked


def _over(feature: Any, ends: np.ndarray, lines: np.ndarray, ask: np.ndarray, reach: float) -> np.ndarray:
    """The lines ``ask`` (indices into ``lines``) that ``feature`` stops: they cross more than ``TOLERANCE`` of
    it, farther than ``reach`` from either man (``rules.line_of_sight``'s second test, with shapely's
    overlays, over an array of lines)."""
    meets = np.asarray(ask[shapely.intersects(feature.shape, lines[ask])], dtype=np.intp)
    if meets.size == 0:
        return meets
    crossing = shapely.intersection(lines[meets], feature.shape)
    stops_it = (
        (shapely.length(crossing) > TOLERANCE)
        & ~(shapely.distance(crossing, shapely.points(ends[meets, 0])) <= reach)
        & ~(shapely.distance(crossing, shapely.points(ends[meets, 1])) <= reach)
    )
    return np.asarray(meets[stops_it], dtype=np.intp)


def behind_a_crest(terrain: Terrain, pairs: Sequence[tuple[XY, XY]]) -> list[bool]:
    """For each pair (a, b): a hill's crest surely blocks the line (``rules.hill_in_the_way`` finds one, so
    ``rules.line_of_sight`` is not None, whatever it names), as ``crests.surely_blocked`` finds it from the
    line's ends; False where it may not."""
    if not terrain.hills or not pairs:
        return [False] * len(pairs)
    ends = np.array(pairs, dtype=float).reshape(-1, 2, 2)
    length = np.hypot(ends[:, 1, 0] - ends[:, 0, 0], ends[:, 1, 1] - ends[:, 0, 1])
    out = np.zeros(len(pairs), dtype=bool)
    asked = np.flatnonzero(length > 2 * terrain.tables.sight.crest_reach.value)  # a shorter line sees over hills
    if asked.size:
        ends, length = ends[asked], length[asked]
        heights = np.array([(terrain.height(*pairs[i][0]), terrain.height(*pairs[i][1])) for i in asked.tolist()])
        for hill in terrain.hills:
            out[asked] |= CR.surely_blocked(terrain, hill, ends, heights.reshape(-1, 2), length)
    return [bool(b) for b in out.tolist()]


def _crests(
    terrain: Terrain, pairs: Sequence[tuple[XY, XY]], lines: np.ndarray, open_: np.ndarray, out: list[str | None]
) -> None:
    """``rules.hill_in_the_way`` for the lines ``open_`` (indices into ``pairs`` and ``lines``), into ``out``:
    hill by hill in the rule's order: the lines each hill surely blocks or surely leaves clear found from their
    ends over arrays (``crests.settled``), the others the long way (``_crests_long``)."""
    reach = terrain.tables.sight.crest_reach.value
    length = shapely.length(lines[open_])
    keep = length - reach > reach
    open_, length = open_[keep], length[keep]
    if open_.size == 0:
        return
    heights = np.array([(terrain.height(*pairs[i][0]), terrain.height(*pairs[i][1])) for i in open_.tolist()])
    heights = heights.reshape(-1, 2)
    low = heights.min(axis=1)
    for hill in terrain.hills:
        some = np.flatnonzero(hill.height > low + TOLERANCE)
        some = some[shapely.intersects(hill.shape, lines[open_[some]])]
        if some.size == 0:
            continue
        ends = np.array([pairs[i] for i in open_[some].tolist()], dtype=float).reshape(-1, 2, 2)
        blocks, clear = CR.settled(terrain, hill, ends, heights[some], length[some])
        doubt = ~blocks & ~clear
        if doubt.any():
            blocks[doubt] = _crests_long(terrain, hill, pairs, lines, open_[some[doubt]], length[some[doubt]])
        if blocks.any():
            for i in open_[some[blocks]].tolist():
                out[i] = f"the crest of hill {hill.id}"
            left = np.ones(open_.size, dtype=bool)
            left[some[blocks]] = False
            open_, length, heights, low = open_[left], length[left], heights[left], low[left]
            if open_.size == 0:
                return


def _crests_long(
    terrain: Terrain,
    hill: Feature,
    pairs: Sequence[tuple[XY, XY]],
    lines: np.ndarray,
    meets: np.ndarray,
    length: np.ndarray,
) -> np.ndarray:
    """For the lines ``meets`` (indices into ``pairs`` and ``lines``; ``length``, each one's), which meet
    ``hill``: whether it blocks each, by ``rules.crest_blocks`` with the spans ``rules.hill_in_the_way`` finds
    (the same shapely operations, over arrays)."""
    parts, owner = shapely.get_parts(shapely.intersection(lines[meets], hill.shape), return_index=True)
    pieces = shapely.get_type_id(parts) == 1  # LineStrings (rules._pieces)
    parts, owner = parts[pieces], owner[pieces]
    coords, which = shapely.get_coordinates(parts, return_index=True)
    first = np.searchsorted(which, np.arange(len(parts)))
    last = np.searchsorted(which, np.arange(len(parts)), side="right") - 1
    line_of = meets[owner]
    s0 = shapely.line_locate_point(lines[line_of], shapely.points(coords[first])).tolist()
    s1 = shapely.line_locate_point(lines[line_of], shapely.points(coords[last])).tolist()
    spans: dict[int, list[tuple[float, float]]] = {}
    for i, x0, x1 in zip(line_of.tolist(), s0, s1, strict=True):
        spans.setdefault(i, []).append((x0, x1))
    blocks = []
    for i, length_i in zip(meets.tolist(), length.tolist(), strict=True):
        a, b = pairs[i]
        heights = (terrain.height(*a), terrain.height(*b), length_i)
        blocks.append(R.crest_blocks(terrain, hill, lines[i], a, b, heights, spans.get(i, ())))
    return np.array(blocks, dtype=bool)


def height(terrain: Terrain, memo: Memo, at: XY) -> float:
    """``terrain.height`` at ``at``, memoised."""
    key = ("height", at)
    found = memo.get(key)
    if found is None:
        found = memo[key] = terrain.height(*at)
    return found


def effective_range(terrain: Terrain, memo: Memo, a: XY, b: XY) -> float:
    """``rules.effective_range`` from ``a`` to ``b``, memoised (heights once per point)."""
    key = ("range", a, b)
    found = memo.get(key)
    if found is None:
        found = memo[key] = R.range_between(terrain, a, b, height(terrain, memo, a), height(terrain, memo, b))
    return found


def cover(terrain: Terrain, memo: Memo, a: XY, b: XY, attack: str) -> str | None:
    """``rules.cover`` of a man at ``b`` against ``attack`` from ``a`` (as ``covers.cover`` finds it), memoised;
    skipped (None) where ``rules.cover_possible`` says no row can hold for any firer."""
    key = ("cover", a, b, attack)
    if key in memo:
        known: str | None = memo[key]
        return known
    possible = memo.get(("cover possible", b, attack))
    if possible is None:
        possible = memo[("cover possible", b, attack)] = R.cover_possible(terrain, b, attack)
    found = memo[key] = CV.cover(terrain, a, b, attack, memo) if possible else None
    return found
