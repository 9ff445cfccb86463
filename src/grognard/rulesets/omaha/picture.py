"""Omaha's beach as pictures, for its face's scene (``face.scene``): squads as groups of figures, bunkers with
their defenders, the obstacles as the seed's coils of wire, hedgehogs, craters and red markers, in table
inches, from a view's entries and ``data``.

- A squad is its men, one small figure each, in a ring round the number of them (omaha.4: "a squad of 12
  men"; omaha.14: "the rest of the figures in a group around that figure"), on a disc that can be tapped.
- A bunker is a box in the Germans' colour with its firing slit towards the sea, its defenders standing
  behind it (omaha.4: "4 German soldiers"); a destroyed one is marked with cotton (omaha.18: "Cotton can
  be used to mark a destroyed bunker").
- Each obstacle of a section is a strip of card with coiled wire on it (the seed's "picture wire wound in a
  spiral and glued to cardboard", omaha.8; the page's ``coil`` texture); a section not yet rolled is a "?",
  a cleared one "clear".
- Hedgehogs stand along the water line, for looks only (the seed's optional rule 4; RULINGS O20: they
  stop nothing).
- A crater is a black bottle cap where artillery landed, a casualty marker a red penny where a squad failed
  its morale or was wiped out (optional rules 1 and 2, the ``markers`` option: omaha.30, omaha.31); markers
  on one spot are spread a little, so each is seen.

>>> [m["marker"] for m in squad_men({"label": "A1", "figures": 3, "x": 4.0, "y": 2.0})]
['man', 'man', 'man']
"""

from __future__ import annotations

import math
from typing import Any

MAN = 0.3  # inches: a man's half-height (the seed's 20 mm figures stand about 3/4" tall)
MEN_RING = 0.9  # inches from the squad's point to its men's: twelve figures side by side round it
SQUAD_DISC = 1.3  # inches: the disc under a squad's men, what is tapped
DEFENDER = 0.27  # a defender's half-height
OBSTACLE_CARD = (4.0, 0.8)  # inches: the card strip an obstacle's coil of wire is glued to
HEDGEHOG_ARM = 0.5  # inches from a hedgehog's middle to the end of a beam
HEDGEHOG_EVERY = 4.0  # inches between hedgehogs along the water line
CRATER = 0.55  # a bottle cap's radius
PENNY = 0.375  # a penny's radius (3/4")


def _man(x: float, y: float, side: str, half: float = MAN) -> dict[str, Any]:
    """One figure standing at (x, y): the page draws a ``man`` marker in the side's colour, to scale."""
    return {
        "kind": "figure",
        "x": round(x, 2),
        "y": round(y, 2),
        "r": half,
        "marker": "man",
        "cls": "man",
        "side": side,
    }


def squad_men(squad: dict[str, Any], low: float = -math.inf) -> list[dict[str, Any]]:
    """A squad's men (a view's ``squad``): one figure each, evenly round its point, the first at the top; a man
    who would stand below the table's edge ``low`` (a squad landed at the water's far edge) stands on it."""
    n = int(squad["figures"])
    out = []
    for k in range(n):
        a = math.pi / 2 - 2 * math.pi * k / n
        y = max(squad["y"] + MEN_RING * math.sin(a), low + MAN)
        out.append(_man(squad["x"] + MEN_RING * math.cos(a), y, "american"))
    return out


def defenders(bunker: dict[str, Any], cx: float, top: float) -> list[dict[str, Any]]:
    """A bunker's defenders standing in a row behind its back wall (``top``: the wall), where they are seen
    against the ground rather than the bunker's own colour."""
    n = int(bunker["defenders"])
    return [_man(cx + (k - (n - 1) / 2) * 0.62, top + DEFENDER + 0.05, "german", DEFENDER) for k in range(n)]


def cotton(cx: float, cy: float) -> list[dict[str, Any]]:
    """Tufts of cotton at both ends of a destroyed bunker, its name between them still read."""
    spots = ((-1.05, 0.5), (-1.2, -0.1), (-0.95, -0.6), (1.05, 0.5), (1.2, -0.1), (0.95, -0.6))
    return [
        {"kind": "circle", "x": cx + dx, "y": cy + dy, "r": 0.38, "cls": "cotton", "title": "destroyed (cotton)"}
        for dx, dy in spots
    ]


def slit(cx: float, front: float, width: float) -> dict[str, Any]:
    """The firing slit along a bunker's seaward wall."""
    return {
        "kind": "rect",
        "x": cx - width * 0.35,
        "y": front + 0.12,
        "w": width * 0.7,
        "h": 0.16,
        "cls": "bunker",
        "state": "slit",
    }


def obstacles(index: int, count: int, x0: float, width: float, low: float, high: float) -> list[dict[str, Any]]:
    """Section ``index``'s obstacles (``count`` of them, 1 or 2) between y = low and high: a card strip each,
    the page's coiled wire on it; the first card is the section's shape that can be tapped."""
    w, h = OBSTACLE_CARD
    mid = (low + high) / 2
    rows = [mid] if count == 1 else [mid + 0.55 * (1 - 2 * k) for k in range(count)]
    title = f"O{index + 1}: {count} obstacle{'s' if count != 1 else ''} (barbed wire)"
    shapes = []
    for k, y in enumerate(rows):
        card = {
            "kind": "rect",
            "x": x0 + (width - w) / 2,
            "y": round(y - h / 2, 2),
            "w": w,
            "h": h,
            "cls": "obstacle",
            "state": "card",
            "title": title,
        }
        shapes.append(dict(card, id=f"O{index + 1}") if k == 0 else card)
    return shapes


def hedgehog(x: float, y: float, turn: float) -> list[list[float]]:
    """A hedgehog from above, two of its three beams crossed (the third stands up at the middle): one line
    drawn through the middle and back, then across."""
    c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    ends = [(HEDGEHOG_ARM * (c * a - s * b), HEDGEHOG_ARM * (s * a + c * b)) for a, b in ((1, 0), (0, 1))]
    (ax, ay), (bx, by) = ends
    pts = [(x + ax, y + ay), (x - ax, y - ay), (x, y), (x + bx, y + by), (x - bx, y - by)]
    return [[round(px, 2), round(py, 2)] for px, py in pts]


def hedgehogs(width: float) -> list[dict[str, Any]]:
    """Hedgehogs along the water line, every ``HEDGEHOG_EVERY`` inches, a little above and below it."""
    out = []
    for k in range(int((width - 1.0) // HEDGEHOG_EVERY)):
        x, y = 2.0 + k * HEDGEHOG_EVERY, (0.7 if k % 2 else -0.6)
        out.append({"kind": "polyline", "points": hedgehog(x, y, 20 + 37 * k), "cls": "hedgehog"})
    return out


def markers(found: list[dict[str, Any]], x0: float, y0: float, x1: float, y1: float) -> list[dict[str, Any]]:
    """Craters (black bottle caps) and casualty markers (red pennies), those on one spot spread round it so
    each is seen, kept within the table (x0..x1, y0..y1)."""
    seen: dict[tuple[float, float], int] = {}
    out = []
    for m in found:
        spot = (m["x"], m["y"])
        k = seen.get(spot, 0)
        seen[spot] = k + 1
        a = math.radians(137.5 * k)
        x = min(max(m["x"] + 0.5 * math.sqrt(k) * math.cos(a), x0 + 0.6), x1 - 0.6)
        y = min(max(m["y"] + 0.5 * math.sqrt(k) * math.sin(a), y0 + 0.6), y1 - 0.6)
        turn = f", turn {m['turn']}" if "turn" in m else ""
        crater = m["kind"] == "crater"
        who = f" {m['squad']}" if "squad" in m else ""
        title = f"crater: artillery landed here{turn}" if crater else f"red marker: squad{who} lost here{turn}"
        out.append(
            {
                "kind": "circle",
                "x": round(x, 2),
                "y": round(y, 2),
                "r": CRATER if crater else PENNY,
                "cls": m["kind"],
                "title": title,
            }
        )
    return out


KEY = [
    {"cls": "man", "name": "a man"},
    {"cls": "bunker", "name": "bunker"},
    {"cls": "obstacle", "state": "card", "name": "barbed wire"},
    {"cls": "hedgehog", "name": "hedgehog"},
    {"cls": "crater", "name": "crater"},
    {"cls": "casualty", "name": "squad lost"},
]
