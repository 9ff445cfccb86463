"""The coach (analysis/coach.py, cli_coach.py): a person's decisions beside the hard bot's, and what they cost.

The best choice is known on a scripted beach: a squad at the sea wall, the obstacles in front cleared and a
bunker in front, that shoots rather than crossing to the bunker (the seed: "Remember that the artillery can't
hit you if you clear the obstacles and move past the sea wall"; assaulting from contact is what destroys
bunkers). With each American allowed no fresh squad, the Americans' chance to win is neither 0 nor 1, and
crossing is worth some twenty points of it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from grognard import rulesets
from grognard.analysis.coach import Coaching, coach_lines, weigh
from grognard.cli import main
from grognard.core.dice import DICE, SeededDice, stream
from grognard.core.engine import Decision
from grognard.core.play import play_out
from grognard.core.record import RecordWriter, make_header
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.actions import Fight, Move
from grognard.rulesets.omaha.bots import DoctrineBot
from grognard.rulesets.omaha.game import OmahaGame
from test_omaha_rules import new_game, put

OMAHA = rulesets.get("omaha")


def _at_the_wall_with_the_way_clear() -> OmahaGame:
    """A3 at the wall in front of O3 (cleared: its die was 1) with bunker B3 in front, its orders owed."""
    game = new_game(obstacles=(2, 2, 1, 2), place=(1, 3), fresh_squads=0)
    put(game, "A3", 17, 24)
    squad = game.squad("A3")
    assert R.at_wall(squad.y) and game.bunker_in_front(squad) is not None
    return game


def test_a_squad_at_the_wall_that_shoots_instead_of_crossing_is_told_to_cross() -> None:
    game = _at_the_wall_with_the_way_clear()
    before = game.digest()
    shot = weigh(game, "American 3", "orders A3", Fight("A3", shoot=12), playouts=100, seed=1, line=9)
    assert game.digest() == before  # the real game is not played on
    suggested = OMAHA.parse_action(shot.suggested)
    assert isinstance(suggested, Move) and suggested.y > 24  # the hard bot crosses the wall, toward B3
    assert "shortest way" in shot.why  # and says why (its clause hard.shortest-way, core.reasons)
    diff, low, high = shot.difference()
    assert 0 < low < diff < high  # crossing is worth more, beyond the interval
    assert shot.beyond and shot.verdict().startswith("cost ")
    assert shot.p_suggested() > shot.p_made()
    again = weigh(game, "American 3", "orders A3", Fight("A3", shoot=12), playouts=100, seed=1, line=9)
    assert again == shot  # a fixed seed: the same coach every run


def test_a_choice_the_hard_bot_makes_too_costs_nothing_and_is_not_played_out() -> None:
    game = _at_the_wall_with_the_way_clear()
    shot = weigh(game, "American 3", "orders A3", Fight("A3", shoot=12), playouts=2, seed=1)
    crossed = weigh(game, "American 3", "orders A3", OMAHA.parse_action(shot.suggested), playouts=50, seed=1)
    assert crossed.agreed and crossed.playouts == 0 and crossed.difference() == (0.0, 0.0, 0.0)
    assert crossed.verdict() == "as the hard bot would"
    coaching = Coaching("omaha", 2, 1, (crossed, shot))
    assert coaching.key() == ([shot] if shot.difference()[0] or shot.turns() else [])


def _shooter(game: OmahaGame, decision: Decision) -> Any:
    """A person who, at the wall with a bunker in front, always shoots and never crosses; else the book."""
    label = decision.id.partition(" ")[2]
    if decision.id.startswith("orders "):
        squad = game.squad(label)
        bunker = game.bunker_in_front(squad)
        if R.at_wall(squad.y) and bunker is not None and bunker.active:
            return Fight(label, shoot=squad.figures)
    return DoctrineBot(np.random.default_rng(0)).choose(game, decision)


def _record_of_a_shooter(path: Path, seed: int = 5) -> list[dict[str, Any]]:
    options = OMAHA.resolve({"germans": 1, "fresh_squads": 1})
    game = OMAHA.create(options, SeededDice(stream(seed, DICE)))
    header = make_header("omaha", OMAHA.recorded(options), "seeded", seed, humans="American 3")
    writer = RecordWriter(header)
    writer.start(game, game.take_events())
    book = DoctrineBot(np.random.default_rng(seed))

    class Person:
        def choose(self, g: OmahaGame, d: Decision) -> Any:
            return _shooter(g, d)

    play_out(game, lambda seat: Person() if seat == "American 3" else book, record=writer)  # type: ignore[arg-type,return-value]
    import json

    path.write_text("".join(json.dumps(line) + "\n" for line in writer.lines))
    return writer.lines


def test_a_record_is_coached_for_its_people_only(tmp_path: Path) -> None:
    lines = _record_of_a_shooter(tmp_path / "game.jsonl")
    coaching = coach_lines(lines, lambda _line, seat: seat == "American 3", playouts=4, seed=2)
    people = [n for n, line in enumerate(lines, 1) if line.get("type") == "action" and line["seat"] == "American 3"]
    assert [w.line for w in coaching.weighed] == people
    shots = [w for w in coaching.weighed if w.made.startswith("fight A3 shoot")]
    assert shots and all(not w.agreed for w in shots)  # the hard bot never shoots from the wall with 12
    assert len(coaching.key(["American 3"])) <= 3


def test_analyse_coach_prints_a_table_and_the_key_decisions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.jsonl"
    _record_of_a_shooter(path)
    assert main(["analyse", str(path), "--coach", "--playouts", "4", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "American 3:" in out and "hard bot" in out and "American 3's key decisions" in out
    assert "German 1" not in out  # the record's people only
    assert main(["analyse", str(path), "--coach", "--seat", "G1", "--playouts", "2"]) == 0
    assert "German 1:" in capsys.readouterr().out


def test_analyse_coach_without_the_people_named_asks_for_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden = Path(__file__).parent / "golden" / "omaha-g1-seed1.jsonl"
    assert main(["analyse", str(golden), "--coach", "--playouts", "2"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --coach:") and "--seat" in err[0]
    assert main(["analyse", str(golden), "--coach", "--seat", "Z9", "--playouts", "2"]) == 2
    assert capsys.readouterr().err.startswith("error: --seat 'Z9'")


def test_analyse_coach_reads_a_skirmish_record(capsys: pytest.CaptureFixture[str]) -> None:
    """A skirmish's side coached (its seats read from a game made with seeded dice: ones for every roll
    looped the set-up for ever, and the command never answered)."""
    golden = Path(__file__).parent / "golden" / "skirmish-hill-assault-seed7.jsonl"
    assert main(["analyse", str(golden), "--coach", "--seat", "axis", "--playouts", "1"]) == 0
    out = capsys.readouterr().out
    assert "Axis: 41 decisions beside the hard bot's" in out and "Axis's key decisions" in out
