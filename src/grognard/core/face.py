"""A rule set's web face: what the pages draw and offer of a game, from a seat's view only.

Each rule set that has one implements it in its own package (``rulesets/<name>/face.py``) from
``view(seat)`` (the seat's JSON-safe view; the projector uses the spectators' view, seat ``None``)
and its ``data`` constants, never a game's full state; ``Ruleset.face`` points at it and the web
layer calls it without naming any rule set. The contract is written out in docs/FACE-CONTRACT.md.

Lengths are table inches, x to the right and y up (away from the player's edge); headings are
degrees. ``mine`` is the set of seats the viewer commands.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from grognard.core.engine import Decision

View = dict[str, Any]
Shape = dict[str, Any]
Control = dict[str, Any]

# the words a shape's ``cls`` may be (styled in web/static/style.css)
CLASSES = frozenset(
    "water wood hill road wall wire building door window bridge rail sand shingle sea obstacle bunker exit "
    "box target flak ground band divider label squad fighter bomber path ring ruler template sky gunring gone crater "
    "casualty off aim scatter focus smoke gun engine element man hedgehog cotton coin hull top track barrel "
    "court".split()
)
# a side's shape, as well as its colour; and "man": a standing man (a figure of a group, drawn to scale)
MARKERS = ("circle", "square", "triangle", "diamond", "man")

# a man's glyph (a figure's ``glyph``): what he carries or is, drawn on his round base. Each is an SVG path in a
# box of -1..1 about the base's centre (y down, as SVG; the base's rim is the unit circle) and whether it is filled
# (else stroked). web/static/table.js holds the same table (tests/test_skirmish_pictures.py compares them)
GLYPHS: dict[str, dict[str, Any]] = {
    "rifle": {"d": "M-0.72 0.62 L0.72 -0.62 M-0.72 0.62 L-0.4 0.74", "fill": False},
    "smg": {"d": "M-0.55 0.45 L0.55 -0.45 M0 0 L0.32 0.34", "fill": False},
    "pistol": {"d": "M-0.5 -0.3 H0.55 M-0.3 -0.3 L-0.45 0.45", "fill": False},
    "mg": {"d": "M-0.78 -0.28 H0.8 M0.1 -0.28 L-0.35 0.65 M0.1 -0.28 L0.55 0.65", "fill": False},
    "mortar": {"d": "M-0.7 0.62 H0.7 M-0.22 0.62 L0.35 -0.72 M0.3 0.62 L0.08 -0.1", "fill": False},
    "bazooka": {"d": "M-0.85 -0.17 H0.5 L0.85 -0.34 V0.34 L0.5 0.17 H-0.85 Z", "fill": True},
    "flame_thrower": {
        "d": "M0.05 0.8 C-0.65 0.55 -0.45 -0.15 -0.05 -0.8 C0 -0.35 0.55 -0.15 0.45 0.35 "
        "C0.4 0.62 0.25 0.78 0.05 0.8 Z",
        "fill": True,
    },
    "crew": {"d": "M-0.6 0 A0.6 0.6 0 1 0 0.6 0 A0.6 0.6 0 1 0 -0.6 0 M-0.6 0 H0.6 M0 -0.6 V0.6", "fill": False},
    "officer": {
        "d": "M0 -0.76 L0.2 -0.22 L0.78 -0.19 L0.32 0.17 L0.48 0.72 L0 0.4 L-0.48 0.72 L-0.32 0.17 L-0.78 -0.19 "
        "L-0.2 -0.22 Z",
        "fill": True,
    },
    "cavalry": {"d": "M-0.5 0.65 L-0.55 0 A0.55 0.55 0 0 1 0.55 0 L0.5 0.65", "fill": False},
    "engineer": {"d": "M0 -0.8 V0.15 M-0.35 0.15 H0.35 L0.25 0.72 H-0.25 Z", "fill": False},
}


def number_field(name: str, label: str, value: float, low: float, high: float, step: float) -> dict[str, Any]:
    """A number field of a form control: ``{name, label, value, min, max, step}``."""
    return {"name": name, "label": label, "value": value, "min": low, "max": high, "step": step}


def layer(name: str, shapes: list[Shape]) -> dict[str, Any]:
    return {"name": name, "shapes": shapes}


def _nothing(view: View, decision: Decision) -> dict[str, Any] | None:
    return None


def _no_marks(view: View, mine: Collection[str]) -> list[dict[str, Any]]:
    return []


def _no_commands(view: View) -> dict[str, str]:
    return {}


def _no_heading(view: View) -> str:
    return ""


@dataclass(frozen=True)
class Face:
    """How the pages show one rule set.

    ``scene(view, mine)``: what to draw, ``{"width", "height", "layers": [{"name", "shapes"}]}`` in inches
    (see docs/FACE-CONTRACT.md for a shape's keys), optionally ``"key": [{"cls", "name", "state"?}]``, the table's
    key drawn above it (a swatch in each look, its name). ``phase(view)``: the phase line. ``tables(view, mine)``:
    ``[{"caption", "columns", "rows"}]`` or ``[{"caption", "pre"}]``. ``figures(view)``: the projector's
    ``(label, value)`` pairs. ``controls(view, decision)``: how a person acts on ``decision`` on the table
    and in forms (``[{"kind", "verb", "title", "unit", "template", "fields", "preview"}]``); empty: the menu
    and a typed order only. ``unit(view, decision)``: ``{"id", "x", "y", "r"}`` (inches), the unit the
    decision is about, or ``None``. ``marks(view, mine)``: ``[{"id", "x", "y", "r", "title"}]`` (inches),
    the viewer's own units, ringed. ``commands(view)``: ``{seat: words}``, what each seat commands where a
    side has several seats that each command part of it (the host's seat table and a player's "you play"
    line show the words); ``{}``: nothing to say (a side is one seat, or the seats say it themselves).
    ``situation(view, decision)``: the lines a person reads on ``decision`` (the unit in question and what is
    around it), from the view of the decision's seat; ``None``: the decision's prompt. ``board(view)``: the
    whole table as text, as the view's seat may see it (the terminal's ``board``); ``None``: no such text.
    ``heading(view)``: the game's own name (a scenario's title), shown in the page's header and its tab's
    title after the rule set's; ``""``: none.
    """

    scene: Callable[[View, Collection[str]], dict[str, Any]]
    phase: Callable[[View], str]
    tables: Callable[[View, Collection[str]], list[dict[str, Any]]]
    figures: Callable[[View], list[tuple[str, Any]]]
    controls: Callable[[View, Decision], list[Control]]
    unit: Callable[[View, Decision], dict[str, Any] | None] = _nothing
    marks: Callable[[View, Collection[str]], list[dict[str, Any]]] = _no_marks
    commands: Callable[[View], dict[str, str]] = _no_commands
    situation: Callable[[View, Decision], list[str]] | None = None
    board: Callable[[View], str] | None = None
    heading: Callable[[View], str] = _no_heading
