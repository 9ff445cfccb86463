"""Reading a picture of the one painter (``grognard.render.paint``) back: its words, its units and the look
its style sheet gives a shape (the page's rules of web/static/style.css, as a browser applies them); and
``played``, a book game to draw."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import cssselect2
import numpy as np
import tinycss2

from grognard.core.dice import SeededDice
from grognard.rulesets import get

SVG = "{http://www.w3.org/2000/svg}"


def words(root: ET.Element) -> list[str]:
    """The picture's words, each once (not the white halo drawn under each)."""
    return [t.text or "" for t in root.iter(f"{SVG}text") if "halo" not in (t.get("class") or "").split()]


def ids(root: ET.Element) -> dict[str, str]:
    """``{id: class}`` of the picture's shapes that are units (``data-id``), in the scene's order."""
    return {g.get("data-id", ""): g.get("class", "") for g in root.iter(f"{SVG}g") if g.get("data-id")}


def unit(root: ET.Element, name: str) -> ET.Element:
    """The group that draws unit ``name``."""
    found = [g for g in root.iter(f"{SVG}g") if g.get("data-id") == name]
    assert len(found) == 1, f"{name}: {len(found)} shapes"
    return found[0]


def words_of(root: ET.Element, name: str) -> ET.Element:
    """The group that draws unit ``name``'s own words, inside it or beside it as its name (``data-of``: placed as
    a word of its own)."""
    found = [
        g
        for g in root.iter(f"{SVG}g")
        if g.get("data-of") == name
        and (g.find(f"{SVG}text[@class='inside']") is not None or g.find(f"{SVG}text[@class='name']") is not None)
    ]
    assert len(found) == 1, f"{name}: {len(found)} inner words"
    return found[0]


def look(root: ET.Element, element: ET.Element) -> dict[str, str]:
    """The declarations the picture's style sheet gives ``element``, later and more specific rules winning,
    over its own attributes (``fill``...), as a browser applies them."""
    style = root.find(f"{SVG}style")
    assert style is not None and style.text
    matcher = cssselect2.Matcher()
    for rule in tinycss2.parse_stylesheet(style.text, skip_whitespace=True, skip_comments=True):
        if rule.type != "qualified-rule":
            continue
        body = tinycss2.parse_declaration_list(rule.content, skip_whitespace=True, skip_comments=True)
        declared = {d.lower_name: tinycss2.serialize(d.value).strip() for d in body if d.type == "declaration"}
        for selector in cssselect2.compile_selector_list(rule.prelude):
            matcher.add_selector(selector, declared)
    out = {k: v for k, v in element.attrib.items() if k in ("fill", "stroke")}
    for wrapper in cssselect2.ElementWrapper.from_xml_root(root).iter_subtree():
        if wrapper.etree_element is element:
            for _specificity, _order, _pseudo, declared in sorted(matcher.match(wrapper)):
                out.update(declared)
            return out
    raise AssertionError("the element is not in the picture")


def played(ruleset: str, options: dict[str, Any], seed: int, steps: int) -> Any:
    """A game of ``ruleset`` with ``options`` after ``steps`` decisions of its book bots, on ``seed``'s dice."""
    rules = get(ruleset)
    game = rules.create(options, SeededDice(seed))
    bot = rules.bots["doctrine"](np.random.default_rng(seed))
    for _ in range(steps):
        if game.is_over:
            break
        decision = game.pending()[0]
        game.apply(decision.seat, bot.choose(game, decision))
    return game
