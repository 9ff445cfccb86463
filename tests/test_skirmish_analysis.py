"""Skirmish analysis: the melee round's exact odds (one mechanic for odds and the doctrine), and simulate and
sweep over both shipped scenarios with the melee and objective metrics."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from grognard.cli import main
from grognard.core.dice import SeededDice
from grognard.rulesets.skirmish.actions import Move
from grognard.rulesets.skirmish.mechanics import MeleeRound, aims
from test_skirmish_rules import fig, fire, make, scenario, unit


def probabilities(m: MeleeRound) -> dict[str, Fraction]:
    die = m.distribution()
    return {str(o): Fraction(int(q), int(die.denominator())) for o, q in die.items()}


@pytest.mark.rule("skirmish.69")
def test_the_first_round_odds_one_against_one_are_exact() -> None:
    p = probabilities(MeleeRound(1, 1))
    # the attacker hits (4+: 1/2): the defender dies outright; else the defender strikes (1/2) and the
    # attacker dies unless he rolls 5-6 (2/3 dies); both missing (1/4) leads to the secret stay/retreat
    assert p == {
        "0 att., 1 def. dead": Fraction(1, 2),
        "1 att., 0 def. dead": Fraction(1, 6),
        "0 att., 0 def. dead": Fraction(1, 12),
        "both missed: stay or retreat": Fraction(1, 4),
    }


@pytest.mark.rule("skirmish.70")
def test_the_later_round_odds_allow_survival_and_the_dead_strike_back() -> None:
    p = probabilities(MeleeRound(1, 1, first=False))
    # each side: hit 1/2, dies 2/3 of those: 1/3 dead each, independently (the dead strike back)
    assert p["1 att., 1 def. dead"] == Fraction(1, 9)
    assert p["both missed: stay or retreat"] == Fraction(1, 4)
    assert MeleeRound(1, 1, first=False).expected() == (Fraction(1, 3), Fraction(1, 3))
    # two on one: a second hit on the one kills outright (skirmish.7): 1/4 + 1/2 * 2/3 = 7/12
    assert MeleeRound(2, 1, first=False).expected()[1] == Fraction(7, 12)
    assert aims(5, 2) == [3, 2] and aims(2, 3) == [1, 1, 0]


def first_round_in_the_game(seed: int) -> str:
    """G.1 charges A.1 and A.2 (all three touch); the first round's dead, as MeleeRound labels them."""
    game = make(scenario([unit("A", "allies", fig(10, 10), fig(11, 10)), unit("G", "axis", fig(10.5, 12.5))]))
    game.apply("Allies", Move("A"))
    game.apply("Axis", Move("G", ((10.5, 10.87),)))
    game.dice = SeededDice(seed)
    events = fire(game)
    kinds = [e.kind for e in events]
    start = kinds.index("melee_round")
    end = next(i for i in range(start + 1, len(kinds)) if kinds[i] in ("melee_round", "melee_over", "melee_both_miss"))
    if kinds[end] == "melee_both_miss":
        return "both missed: stay or retreat"
    dead = [e.data["figure"] for e in events[start:end] if e.kind == "killed"]
    att = sum(1 for f in dead if f.startswith("G"))
    return f"{att} att., {len(dead) - att} def. dead"


@pytest.mark.rule("skirmish.69")
def test_the_game_fights_a_first_round_as_the_mechanic_gives_its_odds() -> None:
    n = 600
    seen = Counter(first_round_in_the_game(seed) for seed in range(n))
    for outcome, p in probabilities(MeleeRound(1, 2)).items():
        se = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(seen[outcome] / n - float(p)) <= 4 * se + 1e-9, (outcome, seen[outcome], p)
    assert set(seen) <= set(probabilities(MeleeRound(1, 2)))


def test_the_mechanic_rolls_as_it_gives_its_odds() -> None:
    n = 3000
    for m in (MeleeRound(2, 3), MeleeRound(3, 2, first=False)):
        dice = SeededDice(5)
        die = m.outcomes()
        rolled = Counter(m.roll(dice, "melee") for _ in range(n))
        for outcome, q in die.items():
            p = int(q) / int(die.denominator())
            se = (p * (1 - p) / n) ** 0.5
            key = (int(outcome[0]), int(outcome[1]), int(outcome[2]))
            assert abs(rolled[key] / n - p) <= 4 * se + 1e-9, (m, key)


def test_odds_print_the_melee_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "skirmish", "--json"]) == 0
    tables = {t["name"]: t for t in json.loads(capsys.readouterr().out)["tables"]}
    first = tables["melee_first_round"]
    assert first["rule"] == "skirmish.69" and [r["parameter"] for r in first["rows"]][:3] == ["1 v 1", "2 v 1", "1 v 2"]
    one = {o["outcome"]: o["probability"] for o in first["rows"][0]["outcomes"]}
    assert one["0 att., 1 def. dead"] == "1/2" and one["both missed: stay or retreat"] == "1/4"
    assert tables["melee_later_round"]["rule"] == "skirmish.70"


@pytest.mark.parametrize("name", ["hill_assault", "village_street"])
def test_simulate_reports_losses_objectives_turns_and_melees_for_either_scenario(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["simulate", "skirmish", "-n", "3", "--jobs", "1", "--seed", "2", "-o", f"scenario={name}"]
    assert main([*args, "-o", "turn_limit=4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["plan"]["options"]["scenario"] == name
    metrics = data["figures"]["metrics"]
    for metric in ("turn", "allies_lost", "axis_lost", "melees", "melee_rounds", "allies_objectives", "first_melee"):
        assert metrics[metric]["games"] + metrics[metric]["never"] == 3, metric
    assert metrics["turn"]["max"] <= 4 and metrics["allies_objectives"]["max"] <= 1


def test_sweep_runs_both_scenarios(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["sweep", "skirmish", "-o", "scenario=hill_assault,village_street", "-o", "turn_limit=2"]
    assert main([*args, "-n", "2", "--jobs", "1", "--out", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "village_street" in text and "hill_assault" in text
    rows = (tmp_path / "sweep.csv").read_text().splitlines()
    assert len(rows) == 3 and "mean melees" in rows[0] and "mean allies_objectives" in rows[0]
    assert "Means at each point" in text and "allied men lost" in text
