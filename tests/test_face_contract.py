"""The web face contract (issue 17, docs/FACE-CONTRACT.md): ``web/`` names no rule set, and each rule set's face
draws and offers a game from a seat's JSON view alone (never the game's state)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from grognard import rulesets
from grognard.core.dice import SeededDice
from grognard.core.face import CLASSES, MARKERS

WEB = Path(__file__).resolve().parents[1] / "src" / "grognard" / "web"
NAMES = re.compile(r"\b(omaha|b17|b-17|skirmish)\b|grognard\.rulesets\.", re.I)
NOUNS = re.compile(r"\b(bunkers?|squads?|bombers?|fighters?)\b", re.I)  # a rule set's words, in code


def test_the_web_package_names_no_rule_set() -> None:
    found = []
    for path in sorted(WEB.rglob("*")):
        if path.suffix not in (".py", ".js", ".css", ".html") or "vendor" in path.parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            # style.css styles the scene's class words (core.face.CLASSES), some of which are such nouns
            if NAMES.search(line) or (path.suffix != ".css" and NOUNS.search(line)):
                found.append(f"{path.relative_to(WEB)}:{number}: {line.strip()}")
    assert not found, "web/ names a rule set:\n" + "\n".join(found)


def _games(name: str, steps: int) -> Any:
    """A game of ``name`` played by its bots, yielded after every action."""
    ruleset = rulesets.get(name)
    game = ruleset.create({}, SeededDice(5))
    for step in range(steps):
        pending = game.pending()
        if not pending or game.result is not None:
            return
        yield ruleset, game
        decision = pending[0]
        bot = ruleset.bots[ruleset.default_bot](np.random.default_rng(step))
        game.apply(decision.seat, bot.choose(game, decision))


def _shapes(scene: dict[str, Any]) -> list[dict[str, Any]]:
    return [shape for layer in scene["layers"] for shape in layer["shapes"]]


@pytest.mark.parametrize("name", ["omaha", "b17"])
def test_a_face_works_from_the_json_view_alone(name: str) -> None:
    """Every part of the face from a view that went through JSON (what a page could be sent): the scene in
    inches within the table, each shape's class and marker from the fixed vocabulary, every control's
    template naming only its fields, the unit of a decision on the table."""
    seen_controls = 0
    for ruleset, game in _games(name, 80):
        face = ruleset.face
        assert face is not None
        for decision in game.pending():
            view = json.loads(json.dumps(game.view(decision.seat)))
            mine = {decision.seat}
            scene = face.scene(view, mine)
            x0, y0, w, h = scene["x0"], scene["y0"], scene["width"], scene["height"]
            for shape in _shapes(scene):
                assert shape["kind"] in ("polygon", "polyline", "circle", "rect", "text", "figure"), shape
                assert shape.get("cls") in CLASSES, shape
                assert shape.get("marker") in (None, *MARKERS), shape
                if "x" in shape:  # where it is (an outline may reach over the table's edge)
                    assert x0 - 1e-6 <= shape["x"] <= x0 + w + 1e-6 and y0 - 1e-6 <= shape["y"] <= y0 + h + 1e-6, shape
            rings = {s["id"] for s in _shapes(scene) if s.get("cls") == "ring"}
            assert rings == {m["id"] for m in face.marks(view, mine)}
            assert face.phase(view) and face.figures(view) and face.tables(view, mine)
            unit = face.unit(view, decision)
            if unit is not None:
                assert x0 <= unit["x"] <= x0 + w and y0 <= unit["y"] <= y0 + h and unit["r"] > 0
            for control in face.controls(view, decision):
                seen_controls += 1
                names = set(re.findall(r"\{(\w+)\}", control["template"]))
                assert names <= {f["name"] for f in control["fields"]} | {"target"}, control
                assert control["kind"] in ("pick-point", "drag-path", "pick-target", "template", "choice", "form")
    assert seen_controls > 0
