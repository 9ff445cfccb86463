"""The B-17 raid's bot levels on the ladder (``grognard.bots.ladder``): the bot of each level and its one line.

``beginner`` is a learner (``beginner.BeginnerBot``); ``book`` is the doctrine
bot; ``normal`` is the search bot at its ``normal`` budget; ``hard`` is
``hard.HardBot`` (docs/rules/b17.md, The doctrine: the measured ladder). The older names (``doctrine``,
``random``, ``search``, ``search:LEVEL``) stay, so every saved game plays on.
"""

from __future__ import annotations

from pathlib import Path

from grognard.bots.ladder import ordered
from grognard.bots.random_bot import RandomBot
from grognard.bots.search import Level, search_bots
from grognard.core.plans import Plan, load
from grognard.core.ruleset import BotFactory
from grognard.rulesets.b17.beginner import BeginnerBot
from grognard.rulesets.b17.bots import DoctrineBot
from grognard.rulesets.b17.game import B17Game
from grognard.rulesets.b17.hard import HardBot

# the search bot's budgets: playouts per decision shared by successive halving; a playout runs to the end of
# the turn, and a fighter's only until the Germans' next move (its own attack and the gunners' fire, the least
# noise), before ``evaluate`` scores it (measured in docs/designer.md: bench/search_bot.py b17)
SEARCH_LEVELS = {
    name: Level(playouts, 1, allocation="halving", until_own=("german",))
    for name, playouts in (("easy", 16), ("normal", 64), ("hard", 256))
}

SEARCH = search_bots("b17", SEARCH_LEVELS)

LEVELS: dict[str, BotFactory] = {
    "beginner": BeginnerBot,
    "book": DoctrineBot,
    "normal": SEARCH["search:normal"],
    "hard": HardBot,
}

NOTES = {  # each level's bot in one line a player reads (the host page, the solo page, play --help)
    "beginner": "a learner: fighters forget the guns and the table's edge; bombers chase fighters, misjudge the run",
    "book": "the rules' own play: each fighter flies at the closest bomber, the bombers hold their box and fire back",
    "normal": "plays each sensible move out 64 times to the turn's end; keeps the book's unless another wins more",
    "hard": "flies freely: fighters finish damaged bombers, not only the closest; the box flies straight in",
}

OLDER: dict[str, BotFactory] = {"doctrine": DoctrineBot, "random": RandomBot, **SEARCH}
BOTS = ordered(LEVELS, OLDER)

PLANS = load(Path(__file__).with_name("plans.toml"))  # the fighters' plans (grognard.core.plans)


class B17Plans:
    """The plans of each side of a game (``Ruleset.plans``): the Germans', whatever the options."""

    def of(self, game: B17Game) -> dict[str, tuple[Plan, ...]]:
        return PLANS


SIDE_PLANS = B17Plans()
