"""Who is winning: analysis.winprob (playouts from a position, as one seat sees it) and its terminal faces."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from grognard import rulesets
from grognard.analysis.winprob import win_probability
from grognard.cli import main
from grognard.cli_analyse import seat_for_odds
from grognard.core.dice import SeededDice
from grognard.core.engine import Game
from grognard.core.play import play_out


def _bots(game: Game, name: str, seed: int):
    ruleset = rulesets.get(game.ruleset)
    rng = np.random.default_rng(seed)
    made = {side: ruleset.bots[name](rng) for side in game.sides}
    return lambda seat: made[game.side_of(seat)]


def test_a_finished_game_gives_its_result_exactly() -> None:
    game = rulesets.get("omaha").create({"germans": 1}, SeededDice(3))
    result = play_out(game, _bots(game, "doctrine", 3))
    odds = win_probability(game, "German 1", playouts=5, seed=0)
    assert result.winner is not None
    assert odds.wins[result.winner] == 5 and odds.p(result.winner) == 1.0
    low, high = odds.interval(result.winner)
    assert 0.5 < low < high == 1.0


def test_the_same_seed_gives_the_same_estimate_and_intervals_hold_the_share() -> None:
    game = rulesets.get("omaha").create({"germans": 1}, SeededDice(8))
    first = win_probability(game, None, playouts=12, seed=4)
    again = win_probability(game, None, playouts=12, seed=4)
    assert first == again
    assert sum(first.wins.values()) + first.other == 12
    for side in first.sides:
        low, high = first.interval(side)
        assert low <= first.p(side) <= high
    assert game.turn == first.turn and not game.is_over  # the real game is not played on


def _at_a_sealed_melee() -> tuple[Game, Game, str, str]:
    """Two proving-ground games equal but for the stay/retreat one seat sealed (stay in one, retreat in the
    other) while the other seat still owes its own: (stayed, retreated, the sealing seat, the other seat)."""
    ruleset = rulesets.get("skirmish")
    for seed in range(40):
        game = ruleset.create({"scenario": "proving_ground"}, SeededDice(seed))
        rng = np.random.default_rng(seed)
        while not game.is_over:
            decision = game.pending()[0]
            group = [d for d in game.pending() if d.secret_group and d.secret_group == decision.secret_group]
            others = {d.seat for d in group} - {decision.seat}
            if others:
                stayed, retreated = game.clone(), game.clone()
                for copy, choice in ((stayed, "stay"), (retreated, "retreat")):
                    copy.apply(decision.seat, next(a for a in decision.space.candidates() if a.choice == choice))
                return stayed, retreated, decision.seat, others.pop()
            menu = decision.space.candidates(32)
            game.apply(decision.seat, menu[int(rng.integers(len(menu)))], checked=False, decision=decision)
    raise AssertionError("no seed of 40 reached a melee both sides owe a secret choice in")


def test_a_sealed_melee_choice_never_leaks_into_another_seats_estimate() -> None:
    stayed, retreated, _sealer, other = _at_a_sealed_melee()
    assert stayed.digest() != retreated.digest()  # the games differ: in the sealed choice alone
    assert stayed.view(other) == retreated.view(other)
    for seat in (other, None):
        assert win_probability(stayed, seat, playouts=6, seed=2) == win_probability(retreated, seat, playouts=6, seed=2)


def test_hidden_obstacles_and_the_dice_to_come_never_leak() -> None:
    """Omaha's hidden obstacles are rolled when a squad first reaches the wall: a seeded game's dice already
    fix them. Two games in the same state whose dice would roll different futures give one estimate."""
    ruleset = rulesets.get("omaha")
    game = ruleset.create({"germans": 1, "hidden_obstacles": True, "fresh_squads": 2}, SeededDice(5))
    bots = _bots(game, "doctrine", 5)
    while game.turn < 3:
        decision = game.pending()[0]
        game.apply(decision.seat, bots(decision.seat).choose(game, decision))
    assert None in game.state.obstacles  # some sections still hidden
    one, two = game.clone(), game.clone()
    one.dice, two.dice = SeededDice(101), SeededDice(202)
    probe_one, probe_two = one.clone(), two.clone()
    play_out(probe_one, _bots(probe_one, "doctrine", 9))
    play_out(probe_two, _bots(probe_two, "doctrine", 9))
    assert probe_one.state.obstacles != probe_two.state.obstacles or probe_one.result != probe_two.result
    for seat in ("American 1", "German 1", None):
        assert win_probability(one, seat, playouts=8, seed=3) == win_probability(two, seat, playouts=8, seed=3)


def test_bad_arguments_are_refused() -> None:
    game = rulesets.get("omaha").create({"germans": 1}, SeededDice(1))
    with pytest.raises(ValueError, match="playouts 0"):
        win_probability(game, None, playouts=0)
    with pytest.raises(ValueError, match="bot 'nobody'"):
        win_probability(game, None, playouts=1, bot="nobody")
    with pytest.raises(Exception, match="American 9"):
        win_probability(game, "American 9", playouts=1)


# ---------------------------------------------------------------------- the terminal
@pytest.fixture(scope="module")
def saved_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("winprob") / "game.jsonl"
    assert (
        main(["play", "omaha", "--germans", "1", "--fresh-squads", "2", "--seed", "3", "-q", "--record", str(path)])
        == 0
    )
    return path


def test_analyse_prints_the_curve_and_its_turning_points_and_draws_it(
    saved_game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    png = tmp_path / "curve.png"
    assert main(["analyse", str(saved_game), "--playouts", "4", "--png", str(png)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["turn", "american", "german"]
    rows = [line.split() for line in lines[1:] if line.split() and line.split()[0].isdigit()]
    assert [int(row[0]) for row in rows] == list(range(len(rows)))  # the start of every turn, from the setup
    final = next(line for line in lines if line.startswith(" end")).split()
    assert sorted([final[1], final[4]]) == ["0%", "100%"]  # the end: the result itself
    assert "turning points (the chance that american wins):" in out
    assert "  turn " in out.split("turning points")[1]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["nowhere.jsonl"], "cannot read record 'nowhere.jsonl'"),
        (["NOTAREC"], "notes.txt: line 1: not JSON"),
        (["GAME", "--png", "/no/such/folder/curve.png"], "--png '/no/such/folder/curve.png': there is no folder"),
        (["GAME", "--png", "curve.svg"], "--png 'curve.svg': the picture's name must end in .png"),
        (["GAME", "--playouts", "0"], "--playouts 0"),
        (["GAME", "--seat", "German 7"], "--seat 'German 7'"),
    ],
)
def test_analyse_bad_input_is_one_line_exit_2(
    args: list[str], words: str, saved_game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    note = tmp_path / "notes.txt"
    note.write_text("dear diary\n")
    args = [str(saved_game) if a == "GAME" else str(note) if a == "NOTAREC" else a for a in args]
    capsys.readouterr()
    assert main(["analyse", *args]) == 2
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("error: ") and words in lines[0], lines[0]
    assert "turning points" not in captured.out


def test_analyse_takes_a_seat_as_play_and_render_do(saved_game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--seat takes the short label (G1) and any case, as --human and render's --seat do; a side of several seats
    is refused naming one seat."""
    capsys.readouterr()
    assert main(["analyse", str(saved_game), "--seat", "German 1", "--playouts", "2"]) == 0
    full = capsys.readouterr().out
    assert full.startswith("turn  american")
    for spelt in ("G1", "g1", "german 1"):
        assert main(["analyse", str(saved_game), "--seat", spelt, "--playouts", "2"]) == 0
        assert capsys.readouterr().out == full, spelt
    assert main(["analyse", str(saved_game), "--playouts", "2"]) == 0
    nobody = capsys.readouterr().out
    assert main(["analyse", str(saved_game), "--seat", "spectator", "--playouts", "2"]) == 0  # as replay takes it
    assert capsys.readouterr().out == nobody
    assert main(["analyse", str(saved_game), "--seat", "american", "--playouts", "2"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: --seat 'american': name one seat") and "\n" not in err, err


def test_analyse_reads_a_record_whose_last_line_was_cut_short(
    saved_game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = saved_game.read_text()
    torn = tmp_path / "torn.jsonl"
    torn.write_text(text[: len(text) - 40])  # a crash while the last line was written
    capsys.readouterr()
    assert main(["analyse", str(torn), "--playouts", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("turn  american") and " end " not in out  # the game's end was on the lost line


def test_analyse_bad_input_through_the_real_process(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "grognard", "analyse", str(tmp_path / "missing.jsonl")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "missing.jsonl" in done.stderr and "Traceback" not in done.stderr


def test_play_show_odds_prints_the_chances_each_turn(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["play", "omaha", "--germans", "1", "--seed", "3", "--show-odds", "--odds-playouts", "3"]
    assert main(args) == 0
    out = capsys.readouterr().out
    shown = [line for line in out.splitlines() if line.startswith("odds at the start of turn")]
    assert shown[0].startswith("odds at the start of turn 1: american ")
    assert "(3 playouts)" in shown[0] and "german" in shown[0]
    turns = [int(line.split()[6].rstrip(":")) for line in shown]
    assert turns == list(range(1, 1 + len(turns))) and len(turns) > 5
    assert main(["play", "omaha", "--germans", "1", "--seed", "3"]) == 0
    assert "odds at the start" not in capsys.readouterr().out  # only when asked


def test_play_show_odds_refuses_a_bad_playout_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "omaha", "--show-odds", "--odds-playouts", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--odds-playouts 0" in err


def test_the_terminal_odds_are_for_the_peoples_seat_or_a_spectator() -> None:
    """People of one side see their side's odds; hot seat across sides, or bots alone, a spectator's."""
    game = rulesets.get("omaha").create({"germans": 1}, SeededDice(1))
    assert seat_for_odds(game, set()) is None
    assert seat_for_odds(game, {"American 2", "American 1"}) == "American 1"
    assert seat_for_odds(game, {"American 1", "German 1"}) is None
