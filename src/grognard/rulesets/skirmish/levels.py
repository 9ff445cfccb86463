"""The skirmish's bot levels on the ladder (``grognard.bots.ladder``): the bot of each level and its one line.

``beginner`` is the book played as a learner plays it and ``hard`` the book
with aimed fire (``bots_levels``, docs/rules/skirmish.md's doctrine clauses);
``book`` is the doctrine bot; ``normal`` is the search bot at its ``normal``
budget. The older names (``doctrine``,
``random``, ``search``, ``search:LEVEL``) stay, so every saved game plays on.
"""

from __future__ import annotations

from grognard.bots.ladder import ordered
from grognard.bots.random_bot import RandomBot
from grognard.bots.search import Level, search_bots
from grognard.core.plans import Plan
from grognard.core.ruleset import BotFactory
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.bots_levels import BeginnerBot, HardBot
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.plans import side_plans

# the search bot's budgets: playouts a decision (at least 4 a candidate), each run one turn ahead
SEARCH_LEVELS = {"easy": Level(8, 1, None, 4), "normal": Level(16, 1, None, 4), "hard": Level(32, 1, None, 4)}

SEARCH = search_bots("skirmish", SEARCH_LEVELS)

LEVELS: dict[str, BotFactory] = {
    "beginner": BeginnerBot,
    "book": DoctrineBot,
    "normal": SEARCH["search:normal"],
    "hard": HardBot,
}

NOTES = {  # each level's bot in one line a player reads (the host page, the solo page, play --help)
    "book": "the rules' own tactics: moves from cover to cover, fires at the most valuable man in range",
    "normal": "plays a few orders out 16 times each, a turn ahead; keeps the book's unless another wins more",
    "beginner": "forgets cover, hesitates, spreads its fire: good for a first game",
    "hard": "the book, but every man aims at the enemy he is likeliest to kill, and defenders charge sooner",
}

OLDER: dict[str, BotFactory] = {"doctrine": DoctrineBot, "random": RandomBot, **SEARCH}
BOTS = ordered(LEVELS, OLDER)


class SkirmishPlans:
    """The plans of each side of a skirmish (``Ruleset.plans``): its scenario file's ``[[plans]]`` (``plans.py``)."""

    def of(self, game: SkirmishGame) -> dict[str, tuple[Plan, ...]]:
        return side_plans(game.ctx.scenario.spec)


SIDE_PLANS = SkirmishPlans()
