"""General WWII skirmish rules at 25mm, one man a figure (seed ``001_10caca1a67345982.txt``): part 1, part 2 melee."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from grognard.analysis.odds import OddsTable
from grognard.core.dice import DiceSource
from grognard.core.engine import Decision, Event
from grognard.core.face import Face
from grognard.core.ruleset import Ruleset
from grognard.rulesets.skirmish import face, face_controls, view_words
from grognard.rulesets.skirmish.actions import USAGE, SkirmishAction, action_from_json, parse_action
from grognard.rulesets.skirmish.advice import Advice
from grognard.rulesets.skirmish.analysis import METRICS, measure, scenario_odds_tables
from grognard.rulesets.skirmish.candidates import search_candidates
from grognard.rulesets.skirmish.describe import LOG_KEY, SEQUENCE, describe, summarize_turn
from grognard.rulesets.skirmish.editor import SkirmishEditor
from grognard.rulesets.skirmish.evaluate import evaluate
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.levels import BOTS, NOTES, SIDE_PLANS
from grognard.rulesets.skirmish.levels import SEARCH_LEVELS as SEARCH_LEVELS  # bench/compare.py reads it here
from grognard.rulesets.skirmish.men import SIDES
from grognard.rulesets.skirmish.options import OPTIONS
from grognard.rulesets.skirmish.scenario import embed_files, scenario_from_embedded, shipped
from grognard.rulesets.skirmish.upload import upload


def summary(game: SkirmishGame) -> list[tuple[str, object]]:
    """The figures of a finished game for its final report."""
    s = game.state
    out: list[tuple[str, object]] = [("scenario", f"{game.ctx.scenario.spec.title} ({game.ctx.scenario.source})")]
    for side in SIDES:
        total = sum(1 for f in s.figures.values() if f.side == side)
        out.append((f"{side} men lost", f"{s.stats['losses'][side]} of {total}"))
        out.append((f"{side} flesh wounds", s.stats["wounds"][side]))
        out.append((f"{side} dice rolled / hits", f"{s.stats['shots'][side]} / {s.stats['hits'][side]}"))
    first = s.stats["first_blood"]
    out.append(("first man killed", f"turn {first}" if first else "never"))
    return out


class SkirmishRules:
    """The skirmish's game factory (:class:`grognard.core.ruleset.Rules`)."""

    def new_game(self, options: Mapping[str, Any], dice: DiceSource) -> SkirmishGame:
        """A new skirmish game from resolved options."""
        return SkirmishGame(options, dice)

    def parse_action(self, text: str) -> SkirmishAction:
        return parse_action(text)

    def action_from_json(self, data: Mapping[str, Any]) -> SkirmishAction:
        return action_from_json(dict(data))

    def describe(self, event: Event) -> str | None:
        return describe(event)

    def summarize_turn(self, events: Sequence[Event]) -> list[str]:
        return summarize_turn(list(events))

    def summary(self, game: SkirmishGame) -> list[tuple[str, object]]:
        return summary(game)


class SkirmishAnalysis:
    """The skirmish for the analysis code and the search bots (:class:`grognard.core.ruleset.Analysis`)."""

    def odds_tables(self, options: Mapping[str, Any] | None = None) -> list[OddsTable]:
        """The tables of the scenario ``options`` name (its own tables, if it has them)."""
        return scenario_odds_tables(options)

    def measure(self, game: SkirmishGame) -> dict[str, int | None]:
        return measure(game)

    def evaluate(self, game: SkirmishGame, side: str) -> float:
        return evaluate(game, side)

    def search_candidates(self, game: SkirmishGame, decision: Decision, k: int) -> list[SkirmishAction]:
        return search_candidates(game, decision, k)


class SkirmishFiles:
    """The scenario files the skirmish plays (:class:`grognard.core.ruleset.ScenarioFiles`)."""

    def shipped(self) -> list[tuple[str, str]]:
        return shipped()

    def embed(self, options: Mapping[str, Any]) -> dict[str, Any] | None:
        return embed_files(options)

    def restore(self, options: Mapping[str, Any], dice: DiceSource, embedded: Mapping[str, Any]) -> SkirmishGame:
        """A game on the scenario (and tables) a record's header keeps, not the files, which may have changed."""
        return SkirmishGame(options, dice, scenario=scenario_from_embedded(embedded, str(options["scenario"])))

    def upload(self, name: str, text: str) -> tuple[dict[str, Any], dict[str, Any]]:
        return upload(name, text)


FACE = Face(
    scene=face.scene,
    phase=face.phase,
    tables=face.tables,
    figures=face.figures,
    controls=face_controls.controls,
    unit=face_controls.unit,
    marks=face.marks,
    commands=face.commands,
    situation=view_words.situation,
    board=view_words.board,
    heading=face.heading,
)


def render_svg(view: dict[str, Any]) -> str:
    """The table of a view as SVG: its face's scene through the one painter (``grognard.render.paint``), with
    ``view["focus"]``'s lines of fire (``focus.focus_layer``) over it."""
    from grognard.render.paint import picture
    from grognard.rulesets.skirmish.focus import focus_layer

    more = [layer for layer in [focus_layer(view)] if layer is not None]
    return picture(FACE, SIDES, str(view["scenario"]["title"]), view, more)


RULESET: Ruleset[SkirmishGame, SkirmishAction] = Ruleset(
    name="skirmish",
    title=(
        "WWII skirmish (moving, fire, cover, melee, artillery, wedges, buildings, bridges, vehicles, "
        "the train, castles, landing craft, paratroops)"
    ),
    seed_file="001_10caca1a67345982.txt",
    sides=SIDES,
    options=OPTIONS,
    rules=SkirmishRules(),
    bots=BOTS,
    default_bot="book",
    bot_notes=NOTES,
    log_key=LOG_KEY,
    sequence=SEQUENCE,
    usage=tuple(USAGE.values()),
    metrics=METRICS,
    upload_option="scenario",
    face=FACE,
    adviser=Advice(),
    analysis=SkirmishAnalysis(),
    files=SkirmishFiles(),
    editor=SkirmishEditor(),
    render=render_svg,
    plans=SIDE_PLANS,
)

__all__ = ["RULESET", "SkirmishGame"]
