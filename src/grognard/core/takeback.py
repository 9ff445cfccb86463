"""Taking an action back: free until a die is rolled or a secret revealed.

The rule of every online table. An action whose record line rolled no die
and revealed no secret choice may be taken back (a move, a fire order that
waits for the phase's last, a sealed stay-or-retreat whose reveal has not
come): nothing was learnt that the game would not show again. An action
whose line rolled a die or revealed the sealed choices stands, and so does
every action before it: the seeded dice go on from where they are, so taking
an action back and giving it again would roll the same dice, and a player
could look at the phase's dice before choosing. With the table's own dice
(referee mode) the same rule holds: what was rolled stands.

One rule for every face: the terminal's ``undo`` (which takes back a
person's last order and the bots' actions after it, hot seat included) and
the web's host's "Take back the last action".

>>> order = {"type": "action", "seat": "German 1", "action": "fire B1 A1",
...          "events": [{"kind": "dice", "purpose": "bunker B1 fires", "sides": 6, "values": [5, 2, 6, 1]}]}
>>> move = {"type": "action", "seat": "American 1", "action": "move A1 4 4", "events": [{"kind": "moved"}]}
>>> print(stands([move]))
None
>>> stands([order, move])
'its dice were rolled (fire B1 A1: 4 dice)'
>>> stands([move, order])
'dice were rolled after it (fire B1 A1 by German 1: 4 dice)'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

RULE = "an action may be taken back until a die is rolled or a secret revealed: then it stands"


def _rolled(line: Mapping[str, Any]) -> int:
    """The dice the record ``line`` rolled."""
    return sum(len(e.get("values") or ()) for e in line.get("events") or () if e.get("kind") == "dice")


def _revealed(line: Mapping[str, Any]) -> list[str]:
    """The sealed choices the record ``line`` revealed (their decisions' ids)."""
    shown: list[str] = []
    for event in line.get("events") or ():
        if event.get("kind") == "revealed":
            shown.extend(sorted(event.get("choices") or {}))
    return shown


def _what(line: Mapping[str, Any], seat: bool) -> str:
    """The line's action as a refusal names it: ``fire B1 A1``, with ``seat`` ``fire B1 A1 by German 1``."""
    action = str(line.get("action") or line.get("type") or "the setup")
    return f"{action} by {line['seat']}" if seat and line.get("seat") else action


def why_it_stands(line: Mapping[str, Any], own: bool = True, seat: bool = False) -> str | None:
    """Why the action of record ``line`` cannot be taken back (its dice, its reveal), or None.

    ``own``: the line is the action asked about (``its dice were rolled``), else one after it (named with
    its seat); ``seat``: the action asked about is named with its seat too (the web's host takes back
    anyone's).
    """
    what = _what(line, seat or not own)
    if dice := _rolled(line):
        count = f"{dice} {'die' if dice == 1 else 'dice'}"
        return f"{'its dice were' if own else 'dice were'} rolled{'' if own else ' after it'} ({what}: {count})"
    if shown := _revealed(line):
        opened = "it revealed the secret choices" if own else "secret choices were revealed after it"
        return f"{opened} ({what}: {', '.join(shown)} shown)"
    return None


def stands(lines: Sequence[Mapping[str, Any]], seat: bool = False) -> str | None:
    """Why an action cannot be taken back together with the actions after it: ``lines`` are its record line
    and those after it (all taken back at once); the reason of the first that rolled a die or revealed a
    secret, or None when they may all go. ``seat``: name the action's seat too.

    >>> move = {"type": "action", "seat": "Axis", "action": "melee M1 stay", "events": [{"kind": "chosen"}]}
    >>> stands([{**move, "events": [{"kind": "revealed", "choices": {"melee M1": {}}}]}], seat=True)
    'it revealed the secret choices (melee M1 stay by Axis: melee M1 shown)'
    """
    for index, line in enumerate(lines):
        why = why_it_stands(line, own=index == 0, seat=seat)
        if why is not None:
            return why
    return None
