"""Omaha events as short lines for people (the CLI's turn log)."""

from __future__ import annotations

from grognard.core.engine import Event
from grognard.core.words import counted
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.data import BAND_END_Y, WALL_Y

PHASES = {
    "setup": "setup",
    "landing": "beach landings",
    "americans": "Americans act",
    "germans": "Germans act",
    "morale": "morale",
}


def where(y: float) -> str:
    """Where a squad at ``y`` stands, in words (the one wording of every face)."""
    if y < 0:
        return f'{-y:g}" out in the water'
    if R.below_wall(y):
        return f'{WALL_Y - y:g}" short of the sea wall'
    if R.at_wall(y):
        return "at the sea wall"
    if y < BAND_END_Y:
        return "in the obstacle band"
    return "past the sea wall, on the bunker ground"


def _short(y: float) -> str:
    """Where a squad stands, in two words (the turn summary)."""
    if y < 0:
        return "in the water"
    if R.below_wall(y):
        return f'{WALL_Y - y:g}" short'
    return "at the wall" if R.at_wall(y) else "past the wall"


def describe(event: Event) -> str | None:
    """One line for ``event``, or ``None`` if it is not worth a line (dice, bookkeeping)."""
    d = event.data
    k = event.kind
    if k == "landed":
        fresh = "fresh squad " if d["fresh"] else ""
        return f'{fresh}{d["squad"]} lands {d["inches"]}" out (x={d["x"]:g})'
    if k == "drowned":
        return f"{d['squad']} dropped in deep water: {d['figures']} drowned"
    if k == "moved":
        return f"{d['squad']} moves to x={d['x']:g}, {where(d['y'])}"
    if k == "cleared":
        return f"{d['squad']} clears {counted(d['cleared'], 'obstacle')} in {d['section']} ({d['left']} left)"
    if k == "shot":
        return f"{d['squad']} shoots at {d['bunker']}: {d['killed']} killed, {d['left']} left ({d['status']})"
    if k == "assault":
        return f"{d['squad']} assaults {d['bunker']}: " + ("DESTROYED" if d["success"] else "repulsed")
    if k == "holds":
        return f"{d['squad']} holds"
    if k == "dice":
        return f"    dice: {d['purpose']}: {' '.join(str(v) for v in d['values'])}"
    if k == "bunker_fire":
        return f"{d['bunker']} fires {counted(d['dice'], 'die', 'dice')} at {d['target']}: {d['killed']} killed"
    if k == "artillery":
        if not d["landed"]:
            return f"artillery {d['german']} on {d['target']}: misses"
        return f"artillery {d['german']} on {d['target']}: {d['killed']} killed"
    if k == "morale":
        return f"{d['squad']} morale ({d['lost']} lost): " + ("FAILS, sent back" if d["failed"] else "holds")
    if k == "squad_lost":
        return None if d["why"] == "failed morale" else f"{d['squad']} {d['why']}"
    if k == "out_of_squads":
        return f"{d['player']} has no fresh squads left"
    if k == "joins_germans":
        return f"{d['player']} joins the Germans and takes bunker {d['bunker']}"
    if k == "exit_opened":
        first = " (BREAKTHROUGH)" if d["first"] else ""
        return f"exit {d['bunker']} is open{first}"
    if k == "past_wall":
        return f"{d['squad']} is the first squad past the sea wall"
    if k == "placed":
        return f"{d['german']} puts bunkers in sections {d['sections'][0]} and {d['sections'][1]}"
    if k == "obstacles":
        return f"obstacles in {d['section']}: {d['count']}"
    if k == "game_over":
        return f"game over: {d['reason']}"
    return None


def summarize_turn(events: list[Event]) -> list[str]:
    """A compact account of one turn's events: a line per phase, casualties and exits."""
    landings, moves, fights, fire, morale, other = [], [], [], [], [], []
    us_lost = de_lost = 0
    for event in events:
        d, k = event.data, event.kind
        if k == "landed":
            landings.append(f'{d["squad"]} {d["inches"]}"' + ("*" if d["fresh"] else ""))
        elif k == "drowned" and d["figures"]:
            landings.append(f"{d['squad']} deep water -{d['figures']}")
            us_lost += d["figures"]
        elif k == "moved":
            moves.append(f"{d['squad']} {_short(d['y'])}")
        elif k in ("cleared", "shot", "assault"):
            line = describe(event)
            if line:
                fights.append(line)
            if k in ("shot", "assault"):
                de_lost += d.get("killed", 0)
        elif k == "bunker_fire":
            fire.append(f"{d['bunker']}>{d['target']} -{d['killed']}")
            us_lost += d["killed"]
        elif k == "artillery":
            fire.append(f"art {d['german']}>{d['target']} " + (f"-{d['killed']}" if d["landed"] else "miss"))
            us_lost += d["killed"]
        elif k == "morale":
            morale.append(f"{d['squad']} lost {d['lost']}: " + ("FAILS" if d["failed"] else "holds"))
        elif k in ("squad_lost", "exit_opened", "past_wall", "out_of_squads", "joins_germans", "placed"):
            line = describe(event)
            if line and not (k == "squad_lost" and d["why"] == "failed morale"):
                other.append(line)
    lines = []
    if landings:
        lines.append("landings: " + ", ".join(landings) + ("  (* fresh squad)" if "*" in "".join(landings) else ""))
    if moves:
        lines.append("moves: " + ", ".join(moves))
    lines.extend(fights)
    if fire:
        lines.append("Germans: " + ", ".join(fire))
    if morale:
        lines.append("morale: " + ", ".join(morale))
    lines.extend(other)
    if us_lost or de_lost:
        lines.append(f"casualties: American {us_lost}, German {de_lost}")
    return lines


# the sequence of play in a few lines, for the printed card (grognard sheet)
SEQUENCE = (
    'Setup: roll a d6 for each 6" obstacle section (1 none, 2-5 one, 6 two); each German player puts his '
    '2 bunkers (4 men each) in 2 of his 3 8" sections.',
    "1. Beach landings: each landing craft rolls a d6: its squad of 12 lands that many inches out from the "
    "water line (optional deep water: on a 6, a d6 for each man, a 6 drowns him).",
    '2. Americans act, squad by squad: the whole squad moves (6" on the beach, 3" in the water, stop at '
    "the sea wall), or its men clear obstacles (at the wall), shoot at the bunker in front (at the wall or "
    "closer) or assault a bunker in contact.",
    "3. Germans act: each bunker fires 4 dice (2 with one man left) at one squad, 5-6 kills; each German "
    "player may call artillery on a squad not past the sea wall (5-6 lands, then 4 dice, 4-6 kills).",
    "4. Morale: a squad that lost men this turn rolls a d6 per man lost; 12 or more and it goes back to "
    "land again next turn as a fresh squad.",
    "Win: the Americans open every exit (a bunker knocked out and the obstacles in front of it cleared).",
)

LOG_KEY = (
    'How to read the turn summary: `A1 4"` a squad landed 4" out (`*` a fresh squad); `22" short` '
    "inches short of the sea wall; `B2>A1 -1` bunker B2 fired at squad A1, 1 killed; `art G1>A1 miss` "
    "German G1's artillery on A1; `lost 2: holds` the morale check after 2 losses; casualties per side "
    "for the turn."
)
"""What the compact turn summary's abbreviations mean (``play --help`` and docs/solo.md)."""
