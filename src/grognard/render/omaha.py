"""The Omaha beach drawn from a seat's view, as SVG.

Seen from above with the sea at the bottom and the bunkers at the top; 10 px
to the inch. Colours are the Okabe-Ito set (grounds are light tints of it)
and greys, safe for colour-blind eyes, and every state is also told by shape
or text (a silenced bunker is hollow and says so, a destroyed one is crossed
out), so the picture prints in grey.
"""

from __future__ import annotations

from typing import Any

from grognard.core.errors import OptionError
from grognard.render.svg import document, el
from grognard.rulesets.omaha.describe import PHASES

SCALE = 10.0  # px per inch
MARGIN = 84.0
TOP = 96.0  # px from the top of the picture to the back edge of the table
ORANGE, SKY, GREEN, YELLOW, BLUE, VERMILLION, PURPLE = (
    "#E69F00",
    "#56B4E9",
    "#009E73",
    "#F0E442",
    "#0072B2",
    "#D55E00",
    "#CC79A7",
)


def tint(colour: str, amount: float) -> str:
    """``colour`` washed out with white, keeping ``amount`` of it: a light ground of the same Okabe-Ito hue.

    >>> tint("#56B4E9", 1.0), tint("#56B4E9", 0.0)
    ('#56B4E9', '#FFFFFF')
    """
    channels = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(255 - amount * (255 - c)):02X}" for c in channels)


# grounds are tints of the palette, lines and marks are the palette itself or greys
SAND, WATER, BAND = tint(ORANGE, 0.22), tint(SKY, 0.38), tint(ORANGE, 0.38)
GROUND, INK, DIVIDER, FAINT = "#E4E4E4", "#222222", "#7A7A7A", "#555555"


def unit(width: float) -> float:
    """How much larger than on a small beach the labels and marks of a beach ``width`` inches wide are drawn.

    1 up to 55.2" (two German players); beyond, the picture's width over that of a small beach (760 px), so
    that a picture shown across a screen has its labels the same size on the screen whatever the number of
    seats (28 seats: 3.04, and a squad's label on a 1366 px projector is 16 px high, not 5).

    >>> unit(48.0), unit(168.0)
    (1.0, 3.04...)
    """
    return max(1.0, width * SCALE / (760.0 - 2 * MARGIN - 40.0))


def render(view: dict[str, Any]) -> str:
    """The board of an Omaha view (``OmahaGame.view(seat)``) as an SVG document (str).

    The table is at 10 px to the inch with its left back corner at (MARGIN, TOP) whatever its size (the
    page's rings and picks rely on it); on a wide beach the labels, marks and margins are ``unit(width)``
    times larger and the picture reaches left of and above the origin (a viewBox from negative x and y).
    """
    width = float(view["width"])
    water = float(view["options"]["water"])
    ground = float(view["options"]["ground"])
    top = 28.0 + ground
    u = unit(width)
    left, upper = MARGIN * (1 - u), TOP * (1 - u)  # the picture's top left corner
    body: list[str] = []

    def X(x: float) -> float:
        return MARGIN + x * SCALE

    def Y(y: float) -> float:
        return TOP + (top - y) * SCALE

    def band(y0: float, y1: float, fill: str, name: str) -> None:
        body.append(el("rect", x=X(0), y=Y(y1), width=width * SCALE, height=(y1 - y0) * SCALE, fill=fill))
        middle = (Y(y0) + Y(y1)) / 2 + 4 * u
        body.append(el("text", name, x=X(0) - 6 * u, y=middle, font_size=11 * u, text_anchor="end", fill=INK))

    band(-water, 0, WATER, "water")
    band(0, 24, SAND, "beach")
    band(24, 28, BAND, "obstacles")
    band(28, top, GROUND, "bunkers")
    # landing zones, in the water
    for zone in range(len(view["americans"]) + 1):
        body.append(
            el(
                "line",
                x1=X(zone * 8),
                y1=Y(0),
                x2=X(zone * 8),
                y2=Y(-water),
                stroke=BLUE,
                stroke_width=1,
                stroke_dasharray="4 3",
            )
        )
    for player in view["americans"]:
        zone = int(player["zone"])
        body.append(
            el(
                "text",
                f"Z{zone + 1}",
                x=X(zone * 8 + 4),
                y=Y(-water) + 14 * u,
                font_size=10 * u,
                text_anchor="middle",
                fill=BLUE,
            )
        )
    body.append(el("line", x1=X(0), y1=Y(0), x2=X(width), y2=Y(0), stroke=BLUE, stroke_width=2))
    body.append(el("text", "water line", x=X(width) + 6 * u, y=Y(0) + 4 * u, font_size=10 * u, fill=BLUE))
    # obstacle sections (6" wide: their marks grow less, to stay inside)
    uo = min(u, 1.6)
    for index, count in enumerate(view["obstacles"]):
        left_edge = index * 6.0
        body.append(el("line", x1=X(left_edge), y1=Y(24), x2=X(left_edge), y2=Y(28), stroke=DIVIDER, stroke_width=1))
        cx, cy = X(left_edge + 3), Y(26)
        if count is None:
            body.append(el("text", "?", x=cx, y=cy + 5 * uo, font_size=14 * uo, text_anchor="middle", fill=INK))
        elif count == 0:
            body.append(
                el(
                    "text",
                    "clear",
                    x=cx,
                    y=cy + 4 * uo,
                    font_size=10 * uo,
                    text_anchor="middle",
                    fill=GREEN,
                    font_weight="bold",
                )
            )
        else:
            for k in range(count):
                ox = cx + (k - (count - 1) / 2) * 14 * uo
                d, half = 10 * uo, 5 * uo
                body.append(
                    el(
                        "path",
                        d=f"M{ox - half:.1f},{cy - half:.1f} l{d:g},{d:g} m0,-{d:g} l-{d:g},{d:g}",
                        stroke=INK,
                        stroke_width=2.2 * uo,
                    )
                )
        body.append(el("text", f"O{index + 1}", x=X(left_edge) + 2, y=Y(28) + 10 * uo, font_size=8 * uo, fill=FAINT))
    # the sea wall
    body.append(el("line", x1=X(0), y1=Y(24), x2=X(width), y2=Y(24), stroke=INK, stroke_width=4))
    body.append(el("text", "sea wall", x=X(width) + 6 * u, y=Y(24) + 4 * u, font_size=10 * u, fill=INK))
    # bunker sections and bunkers
    sections = round(width / 8)
    for section in range(sections + 1):
        body.append(
            el(
                "line",
                x1=X(section * 8),
                y1=Y(28),
                x2=X(section * 8),
                y2=Y(top),
                stroke="#9A9A9A",
                stroke_width=1,
                stroke_dasharray="2 3",
            )
        )
    exits = {e["bunker"]: e for e in view.get("exits", [])}
    for bunker in view["bunkers"]:
        cx = bunker["section"] * 8 + 4
        x0, y0, w, h = bunker_box(cx, ground, u, X, Y)
        status = bunker["status"]
        active = status == "active"
        text = f"{bunker['label']} {bunker['defenders']}" if status in ("active", "silenced") else bunker["label"]
        size = min(10 * u, max(10.0, 0.9 * w / (0.62 * len(text))))  # the label stays inside its box
        if status in ("active", "silenced"):  # silenced: hollow, no defenders left
            body.append(
                el(
                    "rect",
                    x=x0,
                    y=y0,
                    width=w,
                    height=h,
                    fill="#4D4D4D" if active else "white",
                    stroke=INK,
                    stroke_width=1.5,
                )
            )
        else:
            body.append(
                el(
                    "rect",
                    x=x0,
                    y=y0,
                    width=w,
                    height=h,
                    fill="white",
                    stroke=INK,
                    stroke_width=1.5,
                    stroke_dasharray="3 2",
                )
            )
            body.append(
                el(
                    "path",
                    d=f"M{x0:.1f},{y0:.1f} l{w:.1f},{h:.1f} m0,-{h:.1f} l-{w:.1f},{h:.1f}",
                    stroke=VERMILLION,
                    stroke_width=2.5,
                )
            )
        body.append(
            el(
                "text",
                text,
                x=X(cx),
                y=y0 + h / 2 + 0.4 * size,
                font_size=size,
                text_anchor="middle",
                fill="white" if active else INK,
                font_weight=None if status == "silenced" else "bold",
            )
        )
        above = y0  # the top of what is drawn for this bunker so far
        if not active:
            status_size = min(8 * u, 0.95 * 8 * SCALE / (0.6 * len(status)))
            body.append(
                el("text", status, x=X(cx), y=y0 - 3 * u, font_size=status_size, text_anchor="middle", fill=INK)
            )
            above = y0 - 3 * u - 0.75 * status_size
        exit_ = exits.get(bunker["label"])
        if exit_ and exit_["open"]:  # a green arrow with EXIT over it, above the bunker
            ax, ay = X(cx), min(Y(top) - 6 * u, above - 2 * u)
            body.append(
                el(
                    "path",
                    d=f"M{ax - 9 * u:.1f},{ay:.1f} l{9 * u:g},{-10 * u:g} l{9 * u:g},{10 * u:g} z",
                    fill=GREEN,
                    stroke=INK,
                    stroke_width=1,
                )
            )
            body.append(
                el(
                    "text",
                    "EXIT",
                    x=ax,
                    y=ay - 12 * u,
                    font_size=9 * u,
                    text_anchor="middle",
                    fill=GREEN,
                    font_weight="bold",
                )
            )
    # markers
    for marker in view.get("markers", []):
        mx, my = X(marker["x"]), Y(marker["y"])
        if marker["kind"] == "crater":
            body.append(
                el(
                    "circle",
                    cx=mx + 8 * u,
                    cy=my + 8 * u,
                    r=3.5 * u,
                    fill="#555555",
                    stroke=INK,
                    stroke_width=1,
                    opacity=0.7,
                )
            )
        else:
            d = 4 * u
            body.append(
                el(
                    "path",
                    d=f"M{mx - 12 * u:.1f},{my + 8 * u:.1f} l{d:g},-{d:g} l{d:g},{d:g} l-{d:g},{d:g} z",
                    fill=VERMILLION,
                    stroke=INK,
                    stroke_width=0.6,
                    opacity=0.8,
                )
            )
    # squads: the figures left in the circle, the name above it (clear of the page's ring; within its 8" zone)
    for player in view["americans"]:
        squad = player["squad"]
        if squad is None:
            continue
        sx, sy = X(squad["x"]), Y(squad["y"])
        body.append(el("circle", cx=sx, cy=sy, r=9 * u, fill=ORANGE, stroke=INK, stroke_width=1.5 * u))
        body.append(
            el(
                "text",
                str(squad["figures"]),
                x=sx,
                y=sy + 4 * u,
                font_size=10 * u,
                text_anchor="middle",
                fill=INK,
                font_weight="bold",
            )
        )
        label = squad["label"]
        wide = (6.5 * len(label) + 4) * u
        body.append(
            el("rect", x=sx - wide / 2, y=sy - 27 * u, width=wide, height=11 * u, fill="white", opacity=0.85, rx=2)
        )
        body.append(
            el("text", label, x=sx, y=sy - 18 * u, font_size=9 * u, text_anchor="middle", fill=INK, font_weight="bold")
        )
    body += _focus(view, X, Y, u)
    # title and figures
    phase = PHASES.get(view["phase"], view["phase"])
    seat = view.get("seat")
    title = f"Omaha Beach - turn {view['turn']}, {phase}" + (f" - view of {seat}" if seat else "")
    stats = view["stats"]
    knocked = sum(1 for b in view["bunkers"] if b["status"] != "active")
    line = (
        f"exits open {len(view['exits_open'])} of {len(view['bunkers'])} - bunkers knocked out {knocked} - "
        f"American losses {stats['american_losses']} - German losses {stats['german_losses']} - "
        f"squads sent back {stats['sent_back']}"
    )
    outcome = view.get("outcome")
    body.insert(0, el("text", title, x=MARGIN, y=upper + 26 * u, font_size=17 * u, font_weight="bold", fill=INK))
    body.insert(1, el("text", line, x=MARGIN, y=upper + 46 * u, font_size=12 * u, fill=INK))
    if outcome:  # a line of its own: on the line above it ran off the picture of a small beach
        winner = f"{outcome['winner']} win" if outcome["outcome"] == "win" else outcome["outcome"]
        result = f"RESULT: {winner} on turn {outcome['turn']} ({outcome['reason']})"
        body.insert(2, el("text", result, x=MARGIN, y=upper + 64 * u, font_size=12 * u, font_weight="bold", fill=INK))
    # legend
    total_width = max(MARGIN * 2 * u + width * SCALE + 40 * u, 760)
    ly = Y(-water) + 34 * u
    items, bottom = _legend(MARGIN, ly, left + total_width - 40 * u, u)
    return document(total_width, bottom + 16 * u - upper, body + items, title, origin=(left, upper), unit=u)


def bunker_box(cx: float, ground: float, u: float, X: Any, Y: Any) -> tuple[float, float, float, float]:
    """The box of the bunker centred ``cx`` inches along: (x, y, width, height) in px; 3" by 2" on a small
    beach, ``u`` times that on a wide one, but inside its 8" section and the bunker ground."""
    w = min(3.0 * u, 7.4) * SCALE
    h = min(2.0 * u, ground - 0.4) * SCALE
    return X(cx) - w / 2, Y(30) - h / 2, w, h


def _focus(view: dict[str, Any], X: Any, Y: Any, u: float = 1.0) -> list[str]:
    """A bold ring round the squad or bunker ``view["focus"]`` names (``--focus A3``, ``--focus B2``).

    Raises OptionError naming the squads and bunkers when the game has no such label.
    """
    focus = view.get("focus")
    if not focus:
        return []
    squads = {p["label"]: p["squad"] for p in view["americans"]}
    bunkers = {b["label"]: b for b in view["bunkers"]}
    if focus not in squads and focus not in bunkers:
        labels = list(squads)
        shown = f"squads {labels[0]} to {labels[-1]}" if len(labels) > 2 else "squads " + ", ".join(labels)
        if bunkers:
            shown += "; bunkers " + ", ".join(sorted(bunkers, key=lambda b: int(b[1:])))
        raise OptionError(f"--focus {focus}: no squad or bunker {focus} in this game ({shown})")
    ring = {"fill": "none", "stroke": PURPLE, "stroke_width": 3.5, "stroke_dasharray": "5 3"}
    if focus in bunkers:
        x0, y0, w, h = bunker_box(bunkers[focus]["section"] * 8 + 4, float(view["options"]["ground"]), u, X, Y)
        return [el("rect", x=x0 - 6 * u, y=y0 - 6 * u, width=w + 12 * u, height=h + 12 * u, **ring)]
    squad = squads[focus]
    if squad is None:  # not on the beach now (still at sea, or out of the game)
        return []
    return [el("circle", cx=X(squad["x"]), cy=Y(squad["y"]), r=15 * u, **ring)]


def _legend(x: float, y: float, right: float, u: float = 1.0) -> tuple[list[str], float]:
    """The legend from (x, y), wrapping before ``right``, ``u`` times the small beach's size; returns the
    elements and the last row's y."""
    out = [el("text", "Legend:", x=x, y=y + 4 * u, font_size=11 * u, font_weight="bold", fill=INK)]
    cx = x + 60 * u

    def label(text: str) -> None:
        nonlocal cx, y
        out.append(el("text", text, x=cx, y=y + 4 * u, font_size=10 * u, fill=INK))
        cx += (7 * len(text) + 22) * u
        if cx > right - 160 * u:
            cx, y = x + 60 * u, y + 24 * u

    def box(**kw: Any) -> None:
        out.append(el("rect", x=cx, y=y - 7 * u, width=22 * u, height=14 * u, stroke=INK, **kw))

    out.append(el("circle", cx=cx, cy=y, r=8 * u, fill=ORANGE, stroke=INK))
    out.append(el("text", "9", x=cx, y=y + 4 * u, font_size=9 * u, text_anchor="middle", font_weight="bold"))
    cx += 14 * u
    label("squad (figures)")
    box(fill="#4D4D4D")
    cx += 28 * u
    label("bunker (defenders)")
    box(fill="white")
    cx += 28 * u
    label("silenced")
    box(fill="white", stroke_dasharray="3 2")
    a, b = 22 * u, 14 * u
    out.append(
        el(
            "path",
            d=f"M{cx:.1f},{y - 7 * u:.1f} l{a:g},{b:g} m0,-{b:g} l-{a:g},{b:g}",
            stroke=VERMILLION,
            stroke_width=2,
        )
    )
    cx += 28 * u
    label("destroyed")
    d = 10 * u
    out.append(
        el(
            "path",
            d=f"M{cx:.1f},{y - 5 * u:.1f} l{d:g},{d:g} m0,-{d:g} l-{d:g},{d:g}",
            stroke=INK,
            stroke_width=2.2 * u,
        )
    )
    cx += 16 * u
    label("obstacle")
    out.append(
        el(
            "path",
            d=f"M{cx:.1f},{y + 5 * u:.1f} l{9 * u:g},{-10 * u:g} l{9 * u:g},{10 * u:g} z",
            fill=GREEN,
            stroke=INK,
        )
    )
    cx += 24 * u
    label("exit open")
    out.append(el("circle", cx=cx + 5 * u, cy=y, r=5 * u, fill="#555555", stroke=INK, stroke_width=1.5))
    cx += 16 * u
    label("crater")
    out.append(
        el(
            "path",
            d=f"M{cx:.1f},{y:.1f} l{5 * u:g},{-5 * u:g} l{5 * u:g},{5 * u:g} l{-5 * u:g},{5 * u:g} z",
            fill=VERMILLION,
            stroke=INK,
        )
    )
    cx += 16 * u
    label("casualty marker")
    return out, y
