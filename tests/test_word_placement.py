"""Words on the table are placed once, in Python, when a face builds its scene (issue 30 item 1,
``grognard.core.placement``): no two words and no word and mark (a unit's shape) overlap in any scene of the
golden records (replayed, every seat's view every few steps) nor of a game played by each rule set's book bots
(skirmish: every shipped scenario's opening and its first steps). Boxes are measured with the one width
estimate the placement uses (``placement.text_width``); a failure names the scene, the two words and where."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from grognard import rulesets
from grognard.core.dice import SeededDice
from grognard.core.engine import Game
from grognard.core.placement import Drawn, overlaps, place, scene_marks, scene_words, unit
from grognard.core.record import replay

GOLDEN = sorted((Path(__file__).resolve().parent / "golden").glob("*.jsonl"))
EVERY = 6  # actions between two looks at a golden game
SCENARIOS = sorted(p.stem for p in (Path(rulesets.__file__).parent / "skirmish" / "scenarios").glob("*.toml"))


def _where(item: Drawn) -> str:
    b = item.box
    return f"{item.what!r} ({item.layer} #{item.index}, x {b[0]:.2f}..{b[2]:.2f}, y {b[1]:.2f}..{b[3]:.2f})"


def _problems(scene: dict[str, Any], name: str) -> list[str]:
    """What is wrong with a scene's words: overlaps, a word off the scene's box, a word not placed."""
    words, marks = scene_words(scene), scene_marks(scene)
    out = [f"{name}: {_where(a)} overlaps {_where(b)}" for a, b in overlaps(words, marks)]
    x0, y0 = scene["x0"], scene["y0"]
    for w in words:
        if not (x0 - 1e-3 <= w.box[0] and w.box[2] <= x0 + scene["width"] + 1e-3):
            out.append(f"{name}: {_where(w)} runs off the scene ({x0}..{x0 + scene['width']})")
        if not (y0 - 1e-3 <= w.box[1] and w.box[3] <= y0 + scene["height"] + 1e-3):
            out.append(f"{name}: {_where(w)} runs off the scene ({y0}..{y0 + scene['height']})")
    for lay in scene["layers"]:
        for s in lay["shapes"]:
            if s["kind"] != "text" and ("label" in s or "text" in s):
                out.append(f"{name}: {s.get('id', s['kind'])} keeps a word the placement did not place")
            if s.get("crowded"):
                out.append(f"{name}: {s['text']!r} found no free place")
    return out


def _golden_scenes(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    header = json.loads(path.open(encoding="utf-8").readline())
    face = rulesets.get(header["ruleset"]).face
    assert face is not None
    seen: list[tuple[str, dict[str, Any]]] = []
    count = 0

    def look(game: Game) -> bool:
        nonlocal count
        if count % EVERY == 0:
            for seat in [None, *game.seats()]:
                view = json.loads(json.dumps(game.view(seat)))
                seen.append((f"action {count}, {seat or 'spectators'}", face.scene(view, {seat} if seat else ())))
        count += 1
        return False

    done = replay(path, rulesets.get, until=look)
    yield from seen
    for seat in [None, *done.game.seats()]:
        yield f"the end, {seat or 'spectators'}", face.scene(done.game.view(seat), {seat} if seat else ())


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_no_word_lies_on_another_or_on_a_mark_in_a_golden_game(path: Path) -> None:
    problems = []
    scenes = 0
    for name, scene in _golden_scenes(path):
        scenes += 1
        problems += _problems(scene, f"{path.stem}, {name}")
    assert scenes > 3
    assert not problems, f"{len(problems)} problems, the first:\n" + "\n".join(problems[:12])


def _book_game(name: str, options: dict[str, Any], steps: int, seed: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """A game of ``name`` played by its book bots (its default level): the scenes of its first ``steps`` actions."""
    ruleset = rulesets.get(name)
    assert ruleset.face is not None
    game = ruleset.create(options, SeededDice(seed))
    for step in range(steps + 1):
        for seat in [None, *game.seats()]:
            view = json.loads(json.dumps(game.view(seat)))
            yield f"step {step}, {seat or 'spectators'}", ruleset.face.scene(view, {seat} if seat else ())
        pending = game.pending()
        if not pending or game.result is not None:
            return
        bot = ruleset.bots[ruleset.default_bot](np.random.default_rng(seed + step))
        game.apply(pending[0].seat, bot.choose(game, pending[0]))


@pytest.mark.parametrize(
    "name, options, steps",
    [("omaha", {}, 14), ("b17", {}, 14), *(("skirmish", {"scenario": s}, 3) for s in SCENARIOS)],
    ids=["omaha", "b17", *SCENARIOS],
)
def test_no_word_lies_on_another_or_on_a_mark_in_a_book_game(name: str, options: dict[str, Any], steps: int) -> None:
    problems = []
    for where, scene in _book_game(name, options, steps, seed=30):
        problems += _problems(scene, f"{name} {options or ''} {where}")
    assert not problems, f"{len(problems)} problems, the first:\n" + "\n".join(problems[:12])


def test_words_crowded_on_one_spot_are_moved_apart_along_leaders_and_none_is_lost() -> None:
    """Twelve squads on one spot, each with a name and a count, and two wrecks' words on a third: every word
    is drawn, none on another nor on a squad, the names further off carry a leader back to their squad."""
    squads = [
        {"kind": "figure", "x": 20.0 + 0.1 * k, "y": 10.0, "r": 0.9, "id": f"A{k}", "text": "12", "label": f"A{k}"}
        for k in range(12)
    ]
    wrecks = [{"kind": "text", "x": 20.0, "y": 10.5, "text": f"x F{k} destroyed", "cls": "gone"} for k in (1, 2)]
    scene = {"x0": 0, "y0": 0, "width": 48.0, "height": 24.0, "layers": [{"name": "units", "shapes": squads + wrecks}]}
    placed = place(scene)
    words = scene_words(placed)
    assert sorted(w.what for w in words) == sorted(
        ["12"] * 12 + [f"A{k}" for k in range(12)] + ["x F1 destroyed", "x F2 destroyed"]
    )
    assert overlaps(words, scene_marks(placed)) == []
    leaders = [s for s in placed["layers"][0]["shapes"] if s.get("leader")]
    assert leaders and all(s["kind"] == "text" for s in leaders)
    assert scene["layers"][0]["shapes"][0]["label"] == "A0"  # the scene given is left as it was


def test_a_word_at_the_edge_is_moved_in_and_a_word_too_long_for_the_room_is_shortened_not_dropped() -> None:
    scene = {
        "x0": 0,
        "y0": 0,
        "width": 2.0,
        "height": 40.0,
        "layers": [
            {
                "name": "terrain",
                "shapes": [
                    {"kind": "text", "x": 2.0, "y": 5.0, "text": "river", "anchor": "start"},
                    {"kind": "text", "x": 1.0, "y": 20.0, "text": "a name far too long for a table this small"},
                ],
            }
        ],
    }
    placed = place(scene)
    river, long = placed["layers"][0]["shapes"]
    u = unit(scene)
    assert scene_words(placed)[0].box[2] <= 2.0 and river["text"] == "river"
    assert long["text"].endswith("…") and long["title"] == "a name far too long for a table this small"
    assert overlaps(scene_words(placed), []) == [] and u > 0


def test_the_words_of_a_skirmish_focus_lie_on_no_other_word_nor_on_a_mark() -> None:
    """``grognard render skirmish --focus A.3``: the words along the man's lines of fire (focus.py) are placed
    with the scene's; drawn where focus.py put them, they stacked on each other along nearly parallel lines."""
    from grognard.render.paint import scene_with
    from grognard.rulesets.skirmish.focus import focus_layer

    ruleset = rulesets.get("skirmish")
    game = ruleset.new_game(ruleset.resolve({"scenario": "village_street"}), SeededDice(6))
    view = dict(game.view(None), focus="A.3")
    more = [layer for layer in [focus_layer(view)] if layer is not None]
    assert more and any(s["kind"] == "text" for s in more[0]["shapes"])
    scene = scene_with(ruleset.face, view, more)
    assert overlaps(scene_words(scene), scene_marks(scene)) == []
    unplaced = ruleset.face.scene(view, set())
    unplaced["layers"] = [*unplaced["layers"], *more]
    assert overlaps(scene_words(unplaced), scene_marks(unplaced))  # as they were drawn before
