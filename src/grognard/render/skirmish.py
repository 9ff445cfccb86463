"""A skirmish table drawn from a seat's view, as SVG: terrain, figures, and one man's firing lines.

Seen from above, north up, 12 px to the inch. Colours are the Okabe-Ito set
and greys, and every state is also told by shape or text (the dead are
crosses, blocked lines are dashed and name what blocks them, cover is marked
"C"), so the picture prints in grey.

With ``view["focus"]`` naming a figure (``grognard render skirmish FILE
--focus A.3``; an unknown one raises ``OptionError``), every enemy on the table gets a line from him: solid and
coloured by range band when he can fire at that man (with "C" where the man
has cover), dashed grey with the reason when he cannot. The lines come from
the rules' own functions (``rules.line_of_sight``, ``rules.effective_range``,
``rules.cover``) run on the view's positions and the scenario's terrain.

The MG and flame thrower wedges of the last fire (``view["wedges"]``, skirmish.16)
are drawn as pies in the firer's side colour, lightly filled, over the hills
as they lie (the view's ``outline``, from ``rules.wedge_outline``: shorter up a
hill, longer down it, cut at the table's edge), each
labelled with the gunner, heading and the men it fires on; a previewed fire
order's wedges are drawn dashed.
"""

from __future__ import annotations

import math
import textwrap
from typing import Any

from grognard.core.errors import OptionError
from grognard.render.svg import Labels, document, drawn_text_boxes, el, spread_words

SCALE = 12.0
MARGIN = 40.0
OFF = 6.0 * SCALE  # a strip round the table where units wait to come on (at most 6" beyond an edge)
ORANGE, SKY, GREEN, YELLOW, BLUE, VERMILLION, PURPLE = (
    "#E69F00",
    "#56B4E9",
    "#009E73",
    "#F0E442",
    "#0072B2",
    "#D55E00",
    "#CC79A7",
)
INK, FAINT = "#222222", "#777777"
FILL = {
    "hill": "#EFE3C8",
    "woods": "#9CCB9C",
    "bushes": "#C4E2B4",
    "small_rocks": "#D0D0D0",
    "pond": "#B9DDF3",
    "bay": "#B9DDF3",
    "river": "#8CC8EC",
    "road": "#E2D6BE",
    "building": "#B08D6E",
    "boulder": "#8F8F8F",
    "stone_wall": "#6F6F6F",
    "sandbags": "#C8B27A",
    "tank_trap": "#444444",
    "bridge": "#A98B65",
    "railway": "#BDB5A6",
    "castle": "#EDE6D6",
    "castle_wall": "#5A5A5A",
    "tower": "#B08D6E",
}
# building sections by state (skirmish.18): the fill fades as the roof goes; rubble is dotted, a collapse crossed
STATE_FILL = {"full points": "#B08D6E", "no art. cover": "#CDB49C", "no top cover": "#E6DCCF", "all dead": "#F7F4EC"}
VEHICLE_MARK = {"jeep": "J", "truck": "T", "half_track": "HT", "tank": "TK", "landing_craft": "LC"}
SIDE_COLOUR = {"allies": BLUE, "axis": VERMILLION}
BAND_COLOUR = (GREEN, ORANGE, PURPLE, INK)
ARC_SHOWN = 4.0  # inches of a piece's firing arc edges drawn (skirmish.55)


def render(view: dict[str, Any]) -> str:
    """The table of a skirmish view (``SkirmishGame.view(seat)``, maybe with ``focus``) as an SVG document."""
    terrain = view["terrain"]
    width, depth = float(terrain["width"]), float(terrain["depth"])
    body: list[str] = []

    def X(x: float) -> float:
        return MARGIN + OFF + x * SCALE

    def Y(y: float) -> float:
        return MARGIN + OFF + (depth - y) * SCALE

    def points(coords: list[list[float]]) -> str:
        return " ".join(f"{X(x):.1f},{Y(y):.1f}" for x, y in coords)

    body.append(el("rect", x=X(0), y=Y(depth), width=width * SCALE, height=depth * SCALE, fill="#F7F4EC", stroke=INK))
    order = [
        "hill",
        "pond",
        "bay",
        "river",
        "bridge",
        "road",
        "railway",
        "woods",
        "bushes",
        "small_rocks",
        "castle",
        "building",
        "tower",
        "boulder",
    ]
    pieces = sorted(terrain["pieces"], key=lambda p: order.index(p["kind"]) if p["kind"] in order else len(order))
    for piece in pieces:
        kind = piece["kind"]
        shape = piece.get("shape")
        if kind in ("barbed_wire",):
            body.append(
                el(
                    "polyline",
                    points=points(piece["line"]),
                    fill="none",
                    stroke=INK,
                    stroke_width=1.5,
                    stroke_dasharray="2 2",
                )
            )
            continue
        if kind == "cliff":
            body.append(el("polyline", points=points(piece["line"]), fill="none", stroke=INK, stroke_width=4))
            continue
        if kind == "castle_wall" and "sections" in piece:
            continue  # its sections are drawn by _structures, by state, with their points
        if not shape or not isinstance(shape[0], list):
            continue
        if kind == "bridge" and not view.get("structures", {}).get("bridges", {}).get(piece["id"], {}).get("standing"):
            continue  # gone or not yet built: _structures draws its outline
        if isinstance(shape[0][0], list):  # a multi-part shape
            parts = shape
        else:
            parts = [shape]
        for part in parts:
            body.append(
                el(
                    "polygon",
                    points=points(part),
                    fill=FILL.get(kind, "#DDDDDD"),
                    stroke=INK if kind in ("building", "tower", "hill") else "none",
                    stroke_width=1 if kind in ("building", "tower") else 0.6,
                )
            )
        if kind == "hill":
            xs = [p[0] for p in shape]
            ys = [p[1] for p in shape]
            body.append(
                el(
                    "text",
                    f'{piece.get("id", "")} {piece.get("height", 0):g}"',
                    x=X(min(xs)) + 4,
                    y=Y(max(ys)) + 12,
                    font_size=10,
                    fill=FAINT,
                )
            )
        for opening in piece.get("openings", []):
            ox, oy = opening["at"]
            half = opening["width"] * SCALE / 2
            if opening["door"]:  # a door: a dark square with its name
                body.append(
                    el(
                        "rect",
                        x=X(ox) - half,
                        y=Y(oy) - half,
                        width=2 * half,
                        height=2 * half,
                        fill="#5A3E2B",
                        stroke=INK,
                        stroke_width=1,
                    )
                )
                body.append(el("text", opening["id"], x=X(ox) + half + 2, y=Y(oy) + 3, font_size=7, fill=INK))
            else:  # a window: a white square in the wall
                body.append(
                    el(
                        "rect",
                        x=X(ox) - half / 2,
                        y=Y(oy) - half / 2,
                        width=half,
                        height=half,
                        fill="white",
                        stroke=INK,
                        stroke_width=1,
                    )
                )
    body += _structures(view, terrain, X, Y, points)
    body += _ladders(view, X, Y)
    for wire in view.get("wires", []):
        body.append(
            el("polyline", points=points(wire), fill="none", stroke=INK, stroke_width=1.5, stroke_dasharray="2 2")
        )
    for trap in view.get("traps", []):
        body.append(el("rect", x=X(trap[0]) - 3, y=Y(trap[1]) - 3, width=6, height=6, fill=INK))
    for objective in view["scenario"].get("objectives", []):
        body.append(
            el(
                "polygon",
                points=points(objective["shape"]),
                fill="none",
                stroke=PURPLE,
                stroke_width=2,
                stroke_dasharray="8 4",
            )
        )
        xs = [p[0] for p in objective["shape"]]
        ys = [p[1] for p in objective["shape"]]
        body.append(
            el(
                "text",
                objective["name"] or objective["id"],
                x=X(max(xs)) - 4,
                y=Y(max(ys)) + 14,
                font_size=11,
                text_anchor="end",
                fill=PURPLE,
            )
        )
    figures_by_id = {f["id"]: f for f in view["figures"]}
    for wedge in view.get("wedges", []):
        body += _wedge(view, wedge, X, Y, figures_by_id, preview=False)
    for wedge in (view.get("preview") or {}).get("wedges", []):
        body += _wedge(view, wedge, X, Y, figures_by_id, preview=True)
    body += _vehicles(view, points, X, Y)
    body += _drops(view, X, Y)
    focus = view.get("focus")
    if focus:
        known = {f["id"] for f in view["figures"]}
        if focus not in known:
            raise OptionError(f"--focus {focus}: no man {focus} in this game (men are named like A.3)")
        body += _firing_lines(view, focus, X, Y)
    body += _artillery(view, X, Y, points)
    shown = [f for f in view["figures"] if f["on_table"] and f["alive"] and not f.get("aboard")]
    r = SCALE / 2
    marks = [(X(f["x"]) - r, Y(f["y"]) - r, X(f["x"]) + r, Y(f["y"]) + r) for f in shown]
    body = spread_words(body, marks)  # the words of the table off the men and off each other
    placer = Labels(marks + drawn_text_boxes(body))  # off the men and the words already on the table
    for f in view["figures"]:
        cx, cy = X(f["x"]), Y(f["y"])
        colour = SIDE_COLOUR.get(f["side"], INK)
        if not f["on_table"]:  # waiting off the table: hollow
            if f["alive"]:
                body.append(el("circle", cx=cx, cy=cy, r=SCALE / 2, fill="white", stroke=colour, stroke_width=1.5))
            continue
        if f.get("aboard"):
            continue  # drawn with his vehicle
        if not f["alive"]:
            body.append(el("path", d=f"M{cx - 4:.1f},{cy - 4:.1f} l8,8 m0,-8 l-8,8", stroke=FAINT, stroke_width=1.5))
            continue
        marker = "rect" if f["weapon"] in ("mg", "mortar") else "circle"
        if marker == "rect":
            body.append(el("rect", x=cx - 5, y=cy - 5, width=10, height=10, fill=colour, stroke=INK, stroke_width=1))
        else:
            body.append(el("circle", cx=cx, cy=cy, r=SCALE / 2, fill=colour, stroke=INK, stroke_width=1))
        if f["id"] == focus:
            body.append(el("circle", cx=cx, cy=cy, r=SCALE, fill="none", stroke=INK, stroke_width=2))
        lx, ly, anchor = placer.place(cx, cy, f["id"], 8, reach=0.7)  # beside the man, never on a man or a label
        body.append(el("text", f["id"], x=lx, y=ly, font_size=8, fill=INK, text_anchor=anchor, class_="label"))
    preview = view.get("preview")
    if preview:  # an order not yet given: each man's path, or each man's shot
        figures = {f["id"]: f for f in view["figures"]}
        for item in preview["paths"]:
            body.append(
                el(
                    "polyline",
                    points=points(item["path"]),
                    fill="none",
                    stroke=INK,
                    stroke_width=1.4,
                    stroke_dasharray="5 3",
                )
            )
            ex, ey = item["path"][-1]
            body.append(el("circle", cx=X(ex), cy=Y(ey), r=SCALE / 2, fill="none", stroke=INK, stroke_width=1.4))
        for shot in preview["shots"]:
            a, b = figures[shot["shooter"]], figures[shot["target"]]
            body.append(
                el(
                    "line",
                    x1=X(a["x"]),
                    y1=Y(a["y"]),
                    x2=X(b["x"]),
                    y2=Y(b["y"]),
                    stroke=INK,
                    stroke_width=1.2,
                    stroke_dasharray="1 3",
                )
            )
        for laid in preview.get("templates", []):
            body.append(
                el(
                    "polygon",
                    points=points(laid["shape"]),
                    fill="none",
                    stroke=INK,
                    stroke_width=1.4,
                    stroke_dasharray="5 3",
                )
            )
        body.append(
            el("text", f"preview (not given): {preview['order']}", x=MARGIN, y=Y(0) + OFF + 40, font_size=11, fill=INK)
        )
    title = f"{view['scenario']['title']}: turn {view['turn']}"
    outcome = view.get("outcome")
    if outcome:
        title += f" - {outcome['outcome']} {outcome.get('winner') or ''}: {outcome['reason']}"
    body.append(el("text", title, x=MARGIN, y=MARGIN - 14, font_size=14, fill=INK, font_weight="bold"))
    legend = (
        "blue: allies, red: axis; squares carry a MG or mortar; hollow: waiting off the table; x: dead; "
        "dashed purple: objective; pies: MG and flame thrower wedges; pentagon: artillery piece (its crew's "
        "colour, grey: no crew; dashed: the edges of its firing arc); burst templates (pieces, tanks' guns, "
        "mortars, bazookas) laid this turn: hatched where the shell landed, dashed where "
        "the ranging shot missed"
        + (
            "; vehicles: outlined in their side's colour, listing the driver (D), gunner (G) and riders"
            if view.get("vehicle_shapes")
            else ""
        )
    )
    picture_width = width * SCALE + 2 * (MARGIN + OFF)
    y = Y(0) + OFF + 22 + (18 if preview else 0)
    key, y = _terrain_key(terrain, picture_width, y)
    body += key
    for line in textwrap.wrap(legend, int((picture_width - 2 * MARGIN) / (10 * 0.62))):  # inside the picture
        body.append(el("text", line, x=MARGIN, y=y, font_size=10, fill=FAINT, class_="legend"))
        y += 14
    return document(picture_width, max(y + 10, depth * SCALE + 2 * (MARGIN + OFF) + 40), body, title)


KIND_NAME = {"small_rocks": "small rocks", "stone_wall": "stone wall", "tank_trap": "tank trap"}


def _terrain_key(terrain: dict[str, Any], picture_width: float, y: float) -> tuple[list[str], float]:
    """A swatch and a name for each kind of terrain on this table, in rows inside the picture; (marks, next y)."""
    kinds = sorted({p["kind"] for p in terrain["pieces"]} & (set(FILL) | {"barbed_wire", "cliff"}))
    out = [el("text", "Terrain:", x=MARGIN, y=y, font_size=10, font_weight="bold", fill=INK, class_="legend")]
    x = MARGIN + 56
    for kind in kinds:
        name = KIND_NAME.get(kind, kind.replace("_", " "))
        step = 22 + len(name) * 10 * 0.62 + 12
        if x + step > picture_width - MARGIN:
            x, y = MARGIN + 56, y + 16
        if kind in ("barbed_wire", "cliff"):
            dash = "2 2" if kind == "barbed_wire" else None
            width = 1.5 if kind == "barbed_wire" else 4
            out.append(
                el("line", x1=x, y1=y - 4, x2=x + 16, y2=y - 4, stroke=INK, stroke_width=width, stroke_dasharray=dash)
            )
        else:
            out.append(el("rect", x=x, y=y - 9, width=16, height=10, fill=FILL[kind], stroke=INK, stroke_width=0.5))
        out.append(el("text", name, x=x + 22, y=y, font_size=10, fill=INK, class_="legend"))
        x += step
    return out, y + 20


def _structures(view: dict[str, Any], terrain: dict[str, Any], X: Any, Y: Any, points: Any) -> list[str]:
    """Building sections, towers, castle wall sections and bridges drawn by their state, with their points
    (skirmish.18, 74, 88-89, 92); ladders against the walls with the men on them (skirmish.78-84)."""
    info = view.get("structures", {})
    sections = info.get("sections", {})
    bridges = info.get("bridges", {})
    walls = info.get("walls", {})
    out: list[str] = []
    for piece in terrain["pieces"]:
        if piece["kind"] == "castle_wall" and "sections" in piece:
            for sec in piece["sections"]:
                now = walls.get(sec["id"])
                if now is None:
                    continue
                state = now["state"]
                dash = {"no top cover": "3 2", "all dead": "1 4"}.get(state)
                extra = {"stroke_dasharray": dash} if dash else {}
                colour = {"full points": "#4A4A4A", "no art. cover": "#7A7A7A"}.get(state, "#B5B5B5")
                out.append(
                    el("polyline", points=points(sec["line"]), fill="none", stroke=colour, stroke_width=SCALE, **extra)
                )
                (x0, y0), (x1, y1) = sec["line"][0], sec["line"][-1]
                label = f"{sec['id']} {now['points']}"
                out.append(el("text", label, x=X((x0 + x1) / 2) + 3, y=Y((y0 + y1) / 2) - 6, font_size=8, fill=INK))
            continue
        if piece["kind"] in ("building", "tower"):
            for sec in piece.get("sections", []):
                now = sections.get(sec["id"])
                if now is None:
                    continue
                state = now["state"]
                dash = {"no top cover": "2 2", "all dead": "6 3"}.get(state)
                extra = {"stroke_dasharray": dash} if dash else {}
                out.append(
                    el(
                        "polygon",
                        points=points(sec["shape"]),
                        fill=STATE_FILL.get(state, "#DDDDDD"),
                        stroke=INK,
                        stroke_width=1,
                        **extra,
                    )
                )
                xs = [p[0] for p in sec["shape"]]
                ys = [p[1] for p in sec["shape"]]
                label = f"{sec['id']} {'/'.join(str(p) for p in now['points'])}: {state}"
                out.append(el("text", label, x=X(min(xs)) + 3, y=Y(max(ys)) + 10, font_size=8, fill=INK))
                if state == "all dead":
                    out.append(
                        el(
                            "path",
                            d=f"M{X(min(xs)):.1f},{Y(max(ys)):.1f} L{X(max(xs)):.1f},{Y(min(ys)):.1f} "
                            f"M{X(min(xs)):.1f},{Y(min(ys)):.1f} L{X(max(xs)):.1f},{Y(max(ys)):.1f}",
                            stroke=FAINT,
                            stroke_width=1,
                        )
                    )
        elif piece["kind"] == "bridge":
            now = bridges.get(piece["id"])
            if now is None:
                continue
            if not now["standing"]:  # gone or not yet built: a dashed outline over the river
                out.append(
                    el(
                        "polygon",
                        points=points(piece["shape"]),
                        fill="none",
                        stroke=INK,
                        stroke_width=1,
                        stroke_dasharray="4 3",
                    )
                )
            xs = [p[0] for p in piece["shape"]]
            ys = [p[1] for p in piece["shape"]]
            out.append(el("text", now["text"], x=X(max(xs)) + 3, y=Y((min(ys) + max(ys)) / 2), font_size=8, fill=INK))
    return out


def _ladders(view: dict[str, Any], X: Any, Y: Any) -> list[str]:
    """Ladders against castle walls, foot to top, with their names and the men on them (skirmish.78-84)."""
    out: list[str] = []
    for lad in view.get("ladders", []):
        (fx, fy), (tx, ty) = lad["foot"], lad["top"]
        colour = SIDE_COLOUR.get(lad["side"], INK)
        out.append(el("line", x1=X(fx), y1=Y(fy), x2=X(tx), y2=Y(ty), stroke=colour, stroke_width=3))
        label = lad["id"] + (f" ({', '.join(lad['men'])})" if lad["men"] else "")
        out.append(el("text", label, x=X(fx) + 4, y=Y(fy) + 10, font_size=8, fill=colour))
    return out


def _artillery(view: dict[str, Any], X: Any, Y: Any, points: Any) -> list[str]:
    """Pieces (a pentagon in the colour of the side whose unit crews it, its heading a stroke, the edges of its
    firing arc dashed, its crew named, and the vehicle towing it) and the burst templates laid this turn with
    their ranging dice (skirmish.12-15, 31, 55, 61)."""
    out: list[str] = []
    units = {u["id"]: u for u in view.get("units", [])}
    for laid in view.get("landed", []):
        colour = SIDE_COLOUR.get(laid["side"], INK)
        shape = laid.get("shape") or []
        if not shape:
            continue
        if laid["landed"]:
            out.append(
                el("polygon", points=points(shape), fill=colour, fill_opacity=0.25, stroke=colour, stroke_width=1.5)
            )
        else:
            out.append(
                el("polygon", points=points(shape), fill="none", stroke=FAINT, stroke_width=1.2, stroke_dasharray="4 3")
            )
        word = "landed" if laid["landed"] else "missed"
        fired = laid["weapon"].replace("_", " ")
        label = f"{laid['by']} ({fired}): ranging {laid['die']} (needs {laid['ranging']} or less), {word}"
        if laid["landed"] and laid.get("hit"):
            label += f"; hit {', '.join(laid['hit'])}"
        x, y = laid["at"]
        out.append(el("text", label, x=X(x) + 8, y=Y(y) + 22, font_size=8, fill=INK))
    for piece in view.get("pieces", []):
        crew = piece.get("crew")
        side = units[crew]["side"] if crew in units else None
        colour = SIDE_COLOUR.get(side, FAINT) if side else FAINT
        cx, cy = X(piece["x"]), Y(piece["y"])
        corners = [
            (
                cx + 8 * math.cos(math.radians(piece["heading"] + 72 * k)),
                cy - 8 * math.sin(math.radians(piece["heading"] + 72 * k)),
            )
            for k in range(5)
        ]
        out.append(
            el(
                "polygon",
                points=" ".join(f"{a:.1f},{b:.1f}" for a, b in corners),
                fill=colour,
                stroke=INK,
                stroke_width=1.2,
            )
        )
        hx = cx + 14 * math.cos(math.radians(piece["heading"]))
        hy = cy - 14 * math.sin(math.radians(piece["heading"]))
        out.append(el("line", x1=cx, y1=cy, x2=hx, y2=hy, stroke=INK, stroke_width=2))
        if piece.get("arc") and not piece.get("hitched"):  # its firing arc's edges, 4" long (skirmish.55)
            for edge in (piece["heading"] - piece["arc"], piece["heading"] + piece["arc"]):
                ex = piece["x"] + ARC_SHOWN * math.cos(math.radians(edge))
                ey = piece["y"] + ARC_SHOWN * math.sin(math.radians(edge))
                out.append(
                    el("line", x1=cx, y1=cy, x2=X(ex), y2=Y(ey), stroke=colour, stroke_width=1, stroke_dasharray="3 2")
                )
        text = f"{piece['id']} {piece['weapon'].replace('_', ' ')} (crew {crew or 'none'})"
        if piece.get("hitched"):
            text += f", hitched to {piece['hitched']}"
        out.append(el("text", text, x=cx + 10, y=cy + 12, font_size=8, fill=INK))
    return out


def _vehicles(view: dict[str, Any], points: Any, X: Any, Y: Any) -> list[str]:
    """The train (dark, named) and each vehicle: its footprint outlined in its side's colour, its kind's
    mark, and who is aboard (the driver D, the MG's gunner G, then the riders)."""
    out: list[str] = []
    train = view.get("train_shape")
    if train:
        out.append(el("polygon", points=points(train), fill="#555555", stroke=INK, stroke_width=1))
        xs, ys = [p[0] for p in train], [p[1] for p in train]
        out.append(el("text", "train", x=X(sum(xs) / len(xs)), y=Y(max(ys)) - 3, font_size=9, text_anchor="middle"))
    for v in view.get("vehicle_shapes", []):
        colour = SIDE_COLOUR.get(v["side"], INK)
        out.append(el("polygon", points=points(v["shape"]), fill="#FFFFFF", stroke=colour, stroke_width=2.5))
        xs, ys = [p[0] for p in v["shape"]], [p[1] for p in v["shape"]]
        cx, cy = X(sum(xs[:-1]) / (len(xs) - 1)), Y(sum(ys[:-1]) / (len(ys) - 1))
        out.append(el("text", VEHICLE_MARK.get(v["kind"], "?"), x=cx, y=cy + 3, font_size=8, text_anchor="middle"))
        men = []
        for fid in v["aboard"]:
            tag = " D" if fid == v["driver"] else " G" if fid == v["gunner"] else ""
            men.append(fid + tag)
        kind = v["kind"].replace("_", " ")
        if "grounded" in v:
            kind += ", grounded" if v["grounded"] else ", afloat"
        label = f"{v['id']} ({kind}): " + (", ".join(men) if men else "empty")
        if len(label) > 60:
            label = label[:57] + "..."
        out.append(el("text", label, x=X(max(xs)) + 3, y=cy + 3, font_size=8, fill=colour))
    return out


def _drops(view: dict[str, Any], X: Any, Y: Any) -> list[str]:
    """Paratroops (skirmish.26): drop zones still to come (each man's aim, a dashed ring, the unit and its
    move) and this move's drops (a line from each man's aim to where he came down, and his fate if bad)."""
    out: list[str] = []
    for zone in view.get("drop_zones", []):
        colour = SIDE_COLOUR.get(zone["side"], INK)
        for x, y in zone["aims"]:
            out.append(el("circle", cx=X(x), cy=Y(y), r=4, fill="none", stroke=colour, stroke_dasharray="2 2"))
        x0, y0 = zone["aims"][0]
        text = f"{zone['unit']} drops on move {zone['move']}"
        out.append(el("text", text, x=X(x0) + 6, y=Y(y0) - 6, font_size=8, fill=colour))
    for chute in view.get("chutes", []):
        colour = SIDE_COLOUR.get(chute["side"], INK)
        (ax, ay), (bx, by) = chute["aim"], chute["at"]
        out.append(el("line", x1=X(ax), y1=Y(ay), x2=X(bx), y2=Y(by), stroke=colour, stroke_dasharray="3 2"))
        d = 3
        out.append(
            el(
                "path",
                d=f"M{X(ax) - d},{Y(ay) - d}L{X(ax) + d},{Y(ay) + d}M{X(ax) - d},{Y(ay) + d}L{X(ax) + d},{Y(ay) - d}",
                stroke=colour,
                fill="none",
            )
        )
        if chute["fate"] not in ("landed",):
            out.append(
                el("text", f"{chute['figure']} {chute['fate']}", x=X(bx) + 5, y=Y(by) + 10, font_size=7, fill=colour)
            )
    return out


def _firing_lines(view: dict[str, Any], focus: str, X: Any, Y: Any) -> list[str]:
    """One line per enemy on the table from the focus figure: band colour and cover, or why not."""
    from grognard.rulesets.skirmish import rules as R

    figures = {f["id"]: f for f in view["figures"]}
    me = figures.get(focus)
    if me is None or not me["alive"] or not me["on_table"]:
        return []
    terrain = _terrain(view)
    tables = terrain.tables
    opened = [d["id"] for d in view.get("doors", []) if d["open"]]
    out: list[str] = []
    a = (me["x"], me["y"])
    weapon = me.get("fires", me["weapon"])  # the weapon he fires: a vehicle's MG when he mans it
    attack = tables.attack(weapon)
    cannot = None  # why he cannot fire at all this turn (skirmish.47, 52; part 3's weapons)
    if weapon in tables.artillery:
        cannot = f"his {weapon.replace('_', ' ')} fires a burst template (a burst order)"
    elif not tables.weapons[weapon].bands:
        cannot = f"his {weapon.replace('_', ' ')} fires a wedge (part 3)"
    elif me.get("aboard"):
        drives = [v["id"] for v in view.get("vehicle_shapes", []) if v["driver"] == focus]
        if drives:
            cannot = f"drives {drives[0]}: does not fire"  # skirmish.57; the river or pond is the vehicle's
    elif terrain.in_river(*a):
        cannot = "in the river: cannot fire"
    elif terrain.in_pond(*a):
        cannot = "swimming: cannot fire"
    if cannot is not None:
        out.append(el("text", f"{focus}: {cannot}", x=X(a[0]) + 10, y=Y(a[1]) + 18, font_size=9, fill=INK))
    for f in view["figures"]:
        if f["side"] == me["side"] or not f["alive"] or not f["on_table"]:
            continue
        b = (f["x"], f["y"])
        blocked = R.line_of_sight(terrain, a, b, opened)
        distance = R.effective_range(terrain, a, b)
        band = tables.band_index(weapon, distance) if cannot is None else None
        mid = _along(X(a[0]), Y(a[1]), X(b[0]), Y(b[1]))
        if blocked is not None or band is None:
            why = blocked or (f'{distance:.1f}"' if cannot else f'{distance:.1f}" out of range')
            out.append(
                el(
                    "line",
                    x1=X(a[0]),
                    y1=Y(a[1]),
                    x2=X(b[0]),
                    y2=Y(b[1]),
                    stroke="#AAAAAA",
                    stroke_width=1,
                    stroke_dasharray="4 3",
                )
            )
            out.append(el("text", why, x=mid[0], y=mid[1], font_size=7, fill=FAINT, transform=mid[2]))
            continue
        covered = R.cover(terrain, a, b, attack)
        hit_on = tables.weapons[weapon].bands[band].hit_on
        colour = BAND_COLOUR[min(band, len(BAND_COLOUR) - 1)]
        out.append(el("line", x1=X(a[0]), y1=Y(a[1]), x2=X(b[0]), y2=Y(b[1]), stroke=colour, stroke_width=1.6))
        label = f'{distance:.1f}" band {band + 1}: {hit_on}+' + (f" C ({covered.replace('_', ' ')})" if covered else "")
        out.append(el("text", label, x=mid[0], y=mid[1], font_size=8, fill=colour, transform=mid[2]))
    return out


def _terrain(view: dict[str, Any]) -> Any:
    """The view's terrain, with the wire and tank traps laid so far and the structures as they stand."""
    from grognard.rulesets.skirmish.scenario import scenario_for_view
    from grognard.rulesets.skirmish.terrain import build_terrain

    scenario = scenario_for_view(view)  # a record's own copy of the scenario, not the file it came from
    structures = view.get("structures", {})
    standing = frozenset(b for b, info in structures.get("bridges", {}).items() if info["standing"])
    states = {sid: info["state"] for sid, info in structures.get("sections", {}).items()}
    return build_terrain(scenario.spec, scenario.tables).with_works(
        [tuple(map(tuple, w)) for w in view.get("wires", [])],
        [tuple(t) for t in view.get("traps", [])],
        standing if structures else None,
        states if structures else None,
    )


def _wedge(
    view: dict[str, Any], wedge: dict[str, Any], X: Any, Y: Any, figures: dict[str, Any], *, preview: bool
) -> list[str]:
    """One wedge (skirmish.16): its outline over the hills as the view gives it, its label; dashed if previewed."""
    gunner = figures.get(wedge["gunner"], {})
    colour = SIDE_COLOUR.get(gunner.get("side", ""), INK)
    apex = (float(wedge["at"][0]), float(wedge["at"][1]))
    shape = " ".join(f"{X(x):.1f},{Y(y):.1f}" for x, y in wedge["outline"])
    out = [
        el(
            "polygon",
            points=shape,
            fill=colour,
            fill_opacity=0.08 if preview else 0.15,
            stroke=colour,
            stroke_width=1.2,
            stroke_dasharray="6 3" if preview else "none",
        )
    ]
    theta = math.radians(wedge["heading"])
    tip = (apex[0] + 0.6 * wedge["reach"] * math.cos(theta), apex[1] + 0.6 * wedge["reach"] * math.sin(theta))
    men = ", ".join(wedge["men"]) or "nobody"
    weapon = "MG" if wedge["weapon"] == "mg" else str(wedge["weapon"]).replace("_", " ")
    label = f"{wedge['gunner']} {weapon} wedge, turn {wedge['turn']}, {wedge['heading']:g}\u00b0: {men}"
    mid = _along(X(apex[0]), Y(apex[1]), X(tip[0]), Y(tip[1]), 1.0)
    out.append(el("text", label, x=mid[0], y=mid[1], font_size=8, fill=colour, transform=mid[2]))
    return out


def _along(x1: float, y1: float, x2: float, y2: float, share: float = 0.7) -> tuple[float, float, str]:
    """Where a firing line's label goes: most of the way to the target (where lines fan apart), turned along it."""
    x, y = x1 + (x2 - x1) * share, y1 + (y2 - y1) * share
    angle = math.degrees(math.atan2(y2 - y1, x2 - x1))
    if angle > 90:
        angle -= 180
    elif angle < -90:
        angle += 180
    return x, y - 2, f"rotate({angle:.1f} {x:.1f} {y - 2:.1f})"
