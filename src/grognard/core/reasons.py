"""Why a bot chose what it chose: a reason for each decision (issue 31, item 2).

A :class:`Reason` names the clause of the rule set's doctrine that chose the action (a clause id written
in bold in ``docs/rules/<ruleset>.md``: ``omaha.doctrine.concentrate``, ``hard.shortest-way``), the few
candidates it weighed with their figures (the doctrine's ranking keys, or the search's mean and interval),
and one line in plain words ("fire B2 A3: A3 is furthest up the beach, 9 men; the rules' advice to
concentrate on one squad").

A bot says why through its ``explain(game, decision, action)``, asked *after* its ``choose`` and before the
action is applied, and only by a face that will show it (the terminal, a room, a record that keeps it):
``choose`` builds nothing of it, so Monte Carlo runs and search playouts pay nothing. ``explain`` reads the
game as the bot's seat may (a doctrine bot reads what its side sees), never touches the bot's random
stream, and classifies the action given, so the same reason comes back whenever it is asked.

A reason of a secret choice is the seat's alone until the reveal (:func:`reason_json` writes ``to``, read
as a sealed event is: :func:`grognard.core.record.readable_by`).

>>> r = Reason("omaha.doctrine.rush", "move A3 20 24: to the wall", (Weighed("move A3 20 24", "6.0\\" to go", True),))
>>> Reason.from_json(r.to_json()) == r
True
>>> r.lines()[1]
'  why: omaha.doctrine.rush'
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from grognard.core.engine import Decision, Game

__all__ = ["Explains", "Reason", "Weighed", "acting", "interval", "reason_for", "reason_json", "shown_why", "tally"]


@dataclass(frozen=True)
class Weighed:
    """One candidate a bot weighed: the action's text, its figures in words, and whether it was chosen."""

    action: str
    figures: str
    chosen: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "figures": self.figures, "chosen": self.chosen}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Weighed:
        return cls(str(data.get("action", "")), str(data.get("figures", "")), bool(data.get("chosen", False)))


@dataclass(frozen=True)
class Reason:
    """Why a bot's action: the clause that chose it, one line in plain words, the candidates weighed."""

    clause: str
    line: str
    weighed: tuple[Weighed, ...] = ()
    piece: str = ""  # the label of the piece that acts (a squad, a bunker, an aircraft, a unit), where it has one

    def to_json(self) -> dict[str, Any]:
        out = {"clause": self.clause, "line": self.line, "weighed": [w.to_json() for w in self.weighed]}
        return {**out, "piece": self.piece} if self.piece else out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reason:
        weighed = data.get("weighed") or []
        return cls(
            str(data.get("clause", "")),
            str(data.get("line", "")),
            tuple(Weighed.from_json(w) for w in weighed if isinstance(w, Mapping)),
            str(data.get("piece", "")),
        )

    @staticmethod
    def problem(data: Any) -> str | None:
        """What is wrong with ``data`` read as a reason (a record's, which no digest covers), naming the field;
        None when it reads as one."""
        if not isinstance(data, Mapping):
            return f"reason: {type(data).__name__}, not an object with clause, line and weighed"
        for key in ("clause", "line"):
            if not isinstance(data.get(key), str):
                return f"reason.{key}: {data.get(key)!r}: not text"
        if not isinstance(data.get("piece", ""), str):
            return f"reason.piece: {data['piece']!r}: not text"
        weighed = data.get("weighed", [])
        if not isinstance(weighed, list):
            return f"reason.weighed: {weighed!r}: not a list"
        for i, w in enumerate(weighed):
            if not (
                isinstance(w, Mapping)
                and isinstance(w.get("action"), str)
                and isinstance(w.get("figures"), str)
                and isinstance(w.get("chosen"), bool)
            ):
                return f"reason.weighed[{i}]: {w!r}: not a candidate (action, figures, chosen)"
        return None

    def lines(self) -> list[str]:
        """The reason as a person reads it: its line, its clause, then each candidate weighed."""
        out = [self.line, f"  why: {self.clause}"]
        for w in self.weighed:
            mark = "<- chosen" if w.chosen else ""
            out.append(f"  weighed: {w.action:<24} {w.figures} {mark}".rstrip())
        return out


class Explains(Protocol):
    """A bot that says why: the reason of ``action``, which it chose for ``decision`` in ``game`` (not applied)."""

    def explain(self, game: Any, decision: Decision, action: Any) -> Reason: ...


def reason_for(bot: Any, game: Game, decision: Decision, action: Any, *, read: bool = False) -> Reason | None:
    """``bot``'s reason for ``action`` (asked before it is applied), or None for a bot that gives none and in a
    game nobody reads (``Game.unobserved``: Monte Carlo's, a playout's), which builds no reasons as it builds no
    events; ``read``: the caller reads it, whatever the game's switch (the coach, on a sampled copy of the
    game)."""
    explain = getattr(bot, "explain", None)
    if explain is None or not (game.observed or read):
        return None
    reason: Reason = explain(game, decision, action)
    return reason


def acting(reason: Reason, piece: str | None) -> Reason:
    """``reason`` naming the piece that acts (``piece``; None or empty: none), for a tap on it in the browser."""
    return replace(reason, piece=piece) if piece else reason


def reason_json(game: Game, decision: Decision, reason: Reason) -> dict[str, Any]:
    """``reason`` as a record line and a room's feed keep it: a secret choice's is for the seats that share it
    (``to``) until its reveal (``decision``: the key the ``revealed`` event names)."""
    out = reason.to_json()
    if decision.secret_group is not None:
        out["to"] = sorted(game.shares_secrets_with(decision.seat))
        out["decision"] = decision.id
    return out


def shown_why(seat: str, action: str, reason: Any) -> dict[str, Any] | None:
    """A bot's reason kept in a record line (``reason_json``) as the pages show it: ``seat``, ``action`` and the
    reason's fields; None for no reason, or a secret choice's (``to``), which only its seats' record shows.

    >>> shown_why("German 1", "fire B1 A3", {"clause": "c", "line": "l", "weighed": []})["seat"]
    'German 1'
    >>> shown_why("Axis 1", "melee g1 stay", {"clause": "c", "line": "l", "to": ["Axis 1"]}) is None
    True
    """
    if not isinstance(reason, Mapping) or reason.get("to") is not None:
        return None
    return {"seat": seat, "action": action, **reason}


def tally(lines: Sequence[Mapping[str, Any]], most: int = 6) -> list[str]:
    """The bots' reasons of a record (its lines, as a spectator reads them) for a debrief: each seat's clauses,
    the most followed first, with how many orders followed each and one of them in words.

    >>> line = {"type": "action", "seat": "German 1", "action": "fire B1 A3",
    ...         "reason": {"clause": "omaha.doctrine.concentrate", "line": "fire B1 A3: A3 is nearest"}}
    >>> tally([line, line])
    ['German 1 followed omaha.doctrine.concentrate in 2 orders, such as fire B1 A3: A3 is nearest']
    """
    counts: dict[tuple[str, str], list[str]] = {}
    for line in lines:
        why = shown_why(str(line.get("seat")), str(line.get("action")), line.get("reason"))
        if line.get("type") == "action" and why is not None:
            counts.setdefault((why["seat"], str(why.get("clause"))), []).append(str(why.get("line")))
    ranked = sorted(counts.items(), key=lambda item: (-len(item[1]), item[0]))[:most]
    return [
        f"{seat} followed {clause} in {len(said)} order{'' if len(said) == 1 else 's'}, such as {said[-1]}"
        for (seat, clause), said in ranked
    ]


def interval(scores: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``scores`` (each in [0, 1]) and its 95% interval (normal, clipped to [0, 1]).

    >>> interval([1.0, 0.0, 1.0, 1.0])
    (0.75, 0.26, 1.0)
    """
    n = len(scores)
    if n == 0:
        return 0.0, 0.0, 1.0
    mean = sum(scores) / n
    spread = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1)) if n > 1 else 0.5
    half = 1.96 * spread / math.sqrt(n)
    return round(mean, 2), round(max(0.0, mean - half), 2), round(min(1.0, mean + half), 2)


def short(value: float) -> str:
    """A measure in inches as a person reads it: ``12.5"``."""
    return f'{value:.1f}"'
