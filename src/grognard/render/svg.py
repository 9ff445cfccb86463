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
    given = attrs(**kw)
    head = f"{tag} {given}" if given else tag
    if text is None:
        return f"<{head}/>"
    return f"<{head}>{escape(text)}</{head.split()[0]}>"
