"""The command line as a user meets it: real processes, real output, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from grognard.cli import main
from grognard.core.record import replay
from grognard.rulesets import get


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """A fresh ``python -m grognard``: for what is about the process (its exit code and stderr as the OS has
    them); the rest of this file calls ``main`` in the test's own process."""
    return subprocess.run([sys.executable, "-m", "grognard", *args], capture_output=True, text=True, timeout=300)


def test_standard_game_bot_against_bot_finishes_with_a_result(capsys: pytest.CaptureFixture[str]) -> None:
    """README's run command: the seed's own beach (6 German, 18 American players), bots, to the result."""
    assert main(["play", "omaha", "--seed", "11"]) == 0
    out = capsys.readouterr().out
    assert "germans=6" in out
    assert "Turn 1" in out and "landings: A1" in out and "A18" in out
    assert "Result:" in out
    assert "breakthrough (first exit open)" in out and "American figures lost" in out


def test_same_seed_same_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "omaha", "--seed", "5", "--germans", "2"]) == 0
    first = capsys.readouterr().out
    assert main(["play", "omaha", "--seed", "5", "--germans", "2"]) == 0
    assert capsys.readouterr().out == first
    assert main(["play", "omaha", "--seed", "6", "--germans", "2"]) == 0
    assert capsys.readouterr().out != first


def test_help_lists_the_rule_sets_options_with_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "omaha", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for spec in get("omaha").options:
        assert "--" + spec.name.replace("_", "-") in text, spec.name
    assert "--germans=6 (int 1..12)" in text and "--fresh-squads=unlimited" in text and "exits|bunkers_only" in text
    assert "--deep-water | --no-deep-water (off)" in text


@pytest.mark.parametrize("command", ["render", "odds", "simulate", "sweep"])
def test_every_commands_help_names_every_rule_set(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for name in ("omaha", "b17", "skirmish"):
        assert name in text, (command, name)


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--germans", "0"], "'germans'"),
        (["--germans", "many"], "'germans'"),
        (["--germans", "13"], "'germans'"),
        (["--option", "bogus=1"], "'bogus'"),
        (["--option", "germans"], "'germans'"),
        (["--victory", "everything"], "'victory'"),
        (["--water", "2"], "'water'"),
        (["--fresh-squads", "-1"], "'fresh_squads'"),
        (["--bots", "german=nobody"], "nobody"),
        (["--bots", "martian=random"], "martian"),
        (["--seed", "x"], "seed"),
        (["--frobnicate"], "frobnicate"),
    ],
)
def test_bad_input_is_one_line_exit_2(args: list[str], field: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "omaha", *args]) == 2
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("error: ") and field in lines[0]
    assert "Traceback" not in captured.err + captured.out
    assert "Turn 1" not in captured.out


def test_bots_take_a_list_and_refuse_a_side_given_twice() -> None:
    """``--bots american=random,german=random`` is two sides' bots (it was read as american's bot
    'random,german=random'); a side given twice, in one list or two --bots, is refused, not the last one kept."""
    from grognard import rulesets
    from grognard.cli_bots import parse_bots
    from grognard.core.errors import OptionError

    omaha = rulesets.get("omaha")
    assert parse_bots(omaha, ["american=random,german=search:easy"]) == {"american": "random", "german": "search:easy"}
    assert parse_bots(omaha, ["american=random", "german=random"]) == {"american": "random", "german": "random"}
    assert parse_bots(omaha, [" German = Random "]) == {"american": "book", "german": "random"}
    for items in (["american=random", "american=doctrine"], ["american=random,american=doctrine"]):
        with pytest.raises(OptionError, match=r"^--bots: the american bot is given twice \(american=random and "):
            parse_bots(omaha, items)
    with pytest.raises(OptionError, match=r"^--bots 'american=random,,german=random': an empty SIDE=BOT"):
        parse_bots(omaha, ["american=random,,german=random"])
    with pytest.raises(
        OptionError, match=r"^--bots 'german=nobody': no bot level 'nobody' in omaha; the levels, weakest first: "
    ):
        parse_bots(omaha, ["american=random,german=nobody"])


@pytest.mark.parametrize("args", [["replay"], ["render", "omaha"], ["analyse"]])
def test_a_missing_record_is_named_as_the_help_names_it(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """The record argument is GAME.jsonl in the usage line and in the error that it is missing, for replay,
    render and analyse alike (replay and render said 'record', lower case, beside RULESET)."""
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err == "error: Missing argument 'GAME.jsonl'.", err
    assert main([*args, "--help"]) == 0
    assert "GAME.jsonl" in capsys.readouterr().out


def test_bad_input_through_the_real_process() -> None:
    done = run("play", "omaha", "--germans", "0")
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "germans" in done.stderr and "Traceback" not in done.stderr
    unknown = run("play", "chess")
    assert unknown.returncode == 2 and "chess" in unknown.stderr


def test_record_is_written_as_it_goes_and_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.jsonl"
    assert main(["play", "omaha", "--seed", "3", "--germans", "1", "--record", str(path), "--quiet"]) == 0
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["seed"] == 3 and lines[0]["options"]["germans"] == 1
    assert lines[1]["type"] == "start" and all(line["type"] == "action" for line in lines[2:])
    rebuilt = replay(path, get)
    assert rebuilt.game.is_over
    assert rebuilt.actions == len(lines) - 2
    assert "Result:" in capsys.readouterr().out


def test_options_change_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "omaha", "--seed", "2", "--germans", "1", "--period-turns", "3", "-q"]) == 0
    out = capsys.readouterr().out
    assert "Result: scored on turn 3" in out
    assert (
        main(
            [
                "play",
                "omaha",
                "--seed",
                "2",
                "--germans",
                "1",
                "-o",
                "fresh_squads=0",
                "-q",
                "--bots",
                "american=random",
            ]
        )
        == 0
    )
    assert "Result: german win" in capsys.readouterr().out
