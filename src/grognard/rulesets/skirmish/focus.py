"""``grognard render --focus A.3`` on a skirmish table: the man's lines of fire as a layer of scene shapes
(docs/FACE-CONTRACT.md), for the one painter. Each enemy on the table gets a line from him: solid (class
``aim``) with its range, band and the die it needs and any cover, or dashed (``scatter``) with why not (out
of sight, out of range); a man who cannot fire at all says why beside him. It reads the view and the rules'
measures (range, line of sight, cover), never a game: the face stays the view's alone."""

from __future__ import annotations

import math
from typing import Any

from grognard.core.errors import OptionError
from grognard.rulesets.skirmish import rules as R
from grognard.rulesets.skirmish.scenario import scenario_for_view
from grognard.rulesets.skirmish.terrain import build_terrain


def terrain_of(view: dict[str, Any]) -> Any:
    """The view's terrain, with the wire and tank traps laid so far and the structures as they stand."""
    scenario = scenario_for_view(view)  # a record's own copy of the scenario, not the file it came from
    structures = view.get("structures", {})
    standing = frozenset(b for b, info in structures.get("bridges", {}).items() if info["standing"])
    states = {sid: info["state"] for sid, info in structures.get("sections", {}).items()}
    return build_terrain(scenario.spec, scenario.tables).with_works(
        [((w[0][0], w[0][1]), (w[1][0], w[1][1])) for w in view.get("wires", [])],
        [tuple(t) for t in view.get("traps", [])],
        standing if structures else None,
        states if structures else None,
    )


def _cannot(view: dict[str, Any], me: dict[str, Any], weapon: str, terrain: Any) -> str | None:
    """Why ``me`` cannot fire at all this turn (skirmish.47, 52, 57; part 3's weapons), or None."""
    tables = terrain.tables
    if weapon in tables.artillery:
        return f"his {weapon.replace('_', ' ')} fires a burst template (a burst order)"
    if not tables.weapons[weapon].bands:
        return f"his {weapon.replace('_', ' ')} fires a wedge (part 3)"
    if me.get("aboard"):
        drives = [v["id"] for v in view.get("vehicle_shapes", []) if v["driver"] == me["id"]]
        return f"drives {drives[0]}: does not fire" if drives else None
    if terrain.in_river(me["x"], me["y"]):
        return "in the river: cannot fire"
    if terrain.in_pond(me["x"], me["y"]):
        return "swimming: cannot fire"
    return None


def _words_along(a: tuple[float, float], b: tuple[float, float], text: str) -> dict[str, Any]:
    """A line's words most of the way to the target (where lines fan apart), turned along it, upright."""
    x, y = a[0] + (b[0] - a[0]) * 0.7, a[1] + (b[1] - a[1]) * 0.7
    angle = -math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))  # SVG turns clockwise on the screen
    angle = angle - 180 if angle > 90 else angle + 180 if angle < -90 else angle
    return {"kind": "text", "x": round(x, 2), "y": round(y, 2), "text": text, "cls": "label", "size": 0.55,
            "rotate": round(angle, 1), "anchor": "middle"}  # fmt: skip


def _man_order(man: str) -> tuple[str, int]:
    """A man's id in his unit's order (A.2 before A.10)."""
    unit, _, number = man.rpartition(".")
    return unit, int(number) if number.isdigit() else 0


def focus_layer(view: dict[str, Any]) -> dict[str, Any] | None:
    """The ``focus`` layer of ``view["focus"]``'s man, or None without a focus; OptionError when the game has
    no such man."""
    focus = view.get("focus")
    if not focus:
        return None
    figures = {f["id"]: f for f in view["figures"]}
    me = figures.get(focus)
    if me is None:
        men = sorted((f["id"] for f in view["figures"] if f["id"].startswith(f"{focus}.")), key=_man_order)
        if men:  # a unit's name: say whose men they are
            raise OptionError(f"--focus {focus}: a unit; --focus names one of its men ({', '.join(men)})")
        raise OptionError(f"--focus {focus}: no man {focus} in this game (men are named like A.3)")
    if not me["alive"] or not me["on_table"]:
        return {"name": "focus", "shapes": []}
    terrain = terrain_of(view)
    a = (me["x"], me["y"])
    weapon = me.get("fires", me["weapon"])  # the weapon he fires: a vehicle's MG when he mans it
    cannot = _cannot(view, me, weapon, terrain)
    shapes: list[dict[str, Any]] = [{"kind": "circle", "x": a[0], "y": a[1], "r": 1.0, "cls": "focus", "title": focus}]
    if cannot is not None:
        shapes.append({"kind": "text", "x": a[0] + 1.2, "y": a[1] - 1.4, "text": f"{focus}: {cannot}",
                       "cls": "label", "anchor": "start", "size": 0.7})  # fmt: skip
    opened = [d["id"] for d in view.get("doors", []) if d["open"]]
    for f in view["figures"]:
        if f["side"] == me["side"] or not f["alive"] or not f["on_table"]:
            continue
        b = (f["x"], f["y"])
        blocked = R.line_of_sight(terrain, a, b, opened)
        distance = R.effective_range(terrain, a, b)
        band = terrain.tables.band_index(weapon, distance) if cannot is None else None
        line = {"kind": "polyline", "points": [list(a), list(b)]}
        if blocked is not None or band is None:
            why = blocked or (f'{distance:.1f}"' if cannot else f'{distance:.1f}" out of range')
            shapes += [line | {"cls": "scatter", "title": f"{focus} at {f['id']}: {why}"}, _words_along(a, b, why)]
            continue
        covered = R.cover(terrain, a, b, terrain.tables.attack(weapon))
        hit_on = terrain.tables.weapons[weapon].bands[band].hit_on
        words = f'{distance:.1f}" band {band + 1}: {hit_on}+' + (f" C ({covered.replace('_', ' ')})" if covered else "")
        shapes += [line | {"cls": "aim", "title": f"{focus} at {f['id']}: {words}"}, _words_along(a, b, words)]
    return {"name": "focus", "shapes": shapes}
