"""B-17 events as short lines for people (the CLI's turn log and summary)."""

from __future__ import annotations

from grognard.core.engine import Event
from grognard.core.words import counted

PHASES = {
    "setup": "placing the boxes",
    "fighters": "fighters move",
    "bombers": "bombers move",
    "bomber fire": "bombers fire",
    "over": "game over",
}


def where(x: float, y: float) -> str:
    """A point in words: inches from the entry end and from the right flank."""
    return f"({x:g}, {y:g})"


def describe(event: Event) -> str | None:
    """One line for ``event``, or ``None`` if it is not worth a line (bookkeeping)."""
    d = event.data
    k = event.kind
    if k == "placed":
        where_ = ", ".join(f"{b['bomber']} {b['slot']} {where(b['x'], b['y'])}" for b in d["bombers"])
        return f"box {d['box']} placed: {where_}"
    if k == "entered":
        fighters = " and ".join(f["fighter"] for f in d["fighters"])
        return f"element {d['element']} ({fighters}) enters at {d['hour']} o'clock, {d['altitude']} the bombers"
    if k == "no_entry":
        return f"element {d['element']} does not come in this turn"
    if k == "moved":
        return f'{d["aircraft"]} flies {d["inches"]:g}" to {where(d["x"], d["y"])}, heading {d["heading"]:g}'
    if k == "stops":
        return f'{d["aircraft"]} stops {d["at"]:g}" along its path at {where(d["x"], d["y"])} to attack {d["target"]}'
    if k == "move_cut":
        return f'{d["aircraft"]} is damaged: its move is cut by 2" ({d["inches"]:g}" left to fly)'
    if k == "left_table":
        return f"{d['aircraft']} leaves the table at {where(d['x'], d['y'])} and is out"
    if k == "attack":
        how = f" {d['approach']} (+1)" if d["approach"] else ""
        return f"{d['fighter']} attacks {d['bomber']}{how}: {d['attack']} against {d['defence']}: {d['outcome']}"
    if k == "gunners":
        guns = ", ".join(d["guns"]) or "no gun in range"
        return f"{d['bomber']} fires at {d['fighter']} ({d['occasion']}): {guns}"
    if k == "gun":
        return f"  {d['bomber']} {d['gun']}: {d['attack']} against {d['defence']}: {d['outcome']}"
    if k == "engine_damaged":
        points = f"{d['damage']} damage point{'s' if d['damage'] > 1 else ''}"
        return f"{d['aircraft']}: engine {d['engine']} damaged ({points})"
    if k == "destroyed":
        return f"{d['aircraft']} is DESTROYED"
    if k == "flak":
        return f"flak at {d['bomber']}: AA {d['aa']} against {d['bomber_score']}: {d['outcome']}"
    if k == "bombs":
        rolls = "+".join(str(h) for h in d["rolls"])
        return f"{d['bomber']} drops its bombs: {rolls} = {counted(d['hits'], 'hit')}; {d['total']} in all"
    if k == "dice":
        return f"    dice: {d['purpose']}: {' '.join(str(v) for v in d['values'])}"
    if k == "resigned":
        return f"{d['seat']} resigns"
    if k == "game_over":
        return f"game over: {d['reason']}"
    return None


def summarize_turn(events: list[Event]) -> list[str]:
    """A compact account of one turn: arrivals, attacks, losses, bombs."""
    arrivals: list[str] = []
    moves: list[str] = []
    fights: list[str] = []
    other: list[str] = []
    for event in events:
        k, d = event.kind, event.data
        if k == "entered":
            arrivals.append(f"{d['element']} at {d['hour']} o'clock ({d['altitude']})")
        elif k == "moved":
            moves.append(f"{d['aircraft']}{where(d['x'], d['y'])}")
        elif k in ("attack", "flak", "bombs", "destroyed", "left_table", "engine_damaged", "placed"):
            line = describe(event)
            if line:
                (fights if k in ("attack", "flak", "bombs") else other).append(line)
        elif k == "gun" and d["outcome"] != "no damage":
            fights.append(f"{d['bomber']} {d['gun']} hits {d['fighter']}: {d['outcome']}")
    lines = []
    if arrivals:
        lines.append("fighters arrive: " + ", ".join(arrivals))
    if moves:
        lines.append("positions: " + " ".join(moves))
    return lines + fights + other


# the sequence of play in a few lines, for the printed card (grognard sheet)
SEQUENCE = (
    'Setup: the target (11" by 8") centred on the far end; the B-17s in a diamond box 6" to 18" from '
    'the entry edge, 6" from the flanks.',
    "1. Entry: each German element of two fighters not yet on the table rolls a d6: even, it enters; 2d6 "
    'give its clock hour (entry point and heading), a d6 its altitude (1-2 below: 6" less first move, '
    '5-6 above: 6" more).',
    '2. Fighters move one at a time, 14": 6" straight, one turn, straight on. A fighter may stop once '
    'within 4" to attack (d6+3, +1 head-on or from behind, against d6+3); the gunners within 4" fire '
    'back (d6+1 against d6+2), then it flies on; bombers within 4" fire again at the end of its move.',
    '3. Bombers move 10" (2" less per damage): 3" straight, one turn up to 90 degrees, straight on; '
    'then fire at fighters within 4" (nose and tail, or the two waists, at one target).',
    '4. Flak and bombs: a bomber within 6" of the target meets the flak once; one wholly over the target '
    "drops four bombs (bomber d6 against target d6 each).",
    "Win: 3 bomb hits for the Americans; fewer, and the Germans win.",
)

LOG_KEY = (
    "How to read the turn summary: `B1(25.57, 30)` a bomber's position in inches (x along the table from "
    "the American end, y across); `at 9 o'clock (above)` where an element of fighters enters and its "
    "altitude; attacks and gunners' fire name the shooter, the target and the outcome."
)
"""What the compact turn summary's abbreviations mean (``play --help`` and docs/solo.md)."""
