"""The B-17 raid's web face (``grognard.core.face.Face``): the ping-pong table as a scene in inches, a
move's controls, the aircraft table, the phase line and the projector's figures, from ``view(seat)`` and
the rule set's ``data``, ``geometry`` and move ``rules`` only (b17.3, b17.11, b17.22-b17.31, b17.53).

x runs the table's length from the American entry end, y across it from the right flank. Bombers are
the Americans' (circle markers), fighters the Germans' (triangles).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, cast

from shapely.geometry import Polygon

from grognard.core.engine import Decision
from grognard.core.errors import OptionError
from grognard.core.face import Face, layer, number_field
from grognard.core.placement import place
from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17 import picture as P
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.data import (
    AMERICAN,
    ATTACK_RANGE,
    GERMAN,
    TABLE_LENGTH,
    TABLE_WIDTH,
    damage_grade,
)
from grognard.rulesets.b17.describe import PHASES
from grognard.rulesets.b17.state import Aircraft
from grognard.rulesets.b17.view_words import board, situation

RING = 2.25  # inches: the ring round an aircraft the page may tap
FLAK_ON_TABLE = cast(Polygon, G.FLAK_AREA.intersection(G.TABLE_BOX).simplify(0.05))  # a disc cut by a box


def aircraft(entry: dict[str, Any]) -> Aircraft:
    """An aircraft of a view (its ``to_json`` form)."""
    fields: dict[str, Any] = {k: (list(v) if k == "damaged" else v) for k, v in entry.items()}
    return Aircraft(**fields)


def _altitude(view: dict[str, Any], a: Aircraft) -> str | None:
    if a.bomber:
        return None
    return next((e["altitude"] for e in view["elements"] if e["label"] == a.element), None)


def allowance(view: dict[str, Any], a: Aircraft) -> float:
    """Inches ``a`` flies this move (b17.22-b17.28)."""
    return R.allowance(a, _altitude(view, a))


def _on_table(view: dict[str, Any], entry: dict[str, Any]) -> bool:
    """Flying and placed (a bomber whose box is not yet placed is nowhere, b17.8)."""
    unplaced = entry["kind"] == "bomber" and entry["box"] not in view["placed"]
    return entry["status"] == "flying" and not unplaced


def _find(view: dict[str, Any], label: str) -> dict[str, Any] | None:
    return next((e for e in view["aircraft"] if e["label"] == label), None)


def _seat(entry: dict[str, Any]) -> str:
    return AMERICAN if entry["kind"] == "bomber" else GERMAN


# ------------------------------------------------------------------------------------------ scene
def scene(view: dict[str, Any], mine: Collection[str]) -> dict[str, Any]:
    """The table in inches: the target and its flak range, the bombers' gun rings, every aircraft's outline
    with its heading, the rings of ``mine``."""
    options = view["options"]
    terrain: list[dict[str, Any]] = [
        {"kind": "rect", "x": 0, "y": 0, "w": TABLE_LENGTH, "h": TABLE_WIDTH, "cls": "sky", "title": "the table"},
        {
            "kind": "polygon",  # the AA's reach on the table: 6" round the target (b17.53), cut at the table's edge
            "points": [[round(x, 3), round(y, 3)] for x, y in list(FLAK_ON_TABLE.exterior.coords)[:-1]],
            "cls": "flak",
            "title": "flak range (b17.53)",
        },
        {
            "kind": "text",
            "x": 1.0,
            "y": TABLE_WIDTH / 2,
            "text": "American entry end",
            "cls": "label",
            "anchor": "start",
            "rotate": -90,
        },
        *P.target(),
    ]
    marks: list[dict[str, Any]] = []
    units: list[dict[str, Any]] = []
    focus = focused(view)
    for entry in view["aircraft"]:
        if entry["kind"] == "bomber" and entry["box"] not in view["placed"]:
            continue
        if entry["status"] == "waiting":
            continue
        a = aircraft(entry)
        dims = R.dims_of(options, a.model)
        side = "american" if a.bomber else "german"
        if entry["status"] != "flying":
            units.append(
                {
                    "kind": "text",
                    "x": a.x,
                    "y": a.y,
                    "text": f"✕ {a.label} {a.status}",
                    "cls": "gone",
                    "title": f"{a.label} {a.status}",
                }
            )
            continue
        if a.bomber and focus in (None, a.label):
            marks += gun_rings(a.label, G.gun_positions(dims, a.x, a.y, a.heading), focus is not None)
        under, over = P.aircraft_details(entry, dims)
        marks.extend(under)
        damage = f", {len(a.damaged)} engines damaged" if a.damaged else ""
        element = f" {a.element}" if a.element else ""
        units.append(
            {
                "kind": "polygon",
                "points": P.outline(dims, a.x, a.y, a.heading),
                "cls": "bomber" if a.bomber else "fighter",
                "id": a.label,
                "side": side,
                "x": a.x,
                "y": a.y,
                "heading": (90.0 - a.heading) % 360,
                "label": a.label + element + (" bombed" if a.bombed else ""),
                "title": f"{a.label} ({a.model}{', element' + element if element else ''}), heading {a.heading:g} "
                f"degrees{damage}",
            }
        )
        units.extend(over)
    marks += P.coins(view)
    rings: list[dict[str, Any]] = [dict(m, kind="circle", cls="ring") for m in own(view, mine)]
    return place(
        {
            "x0": 0.0,
            "y0": 0.0,
            "width": TABLE_LENGTH,
            "height": TABLE_WIDTH,
            "layers": [layer("terrain", terrain), layer("marks", marks), layer("units", units), layer("rings", rings)],
            "key": P.KEY,
        }
    )


def focused(view: dict[str, Any]) -> str | None:
    """The aircraft ``view["focus"]`` singles out (``grognard render --focus B2``: its gun rings alone, boldly,
    each gun named), or None; OptionError naming the game's aircraft when it has no such one."""
    focus = view.get("focus")
    labels = {a["label"] for a in view["aircraft"]}
    if focus is not None and focus not in labels:
        raise OptionError(f"--focus {focus}: no aircraft {focus} in this game ({', '.join(sorted(labels))})")
    bombers = sorted(a["label"] for a in view["aircraft"] if a["kind"] == "bomber")
    if focus is not None and focus not in bombers:  # a fighter has no gun rings: every ring went, nothing shown
        raise OptionError(
            f"--focus {focus}: a fighter; --focus singles out a bomber's gun rings ({', '.join(bombers)})"
        )
    return None if focus is None else str(focus)


def gun_rings(label: str, guns: dict[str, tuple[float, float]], strong: bool) -> list[dict[str, Any]]:
    """The 4" ring of each of a bomber's gun positions (b17.46); ``strong`` (the focused bomber's): bold, each
    gun named at its position."""
    out: list[dict[str, Any]] = []
    for gun, (gx, gy) in guns.items():
        ring = {"kind": "circle", "x": gx, "y": gy, "r": ATTACK_RANGE, "cls": "gunring"}
        out.append(ring | {"title": f"{label} {gun} gun: 4 inches"} | ({"state": "focus"} if strong else {}))
        if strong:
            out.append({"kind": "text", "x": gx, "y": gy, "text": gun, "cls": "label", "size": 0.7})
    return out


def own(view: dict[str, Any], mine: Collection[str]) -> list[dict[str, Any]]:
    """The viewer's aircraft on the table, ``{id, x, y, r, title}`` in inches, to be ringed."""
    return [
        {"id": e["label"], "x": e["x"], "y": e["y"], "r": RING, "title": f"your aircraft {e['label']}"}
        for e in view["aircraft"]
        if _on_table(view, e) and _seat(e) in mine
    ]


def unit(view: dict[str, Any], decision: Decision) -> dict[str, Any] | None:
    """The aircraft a move or a gunner's fire is about, ``{id, x, y, r}`` inches."""
    kind, _, rest = decision.id.partition(" ")
    if kind not in ("move", "guns") or not rest:
        return None
    e = _find(view, rest.split()[0])
    return {"id": e["label"], "x": e["x"], "y": e["y"], "r": RING} if e else None


# ------------------------------------------------------------------------------------------ controls
def controls(view: dict[str, Any], decision: Decision) -> list[dict[str, Any]]:
    """A move as distance and turn (typed), or a point to fly to (a tap or a drag on the table); a fighter's
    attack stop as a bomber and the inches along the path. The rules are checked by the server's preview and
    on commit, never here."""
    kind, _, rest = decision.id.partition(" ")
    entry = _find(view, rest) if kind == "move" else None
    if entry is None:
        return []
    a = aircraft(entry)
    label = a.label
    length = float(allowance(view, a))
    least = float(R.minimum_straight(a, length))
    turn = float(R.max_turn(a))
    straight = number_field(
        "straight", f"inches straight ahead first (at least {least:g}, at most {length:g})", length, least, length, 0.1
    )
    angle = number_field(
        "turn", f"then turn, degrees (+ left, - right; at most {turn:g} either way)", 0, -turn, turn, 1
    )
    fly = {
        "kind": "form",
        "verb": "fly",
        "unit": label,
        "preview": True,
        "title": f'Fly {label}: {length:g}" in all, straight first, then one turn, then on to the end of the move',
        "template": f"fly {label} {{straight}} {{turn}}",
        "fields": [straight, angle],
    }
    to = {
        "kind": "drag-path",
        "verb": "fly to",
        "unit": label,
        "preview": True,
        "title": f"Or fly {label} to a point (the one path that ends there; or tap the table, or drag from it)",
        "template": f"fly {label} to {{x}} {{y}}",
        "fields": [
            number_field(
                "x",
                f"x, inches from the entry end (the target end is {TABLE_LENGTH:g})",
                round(a.x, 2),
                0.0,
                TABLE_LENGTH,
                0.01,
            ),
            number_field(
                "y",
                f"y, inches from the right flank (the left flank is {TABLE_WIDTH:g})",
                round(a.y, 2),
                0.0,
                TABLE_WIDTH,
                0.01,
            ),
        ],
    }
    out = [fly, to]
    bombers = [e["label"] for e in view["aircraft"] if e["kind"] == "bomber" and e["status"] == "flying"]
    if not a.bomber and bombers:  # a tap on a bomber offers the menu's attacks on it
        out.append(
            {
                "kind": "pick-target",
                "verb": "attack",
                "unit": label,
                "targets": bombers,
                "offer": "fly",
                "named": True,
                "preview": True,
                "title": f"Tap a bomber to see {label}'s attacks on it",
                "fields": [],
                "template": "",
            }
        )
        out.append(
            {
                "kind": "form",
                "verb": "fly and attack",
                "unit": label,
                "preview": True,
                "targets": bombers,
                "title": f'Or fly {label} and stop on the path to attack a bomber (within 4" of its nose, b17.30)',
                "template": f"fly {label} {{straight}} {{turn}} attack {{target}} at {{at}}",
                "fields": [
                    dict(straight, name="straight"),
                    dict(angle, name="turn"),
                    {"name": "target", "label": "the bomber attacked", "options": bombers, "value": bombers[0]},
                    number_field(
                        "at", f"stop this many inches along the path (0 to {length:g})", length, 0.0, length, 0.1
                    ),
                ],
            }
        )
    return out


# ------------------------------------------------------------------------------------------ words
def tables(view: dict[str, Any], mine: Collection[str]) -> list[dict[str, Any]]:
    """Every aircraft as a row (beside the table)."""
    rows = []
    for e in view["aircraft"]:
        seat = _seat(e)
        unplaced = e["kind"] == "bomber" and e["box"] not in view["placed"]
        flying = e["status"] == "flying" and not unplaced
        rows.append(
            [
                e["label"],
                e["model"],
                seat,
                "yes" if seat in mine else "",
                f"{e['x']:g}" if flying else "",
                f"{e['y']:g}" if flying else "",
                f"{e['heading']:g}" if flying else "",
                len(e["damaged"]),
                f'{allowance(view, aircraft(e)):g}"' if flying else "",
                "not yet placed" if unplaced else e["status"] + (", has bombed" if e["bombed"] else ""),
            ]
        )
    columns = ["aircraft", "model", "seat", "yours", "x", "y", "heading", "damage", "moves", "status"]
    return [
        {"caption": "Aircraft (x from the entry end, y from the right flank, inches)", "columns": columns, "rows": rows}
    ]


def phase(view: dict[str, Any]) -> str:
    return str(PHASES.get(view["phase"], view["phase"]))


def figures(view: dict[str, Any]) -> list[tuple[str, Any]]:
    """The figures of a game (the projector's, and the CLI's final report): bomb hits, bombers that bombed
    and were lost, fighters lost and gone, attacks, the first bomb run."""
    st = view["stats"]
    hits = view["hits"]
    bombers = [e for e in view["aircraft"] if e["kind"] == "bomber"]
    return [
        (
            "bomb hits on the target",
            f"{hits} (" + (f"{damage_grade(hits)} damage" if hits >= 3 else "too few to damage it") + ")",
        ),
        ("bombers that bombed", f"{sum(1 for b in bombers if b['bombed'])} of {len(bombers)}"),
        ("bombers shot down", st["bombers_lost"]),
        ("bombers off the table unbombed", sum(1 for b in bombers if b["status"] == "left" and not b["bombed"])),
        ("fighters shot down", st["fighters_lost"]),
        ("fighters off the table", st["fighters_left"]),
        ("fighter attacks", st["attacks"]),
        ("first bomb run", f"turn {st['bomb_run_turn']}" if st["bomb_run_turn"] else "never"),
    ]


FACE = Face(scene, phase, tables, figures, controls, unit, own, situation=situation, board=board)
