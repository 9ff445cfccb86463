"""Resuming a saved game (``--resume``), through the real program.

A record cut after any action and resumed plays on to exactly the game that
was never interrupted: the same dice, the same bot choices, the same digests,
line for line. A finished game says so; a resume that would change the game
(options, another seed, another record) or reads a bad record is refused
with one ``error:`` line and exit code 2, and the file is left as it was.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from terminal_driver import error_line, lines_of, records_of, run_cli

GAMES = {
    "one German": ("--germans", "1", "--seed", "4"),
    "two Germans, options, random Americans": (
        "--germans",
        "2",
        "--seed",
        "8",
        "--deep-water",
        "--hidden-obstacles",
        "--fresh-squads",
        "2",
        "--bots",
        "american=random",
    ),
}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each game of GAMES played through uninterrupted, recorded."""
    out = {}
    for index, (name, args) in enumerate(GAMES.items()):
        path = tmp_path_factory.mktemp("resume") / f"whole{index}.jsonl"
        done = run_cli("play", "omaha", *args, "--record", str(path), "-q")
        assert done.returncode == 0, done.stderr
        assert "Result:" in done.stdout
        out[name] = path
    return out


def cut(whole: Path, actions: int, to: Path) -> Path:
    """The record as it stood after ``actions`` action lines (header and start line first)."""
    to.write_text("".join(line + "\n" for line in lines_of(whole)[: actions + 2]), encoding="utf-8")
    return to


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("where", ["start", "1", "7", "middle", "last"])
def test_a_cut_record_resumed_plays_the_same_game_line_for_line(
    played: dict[str, Path], tmp_path: Path, game: str, where: str
) -> None:
    whole = played[game]
    n = len(lines_of(whole)) - 2
    k = {"start": 0, "middle": n // 2, "last": n - 1}[where] if not where.isdigit() else int(where)
    part = cut(whole, k, tmp_path / "cut.jsonl")
    done = run_cli("play", "omaha", "--resume", str(part), "-q")
    assert done.returncode == 0, done.stderr
    assert "resumed" not in done.stdout  # -q prints only the final summary
    assert "Result:" in done.stdout
    got, want = lines_of(part), lines_of(whole)
    assert len(got) == len(want)
    for number, (a, b) in enumerate(zip(got, want, strict=True), 1):
        assert a == b, f"line {number} differs after resuming at action {k}:\n{a[:400]}\n{b[:400]}"


def test_resuming_twice_in_a_row_is_still_the_same_game(played: dict[str, Path], tmp_path: Path) -> None:
    """Resumed with a person on the German seat who quits at once, then resumed with the bots: nothing changed."""
    whole = played["one German"]
    part = cut(whole, 1, tmp_path / "twice.jsonl")
    again = run_cli("play", "omaha", "--resume", str(part), "--human", "german", stdin="quit\n")
    assert again.returncode == 0 and "stopped at turn 1" in again.stdout
    assert "German 1> " in again.stdout
    assert 3 < len(lines_of(part)) < len(lines_of(whole)), "the bots played on up to the German's question"
    rest = run_cli("play", "omaha", "--resume", str(part), "-q")
    assert rest.returncode == 0, rest.stderr
    # the same lines; those the bots played while a person sat at the German's prompt keep the bots' reasons
    # too (read by 'why'; outside the digests: core.reasons)
    assert [without_reason(line) for line in records_of(part)] == records_of(whole)
    assert any("reason" in line for line in records_of(part)[:4])


def test_resuming_a_finished_game_says_so_and_changes_nothing(played: dict[str, Path]) -> None:
    whole = played["one German"]
    before = whole.read_bytes()
    done = run_cli("play", "omaha", "--resume", str(whole))
    assert done.returncode == 0, done.stderr
    assert f"the game in {whole} is already over" in done.stdout
    assert "Result:" in done.stdout
    assert whole.read_bytes() == before


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (["--germans", "2"], "error: --resume: the options come from the record, not the command line (germans)"),
        (["-o", "markers=off"], "error: --resume: the options come from the record, not the command line (markers)"),
        (["--deep-water"], "error: --resume: the options come from the record"),
        (["--seed", "99"], "error: --seed 99: the record was played with seed 4"),
        (["--dice", "manual"], "error: --dice manual: the record's game uses seeded dice"),
        (["--record", "other.jsonl"], "error: --resume writes on to its own file; leave out --record"),
        (["--human", "martians"], "error: --human 'martians': no such side or seat"),
    ],
)
def test_resume_that_would_change_the_game_is_refused(
    played: dict[str, Path], tmp_path: Path, extra: list[str], expected: str
) -> None:
    part = cut(played["one German"], 5, tmp_path / "cut.jsonl")
    before = part.read_bytes()
    done = run_cli("play", "omaha", "--resume", str(part), *extra, cwd=tmp_path)
    assert error_line(done).startswith(expected)
    assert part.read_bytes() == before, "a refused resume writes nothing"
    assert not (tmp_path / "other.jsonl").exists()


def test_resume_with_the_same_seed_given_again_is_allowed(played: dict[str, Path], tmp_path: Path) -> None:
    part = cut(played["one German"], 5, tmp_path / "cut.jsonl")
    done = run_cli("play", "omaha", "--resume", str(part), "--seed", "4", "-q")
    assert done.returncode == 0, done.stderr
    assert lines_of(part) == lines_of(played["one German"])


def _tamper_die(lines: list[str]) -> tuple[list[str], int]:
    for index, text in enumerate(lines[2:], 2):
        line = json.loads(text)
        for event in line["events"]:
            if event["kind"] == "dice":
                event["values"][0] = event["values"][0] % 6 + 1
                return [*lines[:index], json.dumps(line, separators=(",", ":")), *lines[index + 1 :]], index + 1
    raise AssertionError("no dice in the record")


def test_resume_of_a_missing_or_tampered_record_is_refused_naming_the_line(
    played: dict[str, Path], tmp_path: Path
) -> None:
    missing = tmp_path / "nowhere.jsonl"
    message = error_line(run_cli("play", "omaha", "--resume", str(missing)))
    assert "cannot read record" in message and str(missing) in message
    assert not missing.exists()

    lines = lines_of(cut(played["one German"], 9, tmp_path / "cut.jsonl"))
    tampered, number = _tamper_die(lines)
    bad = tmp_path / "tampered.jsonl"
    bad.write_text("\n".join(tampered) + "\n", encoding="utf-8")
    before = bad.read_bytes()
    message = error_line(run_cli("play", "omaha", "--resume", str(bad)))
    assert f"line {number}:" in message, message
    assert bad.read_bytes() == before, "nothing is written on to a record that does not replay"

    junk = tmp_path / "junk.jsonl"
    cut_short = '{"type":"action","seat":"German 1","act'  # not the last line: damage, not a crash mid-write
    junk.write_text("\n".join([*lines[:-1], cut_short, lines[-1]]) + "\n", encoding="utf-8")
    message = error_line(run_cli("play", "omaha", "--resume", str(junk), stdin="yes\n"))
    assert f"line {len(lines)}: not JSON" in message, message


def test_a_new_game_never_writes_over_a_saved_one(played: dict[str, Path], tmp_path: Path) -> None:
    saved = tmp_path / "saved.jsonl"
    saved.write_bytes(played["one German"].read_bytes())
    before = saved.read_bytes()
    done = run_cli("play", "omaha", "--germans", "1", "--seed", "5", "--record", str(saved))
    message = error_line(done)
    assert "already there" in message and f"--resume {saved}" in message, message
    assert done.stdout == "", "refused before anything is printed"
    assert saved.read_bytes() == before
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")  # an empty file holds no game: it may be written
    assert run_cli("play", "omaha", "--germans", "1", "--seed", "5", "-q", "--record", str(empty)).returncode == 0


# ---------------------------------------------------------------------- a seat's view is not the record
SEALED_GAME = Path(__file__).parent / "golden" / "skirmish-hill-assault-seed7.jsonl"  # with a sealed melee choice


@pytest.mark.parametrize("reader", ["the other seat", "spectator"])
def test_a_seats_view_is_never_resumed(tmp_path: Path, reader: str) -> None:
    """A view written by ``replay --seat`` holds another seat's choice as 'sealed': resumed, the game asked that
    choice again and every line written after it was lost to the next resume. It is refused in one line naming
    the whole record, and not a byte of it changes (an older view without the mark in its header, and one cut
    by a crash, as well); the whole record it came from resumes to the very game recorded."""
    lines = lines_of(SEALED_GAME)
    cut_at = next(i for i, text in enumerate(lines) if '"kind":"sealed"' in text)
    owner = json.loads(lines[cut_at])["seat"]
    seat = ("Axis" if owner == "Allies" else "Allies") if reader == "the other seat" else "spectator"
    part = tmp_path / "part.jsonl"  # the game as it stood just after a sealed choice, not yet revealed
    part.write_text("".join(text + "\n" for text in lines[: cut_at + 1]), encoding="utf-8")
    view = tmp_path / "view.jsonl"
    done = run_cli("replay", str(part), "--seat", seat, "--out", str(view))
    assert done.returncode == 0, done.stderr
    header = json.loads(lines_of(view)[0])
    old = tmp_path / "old_view.jsonl"  # a view written before views said so in their header
    old.write_text(
        "".join(text + "\n" for text in [json.dumps({k: v for k, v in header.items() if k != "view"})])
        + "".join(text + "\n" for text in lines_of(view)[1:]),
        encoding="utf-8",
    )
    torn = tmp_path / "torn_view.jsonl"
    torn.write_bytes(view.read_bytes() + b'{"type":"action","seat":')
    for path, names_the_record in [(view, True), (old, False), (torn, True)]:
        before = path.read_bytes()
        line = error_line(run_cli("play", "skirmish", "--resume", str(path), "-q", stdin="yes\n"))
        assert "this file is a seat's view" in line and "not the whole record" in line, line
        assert (str(part.resolve()) in line) == names_the_record, line
        assert line.endswith("nothing was written"), line
        assert path.read_bytes() == before  # neither appended to nor cut
    done = run_cli("play", "skirmish", "--resume", str(part), "-q")
    assert done.returncode == 0, done.stderr
    assert lines_of(part) == lines


def without_reason(line: dict[str, Any]) -> dict[str, Any]:
    """A record line without a bot's reason (commentary kept outside the digest chain)."""
    return {key: value for key, value in line.items() if key != "reason"}
