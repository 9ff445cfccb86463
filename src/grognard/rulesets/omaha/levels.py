"""Omaha's bot levels on the ladder (``grognard.bots.ladder``): the bot of each level and its one line.

``beginner`` is a learner's play (``beginner.py``: the Germans spread their
fire, the Americans keep to their lanes and freeze at the wall when hurt);
``book`` is the doctrine bot; ``normal`` is the search bot at its ``normal``
budget; ``hard`` is the book's plan with what the book leaves to chance played
well (``hard.py``). docs/rules/omaha.md ("The bots' levels") names each
level's play as clauses, with the matches that measured it. The older names
(``doctrine``, ``random``, ``search``, ``search:LEVEL``) stay, so every saved
game plays on.
"""

from __future__ import annotations

from pathlib import Path

from grognard.bots.ladder import ordered
from grognard.bots.random_bot import RandomBot
from grognard.bots.search import Level, search_bots
from grognard.core.plans import Plan, load
from grognard.core.ruleset import BotFactory
from grognard.rulesets.omaha.beginner import BeginnerBot
from grognard.rulesets.omaha.bots import DoctrineBot
from grognard.rulesets.omaha.game import OmahaGame
from grognard.rulesets.omaha.hard import HardBot

# the search bot's budgets: playouts a decision, each run two turns ahead before ``evaluate`` scores it
SEARCH_LEVELS = {"easy": Level(8, 2), "normal": Level(32, 2), "hard": Level(128, 2)}

SEARCH = search_bots("omaha", SEARCH_LEVELS)

LEVELS: dict[str, BotFactory] = {
    "beginner": BeginnerBot,
    "book": DoctrineBot,
    "normal": SEARCH["search:normal"],
    "hard": HardBot,
}

NOTES = {  # each level's bot in one line a player reads (the host page, the solo page, play --help)
    "beginner": "a learner: the Germans spread their fire, the Americans freeze at the wall once hurt; a first game",
    "book": "the rules' own advice: the Americans rush the sea wall, the Germans all fire on the squad nearest it",
    "normal": "plays each sensible order out 32 times, two turns ahead; keeps the book's unless another wins more",
    "hard": "the book's plan played sharper: bunkers set wide apart, squads take the shortest way to the bunkers",
}

OLDER: dict[str, BotFactory] = {"doctrine": DoctrineBot, "random": RandomBot, **SEARCH}
BOTS = ordered(LEVELS, OLDER)

PLANS = load(Path(__file__).with_name("plans.toml"))  # the Germans' plans (grognard.core.plans)


class OmahaPlans:
    """The plans of each side of a game (``Ruleset.plans``): the Germans', whatever the options."""

    def of(self, game: OmahaGame) -> dict[str, tuple[Plan, ...]]:
        return PLANS


SIDE_PLANS = OmahaPlans()
