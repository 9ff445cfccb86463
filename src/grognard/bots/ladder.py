"""The ladder of bot levels, weakest first, named alike in every face, and the words a player reads of each.

Every rule set names its bots' levels from one ladder: ``beginner`` (a player
still learning), ``book`` (the seed's own advice, the rule set's doctrine bot,
kept as the baseline), ``normal`` and ``hard`` (searches over the book's
play). A rule set offers a level by having a bot of that name in
``Ruleset.bots``, and describes its own bot at that level in one line a player
understands in ``Ruleset.bot_notes`` (the ladder's own words, ``LEVEL_NOTES``,
stand in for a level it does not describe). A level it does not have is not
offered: the faces list :func:`levels`, never a name without a bot.

The names bots had before the ladder keep working wherever a bot is named, so
every record and every room already saved plays on: ``doctrine`` is the
``book`` bot, ``search`` and ``search:LEVEL`` the search bot at the budgets it
had (``search:normal`` and ``search:hard`` were the first ``normal`` and
``hard``), ``random`` picks any legal order. Faces list them apart
(:func:`older`), after the ladder.

>>> LADDER
('beginner', 'book', 'normal', 'hard')
>>> ordered({"hard": 1, "book": 2}, {"doctrine": 2})
{'book': 2, 'hard': 1, 'doctrine': 2}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from grognard.core.ruleset import Ruleset

__all__ = ["LADDER", "LEVEL_NOTES", "OLDER_NOTES", "levels", "note", "older", "ordered", "unknown_bot"]

LADDER = ("beginner", "book", "normal", "hard")  # weakest first

LEVEL_NOTES = {  # the ladder's own words, for a level whose rule set says nothing more precise
    "beginner": "plays like someone still learning the game: good for a first game",
    "book": "plays the rules' own advice to each side, the same way every time it is in the same spot",
    "normal": "tries each sensible order in quick games played ahead, and keeps the book's unless another does better",
    "hard": "the strongest: weighs its orders longest before it answers",
}

OLDER_NOTES = {  # the names bots had before the ladder, still accepted
    "doctrine": "the book level's older name",
    "random": "picks any legal order at random (for tests, not a real opponent)",
    "search": "the search bot's older name (search:normal)",
    "search:easy": "the search bot with few quick games a decision",
    "search:normal": "the search bot as the first normal level played",
    "search:hard": "the search bot as the first hard level played",
}

T = TypeVar("T")


def ordered(ladder: Mapping[str, T], others: Mapping[str, T]) -> dict[str, T]:
    """A rule set's ``bots``: the levels of ``ladder`` in the ladder's order, then ``others`` (older names).

    Raises ``ValueError`` for a level the ladder lacks, or a name given in both.
    """
    stray = [name for name in ladder if name not in LADDER]
    if stray:
        raise ValueError(f"levels {', '.join(stray)}: not on the ladder ({', '.join(LADDER)})")
    both = [name for name in others if name in ladder]
    if both:
        raise ValueError(f"bots {', '.join(both)}: named both as a level and as another bot")
    return {**{name: ladder[name] for name in LADDER if name in ladder}, **others}


def levels(ruleset: Ruleset) -> tuple[str, ...]:
    """The ladder's levels ``ruleset`` offers (it has a bot of that name), weakest first."""
    return tuple(name for name in LADDER if name in ruleset.bots)


def older(ruleset: Ruleset) -> tuple[str, ...]:
    """The rule set's other bot names (the names before the ladder), in its own order."""
    return tuple(name for name in ruleset.bots if name not in LADDER)


def note(ruleset: Ruleset, name: str) -> str:
    """The one line a player reads about bot ``name`` of ``ruleset``: the rule set's own words, else the ladder's.

    Raises ``KeyError`` for a name that is not one of the rule set's bots.
    """
    if name not in ruleset.bots:
        raise KeyError(name)
    return ruleset.bot_notes.get(name) or LEVEL_NOTES.get(name) or OLDER_NOTES.get(name, "")


def unknown_bot(ruleset: Ruleset, name: str) -> str:
    """Why ``name`` is no bot of ``ruleset``, in words for one line: the levels it offers, weakest first."""
    names = ", ".join(levels(ruleset))
    rest = older(ruleset)
    also = f" (or an older name: {', '.join(rest)})" if rest else ""
    return f"no bot level {name!r} in {ruleset.name}; the levels, weakest first: {names}{also}"
