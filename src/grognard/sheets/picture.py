"""The painter's picture on a printed page: a face's scene painted by ``grognard.render.paint`` and drawn with
reportlab in vectors (its words stay words a reader can search), at a round scale of the real table.

The SVG the painter makes is a small set of elements (g, rect, circle, polygon, polyline, line, text) whose
look is its own style sheet (the page's rules); this draws each element with the declarations a browser would
give it (cssselect2 matches the rules, fill and stroke inherited as CSS inherits them), a pattern's fill by
its ground colour.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cssselect2
import tinycss2
from reportlab.lib import colors
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus.flowables import Flowable

from grognard.render.look import patterns
from grognard.render.paint import MIN_TEXT, paint

SVG = "{http://www.w3.org/2000/svg}"
POINTS = 72.0  # points per inch of paper
LEAST_WORD = 5.5  # points: the least size of a word on paper (the painter's least, on the screen, is 10.8 px)
INHERITED = ("fill", "stroke", "stroke-width", "stroke-dasharray", "font-weight", "font-size", "text-anchor")
FONTS = Path("/usr/share/fonts/truetype/dejavu")  # ✕ and ▲ are not in Helvetica


def _font(bold: bool) -> str:
    name = "DejaVuSans-Bold" if bold else "DejaVuSans"
    if name in pdfmetrics.getRegisteredFontNames():
        return name
    if (FONTS / f"{name}.ttf").exists():
        pdfmetrics.registerFont(TTFont(name, str(FONTS / f"{name}.ttf")))
        return name
    return "Helvetica-Bold" if bold else "Helvetica"


def _colour(value: str | None) -> Any:
    """A CSS colour as reportlab's (None for none): #rgb, #rrggbb, rgba(), white, black; a pattern's url its
    fallback colour or its ground."""
    if not value or value == "none":
        return None
    value = value.strip()
    if value.startswith("url("):
        rest = value[value.index(")") + 1 :].strip()
        if rest:
            return _colour(rest)
        name = value[value.index("#gt-") + 4 : value.index(")")] if "#gt-" in value else ""
        return colors.HexColor(patterns().get(name, {}).get("bg", "#999999"))
    named = {"white": "#ffffff", "black": "#000000"}
    value = named.get(value, value)
    rgba = re.fullmatch(r"rgba?\(([^)]*)\)", value)
    if rgba:
        parts = [float(p) for p in rgba[1].split(",")]
        return colors.Color(parts[0] / 255, parts[1] / 255, parts[2] / 255, parts[3] if len(parts) > 3 else 1)
    if re.fullmatch(r"#[0-9a-fA-F]{3}", value):
        value = "#" + "".join(ch * 2 for ch in value[1:])
    return colors.HexColor(value)


def _number(value: str | None, default: float = 0.0) -> float:
    found = re.match(r"-?[\d.]+", value or "")
    return float(found[0]) if found else default


def _path(c: Canvas, d: str) -> Any:
    """An SVG path's M, L, Q, A (a half circle, as the painter's man's head) and Z, as reportlab's path."""
    tokens = re.findall(r"[MLQAZ]|-?[\d.]+", d)
    path, at, start, k = c.beginPath(), (0.0, 0.0), (0.0, 0.0), 0
    command = "M"

    def take(n: int) -> list[float]:
        nonlocal k
        values = [float(v) for v in tokens[k : k + n]]
        k += n
        return values

    while k < len(tokens):
        if tokens[k] in "MLQAZ":
            command, k = tokens[k], k + 1
            if command == "Z":
                path.close()
                at = start
                continue
        if command == "M":
            at = start = (x, y) = tuple(take(2))  # type: ignore[assignment]
            path.moveTo(x, y)
            command = "L"
        elif command == "L":
            x, y = take(2)
            path.lineTo(x, y)
            at = (x, y)
        elif command == "Q":
            qx, qy, x, y = take(4)
            path.curveTo(at[0] + 2 / 3 * (qx - at[0]), at[1] + 2 / 3 * (qy - at[1]), x + 2 / 3 * (qx - x),
                         y + 2 / 3 * (qy - y), x, y)  # fmt: skip
            at = (x, y)
        else:  # A rx ry turn large sweep x y: a half circle from where the pen is to (x, y)
            _rx, _ry, _turn, _large, sweep, x, y = take(7)
            cx, cy, r = (at[0] + x) / 2, (at[1] + y) / 2, math.dist(at, (x, y)) / 2
            begin = math.degrees(math.atan2(at[1] - cy, at[0] - cx))
            path.arcTo(cx - r, cy - r, cx + r, cy + r, round(begin), 180 if sweep else -180)  # degrees, whole
            at = (x, y)
    return path


def _looks(root: ET.Element) -> dict[ET.Element, dict[str, str]]:
    """Every element's declarations: inherited ones, then its attributes, then the style sheet's rules."""
    style = root.find(f"{SVG}style")
    matcher = cssselect2.Matcher()
    for rule in tinycss2.parse_stylesheet(style.text or "" if style is not None else "", True, True):
        if rule.type == "qualified-rule":
            body = tinycss2.parse_declaration_list(rule.content, skip_whitespace=True, skip_comments=True)
            said = {d.lower_name: tinycss2.serialize(d.value).strip() for d in body if d.type == "declaration"}
            for selector in cssselect2.compile_selector_list(rule.prelude):
                matcher.add_selector(selector, said)
    out: dict[ET.Element, dict[str, str]] = {}
    for wrapper in cssselect2.ElementWrapper.from_xml_root(root).iter_subtree():
        element = wrapper.etree_element
        parent = out.get(wrapper.parent.etree_element, {}) if wrapper.parent is not None else {}
        look = {k: v for k, v in parent.items() if k in INHERITED}
        look.update({k: v for k, v in element.attrib.items() if k in (*INHERITED, "opacity", "fill-opacity")})
        for _specificity, _order, _pseudo, said in sorted(matcher.match(wrapper) or [], key=lambda m: m[:2]):
            look.update(said)
        out[element] = look
    return out


class ScenePicture(Flowable):
    """A painted scene as a flowable ``width`` points wide (its height in proportion)."""

    def __init__(self, svg: str, width: float) -> None:
        super().__init__()
        self.root = ET.fromstring(svg)
        self.factor = width / float(self.root.get("width", "1"))
        self.width, self.height = width, float(self.root.get("height", "1")) * self.factor
        self.looks = _looks(self.root)

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        c: Canvas = self.canv
        c.saveState()
        c.translate(0, self.height)
        c.scale(self.factor, -self.factor)  # the SVG's pixels, y down
        frame = c.beginPath()
        frame.rect(0, 0, self.width / self.factor, self.height / self.factor)
        c.clipPath(frame, stroke=0, fill=0)  # a page of part of the table: the rest of it stays off the page
        self._walk(c, self.root)
        c.restoreState()

    def _walk(self, c: Canvas, element: ET.Element) -> None:
        for child in element:
            tag = child.tag.removeprefix(SVG)
            if tag in ("style", "defs", "title") or "halo" in (child.get("class") or "").split():
                continue  # a word's halo: paper has no paint-order trouble, and a word is searched for once
            if tag == "text" and not -self.width / self.factor < _number(child.get("x")) < 2 * self.width / self.factor:
                continue  # a word of the table far out of this page's part of it
            look = self.looks.get(child, {})
            c.saveState()
            opacity = _number(look.get("opacity"), 1.0)
            if opacity < 1:
                c.setFillAlpha(opacity)
                c.setStrokeAlpha(opacity)
            if tag == "g":
                self._walk(c, child)
            elif tag == "text":
                self._text(c, child, look)
            else:
                self._shape(c, child, tag, look, opacity)
            c.restoreState()

    def _paint(self, c: Canvas, look: dict[str, str], opacity: float) -> tuple[bool, bool]:
        fill, stroke = _colour(look.get("fill", "#000")), _colour(look.get("stroke"))
        if fill is not None:
            c.setFillColor(fill)
            c.setFillAlpha(opacity * _number(look.get("fill-opacity"), 1.0) * fill.alpha)
        if stroke is not None:
            c.setStrokeColor(stroke)
            c.setLineWidth(_number(look.get("stroke-width"), 1.0))
            dashes = [_number(d) for d in re.split(r"[\s,]+", look.get("stroke-dasharray", "none")) if d[:1].isdigit()]
            c.setDash(dashes or [])
        return fill is not None, stroke is not None

    def _shape(self, c: Canvas, e: ET.Element, tag: str, look: dict[str, str], opacity: float) -> None:
        fill, stroke = self._paint(c, look, opacity)
        if not fill and not stroke:
            return
        a = {k: _number(v) for k, v in e.attrib.items() if k not in ("points", "class")}
        if tag == "rect":
            c.rect(a.get("x", 0), a.get("y", 0), a.get("width", 0), a.get("height", 0), stroke=stroke, fill=fill)
        elif tag == "circle":
            c.circle(a.get("cx", 0), a.get("cy", 0), a.get("r", 0), stroke=stroke, fill=fill)
        elif tag == "line":
            if stroke:
                c.line(a.get("x1", 0), a.get("y1", 0), a.get("x2", 0), a.get("y2", 0))
        elif tag == "path":
            c.drawPath(_path(c, e.get("d", "")), stroke=stroke, fill=fill)
        elif tag in ("polygon", "polyline"):
            numbers = [float(n) for n in re.findall(r"-?[\d.]+", e.get("points", ""))]
            if len(numbers) < 4:
                return
            path = c.beginPath()
            path.moveTo(numbers[0], numbers[1])
            for x, y in zip(numbers[2::2], numbers[3::2], strict=True):
                path.lineTo(x, y)
            if tag == "polygon":
                path.close()
            c.drawPath(path, stroke=stroke, fill=fill and tag == "polygon")

    def _text(self, c: Canvas, e: ET.Element, look: dict[str, str]) -> None:
        fill, stroke = self._paint(c, look, 1.0)
        if not (fill or stroke) or not e.text:
            return
        x, y, size = _number(e.get("x")), _number(e.get("y")), _number(look.get("font-size"), 12.0)
        turn = re.fullmatch(r"rotate\(([-\d.]+) ([-\d.]+) ([-\d.]+)\)", e.get("transform", ""))
        if turn:
            angle, cx, cy = (float(v) for v in turn.groups())
            c.translate(cx, cy)
            c.rotate(angle)
            c.translate(-cx, -cy)
        c.translate(x, y)
        c.scale(1, -1)  # words upright
        font = _font(look.get("font-weight") == "bold")
        width = pdfmetrics.stringWidth(e.text, font, size)
        anchor = look.get("text-anchor", "start")
        words = c.beginText(-width / 2 if anchor == "middle" else -width if anchor == "end" else 0, 0)
        words.setFont(font, size)
        words.setTextRenderMode(0 if fill else 1)  # a halo: its outline alone
        words.textLine(e.text)
        c.drawText(words)


def scene_picture(
    scene: dict[str, Any], sides: Sequence[str], scale: float, heading: Sequence[str] = ()
) -> ScenePicture:
    """``scene`` painted on paper at 1 : ``scale`` (a table inch is 1/``scale`` inch of paper)."""
    k = 0.9 * MIN_TEXT * POINTS / (LEAST_WORD * scale)  # pixels a table inch: the least word LEAST_WORD points
    svg = paint(scene, sides, heading=heading, scale=k)
    return ScenePicture(svg, float(ET.fromstring(svg).get("width", "1")) / k * POINTS / scale)
