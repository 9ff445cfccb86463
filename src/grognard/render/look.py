"""The browser table's look, read from the page's own files: the table's rules of ``web/static/style.css``
(its ``:root`` colours filled in), the terrain's textures and the sides' colours of ``web/static/table.js``.
The painter (``render/paint.py``) draws with them, so a picture and the page look alike and each colour is
written once."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib.resources import files
from typing import Any

import tinycss2

# a rule of style.css is the table's when each of its selectors starts so (".svg svg.table" is the page's layout)
_TABLE_SELECTORS = (".t-", ".p-", "svg.table", ".key-swatch", "svg.key-swatch")

# what a standalone picture needs beyond the page's rules: no viewer but a browser knows paint-order, so a
# word's white halo is a copy of it drawn under it (class "halo"), and the page's own halo is taken away
PAPER = """
svg.table text { paint-order: normal; stroke: none; }
svg.table text.halo { fill: none; stroke: #fff; stroke-width: 3px; stroke-linejoin: round; }
svg.table .key-box { fill: #eef2e2; stroke: #767676; stroke-width: 1px; }
svg.table text.caption { font-weight: bold; }
"""


def _static(name: str) -> str:
    return files("grognard.web").joinpath("static", name).read_text(encoding="utf-8")


@cache
def table_css() -> str:
    """The table's rules of style.css, ``var(--name)`` replaced by its ``:root`` value, then ``PAPER``."""
    rules = tinycss2.parse_stylesheet(_static("style.css"), skip_comments=True, skip_whitespace=True)
    colours: dict[str, str] = {}
    kept: list[str] = []
    for rule in rules:
        if rule.type != "qualified-rule":
            continue  # @media: the page's layout
        selector = tinycss2.serialize(rule.prelude).strip()
        body = tinycss2.serialize(rule.content).strip()
        if selector == ":root":
            colours.update(re.findall(r"(--[\w-]+)\s*:\s*([^;]+);", body))
        elif all(part.strip().startswith(_TABLE_SELECTORS) for part in selector.split(",")):
            kept.append(f"{selector} {{ {body} }}")
    css = "\n".join(kept) + PAPER
    return re.sub(r"var\((--[\w-]+)\)", lambda m: colours.get(m[1], "#000").strip(), css)


def _js_constant(name: str) -> Any:
    """A constant of table.js (``const NAME = ...;``, a literal), read as JSON (its bare keys quoted)."""
    source = _static("table.js")
    start = re.search(rf"const {name} = ", source)
    if start is None:
        raise LookupError(f"table.js has no constant {name}")
    text, depth, end = source[start.end() :], 0, 0
    for end, char in enumerate(text):  # noqa: B007 - the literal's end: its brackets closed
        depth += char in "[{"
        depth -= char in "]}"
        if depth == 0 and char in "]}":
            break
    literal = re.sub(r"([{,]\s*)([A-Za-z_][\w]*)\s*:", r'\1"\2":', text[: end + 1])
    return json.loads(re.sub(r",(\s*[}\]])", r"\1", literal))  # no trailing commas in JSON


@cache
def side_colours() -> tuple[str, ...]:
    """The sides' Okabe-Ito colours, by the side's index in the rule set's sides (table.js SIDE_COLOURS)."""
    return tuple(_js_constant("SIDE_COLOURS"))


@cache
def patterns() -> dict[str, dict[str, Any]]:
    """The terrain's textures in table inches (table.js PATTERNS): ``{name: {size, bg, marks, ink}}``."""
    found: dict[str, dict[str, Any]] = _js_constant("PATTERNS")
    return found
