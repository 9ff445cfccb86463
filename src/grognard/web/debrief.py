"""The debrief of a finished game: its figures beside a Monte Carlo run of the same options.

The plots are the analysis code's own (``analysis.report.write_outputs``): when things
happen, and the cumulative results by turn, over ``GAMES`` doctrine-against-doctrine
games with the options the class played, so the class sees how its game compares.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from grognard import rulesets
from grognard.analysis.montecarlo import Plan, simulate
from grognard.analysis.report import figures, write_outputs

GAMES = 400
PLOTS = {
    "turns": "Plot: when things happen in these bot games (share of games by turn)",
    "win_curve": "Plot: results of these bot games by turn (cumulative share of games over)",
}


def debrief(ruleset_name: str, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """Lines of text and the PNG plots (name -> bytes) of a Monte Carlo run of ``options``."""
    ruleset = rulesets.get(ruleset_name)
    bots = {side: ruleset.default_bot for side in ruleset.sides}
    plan = Plan(ruleset.name, ruleset.resolve(options), bots, seed % 2**32, GAMES)
    summary = simulate(plan)
    data = figures(summary, ruleset.metrics)
    lines = [f"Compared with {GAMES} games of {ruleset.default_bot} bots against each other on the same table:"]
    for outcome, row in data["outcomes"].items():
        low, high = row["low95"] * 100, row["high95"] * 100
        lines.append(f"{outcome}: {row['share'] * 100:.0f}% of games (95% interval {low:.0f}-{high:.0f}%)")
    for metric in data["metrics"].values():
        if metric["median"] is not None:
            lines.append(f"{metric['label']}: median {metric['median']:g}, quartiles {metric['q1']:g}-{metric['q3']:g}")
    plots: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory() as folder:
        for path in write_outputs(Path(folder), plan, summary, ruleset.metrics):
            if path.suffix == ".png" and path.stem in PLOTS:
                plots[path.stem] = path.read_bytes()
    return {"lines": lines, "plots": plots}
