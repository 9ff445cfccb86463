"""Omaha Beach: a classroom landing game (seed ``000_4fc63ac4eb89fd14.txt``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from grognard.analysis.odds import OddsTable
from grognard.core.dice import DiceSource
from grognard.core.engine import Decision, Event
from grognard.core.ruleset import Ruleset
from grognard.rulesets.omaha import face
from grognard.rulesets.omaha.actions import USAGE, OmahaAction, action_from_json, parse_action
from grognard.rulesets.omaha.advice import Advice
from grognard.rulesets.omaha.analysis import METRICS, measure, odds_tables
from grognard.rulesets.omaha.batch import play_batch, supports
from grognard.rulesets.omaha.data import OPTIONS, SIDES
from grognard.rulesets.omaha.describe import LOG_KEY, SEQUENCE, describe, summarize_turn
from grognard.rulesets.omaha.evaluate import evaluate
from grognard.rulesets.omaha.game import OmahaGame
from grognard.rulesets.omaha.levels import BOTS, NOTES, SIDE_PLANS
from grognard.rulesets.omaha.levels import SEARCH_LEVELS as SEARCH_LEVELS  # bench/compare.py reads it here


def summary(game: OmahaGame) -> list[tuple[str, Any]]:
    """The figures of a game for its final report."""
    s = game.state
    st = s.stats
    knocked = sum(1 for b in s.bunkers.values() if not b.active)
    return [
        (
            "first squad past the sea wall",
            f"turn {st['first_past_wall_turn']} ({st['first_past_wall']})" if st["first_past_wall_turn"] else "never",
        ),
        ("breakthrough (first exit open)", f"turn {st['breakthrough_turn']}" if st["breakthrough_turn"] else "never"),
        ("decisive win", f"turn {st['decisive_turn']}" if st["decisive_turn"] else "no"),
        ("exits open", f"{len(s.exits_open)} of {len(s.bunkers)}"),
        (
            "bunkers knocked out",
            f"{knocked} of {len(s.bunkers)} "
            f"({sum(1 for b in s.bunkers.values() if b.status == 'silenced')} silenced, "
            f"{sum(1 for b in s.bunkers.values() if b.status == 'destroyed')} destroyed)",
        ),
        ("American figures lost", st["american_losses"]),
        ("German figures lost", st["german_losses"]),
        ("squads sent back by morale", st["sent_back"]),
        ("squads wiped out", st["wiped_out"]),
        ("fresh squads landed", st["fresh_squads"]),
    ]


def render_svg(view: dict[str, Any]) -> str:
    """The beach of a view as SVG: its face's scene through the one painter (``grognard.render.paint``)."""
    from grognard.render.paint import picture

    return picture(face.FACE, SIDES, "Omaha Beach", view)


class OmahaRules:
    """Omaha's game factory (:class:`grognard.core.ruleset.Rules`)."""

    def new_game(self, options: Mapping[str, Any], dice: DiceSource) -> OmahaGame:
        """A new Omaha game from resolved options."""
        return OmahaGame(options, dice)

    def parse_action(self, text: str) -> OmahaAction:
        return parse_action(text)

    def action_from_json(self, data: Mapping[str, Any]) -> OmahaAction:
        return action_from_json(dict(data))

    def describe(self, event: Event) -> str | None:
        return describe(event)

    def summarize_turn(self, events: Sequence[Event]) -> list[str]:
        return summarize_turn(list(events))

    def summary(self, game: OmahaGame) -> list[tuple[str, object]]:
        return summary(game)


class OmahaAnalysis:
    """Omaha for the analysis code and the search bots (:class:`grognard.core.ruleset.Analysis`)."""

    def odds_tables(self, options: Mapping[str, Any] | None = None) -> list[OddsTable]:
        return odds_tables(options)

    def measure(self, game: OmahaGame) -> dict[str, int | None]:
        return measure(game)

    def evaluate(self, game: OmahaGame, side: str) -> float:
        return evaluate(game, side)

    def search_candidates(self, game: OmahaGame, decision: Decision, k: int) -> list[OmahaAction]:
        """The decision space's own candidates: Omaha's menu is small enough to weigh whole."""
        return list(decision.space.candidates(k))


class OmahaBatch:
    """Many doctrine games side by side (:class:`grognard.core.ruleset.Batch`, ``rulesets/omaha/batch``)."""

    def supports(self, bots: Mapping[str, str]) -> bool:
        return supports(bots)

    def play(
        self, options: Mapping[str, Any], bots: Mapping[str, str], seed: int, start: int, stop: int
    ) -> list[dict[str, Any]]:
        return play_batch(options, bots, seed, start, stop)


RULESET: Ruleset[OmahaGame, OmahaAction] = Ruleset(
    name="omaha",
    title="Omaha Beach landing",
    seed_file="000_4fc63ac4eb89fd14.txt",
    sides=SIDES,
    options=OPTIONS,
    rules=OmahaRules(),
    bots=BOTS,
    default_bot="book",
    bot_notes=NOTES,
    log_key=LOG_KEY,
    sequence=SEQUENCE,
    usage=tuple(USAGE.values()),
    metrics=METRICS,
    face=face.FACE,
    adviser=Advice(),
    analysis=OmahaAnalysis(),
    batch=OmahaBatch(),
    render=render_svg,
    plans=SIDE_PLANS,
)

__all__ = ["RULESET", "OmahaGame"]
