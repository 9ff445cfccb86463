"""Omaha Beach: a classroom landing game (seed ``000_4fc63ac4eb89fd14.txt``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grognard.core.dice import DiceSource
from grognard.core.ruleset import BatchPath, Ruleset
from grognard.rulesets.omaha import face, faces
from grognard.rulesets.omaha.actions import USAGE, action_from_json, parse_action
from grognard.rulesets.omaha.analysis import METRICS, measure, odds_tables
from grognard.rulesets.omaha.batch import play_batch, supports
from grognard.rulesets.omaha.data import OPTIONS, SIDES
from grognard.rulesets.omaha.describe import LOG_KEY, SEQUENCE, describe, summarize_turn
from grognard.rulesets.omaha.evaluate import evaluate
from grognard.rulesets.omaha.game import OmahaGame
from grognard.rulesets.omaha.levels import BOTS, NOTES
from grognard.rulesets.omaha.levels import SEARCH_LEVELS as SEARCH_LEVELS  # bench/compare.py reads it here
from grognard.rulesets.omaha.menu import menu


def new_game(options: Mapping[str, Any], dice: DiceSource) -> OmahaGame:
    """A new Omaha game from resolved options."""
    return OmahaGame(options, dice)


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


# the "search" bot's levels: playouts per decision, and turns a playout runs before ``evaluate`` scores it


RULESET = Ruleset(
    name="omaha",
    title="Omaha Beach landing",
    seed_file="000_4fc63ac4eb89fd14.txt",
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
    menu=menu,  # type: ignore[arg-type]
    render=render_svg,
    odds_tables=odds_tables,
    evaluate=evaluate,
    metrics=METRICS,
    measure=measure,
    batch=BatchPath(supports, play_batch),
    preview=faces.preview,  # type: ignore[arg-type]
    face=face.FACE,
)

__all__ = ["RULESET", "OmahaGame"]
