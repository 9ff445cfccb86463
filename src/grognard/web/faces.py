"""What the pages show of a game, through the Ruleset record and its face (``Ruleset.face``).

Generic: a decision's prompt, situation lines, a menu of candidates with a note
and the exact odds of each (the rule set's adviser, ``Ruleset.adviser``, the same as the
terminal), events as lines (``ruleset.describe``) with dice kept as dice.
The rule set's face (``grognard.core.face.Face``, from ``game.view(seat)`` only)
gives the controls of a decision, the scene of the table in inches (drawn by the
page's ``static/table.js``), the text tables, the phase's name and the projector's
figures. A rule set without a face gets its server picture, the menu, a typed
order and the adviser's ``board`` in a ``<pre>``.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from grognard.core.dice import SeededDice
from grognard.core.engine import Decision, Event, Game
from grognard.core.face import Face
from grognard.core.ruleset import Ruleset
from grognard.web.messages import Choice, DecisionLine, EventItem

MENU = 12  # candidates listed per decision of a continuous space without a rule set menu
FINITE = 60  # at most this many choices of a finite space are listed


def _view(game: Game, seat: str | None) -> dict[str, Any]:
    return game.view(seat)


def _controls(face: Face | None, view: dict[str, Any], decision: Decision) -> list[dict[str, Any]]:
    return face.controls(view, decision) if face is not None else []


def _form(control: dict[str, Any]) -> dict[str, Any]:
    """A control as the page's form (the keyboard way): ``pick`` when a point tapped on the table fills its
    fields ``x`` and ``y`` (inches)."""
    form = {
        k: v for k, v in control.items() if k not in ("kind", "unit", "from", "preview", "targets", "offer", "named")
    }
    if control.get("kind") in ("pick-point", "drag-path"):
        form["pick"] = True
    return form


def scene(ruleset: Ruleset, game: Game, mine: Collection[str], seat: str | None = None) -> dict[str, Any] | None:
    """What the table shows ``seat`` (``Face.scene`` of its view, inches), its own units ringed; ``None``:
    the rule set has no face (the page shows its server picture)."""
    if ruleset.face is None:
        return None
    return ruleset.face.scene(_view(game, seat), mine)


def ground(ruleset: Ruleset, options: dict[str, Any], embedded: dict[str, Any] | None) -> dict[str, Any] | None:
    """The table before its setup is rolled (a referee still typing the setup's dice): the scene's ``terrain``
    layer only, of a game set up with other dice (nothing the dice place: no marks, no units)."""
    if ruleset.face is None:
        return None
    probe = ruleset.create(options, SeededDice(0), embedded)
    drawn = ruleset.face.scene(_view(probe, None), ())
    drawn["layers"] = [
        dict(layer, shapes=layer["shapes"] if layer["name"] == "terrain" else []) for layer in drawn["layers"]
    ]
    return drawn


# ---------------------------------------------------------------------------------------------- generic
def decision_json(ruleset: Ruleset, game: Game, decision: Decision) -> DecisionLine:
    """A decision for the player page: prompt, situation, a menu with words, notes and odds, form controls,
    and the typed grammar of this decision's orders only (``usage``, with an ``example`` from the menu).

    The menu is the rule set's (``Adviser.menu``: useful first, in words, every legal target of a finite
    choice); without an adviser, every action of a finite space (at most ``FINITE``) or ``candidates(MENU)``.
    Each choice: ``text`` (the order sent), ``label`` (its words, or the text), ``note``, ``odds``.
    ``controls``: the face's controls of the decision (docs/FACE-CONTRACT.md), ``forms`` those with fields;
    ``unit``: the unit the decision is about on the table (``{id, x, y, r}``, inches), so that a tap on it
    picks this decision; ``None`` when the decision is about no one unit.
    """
    adviser = ruleset.adviser
    face = ruleset.face
    view = _view(game, decision.seat) if face is not None else {}
    situation = ruleset.situation(game, decision, view if face is not None else None) or [decision.prompt]
    if adviser is not None:
        offered = adviser.menu(game, decision)
    else:
        finite = getattr(decision.space, "actions", None)
        actions = list(finite[:FINITE]) if finite is not None else decision.space.candidates(MENU)
        offered = [(a, "") for a in actions]
    choices: list[Choice] = []
    for action, words in offered:
        note = adviser.note(game, action) if adviser is not None else ""
        odds = adviser.odds(game, action) if adviser is not None else None
        choices.append({"text": str(action), "label": words or str(action), "note": note or "", "odds": odds or ""})
    controls = _controls(face, view, decision)
    return {
        "id": decision.id,
        "seat": decision.seat,
        "prompt": decision.prompt,
        "situation": situation,
        "choices": choices,
        "forms": [_form(c) for c in controls if c.get("fields")],
        "controls": controls,
        "unit": face.unit(view, decision) if face is not None else None,
        "usage": usage(ruleset, [c["text"] for c in choices]),
        "example": choices[0]["text"] if choices else "",
    }


_EXAMPLE = re.compile(r"\s*\(e\.g\. [^()]*\)\s*$|;\s*e\.g\. [^()]*(?=\))")


def usage(ruleset: Ruleset, orders: list[str]) -> list[str]:
    """The rule set's typed grammar for the verbs of ``orders`` only (a German is not shown the American
    orders), each line's own "(e.g. ...)" dropped: the page's example comes from this decision's menu."""
    verbs = {order.split()[0].lower() for order in orders if order.strip()}
    lines = [line for line in ruleset.usage if line.split() and line.split()[0].lower() in verbs]
    return [_EXAMPLE.sub("", line) for line in (lines or list(ruleset.usage))]


def tables(ruleset: Ruleset, game: Game, mine: Collection[str], seat: str | None = None) -> list[dict[str, Any]]:
    """Text tables of the units (beside every picture), of ``seat``'s view."""
    if ruleset.face is not None:
        return ruleset.face.tables(_view(game, seat), mine)
    board = ruleset.board(game, seat)
    return [{"caption": "The table", "pre": board}] if board is not None else []


def phase(ruleset: Ruleset, game: Game) -> str:
    if ruleset.face is not None:
        return ruleset.face.phase(_view(game, None))
    return str(_view(game, None).get("phase", ""))


def heading(ruleset: Ruleset, game: Game) -> str:
    """The game's own name (``Face.heading`` of the spectators' view: a scenario's title); ``""`` without one."""
    return ruleset.face.heading(_view(game, None)) if ruleset.face is not None else ""


def commands(ruleset: Ruleset, game: Game) -> dict[str, str]:
    """What each seat commands, in words (``Face.commands`` of the spectators' view); ``{}`` without a face."""
    return ruleset.face.commands(_view(game, None)) if ruleset.face is not None else {}


def figures(ruleset: Ruleset, game: Game) -> list[tuple[str, Any]]:
    if ruleset.face is not None:
        return ruleset.face.figures(_view(game, None))
    return [(label, value) for label, value in ruleset.rules.summary(game)]


def event_json(ruleset: Ruleset, event: Event, index: int) -> EventItem | None:
    """An event as the pages show it: a line of text, or dice as dice; ``None`` for bookkeeping."""
    if event.kind == "dice":
        d = event.data
        return {"i": index, "dice": list(d["values"]), "sides": d["sides"], "purpose": d["purpose"]}
    text = ruleset.describe(event)
    if text is None:
        return None
    return {"i": index, "text": text.strip(), "kind": event.kind}
