"""A player's after-action report as one PDF page (reportlab, the printable sheets' styles: ``sheets.card``).

Portrait US Letter: who he was and how the game ended, the game beside the rules' playtest, his unit's story
turn by turn, his three key decisions with the coach's view, and the odds he faced with what the dice did.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import KeepInFrame, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from grognard.analysis.coach import COACH_LEVEL, Weighed
from grognard.reports.story import EVENTS_A_TURN, STORY_TURNS, Facts
from grognard.sheets.card import HEAD, SMALL, TEXT, TITLE

MARGIN = 36.0
ODDS_ROWS = 9  # orders with dice shown in the odds table (the rest counted)
CELL = ParagraphStyle("report-cell", parent=SMALL, fontSize=8, leading=9.5)


def _esc(text: Any) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _grid(rows: list[list[str]], widths: list[float]) -> Table:
    cells = [[Paragraph(_esc(cell), CELL) for cell in row] for row in rows]
    table = Table(cells, colWidths=widths, repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dde4ee")),
                ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#888888")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
            ]
        )
    )
    return table


def _why(w: Weighed) -> str:
    """The hard bot's choice, and its reason when it differs from the bare order."""
    reason = w.why.partition(": ")[2] if w.why.startswith(w.suggested) else w.why
    return f"{w.suggested} ({reason})" if reason else w.suggested


def story_lines(facts: Facts) -> list[str]:
    """The unit's story: a line of counts, then a line a turn (the first and last turns when there are many)."""
    verbs = ", ".join(f"{n} {verb}" for verb, n in facts.verbs().most_common())
    out = [f"Your orders: {verbs or 'none'}. Losses you inflicted: {facts.inflicted}; losses you took: {facts.taken}."]
    turns = sorted(facts.turns)
    shown = turns
    if len(turns) > STORY_TURNS:  # the first and last turns, and between them those where more than moving happened
        busy = [t for t in turns[1:-1] if t not in facts.quiet][: STORY_TURNS - 2]
        quiet = [t for t in turns[1:-1] if t in facts.quiet][: STORY_TURNS - 2 - len(busy)]
        shown = sorted({turns[0], turns[-1], *busy, *quiet})
    for k, turn in enumerate(shown):
        skipped = [t for t in turns if k and shown[k - 1] < t < turn]
        if skipped:
            count = sum(len(facts.turns[t]) for t in skipped)
            span = f"Turn {skipped[0]}" if len(skipped) == 1 else f"Turns {skipped[0]}-{skipped[-1]}"
            what = " (moving)" if all(t in facts.quiet for t in skipped) else " (see the replay)"
            out.append(f"{span}: {count} more {'event' if count == 1 else 'events'}{what}.")
        texts = facts.turns[turn]
        more = f" (and {len(texts) - EVENTS_A_TURN} more)" if len(texts) > EVENTS_A_TURN else ""
        out.append(f"Turn {turn}: " + "; ".join(texts[:EVENTS_A_TURN]) + more + ".")
    return out


def page(
    title: str,
    name: str,
    facts: Facts,
    playtest: str,
    key: Sequence[Weighed] | None,
    coach_note: str,
) -> list[Flowable]:
    """The flowables of one player's page (fitted to one page: ``KeepInFrame`` shrinks a long story)."""
    width = letter[0] - 2 * MARGIN
    seats = ", ".join(facts.seats)
    units = ", ".join(sorted(facts.units)) or "none"
    story: list[Flowable] = [
        Paragraph(_esc(f"After-action report: {name}"), TITLE),
        Paragraph(_esc(f"{title}. You played {seats} ({facts.side} side; your units: {units})."), TEXT),
        Paragraph(_esc(f"How it ended: {facts.ended or 'the game was stopped before its end'}."), TEXT),
        Paragraph(_esc(playtest), TEXT),
        Paragraph("Your unit's story", HEAD),
    ]
    story += [Paragraph(_esc(line), SMALL) for line in story_lines(facts)]
    story.append(Paragraph(f"Your three key decisions (the coach: the {COACH_LEVEL} bot's choice beside yours)", HEAD))
    if key is None:
        story.append(Paragraph(_esc(coach_note), TEXT))
    elif not key:
        story.append(Paragraph("No decision of yours gained or cost anything the coach's playouts could tell.", TEXT))
        story.append(Paragraph(_esc(coach_note), SMALL))  # how the coach weighed them, as beside a key
    else:
        rows = [["turn", "you chose", f"the {COACH_LEVEL} bot", "the coach's view (chance to win, 95% interval)"]]
        rows += [[str(w.turn), w.made, _why(w), w.verdict()] for w in key]
        story.append(_grid(rows, [0.07 * width, 0.25 * width, 0.25 * width, 0.43 * width]))
        story.append(Paragraph(_esc(coach_note), SMALL))
    story.append(Paragraph("The odds you faced and what the dice did", HEAD))
    rolled = [order for order in facts.orders if order.dice]
    if not rolled:
        story.append(Paragraph("None of your orders rolled dice.", TEXT))
    else:
        rows = [["turn", "order", "the odds before", "dice", "what happened"]]
        for order in rolled[:ODDS_ROWS]:
            dice = " / ".join(" ".join(str(v) for v in roll) for roll in order.dice)
            rows.append([str(order.turn), order.text, order.odds or "-", dice, "; ".join(order.happened[:3])])
        story.append(_grid(rows, [0.06 * width, 0.2 * width, 0.26 * width, 0.14 * width, 0.34 * width]))
        if len(rolled) > ODDS_ROWS:
            story.append(Paragraph(f"and {len(rolled) - ODDS_ROWS} more orders with dice.", SMALL))
    story.append(Spacer(1, 4))
    return [KeepInFrame(width, letter[1] - 2 * MARGIN, story, mode="shrink")]


def pdf(flowables: list[Flowable], title: str) -> bytes:
    """One page of ``flowables`` as PDF bytes."""
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=letter,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=title,
        author="grognard",
    )
    doc.build(flowables)
    return buffer.getvalue()
