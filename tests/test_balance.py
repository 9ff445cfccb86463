"""grognard balance: the same figures on one process, two and a Dask cluster; the value it recommends plays as it
says when simulate plays it; every pairing with --levels; bad input refused in one line. No test asserts a win
rate: the games are few, and the figures are compared with other runs of the same games."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from grognard.analysis.balance import bisect_limit, nearest, score, with_value
from grognard.bots.ladder import levels
from grognard.cli import main
from grognard.rulesets.skirmish import RULESET as SKIRMISH
from grognard.rulesets.skirmish.scenario import SCENARIOS_DIR

FIRE_RANGE = str(Path(__file__).parent / "skirmish_fire_range.toml")  # two turns, a few men: cheap games
SMALL = ["skirmish", "--scenario", FIRE_RANGE, "-n", "10", "--skill-games", "3", "--skilled", "random", "--seed", "3"]


def _balance(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["balance", *args, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_the_same_figures_on_one_process_two_and_a_dask_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    distributed = pytest.importorskip("dask.distributed")
    one = _balance([*SMALL, "--jobs", "1"], capsys)
    two = _balance([*SMALL, "--jobs", "2"], capsys)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        remote = _balance([*SMALL, "--scheduler", cluster.scheduler_address], capsys)
    assert one == two == remote
    # every figure is there: the book against the book, both ways round the skilled bot, the skill, the sweeps
    assert [p["levels"] for p in one["pairings"]] == [
        {"allies": "book", "axis": "book"},
        {"allies": "random", "axis": "book"},
        {"allies": "book", "axis": "random"},
    ]
    assert [p["games"] for p in one["pairings"]] == [10, 3, 3]
    assert one["skill"]["swing"]["side"] == "allies" and one["skill"]["swing"]["games"] == 3
    assert [gain["side"] for gain in one["skill"]["gains"]] == ["allies", "axis"]
    book = one["pairings"][0]
    assert sum(item["games"] for item in book["outcomes"].values()) == 10
    assert book["to_the_limit"]["limit"] == 2 and book["turns"]["max"] <= 2
    assert one["sweep"]["sweeps"][0]["field"] == "turn_limit" and one["sweep"]["recommended"]["check"]


def test_each_value_a_sweep_found_plays_as_balance_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The turn limit (an option) and a side's breaks_at (the scenario's field, in an edited copy): each sweep's
    best value, played by simulate on the same seed, gives the very outcomes balance reported for it; the
    command balance prints to check its recommendation gives them too."""
    out = tmp_path / "run"
    data = _balance(
        [
            "skirmish",
            "--scenario",
            FIRE_RANGE,
            "-n",
            "12",
            "--skill-games",
            "0",
            "--seed",
            "3",
            "--jobs",
            "1",
            "--out",
            str(out),
        ],
        capsys,
    )
    sweeps = data["sweep"]["sweeps"]
    assert len(sweeps) >= 2, "the turn limit alone does not even this one at 12 games: a breaks_at is swept too"
    text = Path(FIRE_RANGE).read_text()
    for item in sweeps:
        if item["field"] == "turn_limit":
            options = ["-o", f"scenario={FIRE_RANGE}", "-o", f"turn_limit={item['best']:g}"]
        else:
            index = int(item["field"].split("[")[1].split("]")[0])
            edited = tmp_path / f"{index}.toml"
            edited.write_text(with_value(text, "sides", index, "breaks_at", item["best"]))
            options = ["-o", f"scenario={edited}"]
        assert main(["simulate", "skirmish", *options, "-n", "12", "--seed", "3", "--jobs", "1", "--json"]) == 0
        played = json.loads(capsys.readouterr().out)["figures"]["outcomes"]
        assert {key: value["games"] for key, value in played.items()} == item["outcomes"], item["field"]
        assert score(item["outcomes"], "allies") == item["score"]
    check = shlex.split(data["sweep"]["recommended"]["check"])
    assert check[:2] == ["grognard", "simulate"]
    assert main([*check[1:], "--jobs", "1", "--json"]) == 0
    played = json.loads(capsys.readouterr().out)["figures"]["outcomes"]
    assert {key: value["games"] for key, value in played.items()} == data["sweep"]["recommended"]["outcomes"]
    assert (out / "balance.json").is_file() and (out / "sweep.png").read_bytes()[:4] == b"\x89PNG"


def test_a_breaks_at_recommended_is_written_as_a_scenario_that_plays_as_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--sweep breaks_at: the side's field in an edited copy of the scenario (balanced.toml, one line changed),
    which the printed check command plays to the outcomes balance reported."""
    args = ["skirmish", "--scenario", FIRE_RANGE, "-n", "12", "--skill-games", "0", "--seed", "3", "--jobs", "1"]
    data = _balance([*args, "--sweep", "breaks_at", "--out", str(tmp_path)], capsys)
    best = data["sweep"]["recommended"]
    assert best["field"].endswith("].breaks_at") and all(s["field"] != "turn_limit" for s in data["sweep"]["sweeps"])
    written = (tmp_path / "balanced.toml").read_text().splitlines()
    added = [line for line in written if line.startswith(f"breaks_at = {best['best']}  # grognard balance: was ")]
    assert len(added) == 1  # this scenario's sides name no breaks_at: the line is added under its [[sides]]
    assert [line for line in written if line not in added] == Path(FIRE_RANGE).read_text().splitlines()
    check = shlex.split(best["check"])
    assert f"scenario={tmp_path / 'balanced.toml'}" in check
    assert main([*check[1:], "--jobs", "1", "--json"]) == 0
    played = json.loads(capsys.readouterr().out)["figures"]["outcomes"]
    assert {key: value["games"] for key, value in played.items()} == best["outcomes"]


def test_the_check_command_of_a_breaks_at_recommended_without_out_can_be_pasted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Without --out the check said '-o scenario=YOURS.toml (set sides[1].breaks_at = 0.2; --out writes it:
    balanced.toml) --bots ...': the words to edit the file sat inside the command, which did not run as pasted."""
    args = ["skirmish", "--scenario", FIRE_RANGE, "-n", "12", "--skill-games", "0", "--seed", "3", "--jobs", "1"]
    assert main(["balance", *args, "--sweep", "breaks_at"]) == 0
    lines = capsys.readouterr().out.splitlines()
    said = next(i for i, line in enumerate(lines) if line.strip().startswith("check it"))
    assert "].breaks_at = " in lines[said] and "balanced.toml" in lines[said], lines[said]
    check = shlex.split(lines[said + 1])
    assert check[:3] == ["grognard", "simulate", "skirmish"] and "scenario=YOURS.toml" in check
    assert not any("(" in word or ";" in word for word in check), check
    options = [check[i + 1] for i, word in enumerate(check) if word == "-o"]
    assert all(re.fullmatch(r"\w+=\S+", option) for option in options), options


def test_levels_plays_every_pairing_of_the_ladder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["skirmish", "--scenario", FIRE_RANGE, "-n", "1", "--skill-games", "1", "--levels", "--sweep", "none"]
    assert main(["balance", *args, "--jobs", "1", "--out", str(tmp_path)]) == 0
    assert "win rate, allies level (row) against axis level (column)" in capsys.readouterr().out
    data = json.loads((tmp_path / "balance.json").read_text())  # the figures the table shows
    offered = list(levels(SKIRMISH))
    assert data["matrix"]["levels"] == offered
    assert sorted(data["matrix"]["cells"]) == sorted(f"{a} v {b}" for a in offered for b in offered)
    for pairing in data["pairings"]:
        a, b = pairing["levels"].values()
        cell = data["matrix"]["cells"][f"{a} v {b}"]
        assert cell["games"] == pairing["games"] == 1
        assert cell["wins"] == pairing["outcomes"].get("allies win", {}).get("games", 0)


def test_the_text_report_names_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", *SMALL, "--jobs", "1"]) == 0
    text = capsys.readouterr().out
    for words in (
        "Book v book, 10 games",
        "ran to the turn limit (2)",
        "length in turns: median",
        "Skill (random against book",
        "a swing of",
        "Evening the game",
        "check it: grognard simulate skirmish",
        "at 10 games a win rate near 50%",
    ):
        assert words in text, words


def test_the_halving_finds_the_value_nearest_half() -> None:
    tried = bisect_limit(lambda k: k / 20, 1, 40, 4)
    assert nearest(tried, 4) == 10 and len(tried) <= 8
    assert nearest(bisect_limit(lambda k: 0.8, 1, 24, 12), 12) == 12  # never crossed: the scenario's own stands
    falling = bisect_limit(lambda k: 1 - k / 100, 5, 100, 66)
    assert nearest(falling, 66) == 50


def test_with_value_edits_one_line_of_the_scenario() -> None:
    text = (SCENARIOS_DIR / "hill_assault.toml").read_text()
    edited = with_value(text, "sides", 1, "breaks_at", 0.75, "was 1")
    changed = [(a, b) for a, b in zip(text.splitlines(), edited.splitlines(), strict=True) if a != b]
    assert changed == [("breaks_at = 1.0", "breaks_at = 0.75  # was 1")]
    added = with_value(text.replace("breaks_at = 1.0\n", ""), "sides", 1, "breaks_at", 0.5)
    assert '[[sides]]\nbreaks_at = 0.5\nid = "axis"' in added
    with pytest.raises(ValueError):
        with_value(text, "sides", 2, "breaks_at", 0.5)


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["balance", "chess"], "'chess'"),
        (["balance", "skirmish", "--scenario", "nowhere", "-n", "2"], "'nowhere'"),
        (["balance", "omaha", "--scenario", "x"], "--scenario"),
        (["balance", "omaha", "-o", "nope=1"], "'nope'"),
        (["balance", "omaha", "-o", "germans=0"], "'germans'"),
        (["balance", "omaha", "--games", "0"], "-n 0"),
        (["balance", "b17", "-n", "5", "--skill-games", "6"], "--skill-games 6"),
        (["balance", "b17", "--skilled", "grandmaster"], "'grandmaster'"),
        (["balance", "b17", "--jobs", "0"], "--jobs 0"),
        (["balance", "skirmish", "--sweep", "morale"], "--sweep 'morale'"),
        (["balance", "b17", "--skilled", "book"], "--skilled 'book'"),
        (["balance", "skirmish", "--scenario", "hill_assault", "-o", "scenario=village_street"], "given twice"),
        (["balance", "b17", "-n", "2", "--scheduler", "tcp://127.0.0.1:9"], "--scheduler"),
    ],
)
def test_bad_input_is_one_line_exit_2(args: list[str], field: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert "Book v book" not in out, "refused before any game is played"
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and field in lines[0], err


@pytest.mark.parametrize(
    ("text", "said"),
    [("a = \n", "(file): not TOML"), ("width = 36.0", "table.width: -30.0: Input should be greater than 0")],
)
def test_a_scenario_file_with_one_problem_is_named_in_its_line(
    text: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One problem in one's own file said 'error: (file): not TOML: ...' without the file (play names it)."""
    path = tmp_path / "mine.toml"
    if text.startswith("width"):  # a shipped scenario with one field wrong
        shipped = SCENARIOS_DIR / "proving_ground.toml"
        text = shipped.read_text(encoding="utf-8").replace(text, "width = -30.0", 1)
    path.write_text(text, encoding="utf-8")
    assert main(["balance", "skirmish", "--scenario", str(path), "-n", "2"]) == 2
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"error: {path}: ") and said in lines[0], lines
