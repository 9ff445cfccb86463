"""A tiny SVG writer: elements as escaped strings, nothing clever."""

from __future__ import annotations

from html import escape
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
    if text is None:
        return f"<{tag} {attrs(**kw)}/>"
    return f"<{tag} {attrs(**kw)}>{escape(text)}</{tag}>"


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
