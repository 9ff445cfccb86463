"""Who is winning, at the terminal: ``grognard play ... --show-odds`` and ``grognard analyse GAME.jsonl``.

Both use :func:`grognard.analysis.winprob.win_probability` (playouts of the doctrine from the position, as
one seat may see it). ``analyse`` replays a record (every digest checked), estimates the chances at the
start of every turn and at the end, prints the curve (turn, P, 95% interval) and its turning points (the
turns in which the chance moved most, with what happened in them), and with ``--png FILE`` draws it.
Bad input (no such file, not a record, a bad ``--png`` path) is one ``error:`` line and exit code 2.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress, TextColumn, TimeElapsedColumn

from grognard import rulesets
from grognard.analysis.winprob import DEFAULT_PLAYOUTS, WinProbability, win_probability
from grognard.cli_common import FORCE_HELP, check_output, check_seed, whole_number
from grognard.core.engine import Event, Game
from grognard.core.errors import OptionError, RecordError, TornRecord
from grognard.core.files import write_output
from grognard.core.record import read_lines, replay
from grognard.core.ruleset import Ruleset
from grognard.terminal import one_seat

__all__ = ["Curve", "OddsEachTurn", "analyse_record", "play_parameters", "register", "seat_for_odds"]

TURNING_POINTS = 3


# ---------------------------------------------------------------------- play --show-odds
def play_parameters() -> list[inspect.Parameter]:
    """The flags ``grognard play RULESET`` takes for the odds: ``--show-odds`` and ``--odds-playouts N``."""
    keyword = inspect.Parameter.KEYWORD_ONLY
    return [
        inspect.Parameter(
            "show_odds",
            keyword,
            annotation=bool,
            default=typer.Option(
                False,
                "--show-odds",
                help="each side's chance to win (doctrine playouts) every turn",
                rich_help_panel="Output",
            ),
        ),
        inspect.Parameter(
            "odds_playouts",
            keyword,
            annotation=int,
            default=typer.Option(
                DEFAULT_PLAYOUTS,
                "--odds-playouts",
                metavar="N",
                help="playouts an estimate of --show-odds",
                parser=whole_number,
                rich_help_panel="Output",
            ),
        ),
    ]


def check_playouts(playouts: int, flag: str) -> None:
    if not 1 <= playouts <= 100_000:
        raise OptionError(f"{flag} {playouts}: between 1 and 100000 playouts")


def seat_for_odds(game: Game, humans: set[str]) -> str | None:
    """Whose view the terminal's odds use: the people's first seat when they all play one side, else a
    spectator's (hot seat across sides: neither side's secret may show)."""
    sides = {game.side_of(seat) for seat in humans}
    return sorted(humans)[0] if len(sides) == 1 else None


class OddsEachTurn:
    """Wraps a play session's event handler: at each new turn, prints the chances from the position then.

    ``game()`` gives the game being played (it changes on 'undo'); the estimate is for ``seat``. The
    playouts run on a background thread from a clone taken at the turn's start, so play goes on while
    they run; each turn's line is printed when ready, in turn order. ``wait()`` (the end of a session)
    lets the estimates still queued finish.
    """

    def __init__(
        self,
        inner: Callable[[list[Event]], None],
        game: Callable[[], Game],
        console: Console,
        seat: str | None,
        playouts: int,
        seed: int,
    ) -> None:
        self.inner, self.game, self.console = inner, game, console
        self.seat, self.playouts, self.seed = seat, playouts, seed
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="odds")

    def __call__(self, events: list[Event]) -> None:
        self.inner(events)
        if any(e.kind == "turn" and e.to is None for e in events):
            game = self.game()
            if game.is_over:
                return
            self.worker.submit(self._estimate, game.clone())

    def _estimate(self, game: Game) -> None:
        odds = win_probability(game, self.seat, playouts=self.playouts, seed=self.seed + game.turn)
        self.console.print(f"[dim]odds at the start of turn {game.turn}:[/dim] {escape(odds.line())}")

    def wait(self) -> None:
        """Let every estimate asked for finish (printed), then stop the worker."""
        self.worker.shutdown(wait=True)


# ---------------------------------------------------------------------- analyse
@dataclass
class Curve:
    """The chances through a recorded game: one estimate at the start of each turn, and one at the end.

    ``happened[turn]`` holds the lines for people about that turn (the rule set's summary of its events);
    ``ended``: the last point is the game's end (its result), not the start of a turn.
    """

    ruleset: Ruleset
    seat: str | None
    points: list[WinProbability] = field(default_factory=list)
    happened: dict[int, list[str]] = field(default_factory=dict)
    ended: bool = False

    def label(self, index: int) -> str:
        """The point's name: its turn, or ``end``."""
        return "end" if self.ended and index == len(self.points) - 1 else str(self.points[index].turn)

    def xs(self) -> list[float]:
        """Where the points stand on a turn axis (the end half a turn after the last start)."""
        out = [float(p.turn) for p in self.points]
        if self.ended and len(out) > 1:
            out[-1] = out[-2] + 0.5
        return out

    @property
    def side(self) -> str:
        """The side the curve follows (the rule set's first)."""
        return self.ruleset.sides[0]

    def turning_points(self, count: int = TURNING_POINTS) -> list[tuple[WinProbability, WinProbability]]:
        """The ``count`` steps of the curve where the first side's chance moved most, in game order:
        (before, after) pairs; what moved it happened in ``before.turn``."""
        steps = list(zip(self.points, self.points[1:], strict=False))
        largest = sorted(steps, key=lambda s: -abs(s[1].p(self.side) - s[0].p(self.side)))[:count]
        return sorted((s for s in largest if s[1].p(self.side) != s[0].p(self.side)), key=lambda s: s[0].turn)


def analyse_record(
    path: Path,
    *,
    seat: str | None = None,
    playouts: int = DEFAULT_PLAYOUTS,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> Curve:
    """Replay the record at ``path`` and estimate the chances at the start of every turn and at the end.

    Raises ``RecordError`` for a file that is missing or not a valid record (naming the file), ``OptionError``
    for a seat the game lacks; a last line cut short (a crash while it was written) is left out.
    ``progress(turn)`` is told of each turn as its estimate begins.
    """
    starts: list[Game] = []

    def at_action(game: Game) -> bool:
        if not starts or starts[-1].turn != game.turn:
            starts.append(game.clone())
        return False

    torn = False
    try:
        try:
            rebuilt = replay(path, rulesets.get, until=at_action)
        except TornRecord:  # a crash while the last line was written: the lines before it still hold
            starts.clear()
            torn = True
            rebuilt = replay(path, rulesets.get, until=at_action, drop_torn=True)
        lines = read_lines(path, drop_torn=torn)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None
    game = rebuilt.game
    ruleset = rulesets.get(game.ruleset)
    if seat is not None:  # a name, a short label (G1) or a side of one seat, as play's --human reads it
        seat = one_seat(seat, game)
    curve = Curve(ruleset, seat, happened=_happened(ruleset, lines, seat))
    positions = [*starts, game] if game.is_over or not starts or starts[-1].turn != game.turn else starts
    curve.ended = game.is_over
    for position in positions:
        if progress is not None:
            progress(position.turn)
        curve.points.append(win_probability(position, seat, playouts=playouts, seed=seed))
    return curve


def _happened(ruleset: Ruleset, lines: Sequence[dict[str, Any]], seat: str | None) -> dict[int, list[str]]:
    """Each turn's lines for people, from the events ``seat`` may see."""
    turns: dict[int, list[Event]] = {}
    turn = 0
    for line in lines[1:]:
        for data in line.get("events", []):
            event = Event.from_json(data)
            if not event.visible_to(seat):
                continue
            if event.kind == "turn":
                turn = int(event.data.get("turn", turn))
                continue
            turns.setdefault(turn, []).append(event)
    out: dict[int, list[str]] = {}
    for number, events in turns.items():
        out[number] = ruleset.rules.summarize_turn(events)
    return out


def check_png(png: Path | None) -> None:
    """A ``--png`` path must end in .png and lie in a folder that is there and writable."""
    if png is None:
        return
    if png.suffix.lower() != ".png":
        raise OptionError(f"--png {str(png)!r}: the picture's name must end in .png")
    folder = png.parent if str(png.parent) else Path(".")
    if not folder.is_dir():
        raise OptionError(f"--png {str(png)!r}: there is no folder {str(folder)!r}")
    if png.is_dir() or not os.access(folder, os.W_OK):
        raise OptionError(f"--png {str(png)!r}: cannot write there")


def draw_curve(curve: Curve, png: Path) -> None:
    """The curve as a PNG: each side's chance by turn with its 95% band; the turning points marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(8, 4.5), dpi=100)
    turns = curve.xs()
    for side in curve.ruleset.sides:
        shares = [100 * p.p(side) for p in curve.points]
        low = [100 * p.interval(side)[0] for p in curve.points]
        high = [100 * p.interval(side)[1] for p in curve.points]
        axes.plot(turns, shares, marker="o", label=side)
        axes.fill_between(turns, low, high, alpha=0.2)
    where = {id(point): x for point, x in zip(curve.points, turns, strict=True)}
    for before, after in curve.turning_points():
        axes.axvspan(where[id(before)], where[id(after)], color="grey", alpha=0.15)
    if curve.ended:
        axes.annotate("end", (turns[-1], 100), ha="center", va="bottom", fontsize=8)
    axes.set_xlabel("turn (the chance at its start; grey: the turning points)")
    axes.set_ylabel("chance to win (%)")
    axes.set_ylim(0, 100)
    who = curve.seat or "a spectator"
    axes.set_title(f"{curve.ruleset.title}: who is winning, as {who} sees it")
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    figure.tight_layout()
    try:
        write_output(png, lambda handle: figure.savefig(handle, format="png"))  # whole, or the old file kept
    except OSError as exc:
        raise OptionError(f"--png {str(png)!r}: {exc.strerror or exc}") from None
    finally:
        plt.close(figure)


def print_curve(curve: Curve, console: Console) -> None:
    """The curve as a table (turn, each side's P and interval) and its turning points with what happened."""
    sides = curve.ruleset.sides
    console.print("turn  " + "  ".join(f"{side:<20}" for side in sides) + "  playouts")
    for index, point in enumerate(curve.points):
        cells = []
        for side in sides:
            low, high = point.interval(side)
            cells.append(f"{100 * point.p(side):>3.0f}% [{100 * low:.0f}, {100 * high:.0f}]".ljust(20))
        console.print(f"{curve.label(index):>4}  " + "  ".join(cells) + f"  {point.playouts}")
    turning = curve.turning_points()
    if not turning:
        console.print("turning points: none (the chances never moved)")
        return
    console.print(f"turning points (the chance that {curve.side} wins):")
    for before, after in turning:
        move = 100 * (after.p(curve.side) - before.p(curve.side))
        console.print(
            f"  turn {before.turn}: {100 * before.p(curve.side):.0f}% -> {100 * after.p(curve.side):.0f}% ({move:+.0f})"
        )
        for text in curve.happened.get(before.turn, [])[:4]:
            console.print(f"    {escape(text)}")


def analyse_command(
    record: Annotated[Path, typer.Argument(metavar="GAME.jsonl", help="a game record")],
    seat: Annotated[
        str | None,
        typer.Option("--seat", help="estimate as this seat sees the game (e.g. G1 or 'German 1'; default: spectator)"),
    ] = None,
    playouts: Annotated[
        int, typer.Option("--playouts", metavar="N", help="playouts per estimate", parser=whole_number)
    ] = DEFAULT_PLAYOUTS,
    seed: Annotated[int, typer.Option("--seed", help="seed of the playouts", parser=whole_number)] = 0,
    png: Annotated[Path | None, typer.Option("--png", metavar="FILE", help="draw the curve to this PNG")] = None,
    force: Annotated[bool, typer.Option("--force", help=FORCE_HELP)] = False,
    coach: Annotated[
        bool,
        typer.Option(
            "--coach",
            help="each decision of --seat's seats (or the record's people) beside the hard bot's, with what it "
            "cost; --playouts: pairs per decision",
        ),
    ] = False,
) -> None:
    """Who was winning, turn by turn: each side's chance (doctrine playouts) through a saved game, with its
    turning points; with --coach, what each decision a person made cost beside the hard bot's."""
    check_playouts(playouts, "--playouts")
    if coach:
        if png is not None:
            raise OptionError("--png draws the curve; --coach prints a table: use one or the other")
        check_seed(seed)
        from grognard.cli_coach import coach_command

        coach_command(record, seat, playouts, seed)
        return
    check_png(png)
    if png is not None:
        check_output(png, force, "--png")
    check_seed(seed)
    console = Console(highlight=False, soft_wrap=True)
    errors = Console(stderr=True)
    if not errors.is_terminal:
        curve = analyse_record(record, seat=seat, playouts=playouts, seed=seed)
    else:  # a line saying which turn is being played out, gone once the curve is printed
        with Progress(TextColumn("{task.description}"), TimeElapsedColumn(), console=errors, transient=True) as bar:
            task = bar.add_task("replaying the record", total=None)

            def at_turn(turn: int) -> None:
                bar.update(task, description=f"playing out turn {turn}, {playouts} playouts")

            curve = analyse_record(record, seat=seat, playouts=playouts, seed=seed, progress=at_turn)
    print_curve(curve, console)
    if png is not None:
        draw_curve(curve, png)
        console.print(f"drew the curve to {png}")


def register(app: typer.Typer) -> None:
    """Add ``grognard analyse`` to the command line."""
    app.command("analyse")(analyse_command)
