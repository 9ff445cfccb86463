"""The B-17 table drawn from a seat's view, as SVG: seen from above, entry end on the left, target on the right.

8 px to the inch. The aircraft are their footprints (wings, fuselage, tailplane) at their headings, with
a short heading line from the nose; each damaged engine trails smoke (a grey plume, the seed's pipe
cleaner); the 4" rings of every B-17's gun positions are dashed; the target is hatched and the flak
ring (6" beyond the target's edge) is a dashed outline. Colours are the Okabe-Ito set; every state is
also told by shape or text (a destroyed aircraft is a cross with its label), so the picture prints in grey.
"""

from __future__ import annotations

import math
from typing import Any

from grognard.core.errors import OptionError
from grognard.render.svg import Labels, document, el
from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.data import ATTACK_RANGE, FLAK_RANGE, TABLE_LENGTH, TABLE_WIDTH, TARGET, damage_grade
from grognard.rulesets.b17.describe import PHASES

SCALE = 8.0
MARGIN = 40.0
TOP = 80.0
LABEL = 14.0  # px: an aircraft's label, 15 px high on a 1366x768 projector (it was 10: 11 px)
BLUE, VERMILLION, ORANGE, SKY, INK, GREY = "#0072B2", "#D55E00", "#E69F00", "#56B4E9", "#222222", "#777777"


HEADING = "#1f5f9f"  # the heading arrow: blue and thin, unlike the smoke's thick grey plume


def heading_arrow(x1: float, y1: float, x2: float, y2: float) -> str:
    """A thin arrow from the nose along the heading, its head a small filled triangle."""
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    bx, by = x2 - 6 * ux, y2 - 6 * uy
    head = f"{x2:.1f},{y2:.1f} {bx - 3 * uy:.1f},{by + 3 * ux:.1f} {bx + 3 * uy:.1f},{by - 3 * ux:.1f}"
    return (
        f'<g class="heading">{el("line", x1=x1, y1=y1, x2=bx, y2=by, stroke=HEADING, stroke_width=1.2)}'
        f"{el('polygon', points=head, fill=HEADING)}</g>"
    )


def render(view: dict[str, Any]) -> str:
    """The table of a B-17 view (``B17Game.view(seat)``) as an SVG document (str)."""
    options = view["options"]
    body: list[str] = []

    def X(x: float) -> float:
        return MARGIN + x * SCALE

    def Y(y: float) -> float:
        return TOP + (TABLE_WIDTH - y) * SCALE

    def points(shape: Any) -> str:
        return " ".join(f"{X(x):.1f},{Y(y):.1f}" for x, y in list(shape.exterior.coords)[:-1])

    body.append(
        el(
            "rect",
            x=X(0),
            y=Y(TABLE_WIDTH),
            width=TABLE_LENGTH * SCALE,
            height=TABLE_WIDTH * SCALE,
            fill="#EAF3EA",
            stroke=INK,
            stroke_width=2,
        )
    )
    mid = Y(TABLE_WIDTH / 2)
    body.append(
        el(
            "text",
            "American entry end",
            x=X(0) - 8,
            y=mid,
            font_size=11,
            fill=INK,
            text_anchor="middle",
            transform=f"rotate(-90 {X(0) - 8:.1f} {mid:.1f})",
        )
    )
    x0, y0, x1, y1 = TARGET
    body.append(
        '<clipPath id="table"><rect '
        f'x="{X(0):.1f}" y="{Y(TABLE_WIDTH):.1f}" '
        f'width="{TABLE_LENGTH * SCALE:.1f}" height="{TABLE_WIDTH * SCALE:.1f}"/>'
        "</clipPath>"
    )
    r = FLAK_RANGE * SCALE
    body.append(
        el(
            "rect",
            x=X(x0 - FLAK_RANGE),
            y=Y(y1 + FLAK_RANGE),
            width=(x1 - x0 + 2 * FLAK_RANGE) * SCALE,
            height=(y1 - y0 + 2 * FLAK_RANGE) * SCALE,
            rx=r,
            ry=r,
            fill="none",
            stroke=VERMILLION,
            stroke_width=1.5,
            stroke_dasharray="6 4",
            clip_path="url(#table)",
        )
    )
    body.append(
        el("text", "flak range", x=X(x0 - FLAK_RANGE), y=Y(y1 + FLAK_RANGE) - 4, font_size=LABEL - 2, fill=VERMILLION)
    )
    body.append(
        '<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        f'<line x1="0" y1="0" x2="0" y2="6" stroke="{VERMILLION}" stroke-width="2"/></pattern>'
    )
    body.append(
        el(
            "rect",
            x=X(x0),
            y=Y(y1),
            width=(x1 - x0) * SCALE,
            height=(y1 - y0) * SCALE,
            fill="url(#hatch)",
            stroke=INK,
            stroke_width=1.5,
        )
    )
    body.append(el("text", "TARGET", x=X(x0) + 2, y=Y(y0) + 16, font_size=LABEL - 2, font_weight="bold", fill=INK))
    aircraft = view["aircraft"]
    # gun rings first, under the aircraft: every bomber's faintly, or the focused bomber's alone, boldly
    focus = view.get("focus")
    labels = {a["label"] for a in aircraft}
    placed = set(view.get("placed", []))
    # a bomber whose box is not yet placed (b17.8) is not on the table: nothing is drawn for it
    aircraft = [a for a in aircraft if a["kind"] != "bomber" or a.get("box", 0) in placed]
    if focus is not None and focus not in labels:
        raise OptionError(f"--focus {focus}: no aircraft {focus} in this game ({', '.join(sorted(labels))})")
    marks = [(X(a["x"]) - 6, Y(a["y"]) - 6, X(a["x"]) + 6, Y(a["y"]) + 6) for a in aircraft if a["status"] != "waiting"]
    placer = Labels(marks)  # no label covers another label or an aircraft
    for a in aircraft:
        if a["kind"] == "bomber" and a["status"] == "flying" and focus in (None, a["label"]):
            strong = focus is not None
            dims = R.dims_of(options, a["model"])
            for gun, (gx, gy) in G.gun_positions(dims, a["x"], a["y"], a["heading"]).items():
                body.append(
                    el(
                        "circle",
                        cx=X(gx),
                        cy=Y(gy),
                        r=ATTACK_RANGE * SCALE,
                        fill="none",
                        stroke=BLUE,
                        stroke_width=1.4 if strong else 0.6,
                        stroke_dasharray="3 3",
                        opacity=0.9 if strong else 0.45,
                    )
                )
                if strong:
                    lx, ly, anchor = placer.place(X(gx), Y(gy), gun, LABEL - 4, reach=0.5)
                    body.append(
                        el("text", gun, x=lx, y=ly, font_size=LABEL - 4, fill=BLUE, text_anchor=anchor, class_="label")
                    )
    for a in aircraft:
        if a["status"] == "waiting":
            continue
        dims = R.dims_of(options, a["model"])
        x, y, h = a["x"], a["y"], a["heading"]
        if a["status"] != "flying":
            px, py = X(x), Y(y)
            body.append(el("path", d=f"M{px - 6:.1f},{py - 6:.1f} l12,12 m0,-12 l-12,12", stroke=GREY, stroke_width=2))
            text = f"{a['label']} {a['status']}"
            lx, ly, anchor = placer.place(px, py, text, LABEL - 2)
            body.append(
                el("text", text, x=lx, y=ly, font_size=LABEL - 2, fill=GREY, text_anchor=anchor, class_="label")
            )
            continue
        colour = SKY if a["kind"] == "bomber" else ORANGE
        body.append(el("polygon", points=points(G.footprint(dims, x, y, h)), fill=colour, stroke=INK, stroke_width=0.8))
        nx, ny = G.nose(dims, x, y, h)
        hx, hy = G.local_to_world(x, y, h, dims.length / 2 + 2.0, 0.0)
        body.append(heading_arrow(X(nx), Y(ny), X(hx), Y(hy)))
        engines = G.engine_positions(dims, x, y, h)
        for engine in a["damaged"]:
            ex, ey = engines[engine - 1]
            tx, ty = G.local_to_world(ex, ey, h, -2.0, 0.0)
            body.append(
                el(
                    "path",
                    d=f"M{X(ex):.1f},{Y(ey):.1f} Q{(X(ex) + X(tx)) / 2 + 4:.1f},{(Y(ey) + Y(ty)) / 2 + 4:.1f} "
                    f"{X(tx):.1f},{Y(ty):.1f}",
                    stroke="#555555",
                    stroke_width=3,
                    fill="none",
                    opacity=0.7,
                    stroke_linecap="round",
                )
            )
        label = a["label"] + (" bombed" if a.get("bombed") else "")
        lx, ly, anchor = placer.place(X(x), Y(y), label, LABEL)
        body.append(
            el(
                "text",
                label,
                x=lx,
                y=ly,
                font_size=LABEL,
                font_weight="bold",
                fill=INK,
                text_anchor=anchor,
                class_="label",
            )
        )
    preview = view.get("preview")
    if preview:  # a move not yet given: its path, its stop, and the gun positions that would answer it
        for gun in preview["guns"]:
            body.append(
                el(
                    "circle",
                    cx=X(gun["x"]),
                    cy=Y(gun["y"]),
                    r=ATTACK_RANGE * SCALE,
                    fill="none",
                    stroke=VERMILLION,
                    stroke_width=1.5,
                    stroke_dasharray="5 3",
                )
            )
            body.append(
                el(
                    "text",
                    f"{gun['bomber']} {gun['gun']}",
                    x=X(gun["x"]) + 3,
                    y=Y(gun["y"]) - 3,
                    font_size=LABEL - 4,
                    fill=VERMILLION,
                )
            )
        line = " ".join(f"{X(x):.1f},{Y(y):.1f}" for x, y in preview["path"])
        body.append(
            el("polyline", points=line, fill="none", stroke=VERMILLION, stroke_width=2.5, stroke_dasharray="8 4")
        )
        ex, ey = preview["path"][-1]
        body.append(el("circle", cx=X(ex), cy=Y(ey), r=5, fill="white", stroke=VERMILLION, stroke_width=2))
        if preview["stop"]:
            sx, sy = preview["stop"]
            body.append(el("circle", cx=X(sx), cy=Y(sy), r=6, fill=VERMILLION, stroke=INK, stroke_width=1))
            body.append(
                el(
                    "text",
                    f"attacks {preview['target']}",
                    x=X(sx) + 8,
                    y=Y(sy) + 14,
                    font_size=LABEL - 1,
                    fill=VERMILLION,
                    font_weight="bold",
                )
            )
        caption = f"preview (not given): {preview['order']}" + (" - LEAVES THE TABLE" if preview["leaves"] else "")
        body.append(
            el("text", caption, x=X(0), y=Y(TABLE_WIDTH) - 6, font_size=11, fill=VERMILLION, font_weight="bold")
        )
    phase = PHASES.get(view["phase"], view["phase"])
    seat = view.get("seat")
    title = f"B-17 raid - turn {view['turn']}, {phase}" + (f" - view of {seat}" if seat else "")
    lost = sum(1 for a in aircraft if a["kind"] == "bomber" and a["status"] == "destroyed")
    downed = sum(1 for a in aircraft if a["kind"] == "fighter" and a["status"] == "destroyed")
    line = (
        f"bomb hits {view['hits']} (target damage: {damage_grade(view['hits'])}) - bombers lost {lost} - "
        f"fighters lost {downed}"
    )
    body.insert(0, el("text", title, x=MARGIN, y=26, font_size=17, font_weight="bold", fill=INK))
    body.insert(1, el("text", line, x=MARGIN, y=46, font_size=12, fill=INK))
    outcome = view.get("outcome")
    if outcome:
        winner = f"{outcome['winner']} win" if outcome["outcome"] == "win" else outcome["outcome"]
        body.insert(
            2,
            el(
                "text",
                f"RESULT: {winner} on turn {outcome['turn']} ({outcome['reason']})",
                x=MARGIN,
                y=64,
                font_size=12,
                font_weight="bold",
                fill=INK,
            ),
        )
    ly = Y(0) + 40
    legend = [
        el("text", "Legend:", x=MARGIN, y=ly, font_size=11, font_weight="bold", fill=INK),
        el("rect", x=MARGIN + 60, y=ly - 9, width=18, height=10, fill=SKY, stroke=INK),
        el("text", "B-17", x=MARGIN + 82, y=ly, font_size=10, fill=INK),
        el("rect", x=MARGIN + 120, y=ly - 9, width=18, height=10, fill=ORANGE, stroke=INK),
        el("text", "fighter", x=MARGIN + 142, y=ly, font_size=10, fill=INK),
        el("line", x1=MARGIN + 190, y1=ly - 4, x2=MARGIN + 210, y2=ly - 4, stroke="#555555", stroke_width=3),
        el("text", "smoke: a damaged engine", x=MARGIN + 214, y=ly, font_size=10, fill=INK),
        el("circle", cx=MARGIN + 370, cy=ly - 4, r=7, fill="none", stroke=BLUE, stroke_dasharray="3 3"),
        el("text", '4" from a gun position', x=MARGIN + 382, y=ly, font_size=10, fill=INK),
        el("path", d=f"M{MARGIN + 520:.1f},{ly - 9:.1f} l10,10 m0,-10 l-10,10", stroke=GREY, stroke_width=2),
        el("text", "destroyed or off the table", x=MARGIN + 536, y=ly, font_size=10, fill=INK),
        heading_arrow(MARGIN + 680, ly - 4, MARGIN + 704, ly - 4),
        el("text", "heading", x=MARGIN + 710, y=ly, font_size=10, fill=INK),
    ]
    return document(MARGIN * 2 + TABLE_LENGTH * SCALE, ly + 20, body + legend, title)
