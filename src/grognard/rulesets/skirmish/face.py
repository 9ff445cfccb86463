"""The skirmish's web face (``grognard.core.face.Face``): the table as a scene in inches, the phase line,
the tables, the projector's figures and the controls of a decision, from ``view(seat)`` and the tables only.

Never the game's state: everything here reads the JSON view (``view.view``), whose terrain, structures,
figures, vehicles, pieces, ladders, wedges and templates are already in table inches, y up (north), x east.
Headings in the view are degrees counter-clockwise from east (the rules' convention, skirmish.16, 55); a
scene's ``heading`` is degrees clockwise from north (+y), so ``scene = 90 - rules``.

A man is a round base of his true size (1" across, skirmish.2) in his side's colour with a glyph of what he
carries or is (``glyph``) and his id under it ("G.1"); sides are told by the base's rim as well as colour (the
axis' bases have a thick rim: their marker is the square); vehicles and field pieces are drawn from above
(``face_silhouettes``), the terrain by ``face_terrain``.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import Any

from grognard.core.placement import place
from grognard.rulesets.skirmish import face_silhouettes as FS
from grognard.rulesets.skirmish.face_terrain import TITLE_ROOM, _centre, _name, coil, terrain_key, terrain_shapes

BASE = 0.5  # inches: a 25mm man's base radius (a 1" base: skirmish.2)
MARKER = {"allies": "circle", "axis": "square"}  # a side's marker: on a man's round base, its rim (FACE-CONTRACT)
HEAVY = ("mg", "mortar", "bazooka", "flame_thrower")  # what a man carries shows before what he is
TYPES = ("officer", "cavalry", "crew", "engineer")  # then what he is; else his small arm (rifle, smg, pistol)
TAG = 0.7  # times u: a man's id under his base ("G.1")


def scene_heading(rules_heading: float) -> float:
    """A rules heading (degrees counter-clockwise from east) as a scene heading (clockwise from north).

    >>> scene_heading(90.0), scene_heading(0.0), scene_heading(-90.0)
    (0.0, 90.0, 180.0)
    """
    return (90.0 - rules_heading) % 360.0


def rules_heading(scene: float) -> float:
    """The inverse of :func:`scene_heading`, in (-180, 180].

    >>> rules_heading(0.0), rules_heading(90.0), rules_heading(180.0)
    (90.0, 0.0, -90.0)
    """
    h = (90.0 - scene) % 360.0
    return h - 360.0 if h > 180.0 else h


def marks_shapes(view: dict[str, Any]) -> list[dict[str, Any]]:
    """What lies on the table for now: wire laid and tank traps set, ladders, the last fire's wedges, drop
    zones and this move's paratroop drops (the templates laid this turn are a layer over the men:
    ``shell_shapes``)."""
    out: list[dict[str, Any]] = []
    for wire in view.get("wires", []):
        out.append({"kind": "polyline", "points": wire, "cls": "wire", "title": "barbed wire laid"})
        out.append(coil(wire, "barbed wire laid"))
    for trap in view.get("traps", []):
        out.append({"kind": "circle", "x": trap[0], "y": trap[1], "r": 0.3, "cls": "obstacle", "title": "tank trap"})
    for lad in view.get("ladders", []):
        men = ", ".join(lad.get("men", [])) or "nobody"
        out.append(
            {
                "kind": "polyline",
                "points": [lad["foot"], lad["top"]],
                "cls": "bridge",
                "id": lad["id"],
                "side": lad["side"],
                "title": f"ladder {lad['id']} ({lad['side']}) up wall {lad['section']}: on it {men}",
            }
        )
    for wedge in view.get("wedges", []):
        out.append(
            {
                "kind": "polygon",
                "points": wedge.get("outline", []),
                "cls": "template",
                "title": wedge_words(wedge),
            }
        )
    out += chute_shapes(view)
    for zone in view.get("drop_zones", []) or []:
        for x, y in zone.get("aims", []) if isinstance(zone, dict) else []:  # each man's aim (skirmish.26)
            words = f"{zone.get('unit', '')} drops on move {zone.get('move', '?')}"
            out.append({"kind": "circle", "x": x, "y": y, "r": 0.35, "cls": "target", "side": zone.get("side"),
                        "title": words})  # fmt: skip
        if isinstance(zone, dict) and zone.get("aims"):
            (x, y), words = zone["aims"][0], f"{zone.get('unit', '')} drops on move {zone.get('move', '?')}"
            out.append({"kind": "text", "x": x + 0.6, "y": y + 0.6, "text": words, "cls": "label", "anchor": "start",
                        "size": 0.6})  # fmt: skip
        if isinstance(zone, dict) and "at" in zone:
            out.append(
                {
                    "kind": "circle",
                    "x": zone["at"][0],
                    "y": zone["at"][1],
                    "r": zone.get("radius", 6),
                    "cls": "target",
                    "title": f"drop zone {zone.get('id', '')}",
                }
            )
    return out


def wedge_words(wedge: dict[str, Any]) -> str:
    """A wedge (skirmish.16) in words: its gunner, weapon, turn, heading and the men under it."""
    weapon = "MG" if wedge.get("weapon") == "mg" else str(wedge.get("weapon", "")).replace("_", " ")
    men = ", ".join(wedge.get("men") or []) or "nobody"
    heading = f", {float(wedge['heading']):g}\u00b0" if wedge.get("heading") is not None else ""
    return f"{wedge.get('gunner', '')} {weapon} wedge, turn {wedge.get('turn', '?')}{heading}: {men}"


def _cross(at: Any, side: str | None, title: str) -> dict[str, Any]:
    """An aim point: a small cross (two strokes of 0.6") in ``side``'s colour."""
    x, y = float(at[0]), float(at[1])
    return {
        "kind": "polyline",
        "points": [[x - 0.6, y - 0.6], [x + 0.6, y + 0.6], [x, y], [x - 0.6, y + 0.6], [x + 0.6, y - 0.6]],
        "cls": "aim",
        "side": side,
        "title": title,
    }


def shell_shapes(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The burst templates of this turn's fire as their ranging shots fell (skirmish.13-14; ``view["landed"]``,
    kept until the next fire phase): where it was aimed (a cross), the template filled where the shell landed
    with the ranging die and the men hit, dashed where it missed (the template taken away). The seed's
    ranging shot is on target or a total miss, so a shell lands on its aim point: its scatter line is of
    no length and none is drawn (a paratrooper's scatter is: ``chute_shapes``)."""
    out: list[dict[str, Any]] = []
    for laid in view.get("landed", []):
        shape, at = laid.get("shape") or [], laid.get("at")
        if not shape or not at:
            continue
        landed = bool(laid.get("landed"))
        fired = str(laid.get("weapon", "")).replace("_", " ")
        die = f"ranging {laid.get('die')} (needs {laid.get('ranging')} or less)"
        hit = ", ".join(laid.get("hit") or []) or "nobody"
        words = f"{laid.get('by', '')} ({fired}): {die}, " + (f"landed; hit {hit}" if landed else "missed")
        out.append(
            {
                "kind": "polygon",
                "points": shape,
                "cls": "template",
                "state": "landed" if landed else "missed",
                "side": laid.get("side") if landed else None,
                "title": words + ("" if landed else ": the template is taken away (skirmish.13)"),
            }
        )
        out.append(_cross(at, laid.get("side"), f"{laid.get('by', '')} aimed here ({at[0]:g}, {at[1]:g})"))
        out.append(
            {
                "kind": "text",
                "x": float(at[0]),
                "y": float(at[1]) - 1.6,
                "text": f"{laid.get('by', '')}: {die}, " + ("landed" if landed else "missed"),
                "cls": "label",
                "size": 0.8,
                "title": words,
            }
        )
    return out


def chute_shapes(view: dict[str, Any]) -> list[dict[str, Any]]:
    """This move's paratroop drops (skirmish.26, ``view["chutes"]``): each man's aim (a cross) and the scatter
    line to where he came down, naming a bad drop."""
    out: list[dict[str, Any]] = []
    for chute in view.get("chutes", []) or []:
        aim, at = chute.get("aim"), chute.get("at")
        if not aim or not at:
            continue
        fate = chute.get("fate", "landed")
        words = f"{chute.get('figure', '')} aimed at ({aim[0]:g}, {aim[1]:g}), came down at ({at[0]:g}, {at[1]:g})"
        out.append(_cross(aim, chute.get("side"), words))
        out.append(
            {
                "kind": "polyline",
                "points": [list(aim), list(at)],
                "cls": "scatter",
                "side": chute.get("side"),
                "title": words + ("" if fate == "landed" else f": {fate}"),
            }
        )
    return out


def machine_shapes(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Vehicles and field pieces from above, turned to their facing (``face_silhouettes``), each named under it."""
    out: list[dict[str, Any]] = []
    outlines = {v["id"]: v for v in view.get("vehicle_shapes", []) or []}
    train = view.get("train_shape")
    if train:  # the train: dark, named
        x = _centre(train)[0]
        out.append({"kind": "polygon", "points": train, "cls": "wall", "title": "the train"})
        out.append({"kind": "text", "x": x, "y": max(p[1] for p in train) + 0.4, "text": "train", "cls": "label"})
    for v in view.get("vehicles", []) or []:
        shape = outlines.get(v["id"])
        afloat = (
            {True: " (grounded)", False: " (afloat)"}.get(shape["grounded"], "")
            if shape and "grounded" in shape
            else ""
        )
        crew = (
            f"{afloat}: driver {shape.get('driver') or '-'}, gunner {shape.get('gunner') or '-'}, "
            f"aboard {', '.join(shape.get('aboard', [])) or 'nobody'}"
            if shape
            else ""
        )
        title = f"{v.get('name', v['id'])} ({_name(v.get('kind', ''))}) {v['id']}, facing {v.get('heading', 0):g} deg"
        out += _named(FS.vehicle(v, shape, title + crew), v["id"])
    crews = {u["id"]: u["side"] for u in view.get("units", [])}
    for p in view.get("pieces", []) or []:
        title = (
            f"{_name(p['weapon'])} {p['id']}, crew {p.get('crew') or 'none'}, facing {p.get('heading', 0):g} deg, "
            f"arc {p.get('arc', 0):g} deg either side" + (f", hitched to {p['hitched']}" if p.get("hitched") else "")
        )
        out += _named(FS.gun(p, crews.get(p.get("crew") or ""), title), p["id"])
        if p.get("arc") and not p.get("hitched"):  # its firing arc's edges, 4" long (skirmish.55)
            for edge in (float(p["heading"]) - float(p["arc"]), float(p["heading"]) + float(p["arc"])):
                end = [p["x"] + 4 * math.cos(math.radians(edge)), p["y"] + 4 * math.sin(math.radians(edge))]
                out.append({"kind": "polyline", "points": [[p["x"], p["y"]], [round(end[0], 2), round(end[1], 2)]],
                            "cls": "scatter", "side": crews.get(p.get("crew") or ""),
                            "title": f"{p['id']}'s firing arc"})  # fmt: skip
    return out


def _named(parts: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """A vehicle's or piece's parts and its name under them."""
    points = [pt for part in parts for pt in part["points"]]
    if not points:
        return parts
    x = (min(p[0] for p in points) + max(p[0] for p in points)) / 2
    y = min(p[1] for p in points) - 0.8
    return [*parts, {"kind": "text", "x": round(x, 2), "y": round(y, 2), "text": name, "cls": "label", "size": TAG}]


def figure_shapes(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Every man (on the table and waiting off it) on his base, vehicle and piece from above: the dead first, the
    living over the vehicles and pieces."""
    units = {u["id"]: u for u in view.get("units", [])}
    named = {
        f["id"]: f"{f['id']} {f['type']}, {_name(f.get('fires', f['weapon']))} "
        f"({units.get(f['unit'], {}).get('name', f['unit'])})"
        for f in view["figures"]
    }
    out: list[dict[str, Any]] = [  # where each dead man fell: his empty base, dashed and crossed (not picked)
        {
            "kind": "circle",
            "x": f["x"],
            "y": f["y"],
            "r": BASE,
            "text": "x",
            "cls": "gone",
            "title": named[f["id"]] + ": dead",
        }
        for f in view["figures"]
        if not f["alive"] and not f.get("aboard")
    ]
    out += machine_shapes(view)
    for f in view["figures"]:
        if f.get("aboard") or not f["alive"]:
            continue  # one aboard is drawn with his vehicle (its title names him)
        title = named[f["id"]]
        extra = []
        if f.get("wounds"):
            extra.append(f"{f['wounds']} flesh wound{'s' if f['wounds'] > 1 else ''}")
        if not f["on_table"]:
            extra.append("waiting off the table")
        if f.get("on_wall"):
            extra.append(f"on wall {f['on_wall']}")
        if f.get("on_ladder"):
            extra.append(f"on ladder {f['on_ladder']}")
        out.append(
            {
                "kind": "figure",
                "x": f["x"],
                "y": f["y"],
                "r": BASE,
                "id": f["id"],
                "unit": f["unit"],
                "text": f["id"],
                "size": TAG,
                "glyph": glyph(f),
                "side": f["side"],
                "marker": MARKER.get(f["side"], "circle"),
                "title": title + (f": {', '.join(extra)}" if extra else ""),
                **({"cls": "off"} if not f["on_table"] else {}),
            }
        )
    return out


GLYPH_NAMES = {
    "rifle": "rifleman",
    "smg": "submachine gun",
    "pistol": "pistol",
    "mg": "machine gun",
    "mortar": "mortar",
    "bazooka": "bazooka",
    "flame_thrower": "flame thrower",
    "crew": "gun crew",
    "officer": "officer",
    "cavalry": "cavalry",
    "engineer": "engineer",
}


def men_key(view: dict[str, Any]) -> list[dict[str, str]]:
    """The key's men: each side's base (its colour and rim), then each glyph the scenario's men have, in
    ``GLYPH_NAMES``' order: ``{"cls": "figure", "side", "marker", "name"}``, ``{"cls": "figure", "glyph", "name"}``."""
    sides = [side for side in MARKER if any(f["side"] == side for f in view["figures"])]
    glyphs = {glyph(f) for f in view["figures"]}
    rims = {"circle": "thin rim", "square": "thick rim"}
    out = [{"cls": "figure", "side": s, "marker": MARKER[s], "name": f"{s} ({rims[MARKER[s]]})"} for s in sides]
    return out + [{"cls": "figure", "glyph": g, "name": name} for g, name in GLYPH_NAMES.items() if g in glyphs]


def glyph(figure: dict[str, Any]) -> str:
    """The glyph (``core.face.GLYPHS``) on a man's base: his heavy weapon, else what he is, else his small arm.

    >>> glyph({"type": "officer", "weapon": "smg"}), glyph({"type": "crew", "weapon": "mg"})
    ('officer', 'mg')
    >>> glyph({"type": "infantry", "weapon": "rifle"}), glyph({"type": "infantry", "weapon": "pistol"})
    ('rifle', 'pistol')
    """
    weapon, kind = str(figure.get("weapon", "")), str(figure.get("type", ""))
    if weapon in HEAVY:
        return weapon
    if kind in TYPES:
        return kind
    return weapon if weapon in ("smg", "pistol") else "rifle"


def heading(view: dict[str, Any]) -> str:
    """The scenario's title, for the page's header and tab ("Village street: ...")."""
    return str((view.get("scenario") or {}).get("title") or "")


def unit_place(view: dict[str, Any], unit: str) -> dict[str, Any] | None:
    """A unit's living men on the table: ``{"id", "x", "y", "r"}``, their centre and the circle round them."""
    men = [f for f in view["figures"] if f["unit"] == unit and f["alive"] and not f.get("aboard")]
    if not men:
        return None
    x, y = _centre((f["x"], f["y"]) for f in men)
    r = max(math.hypot(f["x"] - x, f["y"] - y) for f in men) + 2 * BASE
    return {"id": unit, "x": round(x, 2), "y": round(y, 2), "r": round(r, 2)}


def _my_units(view: dict[str, Any], mine: Collection[str]) -> list[str]:
    """The units the seats ``mine`` command (the view's ``commanders``: a side's seat, "Allies", commands
    all its units; with several commanders a side, "Allies 2" those dealt to it)."""
    commanders = view.get("commanders", {})
    return [u["id"] for u in view.get("units", []) if commanders.get(u["id"]) in mine]


def commands(view: dict[str, Any]) -> dict[str, str]:
    """With several commanders a side, each seat's units by id (short: the host's seat table is narrow; the
    units table names them): ``{"Allies 1": "A, C"}``; ``{}`` with one a side (its seat commands all of it)."""
    commanders = view.get("commanders", {})
    if len(set(commanders.values())) <= len({u["side"] for u in view.get("units", [])}):
        return {}
    out: dict[str, list[str]] = {}
    for u in view.get("units", []):
        seat = commanders.get(u["id"])
        if seat is not None:
            out.setdefault(seat, []).append(u["id"])
    return {seat: ", ".join(units) for seat, units in out.items()}


def marks(view: dict[str, Any], mine: Collection[str]) -> list[dict[str, Any]]:
    """The viewer's own units, ringed: ``[{"id", "x", "y", "r", "title"}]`` (inches)."""
    out = []
    names = {u["id"]: u.get("name", u["id"]) for u in view.get("units", [])}
    for unit in _my_units(view, mine):
        place = unit_place(view, unit)
        if place is not None:
            out.append(place | {"title": f"your unit {unit} ({names[unit]})"})
    return out


def scene(view: dict[str, Any], mine: Collection[str]) -> dict[str, Any]:
    """The table in inches: terrain, what lies on it, men, vehicles and pieces, rings round ``mine``'s units;
    ``x0``, ``y0``, ``width``, ``height``: the part in sight, the table and the men waiting off it."""
    terrain = view["terrain"]
    rings = [
        {"kind": "circle", "x": m["x"], "y": m["y"], "r": m["r"], "cls": "ring", "title": m["title"]}
        for m in marks(view, mine)
    ]
    width, depth = float(terrain["width"]), float(terrain["depth"])
    xs = [float(f["x"]) for f in view["figures"]] or [0.0]
    ys = [float(f["y"]) for f in view["figures"]] or [0.0]
    x0, y0 = min(-TITLE_ROOM, min(xs) - 1.0), min(0.0, min(ys) - 1.0)  # men waiting off the table are in sight too
    x1, y1 = max(width, max(xs) + 1.0), max(depth, max(ys) + 1.0)
    return place(
        {
            "x0": x0,
            "y0": y0,
            "width": x1 - x0,
            "height": y1 - y0,
            "layers": [
                {"name": "terrain", "shapes": terrain_shapes(view)},
                {"name": "marks", "shapes": marks_shapes(view) + rings},
                {"name": "units", "shapes": figure_shapes(view)},
                {"name": "shells", "shapes": shell_shapes(view)},  # over the men: who is under a shell shows
            ],
            "key": terrain_key(view) + men_key(view),
        }
    )


# ------------------------------------------------------------------------------------------ words
def phase(view: dict[str, Any]) -> str:
    """The phase line (the page puts the turn before it): "the allies move (axis moved first)", "both sides
    fire", "melee", "over - the allies win: ..."."""
    outcome = view.get("outcome")
    limit = view.get("stats", {}).get("turn_limit")
    of = f" (of {limit} turns)" if limit else ""
    if outcome:
        winner = outcome.get("winner")
        return f"over - {winner + ' win' if winner else outcome.get('outcome', '')}: {outcome.get('reason', '')}"
    step, _, side = str(view.get("phase", "")).partition(":")
    if step == "move" and side:
        order = view.get("order") or []
        first = f", {order[0]} first" if order else ""
        return f"the {side} move{first}{of}"
    return {"fire": "both sides fire", "melee": "melee", "burst": "artillery"}.get(step, step) + of


def tables(view: dict[str, Any], mine: Collection[str]) -> list[dict[str, Any]]:
    """Units (men left, where, what they carry), vehicles, buildings and walls by state, objectives."""
    own = set(_my_units(view, mine))
    commanders = view.get("commanders", {})
    several = len(set(commanders.values())) > len({u["side"] for u in view.get("units", [])})
    rows = []
    for u in view.get("units", []):
        men = [f for f in view["figures"] if f["unit"] == u["id"]]
        alive = [f for f in men if f["alive"]]
        place = unit_place(view, u["id"])
        where = f"({place['x']:g}, {place['y']:g})" if place else "-"
        if alive and not any(f["on_table"] for f in alive):
            where = "waiting off the table"
        arms: dict[str, int] = {}
        for f in alive:
            arms[f.get("fires", f["weapon"])] = arms.get(f.get("fires", f["weapon"]), 0) + 1
        rows.append(
            [
                u["id"],
                u.get("name", ""),
                u["side"],
                f"{len(alive)} of {len(men)}",
                where,
                ", ".join(f"{n} {_name(w)}" for w, n in sorted(arms.items())),
                *([commanders.get(u["id"], "")] if several else []),
                "yes" if u["id"] in own else "",
            ]
        )
    columns = ["unit", "name", "side", "men", "where", "arms", *(["commander"] if several else []), "yours"]
    out: list[dict[str, Any]] = [{"caption": "Units", "columns": columns, "rows": rows}]
    vehicles = view.get("vehicles") or []
    if vehicles:
        out.append(
            {
                "caption": "Vehicles",
                "columns": ["vehicle", "kind", "side", "where", "facing", "aboard"],
                "rows": [
                    [
                        v["id"],
                        _name(v.get("kind", "")),
                        v.get("side", ""),
                        f"({v['x']:g}, {v['y']:g})",
                        f"{v.get('heading', 0):g} deg",
                        ", ".join(v.get("aboard", [])),
                    ]
                    for v in vehicles
                ],
            }
        )
    structures = view.get("structures", {})
    srows = [
        ["building", sid, "/".join(str(p) for p in s["points"]), s["state"]]
        for sid, s in structures.get("sections", {}).items()
    ]
    srows += [["wall", sid, str(s["points"]), s["state"]] for sid, s in structures.get("walls", {}).items()]
    srows += [
        ["bridge", bid, "", b["text"] + ("" if b["standing"] else " - down")]
        for bid, b in structures.get("bridges", {}).items()
    ]
    if srows:
        out.append(
            {"caption": "Buildings, walls and bridges", "columns": ["what", "id", "points", "state"], "rows": srows}
        )
    objectives = view["scenario"].get("objectives", [])
    if objectives:
        out.append(
            {
                "caption": "Objectives",
                "columns": ["objective", "name"],
                "rows": [[o["id"], o.get("name") or o["id"]] for o in objectives],
            }
        )
    return out


def figures(view: dict[str, Any]) -> list[tuple[str, Any]]:
    """The projector's figures: turn, the phase, men lost and dice rolled by side."""
    stats = view.get("stats", {})
    out: list[tuple[str, Any]] = [("scenario", view["scenario"]["title"]), ("turn", view["turn"])]
    for side in ("allies", "axis"):
        total = sum(1 for f in view["figures"] if f["side"] == side)
        lost = stats.get("losses", {}).get(side, 0)
        out.append((f"{side} men lost", f"{lost} of {total}"))
        out.append(
            (f"{side} dice / hits", f"{stats.get('shots', {}).get(side, 0)} / {stats.get('hits', {}).get(side, 0)}")
        )
    return out
