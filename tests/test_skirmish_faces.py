"""Skirmish faces: the CLI's play/--list/render/odds for the rule set, from a fresh record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grognard.cli import main
from grognard.rulesets.skirmish import turn as TU


def test_play_list_names_the_shipped_scenarios(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "skirmish", "--list"]) == 0
    out = capsys.readouterr().out
    assert "hill_assault" in out and "Hill assault across barbed wire" in out


def test_play_a_scenario_by_name_to_a_result_then_render_and_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.jsonl"
    assert main(["play", "skirmish", "hill_assault", "--seed", "4", "--quiet", "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "Result:" in out and "allies men lost" in out
    header = json.loads(record.read_text(encoding="utf-8").splitlines()[0])
    assert header["options"]["scenario"] == "hill_assault"
    picture = tmp_path / "t2.svg"
    assert main(["render", "skirmish", str(record), "--turn", "2", "--focus", "A.3", "-o", str(picture)]) == 0
    svg = picture.read_text(encoding="utf-8")
    assert "<svg" in svg and "A.3" in svg and "MG wedge" in svg  # A.2 fell to the MG wedge in turn 1
    assert any(f"band {n}" in svg for n in (1, 2, 3)) or "out of range" in svg or "crest" in svg
    assert "the crest" in svg
    assert main(["render", "skirmish", str(record), "--focus", "Z.9", "-o", str(picture), "--force"]) == 2
    assert "no man Z.9" in capsys.readouterr().err
    assert main(["render", "skirmish", str(record), "--focus", "A", "-o", str(picture), "--force"]) == 2
    said = capsys.readouterr().err  # it said "no man A in this game", as if there were no A
    assert said.strip().startswith("error: --focus A: a unit; --focus names one of its men (A.1, A.2, "), said
    assert main(["replay", str(record)]) == 0


def test_a_bad_scenario_file_is_one_error_line_listing_its_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\ntitle = "y"\n[table]\nwidth = -4\ndepth = 10\n', encoding="utf-8")
    assert main(["play", "skirmish", str(bad), "--seed", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "table.width: -4: Input should be greater than 0" in err
    assert "units: (missing)" in err


def test_odds_lists_every_weapon_band_and_cover(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "skirmish", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    names = [t["name"] for t in data["tables"]]
    assert {
        "initiative",
        "survival",
        "shot_rifle",
        "shot_smg",
        "shot_pistol",
        "wedge_mg",
        "wedge_flame_thrower",
    } <= set(names)
    rifle = next(t for t in data["tables"] if t["name"] == "shot_rifle")
    first = rifle["rows"][0]
    assert first["parameter"] == '0-12" open'
    dead = next(o for o in first["outcomes"] if o["outcome"] == "dead")
    assert dead["probability"] == "1/3"  # 4+ hits (1/2), 1-4 dies (2/3)


def test_a_record_keeps_its_scenario_file_so_a_changed_file_changes_nothing_and_a_changed_copy_is_caught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from grognard.rulesets.skirmish.scenario import SCENARIOS_DIR

    mine = tmp_path / "mine.toml"
    text = (SCENARIOS_DIR / "hill_assault.toml").read_text(encoding="utf-8")
    mine.write_text(text, encoding="utf-8")
    record = tmp_path / "game.jsonl"
    assert (
        main(["play", "skirmish", str(mine), "--seed", "2", "--quiet", "--turn-limit", "2", "--record", str(record)])
        == 0
    )
    assert main(["replay", str(record)]) == 0
    mine.write_text(text.replace("turn_limit = 12", "turn_limit = 11"), encoding="utf-8")
    assert main(["replay", str(record)]) == 0  # played from the record's own copy (issue 21)
    lines = record.read_text(encoding="utf-8").splitlines()
    lines[0] = lines[0].replace("turn_limit = 12", "turn_limit = 11")  # the copy in the header changed
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(record)]) == 2
    assert "line 1: header digest does not match" in capsys.readouterr().err


def test_preview_draws_an_order_not_given_and_refuses_an_illegal_one() -> None:
    from grognard.core.dice import SeededDice
    from grognard.core.errors import IllegalAction
    from grognard.rulesets.skirmish import RULESET
    from grognard.rulesets.skirmish import render_svg as render
    from grognard.rulesets.skirmish.actions import Move

    game = RULESET.create({"scenario": "hill_assault"}, SeededDice(5))
    while game.state.phase != "move:allies":  # the axis move first with this seed: they hold
        d = game.pending()[0]
        game.apply(d.seat, Move(d.id.split()[1]))
    before = game.digest()
    assert RULESET.adviser is not None
    view = RULESET.adviser.preview(game, "Allies", Move("A", ((8.0, 5.0),)))
    assert game.digest() == before  # nothing given
    paths = view["preview"]["paths"]
    assert len(paths) == 8 and paths[0]["figure"] == "A.1" and paths[0]["path"][-1] == [8.0, 5.0]
    assert paths[0]["cost"] == 6.0
    assert "preview (not given): move A 8,5" in render(view)
    with pytest.raises(IllegalAction):
        RULESET.adviser.preview(game, "Allies", Move("A", ((8.0, 9.0),)))


@pytest.mark.parametrize(("lost", "broken"), [(13, False), (14, True)])
def test_hill_assault_breaks_the_attack_at_two_thirds_of_the_americans_down_as_it_says(lost: int, broken: bool) -> None:
    from grognard.core.dice import SeededDice
    from grognard.rulesets.skirmish import RULESET

    game = RULESET.create({"scenario": "hill_assault"}, SeededDice(5))
    assert "two thirds of the Americans down: 14 of the 20" in " ".join(game.ctx.scenario.spec.description.split())
    allies = [f for f in game.state.figures.values() if f.side == "allies"]
    assert len(allies) == 20  # 13 down is 65%, short of the scenario's 0.66; 14 down is 70%
    for f in allies[:lost]:
        f.alive = False
    TU.end_turn(game.ctx)
    assert (game.result is not None and game.result.winner == "axis") is broken


def test_the_board_at_the_terminal_lists_the_terrain_doors_and_objectives() -> None:
    from grognard.core.dice import SeededDice
    from grognard.rulesets.skirmish import RULESET
    from grognard.rulesets.skirmish.view_words import board

    game = RULESET.create({"scenario": "proving_ground"}, SeededDice(5))
    text = board(game.view(None))
    for line in (
        '  hill H1, 2" high: x 26-36, y 31.5-36',
        '  river R1, 4" wide: (0, 14) to (36, 14)',
        "  stone wall W1: (4, 30) to (12, 30)",
        '  boulder B1: at (18, 19), radius 0.8"',
        "  door D1: closed",
        "objective farm (the farmhouse): x 19-29, y 23-31",
    ):
        assert line in text.splitlines(), (line, text)


def test_a_person_plays_the_village_street_at_the_terminal_and_never_sees_the_bots_sealed_choice(
    tmp_path: Path,
) -> None:
    from terminal_driver import run_cli

    record = tmp_path / "street.jsonl"
    args = ("play", "skirmish", "village_street", "--human", "allies", "--seed", "35", "--record", str(record))
    done = run_cli(*args, stdin="2\n" * 600)  # the second choice of every menu: advance, fire, retreat
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Result: allies win on turn 6" in out  # seed 35 since the book draws its waypoints (98eb6fb)
    asked = out.index("melee group M2 (B.2): stay or retreat, in secret")
    shown = out.index("melee choices shown: M1 stay, M2 retreat")
    assert asked < shown and "M1 stay" not in out[:asked]  # the bot (Axis, M1) chose first, in secret
    lines = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]
    sealed = next(i for i, line in enumerate(lines) if line.get("action") == "melee M1 stay")
    part = tmp_path / "part.jsonl"  # the record as it stood when the person was asked
    part.write_text("".join(json.dumps(line) + "\n" for line in lines[: sealed + 1]), encoding="utf-8")
    for seat, action in (("allies", "sealed"), ("axis", "melee M1 stay"), ("spectator", "sealed")):
        readable = tmp_path / f"{seat}.jsonl"
        done = run_cli("replay", str(part), "--seat", seat, "--out", str(readable))
        assert done.returncode == 0, done.stderr
        last = json.loads(readable.read_text(encoding="utf-8").splitlines()[-1])
        assert last["action"] == action
        assert ("stay" in json.dumps(last)) is (seat == "axis")
    done = run_cli("replay", str(record), "--seat", "Allies", "--out", str(tmp_path / "all.jsonl"))
    assert done.returncode == 0 and "melee M1 stay" in (tmp_path / "all.jsonl").read_text(encoding="utf-8")
    done = run_cli("replay", str(record), "--seat", "Nobody", "--out", str(tmp_path / "x.jsonl"))
    assert done.returncode == 2 and "--seat 'Nobody': no such side or seat" in done.stderr
