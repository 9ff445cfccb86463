"""The B-17 raid's bot levels on the ladder (``grognard.bots.ladder``): the bot of each level and its one line.

``book`` is the doctrine bot; ``normal`` and ``hard`` are the search bot at
its ``normal`` and ``hard`` budgets. The older names (``doctrine``,
``random``, ``search``, ``search:LEVEL``) stay, so every saved game plays on.
"""

from __future__ import annotations

from grognard.bots.ladder import ordered
from grognard.bots.random_bot import RandomBot
from grognard.bots.search import Level, search_bots
from grognard.core.ruleset import BotFactory
from grognard.rulesets.b17.bots import DoctrineBot

# the search bot's budgets: playouts per decision shared by successive halving; a playout runs to the end of
# the turn, and a fighter's only until the Germans' next move (its own attack and the gunners' fire, the least
# noise), before ``evaluate`` scores it (measured in docs/designer.md: bench/search_bot.py b17)
SEARCH_LEVELS = {
    name: Level(playouts, 1, allocation="halving", until_own=("german",))
    for name, playouts in (("easy", 16), ("normal", 64), ("hard", 256))
}

SEARCH = search_bots("b17", SEARCH_LEVELS)

LEVELS: dict[str, BotFactory] = {"book": DoctrineBot, "normal": SEARCH["search:normal"], "hard": SEARCH["search:hard"]}

NOTES = {  # each level's bot in one line a player reads (the host page, the solo page, play --help)
    "book": "the rules' own play: each fighter flies at the closest bomber, the bombers hold their box and fire back",
    "normal": "plays each sensible move out 64 times to the turn's end; keeps the book's unless another wins more",
    "hard": "as normal with 256 playouts a move: the longest thought, the surest choices",
}

BOTS = ordered(LEVELS, {"doctrine": DoctrineBot, "random": RandomBot, **SEARCH})
