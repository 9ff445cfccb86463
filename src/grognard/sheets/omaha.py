"""The Omaha setup sheet for a real table: the beach drawn to scale, the obstacles the seeded dice rolled
for each section, the bunker places and the exits (seed sections "The board", "Obstacles", "Bunkers";
RULINGS O3, O3b, O15, O17, O18).

The game is made exactly as ``grognard play omaha --seed N`` makes it (the same dice stream), so the
obstacles printed are the ones the program plays; the sheet reads the game's ``view`` and its start events
(the dice of each section), and the rule set's measures in ``rulesets/omaha/data.py``.

Coordinates are the rule set's: x along the beach from the left end, y from the water line toward the
Germans (the water is y < 0, the sea wall at y = 24, the obstacle band 24-28, the bunker ground beyond).
The drawing puts the sea at the bottom.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import PageBreak, Paragraph, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from grognard.core.dice import DICE, SeededDice, stream
from grognard.core.ruleset import Ruleset
from grognard.rulesets.omaha.data import (
    BAND_END_Y,
    BUNKER_DEPTH,
    BUNKER_FRONT_Y,
    BUNKER_SECTION_WIDTH,
    BUNKER_WIDTH,
    OBSTACLE_SECTION_WIDTH,
    SECTIONS_PER_GERMAN,
    WALL_Y,
    ZONE_WIDTH,
)
from grognard.rulesets.omaha.rules import bunker_centre, section_at
from grognard.sheets.card import HEAD, TEXT

POINTS = 72.0  # points per inch of paper
DETAIL_WIDTH = 72.0  # inches of beach on one detail page (three German players' sectors)
SCALES = (4, 5, 6, 8, 10, 12, 15, 16, 20, 24, 30, 40, 50, 60, 80, 100)  # 1 : n, round numbers to measure by
WATER, SAND, BAND, GROUND = (
    colors.HexColor("#C8E3F6"),
    colors.HexColor("#F8E9C4"),
    colors.HexColor("#F1D9A0"),
    colors.HexColor("#E4E4E4"),
)
INK, FAINT = colors.HexColor("#222222"), colors.HexColor("#777777")


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


class Beach(Flowable):
    """The beach from ``x0`` to ``x1`` (inches of table) drawn at 1 : ``scale``."""

    def __init__(self, view: dict[str, Any], dice: list[int], x0: float, x1: float, scale: float, detail: bool) -> None:
        super().__init__()
        self.view, self.dice, self.x0, self.x1, self.scale, self.detail = view, dice, x0, x1, scale, detail
        opts = view["options"]
        self.water, self.ground = float(opts["water"]), float(opts["ground"])
        self.top = BAND_END_Y + self.ground
        self.width = (x1 - x0) / scale * POINTS + 40
        self.height = (self.top + self.water) / scale * POINTS + 58

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def p(self, x: float, y: float) -> tuple[float, float]:
        """Table inches to points on the flowable (the sea at the bottom, 40 points left for the y labels)."""
        return 30 + (x - self.x0) / self.scale * POINTS, 40 + (y + self.water) / self.scale * POINTS

    def rect(self, c: Canvas, x0: float, y0: float, x1: float, y1: float, **kw: Any) -> None:
        (a, b), (d, e) = self.p(x0, y0), self.p(x1, y1)
        c.rect(a, b, d - a, e - b, **kw)

    def line(self, c: Canvas, x0: float, y0: float, x1: float, y1: float) -> None:
        c.line(*self.p(x0, y0), *self.p(x1, y1))

    def label(self, c: Canvas, x: float, y: float, text: str, size: float = 7, bold: bool = False) -> None:
        c.setFont("Helvetica-Bold" if bold else "Helvetica", size)
        px, py = self.p(x, y)
        c.drawCentredString(px, py - size / 3, text)

    def draw(self) -> None:
        c: Canvas = self.canv
        v, x0, x1 = self.view, self.x0, self.x1
        fine = self.detail
        c.setStrokeColor(INK)
        c.setLineWidth(0.5)
        c.setFillColor(WATER)
        self.rect(c, x0, -self.water, x1, 0, fill=1, stroke=0)
        c.setFillColor(SAND)
        self.rect(c, x0, 0, x1, WALL_Y, fill=1, stroke=0)
        c.setFillColor(BAND)
        self.rect(c, x0, WALL_Y, x1, BAND_END_Y, fill=1, stroke=0)
        c.setFillColor(GROUND)
        self.rect(c, x0, BAND_END_Y, x1, self.top, fill=1, stroke=0)
        c.setFillColor(INK)
        # landing zones (8") in the water, each American player's
        c.setStrokeColor(FAINT)
        c.setDash(2, 2)
        for k, american in enumerate(v["americans"]):
            zx = k * ZONE_WIDTH
            if zx + ZONE_WIDTH <= x0 or zx >= x1:
                continue
            self.line(c, zx, -self.water, zx, 0)
            self.label(c, zx + ZONE_WIDTH / 2, -self.water / 2, american["label"], 8 if fine else 5, bold=True)
        c.setDash()
        c.setStrokeColor(INK)
        c.setLineWidth(1.2)
        self.line(c, x0, 0, x1, 0)  # the water line
        c.setLineWidth(2.0)
        self.line(c, x0, WALL_Y, x1, WALL_Y)  # the sea wall
        c.setLineWidth(0.5)
        # obstacle sections (6"): the number the dice rolled, drawn as that many spirals
        obstacles = v["obstacles"]
        for k, count in enumerate(obstacles):
            sx = k * OBSTACLE_SECTION_WIDTH
            if sx + OBSTACLE_SECTION_WIDTH <= x0 or sx >= x1:
                continue
            self.line(c, sx, WALL_Y, sx, BAND_END_Y)
            mid = sx + OBSTACLE_SECTION_WIDTH / 2
            self.label(c, mid, BAND_END_Y - 0.9, f"O{k + 1}", 7 if fine else 4.5, bold=True)
            if count is None:
                if fine:
                    self.label(c, mid, WALL_Y + 1.4, "roll at the wall", 6)
                continue
            if fine:
                word = {0: "none", 1: "1 obstacle", 2: "2 obstacles"}.get(count, f"{count} obstacles")
                die = f" (die {self.dice[k]})" if k < len(self.dice) else ""
                self.label(c, mid, WALL_Y + 0.9, word + die, 6)
            for j in range(count):
                cx = mid + (j - (count - 1) / 2) * 2.2
                px, py = self.p(cx, WALL_Y + 2.05)
                r = 0.55 / self.scale * POINTS
                c.setLineWidth(0.8)
                for turn in range(3):
                    c.circle(px + (turn - 1) * r * 0.6, py, r, stroke=1, fill=0)
                c.setLineWidth(0.5)
        self.line(
            c, len(obstacles) * OBSTACLE_SECTION_WIDTH, WALL_Y, len(obstacles) * OBSTACLE_SECTION_WIDTH, BAND_END_Y
        )
        # bunker sections (8"): each German player's three, a bunker place in the middle of each; each is an exit
        sections = int(v["germans"]) * SECTIONS_PER_GERMAN
        for k in range(sections + 1):
            bx = k * BUNKER_SECTION_WIDTH
            if x0 <= bx <= x1:
                c.setStrokeColor(FAINT)
                self.line(c, bx, BAND_END_Y, bx, self.top)
                c.setStrokeColor(INK)
        for k in range(sections):
            centre = bunker_centre(k)
            if not x0 <= centre <= x1:
                continue
            c.setDash(3, 2)
            self.rect(
                c, centre - BUNKER_WIDTH / 2, BUNKER_FRONT_Y, centre + BUNKER_WIDTH / 2, BUNKER_FRONT_Y + BUNKER_DEPTH
            )
            c.setDash()
            german = k // SECTIONS_PER_GERMAN + 1
            self.label(c, centre, BUNKER_FRONT_Y + BUNKER_DEPTH / 2, f"S{k + 1}", 7 if fine else 4.5, bold=True)
            if fine:
                exit_ = section_at(centre, OBSTACLE_SECTION_WIDTH, len(obstacles)) + 1
                self.label(c, centre, self.top + 0.5 * self.scale / 8, f"G{german}, exit through O{exit_}", 6)
        # the table's ends and a scale bar
        c.setLineWidth(1)
        self.rect(c, x0, -self.water, x1, self.top)
        self._axis(c)

    def _axis(self, c: Canvas) -> None:
        step = 6 if self.detail else 24
        c.setFont("Helvetica", 6.5)
        start = int(self.x0 // step * step)
        for inch in range(start, int(self.x1) + 1, step):
            if inch < self.x0:
                continue
            px, py = self.p(inch, -self.water)
            c.line(px, py, px, py - 4)
            c.drawCentredString(px, py - 11, f'{inch}"')
        for y in (0, WALL_Y, BAND_END_Y):  # the water line, the sea wall, the band's back edge
            px, py = self.p(self.x0, y)
            c.drawRightString(px - 2, py - 2, f'{y:g}"')
        c.setFont("Helvetica", 7)
        left, bottom = self.p(self.x0, -self.water)
        c.drawString(left, bottom - 24, f'scale 1 : {self.scale:g}  (1" on this paper = {self.scale:g}" of table)')


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
        Beach(view, dice, 0.0, width, overview_scale, detail=False),
        Spacer(1, 6),
        _section_table(view, dice),
    ]
    start = 0.0
    while start < width:
        end = min(start + DETAIL_WIDTH, width)
        story += [
            PageBreak(),
            Paragraph(f'The beach from {start:g}" to {end:g}" (seed {seed})', HEAD),
            Beach(view, dice, start, end, detail_scale, detail=True),
        ]
        start = end
    return story
