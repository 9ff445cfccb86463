"""Issue 28, item 8: small terminal defects found when grognard was tried as a new user would."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from grognard.cli import main


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one ``error:`` line of a command refused with exit 2, nothing played."""
    assert main(list(args)) == 2
    out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Turn" not in out and "Result" not in out, out
    return lines[0]


def test_a_bot_for_a_side_people_take_whole_is_refused_not_dropped(capsys: pytest.CaptureFixture[str]) -> None:
    line = refused(capsys, "play", "omaha", "--bots", "german=random", "--human", "german", "--seed", "1")
    assert "--bots german=random" in line and "people take every german seat" in line
    line = refused(capsys, "play", "skirmish", "--bots", "axis=random", "--human", "all", "--seed", "1")
    assert "--bots axis=random" in line and "people take every axis seat" in line


@pytest.mark.parametrize(
    ("human", "said"),
    [
        ("A1,A1", "American 1 is named twice; name each seat once"),
        ("american,A1", "American 1 is named twice (american and A1)"),
        ("", "names no side or seat"),
        ("  ", "names no side or seat"),
        ("A1,", "an empty item in the list"),
    ],
)
def test_a_seat_named_twice_or_none_named_is_refused(human: str, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    line = refused(capsys, "play", "omaha", "--human", human, "--seed", "1")
    assert line.startswith(f"error: --human {human!r}: ") and said in line, line


ODD_NUMBERS = ["1_2", "٣", "+5", "1e1", "inf"]  # Python's int/float read each; a person meant otherwise


@pytest.mark.parametrize("odd", ODD_NUMBERS)
@pytest.mark.parametrize(
    ("ruleset", "order"),
    [
        ("omaha", "move A1 {n} 3"),
        ("omaha", "fight A1 shoot={n}"),
        ("b17", "place {n} 10,10"),
        ("b17", "fly B1 {n} 0"),
        ("skirmish", "move A {n},3"),
        ("skirmish", "burst GUN1 10,10 {n}"),
    ],
)
def test_an_order_reads_ascii_digits_dot_and_minus_only(ruleset: str, order: str, odd: str) -> None:
    from grognard.core.errors import ParseError
    from grognard.rulesets import get

    parse = get(ruleset).parse_action
    parse(order.format(n="12"))  # the same order with a plain number reads
    with pytest.raises(ParseError, match=re.escape(odd)):
        parse(order.format(n=odd))


@pytest.mark.parametrize("odd", ["1_2", "٣", "+5", "1e1"])
def test_options_flags_and_typed_dice_read_numbers_as_orders_do(odd: str, capsys: pytest.CaptureFixture[str]) -> None:
    from grognard.terminal import parse_dice

    line = refused(capsys, "play", "omaha", "-o", f"germans={odd}", "--seed", "1")
    assert f"option 'germans': {odd!r} is not" in line
    line = refused(capsys, "play", "omaha", "--germans", odd, "--seed", "1")
    assert f"option 'germans': {odd!r} is not" in line
    for flag in (["play", "omaha", "--seed"], ["simulate", "omaha", "-n"], ["sweep", "omaha", "--seed"]):
        line = refused(capsys, *flag, odd)
        assert f"{odd!r} is not a whole number" in line, line
    assert parse_dice(odd, 6) == [odd]  # kept as typed, so the dice's check names it
    assert parse_dice("5 2 6", 6) == [5, 2, 6] and parse_dice("-1", 6) == [-1]


def test_every_command_that_writes_a_file_refuses_one_already_there_and_force_replaces_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One rule for every output: sheet, render, replay --out, analyse --png, simulate --out, sweep --out.
    render -o wrote over a file in silence while sheet asked for --force."""
    record = tmp_path / "game.jsonl"
    assert main(["play", "omaha", "--germans", "1", "--seed", "2", "-q", "--record", str(record)]) == 0
    capsys.readouterr()
    outputs = {
        "render": (["render", "omaha", str(record), "-o"], tmp_path / "table.svg", "-o"),
        "sheet": (["sheet", "omaha", "-o"], tmp_path / "sheet.pdf", "-o"),
        "replay": (["replay", str(record), "--seat", "G1", "--out"], tmp_path / "view.jsonl", "--out"),
        "analyse": (["analyse", str(record), "--playouts", "2", "--png"], tmp_path / "curve.png", "--png"),
        "simulate": (["simulate", "omaha", "-n", "2", "--jobs", "1", "--out"], tmp_path / "sim", "--out"),
        "sweep": (
            ["sweep", "omaha", "-n", "2", "--jobs", "1", "-o", "germans=1,2", "--out"],
            tmp_path / "sweep",
            "--out",
        ),
    }
    for name, (args, path, flag) in outputs.items():
        if path.suffix:
            path.write_text("kept", encoding="utf-8")
            kept = [path]
        else:
            path.mkdir()
            names = ["summary.json"] if name == "simulate" else ["sweep.csv"]
            kept = [path / n for n in names]
            for file in kept:
                file.write_text("kept", encoding="utf-8")
        line = refused(capsys, *args, str(path))
        assert line.startswith(f"error: {flag} {str(path)!r}: ") and "--force writes over" in line, (name, line)
        assert all(file.read_text(encoding="utf-8") == "kept" for file in kept), name
        assert main([*args, str(path), "--force"]) == 0, (name, capsys.readouterr().err)
        capsys.readouterr()
        assert all(file.read_bytes() != b"kept" for file in kept), name
    line = refused(capsys, "replay", str(record), "--seat", "G1", "--out", str(record), "--force")
    assert "the record itself" in line  # never written over, --force or not


def test_sweep_heads_no_two_columns_alike(capsys: pytest.CaptureFixture[str]) -> None:
    """The option swept and the figure of the same name (fresh_squads) were two columns both headed
    'fresh_squads': the means are now a row per figure, named in words, and a column per grid point."""
    args = ["sweep", "omaha", "-o", "germans=1", "-o", "fresh_squads=0..1", "-n", "2", "--jobs", "1"]
    assert main(args) == 0
    shown = capsys.readouterr().out
    for header in [line for line in shown.splitlines() if line.startswith("┃")]:
        cells = [cell.strip() for cell in header.strip("┃").split("┃")]
        assert len(cells) == len(set(cells)), header
    assert "germans=1, fresh_squads=0" in shown and "│ fresh squads landed" in shown


def test_ctrl_c_during_simulate_reports_and_keeps_the_games_played(tmp_path: Path) -> None:
    """Ctrl-C once a chunk of games is done: the figures of the games played so far are printed, saying how
    many of how many, and --out keeps them (games.parquet, summary.json); exit 130. It said 'interrupted'."""
    import pyarrow.parquet as pq

    from terminal_driver import ctrl_c_after

    out = tmp_path / "run"
    # Ctrl-C after the estimate, said once the first chunk of games is done
    code, shown, err = ctrl_c_after(
        ["simulate", "omaha", "-n", "10000000", "--jobs", "1", "--out", str(out)], "games took"
    )
    assert code == 130, err
    said = re.search(r"interrupted after (\d+) games of 10000000: the figures below are of the first \1", err)
    assert said is not None and "Traceback" not in err, err
    played = int(said[1])
    assert f"Results of {played} games" in shown and f"{played} games, seed 1" in shown
    assert pq.read_table(out / "games.parquet").num_rows == played
    import json

    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["plan"]["games"] == played


@pytest.mark.parametrize("ruleset", ["omaha", "b17", "skirmish"])
def test_play_help_reads_in_an_80_column_terminal(ruleset: str) -> None:
    """play --help at 80 columns was 201 lines with an 18-character column for the words: the people's,
    record's and output's flags are in panels, the rule options listed from the data one a line, each with
    its default and values; every option still named."""
    from grognard.rulesets import get
    from terminal_driver import run_in_pty

    code, shown = run_in_pty("play", ruleset, "--help", columns=80)
    assert code == 0, shown
    lines = shown.splitlines()
    assert len(lines) <= 110, len(lines)  # 100 before the bot levels were each described (skirmish: 102)
    assert max(len(line) for line in lines) <= 80
    for panel in ("Game", "Record", "Output"):
        assert f"╭─ {panel} " in shown
    rows = [re.match(r"│ (--[\w-]+)(?: +-\w)? +(?:<\w+>|[A-Z][\w|=]*|seeded\|manual) +(\S)", line) for line in lines]
    assert len([row for row in rows if row]) >= 9  # seed, human, dice, option, bots, record, resume, -v, -q ...
    for row in rows:  # a flag's words begin at most 36 characters in: 40 columns or more for them
        assert row is None or row.start(2) <= 36, row.string
    text = " ".join(shown.split())
    for spec in get(ruleset).options:
        flag = "--" + spec.name.replace("_", "-")
        shown_as = f"{flag} | --no-{flag[2:]}" if spec.kind is bool else flag
        assert shown_as in text, spec.name
        assert spec.describe_values() in text or spec.kind is bool, spec.name


def test_no_text_people_read_says_s_in_brackets() -> None:
    """'1 roll(s)', 'bomb hit(s)', 'process(es)': every string of the program (docstrings and comments aside)
    puts a count's noun in its number instead (core.words.counted)."""
    import ast

    import grognard

    found = []
    for path in sorted(Path(grognard.__file__).parent.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                if re.search(r"\w\((s|es)\)", node.value):
                    found.append(f"{path.name}:{node.lineno}: {node.value!r}")
    assert not found, found


def test_a_side_whose_name_ends_in_s_owns_with_an_apostrophe() -> None:
    """'took back Allies's move': a plural name takes the apostrophe alone (core.words.possessive)."""
    from terminal_driver import run_cli

    done = run_cli("play", "skirmish", "village_street", "--human", "allies", "--seed", "6",
                   stdin="move A 11.26,15.95\nundo\nquit\n")  # fmt: skip
    assert "took back Allies' move A 11.26,15.95" in done.stdout, done.stdout[-2000:]
    assert "'s's" not in done.stdout and "Allies's" not in done.stdout


@pytest.mark.parametrize("odd", ["1_2", "٣", "+5", "1e1", "inf"])
def test_serve_retention_reads_numbers_as_orders_do(
    odd: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``serve --retention 1_2`` kept games 12 days and ``1e3`` a thousand (a float of Typer's own); ``٣`` was
    refused with pydantic's 'Input should be a valid number'. No server is started either way."""
    import grognard.web.serve

    started: list[object] = []
    monkeypatch.setattr(grognard.web.serve, "run", lambda *args, **kwargs: started.append(kwargs))
    line = refused(capsys, "serve", "--retention", odd)
    assert "--retention" in line and f"{odd!r} is not a number" in line, line
    assert started == []
    assert main(["serve", "--retention", "7.5"]) in (0, None)
    assert [kwargs["retention"] for kwargs in started] == [7.5]


def test_ctrl_c_during_balance_says_interrupted_and_writes_no_figures(tmp_path: Path) -> None:
    """Ctrl-C during grognard balance ('Ctrl-C stops', it says) ended it with exit 130 and not a word: Typer
    turns a Ctrl-C no command catches into its Exit(130), past the program's 'interrupted' line. The --out folder
    it made is removed again, empty; one that was there before stays."""
    from grognard.cli_balance import OUTPUTS
    from terminal_driver import ctrl_c_after

    out = tmp_path / "run"
    # Ctrl-C after the estimate, said once each pairing's first game is played
    args = ["balance", "b17", "-n", "1000000", "--skill-games", "0", "--jobs", "1", "--out", str(out)]
    code, shown, err = ctrl_c_after(args, "Ctrl-C stops")
    assert code == 130, err
    assert [line for line in err.splitlines() if line.strip()] == ["interrupted"], err
    assert "Book v book" not in shown and not any((out / name).exists() for name in OUTPUTS)
    assert not out.exists()  # the folder it made for the run is gone too (it was left behind, empty)
