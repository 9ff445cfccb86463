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
    "casualty off aim scatter focus smoke gun engine element man hedgehog cotton".split()
)
# a side's shape, as well as its colour; and "man": a standing man (a figure of a group, drawn to scale)
MARKERS = ("circle", "square", "triangle", "diamond", "man")


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
    """

    scene: Callable[[View, Collection[str]], dict[str, Any]]
    phase: Callable[[View], str]
    tables: Callable[[View, Collection[str]], list[dict[str, Any]]]
    figures: Callable[[View], list[tuple[str, Any]]]
    controls: Callable[[View, Decision], list[Control]]
    unit: Callable[[View, Decision], dict[str, Any] | None] = _nothing
    marks: Callable[[View, Collection[str]], list[dict[str, Any]]] = _no_marks
    commands: Callable[[View], dict[str, str]] = _no_commands
