"""Table measure shared by every rule set: inches, degrees, one tolerance.

Positions are stored rounded to :data:`POSITION_DIGITS` decimals (0.01"), and
:data:`TOLERANCE` alone decides whether a measure is "exactly at the limit":
a distance within ``TOLERANCE`` of a limit counts as at it.

>>> at_most(6.004, 6.0), at_most(6.02, 6.0)
(True, False)
"""

from __future__ import annotations

import math
import re

from grognard.core.errors import ParseError
from grognard.core.numbers import read_float

POSITION_DIGITS = 2
TOLERANCE = 0.01  # inches: one storage step; covers rounding of both coordinates


def snap(value: float) -> float:
    """``value`` rounded to the stored precision (0.01")."""
    if -1e12 < value < 1e12:
        # already a stored measure (the nearest float to k/100), as most are: it is its own rounding, and
        # this test costs half of round(value, 2)
        steps = round(value * 100.0)
        if steps / 100.0 == value:
            return value + 0.0
    return round(value, POSITION_DIGITS) + 0.0


def at_most(measure: float, limit: float) -> bool:
    """``measure <= limit`` within the tolerance."""
    return measure <= limit + TOLERANCE


def at_least(measure: float, limit: float) -> bool:
    """``measure >= limit`` within the tolerance."""
    return measure >= limit - TOLERANCE


def near(a: float, b: float) -> bool:
    """``a`` and ``b`` are the same measure within the tolerance."""
    return abs(a - b) <= TOLERANCE


def distance(x0: float, y0: float, x1: float, y1: float) -> float:
    """Straight distance in inches."""
    return math.hypot(x1 - x0, y1 - y0)


def distance_to_rect(x: float, y: float, left: float, bottom: float, right: float, top: float) -> float:
    """Distance from a point to an axis-aligned rectangle (0 inside it)."""
    dx = max(left - x, 0.0, x - right)
    dy = max(bottom - y, 0.0, y - top)
    return math.hypot(dx, dy)


ANGLE_DIGITS = 2
ANGLE_TOLERANCE = 0.01  # degrees: one storage step of a heading; decides "exactly at the limit" for angles


def snap_angle(degrees: float) -> float:
    """An angle folded into (-180, 180] and rounded to the stored precision (0.01 degrees).

    >>> snap_angle(190.0), snap_angle(-180.0), snap_angle(359.999)
    (-170.0, 180.0, 0.0)
    """
    value = round(math.remainder(degrees, 360.0), ANGLE_DIGITS) + 0.0
    return 180.0 if value == -180.0 else value


def angle_between(a: float, b: float) -> float:
    """The unsigned difference of two headings in degrees, 0 to 180.

    >>> angle_between(170.0, -170.0), angle_between(10.0, 350.0)
    (20.0, 20.0)
    """
    return abs(math.remainder(a - b, 360.0))


def write_measure(value: float) -> str:
    """A measure (inches or degrees) as an action's text writes it: ``12``, ``12.5``, ``-3.25``.

    Anything that is never a legal measure (not finite, or beyond 1e9) is written short, as ``repr``.

    >>> write_measure(12.0), write_measure(12.5), write_measure(-0.0), write_measure(float("inf"))
    ('12', '12.5', '0', 'inf')
    """
    if not math.isfinite(value) or abs(value) >= 1e9:
        return repr(value)
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def read_measure(text: str, what: str, line: str, noun: str = "a number") -> float:
    """``text`` read as a finite number; raises :class:`ParseError` quoting ``line`` and naming ``what``."""
    value = read_float(text)
    if value is None or not math.isfinite(value):
        raise ParseError(f"{line!r}: {what} {text!r} is not {noun}")
    return value


_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)")
_COMMA = re.compile(r"(?<=[\d.])\s*,\s*(?=[-+.\d])")


def points_joined(line: str) -> str:
    """``line`` with every point as one word ``X,Y``, however it was typed: ``X,Y``, ``X, Y`` or ``X Y``.

    The one coordinate grammar of every rule set: two bare numbers in a row are a point (runs pair from
    the left; a number left over stays alone, e.g. an angle after a point).

    >>> points_joined("burst G 20 30 45"), points_joined("move A 20, 30 / A.1 to 5 6")
    ('burst G 20,30 45', 'move A 20,30 / A.1 to 5,6')
    """
    words = _COMMA.sub(",", " ".join(line.split())).split(" ")
    out: list[str] = []
    run: list[str] = []
    for word in [*words, ""]:
        if _NUMBER.fullmatch(word):
            run.append(word)
            continue
        out += [f"{run[i]},{run[i + 1]}" for i in range(0, len(run) - 1, 2)] + run[len(run) - len(run) % 2 :]
        run = []
        out.append(word)
    return " ".join(out[:-1])


def points_split(line: str) -> str:
    """``line`` with every point as two words ``X Y``, however it was typed (``X,Y``, ``X, Y`` or ``X Y``).

    >>> points_split("move A3 20,24"), points_split("fly B1 to 40, 30")
    ('move A3 20 24', 'fly B1 to 40 30')
    """
    return _COMMA.sub(" ", " ".join(line.split()))
