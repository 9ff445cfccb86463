"""The Omaha setup sheet for a real table: the beach drawn to scale, the obstacles the seeded dice rolled
for each section, the bunker places and the exits (seed sections "The board", "Obstacles", "Bunkers";
RULINGS O3, O3b, O15, O17, O18).

The game is made exactly as ``grognard play omaha --seed N`` makes it (the same dice stream), so the
obstacles printed are the ones the program plays; the sheet reads the game's ``view`` and its start events
(the dice of each section), and the rule set's measures in ``rulesets/omaha/data.py``.

The beach is the face's scene of that view (``rulesets/omaha/face.py``) through the one painter, drawn in
vectors on the page (``sheets/picture.py``); the sheet adds the bunker places and, on a page of part of the
beach, each section's roll and each place's exit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reportlab.lib import colors
from reportlab.platypus import PageBreak, Paragraph, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from grognard.core.dice import DICE, SeededDice, stream
from grognard.core.ruleset import Ruleset
from grognard.rulesets.omaha.data import (
    BAND_END_Y,
    BUNKER_DEPTH,
    BUNKER_FRONT_Y,
    BUNKER_WIDTH,
    OBSTACLE_SECTION_WIDTH,
    SECTIONS_PER_GERMAN,
    WALL_Y,
)
from grognard.rulesets.omaha.rules import bunker_centre, section_at
from grognard.sheets.card import HEAD, TEXT
from grognard.sheets.picture import scene_picture

POINTS = 72.0  # points per inch of paper
DETAIL_WIDTH = 72.0  # inches of beach on one detail page (three German players' sectors)
SCALES = (4, 5, 6, 8, 10, 12, 15, 16, 20, 24, 30, 40, 50, 60, 80, 100)  # 1 : n, round numbers to measure by


def seeded_setup(ruleset: Ruleset, options: Mapping[str, Any], seed: int) -> tuple[dict[str, Any], list[int]]:
    """The view of the game ``grognard play omaha --seed seed`` starts (before any decision) and each
    obstacle section's die (empty when the obstacles are hidden until a squad reaches the wall, O15)."""
    game = ruleset.create(dict(options), SeededDice(stream(seed, DICE)))
    dice = [
        int(e.data["values"][0])
        for e in game.take_events()
        if e.kind == "dice" and str(e.data.get("purpose", "")).startswith("obstacles")
    ]
    return game.view(None), dice


def _setup_layer(view: dict[str, Any], dice: list[int], detail: bool) -> dict[str, Any]:
    """What a setup sheet adds to the beach's scene: each bunker place (dashed, S1...), and on a detail page
    each obstacle section's roll and each place's German player and the exit it opens."""
    shapes: list[dict[str, Any]] = []
    sections = int(view["germans"]) * SECTIONS_PER_GERMAN
    obstacles = view["obstacles"]
    for k in range(sections):
        centre = bunker_centre(k)
        x, y = centre - BUNKER_WIDTH / 2, BUNKER_FRONT_Y
        shapes.append({"kind": "rect", "x": x, "y": y, "w": BUNKER_WIDTH, "h": BUNKER_DEPTH, "cls": "box",
                       "title": f"bunker place S{k + 1}"})  # fmt: skip
        shapes.append({"kind": "text", "x": centre, "y": y + BUNKER_DEPTH / 2 - 0.4, "text": f"S{k + 1}",
                       "cls": "label", "size": 0.6})  # fmt: skip
        if detail:
            exit_ = section_at(centre, OBSTACLE_SECTION_WIDTH, len(obstacles)) + 1
            words = f"G{k // SECTIONS_PER_GERMAN + 1}, exit O{exit_}"
            shapes.append({"kind": "text", "x": centre, "y": y + BUNKER_DEPTH + 0.6, "text": words, "cls": "label",
                           "size": 0.5})  # fmt: skip
    for k, count in enumerate(obstacles if detail else []):
        mid = (k + 0.5) * OBSTACLE_SECTION_WIDTH
        if count is None:
            words = "roll"
        else:
            words = f"{count}" + (f" (die {dice[k]})" if k < len(dice) else "")
        shapes.append({"kind": "text", "x": mid, "y": WALL_Y + 0.5, "text": words, "cls": "label", "size": 0.45})
    return {"name": "setup", "shapes": shapes}


def beach(
    ruleset: Ruleset, view: dict[str, Any], dice: list[int], x0: float, x1: float, scale: float, detail: bool
) -> Flowable:
    """The beach from ``x0`` to ``x1`` (inches of table) at 1 : ``scale``: the face's scene through the one
    painter, the setup's places over it (and its rolls and exits on a ``detail`` page)."""
    assert ruleset.face is not None
    scene = ruleset.face.scene(view, ())
    scene = dict(scene, x0=x0, width=x1 - x0)
    scene["layers"] = [*scene["layers"], _setup_layer(view, dice, detail)]
    return scene_picture(scene, ruleset.sides, scale)


def _section_table(view: dict[str, Any], dice: list[int]) -> Table:
    rows: list[list[str]] = [["section", "from", "to", "die", "obstacles"]]
    for k, count in enumerate(view["obstacles"]):
        x = k * OBSTACLE_SECTION_WIDTH
        die = str(dice[k]) if k < len(dice) else "-"
        rows.append(
            [
                f"O{k + 1}",
                f'{x:g}"',
                f'{x + OBSTACLE_SECTION_WIDTH:g}"',
                die,
                "roll when a squad reaches the wall" if count is None else str(count),
            ]
        )
    half = (len(rows) + 1) // 2
    left, right = rows[:half], [rows[0], *rows[half:]]
    tables = []
    for part in (left, right):
        t = Table(part, hAlign="LEFT")
        t.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), "Helvetica", 8),
                    ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8),
                    ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#999999")),
                    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#E4E4E4")),
                    ("TOPPADDING", (0, 0), (-1, -1), 1),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
                ]
            )
        )
        tables.append(t)
    outer = Table([tables], hAlign="LEFT")
    outer.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP")]))
    return outer


def fitting(width: float, depth: float, points_wide: float, points_high: float) -> int:
    """The largest round scale (1 : n, smallest n of ``SCALES``) at which ``width`` by ``depth`` inches of table
    fit in that many points (the axis labels' room added).

    >>> fitting(144.0, 38.0, 660.0, 230.0), fitting(72.0, 38.0, 700.0, 450.0)
    (20, 8)
    """
    for n in SCALES:
        if width / n * POINTS + 40 <= points_wide and depth / n * POINTS + 58 <= points_high:
            return n
    return SCALES[-1]


def pages(ruleset: Ruleset, options: Mapping[str, Any], seed: int) -> list[Flowable]:
    """The setup pages: the whole beach with the section table, then the beach 72" a page at a larger scale."""
    view, dice = seeded_setup(ruleset, options, seed)
    width = float(view["width"])
    depth = BAND_END_Y + float(view["options"]["ground"]) + float(view["options"]["water"])
    overview_scale = fitting(width, depth, 660.0, 230.0)
    detail_scale = fitting(min(DETAIL_WIDTH, width), depth, 700.0, 450.0)
    hidden = bool(view["options"]["hidden_obstacles"])
    story: list[Flowable] = [
        Paragraph(f"Setting up the beach: seed {seed}", HEAD),
        Paragraph(
            f'The table: {width:g}" of beach ({int(view["germans"])} German players, {len(view["americans"])} '
            f'American players), {float(view["options"]["water"]):g}" of water, 24" of beach from the water line '
            f'to the sea wall, a 4" obstacle band, {float(view["options"]["ground"]):g}" of ground for the '
            "bunkers. "
            + (
                "Obstacles are hidden (optional rule 3): roll a d6 for a section the first time a squad reaches "
                "the wall in front of it."
                if hidden
                else f"The obstacles below were rolled by the program's dice for seed {seed} "
                f'(the same as grognard play omaha --seed {seed}): put that many in each 6" section.'
            ),
            TEXT,
        ),
        Paragraph(
            "Each German player puts his 2 bunkers in 2 of his 3 sections (the dashed places, each in the middle "
            'of its 8" section, its front 1" behind the band). Every bunker section is an exit: it opens when '
            "its bunker is knocked out and the obstacle section in front of it is clear.",
            TEXT,
        ),
        Spacer(1, 6),
        beach(ruleset, view, dice, 0.0, width, overview_scale, detail=False),
        Paragraph(f'scale 1 : {overview_scale:g} (1" on this paper = {overview_scale:g}" of table)', TEXT),
        Spacer(1, 6),
        _section_table(view, dice),
    ]
    start = 0.0
    while start < width:
        end = min(start + DETAIL_WIDTH, width)
        story += [
            PageBreak(),
            Paragraph(f'The beach from {start:g}" to {end:g}" (seed {seed})', HEAD),
            beach(ruleset, view, dice, start, end, detail_scale, detail=True),
            Paragraph(f'scale 1 : {detail_scale:g} (1" on this paper = {detail_scale:g}" of table)', TEXT),
        ]
        start = end
    return story
