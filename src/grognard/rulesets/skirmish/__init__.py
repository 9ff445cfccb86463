"""General WWII skirmish rules at 25mm, one man a figure (seed ``001_10caca1a67345982.txt``): part 1, part 2 melee."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grognard.core.dice import DiceSource
from grognard.core.face import Face
from grognard.core.ruleset import Ruleset
from grognard.render.skirmish import render as render_svg
from grognard.rulesets.skirmish import face, face_controls, faces
from grognard.rulesets.skirmish.actions import USAGE, action_from_json, parse_action
from grognard.rulesets.skirmish.analysis import METRICS, measure, scenario_odds_tables
from grognard.rulesets.skirmish.candidates import search_candidates
from grognard.rulesets.skirmish.describe import LOG_KEY, SEQUENCE, describe, summarize_turn
from grognard.rulesets.skirmish.evaluate import evaluate
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.levels import BOTS, NOTES
from grognard.rulesets.skirmish.levels import SEARCH_LEVELS as SEARCH_LEVELS  # bench/compare.py reads it here
from grognard.rulesets.skirmish.men import SIDES
from grognard.rulesets.skirmish.options import OPTIONS
from grognard.rulesets.skirmish.scenario import embed_files, scenario_from_embedded, shipped
from grognard.rulesets.skirmish.upload import upload


def new_game(options: Mapping[str, Any], dice: DiceSource) -> SkirmishGame:
    """A new skirmish game from resolved options."""
    return SkirmishGame(options, dice)


def restore(options: Mapping[str, Any], dice: DiceSource, embedded: Mapping[str, Any]) -> SkirmishGame:
    """A game on the scenario (and tables) a record's header keeps, not the files, which may have changed."""
    return SkirmishGame(options, dice, scenario=scenario_from_embedded(embedded, str(options["scenario"])))


def summary(game: SkirmishGame) -> list[tuple[str, Any]]:
    """The figures of a finished game for its final report."""
    s = game.state
    out: list[tuple[str, Any]] = [("scenario", f"{game.ctx.scenario.spec.title} ({game.ctx.scenario.source})")]
    for side in SIDES:
        total = sum(1 for f in s.figures.values() if f.side == side)
        out.append((f"{side} men lost", f"{s.stats['losses'][side]} of {total}"))
        out.append((f"{side} flesh wounds", s.stats["wounds"][side]))
        out.append((f"{side} dice rolled / hits", f"{s.stats['shots'][side]} / {s.stats['hits'][side]}"))
    first = s.stats["first_blood"]
    out.append(("first man killed", f"turn {first}" if first else "never"))
    return out


# the "search" bot's levels: playouts per decision, each to the end of the turn (its fire and melee) and
# scored by ``evaluate``; the menu cut to 4 playouts a candidate (skirmish/candidates.py lists them)


RULESET = Ruleset(
    name="skirmish",
    title=(
        "WWII skirmish (moving, fire, cover, melee, artillery, wedges, buildings, bridges, vehicles, "
        "the train, castles, landing craft, paratroops)"
    ),
    seed_file="001_10caca1a67345982.txt",
    sides=SIDES,
    options=OPTIONS,
    new_game=new_game,
    parse_action=parse_action,
    describe=describe,
    summarize_turn=summarize_turn,
    log_key=LOG_KEY,
    sequence=SEQUENCE,
    bots=BOTS,
    default_bot="book",
    bot_notes=NOTES,
    evaluate=evaluate,
    search_candidates=search_candidates,  # type: ignore[arg-type]
    action_from_json=action_from_json,
    usage=tuple(USAGE.values()),
    situation=faces.situation,
    note=faces.note,
    odds=faces.odds,
    board_text=faces.board,
    preview=faces.preview,
    scenarios=shipped,
    embed=embed_files,
    restore=restore,
    upload=upload,
    face=Face(
        scene=face.scene,
        phase=face.phase,
        tables=face.tables,
        figures=face.figures,
        controls=face_controls.controls,
        unit=face_controls.unit,
        marks=face.marks,
        commands=face.commands,
    ),
    upload_option="scenario",
    render=render_svg,
    odds_tables=scenario_odds_tables,
    metrics=METRICS,
    measure=measure,
    summary=lambda game: summary(game),
)

__all__ = ["RULESET", "SkirmishGame"]
