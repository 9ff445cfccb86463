"""After-action reports of a finished game: a PDF page for each player, a class summary CSV, all in a zip.

Each player's page (:mod:`grognard.reports.page`) tells his unit's story from the record
(:mod:`grognard.reports.story`), his three key decisions with the coach's view
(:mod:`grognard.analysis.coach`), the odds he faced and what the dice did, and the game beside the rules'
own playtest. The coach takes longer than the rest (a class game's hundreds of decisions, each played
out): the reports are made at once without it when it is not ready (each page says so, and how far it
has got), and again with it once it is (``web/reports.py`` runs it in the background at the game's end).

The class CSV has a row a player: display name, side, seats, orders, losses inflicted and taken, and the
decisions that cost most.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from grognard import rulesets
from grognard.analysis.coach import COACH_LEVEL, Coaching
from grognard.reports.page import page, pdf
from grognard.reports.story import Facts, facts_of, playtest_line

__all__ = ["Player", "Reports", "class_reports", "players_of"]

CSV_HEAD = ["name", "side", "seats", "orders", "losses inflicted", "losses taken", "decisions that cost most"]


@dataclass(frozen=True)
class Player:
    """A person of the game: his display name, his seats, and the record lines of the orders he gave."""

    name: str
    seats: tuple[str, ...]
    lines: frozenset[int]


@dataclass
class Reports:
    """The reports of one game: ``pages`` (file name -> PDF bytes, a page a player) and the class ``csv``."""

    pages: dict[str, bytes]
    csv: str
    coached: bool

    def zip(self) -> bytes:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in self.pages.items():
                archive.writestr(name, data)
            archive.writestr("class.csv", self.csv)
        return buffer.getvalue()


def players_of(lines: Sequence[dict[str, Any]]) -> list[Player]:
    """Without a list of people (a record alone): one player a seat that gave orders, named as the seat."""
    seats: dict[str, set[int]] = {}
    for number, line in enumerate(lines, 1):
        if line.get("type") == "action":
            seats.setdefault(str(line["seat"]), set()).add(number)
    return [Player(seat, (seat,), frozenset(numbers)) for seat, numbers in seats.items()]


def _file_name(index: int, name: str) -> str:
    safe = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-")[:40] or "player"
    return f"{index:02d}-{safe}.pdf"


def class_reports(
    lines: Sequence[dict[str, Any]],
    people: Sequence[Player] | None,
    coaching: Coaching | None,
    *,
    coach_note: str = "",
    minutes: float | None = None,
    title: str | None = None,
) -> Reports:
    """The reports of the finished game ``lines`` for ``people`` (None: each seat that gave orders).

    ``coaching``: the coach's weighing of the people's decisions, or None while it is not ready
    (``coach_note`` says so on each page). ``minutes``: how long the game was played, when known.
    """
    ruleset = rulesets.get(str(lines[0]["ruleset"]))
    players = list(people) if people is not None else players_of(lines)
    owners = {number: player.name for player in players for number in player.lines}
    facts = facts_of(lines, owners, {player.name: list(player.seats) for player in players})
    playtest = playtest_line(lines, minutes)
    heading = title or ruleset.title
    pages: dict[str, bytes] = {}
    rows: list[list[str]] = []
    for index, player in enumerate(players, 1):
        mine: Facts = facts[player.name]
        key = None
        note = coach_note or "The coach's view is not ready yet."
        if coaching is not None:
            key = coaching.key(lines=player.lines)
            note = (
                f"The coach set each of your decisions beside the {COACH_LEVEL} bot's and played both out "
                f"{coaching.playouts} times from what you could see; a difference is in points of your side's "
                "chance to win (positive: the bot's choice would have won more often)."
            )
        flowables = page(heading, player.name, mine, playtest, key, note)
        pages[_file_name(index, player.name)] = pdf(flowables, f"After-action report: {player.name}")
        costly = "; ".join(f"turn {w.turn} {w.made} ({w.verdict()})" for w in (key or [])) or "none"
        rows.append(
            [
                player.name,
                mine.side,
                " ".join(player.seats),
                str(len(mine.orders)),
                str(mine.inflicted),
                str(mine.taken),
                costly if coaching is not None else "(the coach is not ready)",
            ]
        )
    with io.StringIO(newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(CSV_HEAD)
        writer.writerows(rows)
        text = handle.getvalue()
    return Reports(pages, text, coaching is not None)
