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


def render(view: dict[str, Any]) -> str:
    """The board of an Omaha view (``OmahaGame.view(seat)``) as an SVG document (str)."""
    width = float(view["width"])
    water = float(view["options"]["water"])
    top = 28.0 + float(view["options"]["ground"])
    body: list[str] = []

    def X(x: float) -> float:
        return MARGIN + x * SCALE

    def Y(y: float) -> float:
        return TOP + (top - y) * SCALE

    def band(y0: float, y1: float, fill: str, name: str) -> None:
        body.append(el("rect", x=X(0), y=Y(y1), width=width * SCALE, height=(y1 - y0) * SCALE, fill=fill))
        body.append(el("text", name, x=X(0) - 6, y=(Y(y0) + Y(y1)) / 2 + 4, font_size=11, text_anchor="end", fill=INK))

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
                y=Y(-water) + 14,
                font_size=10,
                text_anchor="middle",
                fill=BLUE,
            )
        )
    body.append(el("line", x1=X(0), y1=Y(0), x2=X(width), y2=Y(0), stroke=BLUE, stroke_width=2))
    body.append(el("text", "water line", x=X(width) + 6, y=Y(0) + 4, font_size=10, fill=BLUE))
    # obstacle sections
    for index, count in enumerate(view["obstacles"]):
        left = index * 6.0
        body.append(el("line", x1=X(left), y1=Y(24), x2=X(left), y2=Y(28), stroke=DIVIDER, stroke_width=1))
        cx, cy = X(left + 3), Y(26)
        if count is None:
            body.append(el("text", "?", x=cx, y=cy + 5, font_size=14, text_anchor="middle", fill=INK))
        elif count == 0:
            body.append(
                el("text", "clear", x=cx, y=cy + 4, font_size=10, text_anchor="middle", fill=GREEN, font_weight="bold")
            )
        else:
            for k in range(count):
                ox = cx + (k - (count - 1) / 2) * 14
                body.append(
                    el("path", d=f"M{ox - 5:.1f},{cy - 5:.1f} l10,10 m0,-10 l-10,10", stroke=INK, stroke_width=2.2)
                )
        body.append(el("text", f"O{index + 1}", x=X(left) + 2, y=Y(28) + 10, font_size=8, fill=FAINT))
    # the sea wall
    body.append(el("line", x1=X(0), y1=Y(24), x2=X(width), y2=Y(24), stroke=INK, stroke_width=4))
    body.append(el("text", "sea wall", x=X(width) + 6, y=Y(24) + 4, font_size=10, fill=INK))
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
        x0, y0 = X(cx - 1.5), Y(31)
        w, h = 3 * SCALE, 2 * SCALE
        status = bunker["status"]
        if status in ("active", "silenced"):  # silenced: hollow, no defenders left
            active = status == "active"
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
            body.append(
                el(
                    "text",
                    f"{bunker['label']} {bunker['defenders']}",
                    x=X(cx),
                    y=y0 + h / 2 + 4,
                    font_size=10,
                    text_anchor="middle",
                    fill="white" if active else INK,
                    font_weight="bold" if active else None,
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
                    bunker["label"],
                    x=X(cx),
                    y=y0 + h / 2 + 4,
                    font_size=10,
                    text_anchor="middle",
                    fill=INK,
                    font_weight="bold",
                )
            )
        if status != "active":
            body.append(el("text", status, x=X(cx), y=y0 - 3, font_size=8, text_anchor="middle", fill=INK))
        exit_ = exits.get(bunker["label"])
        if exit_ and exit_["open"]:
            ax, ay = X(cx), Y(top) - 6
            body.append(el("path", d=f"M{ax - 9:.1f},{ay:.1f} l9,-10 l9,10 z", fill=GREEN, stroke=INK, stroke_width=1))
            body.append(el("text", "EXIT", x=ax + 12, y=ay - 1, font_size=9, fill=GREEN, font_weight="bold"))
    # markers
    for marker in view.get("markers", []):
        mx, my = X(marker["x"]), Y(marker["y"])
        if marker["kind"] == "crater":
            body.append(
                el("circle", cx=mx + 8, cy=my + 8, r=3.5, fill="#555555", stroke=INK, stroke_width=1, opacity=0.7)
            )
        else:
            body.append(
                el(
                    "path",
                    d=f"M{mx - 12:.1f},{my + 8:.1f} l4,-4 l4,4 l-4,4 z",
                    fill=VERMILLION,
                    stroke=INK,
                    stroke_width=0.6,
                    opacity=0.8,
                )
            )
    # squads
    for player in view["americans"]:
        squad = player["squad"]
        if squad is None:
            continue
        sx, sy = X(squad["x"]), Y(squad["y"])
        body.append(el("circle", cx=sx, cy=sy, r=9, fill=ORANGE, stroke=INK, stroke_width=1.5))
        body.append(
            el(
                "text",
                str(squad["figures"]),
                x=sx,
                y=sy + 4,
                font_size=10,
                text_anchor="middle",
                fill=INK,
                font_weight="bold",
            )
        )
        label = squad["label"]
        body.append(
            el("rect", x=sx + 8, y=sy - 16, width=6 * len(label) + 4, height=11, fill="white", opacity=0.85, rx=2)
        )
        body.append(el("text", label, x=sx + 10, y=sy - 7, font_size=9, fill=INK, font_weight="bold"))
    body += _focus(view, X, Y)
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
    body.insert(0, el("text", title, x=MARGIN, y=26, font_size=17, font_weight="bold", fill=INK))
    body.insert(1, el("text", line, x=MARGIN, y=46, font_size=12, fill=INK))
    if outcome:  # a line of its own: on the line above it ran off the picture of a small beach
        winner = f"{outcome['winner']} win" if outcome["outcome"] == "win" else outcome["outcome"]
        result = f"RESULT: {winner} on turn {outcome['turn']} ({outcome['reason']})"
        body.insert(2, el("text", result, x=MARGIN, y=64, font_size=12, font_weight="bold", fill=INK))
    # legend
    total_width = max(MARGIN * 2 + width * SCALE + 40, 760)
    ly = Y(-water) + 34
    items, bottom = _legend(MARGIN, ly, total_width - 40)
    return document(total_width, bottom + 24, body + items, title)


def _focus(view: dict[str, Any], X: Any, Y: Any) -> list[str]:
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
        cx = bunkers[focus]["section"] * 8 + 4
        return [el("rect", x=X(cx - 1.5) - 6, y=Y(31) - 6, width=3 * SCALE + 12, height=2 * SCALE + 12, **ring)]
    squad = squads[focus]
    if squad is None:  # not on the beach now (still at sea, or out of the game)
        return []
    return [el("circle", cx=X(squad["x"]), cy=Y(squad["y"]), r=15, **ring)]


def _legend(x: float, y: float, right: float) -> tuple[list[str], float]:
    """The legend from (x, y), wrapping before ``right``; returns the elements and the last row's y."""
    out = [el("text", "Legend:", x=x, y=y + 4, font_size=11, font_weight="bold", fill=INK)]
    cx = x + 60

    def label(text: str) -> None:
        nonlocal cx, y
        out.append(el("text", text, x=cx, y=y + 4, font_size=10, fill=INK))
        cx += 7 * len(text) + 22
        if cx > right - 160:
            cx, y = x + 60, y + 24

    out.append(el("circle", cx=cx, cy=y, r=8, fill=ORANGE, stroke=INK))
    out.append(el("text", "9", x=cx, y=y + 4, font_size=9, text_anchor="middle", font_weight="bold"))
    cx += 14
    label("squad (figures)")
    out.append(el("rect", x=cx, y=y - 7, width=22, height=14, fill="#4D4D4D", stroke=INK))
    cx += 28
    label("bunker (defenders)")
    out.append(el("rect", x=cx, y=y - 7, width=22, height=14, fill="white", stroke=INK))
    cx += 28
    label("silenced")
    out.append(el("rect", x=cx, y=y - 7, width=22, height=14, fill="white", stroke=INK, stroke_dasharray="3 2"))
    out.append(el("path", d=f"M{cx:.1f},{y - 7:.1f} l22,14 m0,-14 l-22,14", stroke=VERMILLION, stroke_width=2))
    cx += 28
    label("destroyed")
    out.append(el("path", d=f"M{cx:.1f},{y - 5:.1f} l10,10 m0,-10 l-10,10", stroke=INK, stroke_width=2.2))
    cx += 16
    label("obstacle")
    out.append(el("path", d=f"M{cx:.1f},{y + 5:.1f} l9,-10 l9,10 z", fill=GREEN, stroke=INK))
    cx += 24
    label("exit open")
    out.append(el("circle", cx=cx + 5, cy=y, r=5, fill="#555555", stroke=INK, stroke_width=1.5))
    cx += 16
    label("crater")
    out.append(el("path", d=f"M{cx:.1f},{y:.1f} l5,-5 l5,5 l-5,5 z", fill=VERMILLION, stroke=INK))
    cx += 16
    label("casualty marker")
    return out, y
