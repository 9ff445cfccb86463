"""``grognard odds RULESET``: ``--exact`` prints fractions, ``--json`` every figure with its key, ``--what NAME``
one table or one figure, an unknown NAME one line listing the names; and the composites' exact figures."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from grognard.analysis.odds import odds_figures
from grognard.cli import main
from terminal_driver import run_in_pty

RULESETS = ("omaha", "b17", "skirmish")


def odds(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["odds", *args]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_json_gives_every_figure_a_unique_key_and_each_row_sums_to_one(
    ruleset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    tables = json.loads(odds(capsys, ruleset, "--json"))["tables"]
    keys = [item["key"] for t in tables for row in t["rows"] for item in row["outcomes"]]
    keys += [row["mean"]["key"] for t in tables for row in t["rows"] if row["mean"]]
    assert len(keys) == len(set(keys)) == len(odds_figures(tables))
    for t in tables:
        for row in t["rows"]:
            assert sum(Fraction(i["probability"]) for i in row["outcomes"]) == 1, (t["name"], row["parameter"])
            if "at_most" in row["outcomes"][0]:
                assert Fraction(row["outcomes"][-1]["at_most"]) == 1
            for item in row["outcomes"]:
                assert item["key"].startswith(f"{t['name']}/")
                assert abs(float(Fraction(item["probability"])) - item["decimal"]) < 1e-6


def test_exact_prints_fractions_and_the_default_decimals(capsys: pytest.CaptureFixture[str]) -> None:
    text = odds(capsys, "omaha", "--what", "shooting", "--exact")
    assert "Defenders killed" in text and "203/23328" in text  # 6 shooters at 4 left: 4 kills or more, capped at 4
    assert "0.0087" in odds(capsys, "omaha", "--what", "shooting")


def test_what_prints_one_table_or_one_figure(capsys: pytest.CaptureFixture[str]) -> None:
    text = odds(capsys, "omaha", "--what", "assault")
    assert "Assault destroys" in text and "Morale" not in text and "Defenders killed" not in text
    assert odds(capsys, "omaha", "--what", "shots_to_empty/1/mean") == "shots_to_empty/1/mean: 24.0000\n"
    assert odds(capsys, "omaha", "--what", "shooting/4 left, 6/4", "--exact") == "shooting/4 left, 6/4: 203/23328\n"
    figure = json.loads(odds(capsys, "b17", "--what", "attacks_to_down/plain/12+", "--json"))
    assert figure["key"] == "attacks_to_down/plain/12+" and figure["outcome"] == "12+"
    assert Fraction(figure["probability"]) == Fraction(figure["at_most"]) - Fraction(
        json.loads(odds(capsys, "b17", "--what", "attacks_to_down/plain/11", "--json"))["at_most"]
    )
    tables = json.loads(odds(capsys, "skirmish", "--what", "shots_to_kill", "--json"))["tables"]
    assert [t["name"] for t in tables] == ["shots_to_kill"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_unknown_name_is_one_line_listing_the_names(ruleset: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", ruleset, "--what", "nothing_such"]) == 2
    out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.strip()]
    assert out == "" and len(lines) == 1, err
    assert "--what 'nothing_such'" in lines[0] and "Traceback" not in err
    names = [t["name"] for t in json.loads(odds(capsys, ruleset, "--json"))["tables"]]
    assert all(name in lines[0] for name in names)


def test_the_composites_exact_figures_checked_by_hand(capsys: pytest.CaptureFixture[str]) -> None:
    figures = odds_figures(json.loads(odds(capsys, "omaha", "--json"))["tables"])
    # one figure shooting at four defenders: 24 turns on average (a six a turn, 4 needed)
    assert Fraction(figures["shots_to_empty/1/mean"]["exact"]) == 24
    assert Fraction(figures["assaults_to_take/2/mean"]["exact"]) == Fraction(36, 11)
    # deep water: drowned men per landing average 12 * 1/6 * 1/6
    assert Fraction(figures["deep_water_landing//mean"]["exact"]) == Fraction(1, 3)
    # four sections of a one-German beach: no obstacle at all is (1/6)^4
    assert Fraction(figures["beach_obstacles/1 (4 sections)/0"]["probability"]) == Fraction(1, 1296)
    b17 = odds_figures(json.loads(odds(capsys, "b17", "--json"))["tables"])
    assert Fraction(b17["bomb_load/1/mean"]["exact"]) == Fraction(8, 3)  # 4 rolls of 2/3 hits
    assert Fraction(b17["bomb_load/8/mean"]["exact"]) == Fraction(64, 3)
    # flak destroys a bomber 9/36 of the time (the AA die twice the bomber's or more): it drops nothing
    assert Fraction(b17["bomb_load_flak/1/mean"]["exact"]) == Fraction(8, 3) * Fraction(3, 4)
    assert Fraction(b17["attack/plain, 4 engines out/destroyed"]["probability"]) == Fraction(15, 36)
    skirmish = odds_figures(json.loads(odds(capsys, "skirmish", "--json"))["tables"])
    # rifle at 0-12" in cover: 4+ with one off the die (a 5 or a 6: 1/3), dies on 1-4 (2/3): 2/9 a turn
    assert Fraction(skirmish['shots_to_kill/rifle 0-12"/mean']["exact"]) == Fraction(9, 2)
    assert Fraction(skirmish["structure_damage/3/3"]["probability"]) == Fraction(35, 36)


@pytest.mark.parametrize("columns", [80, 120])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_figure_is_printed_whole_in_an_ordinary_terminal(
    ruleset: str, columns: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """In a terminal 80 or 120 columns wide no figure is cut to ``0…``: a table too wide is printed in parts,
    each no wider than the terminal, and the figures printed are exactly those of --json, each once."""
    code, shown = run_in_pty("odds", ruleset, columns=columns)
    assert code == 0, shown[-2000:]
    assert shown.count("…") == 0, [line for line in shown.splitlines() if "…" in line][:5]
    assert max(len(line) for line in shown.splitlines()) <= columns
    assert "continued" in shown  # some table was too wide for the terminal, at 80 columns and at 120
    printed = sorted(
        float(figure)
        for line in shown.splitlines()
        if line.startswith("│")
        for figure in re.findall(r"(?<![\w/.])\d+\.\d{4}(?![\w/.])", line)
    )
    expected = []
    for table in json.loads(odds(capsys, ruleset, "--json"))["tables"]:
        for row in table["rows"]:
            expected += [item["decimal"] for item in row["outcomes"]]
            expected += [float(Fraction(item["at_most"])) for item in row["outcomes"] if table.get("cumulative")]
            expected += [row["mean"]["decimal"]] if row["mean"] else []
    assert printed == sorted(float(f"{value:.4f}") for value in expected)


def test_an_exact_fraction_wider_than_the_terminal_folds_onto_lines_whole() -> None:
    """--exact's fractions of twelve figures' turns run past 80 columns: such a figure folds onto a second line
    of its cell, never cut to ``…``, and every line stays inside the terminal."""
    code, shown = run_in_pty("odds", "omaha", "--exact", "--what", "shots_to_empty", columns=80)
    assert code == 0, shown[-2000:]
    assert "…" not in shown and max(len(line) for line in shown.splitlines()) <= 80
    assert "figures" in shown and "shooting" in shown  # the first column's heading whole, wrapped at its space
    folded = re.search(r"│ +12 │ 725934764242847450077533721923828125/(\d+) │\n│ +│ +(\d+) │", shown)
    assert folded is not None, shown[-3000:]
    assert int(folded[1] + folded[2]) % 6 == 0  # a power of six once its two halves are put together


def test_the_composites_take_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    """``-o drowned_morale=off`` once printed the default's deep_water_morale: now the drowned count for nothing,
    and only a squad wholly drowned (the landing's 6, then twelve sixes: 1 in 6^13) goes back."""
    key = "deep_water_morale//True"
    default = odds(capsys, "omaha", "--what", key, "--exact")
    assert default == f"{key}: 6069118466371619/197432555763400704\n"
    assert odds(capsys, "omaha", "-o", "drowned_morale=off", "--what", key, "--exact") == f"{key}: 1/{6**13}\n"
    text = odds(capsys, "omaha", "-o", "drowned_morale=off", "--what", "deep_water_morale")
    assert "drowned_morale off" in " ".join(text.split())


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_odds_help_lists_every_option_value_that_changes_the_odds(ruleset: str) -> None:
    """``grognard odds --help`` names each reading whose odds differ from the defaults' (found from the tables)."""
    from grognard import rulesets
    from grognard.cli_odds import ODDS_OPTIONS, OPTION_HELP
    from odds_check import option_cases

    r = rulesets.get(ruleset)
    specs = {spec.name: spec for spec in r.options}
    found = {
        f"{option}={specs[option].describe(value)}" for option, value, _ in option_cases(r, r.analysis.odds_tables)
    }
    assert set(ODDS_OPTIONS[ruleset]) == found
    assert all(value in " ".join(OPTION_HELP.split()) for value in found)
