"""The skirmish web face's controls (``grognard.core.face.Face.controls``, ``unit``) and its previews' words,
from ``view(seat)`` only: how a person acts on a decision on the table.

A unit's move is a drag of the unit (its men keep their places about its first man) or of one man; hold; the
castle orders (a ladder raised, climbed, pushed off: skirmish.78-84) and the building orders (a door opened or
shut, a bridge built: skirmish.63, 86) where they apply (a man near enough; the preview refuses with the rule
named when he is not); fire at a unit, one man's aimed shot, a MG's or flame thrower's wedge aimed at a point
(skirmish.16); a burst template laid at a point and turned (skirmish.12); a vehicle driven; the melee's
stay-or-retreat, a secret choice (skirmish.70).
"""

from __future__ import annotations

import math
from typing import Any

from grognard.core.words import percent
from grognard.rulesets.skirmish.face import unit_place, wedge_words
from grognard.rulesets.skirmish.face_terrain import _centre

PUSHERS = 2  # the men who push a ladder off together (skirmish.83, the seed's "2 men"; RULINGS S9)


def _men(view: dict[str, Any], unit: str) -> list[dict[str, Any]]:
    return [f for f in view["figures"] if f["unit"] == unit and f["alive"]]


def _point_fields(x: float, y: float, view: dict[str, Any]) -> list[dict[str, Any]]:
    width, depth = float(view["terrain"]["width"]), float(view["terrain"]["depth"])
    return [
        {"name": "x", "label": "x, inches from the west edge", "value": x, "min": -6, "max": width + 6, "step": 0.1},
        {"name": "y", "label": "y, inches from the south edge", "value": y, "min": -6, "max": depth + 6, "step": 0.1},
    ]


def _near(a: Any, b: Any, reach: float) -> bool:
    return math.dist((float(a[0]), float(a[1])), (float(b[0]), float(b[1]))) <= reach


def _move_controls(view: dict[str, Any], unit: str) -> list[dict[str, Any]]:
    men = _men(view, unit)
    place = unit_place(view, unit)
    if not men or place is None:
        return []
    leader = men[0]
    out: list[dict[str, Any]] = [
        {
            "kind": "drag-path",
            "verb": "move",
            "unit": unit,
            "title": f"Drag {unit} to where it goes (its men keep their places about {leader['id']})",
            "template": f"move {unit} {{x}},{{y}}",
            "fields": _point_fields(leader["x"], leader["y"], view),
            "preview": True,
        },
        {
            "kind": "choice",
            "verb": "hold",
            "unit": unit,
            "title": f"{unit} stays where it is",
            "template": f"hold {unit}",
        },
    ]
    for f in men:
        out.append(
            {
                "kind": "drag-path",
                "verb": "move man",
                "unit": f["id"],
                "title": f"Tap {f['id']}, then drag him alone (the rest of {unit} stay)",
                "from": [f["x"], f["y"]],
                "template": f"move {unit} / {f['id']} to {{x}},{{y}}",
                "fields": _point_fields(f["x"], f["y"], view),
                "preview": True,
            }
        )
    out += _castle_controls(view, unit, men)
    out += _building_controls(view, unit, men)
    for p in view.get("pieces", []) or []:
        if p.get("crew") == unit:
            out.append(
                {
                    "kind": "pick-point",
                    "verb": "turn",
                    "unit": p["id"],
                    "title": f"Turn {p['id']} to face a point (the crew's move; it does not fire this turn)",
                    "template": f"turn {unit} {p['id']} {{x}},{{y}}",
                    "fields": _point_fields(p["x"], p["y"], view),
                    "preview": True,
                }
            )
    return out


def _castle_controls(view: dict[str, Any], unit: str, men: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Ladder (raise one with its top on a wall's line), climb, push (skirmish.78-84), where they apply."""
    walls = [p for p in view["terrain"]["pieces"] if p["kind"] == "castle_wall" and "sections" in p]
    if not walls:
        return []
    out: list[dict[str, Any]] = []
    ladders = view.get("ladders", [])
    for lad in ladders:  # the men on the wall at an enemy ladder's top push it together (two: skirmish.83, S9)
        top = [f for f in men if f["on_table"] and f.get("on_wall") and lad["side"] != f["side"]]
        top = sorted((f for f in top if _near((f["x"], f["y"]), lad["top"], 2.0)), key=lambda f: f["id"])[:PUSHERS]
        if top:
            names = " and ".join(f["id"] for f in top)
            out.append(
                {
                    "kind": "choice",
                    "verb": "push",
                    "unit": top[0]["id"],
                    "men": [f["id"] for f in top],
                    "title": f"{names} push{'es' if len(top) == 1 else ''} ladder {lad['id']} off the wall",
                    "template": f"move {unit} " + " ".join(f"/ {f['id']} push {lad['id']}" for f in top),
                    "preview": True,
                }
            )
    # a tap near a wall's line is taken onto it (a ladder's top rests on the line: skirmish.78)
    lines = [[a, b] for w in walls for sec in w["sections"] for a, b in zip(sec["line"], sec["line"][1:], strict=False)]
    for f in men:
        if not f["on_table"] or f.get("on_ladder") or f.get("on_wall"):
            continue
        at = (f["x"], f["y"])
        near_wall = any(_near(at, pt, 12.0) for w in walls for sec in w["sections"] for pt in sec["line"]) or any(
            _segment_distance(at, a, b) <= 7.0
            for w in walls
            for sec in w["sections"]
            for a, b in zip(sec["line"], sec["line"][1:], strict=False)
        )
        if near_wall:
            out.append(
                {
                    "kind": "pick-point",
                    "verb": "ladder",
                    "unit": f["id"],
                    "title": f"{f['id']} raises a ladder: tap where its top rests on the wall",
                    "from": [f["x"], f["y"]],
                    "snap": lines,
                    "template": f"move {unit} / {f['id']} ladder {{x}},{{y}}",
                    "fields": _point_fields(f["x"], f["y"], view),
                    "preview": True,
                }
            )
        for lad in ladders:
            if lad["side"] == f["side"] and _near(at, lad["foot"], 6.0):
                out.append(
                    {
                        "kind": "choice",
                        "verb": "climb",
                        "unit": f["id"],
                        "title": f"{f['id']} climbs ladder {lad['id']}",
                        "template": f"move {unit} / {f['id']} climb {lad['id']}",
                        "preview": True,
                    }
                )
    return out


def _segment_distance(p: Any, a: Any, b: Any) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    if dx == dy == 0:
        return math.dist((px, py), (ax, ay))
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.dist((px, py), (ax + t * dx, ay + t * dy))


def _building_controls(view: dict[str, Any], unit: str, men: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Doors to open or shut near the unit's men (skirmish.63) and bridges to build (skirmish.86); a man enters
    a building by moving in through a door (a move)."""
    out: list[dict[str, Any]] = []
    doors = {d["id"]: d for d in view.get("doors", [])}
    openings = [
        o
        for p in view["terrain"]["pieces"]
        for o in p.get("openings", [])
        if o.get("door") and o["id"] in doors and not doors[o["id"]].get("blown")
    ]
    for o in openings:
        near = [f for f in men if f["on_table"] and _near((f["x"], f["y"]), o["at"], 6.0)]
        if near:
            verb = "close" if doors[o["id"]].get("open") else "open"
            out.append(
                {
                    "kind": "choice",
                    "verb": verb,
                    "unit": near[0]["id"],
                    "title": f"{near[0]['id']} {'shuts' if verb == 'close' else 'opens'} door {o['id']}",
                    "template": f"move {unit} / {near[0]['id']} {verb} {o['id']}",
                    "preview": True,
                }
            )
    for bid, b in view.get("structures", {}).get("bridges", {}).items():
        if b.get("standing"):
            continue
        points = b.get("points") or []
        line: list[list[float]] = next((p.get("line", []) for p in view["terrain"]["pieces"] if p.get("id") == bid), [])
        near = [f for f in men if f["on_table"] and any(_near((f["x"], f["y"]), pt, 6.0) for pt in line)]
        if near or not line:
            who = (near or men)[0]
            out.append(
                {
                    "kind": "choice",
                    "verb": "build",
                    "unit": who["id"],
                    "title": f"{who['id']} works on bridge {bid} ({points} points)",
                    "template": f"move {unit} / {who['id']} build {bid}",
                    "preview": True,
                }
            )
    return out


def _fire_controls(view: dict[str, Any], unit: str) -> list[dict[str, Any]]:
    men = [f for f in _men(view, unit) if f["on_table"]]
    side = men[0]["side"] if men else ""
    enemies = [f for f in view["figures"] if f["side"] != side and f["alive"] and f["on_table"] and not f.get("aboard")]
    units = sorted({f["unit"] for f in enemies})
    out: list[dict[str, Any]] = [
        {
            "kind": "pick-target",
            "verb": "fire",
            "unit": unit,
            "title": f"Tap the enemy unit {unit} fires at",
            "template": f"fire {unit} {{target}}",
            "targets": units,
            "preview": True,
        },
        {
            "kind": "choice",
            "verb": "hold",
            "unit": unit,
            "title": f"{unit} holds its fire",
            "template": f"fire {unit} hold",
        },
    ]
    for f in men:
        if f.get("fires", f["weapon"]) in ("mg", "flame_thrower"):
            out.append(
                {
                    "kind": "template",
                    "verb": "wedge",
                    "unit": f["id"],
                    "title": f"Aim {f['id']}'s wedge: drag from him to the point it fires at (the men under it ringed)",
                    "from": [f["x"], f["y"]],
                    "template": f"fire {unit} hold / {f['id']} wedge {{x}},{{y}}",
                    "fields": _point_fields(f["x"], f["y"] + 6, view),
                    "preview": True,
                }
            )
        else:
            out.append(
                {
                    "kind": "pick-target",
                    "verb": "aim",
                    "unit": f["id"],
                    "title": f"{f['id']} aims at one man (the rest of {unit} hold their fire)",
                    "template": f"fire {unit} hold / {f['id']} {{target}}",
                    "targets": [e["id"] for e in enemies],
                    "preview": True,
                }
            )
    return out


def controls(view: dict[str, Any], decision: Any) -> list[dict[str, Any]]:
    """How a person acts on ``decision`` on the table: a unit's or one man's move by drag, hold, the castle
    and building orders; fire at a unit or one man, a wedge aimed; a burst template laid at a point and
    turned; a vehicle driven by drag; the melee's stay-or-retreat, chosen in secret."""
    kind, _, name = str(decision.id).partition(" ")
    if kind == "move":
        return _move_controls(view, name)
    if kind == "fire":
        return _fire_controls(view, name)
    if kind == "melee":
        return [
            {
                "kind": "choice",
                "verb": choice,
                "unit": name,
                "secret": True,
                "title": f"Melee {name}: {choice} (secret until both sides have chosen)",
                "template": f"melee {name} {choice}",
            }
            for choice in ("stay", "retreat")
        ]
    if kind == "burst":
        place = next(((p["x"], p["y"]) for p in view.get("pieces", []) or [] if p["id"] == name), None)
        if place is None:
            f = next((f for f in view["figures"] if f["id"] == name), None)
            place = (f["x"], f["y"]) if f else (0.0, 0.0)
        return [
            {
                "kind": "template",
                "verb": "burst",
                "unit": name,
                "title": f"Lay {name}'s template: drag it where it lands, turn it (degrees); the men under it ringed",
                "from": [place[0], place[1]],
                "template": f"burst {name} {{x}},{{y}} {{angle}}",
                "fields": [
                    *_point_fields(place[0], place[1] + 12, view),
                    {"name": "angle", "label": "turned, degrees", "value": 0, "min": -180, "max": 180, "step": 5},
                ],
                "preview": True,
            },
            {
                "kind": "choice",
                "verb": "hold",
                "unit": name,
                "title": f"{name} holds fire",
                "template": f"burst {name} hold",
            },
        ]
    if kind == "drive":
        v = next((v for v in view.get("vehicles", []) or [] if v["id"] == name), None)
        if v is None:
            return []
        return [
            {
                "kind": "drag-path",
                "verb": "drive",
                "unit": name,
                "title": f"Drag {name} to where it drives",
                "template": f"drive {name} {{x}},{{y}}",
                "fields": _point_fields(v["x"], v["y"], view),
                "preview": True,
            },
            {"kind": "choice", "verb": "hold", "unit": name, "title": f"{name} stays put", "template": f"drive {name}"},
        ]
    return []


def unit(view: dict[str, Any], decision: Any) -> dict[str, Any] | None:
    """The unit (or vehicle, piece, melee group) the decision is about, ``{"id", "x", "y", "r"}`` in inches."""
    kind, _, name = str(decision.id).partition(" ")
    if kind in ("move", "fire"):
        return unit_place(view, name)
    for v in [*(view.get("vehicles") or []), *(view.get("pieces") or [])]:
        if v["id"] == name:
            return {"id": name, "x": v["x"], "y": v["y"], "r": 2.0}
    f = next((f for f in view["figures"] if f["id"] == name), None)
    if f is not None:
        return {"id": name, "x": f["x"], "y": f["y"], "r": 1.0}
    group = view.get("groups", {}).get(name)
    if isinstance(group, dict):
        ids = [i for key in ("allies", "axis", "men") for i in group.get(key, [])]
        men = [f for f in view["figures"] if f["id"] in ids]
        if men:
            x, y = _centre((f["x"], f["y"]) for f in men)
            return {"id": name, "x": round(x, 2), "y": round(y, 2), "r": 2.0}
    return None


# ------------------------------------------------------------------------------------------ preview
def drawn(view: dict[str, Any]) -> dict[str, Any]:
    """A previewed order (``faces.preview``'s view) as the table draws it (docs/FACE-CONTRACT.md's preview): the
    moved man's path (the leader's for a unit), its length, cost and the allowance left (inches), every man's
    path; each shot's line with its range, band, cover and exact chance of a kill; a wedge's or template's
    outline with the men under it ringed, and its odds."""
    drawn = view.get("preview") or {}
    figures = {f["id"]: f for f in view["figures"]}
    out: dict[str, Any] = {"ok": True}
    paths = drawn.get("paths") or []
    if paths:
        first = paths[0]
        out.update(
            path=first["path"],
            length=first.get("length"),
            cost=first.get("cost"),
            left=first.get("left"),
            trails=[p["path"] for p in paths[1:]],
            # each man's own: the page's drag of a unit by one of its men reads that man's path and cost
            moves=[
                {k: p.get(k) for k in ("path", "length", "cost", "left", "allowance")} | {"id": p["figure"]}
                for p in paths
            ],
        )
    lines = []
    for s in drawn.get("shots") or []:
        a, b = figures.get(s["shooter"]), figures.get(s["target"])
        if a is None or b is None:
            continue
        lines.append(
            {
                "from": [a["x"], a["y"]],
                "to": [b["x"], b["y"]],
                "title": f'{s["shooter"]} at {s["target"]}: {s.get("range", 0):.1f}" ({s.get("band_text")}), '
                f"{s.get('cover_text')}: dead {percent(s.get('dead_decimal', 0))} ({s.get('dead')})",
            }
        )
    if lines:
        out["lines"] = lines
    under: list[str] = []
    shapes = []
    sides = _sides(view)
    each: dict[str, str] = {}  # a man under a wedge or template: his exact chance of dying of it, in words
    odds: list[dict[str, Any]] = []
    for w in drawn.get("wedges") or []:
        under += [str(t) for t in w.get("men", [])]
        shapes.append({"points": w.get("outline", []), "title": wedge_words(w)})
        for o in w.get("odds") or []:
            words = f"{o['band_text']} {o['cover_text']}: dead {percent(o['dead_decimal'])} ({o['dead']})"
            each[o["target"]] = words
            odds.append(
                {"id": o["target"], "by": w.get("gunner", ""), "words": words, "dead": o["dead_decimal"]}
                | _own(sides, w.get("gunner", ""), o["target"])
            )
    for t in drawn.get("templates") or []:
        under += [str(i) for i in t.get("under", [])]
        shapes.append({"points": t.get("shape", []), "title": f"{t.get('by', '')}'s template: {t.get('odds', '')}"})
        if t.get("at"):
            out["stop"] = t["at"]
        lands = t.get("lands")
        if lands:
            out["lands"] = (
                f"the ranging shot lands on {t.get('ranging')} or less: {percent(lands['decimal'])} ({lands['exact']})"
            )
        for o in t.get("each") or []:
            words = f"{o['cover_text']}: dead {percent(o['dead_decimal'])} ({o['dead']})"
            each[o["id"]] = words
            odds.append(
                {"id": o["id"], "by": t.get("by", ""), "words": words, "dead": o["dead_decimal"]}
                | _own(sides, t.get("by", ""), o["id"])
            )
    if shapes:
        out["shapes"] = shapes
        out["under"] = under
        # the firer's own men first: a wedge or a template fires on friend and foe alike (skirmish.16, 12)
        out["odds"] = sorted(odds, key=lambda o: not o.get("own"))
        owners = {o["id"]: o["by"] for o in odds}
        out["rings"] = [
            {
                "x": figures[i]["x"],
                "y": figures[i]["y"],
                "r": 0.9,
                "id": i,
                "title": f"{i} is under it" + (f": {each[i]}" if i in each else ""),
            }
            | _own(sides, owners.get(i, ""), i)
            for i in under
            if i in figures
        ]
    return out


def _sides(view: dict[str, Any]) -> dict[str, str]:
    """The side of each man, piece and vehicle of the view, by id (a piece's and a vehicle's: its crew's)."""
    units = {u["id"]: u["side"] for u in view.get("units", [])}
    out = {f["id"]: str(f["side"]) for f in view["figures"]}
    for thing in [*(view.get("pieces") or []), *(view.get("vehicles") or [])]:
        side = thing.get("side") or units.get(str(thing.get("crew") or ""))
        if side:
            out[str(thing["id"])] = str(side)
    return out


def _own(sides: dict[str, str], firer: str, man: str) -> dict[str, bool]:
    """``{"own": True}`` when ``man`` is of the firer's side (the preview says so before the order is given)."""
    side = sides.get(firer)
    return {"own": True} if side is not None and sides.get(man) == side else {}
