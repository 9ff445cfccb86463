"""What a person reads of Omaha from a seat's view (``OmahaGame.view``, JSON-safe): the situation of a decision
and the whole beach as text, for the terminal and the pages alike (``Face.situation``, ``Face.board``).

The view says what lies in front of each squad (``view["fronts"]``: its obstacle section, the bunker in front,
the bunker it is in contact with), so nothing here needs the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from grognard.core.engine import Decision
from grognard.core.words import counted
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.data import OBSTACLE_SECTION_WIDTH, bunker_fire
from grognard.rulesets.omaha.describe import PHASES, where

View = dict[str, Any]


def _bunker(view: View, label: str | None) -> dict[str, Any] | None:
    return next((b for b in view["bunkers"] if b["label"] == label), None)


def _bunker_words(bunker: dict[str, Any]) -> str:
    return counted(bunker["defenders"], "defender") if bunker["status"] == "active" else str(bunker["status"])


def squad_line(view: View, squad: dict[str, Any]) -> str:
    """One squad and what lies in front of it."""
    parts = [f"{squad['label']}: {counted(squad['figures'], 'figure')} at x={squad['x']:g}, {where(squad['y'])}"]
    front = view["fronts"][squad["label"]]
    section = front["obstacles"]
    count = view["obstacles"][section]
    parts.append(f"obstacles in front O{section + 1}: {'not yet known' if count is None else count}")
    bunker = _bunker(view, front["bunker"])
    if bunker is not None:
        parts.append(f"bunker in front {bunker['label']}: " + _bunker_words(bunker))
    if front["contact"] is not None:
        parts.append(f"in contact with {front['contact']}")
    if squad["lost"]:
        parts.append(f"{squad['lost']} lost this turn")
    return "; ".join(parts)


def _squads(view: View) -> list[dict[str, Any]]:
    return [a["squad"] for a in view["americans"] if a["squad"] is not None]


def situation(view: View, decision: Decision) -> list[str]:
    """The lines a person needs for ``decision``: the unit in question and its surroundings."""
    kind, _, label = decision.id.partition(" ")
    head = f"Turn {view['turn']}, {PHASES.get(view['phase'], view['phase'])} - {decision.seat}: {decision.prompt}"
    if kind == "orders":
        squad = view["americans"][int(label[1:]) - 1]["squad"]
        return [head, squad_line(view, squad)]
    if kind in ("fire", "artillery"):
        squads = sorted(_squads(view), key=lambda q: -q["y"])
        lines = [head]
        if kind == "fire":
            bunker = next(b for b in view["bunkers"] if b["section"] == int(label[1:]) - 1)
            dice = bunker_fire(bunker["defenders"]).dice
            lines.append(
                f"{bunker['label']}: {counted(bunker['defenders'], 'defender')}, rolls {counted(dice, 'die', 'dice')}"
            )
        lines.append("squads (furthest up the beach first):")
        lines += [f"  {squad_line(view, q)}" for q in squads[:8]]
        if len(squads) > 8:
            lines.append(f"  ... and {len(squads) - 8} more: every squad is among the choices")
        return lines
    if kind == "place":
        counts = ", ".join(f"O{i + 1}:{'?' if c is None else c}" for i, c in enumerate(view["obstacles"]))
        return [head, f"obstacles per section: {counts}"]
    return [head]


def _strip(view: View) -> list[str]:
    """The strip map's rows (1 character = 2"): bunkers, obstacles, then the squads by band."""
    cols = int(float(view["width"]) // 2)
    rows: list[str] = []
    line = [" "] * cols  # bunker row: each bunker's state at the middle of its section
    for bunker in view["bunkers"]:
        mark = {"active": str(bunker["defenders"]), "silenced": "s", "destroyed": "X"}[bunker["status"]]
        line[min(int(R.bunker_centre(bunker["section"]) // 2), cols - 1)] = mark
    rows.append("bunkers   |" + "".join(line) + "|")
    line = ["."] * cols
    for section, count in enumerate(view["obstacles"]):
        start = int(section * OBSTACLE_SECTION_WIDTH // 2)
        text = "?" if count is None else ("ok" if count == 0 else "#" * count)
        for i, ch in enumerate(text):
            line[start + 1 + i] = ch
        line[start] = "|"
    rows.append("obstacles |" + "".join(line) + "|")
    bands: list[tuple[str, Callable[[float], bool], str]] = [
        ("past wall", lambda y: R.past_wall(y), " "),
        ("at wall", R.at_wall, "="),
        ("beach 16+", lambda y: 16.0 <= y and R.below_wall(y), " "),
        ("beach 8+", lambda y: 8.0 <= y < 16.0, " "),
        ("beach 0+", lambda y: 0.0 <= y < 8.0, " "),
        ("water", lambda y: y < 0.0, "~"),
    ]
    for name, holds, fill in bands:
        line = [fill] * cols
        for q in _squads(view):
            if holds(q["y"]):
                col = min(int(q["x"] // 2), cols - 1)
                for i, ch in enumerate(q["label"][1:]):
                    if col + i < cols:
                        line[col + i] = ch
        rows.append(f"{name:<10}|" + "".join(line) + "|")
    return rows


def board(view: View) -> str:
    """The whole beach as text: a strip map (1 character = 2") and lists of bunkers and squads."""
    opened = set(view["exits_open"])
    phase = PHASES.get(view["phase"], view["phase"])
    opened_words = f"exits open {len(view['exits_open'])} of {len(view['bunkers'])}"
    out = [f"Turn {view['turn']}, {phase}; {opened_words}", *_strip(view)]
    out.append(
        '  (1 character = 2"; bunker B:defenders, s silenced, X destroyed; obstacles: # each, ok cleared,'
        " ? not yet rolled; squads by number)"
    )
    out.append(
        "bunkers: "
        + "  ".join(
            f"{b['label']} " + _bunker_words(b) + (" (exit open)" if b["section"] in opened else "")
            for b in view["bunkers"]
        )
    )
    out.append("squads:")
    out += [f"  {squad_line(view, q)}" for q in _squads(view)]
    waiting = [a["label"] for a in view["americans"] if a["squad"] is None and not a["out"]]
    if waiting:
        out.append("in the landing craft: " + ", ".join(waiting))
    gone = [a["label"] for a in view["americans"] if a["out"]]
    if gone:
        out.append("out of squads: " + ", ".join(gone))
    return "\n".join(out)
