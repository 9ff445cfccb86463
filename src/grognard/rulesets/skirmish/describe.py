"""Skirmish events as short lines for people (the CLI's turn log)."""

from __future__ import annotations

from grognard.core.engine import Event
from grognard.core.words import counted


def describe(event: Event) -> str | None:
    """One line for ``event``, or ``None`` if it is not worth a line."""
    d = event.data
    k = event.kind
    if k == "setup":
        return (
            f"{d['title']}: {counted(d['units'], 'unit')}, {counted(d['figures'], 'man', 'men')}; tables: {d['tables']}"
        )
    if k == "initiative":
        if d.get("fixed"):
            return f"{d['first']} move first (scenario)"
        return f"initiative: allies {d['allies']}, axis {d['axis']}: {d['first']} move first"
    if k == "moved":
        entered = " comes on and" if d["entered"] else ""
        n = len(d["figures"])
        return f"{d['unit']}{entered} moves {n} {'man' if n == 1 else 'men'}"
    if k == "drove":
        return f"{d['vehicle']} drives to ({d['at'][0]:g}, {d['at'][1]:g}) with {len(d['men'])} aboard"
    if k == "piece_turned":
        return f"{d['crew']} turn piece {d['piece']} to face {d['heading']:g} degrees (it cannot fire this turn)"
    if k in ("hitched", "unhitched"):
        verb = "hitches" if k == "hitched" else "unhitches"
        return f"{d['vehicle']} {verb} piece {d['piece']} at ({d['at'][0]:g}, {d['at'][1]:g})"
    if k == "parks":
        return f"{d['vehicle']} stays put"
    if k in ("loaded", "unloaded"):
        verb = "get into" if k == "loaded" else "get out of"
        return f"{' '.join(d['men'])} {verb} {d['vehicle']}"
    if k == "train":
        return (
            "the train has left the board"
            if d["gone"]
            else f'the train runs {d["ran"]:g}" (its head at {d["head"]:g}")'
        )
    if k == "dropped":
        where = f"({d['at'][0]:g}, {d['at'][1]:g})"
        die = f", die {d['die']}" if "die" in d else ""
        return (
            f'{d["figure"]} jumps at ({d["aim"][0]:g}, {d["aim"][1]:g}), scatters {d["scatter"]}" '
            f"toward {d['hour']} o'clock to {where}: {d['fate']}{die}"
        )
    if k == "waits":
        return f"{d['unit']} waits off the table"
    if k == "door":
        return f"{d['figure']} {'opens' if d['open'] else 'closes'} door {d['door']}"
    if k == "wire_laid":
        return f"{d['figure']} lays wire"
    if k == "traps_set":
        return f"{d['figure']} sets two tank traps"
    if k == "structure_hit":
        return (
            f"shell on section {d['section']} (storey {d['storey']}): -{d['lost']}, "
            f"{d['points']} points left: {d['state']}"
        )
    if k == "storey_gone":
        return f"section {d['section']}: storey {d['storey']} is gone"
    if k == "section_collapses":
        return f"section {d['section']} collapses on everyone inside"
    if k == "bridge_hit":
        return f"shell on bridge {d['bridge']}: -{d['lost']}: {d['state']}"
    if k == "bridge_gone":
        return f"bridge {d['bridge']} is gone"
    if k == "falls_in_river":
        return f"{d['figure']} falls into the river from bridge {d['bridge']}"
    if k == "door_blown":
        return f"door {d['door']} is blown off (a 1 from artillery)"
    if k == "bridge_work":
        return f"{d['figure']} works on bridge {d['bridge']} ({d['work']} of {d['of']} man-moves)"
    if k == "bridge_built":
        return f"bridge {d['bridge']} is built ({d['points']} points)"
    if k == "wedge":
        weapon = "MG" if d["weapon"] == "mg" else str(d["weapon"]).replace("_", " ")
        head = f"{d['gunner']}'s {weapon} wedge at {d['heading']:g}\u00b0"
        if not d["men"]:
            return f"{head} covers nobody"
        friends = f" (our own: {', '.join(d['friends'])})" if d["friends"] else ""
        return f"{head} covers {', '.join(d['men'])}{friends}"
    if k == "fire_order":
        fire = "fires" if d["men"] == 1 else "fire"
        return f"{d['unit']}: {counted(d['men'], 'man', 'men')} {fire} at {', '.join(d['targets'])}"
    if k == "shots":
        cover = ", cover" if d["cover"] else ""
        dice = counted(d["dice"], "die", "dice")
        return f"{d['unit']} -> {d['target']}: {dice}, {d['hit_on']}+{cover}: {counted(d['hits'], 'hit')}"
    if k == "wounded":
        return f"{d['figure']} hit: flesh wound"
    if k == "killed":
        return f"{d['figure']} killed ({d['why']})"
    if k == "melee_round":
        return f"melee round {d['round']} ({d['attacker']} attack): {' '.join(d['men'])}"
    if k == "melee_strike":
        return f"{d['figure']} strikes at {d['at']}: {'hit' if d['hit'] else 'miss'}"
    if k == "melee_both_miss":
        return "both sides miss: each group chooses stay or retreat in secret"
    if k == "melee_choices":
        return "melee choices shown: " + ", ".join(f"{g} {c}" for g, c in d["choices"].items())
    if k == "retreats":
        return f"{d['figure']} retreats to ({d['at'][0]:g}, {d['at'][1]:g})"
    if k == "cannot_retreat":
        return f"{d['figure']} has nowhere to retreat and stays"
    if k == "burst_order":
        return f'{d["by"]} lays a {d["template"]} template at ({d["at"][0]:g}, {d["at"][1]:g}): {d["range"]:g}"'
    if k == "burst_missed":
        return f"{d['by']}'s ranging shot: {d['die']} (needs {d['ranging']} or less): missed, template removed"
    if k == "burst_lands":
        under = ", ".join(d["under"]) or "nobody"
        return f"{d['by']}'s ranging shot: {d['die']} (needs {d['ranging']} or less): lands on {under}"
    if k == "burst_effect":
        return f"{d['by']} fires for effect: {', '.join(d['hit']) or 'no man'} hit"
    if k == "burst_covered":
        return f"{d['figure']} is covered from {d['by']}'s burst ({d['why']})"
    if k == "piece_abandoned":
        return f"piece {d['piece']} is abandoned: its crew {d['crew']} is dead"
    if k == "piece_taken":
        return f"piece {d['piece']} is taken by {d['crew']} ({d['side']})"
    if k == "crew_attacks":
        return f"{d['figure']} of the gun crew must attack {d['at']}"
    if k == "crew_cannot_reach":
        return f"{d['figure']} of the gun crew cannot reach the melee"
    if k == "dice":
        return f"    dice: {d['purpose']}: {' '.join(str(v) for v in d['values'])}"
    if k == "game_over":
        return f"game over: {d['reason']}"
    if k == "resigned":
        return f"{d['seat']} resigns"
    return None


def summarize_turn(events: list[Event]) -> list[str]:
    """A compact account of one turn: who moved first, what moved, the fire, the dead."""
    first = ""
    moved: list[str] = []
    fire: dict[str, list[int]] = {}
    killed: list[str] = []
    wounded: list[str] = []
    other: list[str] = []
    for event in events:
        d, k = event.data, event.kind
        if k == "initiative":
            first = f"{d['first']} move first"
        elif k == "moved":
            moved.append(("+" if d["entered"] else "") + d["unit"])
        elif k == "drove":
            moved.append(d["vehicle"])
        elif k == "shots":
            tally = fire.setdefault(d["unit"], [0, 0])
            tally[0] += d["dice"]
            tally[1] += d["hits"]
        elif k == "killed":
            killed.append(d["figure"])
        elif k == "wounded":
            wounded.append(d["figure"])
        elif k in (
            "door",
            "wire_laid",
            "traps_set",
            "setup",
            "structure_hit",
            "section_collapses",
            "bridge_gone",
            "door_blown",
            "bridge_built",
            "burst_lands",
            "burst_missed",
            "piece_taken",
            "loaded",
            "unloaded",
            "train",
            "dropped",
        ):
            line = describe(event)
            if line:
                other.append(line)
    lines = other[:]
    if first or moved:
        lines.append(f"{first}; moved: {' '.join(moved) or 'nobody'}")
    if fire:
        lines.append("fire: " + ", ".join(f"{u} {h}/{n}" for u, (n, h) in sorted(fire.items())) + " (hits/dice)")
    if killed:
        lines.append("killed: " + " ".join(killed))
    if wounded:
        lines.append("flesh wounds: " + " ".join(wounded))
    return lines


# the sequence of play in a few lines, for the printed card (grognard sheet)
SEQUENCE = (
    "1. Initiative: each side rolls a d6; the higher moves first (a tie rolls again).",
    "2. Movement: the winner moves all his units, then the other side.",
    "3. Fire: all fire is resolved at once; the dead are removed after every side has fired.",
    "4. Melee: men in contact fight rounds until both sides miss; then each group chooses in secret to "
    "stay or retreat.",
    "Victory: as the scenario says (objectives, turn limit, casualties).",
)

LOG_KEY = (
    "How to read the turn summary: `axis move first; moved: +R A B` the side with the initiative, then "
    "the units that moved (`+` came onto the table); `fire: A 1/5` unit A scored 1 hit with 5 dice "
    "(hits/dice); `killed`, `flesh wounds` the men hit; melee rounds and objectives follow."
)
"""What the compact turn summary's abbreviations mean (``play --help`` and docs/solo.md)."""
