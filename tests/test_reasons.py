"""Every bot decision says why (issue 31, item 2): the clause that chose it, the candidates it weighed, a line.

The clause of every reason is written in bold in docs/rules/<ruleset>.md; the reasons of the golden games
(every decision of the book and random bots of all three rule sets), of a short game of each rule set's
levels and of a few search decisions all name one. Reasons kept in a record change no digest; a secret
choice's reason is its side's alone until the reveal; the terminal prints them with ``--explain`` and
'why' at a prompt.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from grognard.core.dice import RecordedDice, SeededDice
from grognard.core.engine import Game
from grognard.core.reasons import Reason, reason_for, reason_json, shown_why, tally
from grognard.core.record import RecordWriter, dice_of, make_header, read_lines, readable_by, replay
from grognard.rulesets import get
from terminal_driver import error_line, run_cli
from test_golden import play_arguments

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"


@cache
def clauses(ruleset: str) -> frozenset[str]:
    """The clause ids written in bold in the rule set's document (``**omaha.doctrine.rush**``)."""
    text = (ROOT / "docs" / "rules" / f"{ruleset}.md").read_text(encoding="utf-8")
    return frozenset(re.findall(r"\*\*([a-z0-9][a-z0-9 .\-]*)\*\*", text))


def check(ruleset: str, reason: Reason | None, where: str) -> None:
    assert reason is not None, f"{where}: no reason"
    assert reason.clause in clauses(ruleset), f"{where}: clause {reason.clause!r} is not in docs/rules/{ruleset}.md"
    assert reason.line, f"{where}: no line"


def test_the_clause_ids_are_in_the_doctrine_sections() -> None:
    assert {"omaha.doctrine.concentrate", "omaha.doctrine.rush", "hard.shortest-way"} <= clauses("omaha")
    assert {"intercept", "gunners", "b17.doctrine.guns", "b17.search"} <= clauses("b17")
    assert {"skirmish.doctrine.fire", "aimed fire", "skirmish.doctrine.melee-choice"} <= clauses("skirmish")


@pytest.mark.parametrize("name", sorted(p.stem for p in GOLDEN.glob("*.jsonl")))
def test_every_bot_decision_of_a_golden_game_has_a_reason_whose_clause_is_in_the_docs(name: str) -> None:
    lines = read_lines(GOLDEN / f"{name}.jsonl")
    header = lines[0]
    ruleset = get(header["ruleset"])
    bots = {side: ruleset.bots[bot](np.random.default_rng(0)) for side, bot in header["bots"].items()}
    game = replay(lines[:2], get).game
    dice = RecordedDice()  # each action's dice from its line
    game.dice = dice
    told = weighed = 0
    for number, line in enumerate(lines[2:], 3):
        if line["type"] != "action":
            continue
        action = ruleset.parse_action(line["action"])
        decision = game.find_decision(line["seat"], action)
        bot = bots[game.side_of(line["seat"])]
        reason = reason_for(bot, game, decision, action)
        check(ruleset.name, reason, f"{name} line {number} ({line['action']})")
        assert reason is not None
        told += 1
        weighed += len(reason.weighed) >= 2 and sum(w.chosen for w in reason.weighed) <= 1
        dice.extend(dice_of(line["events"]))
        game.apply(line["seat"], action)
    assert game.digest() == replay(lines, get).game.digest()
    assert told > 10
    if "random" not in header["bots"].values():
        assert weighed > told / 5, f"{weighed} of {told} reasons weigh two candidates or more"


def _levels_game(ruleset_name: str, bots: dict[str, str], options: dict[str, Any], steps: int) -> set[str]:
    """Play ``steps`` decisions with ``bots``, checking each reason; the clauses named."""
    ruleset = get(ruleset_name)
    game = ruleset.create(options, SeededDice(5))
    players = {side: ruleset.bots[bot](np.random.default_rng(i)) for i, (side, bot) in enumerate(bots.items())}
    named: set[str] = set()
    for step in range(steps):
        if game.is_over:
            break
        decision = game.pending()[0]
        bot = players[game.side_of(decision.seat)]
        action = bot.choose(game, decision)
        before = game.digest()
        reason = reason_for(bot, game, decision, action)
        assert game.digest() == before, "a reason changed the game"
        check(ruleset_name, reason, f"{ruleset_name} step {step} ({action})")
        assert reason is not None
        named.add(reason.clause)
        game.apply(decision.seat, action)
    return named


def test_the_levels_reasons_name_their_own_clauses() -> None:
    omaha = _levels_game("omaha", {"american": "hard", "german": "beginner"}, {"germans": 1}, 400)
    assert {"hard.shortest-way", "beginner.spread-fire"} <= omaha
    b17 = _levels_game("b17", {"american": "beginner", "german": "hard"}, {}, 60)
    assert {"hard", "beginner"} <= b17
    skirmish = _levels_game("skirmish", {"allies": "hard", "axis": "beginner"}, {"scenario": "hill_assault"}, 40)
    assert "aimed fire" in skirmish
    conformance = _levels_game("skirmish", {"allies": "random", "axis": "book"}, {"scenario": "hill_assault"}, 20)
    assert "skirmish.random" in conformance  # the conformance suite's player


def test_the_search_gives_its_candidates_means_and_intervals() -> None:
    ruleset = get("omaha")
    game = ruleset.create({"germans": 1}, SeededDice(3))
    bot = ruleset.bots["search:easy"](np.random.default_rng(1))
    searched = 0
    for _ in range(40):
        decision = game.pending()[0]
        action = bot.choose(game, decision)
        reason = reason_for(bot, game, decision, action)
        check("omaha", reason, str(action))
        assert reason is not None
        if bot.last:
            searched += 1
            assert any(w.chosen for w in reason.weighed) and all("mean" in w.figures for w in reason.weighed)
            assert len(reason.weighed) >= 2
        game.apply(decision.seat, action)
        if searched >= 2:
            break
    assert searched >= 2


def test_explain_prints_each_bot_move_s_reason_and_the_record_keeps_them_without_changing_a_digest(
    tmp_path: Path,
) -> None:
    golden = GOLDEN / "omaha-g1-seed3-random-americans-period.jsonl"
    args = play_arguments(read_lines(golden)[0])
    record = tmp_path / "explained.jsonl"
    done = run_cli(*args, "--explain", "--record", str(record), "-q")
    assert done.returncode == 0, done.stderr
    assert "German 1: fire B1 " in done.stdout and "(omaha.doctrine.concentrate)" in done.stdout
    assert "(omaha.random)" in done.stdout
    ours, theirs = read_lines(record), read_lines(golden)
    assert [line["digest"] for line in ours] == [line["digest"] for line in theirs]
    assert all("reason" in line for line in ours if line["type"] == "action")
    told = run_cli("replay", str(record), "--explain")
    assert told.returncode == 0, told.stderr
    assert "why: omaha.doctrine.concentrate" in told.stdout and "every die and digest matches" in told.stdout
    plain = run_cli("replay", str(golden), "--explain")
    assert "no reasons in this record" in plain.stdout


def test_why_at_a_prompt_tells_the_last_bot_moves_reasons_with_their_candidates() -> None:
    done = run_cli("play", "omaha", "--germans", "1", "--seed", "4", "--human", "american", stdin="why\nquit\n")
    assert done.returncode == 0, done.stderr
    after = done.stdout.split("American 1> ", 1)[1]
    assert "no bot has moved yet" in after or "why: omaha.doctrine.bunkers" in after
    done = run_cli(
        "play", "omaha", "--germans", "1", "--seed", "4", "--human", "american", stdin="1\n1\n1\nwhy\nquit\n"
    )
    assert done.returncode == 0, done.stderr
    told = done.stdout.split("why\n", 1)[-1] if "why\n" in done.stdout else done.stdout
    assert "German 1: fire B" in told and "why: omaha.doctrine.concentrate" in told
    assert "weighed: A" in told and "<- chosen" in told


def _a_melee_game() -> tuple[Game, list[dict[str, Any]], int]:
    """A book game of the melee yard (tests/skirmish_melee_yard.toml; on seed 10 both sides miss in the first
    melee) played to its first melee choice's reveal, reasons kept: the game, the record's lines, and the index
    of the first line sealing a choice."""
    ruleset = get("skirmish")
    options = ruleset.resolve({"scenario": str(ROOT / "tests" / "skirmish_melee_yard.toml")})
    game = ruleset.create(options, SeededDice(10))
    writer = RecordWriter(make_header("skirmish", ruleset.recorded(options), "seeded", 10))
    writer.start(game, game.take_events())
    bot = ruleset.bots["book"](np.random.default_rng(0))
    sealed_at = None
    while not game.is_over:
        decision = game.pending()[0]
        action = bot.choose(game, decision)
        reason = reason_for(bot, game, decision, action)
        assert reason is not None
        kept = reason_json(game, decision, reason)
        events = game.apply(decision.seat, action)
        writer.action(game, decision.seat, action, events, kept)
        if decision.secret_group is not None and sealed_at is None:
            sealed_at = len(writer.lines) - 1
        if sealed_at is not None and any(e.kind == "revealed" for e in events):
            return game, writer.lines, sealed_at
    raise AssertionError("no melee choice in this game")


def test_a_secret_choice_s_reason_is_its_side_s_alone_until_the_reveal() -> None:
    game, lines, sealed_at = _a_melee_game()
    line = lines[sealed_at]
    reason = line["reason"]
    assert reason["clause"] == "skirmish.doctrine.melee-choice" and reason["to"] == [line["seat"]]
    other = next(s for s in game.seats() if game.side_of(s) != game.side_of(line["seat"]))
    before = lines[: sealed_at + 1]
    assert "reason" not in readable_by(before, other)[sealed_at]
    assert "reason" not in readable_by(before, None)[sealed_at]
    assert line["action"] not in json.dumps(readable_by(before, other)[sealed_at])  # 'melee X stay' nowhere
    assert readable_by(before, line["seat"])[sealed_at]["reason"] == reason
    assert readable_by(lines, other)[sealed_at]["reason"] == reason  # revealed: no secret any more
    # no page shows it (the feed, a tap, the replay viewer, the debrief's tally read shown_why)
    assert shown_why(line["seat"], line["action"], reason) is None
    assert not any("melee-choice" in said for said in tally(lines))
    # and the record replays, its digests untouched by the reasons
    assert replay(lines, get).complete


def test_a_game_nobody_reads_builds_no_reasons() -> None:
    """A Monte Carlo game or a playout (``Game.unobserved``) builds no reasons, as it builds no events."""
    ruleset = get("omaha")
    game = ruleset.create({"germans": 1}, SeededDice(2))
    bot = ruleset.bots["book"](np.random.default_rng(0))
    decision = game.pending()[0]
    action = bot.choose(game, decision)
    assert reason_for(bot, game, decision, action) is not None
    assert reason_for(bot, game.unobserved(), decision, action) is None


def test_why_at_a_referee_s_dice_prompt_tells_the_move_being_rolled() -> None:
    """With the table's dice typed, 'why' at a dice prompt tells the bots' last reasons: at the bunker's roll,
    the bunker's own (its fire at the squad furthest up the beach)."""
    typed = "why\n" + "3\n" * 8 + "why\nquit\n"  # the setup's and landings' single dice, then the bunker's 4
    done = run_cli("play", "omaha", "--germans", "1", "--dice", "manual", stdin=typed)
    assert done.returncode == 0, done.stderr
    first, _, rest = done.stdout.partition("no bot has moved yet")
    assert first and rest, done.stdout  # the first 'why', before any bot moved
    at_fire = rest.split("fires at A", 1)[1]
    assert "German 1: fire B" in at_fire and "why: omaha.doctrine.concentrate" in at_fire, at_fire


def test_why_with_words_after_it_is_refused_as_why_not_as_an_unknown_action() -> None:
    """'why nosuch' at a prompt said "unknown action 'why'; one of: move, fight, ..." (read as an order)."""
    done = run_cli(
        "play", "omaha", "--germans", "1", "--seed", "4", "--human", "american", stdin="why 3\nboard x\nquit\n"
    )
    assert done.returncode == 0, done.stderr
    assert "refused: 'why 3': 'why' takes nothing after it; type why" in done.stdout
    assert "refused: 'board x': 'board' takes nothing after it; type board" in done.stdout
    assert "unknown action" not in done.stdout


@pytest.fixture(scope="module")
def explained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A short Omaha game played with --explain: its record keeps the bots' reasons."""
    kept = tmp_path_factory.mktemp("explained") / "kept.jsonl"
    done = run_cli("play", "omaha", "--germans", "1", "--seed", "4", "-q", "--explain", "--record", str(kept))
    assert done.returncode == 0, done.stderr
    return kept


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (lambda reason: "plain words", "reason: str, not an object with clause, line and weighed"),
        (lambda reason: {**reason, "clause": 42}, "reason.clause: 42: not text"),
        (lambda reason: {k: v for k, v in reason.items() if k != "line"}, "reason.line: None: not text"),
        (lambda reason: {**reason, "weighed": "x"}, "reason.weighed: 'x': not a list"),
        (lambda reason: {**reason, "weighed": [{"nope": 1}]}, "reason.weighed[0]: {'nope': 1}: not a candidate"),
    ],
)
def test_a_reason_edited_by_hand_is_named_by_line_by_replay_explain(
    edit: Any, said: str, explained: Path, tmp_path: Path
) -> None:
    """Reasons are kept outside the digests: one edited by hand was shown blank or dropped without a word by
    replay --explain (a clause 42, a reason without its line); now one line names the line and the field, and
    nothing is printed or written (--seat/--out) before it."""
    lines = [json.loads(line) for line in explained.read_text(encoding="utf-8").splitlines()]
    number = next(n for n, line in enumerate(lines, 1) if "reason" in line)
    lines[number - 1]["reason"] = edit(lines[number - 1]["reason"])
    path = tmp_path / "edited.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    out = tmp_path / "view.jsonl"
    told = run_cli("replay", str(path), "--explain", "--seat", "German 1", "--out", str(out))
    assert told.returncode == 2 and told.stdout == "" and not out.exists()
    assert error_line(told).startswith(f"error: {path}: line {number}: {said}"), told.stderr
    assert run_cli("replay", str(path)).returncode == 0  # the moves and dice replay without the reasons
