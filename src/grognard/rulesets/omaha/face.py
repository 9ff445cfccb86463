"""Omaha's web face (``grognard.core.face.Face``): the beach as a scene in inches, the controls of a
decision, the tables, the phase line and the projector's figures, from ``view(seat)`` and ``data`` only.

The beach (omaha.5, omaha.6, omaha.8, omaha.9): water below y = 0, the beach up to the sea wall at
``WALL_Y``, the obstacle band to ``BAND_END_Y``, then ``ground`` inches of bunker ground; x runs along
the beach. Squads are the Americans' circles, bunkers the Germans' squares.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from grognard.core.engine import Decision
from grognard.core.errors import OptionError
from grognard.core.face import Face, layer, number_field
from grognard.core.placement import place
from grognard.rulesets.omaha import picture as P
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.data import (
    BAND_END_Y,
    BEACH_MOVE,
    BUNKER_DEPTH,
    BUNKER_FRONT_Y,
    BUNKER_SECTION_WIDTH,
    BUNKER_WIDTH,
    OBSTACLE_SECTION_WIDTH,
    WALL_Y,
    ZONE_WIDTH,
)
from grognard.rulesets.omaha.describe import PHASES, where
from grognard.rulesets.omaha.view_words import board, situation

SQUAD_RING = 1.8  # inches: the ring round a squad the page may tap (its disc, P.SQUAD_DISC, and a margin)
BUNKER_RING = 2.4


def top(view: dict[str, Any]) -> float:
    """The back edge of the table, inches: the band's end and ``ground`` inches of bunker ground."""
    return BAND_END_Y + float(view["options"]["ground"])


def bunker_centre(bunker: dict[str, Any]) -> tuple[float, float]:
    """The middle of a bunker's footprint (the middle of its 8" section, O3b's front plus half its depth)."""
    return R.bunker_centre(bunker["section"]), BUNKER_FRONT_Y + BUNKER_DEPTH / 2


def _squads(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {a["squad"]["label"]: a["squad"] for a in view["americans"] if a["squad"]}


def _bunker(view: dict[str, Any], label: str) -> dict[str, Any] | None:
    return next((b for b in view["bunkers"] if b["label"] == label), None)


# ------------------------------------------------------------------------------------------ scene
def scene(view: dict[str, Any], mine: Collection[str]) -> dict[str, Any]:
    """The beach in inches: terrain bands, obstacle sections, bunkers and exits, squads, the rings of ``mine``."""
    width = float(view["width"])
    water = float(view["options"]["water"])
    back = top(view)
    terrain: list[dict[str, Any]] = [
        {"kind": "rect", "x": 0, "y": -water, "w": width, "h": water, "cls": "sea", "title": "water"},
        {"kind": "rect", "x": 0, "y": 0, "w": width, "h": WALL_Y, "cls": "sand", "title": "the beach"},
        {
            "kind": "rect",
            "x": 0,
            "y": WALL_Y,
            "w": width,
            "h": BAND_END_Y - WALL_Y,
            "cls": "band",
            "title": "the obstacle band",
        },
        {
            "kind": "rect",
            "x": 0,
            "y": BAND_END_Y,
            "w": width,
            "h": back - BAND_END_Y,
            "cls": "ground",
            "title": "bunker ground",
        },
        {"kind": "polyline", "points": [[0, 0], [width, 0]], "cls": "water", "title": "the water line"},
        *P.hedgehogs(width),
        {"kind": "polyline", "points": [[0, WALL_Y], [width, WALL_Y]], "cls": "wall", "title": "the sea wall"},
        {"kind": "text", "x": width, "y": 0.3, "text": "water line", "cls": "label", "anchor": "end"},
        {"kind": "text", "x": width, "y": WALL_Y - 1.2, "text": "sea wall", "cls": "label", "anchor": "end"},
    ]
    for player in view["americans"]:
        zone = int(player["zone"])
        terrain.append(
            {"kind": "polyline", "points": [[zone * ZONE_WIDTH, 0], [zone * ZONE_WIDTH, -water]], "cls": "divider"}
        )
        terrain.append(
            {
                "kind": "text",
                "x": (zone + 0.5) * ZONE_WIDTH,
                "y": -water + 0.5,
                "text": f"Z{zone + 1}",
                "cls": "label",
                "title": f"landing zone {zone + 1}",
            }
        )
    for section in range(round(width / BUNKER_SECTION_WIDTH) + 1):
        x = section * BUNKER_SECTION_WIDTH
        terrain.append({"kind": "polyline", "points": [[x, BAND_END_Y], [x, back]], "cls": "divider"})
    marks: list[dict[str, Any]] = []
    for index, count in enumerate(view["obstacles"]):
        x0 = index * OBSTACLE_SECTION_WIDTH
        terrain.append({"kind": "polyline", "points": [[x0, WALL_Y], [x0, BAND_END_Y]], "cls": "divider"})
        if count:  # coils of wire on a card, the card tapped
            marks.extend(P.obstacles(index, count, x0, OBSTACLE_SECTION_WIDTH, WALL_Y, BAND_END_Y))
            continue
        marks.append(
            {
                "kind": "text",
                "x": x0 + OBSTACLE_SECTION_WIDTH / 2,
                "y": (WALL_Y + BAND_END_Y) / 2 - 0.5,
                "text": "?" if count is None else "clear",
                "cls": "obstacle",
                "id": f"O{index + 1}",
                "title": f"O{index + 1}: " + ("not yet rolled" if count is None else "cleared"),
            }
        )
    exits = {e["bunker"]: e for e in view.get("exits", [])}
    for bunker in view["bunkers"]:
        cx, cy = bunker_centre(bunker)
        status = bunker["status"]
        text = f"{bunker['label']} {bunker['defenders']}" if status != "destroyed" else bunker["label"]
        marks.append(
            {
                "kind": "rect",
                "x": cx - BUNKER_WIDTH / 2,
                "y": cy - BUNKER_DEPTH / 2,
                "w": BUNKER_WIDTH,
                "h": BUNKER_DEPTH,
                "cls": "bunker",
                "state": status,
                "id": bunker["label"],
                "side": "german",
                "marker": "square",
                "label": text,  # beside it at full size: inside its 3" footprint it was 8 px on a class's projector
                "title": f"bunker {bunker['label']}: {bunker['defenders']} defenders, {status}",
            }
        )
        marks.append(P.slit(cx, cy - BUNKER_DEPTH / 2, BUNKER_WIDTH))
        marks.extend(P.defenders(bunker, cx, cy + BUNKER_DEPTH / 2))
        if status == "destroyed":
            marks.extend(P.cotton(cx, cy))
        exit_ = exits.get(bunker["label"])
        if exit_ and exit_["open"]:
            marks.append(
                {
                    "kind": "text",
                    "x": cx,
                    "y": cy + BUNKER_DEPTH / 2 + 0.6,
                    "text": "▲ EXIT",
                    "cls": "exit",
                    "title": f"the exit behind {bunker['label']} is open",
                }
            )
    marks.extend(P.markers(view.get("markers", []), 0.0, -water, width, back))
    units = []
    for player in view["americans"]:
        squad = player["squad"]
        if squad is None:
            continue
        units.append(
            {
                "kind": "figure",
                "x": squad["x"],
                "y": squad["y"],
                "r": P.SQUAD_DISC,
                "id": squad["label"],
                "side": "american",
                "marker": "circle",
                "text": str(squad["figures"]),
                "label": squad["label"],
                "cls": "squad",
                "title": f"squad {squad['label']}: {squad['figures']} figures, {where(squad['y'])}",
            }
        )
        units.extend(P.squad_men(squad, -water))
    rings = [dict(m, kind="circle", cls="ring") for m in own(view, mine)] + focus(view)
    return place(
        {
            "x0": 0.0,
            "y0": -water,
            "width": width,
            "height": water + back,
            "layers": [layer("terrain", terrain), layer("marks", marks), layer("units", units), layer("rings", rings)],
            "key": P.KEY,
        }
    )


def focus(view: dict[str, Any]) -> list[dict[str, Any]]:
    """A bold ring (class ``focus``) round the squad or bunker ``view["focus"]`` names (``grognard render
    --focus A3``); none when the squad is not on the beach. OptionError naming the squads and bunkers when the
    game has no such label."""
    label = view.get("focus")
    if not label:
        return []
    squads = {p["label"]: p["squad"] for p in view["americans"]}
    bunker = _bunker(view, label)
    if label not in squads and bunker is None:
        labels = list(squads)
        shown = f"squads {labels[0]} to {labels[-1]}" if len(labels) > 2 else "squads " + ", ".join(labels)
        if view["bunkers"]:
            shown += "; bunkers " + ", ".join(sorted((b["label"] for b in view["bunkers"]), key=lambda b: int(b[1:])))
        raise OptionError(f"--focus {label}: no squad or bunker {label} in this game ({shown})")
    if bunker is not None:
        x, y = bunker_centre(bunker)
        w, h = BUNKER_WIDTH + 1.2, BUNKER_DEPTH + 1.2
        return [{"kind": "rect", "x": x - w / 2, "y": y - h / 2, "w": w, "h": h, "cls": "focus", "title": label}]
    squad = squads[label]
    if squad is None:  # not on the beach now (still at sea, or out of the game)
        return []
    return [{"kind": "circle", "x": squad["x"], "y": squad["y"], "r": SQUAD_RING + 0.3, "cls": "focus", "title": label}]


def own(view: dict[str, Any], mine: Collection[str]) -> list[dict[str, Any]]:
    """The viewer's squads and bunkers, ``{id, x, y, r, title}`` in inches, to be ringed."""
    out = []
    for a in view["americans"]:
        if a["seat"] in mine and a["squad"]:
            q = a["squad"]
            out.append(
                {"id": q["label"], "x": q["x"], "y": q["y"], "r": SQUAD_RING, "title": f"your squad {a['label']}"}
            )
    for b in view["bunkers"]:
        if b["commander"] in mine:
            x, y = bunker_centre(b)
            out.append({"id": b["label"], "x": x, "y": y, "r": BUNKER_RING, "title": f"your bunker {b['label']}"})
    return out


def unit(view: dict[str, Any], decision: Decision) -> dict[str, Any] | None:
    """The squad a squad's orders are about, or the bunker a bunker's fire is, ``{id, x, y, r}`` inches."""
    kind, _, label = decision.id.partition(" ")
    if kind == "orders":
        q = _squads(view).get(label)
        return {"id": label, "x": q["x"], "y": q["y"], "r": SQUAD_RING} if q else None
    if kind == "fire":
        b = _bunker(view, label)
        if b is None:
            return None
        x, y = bunker_centre(b)
        return {"id": label, "x": x, "y": y, "r": BUNKER_RING}
    return None


# ------------------------------------------------------------------------------------------ controls
def controls(view: dict[str, Any], decision: Decision) -> list[dict[str, Any]]:
    """A squad's orders: tap a point to move to (or type x and y), or split its figures to fight; a bunker's
    or an artillery strike's: tap the squad it fires at."""
    space = decision.space
    kind, _, label = decision.id.partition(" ")
    targets = getattr(space, "targets", None)
    if kind in ("fire", "artillery") and targets is not None:
        verb = "fire" if kind == "fire" else "artillery"
        return [
            {
                "kind": "pick-target",
                "verb": verb,
                "unit": label,
                "targets": list(targets),
                "preview": True,
                "title": f"Tap the squad {label} fires at" if kind == "fire" else "Tap the squad to strike",
                "template": f"{verb} {label} {{target}}",
                "fields": [],
            }
        ]
    if kind != "orders":
        return []
    squad = _squads(view).get(label)
    fight_space = getattr(space, "fight", None)
    if squad is None or fight_space is None:
        return []
    move = {
        "kind": "pick-point",
        "verb": "move",
        "unit": label,
        "preview": True,
        "title": f"Move {label} to a point (up to {BEACH_MOVE:g} inches of beach; or tap the table to fill x and y)",
        "template": f"move {label} {{x}} {{y}}",
        "fields": [
            number_field("x", "x, inches along the beach", squad["x"], 0.0, float(view["width"]), 0.01),
            number_field(
                "y",
                f"y, inches up the beach (0 = water line, {WALL_Y:g} = sea wall)",
                squad["y"],
                -float(view["options"]["water"]),
                top(view),
                0.01,
            ),
        ],
    }
    kinds = fight_space.kinds()
    fields = []
    for what, text in (("shoot", "shoot at the bunker in front"), ("clear", "clear obstacles"), ("assault", "assault")):
        f = number_field(what, f"figures that {text}", 0, 0, squad["figures"] if what in kinds else 0, 1)
        if what not in kinds:
            f["disabled"] = "not possible here now"
        fields.append(f)
    fight = {
        "kind": "form",
        "verb": "fight",
        "unit": label,
        "preview": True,
        "title": f"Or stay and split {label}'s {squad['figures']} figures (the rest hold)",
        "template": f"fight {label} shoot={{shoot}} clear={{clear}} assault={{assault}}",
        "fields": fields,
    }
    out = [move, fight]
    if "shoot" in kinds or "assault" in kinds:  # a tap on the bunker in front offers the menu's fights
        section = R.section_at(squad["x"], BUNKER_SECTION_WIDTH, 3 * int(view["germans"]))
        front = next((b["label"] for b in view["bunkers"] if b["section"] == section), None)
        if front is not None:
            out.append(
                {
                    "kind": "pick-target",
                    "verb": "fight",
                    "unit": label,
                    "targets": [front],
                    "offer": "fight",
                    "preview": True,
                    "title": f"Tap bunker {front} to shoot at it or assault it",
                    "fields": [],
                    "template": "",
                }
            )
    return out


# ------------------------------------------------------------------------------------------ words
def tables(view: dict[str, Any], mine: Collection[str]) -> list[dict[str, Any]]:
    """Squads, bunkers and obstacles as text tables (beside the table)."""
    squads = []
    for a in view["americans"]:
        q = a["squad"]
        you = "yes" if a["seat"] in mine else ""
        if q is None:
            state = "out of squads" if a["out"] else "in the landing craft"
            squads.append([a["label"], a["seat"], you, "", "", "", state])
        else:
            squads.append([a["label"], a["seat"], you, q["figures"], f"{q['x']:g}", f"{q['y']:g}", where(q["y"])])
    opened = set(view["exits_open"])
    bunkers = [
        [
            b["label"],
            b["commander"],
            "yes" if b["commander"] in mine else "",
            b["defenders"],
            b["status"],
            "open" if b["section"] in opened else "closed",
        ]
        for b in view["bunkers"]
    ]
    obstacles = [[f"O{i + 1}", "not yet rolled" if c is None else c] for i, c in enumerate(view["obstacles"])]
    out = [{"caption": "Squads", "columns": ["squad", "seat", "yours", "figures", "x", "y", "where"], "rows": squads}]
    if bunkers:
        columns = ["bunker", "commander", "yours", "defenders", "status", "exit"]
        out.append({"caption": "Bunkers", "columns": columns, "rows": bunkers})
    out.append({"caption": "Obstacles per section", "columns": ["section", "obstacles left"], "rows": obstacles})
    return out


def phase(view: dict[str, Any]) -> str:
    return str(PHASES.get(view["phase"], view["phase"]))


def figures(view: dict[str, Any]) -> list[tuple[str, Any]]:
    """The projector's figures: casualties, exits, bunkers firing, obstacles left, squads sent back."""
    st = view["stats"]
    bunkers = view["bunkers"]
    active = sum(1 for b in bunkers if b["status"] == "active")
    left = sum(c for c in view["obstacles"] if c)
    unknown = sum(1 for c in view["obstacles"] if c is None)
    return [
        ("American casualties", st["american_losses"]),
        ("German casualties", st["german_losses"]),
        ("exits open", f"{len(view['exits_open'])} of {len(bunkers)}"),
        ("bunkers still firing", f"{active} of {len(bunkers)}"),
        ("obstacles left", f"{left}" + (f" ({unknown} sections not yet rolled)" if unknown else "")),
        ("squads sent back by morale", st["sent_back"]),
    ]


FACE = Face(scene, phase, tables, figures, controls, unit, own, situation=situation, board=board)
