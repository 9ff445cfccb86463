"""Bad input at the terminal is one ``error:`` line and exit code 2, never a traceback (issue 21)."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from grognard.cli import main
from terminal_driver import HANG_GUARD, Terminal, cli_env, error_line, run_cli


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("errors") / "game.jsonl"
    done = run_cli("play", "omaha", "--germans", "1", "--seed", "11", "--record", str(path), "-q")
    assert done.returncode == 0, done.stderr
    return path


def here(capsys: pytest.CaptureFixture[str], *args: str) -> subprocess.CompletedProcess[str]:
    """``grognard ARGS`` through the program's main in this process, where run_cli would start a fresh one
    (serve, sweep): the caller guards against what a fresh process was for (a server started, a pool)."""
    code = main(list(args))
    said = capsys.readouterr()
    return subprocess.CompletedProcess(["grognard", *args], code, said.out, said.err)


# ---------------------------------------------------------------------- serve --db
@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("notaurl", "not a database URL"),
        ("sqlite:////no/such/folder/games.sqlite3", "the folder '/no/such/folder' does not exist"),
        ("postgresql+psycopg://teacher:secret@localhost/grognard", "driver is not installed: psycopg"),
        ("mysql://teacher@localhost/grognard", "driver is not installed: mysqlclient"),
        ("nosuchdb://x", "unknown kind of database 'nosuchdb'"),
        ("sqlite:///NOTADB", "cannot open the database: file is not a database"),  # a game record named by mistake
        ("sqlite:///", "an SQLite database in memory keeps no game"),
        ("sqlite://", "an SQLite database in memory keeps no game"),
        ("sqlite:///:memory:", "an SQLite database in memory keeps no game"),
    ],
)
def test_serve_with_a_database_it_cannot_use(
    url: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("sqlalchemy")
    import uvicorn

    def started(*args: object, **kwargs: object) -> None:  # the hang guard of a run in this process
        raise AssertionError(f"serve started its server on {url}: the --db was not refused")

    monkeypatch.setattr(uvicorn, "run", started)
    if "psycopg" in url:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            pass
        else:
            pytest.skip("psycopg is installed here")
    if "NOTADB" in url:
        record = tmp_path / "game.jsonl"
        record.write_text('{"type":"header"}\n' * 200, encoding="utf-8")
        url = url.replace("NOTADB", str(record))
    line = error_line(here(capsys, "serve", "--db", url, "--port", "8799"))
    assert line.startswith("error: --db ") and expected in line, line
    if "NOTADB" not in url and "game.jsonl" in url:
        assert record.read_text(encoding="utf-8") == '{"type":"header"}\n' * 200  # the file left as it was
    assert "secret" not in line  # a password is never echoed


# ---------------------------------------------------------------------- render
def test_a_png_that_cannot_be_written_says_why(record: Path, tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "board.png"
    line = error_line(run_cli("render", "omaha", str(record), "-o", str(target)))
    assert line == f"error: -o '{target}': there is no folder '{target.parent}'"


def test_render_focus_on_a_unit_the_game_does_not_have(record: Path, tmp_path: Path) -> None:
    line = error_line(run_cli("render", "omaha", str(record), "-o", str(tmp_path / "b.svg"), "--focus", "A99"))
    assert line == "error: --focus A99: no squad or bunker A99 in this game (squads A1 to A3; bunkers B1, B2)"
    assert not (tmp_path / "b.svg").exists()
    done = run_cli("render", "omaha", str(record), "-o", str(tmp_path / "b.svg"), "--focus", "b2")
    assert done.returncode == 0, done.stderr
    assert '<g class="t-focus"><rect' in (tmp_path / "b.svg").read_text(encoding="utf-8")  # the ring round B2


# ---------------------------------------------------------------------- play
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("play", "chess"), "error: No such command 'chess': grognard play takes one of omaha, b17, skirmish"),
        (("chess",), "error: No such command 'chess': grognard takes one of "),
    ],
)
def test_a_command_or_rule_set_that_is_not_there_names_those_that_are(args: tuple[str, ...], expected: str) -> None:
    line = error_line(run_cli(*args))  # it said "No such command 'chess'." and no more
    assert line.startswith(expected) and "play" in line, line


@pytest.mark.parametrize("dice", ["seeded", "manual"])
def test_play_refuses_a_seat_it_lacks_before_anything_is_printed_or_written(dice: str, tmp_path: Path) -> None:
    """A bad --human is refused before the banner and before the record is made: no empty file is left behind
    (it was, and the banner and the bots were printed above the error)."""
    path = tmp_path / "game.jsonl"
    done = run_cli("play", "omaha", "--germans", "1", "--human", "nobody", "--dice", dice, "--record", str(path))
    line = error_line(done)
    assert line.startswith("error: --human 'nobody': no such side or seat"), line
    assert done.stdout == "" and not path.exists()


@pytest.mark.parametrize("seed", ["99999999999999999999999", "9223372036854775808", "-1"])
def test_sheet_refuses_a_seed_play_refuses(seed: str, tmp_path: Path) -> None:
    """The sheet prints 'grognard play omaha --seed N' for the class: a seed play refuses is refused here too,
    in play's words, and no PDF is written (it wrote one naming a seed play cannot take)."""
    pdf = tmp_path / "omaha.pdf"
    expected = f"error: --seed {seed}: must be between 0 and 2^63-1"
    assert error_line(run_cli("play", "omaha", "--seed", seed, "-q")) == expected
    assert error_line(run_cli("sheet", "omaha", "--seed", seed, "-o", str(pdf))) == expected
    assert not pdf.exists()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["hill_assault", "-o", "scenario=village_street"], "the scenario is given twice (as SCENARIO and --option)"),
        (["hill_assault", "--scenario", "village_street"], "the scenario is given twice (as SCENARIO and --scenario)"),
        (
            ["--scenario", "hill_assault", "-o", "scenario=x"],
            "option 'scenario' is given twice (as --scenario and --option)",
        ),
    ],
)
def test_a_scenario_given_twice_names_the_two_places(args: list[str], expected: str) -> None:
    """The SCENARIO argument and -o scenario= are named as such (it said '--scenario and --option' of a command
    line without --scenario)."""
    assert error_line(run_cli("play", "skirmish", *args, "-q")) == f"error: {expected}"


# ---------------------------------------------------------------------- odds and sheet: a skirmish scenario
@pytest.mark.parametrize("command", ["odds", "sheet"])
def test_odds_and_sheet_refuse_a_scenario_that_is_not_there(command: str, tmp_path: Path) -> None:
    """``-o scenario=NAME`` names a scenario the odds and the sheet read, so one that is not there is refused
    as play refuses it (it was passed over, and the sheet told the class to play a game that cannot start)."""
    pdf = tmp_path / "card.pdf"
    args = ["-o", str(pdf), "--option", "scenario=nowhere"] if command == "sheet" else ["-o", "scenario=nowhere"]
    done = run_cli(command, "skirmish", *args)
    assert done.returncode == 2, done.stdout[-500:]
    assert done.stderr.startswith("error: nowhere: 1 problem:"), done.stderr
    assert "scenario: 'nowhere': no shipped scenario of that name" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert not pdf.exists()


def test_odds_read_the_tables_a_scenario_of_ones_own_names(tmp_path: Path) -> None:
    """A scenario with tables of its own plays its own numbers; the odds of it are those numbers."""
    shipped = Path(__file__).parents[1] / "src/grognard/rulesets/skirmish"
    tables = (shipped / "tables/default.toml").read_text(encoding="utf-8")
    mine = tables.replace("[survival.small_arms]\nsurvive_on = 5", "[survival.small_arms]\nsurvive_on = 4")
    assert mine != tables
    (tmp_path / "mine.toml").write_text(mine, encoding="utf-8")
    scenario = (Path(__file__).parent / "skirmish_fire_range.toml").read_text(encoding="utf-8")
    (tmp_path / "range.toml").write_text(scenario.replace('tables = "default"', 'tables = "mine.toml"'), "utf-8")
    shown = run_cli("odds", "skirmish", "--what", "survival//True", "--exact")
    assert shown.returncode == 0 and shown.stdout.strip() == "survival//True: 1/3", shown.stdout + shown.stderr
    own = run_cli(
        "odds", "skirmish", "--what", "survival//True", "--exact", "-o", f"scenario={tmp_path / 'range.toml'}"
    )
    assert own.returncode == 0 and own.stdout.strip() == "survival//True: 1/2", own.stdout + own.stderr


# ---------------------------------------------------------------------- simulate
def test_simulate_with_an_absurd_number_of_games_is_refused_at_once() -> None:
    line = error_line(run_cli("simulate", "omaha", "-n", "99999999999999999999"))
    assert line.startswith("error: -n 99999999999999999999: at most 10,000,000 games in one run")
    line = error_line(run_cli("sweep", "omaha", "-o", "germans=1..6", "-n", "5000000"))
    assert "30,000,000 games; at most 10,000,000 in one sweep" in line


@pytest.mark.parametrize(
    ("axis", "expected"),
    [
        ("fresh_squads=1,,2", "error: option 'fresh_squads': an empty value in '1,,2'"),
        ("fresh_squads=1,2,", "error: option 'fresh_squads': an empty value in '1,2,'"),
        ("victory=exits,exits", "error: option 'victory': exits is listed twice in 'exits,exits'"),
        ("germans=1..3,2", "error: option 'germans': 2 is listed twice in '1..3,2'"),
        ("fresh_squads=4..0", "error: option 'fresh_squads': '4..0' runs down; a range is LOW..HIGH (0..4)"),
        ("fresh_squads=unlimited..4", "error: option 'fresh_squads': 'unlimited..4' is not a range of whole numbers"),
    ],
)
def test_a_sweep_axis_with_an_empty_twice_listed_or_backward_value_is_refused(
    axis: str, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each point of a sweep is played once and as written: an empty value is not skipped, a value listed twice
    is not played twice, and a range written backwards is named as such."""
    # in this process (the program's main, as test_balance runs sweeps), not a fresh one as run_cli runs
    # sweep: on one process (--jobs 1) a sweep that was not refused plays its few games here and ends
    line = error_line(here(capsys, "sweep", "omaha", "-o", axis, "-n", "2", "--jobs", "1"))
    assert line.startswith(expected), line


def test_a_long_simulation_says_how_long_it_will_take_before_it_takes_it() -> None:
    """One game at a time on one process, nine million games: the first 4 games' rate gives days, said at once
    (after 4 games, not 64: a skirmish game takes seconds, and 64 of them minutes of silence)."""
    args = ("simulate", "omaha", "-n", "9000000", "--engine", "reference", "--jobs", "1")
    proc = subprocess.Popen([sys.executable, "-m", "grognard", *args], stderr=subprocess.PIPE, text=True, env=cli_env())
    try:
        first: list[str] = []
        reader = threading.Thread(target=lambda: first.append(proc.stderr.readline() if proc.stderr else ""))
        reader.start()
        reader.join(HANG_GUARD)
    finally:
        proc.kill()
        proc.wait(10)
    assert first, "no estimate before the run went on"
    pattern = r"omaha: the first 4 games took [\d.]+ s; about .+ for the other 8,999,996 \([\d,.]+ games/s; Ctrl-C"
    assert re.match(pattern, first[0]), first


def test_a_run_s_speed_is_said_as_a_person_reads_it() -> None:
    from grognard.cli_simulate import _rate

    assert [_rate(r) for r in (1300.4, 27.0, 2.44, 1.0, 0.58)] == [
        "1,300 games/s",
        "27 games/s",
        "2.4 games/s",
        "1.0 games/s",
        "1.7 s a game",
    ]


# ---------------------------------------------------------------------- play
def test_play_refuses_verbose_and_quiet_together() -> None:
    line = error_line(run_cli("play", "b17", "-v", "-q"))
    assert line == "error: --verbose and --quiet together: choose one (-v prints every event, -q only the result)"


@pytest.mark.parametrize(
    ("args", "order", "expected"),
    [
        (("omaha", "--germans", "1", "--human", "american"), "move A99 20 24", "there is no squad A99 in this game"),
        (("omaha", "--germans", "1", "--human", "american"), "fight A7 shoot=12", "there is no squad A7 in this game"),
        (("b17", "--human", "german"), "fly B9 6 0", "there is no aircraft B9 in this game (B1, B2, B3, B4, F1"),
        (("b17", "--human", "german"), "fly F5 6 0", "there is no aircraft F5 in this game"),
    ],
)
def test_an_order_for_a_unit_that_does_not_exist_says_so(args: tuple[str, ...], order: str, expected: str) -> None:
    with Terminal("play", *args, "--seed", "3") as t:
        asked = t.prompt()
        t.send(order)
        assert t.prompt() == asked  # asked again: nothing given
        assert t.shown.strip().startswith(f"refused: {order!r}: {expected}"), t.shown
        t.send("quit")
        code, _, err = t.finish()
    assert code == 0 and "Traceback" not in err


# ---------------------------------------------------------------------- a seat's view of a record
def test_a_seats_view_replays_and_renders_up_to_its_sealed_choice(tmp_path: Path) -> None:
    import json

    from grognard.core.record import read_lines

    lines = read_lines(Path(__file__).parent / "golden" / "skirmish-hill-assault-seed7.jsonl")
    cut = next(i for i, line in enumerate(lines) if any(e["kind"] == "sealed" for e in line.get("events", [])))
    other = "Axis" if lines[cut]["seat"] == "Allies" else "Allies"
    part = tmp_path / "part.jsonl"  # the game as it stood just after a sealed choice, cut there
    part.write_text("".join(json.dumps(line) + "\n" for line in lines[: cut + 1]), encoding="utf-8")
    view = tmp_path / "view.jsonl"
    done = run_cli("replay", str(part), "--seat", other, "--out", str(view))
    assert done.returncode == 0, done.stderr
    done = run_cli("replay", str(view))
    assert done.returncode == 0, done.stderr
    assert f"{cut} lines replayed" in done.stdout
    assert f"this record is one seat's view: replayed up to line {cut + 1}, which holds another seat's" in done.stdout
    done = run_cli("render", "skirmish", str(view), "-o", str(tmp_path / "v.svg"))
    assert done.returncode == 0, done.stderr
    assert f"drawn as it stands before line {cut + 1}, a sealed choice" in done.stdout
    line = error_line(run_cli("render", "skirmish", str(view), "-o", str(tmp_path / "w.svg"), "--turn", "99"))
    assert "this seat's view of the game stops on turn" in line and f"at line {cut + 1}" in line


# ---------------------------------------------------------------------- a scenario with several mistakes
def test_a_scenario_with_five_mistakes_lists_all_five(tmp_path: Path) -> None:
    from grognard.rulesets.skirmish.scenario import SCENARIOS_DIR

    text = (SCENARIOS_DIR / "hill_assault.toml").read_text(encoding="utf-8")
    for old, new in [
        ('{ weapon = "smg", type = "officer", at = [8.0, -1.0] }', '{ weapon = "ray_gun", at = [8.0, -1.0] }'),
        ('attacker = "allies"', 'attacker = "martians"'),  # a cross-check: no such side
        ('{ weapon = "smg", type = "officer", at = [38.0, -1.0] }', '{ at = "north" }'),  # a field: not a point
        ('name = "MG team"\nenters = 1', 'name = "MG team"\nenters = -3'),  # a field: below its least
        ("[34.0, 30.5], [34.0, 42.0]", "[500.0, 30.5], [34.0, 42.0]"),  # a cross-check: off the table
    ]:
        assert old in text, old
        text = text.replace(old, new, 1)
    mine = tmp_path / "mine.toml"
    mine.write_text(text, encoding="utf-8")
    done = run_cli("play", "skirmish", str(mine), "--seed", "1")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    listed = done.stderr.splitlines()[1:]
    assert [line.strip() for line in listed] == [
        "units[1].figures[0].at: 'north': Input should be a valid tuple (skirmish.2)",
        "units[2].enters: -3: Input should be greater than or equal to 0 (skirmish.45)",
        "victory.attacker: 'martians': not a side of this scenario (allies, axis) (skirmish.20)",
        'objectives[0].shape: [500.0, 30.5]: off the 48" x 48" table (skirmish.20)',
        "units[0].figures[0].weapon: 'ray_gun': not a weapon in the tables "
        "(rifle, smg, pistol, mg, bazooka, mortar, flame_thrower) (skirmish.24)",
    ]
    assert done.stderr.startswith(f"error: {mine}: 5 problems:")


@pytest.mark.rule("skirmish.2")
def test_the_trials_scenario_lists_its_five_mistakes_at_once_each_naming_its_rule(tmp_path: Path) -> None:
    """Issue 28's file: a table -30" wide, terrain 'lava', a 'phaser', a unit's id twice and a man at x=119.
    It listed the first two, then three more once those were fixed: the table's width not checking stopped
    every other check. Now all five at once, each naming its field and rule; with the width unknown, the man
    is measured against the table as far as its terrain reaches, and the line says so."""
    from grognard.rulesets.skirmish.scenario import SCENARIOS_DIR

    text = (SCENARIOS_DIR / "village_street.toml").read_text(encoding="utf-8")
    text = text.split("\n# The bots' plans")[0]  # the file of issue 28 had no plans (they would name unit B)
    for old, new in [
        ("width = 48.0", "width = -30.0"),
        ('kind = "bushes"', 'kind = "lava"'),
        ('{ weapon = "rifle", at = [14.0, 10.0] }', '{ weapon = "phaser", at = [14.0, 10.0] }'),
        ('id = "B"\n', 'id = "A"\n'),
        ('{ weapon = "rifle", at = [26.0, 9.0] }', '{ weapon = "rifle", at = [119.0, 9.0] }'),
    ]:
        assert old in text, old
        text = text.replace(old, new, 1)
    mine = tmp_path / "trial.toml"
    mine.write_text(text, encoding="utf-8")
    done = run_cli("play", "skirmish", str(mine), "--seed", "1")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"error: {mine}: 5 problems:"), done.stderr
    listed = [line.strip() for line in done.stderr.splitlines()[1:]]
    assert len(listed) == 5, listed
    assert listed[0] == "table.width: -30.0: Input should be greater than 0 (skirmish.2)"
    assert listed[1].startswith("terrain[6].kind: 'lava': unknown terrain") and listed[1].endswith("(skirmish.2)")
    assert listed[2].startswith("units[0].figures[2].weapon: 'phaser': not a weapon in the tables")
    assert listed[2].endswith("(skirmish.24)")
    assert listed[3] == "units[1].id: 'A': used twice (unit names are read in capitals) (skirmish.2)"
    assert listed[4] == (
        'units[1].figures[2].at: [119.0, 9.0]: off the table (table.width does not check, its terrain reaches 48")'
        " (enters = 0 stands on it) (skirmish.2)"
    )
    # fixed but for the width, the other men (at x up to 40 on a 48" table) are not said to be off it
    fixed = text.replace('"phaser"', '"rifle"').replace('"lava"', '"bushes"').replace("[119.0, 9.0]", "[26.0, 9.0]")
    mine.write_text(fixed.replace('id = "A"\nside = "allies"\nname = "2nd', 'id = "B"\nside = "allies"\nname = "2nd'))
    again = run_cli("play", "skirmish", str(mine), "--seed", "1")
    assert again.stderr.splitlines()[1:] == ["  table.width: -30.0: Input should be greater than 0 (skirmish.2)"], (
        again.stderr
    )


def test_a_house_whose_outline_crosses_itself_is_told_that_alone() -> None:
    # a building with doors and windows and a bow-tie outline: one problem, not also "only buildings ... have
    # doors and windows" (it is a building)
    import tomllib

    from grognard.rulesets.skirmish.scenario import SCENARIOS_DIR, check_scenario

    text = (SCENARIOS_DIR / "village_street.toml").read_text(encoding="utf-8")
    old = "shape = [[11.0, 26.0], [19.0, 26.0], [19.0, 34.0], [11.0, 34.0]]"
    assert old in text
    data = tomllib.loads(text.replace(old, "shape = [[11.0, 26.0], [19.0, 34.0], [19.0, 26.0], [11.0, 34.0]]"))
    assert check_scenario(data) == [
        "terrain[2].shape: [[11.0, 26.0], [19.0, 34.0], [19.0, 26.0], [11.0, 34.0]]: the outline crosses itself"
        " (skirmish.2)"
    ]


def test_every_outline_of_the_shipped_scenarios_made_to_cross_itself_is_a_problem_never_a_crash() -> None:
    # two corners of one outline swapped, for every pair of corners of every outline: the landing's bay so
    # made crashed in shapely (GEOSException) on the landing craft's check; now each is a list of problems
    import copy
    import tomllib

    from grognard.rulesets.skirmish.scenario import SCENARIOS_DIR, check_scenario

    def outlines(node: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        found: list[tuple[object, ...]] = []
        if isinstance(node, dict):
            for key, value in node.items():
                found += outlines(value, (*path, key))
        elif isinstance(node, list):
            if len(node) >= 3 and all(isinstance(p, list) and len(p) == 2 for p in node):
                found.append(path)
            for k, value in enumerate(node):
                found += outlines(value, (*path, k))
        return found

    def at(node: object, path: tuple[object, ...]) -> list[object]:
        for key in path:
            node = node[key]  # type: ignore[index]
        assert isinstance(node, list)
        return node

    variants = 0
    for toml in sorted(SCENARIOS_DIR.glob("*.toml")):
        data = tomllib.loads(toml.read_text(encoding="utf-8"))
        for path in outlines(data):
            for i in range(len(at(data, path))):
                for j in range(i + 1, len(at(data, path))):
                    broken = copy.deepcopy(data)
                    shape = at(broken, path)
                    shape[i], shape[j] = shape[j], shape[i]
                    problems = check_scenario(broken, SCENARIOS_DIR)  # raised GEOSException for 8 of them
                    assert all(isinstance(line, str) for line in problems)
                    variants += 1
    assert variants > 300
    bay = tomllib.loads((SCENARIOS_DIR / "landing.toml").read_text(encoding="utf-8"))
    sea = bay["terrain"][0]
    assert sea["kind"] == "bay"
    sea["shape"][0], sea["shape"][1] = sea["shape"][1], sea["shape"][0]
    assert check_scenario(bay, SCENARIOS_DIR) == [
        "terrain[0].shape: [[60.0, 0.0], [0.0, 0.0], [60.0, 12.0], [0.0, 12.0]]: the outline crosses itself"
        " (skirmish.2)"
    ]


def test_a_tables_file_with_field_and_cross_mistakes_lists_them_all() -> None:
    import tomllib

    from grognard.rulesets.skirmish.tables import DEFAULT_TABLES, check_tables

    data = tomllib.loads(DEFAULT_TABLES.read_text(encoding="utf-8"))
    data["artillery"]["heavy_artillery"]["burst"] = "huge"
    del data["men"]["infantry"]
    data["weapons"]["rifle"]["bands"] = "far"
    data["sight"]["base"] = "wide"
    assert check_tables(data) == [
        "weapons.rifle.bands: 'far': Input should be a valid list",
        "sight.base: 'wide': Input should be a valid dictionary or instance of Entry",
        "men: needs an 'infantry' entry (ordinary men)",
        "artillery.heavy_artillery.burst: 'huge' is not a burst class (heavy, medium, light, small)",
    ]


def test_a_scenario_nested_too_deep_is_not_toml_not_a_traceback(tmp_path: Path) -> None:
    """``x = [[[[...`` 100,000 deep: ``grognard play skirmish FILE`` printed a RecursionError traceback (and
    the web's scenario upload, 30,000 deep within its 64 KB, a 500)."""
    from grognard.rulesets.skirmish.schema import ScenarioError
    from grognard.rulesets.skirmish.upload import upload

    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    done = run_cli("play", "skirmish", str(deep), "--seed", "1")
    assert done.returncode == 2 and "Traceback" not in done.stderr and "RecursionError" not in done.stderr
    assert done.stderr.startswith(f"error: {deep}: 1 problem:"), done.stderr
    assert "(file): not TOML: nested too deep" in done.stderr
    with pytest.raises(ScenarioError, match="not TOML: nested too deep"):
        upload("deep.toml", "x = " + "[" * 30_000 + "]" * 30_000)


def test_a_scenario_that_is_a_device_is_named_so_not_missing() -> None:
    """``grognard play skirmish /dev/zero`` said 'no shipped scenario of that name ... and no such file'."""
    done = run_cli("play", "skirmish", "/dev/zero", "--seed", "1")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "'/dev/zero': a device or a pipe, not a scenario file" in done.stderr, done.stderr
    assert "no such file" not in done.stderr
