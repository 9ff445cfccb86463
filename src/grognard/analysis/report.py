"""Reports of a Monte Carlo run: the figures as data, the tables people read, the files and plots."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from grognard.analysis.montecarlo import Plan, Summary
from grognard.analysis.stats import mean, quantile, wilson
from grognard.core.files import AtomicOutput, write_output
from grognard.core.options import OptionSpec
from grognard.core.ruleset import Metric


def figures(summary: Summary, metrics: tuple[Metric, ...]) -> dict[str, Any]:
    """The headline figures: outcome shares with 95% Wilson intervals; quantiles and means of each metric."""
    n = summary.games
    out: dict[str, Any] = {"games": n, "outcomes": {}, "metrics": {}}
    for key, count in sorted(summary.outcomes.items()):
        low, high = wilson(count, n)
        out["outcomes"][key] = {"games": count, "share": count / n if n else 0.0, "low95": low, "high95": high}
    for metric in (Metric("turn", "turn the game ended", "turn"), *metrics):
        histogram = summary.histograms.get(metric.name, Counter())
        out["metrics"][metric.name] = {
            "label": metric.label,
            "kind": metric.kind,
            "games": sum(histogram.values()),
            "never": summary.never.get(metric.name, 0),
            "mean": mean(histogram),
            "q1": quantile(histogram, 0.25),
            "median": quantile(histogram, 0.5),
            "q3": quantile(histogram, 0.75),
            "min": min(histogram) if histogram else None,
            "max": max(histogram) if histogram else None,
        }
    return out


def sparkline(histogram: Counter[int], width: int = 40) -> str:
    """A one-line histogram of integer values (bins merged to fit ``width``)."""
    if not histogram:
        return ""
    low, high = min(histogram), max(histogram)
    span = high - low + 1
    step = max(1, -(-span // width))
    bins = [sum(histogram.get(v, 0) for v in range(start, start + step)) for start in range(low, high + 1, step)]
    blocks = " ▁▂▃▄▅▆▇█"
    top = max(bins)
    return "".join(blocks[min(8, -(-8 * b // top))] if b else " " for b in bins) + f"  ({low}..{high})"


def write_outputs(out: Path, plan: Plan, summary: Summary, metrics: tuple[Metric, ...]) -> list[Path]:
    """summary.json and the plots (PNG, matplotlib) in ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    data = {
        "plan": {
            "ruleset": plan.ruleset,
            "options": dict(plan.options),
            "bots": dict(plan.bots),
            "seed": plan.seed,
            "games": plan.games,
        },
        "figures": figures(summary, metrics),
        "counts": summary.to_json(),
    }
    path = out / "summary.json"
    write_output(path, json.dumps(data, indent=1, default=str))
    written.append(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colours = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"]
    turn_metrics = [m for m in (Metric("turn", "end of the game", "turn"), *metrics) if m.kind == "turn"]
    figure, axes = plt.subplots(figsize=(9, 4.5))
    # curves may coincide (Omaha's game ends with its decisive win): each its own dash, the first one wider,
    # so that one drawn over another still shows both
    styles = ["-", "--", "-.", ":", (0, (5, 1, 1, 1)), (0, (1, 2))]
    for k, (colour, style, metric) in enumerate(zip(colours, styles, turn_metrics, strict=False)):
        histogram = summary.histograms.get(metric.name, Counter())
        if histogram:
            xs = sorted(histogram)
            axes.step(
                xs,
                [histogram[x] / summary.games for x in xs],
                where="mid",
                color=colour,
                linestyle=style,
                linewidth=3.0 if k == 0 else 1.5,
                label=metric.label,
            )
    written.append(
        _finish(
            figure,
            axes,
            out / "turns.png",
            "share of games",
            f"{plan.ruleset}: when things happen ({summary.games} games)",
        )
    )
    figure, axes = plt.subplots(figsize=(9, 4.5))
    for colour, (key, histogram) in zip(colours, sorted(summary.end_turn_by_outcome.items()), strict=False):
        xs = list(range(1, max(histogram) + 1))
        running, ys = 0, []
        for x in xs:
            running += histogram.get(x, 0)
            ys.append(running / summary.games)
        axes.step(xs, ys, where="post", color=colour, label=key)
    axes.set_ylim(0, 1)
    written.append(
        _finish(
            figure,
            axes,
            out / "win_curve.png",
            "share of games over",
            f"{plan.ruleset}: cumulative results by turn ({summary.games} games)",
        )
    )
    return written


def _finish(figure: Any, axes: Any, path: Path, ylabel: str, title: str) -> Path:
    """Label a turn plot, save it as PNG and free it."""
    import matplotlib.pyplot as plt

    axes.set_xlabel("turn")
    axes.set_ylabel(ylabel)
    axes.set_title(title)
    axes.legend(fontsize=8)
    figure.tight_layout()
    try:
        write_output(path, lambda handle: figure.savefig(handle, format="png", dpi=110))
    finally:
        plt.close(figure)
    return path


class TableWriter:
    """Streams per-game rows to a Parquet file chunk by chunk (pyarrow), never holding them all.

    Columns: game, outcome, winner, turn, then each metric (integers; empty where a turn never came).
    The rows go to a temporary file beside ``path``, put in its place by :meth:`close`: a run that fails
    (a full disk) or is killed leaves the file there before, or none; :meth:`discard` drops the rows.
    """

    def __init__(self, path: Path, metrics: tuple[Metric, ...]) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        fields: list[tuple[str, pa.DataType]] = [
            ("game", pa.int64()),
            ("outcome", pa.string()),
            ("winner", pa.string()),
            ("turn", pa.int64()),
        ]
        fields += [(m.name, pa.int64()) for m in metrics]
        self.schema = pa.schema(fields)
        self._output = AtomicOutput(path)
        try:
            self._writer = pq.ParquetWriter(self._output.handle, self.schema)
        except BaseException:
            self._output.discard()
            raise

    def write(self, rows: list[dict[str, Any]]) -> None:
        import pyarrow as pa

        try:
            self._writer.write_table(pa.Table.from_pylist(rows, schema=self.schema))
        except OSError as exc:  # a full disk: named as the file asked for
            raise self._output.failed(exc) from None

    def close(self) -> None:
        """The rows written so far put in place of ``path`` (a whole Parquet file)."""
        try:
            self._writer.close()
        except OSError as exc:
            self._output.discard()
            raise self._output.failed(exc) from None
        except BaseException:
            self._output.discard()
            raise
        self._output.commit()

    def discard(self) -> None:
        """Nothing written: ``path`` left as it was."""
        try:
            self._writer.close()
        except (OSError, ValueError):  # the disk that failed the rows fails their footer too
            pass
        self._output.discard()


def write_sweep(
    out: Path,
    ruleset: str,
    specs: list[OptionSpec],
    outcomes: list[str],
    rows: list[tuple[dict[str, Any], dict[str, Any]]],
) -> None:
    """sweep.csv (a row per grid point: outcome shares with intervals, the median end turn and the mean of
    every metric) and sweep.png (each outcome's share with its interval); the option values as a person
    writes them (``unlimited``, ``on``), as on the command line."""
    axes = [spec.name for spec in specs]
    import csv
    import io

    out.mkdir(parents=True, exist_ok=True)
    with io.StringIO(newline="") as handle:  # the table made in memory, then written whole (write_output)
        writer = csv.writer(handle)
        head = [*axes]
        for key in outcomes:
            head += [f"{key} share", f"{key} low95", f"{key} high95"]
        head += ["games", "median end turn"]
        metrics = [name for name in rows[0][1]["metrics"] if name != "turn"] if rows else []
        head += [f"mean {name}" for name in metrics]
        writer.writerow(head)
        for point, data in rows:
            line: list[Any] = [spec.describe(point[spec.name]) for spec in specs]
            for key in outcomes:
                item = data["outcomes"].get(key, {"share": 0.0, "low95": 0.0, "high95": 0.0})
                line += [f"{item['share']:.6f}", f"{item['low95']:.6f}", f"{item['high95']:.6f}"]
            line += [data["games"], data["metrics"]["turn"]["median"]]
            for name in metrics:
                value = data["metrics"].get(name, {}).get("mean")
                line.append("" if value is None else f"{value:.6f}")
            writer.writerow(line)
        write_output(out / "sweep.csv", handle.getvalue())
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colours = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00"]
    labels = [", ".join(f"{spec.name}={spec.describe(point[spec.name])}" for spec in specs) for point, _ in rows]
    xs = list(range(len(rows)))
    figure, axis = plt.subplots(figsize=(max(6, 0.6 * len(rows) + 3), 4.5))
    for colour, key in zip(colours, outcomes, strict=False):
        shares = [data["outcomes"].get(key, {}).get("share", 0.0) for _, data in rows]
        lows = [data["outcomes"].get(key, {}).get("low95", 0.0) for _, data in rows]
        highs = [data["outcomes"].get(key, {}).get("high95", 0.0) for _, data in rows]
        axis.plot(xs, shares, marker="o", color=colour, label=key)
        axis.fill_between(xs, lows, highs, color=colour, alpha=0.2)
    axis.set_xticks(xs, labels, rotation=30, ha="right", fontsize=8)
    axis.set_ylim(0, 1)
    axis.set_ylabel("share of games (95% interval)")
    axis.set_title(f"{ruleset}: sweep")
    axis.legend(fontsize=8)
    figure.tight_layout()
    try:
        write_output(out / "sweep.png", lambda handle: figure.savefig(handle, format="png", dpi=110))
    finally:
        plt.close(figure)


def write_balance(out: Path, data: dict[str, Any], book: Summary) -> list[Path]:
    """``grognard balance --out``: balance.json (the figures), pairings.png (the first side's win rate in each
    pairing, with its interval), turns.png (the length of the book's games) and, after a sweep, sweep.png
    (the first side's score at each turn limit tried, with the 45-55% band); returns the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    out.mkdir(parents=True, exist_ok=True)
    written = [out / "balance.json"]
    name = data["plan"]["ruleset"] + (
        f" {data['plan']['options']['scenario']}" if "scenario" in data["plan"]["options"] else ""
    )
    write_output(written[0], json.dumps(data, indent=1, default=str))
    side = next(iter(data["pairings"][0]["levels"]))
    labels, shares, lows, highs = [], [], [], []
    for item in data["pairings"]:
        a, b = item["levels"].values()
        won = item["outcomes"].get(f"{side} win", {"share": 0.0, "low95": 0.0, "high95": wilson(0, item["games"])[1]})
        labels.append(f"{a} v {b} ({item['games']})")
        shares.append(won["share"])
        lows.append(won["share"] - won["low95"])
        highs.append(won["high95"] - won["share"])
    figure, axis = plt.subplots(figsize=(8, 1.2 + 0.45 * len(labels)))
    ys = list(range(len(labels)))[::-1]
    axis.barh(ys, shares, xerr=[lows, highs], color="#0072B2", capsize=3)
    axis.axvline(0.5, color="#555555", linestyle=":")
    axis.set_yticks(ys, labels, fontsize=8)
    axis.set_xlim(0, 1)
    axis.set_xlabel(f"{side} win rate (95% interval); {side} level v the other side's (games)")
    axis.set_title(f"{name}: who wins, by pairing")
    written.append(_save(figure, out / "pairings.png"))
    figure, axis = plt.subplots(figsize=(8, 4))
    histogram = book.histograms.get("turn", Counter())
    xs = sorted(histogram)
    axis.bar(xs, [histogram[x] / book.games for x in xs], color="#009E73")
    axis.set_xlabel("turn the game ended")
    axis.set_xlim(min(xs, default=1) - 1, max(xs, default=1) + 1)
    axis.xaxis.set_major_locator(MaxNLocator(integer=True))  # turns are whole: no tick at 1.6
    axis.set_ylabel("share of games")
    axis.set_title(f"{name}: length of the book v book games ({book.games})")
    written.append(_save(figure, out / "turns.png"))
    sweep = data.get("sweep")
    if sweep:
        written.append(_sweep_plot(out / "sweep.png", name, sweep))
    return written


def _save(figure: Any, path: Path) -> Path:
    import matplotlib.pyplot as plt

    figure.tight_layout()
    try:
        write_output(path, lambda handle: figure.savefig(handle, format="png", dpi=110))
    finally:
        plt.close(figure)
    return path


def _sweep_plot(path: Path, ruleset: str, sweep: dict[str, Any]) -> Path:
    """A panel per field swept: the first side's score at each value tried (95%), the 45-55% band."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    figure, panels = plt.subplots(len(sweep["sweeps"]), 1, figsize=(8, 1 + 2.6 * len(sweep["sweeps"])), squeeze=False)
    for axis, item in zip(panels[:, 0], sweep["sweeps"], strict=True):
        values = [float(value) for value in item["tried"]]
        scores = [point["score"] for point in item["tried"].values()]
        below = [score - point["interval"][0] for score, point in zip(scores, item["tried"].values(), strict=True)]
        above = [point["interval"][1] - score for score, point in zip(scores, item["tried"].values(), strict=True)]
        axis.axhspan(0.45, 0.55, color="#cccccc", alpha=0.5, label="50% ± 5")
        axis.errorbar(values, scores, yerr=[below, above], fmt="o", color="#D55E00", capsize=3)
        axis.axvline(item["own"], color="#555555", linestyle=":", label=f"the scenario's own: {item['own']:g}")
        axis.axvline(item["best"], color="#D55E00", linestyle="--", label=f"nearest 50%: {item['best']:g}")
        whose = f" ({item['side_of_field']})" if "side_of_field" in item else ""
        axis.set_xlabel(f"{item['field']}{whose}")
        if item["field"] == "turn_limit":
            axis.xaxis.set_major_locator(MaxNLocator(integer=True))
        axis.set_ylim(0, 1)
        axis.set_ylabel(f"{sweep['side']} score")
        axis.legend(fontsize=7, loc="best")
    panels[0, 0].set_title(f"{ruleset}: the field that evens the game (score: wins and half the draws, 95%)")
    return _save(figure, path)
