"""The pictures' layout, read back from the SVG: no label box covers another, the legend is inside the picture."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from grognard.core.dice import SeededDice
from grognard.render.svg import overlaps, text_box
from grognard.rulesets import get
from picture_check import SVG, ids, words

TEXT = re.compile(r'<text ([^>]*class="label"[^>]*)>([^<]*)</text>')


def attr(attrs: str, name: str) -> str:
    found = re.search(rf'\b{name}="([^"]*)"', attrs)
    assert found is not None, (name, attrs)
    return found[1]


def label_boxes(svg: str) -> list[tuple[str, tuple[float, float, float, float]]]:
    boxes = []
    for m in TEXT.finditer(svg):
        attrs, text = m[1], m[2]
        x, y, size = float(attr(attrs, "x")), float(attr(attrs, "y")), float(attr(attrs, "font-size"))
        width = len(text) * size * 0.62
        anchor = re.search(r'text-anchor="(\w+)"', attrs)
        left = x - width if anchor and anchor[1] == "end" else x - width / 2 if anchor and anchor[1] == "middle" else x
        boxes.append((text, text_box(left, y, text, size)))
    return boxes


def played(ruleset: str, options: dict[str, object], seed: int, steps: int) -> object:
    rules = get(ruleset)
    game = rules.create(options, SeededDice(seed))
    bot = rules.bots["doctrine"](np.random.default_rng(seed))
    for _ in range(steps):
        if game.is_over:
            break
        decision = game.pending()[0]
        game.apply(decision.seat, bot.choose(game, decision))
    return game


@pytest.mark.parametrize("focus", [None, "B4"])
def test_b17_picture_shows_every_flying_aircraft_with_its_heading_and_the_focused_guns(focus: str | None) -> None:
    """The B-17 picture (its face's scene through the one painter): each aircraft on the table by its id, named,
    its heading a line; ``--focus B4`` rings B4's four guns alone, each named. (That no two words overlap is
    the word-placement test's, on every scene.)"""
    game = played("b17", {}, 2, 14)
    view = game.view(None) | ({"focus": focus} if focus else {})
    root = ET.fromstring(get("b17").render(view))
    flying = [a["label"] for a in view["aircraft"] if a["status"] == "flying"]
    assert flying and [i for i in ids(root) if i in flying] == flying
    assert len(root.findall(f".//{SVG}line[@class='heading']")) == len(flying)
    said = words(root)
    assert all(any(w.startswith(label) for w in said) for label in flying)
    swatches = {id(look) for g in root.iter(f"{SVG}g") if g.get("class") == "key-swatch" for look in g}  # the key's
    guns = [g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("t-gunring") and id(g) not in swatches]
    if focus:
        assert [g.get("class") for g in guns] == ["t-gunring s-focus"] * 4
        assert {"nose", "tail", "left waist", "right waist"} <= set(said)
    else:
        assert len(guns) == 4 * sum(1 for a in view["aircraft"] if a["kind"] == "bomber" and a["label"] in flying)


LEGEND = re.compile(r'<text ([^>]*class="legend"[^>]*)>([^<]*)</text>')


def test_skirmish_labels_never_overprint_and_the_legend_with_its_terrain_key_fits_the_picture() -> None:
    game = played("skirmish", {"scenario": "village_street"}, 4, 40)
    view = game.view(None)
    svg = get("skirmish").render(view)
    boxes = label_boxes(svg)
    men = [f for f in view["figures"] if f["on_table"] and f["alive"] and not f.get("aboard")]
    assert len(boxes) == len(men) > 10
    clashes = [(a, b) for i, (a, p) in enumerate(boxes) for b, q in boxes[i + 1 :] if overlaps(p, q)]
    assert not clashes
    width = float(re.search(r'<svg [^>]*width="([\d.]+)"', svg)[1])  # type: ignore[index]
    height = float(re.search(r'<svg [^>]*height="([\d.]+)"', svg)[1])  # type: ignore[index]
    legend = [
        (m[2], float(attr(m[1], "x")), float(attr(m[1], "y")), float(attr(m[1], "font-size")))
        for m in LEGEND.finditer(svg)
    ]
    assert legend
    for text, x, y, size in legend:
        box = text_box(x, y, text, size)
        assert 0 <= box[0] and box[2] <= width and box[3] <= height, (text, box, width, height)
    names = {text for text, *_ in legend}
    for kind in {p["kind"] for p in view["terrain"]["pieces"]} & {"river", "road", "woods", "building", "bushes"}:
        assert kind in names, kind  # each terrain colour on the table has its key


ANY_TEXT = re.compile(r"<text ([^>]*)>([^<]*)</text>")


@pytest.mark.parametrize(("scenario", "seed", "steps"), [("castle_storm", 2, 150), ("gun_line_armour", 2, 60)])
def test_skirmish_figure_labels_keep_off_the_words_of_buildings_pieces_and_vehicles(
    scenario: str, seed: int, steps: int
) -> None:
    """A man's label never covers a wall section's, a piece's or a vehicle's words (castle_storm put 'A.6' on
    'L1 (A.6)' and a man's label on the cannon's)."""
    svg = get("skirmish").render(played("skirmish", {"scenario": scenario}, seed, steps).view(None))
    labels = label_boxes(svg)
    words = []
    for m in ANY_TEXT.finditer(svg):
        attrs, text = m[1], m[2]
        if 'class="' in attrs or "font-size" not in attrs:
            continue  # the men's labels themselves, the legend
        x, y, size = float(attr(attrs, "x")), float(attr(attrs, "y")), float(attr(attrs, "font-size"))
        width = len(text) * size * 0.62
        anchor = re.search(r'text-anchor="(\w+)"', attrs)
        left = x - width if anchor and anchor[1] == "end" else x - width / 2 if anchor and anchor[1] == "middle" else x
        words.append((text, text_box(left, y, text, size)))
    assert len(labels) > 5 and len(words) > 5
    clashes = [(a, b) for a, p in labels for b, q in words if overlaps(p, q)]
    assert not clashes


@pytest.mark.parametrize(("scenario", "seed", "steps"), [("castle_storm", 2, 150), ("gun_line_armour", 2, 60)])
def test_skirmish_words_of_the_table_lie_off_the_men_and_off_each_other(scenario: str, seed: int, steps: int) -> None:
    """The tower's name lay under two men and a gun's under a wall's (castle_storm): each word of the table
    written from its left end moves beside its place when it would cover a man or a word before it."""
    view = played("skirmish", {"scenario": scenario}, seed, steps).view(None)
    svg = get("skirmish").render(view)
    words = []
    for m in ANY_TEXT.finditer(svg):
        attrs, text = m[1], m[2]
        if 'class="' in attrs or "text-anchor" in attrs or "font-size" not in attrs:
            continue  # the men's labels, the legend, the words centred on a mark (a vehicle's letters)
        x, y, size = float(attr(attrs, "x")), float(attr(attrs, "y")), float(attr(attrs, "font-size"))
        words.append((text, text_box(x, y, text, size)))
    men = re.findall(r'<circle cx="([\d.-]+)" cy="([\d.-]+)" r="([\d.]+)" fill="#[0-9A-Fa-f]+" stroke', svg)
    marks = [(float(x) - float(r), float(y) - float(r), float(x) + float(r), float(y) + float(r)) for x, y, r in men]
    assert len(words) > 2 and len(marks) > 5
    on_men = [(text, box) for text, box in words if any(overlaps(box, mark) for mark in marks)]
    on_words = [(a, b) for i, (a, p) in enumerate(words) for b, q in words[i + 1 :] if overlaps(p, q)]
    assert not on_men and not on_words
