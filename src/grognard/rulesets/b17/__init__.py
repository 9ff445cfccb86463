"""The B-17 raid: an unescorted daylight raid on a ping-pong table (seed ``003_be0c37b661626161.txt``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from grognard.analysis.odds import OddsTable
from grognard.core.dice import DiceSource
from grognard.core.engine import Decision, Event
from grognard.core.ruleset import Ruleset
from grognard.rulesets.b17 import face
from grognard.rulesets.b17.actions import USAGE, B17Action, action_from_json, parse_action
from grognard.rulesets.b17.advice import Advice
from grognard.rulesets.b17.analysis import METRICS, measure, odds_tables
from grognard.rulesets.b17.candidates import search_candidates
from grognard.rulesets.b17.data import OPTIONS, SIDES
from grognard.rulesets.b17.describe import LOG_KEY, SEQUENCE, describe, summarize_turn
from grognard.rulesets.b17.evaluate import evaluate
from grognard.rulesets.b17.game import B17Game
from grognard.rulesets.b17.levels import BOTS, NOTES, SIDE_PLANS
from grognard.rulesets.b17.levels import SEARCH_LEVELS as SEARCH_LEVELS  # bench/compare.py reads it here


def summary(game: B17Game) -> list[tuple[str, object]]:
    """The figures of a game for its final report (the projector's too: ``face.figures``)."""
    return list(face.figures(game.state.to_json()))


def render_svg(view: dict[str, Any]) -> str:
    """The table of a view as SVG: its face's scene through the one painter (``grognard.render.paint``)."""
    from grognard.render.paint import picture

    return picture(face.FACE, SIDES, "B-17 raid", view)


class B17Rules:
    """The B-17 raid's game factory (:class:`grognard.core.ruleset.Rules`)."""

    def new_game(self, options: Mapping[str, Any], dice: DiceSource) -> B17Game:
        """A new B-17 game from resolved options."""
        return B17Game(options, dice)

    def parse_action(self, text: str) -> B17Action:
        return parse_action(text)

    def action_from_json(self, data: Mapping[str, Any]) -> B17Action:
        return action_from_json(dict(data))

    def describe(self, event: Event) -> str | None:
        return describe(event)

    def summarize_turn(self, events: Sequence[Event]) -> list[str]:
        return summarize_turn(list(events))

    def summary(self, game: B17Game) -> list[tuple[str, object]]:
        return summary(game)


class B17Analysis:
    """The B-17 raid for the analysis code and the search bots (:class:`grognard.core.ruleset.Analysis`)."""

    def odds_tables(self, options: Mapping[str, Any] | None = None) -> list[OddsTable]:
        return odds_tables(options)

    def measure(self, game: B17Game) -> dict[str, int | None]:
        return measure(game)

    def evaluate(self, game: B17Game, side: str) -> float:
        return evaluate(game, side)

    def search_candidates(self, game: B17Game, decision: Decision, k: int) -> list[B17Action]:
        return search_candidates(game, decision, k)


RULESET: Ruleset[B17Game, B17Action] = Ruleset(
    name="b17",
    title="B-17 raid",
    seed_file="003_be0c37b661626161.txt",
    sides=SIDES,
    options=OPTIONS,
    rules=B17Rules(),
    bots=BOTS,
    default_bot="book",
    bot_notes=NOTES,
    log_key=LOG_KEY,
    sequence=SEQUENCE,
    usage=tuple(USAGE.values()),
    metrics=METRICS,
    face=face.FACE,
    adviser=Advice(),
    analysis=B17Analysis(),
    render=render_svg,
    plans=SIDE_PLANS,
)

__all__ = ["RULESET", "B17Game"]
