"""The one painter: a face's scene (docs/FACE-CONTRACT.md, table inches, y up) as a standalone SVG that looks
like the browser's table (``web/static/table.js`` draws the same scene; the look is read from its files by
``render/look.py``). ``grognard render``, ``replay --draw``, the terminal's ``draw``, the web's fallback picture
and the printed sheets all draw through it.

It paints each word where the scene puts it (``core.placement`` placed them when the face built the scene), at
the scene's size, and places nothing; a scene's marks are painted at their size too, as the page does. What is
about paper, not the table, is its own: a heading (the rule set, the turn, the phase, the figures), the key as a
row of swatches above the table, a preview's caption, and the margins. The picture is in pixels (``scale`` a
table inch; strokes in pixels as the page's are), so any SVG viewer and CairoSVG (the PNG) draw it alike.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

from grognard.core.face import GLYPHS
from grognard.core.placement import place
from grognard.render.look import patterns, side_colours, table_css
from grognard.render.svg import el

MIN_TEXT, MIN_MARK = 12.0, 9.0  # pixels: the least a preview's word, a ring (table.js's minText, minMark)
# a standing man (the marker ``man``) in half-heights about his middle, y down: body, then head (table.js's marker)
_MAN: list[str | tuple[float, float]] = ["M", (-0.55, 1), "L", (0.55, 1), "L", (0.55, -0.1), "Q", (0.55, -0.32)]
_MAN += [(0.25, -0.32), "L", (-0.25, -0.32), "Q", (-0.55, -0.32), (-0.55, -0.1), "Z", "M", (-0.3, -0.66)]
_MAN += ["A", (0.3, -0.66), "A", (-0.3, -0.66), "Z"]  # "A": an arc of the head's radius, 0.3
FONT = "DejaVu Sans, Arial, sans-serif"
Scene = dict[str, Any]


def scale_for(width: float, height: float, most: tuple[float, float] = (1400.0, 1000.0)) -> float:
    """Pixels a table inch: the table as large as fits in ``most`` (width, height) pixels.

    >>> scale_for(48, 48), scale_for(144, 38)
    (20.833333333333332, 9.722222222222221)
    """
    return min(most[0] / width, most[1] / height)


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


class Painter:
    """One scene painted at ``scale`` pixels an inch, ``top`` pixels of heading and key above the table."""

    def __init__(self, scene: Scene, sides: Sequence[str], scale: float, top: float) -> None:
        self.x0, self.y0 = float(scene.get("x0", 0.0)), float(scene.get("y0", 0.0))
        self.width, self.height = float(scene["width"]), float(scene["height"])
        self.k = scale
        self.unit = float(scene.get("unit") or math.sqrt(self.width * self.height) / 50)  # inches: the words' u
        self.least = 1 / scale  # inches: one pixel
        self.pad = self.unit * 1.2 * scale  # pixels: a margin for the words at the table's edges
        self.top = top
        self.sides = list(sides)

    # --- where: table inches to the picture's pixels
    def X(self, x: float) -> float:
        return self.pad + (x - self.x0) * self.k

    def Y(self, y: float) -> float:
        return self.top + self.pad + (self.y0 + self.height - y) * self.k

    def px(self, inches: float) -> float:
        return inches * self.k

    def points(self, points: Iterable[Sequence[float]]) -> str:
        return " ".join(f"{_num(self.X(p[0]))},{_num(self.Y(p[1]))}" for p in points)

    def colour(self, side: Any) -> str | None:
        if side not in self.sides:
            return None
        colours = side_colours()
        return colours[self.sides.index(side) % len(colours)]

    def text_size(self, size: float = 1.0) -> float:
        """Pixels: a preview's word of ``size`` times the unit, never under the least the page draws it."""
        return max(self.px(self.unit * size), 0.9 * MIN_TEXT)

    # --- what: one shape, as shapeNode draws it
    def shape(self, s: dict[str, Any]) -> str:
        classes = "t-" + str(s.get("cls") or s["kind"])
        classes += f" s-{s['state']}" if s.get("state") else ""
        classes += " mine" if s.get("cls") == "ring" else ""
        classes += " unit" if s.get("id") or s.get("of") else ""
        parts = [self.leader(s), self.main(s)]
        if s.get("title"):
            parts.append(el("title", str(s["title"])))
        parts += self.extras(s)
        head = f'<g class="{classes}"' + (f' data-id="{_attr(s["id"])}"' if s.get("id") else "")
        head += (f' data-of="{_attr(s["of"])}"' if s.get("of") else "") + ">"
        return head + "".join(p for p in parts if p) + "</g>"

    def main(self, s: dict[str, Any]) -> str:
        kind, fill = s["kind"], self.colour(s.get("side"))
        if kind == "rect":
            x, y, w, h = float(s["x"]), float(s["y"]), float(s["w"]), float(s["h"])
            rx = self.px(s["rx"]) if s.get("rx") else None
            return el("rect", x=self.X(x), y=self.Y(y + h), width=self.px(w), height=self.px(h), rx=rx, fill=fill)
        if kind == "circle":
            r = float(s["r"])
            r = max(r, (MIN_MARK + 5) * self.least) if s.get("cls") == "ring" else r
            return el("circle", cx=self.X(s["x"]), cy=self.Y(s["y"]), r=self.px(r), fill=fill)
        if kind in ("polygon", "polyline"):
            return el(kind, points=self.points(s["points"]), fill=fill)
        if kind == "figure" and s.get("glyph"):
            return self.base(s)
        if kind == "figure":  # at its size, a unit's as a man of a group's (the placement measured it so)
            r = float(s.get("r", 0.5))
            return self.marker(str(s.get("marker") or "circle"), s["x"], s["y"], self.px(r), fill=fill)
        if kind == "text":
            x, y, size = self.X(s["x"]), self.Y(s["y"]), self.px(self.unit * float(s.get("size") or 1))
            turn = f"rotate({_num(float(s['rotate']))} {_num(x)} {_num(y)})" if s.get("rotate") else None
            anchor, inside = s.get("anchor") or "middle", s.get("word") == "inside"
            return self.words(str(s.get("text", "")), x, y, size, anchor, s.get("word"), not inside, turn)
        return ""

    def extras(self, s: dict[str, Any]) -> list[str]:
        """A polygon's side glyph and a heading's line (a shape's label and inner words are ``text`` shapes of
        their own once placed)."""
        out: list[str] = []
        kind = s["kind"]
        if kind == "polygon" and s.get("marker") and s.get("x") is not None:
            r = self.px(self.unit * 0.4)
            out.append(self.marker(str(s["marker"]), s["x"], s["y"], r, fill=self.colour(s.get("side")), cls="glyph"))
        if s.get("heading") is not None and s.get("x") is not None:
            a, reach = math.radians(float(s["heading"])), float(s.get("r") or self.unit) + self.unit * 1.6
            x, y = float(s["x"]), float(s["y"])
            end = (x + math.sin(a) * reach, y + math.cos(a) * reach)
            out.append(el("line", class_="heading", x1=self.X(x), y1=self.Y(y), x2=self.X(end[0]), y2=self.Y(end[1])))
        return out

    def leader(self, s: dict[str, Any]) -> str:
        """The thin line from the mark or place a word was moved off to the word (``leader``), or nothing."""
        if s["kind"] != "text" or not s.get("leader"):
            return ""
        (x1, y1), (x2, y2) = s["leader"]
        return el("line", class_="leader", x1=self.X(x1), y1=self.Y(y1), x2=self.X(x2), y2=self.Y(y2))

    def base_r(self, s: dict[str, Any]) -> float:
        """Inches: a man's base's radius as drawn, his true size, never under 5 pixels across."""
        return max(float(s.get("r", 0.5)), 2.5 * self.least)

    def base(self, s: dict[str, Any]) -> str:
        """A man on his round base (table.js ``base``): the base in his side's colour, thick-rimmed for a side
        whose marker is not the circle, his glyph (``core.face.GLYPHS``) on it. The glyph's box is scaled to the
        base, its stroke kept at the page's pixels (no viewer but a browser keeps a stroke unscaled)."""
        X, Y, r = self.X(s["x"]), self.Y(s["y"]), self.px(self.base_r(s))
        rimmed = s.get("marker") not in (None, "circle")
        out = el("circle", class_="base rimmed" if rimmed else "base", cx=X, cy=Y, r=r, fill=self.colour(s.get("side")))
        glyph = GLYPHS.get(str(s["glyph"]))
        if glyph:
            k = 0.8 * r
            width = (0.6 if glyph["fill"] else 1.6) / k
            out += el(
                "path",
                class_="glyph-mark filled" if glyph["fill"] else "glyph-mark",
                d=glyph["d"],
                transform=f"translate({_num(X)} {_num(Y)}) scale({_num(k)})",
                style=f"stroke-width: {width:.4f}px; vector-effect: none",
            )
        return out

    def key_man(self, item: dict[str, Any], x: float, y: float) -> str:
        """A key's man at pixel (x, y): a base 21 pixels across in his side's colour (grey for a glyph alone)."""
        rimmed = item.get("marker") not in (None, "circle")
        fill = self.colour(item.get("side")) or "#e6e6e6"
        out = el("circle", class_="base rimmed" if rimmed else "base", cx=x, cy=y, r=10.8, fill=fill)
        glyph = GLYPHS.get(str(item.get("glyph")))
        if glyph:
            width = (0.6 if glyph["fill"] else 1.6) / 8.6
            cls = "glyph-mark filled" if glyph["fill"] else "glyph-mark"
            turn = f"translate({_num(x)} {_num(y)}) scale(8.6)"
            out += el(
                "path",
                class_=cls,
                d=glyph["d"],
                transform=turn,
                style=f"stroke-width: {width:.4f}px; vector-effect: none",
            )
        return out

    def marker(self, kind: str, x: float, y: float, r: float, fill: str | None, cls: str | None = None) -> str:
        """A side's marker of half-size ``r`` pixels about table point (x, y) (table.js ``marker``)."""
        X, Y = self.X(x), self.Y(y)
        if kind == "man":  # a standing man, r his half-height: a head over shoulders and a body (table.js's)
            arc = f"A{_num(0.3 * r)} {_num(0.3 * r)} 0 1 0"
            d = " ".join(
                (arc if step == "A" else step)
                if isinstance(step, str)
                else f"{_num(X + step[0] * r)} {_num(Y + step[1] * r)}"
                for step in _MAN
            )
            return el("path", class_=cls, d=d, fill=fill)
        if kind == "square":
            return el("rect", class_=cls, x=X - r, y=Y - r, width=2 * r, height=2 * r, fill=fill)
        corners: list[tuple[float, float]] | None = {
            "triangle": [(0.0, -1.15), (1.0, 0.75), (-1.0, 0.75)],
            "diamond": [(0.0, -1.2), (1.2, 0.0), (0.0, 1.2), (-1.2, 0.0)],
        }.get(kind)
        if corners is None:
            return el("circle", class_=cls, cx=X, cy=Y, r=r, fill=fill)
        points = " ".join(f"{_num(X + a * r)},{_num(Y + b * r)}" for a, b in corners)
        return el("polygon", class_=cls, points=points, fill=fill)

    def words(
        self,
        text: str,
        x: float,
        y: float,
        size: float,
        anchor: str = "middle",
        cls: str | None = None,
        halo: bool = True,
        transform: str | None = None,
    ) -> str:
        """A word at pixel (x, y), with its white halo drawn under it (a copy: no viewer but a browser knows
        paint-order)."""
        attrs: dict[str, Any] = {"x": x, "y": y, "text_anchor": anchor, "font_size": size, "transform": transform}
        under = el("text", text, class_=f"{cls} halo" if cls else "halo", **attrs) if halo else ""
        return under + el("text", text, class_=cls, **attrs)

    # --- a preview drawn in (api.preview)
    def drawn(self, drawn: dict[str, Any]) -> list[str]:
        out: list[str] = []
        for ring in drawn.get("rings") or []:
            r = max(float(ring["r"]), (MIN_MARK + 4) * self.least) if ring.get("id") else float(ring["r"])
            cls = "p-ring under" if ring.get("id") else "p-ring"
            title = el("title", str(ring["title"])) if ring.get("title") else ""
            out.append(f'<g class="{cls}">' + el("circle", cx=self.X(ring["x"]), cy=self.Y(ring["y"]), r=self.px(r)))
            out[-1] += title + "</g>"
        out += [el("polyline", class_="p-trail", points=self.points(t)) for t in drawn.get("trails") or []]
        for shape in drawn.get("shapes") or []:
            title = el("title", str(shape["title"])) if shape.get("title") else ""
            out.append(f'<g class="p-shape">{el("polygon", points=self.points(shape.get("points") or []))}{title}</g>')
        for line in drawn.get("lines") or []:
            (x1, y1), (x2, y2) = line["from"], line["to"]
            cls = "p-line blocked" if line.get("blocked") else "p-line"
            drawn_line = el("line", x1=self.X(x1), y1=self.Y(y1), x2=self.X(x2), y2=self.Y(y2))
            title = el("title", str(line["title"])) if line.get("title") else ""
            out.append(f'<g class="{cls}">{drawn_line}{title}</g>')
        out += self.path(drawn)
        stop = drawn.get("stop")
        if stop:
            r = self.px(max(self.unit * 0.5, 6 * self.least))
            out.append(el("circle", class_="p-stop", cx=self.X(stop[0]), cy=self.Y(stop[1]), r=r))
            if drawn.get("target"):
                size = self.text_size()
                at = (self.X(stop[0]), self.Y(stop[1]) + 1.6 * size)
                out.append(self.words(f"attacks {drawn['target']}", *at, size, cls="p-label"))
        return out

    def path(self, drawn: dict[str, Any]) -> list[str]:
        path = drawn.get("path") or []
        if not path:
            return []
        refused = drawn.get("ok") is False
        out = [el("polyline", class_="p-path refused" if refused else "p-path", points=self.points(path))]
        end = path[-1]
        r = self.px(max(self.unit * 0.4, 5 * self.least))
        out.append(el("circle", class_="p-end", cx=self.X(end[0]), cy=self.Y(end[1]), r=r))
        words = "preview (not given)"
        if refused:
            words = "not allowed"
        elif drawn.get("length") is not None:
            left = f', {float(drawn["left"]):.1f}" left' if drawn.get("left") is not None else ""
            words = f'{float(drawn["length"]):.1f}" walked, costs {float(drawn["cost"]):.1f}"{left}'
        size = self.text_size()
        x = float(end[0]) - self.x0
        rightward = x < 0.6 * size * self.least * len(words) + 1.2 * size * self.least and self.width - x > x
        at = self.X(end[0]) + (0.6 if rightward else -0.6) * size, self.Y(end[1]) - size
        out.append(self.words(words, *at, size, anchor="start" if rightward else "end", cls="p-label"))
        return out

    # --- the key (drawKey): a swatch in each look and its name, in rows from (x, y) pixels
    def key(self, key: list[dict[str, Any]], x: float, y: float, right: float) -> tuple[list[str], float]:
        """The key's items in rows between ``x`` and ``right`` from ``y``; the elements and the next free y."""
        size = 13.0
        out = [self.words("Key:", x, y + 16, size, anchor="start", cls="caption")]
        at, line = x + 4.2 * size, y
        for item in key:
            name = str(item["name"])
            wide = 36 + 6 + len(name) * 0.62 * size + 14
            if at + wide > right and at > x + 4.2 * size:
                at, line = x + 4.2 * size, line + 30
            cls = "t-" + str(item["cls"]) + (f" s-{item['state']}" if item.get("state") else "")
            out.append(el("rect", class_="key-box", x=at, y=line, width=36, height=24))
            if item.get("glyph") or item.get("marker"):  # a man: his base, its rim, his glyph (table.js keyMan)
                look = self.key_man(item, at + 18, line + 12)
                cls = "t-figure"
            elif item["cls"] == "wire":
                look = el("polyline", points=f"{at + 2},{line + 12} {at + 34},{line + 12}")
            elif item["cls"] == "ground":
                look = el("rect", x=at + 1, y=line + 1, width=34, height=22)
            else:
                look = el(
                    "polygon",
                    points=f"{at + 1},{line + 1} {at + 35},{line + 1} {at + 35},{line + 23} {at + 1},{line + 23}",
                )
            out.append(f'<g class="key-swatch"><g class="{cls}">{look}</g></g>')
            out.append(self.words(name, at + 42, line + 17, size, anchor="start"))
            at += wide
        return out, line + 34

    def defs(self) -> str:
        """The terrain's textures (``url(#gt-wood)``...), table.js's PATTERNS at this scale."""
        out = ["<defs>"]
        for name, p in patterns().items():
            side = self.px(float(p["size"]))
            out.append(
                f'<pattern id="gt-{name}" patternUnits="userSpaceOnUse" width="{_num(side)}" height="{_num(side)}">'
            )
            out.append(el("rect", x=0, y=0, width=side, height=side, fill=p["bg"], stroke="none"))
            marks = "".join(  # a mark's own attributes (a filled ring of coiled wire) over the texture's
                el(
                    tag,
                    **(
                        {
                            "fill": p["ink"] if tag == "circle" else "none",
                            "stroke": p["ink"],
                            "stroke_width": p.get("w", 0.13),
                        }
                        | attrs
                    ),
                )
                for tag, attrs in p["marks"]
            )
            out.append(f'<g transform="scale({_num(self.k)})">{marks}</g></pattern>')
        out.append("</defs>")
        return "".join(out)


def _attr(value: Any) -> str:
    from html import escape

    return escape(str(value), quote=True)


def paint(
    scene: Scene,
    sides: Sequence[str] = (),
    drawn: dict[str, Any] | None = None,
    heading: Sequence[str] = (),
    scale: float | None = None,
) -> str:
    """``scene`` as a standalone SVG document (str), as the browser's table draws it, with a preview's
    ``drawn`` parts over it and ``heading``'s lines (the first bold, the picture's title) and the key above it.

    ``sides`` are the rule set's sides (a shape's ``side`` is coloured by its index); ``scale`` is pixels a
    table inch (default: the table as large as fits 1400 by 1000 pixels)."""
    k = scale or scale_for(float(scene["width"]), float(scene["height"]))
    probe = Painter(scene, sides, k, 0.0)
    picture_width = probe.px(probe.width) + 2 * probe.pad
    head, y = _heading(probe, heading, drawn, picture_width)
    key: list[str] = []
    if scene.get("key"):
        key, y = probe.key(scene["key"], 12, y, picture_width - 12)
    painter = Painter(scene, sides, k, y)
    body = [
        f'<g class="layer layer-{layer["name"]}">'
        + "".join(painter.shape(s) for s in layer.get("shapes") or [])
        + "</g>"
        for layer in scene.get("layers") or []
    ]
    over = painter.drawn(drawn) if drawn else []
    height = y + painter.px(painter.height) + 2 * painter.pad
    title = heading[0] if heading else "the table"
    return (
        "\n".join(
            [
                f'<svg xmlns="http://www.w3.org/2000/svg" class="table" width="{picture_width:.0f}" '
                f'height="{height:.0f}" '
                f'viewBox="0 0 {_num(picture_width)} {_num(height)}" font-family="{FONT}" data-scale="{_num(k)}">',
                el("title", title),
                f"<style>{table_css()}</style>",
                painter.defs(),
                el("rect", x=0, y=0, width=picture_width, height=height, fill="#fafafa"),
                *head,
                *key,
                '<g class="layers">',
                *body,
                "</g>",
                '<g class="preview-layer">',
                *over,
                "</g>",
                "</svg>",
            ]
        )
        + "\n"
    )


def _heading(
    painter: Painter, lines: Sequence[str], drawn: dict[str, Any] | None, width: float
) -> tuple[list[str], float]:
    """The heading's lines from the picture's top (the first bold and larger, each wrapped to the picture's
    width) and a preview's caption; the elements and the next free y (pixels)."""
    out: list[str] = []
    y = 8.0
    rows = list(lines)
    if drawn:
        order = drawn.get("order")
        rows.append("preview (not given)" + (f": {order}" if order else ""))
    for index, line in enumerate(rows):
        size = 18.0 if index == 0 else 14.0
        cls = "caption" if index == 0 or (drawn and index == len(rows) - 1) else None
        for part in textwrap.wrap(line, max(20, int((width - 24) / (0.62 * size)))) or [""]:
            y += size * 1.3
            out.append(painter.words(part, 12, y, size, anchor="start", cls=cls))
    return out, y + 10


def scene_with(face: Any, view: dict[str, Any], more: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """The face's scene of ``view`` with the seat's own units ringed, ``more`` layers drawn over it (skirmish's
    ``--focus`` lines), their words placed with the scene's so that none lies on another or on a mark."""
    seat = view.get("seat")
    scene = face.scene(view, {seat} if seat else set())
    return place({**scene, "layers": [*scene["layers"], *more]}) if more else scene


def picture(
    face: Any, sides: Sequence[str], title: str, view: dict[str, Any], more: Sequence[dict[str, Any]] = ()
) -> str:
    """A seat's view (``game.view(seat)``, its ``preview`` drawn in if it has one) as an SVG: the face's scene
    of it with the seat's own units ringed, headed by ``title``, the turn, the face's phase line, its figures
    and the result once there is one; ``more``: layers drawn over the scene's (skirmish's ``--focus`` lines)."""
    seat = view.get("seat")
    scene = scene_with(face, view, more)
    turn = f" - turn {view['turn']}" if view.get("turn") is not None else ""
    phase = face.phase(view)
    head = [f"{title}{turn}" + (f", {phase}" if phase else "") + (f" - view of {seat}" if seat else "")]
    figures = " - ".join(f"{label} {value}" for label, value in face.figures(view))
    if figures:
        head.append(figures)
    outcome = view.get("outcome")
    if isinstance(outcome, dict) and outcome.get("outcome"):
        said = f"{outcome['winner']} win" if outcome["outcome"] == "win" else str(outcome["outcome"])
        head.append(f"RESULT: {said} on turn {outcome.get('turn')} ({outcome.get('reason')})")
    return paint(scene, sides, drawn=view.get("preview"), heading=head)
