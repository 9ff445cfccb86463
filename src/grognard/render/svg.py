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


def document(width: float, height: float, body: list[str], title: str) -> str:
    """A complete SVG document with a white background and a title."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="DejaVu Sans, Arial, sans-serif">'
    )
    return (
        "\n".join(
            [head, el("title", title), el("rect", x=0, y=0, width=width, height=height, fill="white"), *body, "</svg>"]
        )
        + "\n"
    )
