"""The B-17 table layout for a real ping-pong table: the 108" by 60" table to scale with the entry zone,
a diamond box placed in it, the target and its flak ring, the gun positions' 4" rings, the clock hours
where the fighters enter, and 1:1 gauges of 4" and 6" (seed II, V, VI.D.5, VII; RULINGS B10, B13).

The box is the one the program places at the start (the placement's first candidate, a legal box); the
table is the face's scene of the game's ``view`` (``rulesets/b17/face.py``) through the one painter, drawn in
vectors on the page (``sheets/picture.py``), the sheet's entry zone and clock hours over it.
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
from grognard.sheets.picture import scene_picture

POINTS = 72.0
SCALE = 12  # 1" of paper is 12" of table: the table is 9" by 5" on the page
INK = colors.HexColor("#222222")


def placed_view(ruleset: Ruleset, options: Mapping[str, Any], seed: int) -> dict[str, Any]:
    """The view once the box(es) are placed as the program places them (each placement's first candidate)."""
    game = ruleset.create(dict(options), SeededDice(stream(seed, DICE)))
    for decision in list(game.pending()):
        if decision.id.startswith("place"):
            game.apply(decision.seat, decision.space.candidates(1)[0])
    view: dict[str, Any] = game.view(None)
    return view


def _setup_layer() -> dict[str, Any]:
    """What the layout sheet adds to the table's scene: the entry zone (6" to 18" from the entry end, 6" from
    the flanks), the flak ring's words and the clock hours (2d6) where an element enters, heading for the
    centre."""
    x0, y0, x1, y1 = TARGET
    shapes: list[dict[str, Any]] = [
        {"kind": "rect", "x": ENTRY_NEAREST, "y": FLANK_MARGIN, "w": ENTRY_FARTHEST - ENTRY_NEAREST,
         "h": TABLE_WIDTH - 2 * FLANK_MARGIN, "cls": "box", "title": "the entry zone"},
        {"kind": "text", "x": (ENTRY_NEAREST + ENTRY_FARTHEST) / 2, "y": FLANK_MARGIN + 1, "text": "entry zone",
         "cls": "label", "size": 0.5},
        {"kind": "text", "x": x0 - FLAK_RANGE, "y": y1 + FLAK_RANGE + 1, "text": 'flak ring: 6" from the target',
         "cls": "label", "anchor": "end", "size": 0.5},
        {"kind": "text", "x": (x0 + x1) / 2, "y": (y0 + y1) / 2 - 1.5, "text": '11" x 8"', "cls": "label",
         "size": 0.5},
    ]  # fmt: skip
    for hour in range(2, 13):
        ex, ey, _ = R.entry_point(hour)
        dx = -2.0 if ex >= TABLE_LENGTH else 2.0 if ex <= 0 else 0.0
        dy = -2.0 if ey >= TABLE_WIDTH else 2.0 if ey <= 0 else 0.0
        shapes.append({"kind": "circle", "x": ex, "y": ey, "r": 0.4, "cls": "casualty", "title": f"{hour} o'clock"})
        shapes.append({"kind": "text", "x": ex + dx, "y": ey + dy - 0.4, "text": str(hour), "cls": "label"})
    return {"name": "setup", "shapes": shapes}


def table_layout(ruleset: Ruleset, view: dict[str, Any]) -> Flowable:
    """The table at 1 : ``SCALE`` with everything placed on it at the start: the face's scene through the one
    painter, the entry zone and the clock hours over it."""
    assert ruleset.face is not None
    scene = ruleset.face.scene(view, ())
    scene["layers"] = [*scene["layers"], _setup_layer()]
    return scene_picture(scene, ruleset.sides, SCALE)


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
        table_layout(ruleset, view),
        PageBreak(),
        Paragraph("Gauges", HEAD),
        Paragraph('Gauges to cut out (print this page at "actual size", not "fit to page"):', SMALL),
        Gauges(),
    ]
