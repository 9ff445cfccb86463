"""The B-17 raid: an unescorted daylight raid on a ping-pong table (seed ``003_be0c37b661626161.txt``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grognard.core.dice import DiceSource
from grognard.core.ruleset import Ruleset
from grognard.rulesets.b17 import face, faces
from grognard.rulesets.b17.actions import USAGE, action_from_json, parse_action
from grognard.rulesets.b17.analysis import METRICS, measure, odds_tables
from grognard.rulesets.b17.candidates import search_candidates
from grognard.rulesets.b17.data import OPTIONS, SIDES
from grognard.rulesets.b17.describe import LOG_KEY, SEQUENCE, describe, summarize_turn
from grognard.rulesets.b17.evaluate import evaluate
from grognard.rulesets.b17.game import B17Game
from grognard.rulesets.b17.levels import BOTS, NOTES
from grognard.rulesets.b17.levels import SEARCH_LEVELS as SEARCH_LEVELS  # bench/compare.py reads it here
from grognard.rulesets.b17.menu import menu


def new_game(options: Mapping[str, Any], dice: DiceSource) -> B17Game:
    """A new B-17 game from resolved options."""
    return B17Game(options, dice)


def summary(game: B17Game) -> list[tuple[str, Any]]:
    """The figures of a game for its final report (the projector's too: ``face.figures``)."""
    return face.figures(game.state.to_json())


def render_svg(view: dict[str, Any]) -> str:
    """The table of a view as SVG: its face's scene through the one painter (``grognard.render.paint``)."""
    from grognard.render.paint import picture

    return picture(face.FACE, SIDES, "B-17 raid", view)


RULESET = Ruleset(
    name="b17",
    title="B-17 raid",
    seed_file="003_be0c37b661626161.txt",
    sides=SIDES,
    options=OPTIONS,
    new_game=new_game,
    parse_action=parse_action,
    describe=describe,
    bots=BOTS,
    default_bot="book",
    bot_notes=NOTES,
    summarize_turn=summarize_turn,
    log_key=LOG_KEY,
    sequence=SEQUENCE,
    summary=lambda game: summary(game),  # type: ignore[arg-type]
    action_from_json=action_from_json,
    usage=tuple(USAGE.values()),
    situation=faces.situation,  # type: ignore[arg-type]
    note=faces.note,  # type: ignore[arg-type]
    odds=faces.odds,  # type: ignore[arg-type]
    board_text=faces.board,  # type: ignore[arg-type]
    menu=menu,
    render=render_svg,
    odds_tables=odds_tables,
    metrics=METRICS,
    measure=measure,
    evaluate=evaluate,
    search_candidates=search_candidates,
    preview=faces.preview,  # type: ignore[arg-type]
    face=face.FACE,
)

__all__ = ["RULESET", "B17Game"]
