"""``--bots SIDE=LEVEL``: the bots a command's game is played by, read and checked against the rule set (its
sides, its ladder of levels) and against the seats people take (``--human``)."""

from __future__ import annotations

from collections.abc import Sequence

from grognard.bots import ladder
from grognard.core.engine import Game
from grognard.core.errors import OptionError
from grognard.core.ruleset import Ruleset


def parse_bots(ruleset: Ruleset, items: Sequence[str]) -> dict[str, str]:
    """``["german=random"]`` (or ``["american=random,german=search"]``: several sides in one) as {side: bot name},
    checked against the rule set's sides and bots; a side given twice is refused."""
    out = {side: ruleset.default_bot for side in ruleset.sides}
    out.update({side: name for side, (name, _) in _given_bots(ruleset, items).items()})
    return out


def _given_bots(ruleset: Ruleset, items: Sequence[str]) -> dict[str, tuple[str, str]]:
    """The sides ``--bots`` names: {side: (bot name, the SIDE=BOT item as given)}."""
    given: dict[str, tuple[str, str]] = {}
    for text in items:
        parts = [part.strip() for part in text.split(",")]
        for item in parts:
            if not item:
                raise OptionError(f"--bots {text!r}: an empty SIDE=BOT in the list")
            side, name = _one_bot(ruleset, item, text if len(parts) == 1 else item)
            if side in given:
                raise OptionError(f"--bots: the {side} bot is given twice ({given[side][1]} and {item})")
            given[side] = (name, item)
    return given


def check_bots_and_people(ruleset: Ruleset, bots: Sequence[str], humans: set[str], game: Game) -> None:
    """A bot named for a side whose every seat people take would play nothing: refused in one line, rather
    than dropped in silence (the person meant one or the other, and only they know which)."""
    for side, (_, item) in _given_bots(ruleset, bots).items():
        seats = [seat for seat in game.seats() if game.side_of(seat) == side]
        if seats and all(seat in humans for seat in seats):
            raise OptionError(
                f"--bots {item}: people take every {side} seat (--human), so no bot would play it; "
                f"leave out one or the other"
            )


def _one_bot(ruleset: Ruleset, item: str, shown: str) -> tuple[str, str]:
    """One ``SIDE=BOT`` as (side, bot name), checked; errors name ``shown``."""
    side, sep, name = item.partition("=")
    side, name = side.strip().lower(), name.strip().lower()
    if not sep or side not in ruleset.sides:
        raise OptionError(f"--bots {shown!r}: expected SIDE=BOT with SIDE one of {', '.join(ruleset.sides)}")
    if name not in ruleset.bots:
        raise OptionError(f"--bots {shown!r}: {ladder.unknown_bot(ruleset, name)}")
    return side, name
