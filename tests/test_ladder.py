"""The ladder of bot levels (``grognard.bots.ladder``): one set of names, weakest first, in every face.

Each rule set offers the levels it has a bot for (``beginner`` only once it
has one), describes each in one line, takes each level wherever a bot is
named (play, simulate), refuses an unknown name in one line naming the
levels, and still takes the names bots had before (every saved game plays on).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from grognard.bots import ladder
from grognard.cli import main
from grognard.cli_bots import parse_bots
from grognard.core.errors import OptionError
from grognard.rulesets import get
from terminal_driver import lines_of

NAMES = ("omaha", "b17", "skirmish")


@pytest.mark.parametrize("name", NAMES)
def test_every_rule_set_names_its_levels_from_the_ladder_weakest_first(name: str) -> None:
    ruleset = get(name)
    offered = ladder.levels(ruleset)
    assert {"book", "normal", "hard"} <= set(offered)
    assert list(offered) == [level for level in ladder.LADDER if level in offered]
    assert list(ruleset.bots)[: len(offered)] == list(offered)  # the levels first, then the older names
    assert ruleset.default_bot == "book"
    assert ruleset.bots["book"] is ruleset.bots["doctrine"]  # the book is the doctrine bot, by either name
    assert {"doctrine", "random", "search", "search:easy", "search:normal", "search:hard"} <= set(ruleset.bots)


@pytest.mark.parametrize("name", NAMES)
def test_each_level_has_its_own_line_a_player_reads(name: str) -> None:
    ruleset = get(name)
    for level in ladder.levels(ruleset):
        words = ruleset.bot_notes.get(level, "")
        assert words and "\n" not in words and len(words) <= 110, (level, words)
        assert ladder.note(ruleset, level) == words
    assert set(ruleset.bot_notes) <= set(ladder.levels(ruleset)), "a note for a level the rule set does not offer"
    assert ladder.note(ruleset, "doctrine") == ladder.OLDER_NOTES["doctrine"]
    with pytest.raises(KeyError):
        ladder.note(ruleset, "expert")


@pytest.mark.parametrize("name", NAMES)
def test_each_level_makes_a_bot_that_answers_legally(name: str) -> None:
    """Every level's factory makes a player from a generator; the book answers the first decision legally."""
    from grognard.core.dice import SeededDice

    ruleset = get(name)
    game = ruleset.create({}, SeededDice(1))
    decision = game.pending()[0]
    for level in ladder.levels(ruleset):
        bot = ruleset.bots[level](np.random.default_rng(0))
        assert callable(bot.choose)
    assert decision.space.contains(ruleset.bots["book"](np.random.default_rng(0)).choose(game, decision))


def test_a_rule_sets_bots_keep_the_ladders_order_and_refuse_strays() -> None:
    assert list(ladder.ordered({"hard": 3, "beginner": 1, "book": 2}, {"random": 0})) == [
        "beginner",
        "book",
        "hard",
        "random",
    ]
    with pytest.raises(ValueError, match="levels expert: not on the ladder"):
        ladder.ordered({"expert": 1}, {})
    with pytest.raises(ValueError, match="bots book: named both"):
        ladder.ordered({"book": 1}, {"book": 2})


@pytest.mark.parametrize("name", NAMES)
def test_every_level_and_older_name_is_taken_by_bots(name: str) -> None:
    ruleset = get(name)
    first, second = ruleset.sides[:2]
    for level in (*ladder.levels(ruleset), *ladder.older(ruleset)):
        assert parse_bots(ruleset, [f"{second}={level}"]) == {first: "book", second: level}


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_an_unknown_level_is_one_line_naming_the_levels(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = [command, "b17", "--seed", "1", "--bots", "german=expert"]
    assert main(args + (["--games", "2"] if command == "simulate" else [])) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1, err
    assert err[0].startswith("error: --bots 'german=expert': no bot level 'expert' in b17; the levels, weakest first:")
    assert "book, normal, hard" in err[0] and "doctrine" in err[0]
    with pytest.raises(OptionError, match="the levels, weakest first: beginner, book, normal, hard"):
        parse_bots(get("omaha"), ["german=search:extreme"])


def test_simulate_plays_the_levels_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "omaha", "--games", "2", "--seed", "3", "-o", "germans=1", "-o", "period_turns=1"]
    assert main([*args, "--bots", "american=book,german=normal"]) == 0
    out = capsys.readouterr().out
    assert "american book, german normal" in out


def test_play_names_the_levels_in_its_help_and_banner(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "omaha", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Bot levels (--bots SIDE=LEVEL), weakest first:" in text
    for level in ("book", "normal", "hard"):
        assert f"{level}: {get('omaha').bot_notes[level]}" in text
    assert main(["play", "omaha", "--seed", "2", "--germans", "1", "--period-turns", "1"]) == 0
    assert "bots: american book, german book" in capsys.readouterr().out


def test_a_game_recorded_with_the_older_names_replays_and_resumes(tmp_path: Path) -> None:
    """A record whose header names ``doctrine`` and ``search:hard`` (as every game before the ladder did)
    replays, and resumed from its middle plays on to the same game line for line."""
    whole = tmp_path / "whole.jsonl"
    args = ["--germans", "1", "--period-turns", "2", "--seed", "5", "-q"]
    bots = ["--bots", "american=doctrine,german=search:hard"]
    assert main(["play", "omaha", *args, *bots, "--record", str(whole)]) == 0
    assert '"bots":{"american":"doctrine","german":"search:hard"}' in lines_of(whole)[0]
    assert main(["replay", str(whole)]) == 0
    want = lines_of(whole)
    part = tmp_path / "part.jsonl"
    part.write_text("".join(line + "\n" for line in want[: len(want) // 2]), encoding="utf-8")
    assert main(["play", "omaha", "--resume", str(part), "-q"]) == 0
    assert lines_of(part) == want


def test_the_book_by_its_new_name_keeps_omahas_fast_path() -> None:
    """simulate's default (book against book) runs on the Omaha batch path, as doctrine against doctrine did."""
    from grognard.analysis.montecarlo import Plan, batched, play_one

    omaha = get("omaha")
    options = omaha.resolve({"germans": 1})
    assert batched(Plan("omaha", options, {"american": "book", "german": "book"}, 1, 10))
    assert batched(Plan("omaha", options, {"american": "book", "german": "doctrine"}, 1, 10))
    assert play_one(omaha, options, {"american": "book", "german": "book"}, 4, 0) == play_one(
        omaha, options, {"american": "doctrine", "german": "doctrine"}, 4, 0
    )


def test_a_person_playing_is_told_what_the_bots_level_does() -> None:
    from terminal_driver import run_cli

    lines = run_cli("play", "b17", "--human", "american", "--bots", "german=hard", "--seed", "2").stdout.splitlines()
    at = lines.index("bots: german hard")
    assert lines[at + 1] == f"  hard: {get('b17').bot_notes['hard']}"
    assert lines[at + 2].startswith("people: American")
