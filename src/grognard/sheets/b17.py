"""The B-17 table layout for a real ping-pong table: the 108" by 60" table to scale with the entry zone,
a diamond box placed in it, the target and its flak ring, the gun positions' 4" rings, the clock hours
where the fighters enter, and 1:1 gauges of 4" and 6" (seed II, V, VI.D.5, VII; RULINGS B10, B13).

The box is the one the program places at the start (the placement's first candidate, a legal box); the
drawing reads the game's ``view`` and the rule set's measures (``rulesets/b17/data.py``, the gun positions
of ``geometry.gun_positions``). Table coordinates: x along the length from the American entry end, y
across, the bombers' right at y = 0; the drawing has the entry end on the left.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import PageBreak, Paragraph, Spacer
from reportlab.platypus.flowables import Flowable

from grognard.core.dice import DICE, SeededDice, stream
from grognard.core.ruleset import Ruleset
from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.data import (
    ATTACK_RANGE,
    ENTRY_FARTHEST,
    ENTRY_NEAREST,
    FLAK_RANGE,
    FLANK_MARGIN,
    TABLE_LENGTH,
    TABLE_WIDTH,
    TARGET,
)
from grognard.sheets.card import HEAD, SMALL, TEXT

POINTS = 72.0
SCALE = 12  # 1" of paper is 12" of table: the table is 9" by 5" on the page
ORANGE, SKY, VERMILLION, BLUE = (colors.HexColor(c) for c in ("#E69F00", "#56B4E9", "#D55E00", "#0072B2"))
INK, FAINT = colors.HexColor("#222222"), colors.HexColor("#777777")


def placed_view(ruleset: Ruleset, options: Mapping[str, Any], seed: int) -> dict[str, Any]:
    """The view once the box(es) are placed as the program places them (each placement's first candidate)."""
    game = ruleset.create(dict(options), SeededDice(stream(seed, DICE)))
    for decision in list(game.pending()):
        if decision.id.startswith("place"):
            game.apply(decision.seat, decision.space.candidates(1)[0])
    view: dict[str, Any] = game.view(None)
    return view


class TableLayout(Flowable):
    """The table at 1 : ``SCALE`` with everything placed on it at the start."""

    def __init__(self, view: dict[str, Any]) -> None:
        super().__init__()
        self.view = view
        self.width = TABLE_LENGTH / SCALE * POINTS + 80
        self.height = TABLE_WIDTH / SCALE * POINTS + 70

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def p(self, x: float, y: float) -> tuple[float, float]:
        return 40 + x / SCALE * POINTS, 40 + y / SCALE * POINTS

    def draw(self) -> None:
        c: Canvas = self.canv
        u = POINTS / SCALE  # points per inch of table
        c.setLineWidth(0.6)
        # the entry zone: 6" to 18" from the entry edge, 6" from the flanks
        c.setFillColor(colors.HexColor("#DCEFFB"))
        x, y = self.p(ENTRY_NEAREST, FLANK_MARGIN)
        c.rect(x, y, (ENTRY_FARTHEST - ENTRY_NEAREST) * u, (TABLE_WIDTH - 2 * FLANK_MARGIN) * u, fill=1, stroke=0)
        # the flak ring: 6" beyond the target's edge (rounded at the corners), then the target
        x0, y0, x1, y1 = TARGET
        c.saveState()
        table = c.beginPath()
        table.rect(*self.p(0, 0), TABLE_LENGTH * u, TABLE_WIDTH * u)
        c.clipPath(table, stroke=0, fill=0)
        c.setStrokeColor(VERMILLION)
        c.setDash(4, 3)
        fx, fy = self.p(x0 - FLAK_RANGE, y0 - FLAK_RANGE)
        c.roundRect(fx, fy, (x1 - x0 + 2 * FLAK_RANGE) * u, (y1 - y0 + 2 * FLAK_RANGE) * u, FLAK_RANGE * u)
        c.restoreState()
        c.setFillColor(colors.HexColor("#F6D0B8"))
        tx, ty = self.p(x0, y0)
        c.rect(tx, ty, (x1 - x0) * u, (y1 - y0) * u, fill=1, stroke=1)
        c.setFillColor(INK)
        c.setFont("Helvetica-Bold", 7)
        c.drawCentredString(tx + (x1 - x0) * u / 2, ty + (y1 - y0) * u / 2 - 2, "TARGET")
        c.setFont("Helvetica", 6)
        c.drawCentredString(tx + (x1 - x0) * u / 2, ty + (y1 - y0) * u / 2 - 10, '11" x 8"')
        c.setFillColor(VERMILLION)
        c.drawRightString(fx + 2, fy + (y1 - y0 + 2 * FLAK_RANGE) * u + 3, 'flak ring: 6" from the target')
        # the table itself
        c.setStrokeColor(INK)
        c.setLineWidth(1.2)
        c.rect(*self.p(0, 0), TABLE_LENGTH * u, TABLE_WIDTH * u, fill=0, stroke=1)
        c.setLineWidth(0.6)
        # the bombers, their gun positions and each gun's 4" ring
        options = self.view["options"]
        for a in self.view["aircraft"]:
            if a["kind"] != "bomber":
                continue
            dims = R.dims_of(options, a["model"])
            c.setStrokeColor(BLUE)
            c.setDash(2, 2)
            c.setLineWidth(0.4)
            for gx, gy in G.gun_positions(dims, a["x"], a["y"], a["heading"]).values():
                c.circle(*self.p(gx, gy), ATTACK_RANGE * u, stroke=1, fill=0)
            c.setDash()
            c.setLineWidth(0.6)
            c.setFillColor(BLUE)
            outline = list(G.footprint(dims, a["x"], a["y"], a["heading"]).exterior.coords)
            path = c.beginPath()
            path.moveTo(*self.p(*outline[0]))
            for point in outline[1:]:
                path.lineTo(*self.p(*point))
            path.close()
            c.drawPath(path, fill=1, stroke=0)
            for gx, gy in G.gun_positions(dims, a["x"], a["y"], a["heading"]).values():
                c.setFillColor(ORANGE)
                c.circle(*self.p(gx, gy), 1.3, stroke=0, fill=1)
            c.setFillColor(INK)
            c.setFont("Helvetica-Bold", 6)
            bx, by = self.p(a["x"], a["y"])
            c.drawString(bx + 5, by + 5, a["label"])
        # the clock hours (2d6): where an element enters, heading for the centre
        c.setFont("Helvetica-Bold", 7)
        for hour in range(2, 13):
            ex, ey, _ = R.entry_point(hour)
            px, py = self.p(ex, ey)
            dx = -10 if ex >= TABLE_LENGTH else 10 if ex <= 0 else 0
            dy = -10 if ey >= TABLE_WIDTH else 10 if ey <= 0 else 0
            c.setFillColor(VERMILLION)
            c.circle(px, py, 2, stroke=0, fill=1)
            c.setFillColor(INK)
            c.drawCentredString(px - dx * 1.3, py - dy * 1.3 - 2.5, str(hour))
        # measures along the edges
        c.setFont("Helvetica", 6.5)
        for inch in range(0, int(TABLE_LENGTH) + 1, 12):
            px, py = self.p(inch, 0)
            c.line(px, py, px, py - 3)
            c.drawCentredString(px, py - 24, f'{inch}"')
        for inch in range(0, int(TABLE_WIDTH) + 1, 12):
            px, py = self.p(0, inch)
            c.line(px, py, px - 3, py)
            c.drawRightString(px - 14, py - 2, f'{inch}"')
        c.setFont("Helvetica-Bold", 7)
        c.drawString(*self.p(0.5, TABLE_WIDTH / 2 + 2.5), "entry end")


class Gauges(Flowable):
    """1:1 gauges: the 4" attack and gun range and the 6" flak range, to cut out (print at actual size)."""

    width, height = 7.5 * POINTS, 1.3 * POINTS

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        c: Canvas = self.canv
        for row, (inches, words) in enumerate(((ATTACK_RANGE, "attack and gun range"), (FLAK_RANGE, "flak range"))):
            y = self.height - 18 - row * 40
            c.setStrokeColor(INK)
            c.rect(0, y - 10, inches * POINTS, 14, stroke=1, fill=0)
            for k in range(int(inches * 4) + 1):
                tick = 8 if k % 4 == 0 else 4
                c.line(k * POINTS / 4, y + 4, k * POINTS / 4, y + 4 - tick)
            c.setFont("Helvetica", 7)
            for k in range(int(inches) + 1):
                c.drawCentredString(k * POINTS, y - 8, str(k))
            c.setFont("Helvetica-Bold", 8)
            c.drawString(inches * POINTS + 8, y - 6, f'{inches:g}" {words} (1:1)')


def pages(ruleset: Ruleset, options: Mapping[str, Any], seed: int) -> list[Flowable]:
    """The layout page: the table to scale and the gauges."""
    view = placed_view(ruleset, options, seed)
    boxes = int(view["boxes"])
    return [
        Paragraph("Setting up the table", HEAD),
        Paragraph(
            f'A ping-pong table, 108" by 60". The target (11" wide, 8" deep) sits against the middle of the far '
            f'end; flak reaches 6" beyond its edge. The B-17s ({boxes} box{"es" if boxes > 1 else ""} of four) '
            'start in the blue zone, 6" to 18" from the entry end and 6" from the flanks, in a diamond: 4" from '
            "the leader's tail to the last bomber's nose, 4\" between the wingtips. Each gunner fires at a "
            'fighter within 4" of his gun position (the dashed rings).',
            TEXT,
        ),
        Spacer(1, 4),
        TableLayout(view),
        PageBreak(),
        Paragraph("Gauges", HEAD),
        Paragraph('Gauges to cut out (print this page at "actual size", not "fit to page"):', SMALL),
        Gauges(),
    ]
