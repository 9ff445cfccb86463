"""Omaha's bot levels on the ladder (``grognard.bots.ladder``): the bot of each level and its one line.

``book`` is the doctrine bot; ``normal`` and ``hard`` are the search bot at
its ``normal`` and ``hard`` budgets. The older names (``doctrine``,
``random``, ``search``, ``search:LEVEL``) stay, so every saved game plays on.
"""

from __future__ import annotations

from grognard.bots.ladder import ordered
from grognard.bots.random_bot import RandomBot
from grognard.bots.search import Level, search_bots
from grognard.core.ruleset import BotFactory
from grognard.rulesets.omaha.bots import DoctrineBot

# the search bot's budgets: playouts a decision, each run two turns ahead before ``evaluate`` scores it
SEARCH_LEVELS = {"easy": Level(8, 2), "normal": Level(32, 2), "hard": Level(128, 2)}

SEARCH = search_bots("omaha", SEARCH_LEVELS)

LEVELS: dict[str, BotFactory] = {"book": DoctrineBot, "normal": SEARCH["search:normal"], "hard": SEARCH["search:hard"]}

NOTES = {  # each level's bot in one line a player reads (the host page, the solo page, play --help)
    "book": "the rules' own advice: the Americans rush the sea wall, the Germans all fire on the squad nearest it",
    "normal": "plays each sensible order out 32 times, two turns ahead; keeps the book's unless another wins more",
    "hard": "as normal with 128 playouts an order: the longest thought, the surest choices",
}

BOTS = ordered(LEVELS, {"doctrine": DoctrineBot, "random": RandomBot, **SEARCH})
