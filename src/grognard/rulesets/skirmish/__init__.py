"""General WWII skirmish rules at 25mm, one figure one man (seed ``001_10caca1a67345982.txt``), part 1 of 4."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grognard.core.dice import DiceSource
from grognard.core.options import OptionSpec
from grognard.core.ruleset import Ruleset
from grognard.rulesets.skirmish.actions import USAGE, action_from_json, parse_action
from grognard.rulesets.skirmish.bots import DoctrineBot
from grognard.rulesets.skirmish.game import SIDES, SkirmishGame
from grognard.rulesets.skirmish.scenario import shipped

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "scenario",
        str,
        "hill_assault",
        "a shipped scenario's name or a scenario TOML file",
        rule="skirmish.2",
    ),
    OptionSpec(
        "turn_limit",
        int,
        None,
        "end the game after this many turns (default: the scenario's)",
        minimum=1,
        maximum=1000,
        none_word="scenario",
        rule="skirmish.20",
    ),
)


def new_game(options: Mapping[str, Any], dice: DiceSource) -> SkirmishGame:
    """A new skirmish game from resolved options."""
    return SkirmishGame(options, dice)


def _random_bot(rng: Any) -> Any:
    from grognard.bots.random_bot import RandomBot

    return RandomBot(rng)


def _describe(event: Any) -> str | None:
    from grognard.rulesets.skirmish.describe import describe

    return describe(event)


RULESET = Ruleset(
    name="skirmish",
    title="WWII skirmish (part 1: moving, fire, cover)",
    seed_file="001_10caca1a67345982.txt",
    sides=SIDES,
    options=OPTIONS,
    new_game=new_game,
    parse_action=parse_action,
    describe=_describe,
    bots={"doctrine": DoctrineBot, "random": _random_bot},
    default_bot="doctrine",
    action_from_json=action_from_json,
    usage=tuple(USAGE.values()),
    scenarios=shipped,
)

__all__ = ["RULESET", "SkirmishGame"]
