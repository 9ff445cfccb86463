"""What a person is told of a B-17 choice that needs the game: what a move would do (its note, odds, preview).
The situation of a decision and the table as text read a seat's view alone: ``view_words``.

A move's note is its preview: where the path ends (or where it leaves the table), the approach and the
odds of an attack, and how many gunners it meets at the stop and at the end, measured as play measures
(``rules``) with the mechanics play rolls (``data``).
"""

from __future__ import annotations

from typing import Any

from grognard.core.errors import GrognardError
from grognard.core.words import percent
from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.actions import B17Action, Fly, Guns, PlaceBox
from grognard.rulesets.b17.data import (
    ATTACK_RANGE,
    DAMAGED,
    DESTROYED,
    PAIRS,
    attack_mechanic,
    mechanics,
)
from grognard.rulesets.b17.game import B17Game
from grognard.rulesets.b17.spaces import FlySpace


def note(game: B17Game, action: B17Action) -> str:
    """A preview of a menu choice: where a move ends and what it meets."""
    if isinstance(action, Fly):
        space = FlySpace(game, action.aircraft)
        try:
            path, stop, target = space.resolve(action)
        except GrognardError as exc:
            return f"refused: {exc}"
        a = game.aircraft(action.aircraft)
        leave = path.leaves_table_at()
        parts = []
        if stop is not None and target is not None:
            x, y, h = path.snapped(stop)
            b = game.aircraft(target)
            how = R.head_on_or_behind(b, x, y, h, float(game.state.options["head_on_tolerance"]))
            from grognard.rulesets.b17.attacks import guns_met

            parts.append(
                f"attack {target} at ({x:g}, {y:g}){' ' + how + ' +1' if how else ''}, "
                f"{guns_met(game, a, x, y, h)} gunners answer"
            )
        if leave is not None:
            x, y, _ = path.snapped(leave)
            parts.append(f"LEAVES THE TABLE at ({x:g}, {y:g})")
        else:
            x, y, h = path.snapped(path.length)
            if not a.bomber:
                from grognard.rulesets.b17.attacks import guns_met

                parts.append(f"ends at ({x:g}, {y:g}) heading {h:g}, {guns_met(game, a, x, y, h)} gunners there")
            else:
                from grognard.rulesets.b17.geometry import over_target

                over = over_target(game.dims(a), x, y, h)
                parts.append(f"ends at ({x:g}, {y:g}) heading {h:g}" + (", OVER THE TARGET" if over else ""))
        return "; ".join(parts)
    if isinstance(action, Guns):
        b, f = game.aircraft(action.bomber), game.aircraft(action.fighter)
        in_range = R.guns_in_range(game.state.options, b, f)
        guns = [g for g in PAIRS[action.pair] if g in in_range]
        return f"{', '.join(guns)} fire"
    if isinstance(action, PlaceBox):
        return "the leader's nose on the 18\" line" if action.positions else ""
    return ""


def odds(game: B17Game, action: B17Action) -> str | None:
    """The dice odds of a choice, from the mechanics' exact distributions (None: no dice)."""
    if isinstance(action, Fly) and action.target is not None:
        space = FlySpace(game, action.aircraft)
        try:
            path, stop, target = space.resolve(action)
        except GrognardError:
            return None
        assert stop is not None and target is not None
        x, y, h = path.snapped(stop)
        how = R.head_on_or_behind(game.aircraft(target), x, y, h, float(game.state.options["head_on_tolerance"]))
        dist = attack_mechanic(how is not None, game.state.options).distribution()
        return f"damages {percent(dist.probability(DAMAGED))}, destroys {percent(dist.probability(DESTROYED))}"
    if isinstance(action, Guns):
        dist = mechanics(game.state.options).gunner.distribution()
        return f"each gun damages {percent(dist.probability(DAMAGED))}, destroys {percent(dist.probability(DESTROYED))}"
    return None


def preview(game: B17Game, seat: str, action: B17Action) -> dict[str, Any]:
    """``seat``'s view with a legal move drawn in: its path (start, turn point, end or exit), where it stops to
    attack, and every gun position that would fire at the stop and at the end (for ``render``).

    Raises :class:`IllegalAction` (naming the rule) for a move the rules forbid.
    """
    view = game.view(seat)
    if not isinstance(action, Fly):
        return view
    path, stop, target = FlySpace(game, action.aircraft).resolve(action)
    a = game.aircraft(action.aircraft)
    leave = path.leaves_table_at()
    end = path.length if leave is None else leave
    points = [(a.x, a.y)]
    if 0 < path.straight < end:
        points.append(path.snapped(path.straight)[:2])
    points.append(path.snapped(end)[:2])
    guns: list[dict[str, Any]] = []

    def answer(x: float, y: float, h: float, when: str) -> None:
        ghost = a.copy()
        ghost.x, ghost.y, ghost.heading = x, y, h
        pairs = [(b, ghost) for b in game.flying_bombers()] if not a.bomber else []
        if a.bomber:
            pairs = [(ghost, f) for f in game.flying_fighters()]
        for bomber, fighter in pairs:
            positions = G.gun_positions(game.dims(bomber), bomber.x, bomber.y, bomber.heading)
            for gun in R.guns_in_range(game.state.options, bomber, fighter):
                gx, gy = positions[gun]
                guns.append({"bomber": bomber.label, "gun": gun, "x": round(gx, 2), "y": round(gy, 2), "when": when})

    if stop is not None:
        answer(*path.snapped(stop), "stop")
    if leave is None:
        x, y, h = path.snapped(path.length)
        answer(x, y, h, "end")
    view["preview"] = {
        "aircraft": a.label,
        "order": str(action),
        "path": [[x, y] for x, y in points],
        "stop": list(path.snapped(stop)[:2]) if stop is not None else None,
        "target": target,
        "leaves": leave is not None,
        "guns": guns,
        # for the page's table: the 4" ring of every gun that would answer (b17.46)
        "rings": [
            {"x": g["x"], "y": g["y"], "r": ATTACK_RANGE, "title": f"{g['bomber']} {g['gun']} gun ({g['when']})"}
            for g in guns
        ],
    }
    return view
