"""What a person reads of the B-17 raid from a seat's view (``B17Game.view``, JSON-safe): the situation of a
decision and the table as text, for the terminal and the pages alike (``Face.situation``, ``Face.board``).

The view carries what the rules work out for them (``rulesets/b17/view.py``: each aircraft's allowance and
altitude, the terms of a move owed, the guns in range of a fire owed), so nothing here needs the game.
"""

from __future__ import annotations

from typing import Any

from grognard.core.engine import Decision
from grognard.rulesets.b17.data import TABLE_LENGTH, TABLE_WIDTH, TARGET, damage_grade
from grognard.rulesets.b17.describe import PHASES

View = dict[str, Any]


def _aircraft(view: View, label: str) -> dict[str, Any]:
    """An aircraft of the view, with its ``motion`` (unplaced, altitude, allowance) in it."""
    return _with_motion(view, next(a for a in view["aircraft"] if a["label"] == label))


def _with_motion(view: View, a: dict[str, Any]) -> dict[str, Any]:
    return {**a, **view["motion"][a["label"]]}


def aircraft_line(a: dict[str, Any]) -> str:
    """One aircraft (its view's entry with its ``motion``): where it is, its heading, its damage, its move."""
    damaged = a["damaged"]
    damage = f", {len(damaged)} damage (engines {', '.join(map(str, damaged))} smoking)" if damaged else ""
    if a["unplaced"]:
        return f"{a['label']} {a['model']}: not yet placed (box {a['box']})"
    if a["status"] != "flying":
        return f"{a['label']} {a['model']}: {a['status']}"
    extra = " (has bombed)" if a["bombed"] else ""
    alt = a["altitude"]
    bomber = a["kind"] == "bomber"
    altitude = f", {alt} the bombers (first move)" if alt and a["moves"] == 0 and not bomber else ""
    return (
        f"{a['label']} {a['model']} at ({a['x']:g}, {a['y']:g}) heading {a['heading']:g}{damage}; "
        f'moves {a["allowance"]:g}"{altitude}{extra}'
    )


def situation(view: View, decision: Decision) -> list[str]:
    """The lines a person needs for ``decision``."""
    head = f"Turn {view['turn']}, {PHASES.get(view['phase'], view['phase'])} - {decision.seat}: {decision.prompt}"
    kind, _, rest = decision.id.partition(" ")
    lines = [head]
    if kind == "move":
        a = _aircraft(view, rest)
        terms = view["moving"][rest]
        lines.append(aircraft_line(a))
        lines.append(
            f'path: at least {terms["straight"]:g}" straight, then one turn of up to '
            f'{terms["turn"]:g} degrees (+ left, - right), {a["allowance"]:g}" in all'
        )
        for enemy, reach in terms["reach"]:
            lines.append(f"  {aircraft_line(_aircraft(view, enemy))}; {reach:.1f}\" from the fighter's nose")
    elif kind == "guns":
        bomber, fighter = rest.split()
        lines.append(aircraft_line(_aircraft(view, bomber)))
        lines.append(aircraft_line(_aircraft(view, fighter)))
        lines.append("guns in range: " + ", ".join(f'{g} {d:.1f}"' for g, d in view["guns_in_range"][rest]))
    elif kind == "place":
        lines.append(  # one line, one sentence: a page shows each line as its own paragraph
            "give four centres: leader, left, right, last; 4\" at least between the leader's tail and the last "
            'bomber\'s nose and between the left and right wingtips; 6-18" from the entry end, 6" from the flanks'
        )
    return lines


def board(view: View) -> str:
    """The table as text: a map (1 character = 4"; entry end on the left, target on the right) and a list."""
    cols, rows = int(TABLE_LENGTH // 4) + 1, int(TABLE_WIDTH // 4) + 1
    grid = [["." for _ in range(cols)] for _ in range(rows)]
    x0, y0, x1, y1 = TARGET
    for r in range(rows):
        for c in range(cols):
            if x0 <= c * 4 <= x1 and y0 <= (rows - 1 - r) * 4 + 2 <= y1 + 2:
                grid[r][c] = "#"
    for a in view["aircraft"]:
        if a["status"] == "flying" and not view["motion"][a["label"]]["unplaced"]:
            c, r = min(int(a["x"] // 4), cols - 1), rows - 1 - min(int(a["y"] // 4), rows - 1)
            number = int(a["label"][1:])
            grid[r][c] = str(number % 10) if a["kind"] == "bomber" else chr(ord("a") + number - 1)
    phase = PHASES.get(view["phase"], view["phase"])
    out = [f"Turn {view['turn']}, {phase}; bomb hits {view['hits']} ({damage_grade(view['hits'])})"]
    out += ["  " + "".join(row) for row in grid]
    out.append('  (1 character = 4"; entry end left, target # right; bombers by number, fighters a=F1, b=F2, ...)')
    for a in view["aircraft"]:
        if a["status"] != "waiting":
            out.append("  " + aircraft_line(_with_motion(view, a)))
    waiting = [e["label"] for e in view["elements"] if e["entered"] is None]
    if waiting:
        out.append("elements not yet arrived: " + ", ".join(waiting))
    return "\n".join(out)
