"""A game its host ends has an end line (issue 28, item 12): the record's last line says who ended it, when,
on which turn and how the game stood; it is chained and checked like every line; ``grognard replay`` says
"ended by the host on turn N" (it said "not over"), ``--resume`` refuses to go on after it, and records
without one (the golden games, older records) replay as before.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from grognard import rulesets
from grognard.core.dice import SeededDice
from grognard.core.errors import RecordError
from grognard.core.record import RecordWriter, ended_words, make_header, replay
from terminal_driver import error_line, run_cli

OMAHA = rulesets.get("omaha")
GOLDEN = Path(__file__).parent / "golden"


def ended_record(steps: int = 25, seed: int = 4) -> tuple[Any, list[dict[str, Any]]]:
    """An Omaha game played by the doctrine bots for ``steps`` actions, then ended by its host."""
    options = OMAHA.resolve({"germans": 1})
    game = OMAHA.create(options, SeededDice(seed))
    writer = RecordWriter(make_header("omaha", options, "seeded", seed))
    writer.start(game, game.take_events())
    rng = np.random.default_rng(seed)
    bot = OMAHA.bots["doctrine"](rng)
    for _ in range(steps):
        decision = game.pending()[0]
        action = bot.choose(game, decision)
        writer.action(game, decision.seat, action, game.apply(decision.seat, action))
    assert not game.is_over and game.turn >= 1
    writer.ending(game, "host", OMAHA.rules.summary(game), at=1714646469.0)
    return game, writer.lines


def test_the_end_line_says_who_when_which_turn_and_how_it_stood() -> None:
    game, lines = ended_record()
    end = lines[-1]
    assert end["type"] == "end" and end["by"] == "host" and end["turn"] == game.turn
    assert end["at"] == "2024-05-02T10:41:09Z"
    assert end["standing"] and all(len(pair) == 2 for pair in end["standing"])
    rebuilt = replay(lines, rulesets.get)
    assert rebuilt.ended == end and rebuilt.complete and rebuilt.lines == len(lines)
    assert rebuilt.game.digest() == game.digest() and not rebuilt.game.is_over
    assert ended_words(end) == f"ended by the host on turn {game.turn} (2024-05-02 10:41 UTC)"


@pytest.mark.parametrize(
    "change",
    [
        lambda end: end.update(turn=end["turn"] + 1),  # the turn it says
        lambda end: end.update(at="2024-05-03T10:41:09Z"),  # when
        lambda end: end["standing"][0].__setitem__(1, "999"),  # how it stood
        lambda end: end.update(by="German 1"),  # who
    ],
)
def test_a_changed_end_line_is_named(change: Any) -> None:
    _, lines = ended_record()
    lines = json.loads(json.dumps(lines))
    change(lines[-1])
    with pytest.raises(RecordError) as info:
        replay(lines, rulesets.get)
    assert info.value.line == len(lines)


def test_nothing_may_follow_the_end_line() -> None:
    _, lines = ended_record()
    more = [*lines, dict(lines[-2])]  # an action line after it
    with pytest.raises(RecordError, match="after the game's end line") as info:
        replay(more, rulesets.get)
    assert info.value.line == len(more)


def test_records_without_an_end_line_replay_as_before() -> None:
    records = sorted(GOLDEN.glob("*.jsonl"))
    assert records
    for path in records:
        rebuilt = replay(path, rulesets.get)
        assert rebuilt.ended is None and rebuilt.complete, path


def test_replay_says_ended_by_the_host_and_resume_refuses_it(tmp_path: Path) -> None:
    game, lines = ended_record()
    path = tmp_path / "ended.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    done = run_cli("replay", str(path))
    assert done.returncode == 0, done.stderr
    assert f"the game was ended by the host on turn {game.turn} (2024-05-02 10:41 UTC)" in done.stdout
    assert "not over" not in done.stdout and "as it stood: " in done.stdout
    before = path.read_bytes()
    refused = run_cli("play", "omaha", "--resume", str(path), stdin="quit\n")
    assert refused.returncode == 2
    assert error_line(refused).startswith(f"error: --resume '{path}': the game was ended by the host on turn")
    assert path.read_bytes() == before
