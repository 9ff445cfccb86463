"""A tiny SVG writer: elements as escaped strings, nothing clever."""

from __future__ import annotations

import re
from html import escape, unescape
from typing import Any


def attrs(**kw: Any) -> str:
    """Attributes from keywords (``stroke_width`` becomes ``stroke-width``); None values are left out."""
    parts = []
    for key, value in kw.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        if isinstance(value, float):
            value = f"{value:.2f}".rstrip("0").rstrip(".")
        parts.append(f'{name}="{escape(str(value), quote=True)}"')
    return " ".join(parts)


def el(tag: str, text: str | None = None, **kw: Any) -> str:
    """One element; ``text`` is escaped."""
    given = attrs(**kw)
    head = f"{tag} {given}" if given else tag
    if text is None:
        return f"<{head}/>"
    return f"<{head}>{escape(text)}</{head.split()[0]}>"


def document(
    width: float,
    height: float,
    body: list[str],
    title: str,
    origin: tuple[float, float] = (0.0, 0.0),
    unit: float = 1.0,
) -> str:
    """A complete SVG document with a white background and a title.

    ``origin`` is the picture's top left corner in its own coordinates (negative where the margins grew
    past the table's fixed origin); ``unit`` (when not 1) is said in ``data-unit``: how much larger than
    usual the picture's marks are, for a page that rings them.
    """
    x0, y0 = origin
    box = " ".join(f"{v:.0f}" if float(v).is_integer() else f"{v:.1f}" for v in (x0, y0, width, height))
    extra = f' data-unit="{unit:.3g}"' if unit != 1.0 else ""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="{box}" font-family="DejaVu Sans, Arial, sans-serif"{extra}>'
    )
    background = el("rect", x=x0, y=y0, width=width, height=height, fill="white")
    return "\n".join([head, el("title", title), background, *body, "</svg>"]) + "\n"


Box = tuple[float, float, float, float]  # left, top, right, bottom (px)


def text_box(x: float, y: float, text: str, size: float) -> Box:
    """The box a line of ``text`` at baseline (x, y) covers, at ``size`` px (a wide sans-serif estimate)."""
    return (x, y - size * 0.8, x + len(text) * size * 0.62, y + size * 0.25)


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class Labels:
    """Places labels beside their marks so that no label covers another label or a mark.

    ``avoid`` holds the marks' boxes; :meth:`place` tries the offsets around a mark, nearest first, and
    takes the first whose box is free (or the first offset, when every one is taken).
    """

    OFFSETS = ((10, -10), (10, 14), (-10, -10), (-10, 14), (14, 4), (-14, 4), (0, -16), (0, 24))

    def __init__(self, avoid: list[Box] | None = None, within: Box | None = None) -> None:
        self.taken: list[Box] = list(avoid or [])
        self.within = within

    def place(self, x: float, y: float, text: str, size: float, reach: float = 1.0) -> tuple[float, float, str]:
        """(x, y, text-anchor) for ``text`` beside the mark at (x, y); the label's box is then taken."""
        found = self.free(x, y, text, size, reach)
        if found is not None:
            return found
        lx, ly, anchor, box = self._beside(x, y, text, size, reach)[0]
        self.taken.append(box)
        return lx, ly, anchor

    def free(self, x: float, y: float, text: str, size: float, reach: float = 1.0) -> tuple[float, float, str] | None:
        """As :meth:`place`, but None (and nothing taken) when every offset is taken."""
        for lx, ly, anchor, box in self._beside(x, y, text, size, reach):
            inside = self.within is None or (
                box[0] >= self.within[0] and box[2] <= self.within[2] and box[1] >= self.within[1]
            )
            if inside and not any(overlaps(box, other) for other in self.taken):
                self.taken.append(box)
                return lx, ly, anchor
        return None

    def _beside(self, x: float, y: float, text: str, size: float, reach: float) -> list[tuple[float, float, str, Box]]:
        """Every place tried for ``text`` round (x, y), nearest first: (x, y, text-anchor, box)."""
        out = []
        for ring in (1.0, 1.8, 2.6):
            for dx, dy in self.OFFSETS:
                lx, ly = x + dx * ring * reach, y + dy * ring * reach
                anchor = "end" if dx < 0 else ("middle" if dx == 0 else "start")
                width = len(text) * size * 0.62
                left = lx - width if anchor == "end" else (lx - width / 2 if anchor == "middle" else lx)
                out.append((lx, ly, anchor, text_box(left, ly, text, size)))
        return out


_TEXT = re.compile(r"<text ([^>]*)>([^<]*)</text>")


def drawn_text_boxes(body: list[str]) -> list[Box]:
    """The boxes of the ``<text>`` elements already in ``body`` (terrain, pieces', vehicles' labels), for a
    :class:`Labels` to keep the labels it places off them."""
    boxes = []
    for element in body:
        for m in _TEXT.finditer(element):
            found = {k: v for k, v in re.findall(r'([\w-]+)="([^"]*)"', m[1])}
            if "x" not in found or "y" not in found:
                continue
            text, size = unescape(m[2]), float(found.get("font-size", "10"))
            width = len(text) * size * 0.62
            anchor = found.get("text-anchor", "start")
            x = float(found["x"])
            left = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x
            boxes.append(text_box(left, float(found["y"]), text, size))
    return boxes


def spread_words(body: list[str], marks: list[Box]) -> list[str]:
    """``body`` with each word of the table written from its left end (a wall section's, a building's, a
    piece's or a vehicle's label) that would lie on a mark in ``marks`` (the men) or on a word before it moved
    beside its place, where it is free (kept where it was when no place round it is)."""
    placer = Labels(marks)
    out = []
    for element in body:
        m = _TEXT.fullmatch(element)
        found = dict(re.findall(r'([\w-]+)="([^"]*)"', m[1])) if m is not None else {}
        if m is None or "text-anchor" in found or "class" in found or "x" not in found or "y" not in found:
            out.append(element)
            continue
        text, size = unescape(m[2]), float(found.get("font-size", "10"))
        x, y = float(found["x"]), float(found["y"])
        box = text_box(x, y, text, size)
        if not any(overlaps(box, other) for other in placer.taken):
            placer.taken.append(box)
            out.append(element)
            continue
        moved = placer.free(x, y, text, size)
        if moved is None:
            placer.taken.append(box)
            out.append(element)
            continue
        rest = {k.replace("-", "_"): v for k, v in found.items() if k not in ("x", "y")}
        out.append(el("text", text, x=moved[0], y=moved[1], text_anchor=moved[2], **rest))
    return out
