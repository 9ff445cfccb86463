"""What the pages show of a game, through the Ruleset record, with small per-rule-set additions.

Generic: a decision's prompt, situation lines, a menu of candidates with a note
and the exact odds of each (``ruleset.note``/``ruleset.odds``, the same as the
terminal), events as lines (``ruleset.describe``) with dice kept as dice.
Per rule set (``FACES``): the form controls of a decision (Omaha: where a squad
moves, how its figures split; B-17: a move as straight inches and a turn, a point
to fly to, a fighter's attack stop), the text tables of units beside the picture,
the phase's name and the figures the projector shows. A rule set without an
entry gets the menu, a typed order and ``board_text`` in a ``<pre>``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from grognard.core.engine import Decision, Event, Game
from grognard.core.ruleset import Ruleset

MENU = 12  # candidates listed per decision of a continuous space without a rule set menu
FINITE = 60  # at most this many choices of a finite space are listed


@dataclass(frozen=True)
class Face:
    forms: Callable[[Game, Decision], list[dict[str, Any]]]
    tables: Callable[[Game, set[str]], list[dict[str, Any]]]
    phase: Callable[[Game], str]
    figures: Callable[[Game], list[tuple[str, Any]]]
    marks: Callable[[Game, set[str]], list[dict[str, Any]]]  # rings on the picture around the seat's own units
    # the unit a decision is about, where the picture draws it ({label, x, y, r}; None: no one unit)
    unit: Callable[[Game, Decision], dict[str, Any] | None] = lambda game, decision: None


def _field(name: str, label: str, value: float, low: float, high: float, step: float) -> dict[str, Any]:
    return {"name": name, "label": label, "value": value, "min": low, "max": high, "step": step}


# ---------------------------------------------------------------------------------------------- Omaha
def _omaha_forms(game: Any, decision: Decision) -> list[dict[str, Any]]:
    from grognard.rulesets.omaha.game import OrdersSpace

    space = decision.space
    if not isinstance(space, OrdersSpace):
        return []
    squad = space.move.squad
    options = game.state.options
    top = 28.0 + float(options["ground"])
    label = squad.label
    from grognard.render.omaha import MARGIN, SCALE, TOP

    move = {
        "verb": "move",
        "title": f"Move {label} to a point (up to 6 inches of beach; or click the picture to fill x and y)",
        "template": f"move {label} {{x}} {{y}}",
        # inches from the picture's coordinates: (px - origin) / scale, as render.omaha draws them
        "pick": {"x": {"origin": MARGIN, "scale": SCALE}, "y": {"origin": TOP + top * SCALE, "scale": -SCALE}},
        "fields": [
            _field("x", "x, inches along the beach", squad.x, 0.0, float(game.state.width), 0.01),
            _field(
                "y",
                "y, inches up the beach (0 = water line, 24 = sea wall)",
                squad.y,
                -float(options["water"]),
                top,
                0.01,
            ),
        ],
    }
    kinds = space.fight.kinds()
    fields = []
    for kind, text in (("shoot", "shoot at the bunker in front"), ("clear", "clear obstacles"), ("assault", "assault")):
        field = _field(kind, f"figures that {text}", 0, 0, squad.figures if kind in kinds else 0, 1)
        if kind not in kinds:
            field["disabled"] = "not possible here now"
        fields.append(field)
    fight = {
        "verb": "fight",
        "title": f"Or stay and split {label}'s {squad.figures} figures (the rest hold)",
        "template": f"fight {label} shoot={{shoot}} clear={{clear}} assault={{assault}}",
        "fields": fields,
    }
    return [move, fight]


def _omaha_tables(game: Any, mine: set[str]) -> list[dict[str, Any]]:
    from grognard.rulesets.omaha.describe import where

    s = game.state
    squads = []
    for a in s.americans:
        q = a.squad
        you = "yes" if a.seat in mine else ""
        if q is None:
            state = "out of squads" if a.out else "in the landing craft"
            squads.append([a.label, a.seat, you, "", "", "", state])
        else:
            squads.append([a.label, a.seat, you, q.figures, f"{q.x:g}", f"{q.y:g}", where(q.y)])
    bunkers = [
        [
            b.label,
            b.commander,
            "yes" if b.commander in mine else "",
            b.defenders,
            b.status,
            "open" if section in s.exits_open else "closed",
        ]
        for section, b in sorted(s.bunkers.items())
    ]
    obstacles = [[f"O{i + 1}", "not yet rolled" if c is None else c] for i, c in enumerate(s.obstacles)]
    out = [
        {
            "caption": "Squads",
            "columns": ["squad", "seat", "yours", "figures", "x", "y", "where"],
            "rows": squads,
        },
    ]
    if bunkers:
        out.append(
            {
                "caption": "Bunkers",
                "columns": ["bunker", "commander", "yours", "defenders", "status", "exit"],
                "rows": bunkers,
            }
        )
    out.append({"caption": "Obstacles per section", "columns": ["section", "obstacles left"], "rows": obstacles})
    return out


def _omaha_phase(game: Any) -> str:
    from grognard.rulesets.omaha.describe import PHASES

    return str(PHASES.get(game.state.phase, game.state.phase))


def _omaha_figures(game: Any) -> list[tuple[str, Any]]:
    s = game.state
    st = s.stats
    active = sum(1 for b in s.bunkers.values() if b.active)
    left = sum(c for c in s.obstacles if c)
    unknown = sum(1 for c in s.obstacles if c is None)
    return [
        ("American casualties", st["american_losses"]),
        ("German casualties", st["german_losses"]),
        ("exits open", f"{len(s.exits_open)} of {len(s.bunkers)}"),
        ("bunkers still firing", f"{active} of {len(s.bunkers)}"),
        ("obstacles left", f"{left}" + (f" ({unknown} sections not yet rolled)" if unknown else "")),
        ("squads sent back by morale", st["sent_back"]),
    ]


def _omaha_marks(game: Any, mine: set[str]) -> list[dict[str, Any]]:
    from grognard.render.omaha import MARGIN, SCALE, TOP

    s = game.state
    top = 28.0 + float(s.options["ground"])

    def at(x: float, y: float, r: float, label: str) -> dict[str, Any]:
        return {"x": MARGIN + x * SCALE, "y": TOP + (top - y) * SCALE, "r": r, "label": label}

    out = [at(a.squad.x, a.squad.y, 14, f"your squad {a.label}") for a in s.americans if a.seat in mine and a.squad]
    out += [at(b.section * 8 + 4, 30, 24, f"your bunker {b.label}") for b in s.bunkers.values() if b.commander in mine]
    return out


def _omaha_unit(game: Any, decision: Decision) -> dict[str, Any] | None:
    from grognard.render.omaha import MARGIN, SCALE, TOP

    kind, _, label = decision.id.partition(" ")
    top = 28.0 + float(game.state.options["ground"])
    if kind == "orders":
        q = game.squad(label)
        return {"label": label, "x": MARGIN + q.x * SCALE, "y": TOP + (top - q.y) * SCALE, "r": 14}
    if kind == "fire":
        b = game.state.bunkers[int(label[1:]) - 1]
        return {"label": label, "x": MARGIN + (b.section * 8 + 4) * SCALE, "y": TOP + (top - 30) * SCALE, "r": 24}
    return None


# ---------------------------------------------------------------------------------------------- B-17
def _b17_forms(game: Any, decision: Decision) -> list[dict[str, Any]]:
    """A move as distance and turn (typed), or a point to fly to (typed, or a click on the picture);
    a fighter's attack stop as a bomber and the inches along the path. The rules are checked by the
    server's preview and on commit, never here."""
    from grognard.render.b17 import MARGIN, SCALE, TOP
    from grognard.rulesets.b17 import rules as R
    from grognard.rulesets.b17.data import TABLE_LENGTH, TABLE_WIDTH
    from grognard.rulesets.b17.game import FlySpace

    space = decision.space
    if not isinstance(space, FlySpace):
        return []
    a = space.aircraft
    label = a.label
    length = float(game.allowance(a))
    least = float(R.minimum_straight(a, length))
    turn = float(R.max_turn(a))
    straight = _field(
        "straight", f"inches straight ahead first (at least {least:g}, at most {length:g})", length, least, length, 0.1
    )
    angle = _field("turn", f"then turn, degrees (+ left, - right; at most {turn:g} either way)", 0, -turn, turn, 1)
    fly = {
        "verb": "fly",
        "title": f'Fly {label}: {length:g}" in all, straight first, then one turn, then on to the end of the move',
        "template": f"fly {label} {{straight}} {{turn}}",
        "fields": [straight, angle],
    }
    to = {
        "verb": "fly to",
        "title": f"Or fly {label} to a point (the one path that ends there; or click the picture to fill x and y)",
        "template": f"fly {label} to {{x}} {{y}}",
        "pick": {"x": {"origin": MARGIN, "scale": SCALE}, "y": {"origin": TOP + TABLE_WIDTH * SCALE, "scale": -SCALE}},
        "fields": [
            _field("x", "x, inches from the entry end (the target end is 108)", round(a.x, 2), 0.0, TABLE_LENGTH, 0.01),
            _field("y", "y, inches from the right flank (the left flank is 60)", round(a.y, 2), 0.0, TABLE_WIDTH, 0.01),
        ],
    }
    forms = [fly, to]
    bombers = [b.label for b in game.flying_bombers()]
    if not a.bomber and bombers:
        attack = {
            "verb": "fly and attack",
            "title": f'Or fly {label} and stop on the path to attack a bomber (within 4" of its nose, b17.30)',
            "template": f"fly {label} {{straight}} {{turn}} attack {{target}} at {{at}}",
            "fields": [
                dict(straight, name="straight"),
                dict(angle, name="turn"),
                {"name": "target", "label": "the bomber attacked", "options": bombers, "value": bombers[0]},
                _field("at", f"stop this many inches along the path (0 to {length:g})", length, 0.0, length, 0.1),
            ],
        }
        forms.append(attack)
    return forms


def _b17_tables(game: Any, mine: set[str]) -> list[dict[str, Any]]:
    from grognard.rulesets.b17.data import AMERICAN, GERMAN

    rows = []
    for a in game.state.aircraft.values():
        seat = AMERICAN if a.bomber else GERMAN
        unplaced = game.state.unplaced(a)
        flying = a.status == "flying" and not unplaced
        rows.append(
            [
                a.label,
                a.model,
                seat,
                "yes" if seat in mine else "",
                f"{a.x:g}" if flying else "",
                f"{a.y:g}" if flying else "",
                f"{a.heading:g}" if flying else "",
                len(a.damaged),
                f'{game.allowance(a):g}"' if flying else "",
                "not yet placed" if unplaced else a.status + (", has bombed" if a.bombed else ""),
            ]
        )
    columns = ["aircraft", "model", "seat", "yours", "x", "y", "heading", "damage", "moves", "status"]
    return [
        {"caption": "Aircraft (x from the entry end, y from the right flank, inches)", "columns": columns, "rows": rows}
    ]


def _b17_phase(game: Any) -> str:
    from grognard.rulesets.b17.describe import PHASES

    return str(PHASES.get(game.state.phase, game.state.phase))


def _b17_figures(game: Any) -> list[tuple[str, Any]]:
    from grognard.rulesets.b17 import summary

    return summary(game)


def _b17_marks(game: Any, mine: set[str]) -> list[dict[str, Any]]:
    from grognard.render.b17 import MARGIN, SCALE, TOP
    from grognard.rulesets.b17.data import AMERICAN, GERMAN, TABLE_WIDTH

    out = []
    for a in game.state.aircraft.values():
        if a.flying and not game.state.unplaced(a) and (AMERICAN if a.bomber else GERMAN) in mine:
            x, y = MARGIN + a.x * SCALE, TOP + (TABLE_WIDTH - a.y) * SCALE
            out.append({"x": x, "y": y, "r": 18, "label": f"your aircraft {a.label}"})
    return out


def _b17_unit(game: Any, decision: Decision) -> dict[str, Any] | None:
    from grognard.render.b17 import MARGIN, SCALE, TOP
    from grognard.rulesets.b17.data import TABLE_WIDTH

    kind, _, rest = decision.id.partition(" ")
    if kind not in ("move", "guns"):
        return None
    a = game.aircraft(rest.split()[0])
    return {"label": a.label, "x": MARGIN + a.x * SCALE, "y": TOP + (TABLE_WIDTH - a.y) * SCALE, "r": 18}


FACES: dict[str, Face] = {
    "omaha": Face(_omaha_forms, _omaha_tables, _omaha_phase, _omaha_figures, _omaha_marks, _omaha_unit),
    "b17": Face(_b17_forms, _b17_tables, _b17_phase, _b17_figures, _b17_marks, _b17_unit),
}


# ---------------------------------------------------------------------------------------------- generic
def decision_json(ruleset: Ruleset, game: Game, decision: Decision) -> dict[str, Any]:
    """A decision for the player page: prompt, situation, a menu with words, notes and odds, form controls,
    and the typed grammar of this decision's orders only (``usage``, with an ``example`` from the menu).

    The menu is the rule set's (``Ruleset.menu``: useful first, in words, every legal target of a finite
    choice); without one, every action of a finite space (at most ``FINITE``) or ``candidates(MENU)``.
    Each choice: ``text`` (the order sent), ``label`` (its words, or the text), ``note``, ``odds``.
    ``unit``: the unit the decision is about where the picture draws it (``{label, x, y, r}``, picture
    units), so that a tap on it picks this decision; ``None`` when the decision is about no one unit.
    """
    situation = ruleset.situation(game, decision) if ruleset.situation is not None else [decision.prompt]
    if ruleset.menu is not None:
        offered = ruleset.menu(game, decision)
    else:
        finite = getattr(decision.space, "actions", None)
        actions = list(finite[:FINITE]) if finite is not None else decision.space.candidates(MENU)
        offered = [(a, "") for a in actions]
    choices = []
    for action, words in offered:
        note = ruleset.note(game, action) if ruleset.note is not None else ""
        odds = ruleset.odds(game, action) if ruleset.odds is not None else None
        choices.append({"text": str(action), "label": words or str(action), "note": note or "", "odds": odds or ""})
    face = FACES.get(ruleset.name)
    return {
        "id": decision.id,
        "seat": decision.seat,
        "prompt": decision.prompt,
        "situation": situation,
        "choices": choices,
        "forms": face.forms(game, decision) if face is not None else [],
        "unit": face.unit(game, decision) if face is not None else None,
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


def tables(ruleset: Ruleset, game: Game, mine: set[str]) -> list[dict[str, Any]]:
    """Text tables of the units (beside every picture)."""
    face = FACES.get(ruleset.name)
    if face is not None:
        return face.tables(game, mine)
    if ruleset.board_text is not None:
        return [{"caption": "The table", "pre": ruleset.board_text(game, None)}]
    return []


def marks(ruleset: Ruleset, game: Game, mine: set[str]) -> list[dict[str, Any]]:
    """Where the picture's own units of a seat are (picture coordinates), to ring them."""
    face = FACES.get(ruleset.name)
    return face.marks(game, mine) if face is not None and mine else []


def phase(ruleset: Ruleset, game: Game) -> str:
    face = FACES.get(ruleset.name)
    if face is not None:
        return face.phase(game)
    return str(getattr(getattr(game, "state", None), "phase", ""))


def figures(ruleset: Ruleset, game: Game) -> list[tuple[str, Any]]:
    face = FACES.get(ruleset.name)
    if face is not None:
        return face.figures(game)
    return ruleset.summary(game) if ruleset.summary is not None else []


def event_json(ruleset: Ruleset, event: Event, index: int) -> dict[str, Any] | None:
    """An event as the pages show it: a line of text, or dice as dice; ``None`` for bookkeeping."""
    if event.kind == "dice":
        d = event.data
        return {"i": index, "dice": list(d["values"]), "sides": d["sides"], "purpose": d["purpose"]}
    text = ruleset.describe(event)
    if text is None:
        return None
    return {"i": index, "text": text.strip(), "kind": event.kind}
