"""One game at the terminal, ``grognard play``'s run: started afresh or resumed from its record, played by bots
and people (:class:`grognard.terminal.Session`), written line by line, its result printed.

The steps, each a function: :func:`_settle` checks the flags and reads a resumed record's header; :func:`_begin`
makes a fresh game (its banner, its record's header) or :func:`_reopen` takes the record's game on; :func:`_play`
runs it with the printer and the typed dice hooked up; :func:`_close_record` and :func:`_report` end it.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np
import typer
from rich.console import Console
from rich.markup import escape

from grognard import cli_analyse, rulesets
from grognard.analysis.winprob import DEFAULT_PLAYOUTS
from grognard.bots import ladder
from grognard.cli_bots import check_bots_and_people, parse_bots
from grognard.cli_common import check_seed, shown_options
from grognard.core import plans
from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.engine import Event, Game
from grognard.core.errors import OptionError, RecordError, TornRecord
from grognard.core.record import (
    RecordWriter,
    Replay,
    StepCounter,
    drop_torn_line,
    ended_words,
    make_header,
    replay,
    sync_file,
)
from grognard.core.ruleset import Ruleset
from grognard.terminal import Prompter, Quit, Session, TypedDice, parse_humans

INTERRUPTED = 130  # the exit code of a program stopped by Ctrl-C (128 + SIGINT)


def game_streams(seed: int) -> tuple[SeededDice, np.random.Generator]:
    """The dice and the bots' generator of a seeded game: two independent streams of one seed."""
    return SeededDice(stream(seed, DICE)), np.random.default_rng(stream(seed, BOTS))


def run_play(ruleset: Ruleset, given: dict[str, Any], **given_flags: Any) -> None:
    """Play one game at the terminal (:func:`_run_play`); a record that cannot be written (a full disk) stops
    the game with one line naming the file and the command that goes on with it."""
    saved = given_flags.get("record") or given_flags.get("resume")
    try:
        _run_play(ruleset, given, **given_flags)
    except OSError as exc:
        if saved is None or exc.filename != str(saved):
            raise
        raise RecordError(
            f"cannot write the record {saved} ({exc.strerror}); the game is saved up to its last whole line: "
            f"make room, then continue with: grognard play {ruleset.name} --resume {saved}"
        ) from None


@dataclass
class _Setup:
    """What a game starts from: the command's flags, or, resumed, its record's header (``resumed``)."""

    options: dict[str, Any]
    seed: int
    dice: str
    chosen: dict[str, str]  # {side: bot name}
    human: str | None  # the sides or seats people play, as given
    resumed: Replay | None
    plan: str | None = None  # -o plan=random|NAME[,NAME]: the bots' plans (grognard.core.plans)


@dataclass
class _Opened:
    """A game ready to run: its record's writer and file (``sink``, None: kept in memory), the seats people play,
    the printer that has shown the setup's events as they were rolled (typed dice), and the events so far."""

    game: Game
    writer: RecordWriter | StepCounter  # in memory too: 'undo' replays it
    sink: IO[str] | None
    humans: set[str]
    early: _TurnPrinter | None
    start_events: list[Event]
    plans: dict[str, plans.Plan]  # side -> the plan its bots follow (kept secret until the reveal)


def _run_play(
    ruleset: Ruleset,
    given: dict[str, Any],
    *,
    seed: int | None,
    human: str | None,
    dice: str,
    bots: Sequence[str] | None,
    record: Path | None,
    resume: Path | None,
    verbose: bool,
    quiet: bool,
    show_odds: bool = False,
    odds_playouts: int = DEFAULT_PLAYOUTS,
    explain: bool = False,
) -> None:
    """Play one game at the terminal; raises GrognardError on bad input before anything is played."""
    cli_analyse.check_playouts(odds_playouts, "--odds-playouts")
    console = Console(highlight=False, soft_wrap=True)
    prompter = Prompter(console)
    if dice not in ("seeded", "manual"):
        raise OptionError(f"--dice {dice!r}: expected seeded or manual")
    if verbose and quiet:
        raise OptionError("--verbose and --quiet together: choose one (-v prints every event, -q only the result)")
    check_seed(seed)
    setup = _settle(ruleset, given, seed, human, dice, bots, record, resume, prompter)
    if setup is None:
        return
    seeded = game_streams(setup.seed)[0] if setup.dice == "seeded" else None
    source: SeededDice | TypedDice = seeded if seeded is not None else TypedDice(prompter)
    if setup.resumed is not None and resume is not None:
        opened = _reopen(ruleset, setup, resume, bots or (), source, console, quiet)
    else:
        opened = _begin(ruleset, setup, record, bots or (), source, console, quiet)
    if opened is None:
        return
    try:
        game, result, interrupted = _play(
            ruleset, setup, opened, source, prompter, console, verbose, quiet, show_odds, odds_playouts, explain
        )
    except BaseException:
        if opened.sink is not None:
            _close_failing(opened.sink)
        raise
    if opened.sink is not None:
        _close_record(opened.sink)
    _report(ruleset, game, result, interrupted, record, resume, setup.seed, console, quiet)


def _settle(
    ruleset: Ruleset,
    given: dict[str, Any],
    seed: int | None,
    human: str | None,
    dice: str,
    bots: Sequence[str] | None,
    record: Path | None,
    resume: Path | None,
    prompter: Prompter,
) -> _Setup | None:
    """The game's options, seed, dice, bots and people: from the flags, or from the record ``--resume`` names,
    where a flag may only agree with it (``OptionError`` naming the flag). None: a resumed record's cut last
    line was not to be dropped, so nothing is played."""
    if resume is None:
        given = dict(given)
        plan = given.pop("plan", None)  # the bots', not the game's: never in the header (it is a secret)
        options = ruleset.resolve(given)
        chosen = parse_bots(ruleset, bots or ())
        return _Setup(options, secrets.randbits(32) if seed is None else seed, dice, chosen, human, None, plan)
    if given:
        raise OptionError(f"--resume: the options come from the record, not the command line ({', '.join(given)})")
    if record is not None:
        raise OptionError("--resume writes on to its own file; leave out --record")
    resumed = _resume_replay(resume, prompter)
    if resumed is None:
        return None
    header = resumed.header
    if resumed.ended is not None:  # nothing may follow its end line: the file is left as it is
        raise OptionError(f"--resume {str(resume)!r}: the game was {ended_words(resumed.ended)}; it cannot go on")
    if header.get("ruleset") != ruleset.name:
        raise OptionError(
            f"--resume {str(resume)!r}: the record's rule set is {header.get('ruleset')}, not {ruleset.name}"
        )
    options = ruleset.resolve(header.get("options", {}))
    if seed is not None and seed != header.get("seed"):
        raise OptionError(f"--seed {seed}: the record was played with seed {header.get('seed')}")
    if dice != "seeded" and dice != header.get("dice"):
        raise OptionError(f"--dice {dice}: the record's game uses {header.get('dice')} dice")
    chosen = parse_bots(ruleset, bots) if bots else dict(header.get("bots") or parse_bots(ruleset, ()))
    human = human if human is not None else (header.get("humans") or None)
    return _Setup(options, int(header["seed"]), str(header.get("dice")), chosen, human, resumed)


def _reopen(
    ruleset: Ruleset,
    setup: _Setup,
    resume: Path,
    bots: Sequence[str],
    source: SeededDice | TypedDice,
    console: Console,
    quiet: bool,
) -> _Opened | None:
    """The resumed record's game with its dice where they stood, the record opened to write on (None: the game
    was already over, its result printed)."""
    resumed = setup.resumed
    assert resumed is not None
    game = resumed.game
    game.dice = SeededDice(source.seed_sequence, skip=resumed.dice_drawn) if isinstance(source, SeededDice) else source
    humans = parse_humans(setup.human, game)
    check_bots_and_people(ruleset, bots, humans, game)
    if game.is_over:
        console.print(f"the game in {resume} is already over")
        print_result(ruleset, game, console)
        return None
    sink = _open_record(resume, "a")
    writer = RecordWriter.resume(resumed.used, sink)
    followed = plans.rearm(ruleset, game, writer, resumed.plans, setup.seed)
    if not quiet:
        console.print(f"resumed {resume} at turn {game.turn}: {resumed.actions} actions replayed, digests match")
    return _Opened(game, writer, sink, humans, None, [], followed)


def _begin(
    ruleset: Ruleset,
    setup: _Setup,
    record: Path | None,
    bots: Sequence[str],
    source: SeededDice | TypedDice,
    console: Console,
    quiet: bool,
) -> _Opened | None:
    """A fresh game: its seats checked, its banner, its record's file and header (None: typed dice of the setup
    abandoned, nothing saved)."""
    options, human = setup.options, setup.human
    embedded = ruleset.files.embed(options) if ruleset.files is not None else None  # read once: played and kept
    chosen_plans: dict[str, str] = {}
    if human is not None or setup.plan is not None:
        # the seats and plans checked on a probe game before the banner, the record, a referee's dice
        probe = ruleset.create(options, SeededDice(0), embedded)
        probe_humans = parse_humans(human, probe)
        check_bots_and_people(ruleset, bots, probe_humans, probe)
        chosen_plans = _chosen_plans(ruleset, setup, probe, probe_humans)
    sink = _open_record(record, "w") if record is not None else None  # a bad path fails before anything
    if not quiet:
        _banner(ruleset, setup, console)
    early: _TurnPrinter | None = None
    if isinstance(source, TypedDice):  # the setup's story (a scenario's banner) before its first roll
        early = _TurnPrinter(ruleset, None, console, verbose=True, quiet=quiet)
        source.listener = early.take_one
    try:
        game = ruleset.create(options, source, embedded)
    except (Quit, KeyboardInterrupt) as stop:  # typed dice of the setup abandoned: nothing to save yet
        if sink is not None and record is not None:
            sink.close()
            record.unlink(missing_ok=True)
        console.print("stopped at turn 0, during the setup: nothing was recorded")
        if isinstance(stop, KeyboardInterrupt):
            raise typer.Exit(INTERRUPTED) from None
        return None
    humans = parse_humans(human, game)
    kept = {"embedded": embedded} if embedded else {}  # one's own scenario file travels with the record
    header = make_header(
        ruleset.name, ruleset.recorded(options), setup.dice, setup.seed, bots=setup.chosen, humans=human, **kept
    )
    writer = RecordWriter(header, sink)
    start_events = game.take_events()
    writer.start(game, start_events)
    followed = plans.arm(ruleset, game, writer, chosen_plans, setup.seed)
    return _Opened(game, writer, sink, humans, early, start_events, followed)


def _chosen_plans(ruleset: Ruleset, setup: _Setup, game: Game, humans: set[str]) -> dict[str, str]:
    """``-o plan=`` read against the game's plans and the sides bots play: side -> random or a plan's name;
    a level that follows no plan is refused (``OptionError``, one line)."""
    bot_sides = [s for s in ruleset.sides if any(game.side_of(t) == s and t not in humans for t in game.seats())]
    chosen = plans.choose(setup.plan, plans.offered(ruleset, game), bot_sides)
    for side in chosen:
        plans.check_followed(ruleset, side, setup.chosen[side])
    return chosen


def _banner(ruleset: Ruleset, setup: _Setup, console: Console) -> None:
    """A fresh game's first lines: the rule set, seed and options, the bots and what each level does, the dice."""
    human, chosen = setup.human, setup.chosen
    console.print(f"[bold]{ruleset.title}[/bold]  seed {setup.seed}  ({shown_options(ruleset, setup.options)})")
    taken = {part.strip().lower() for part in (human or "").split(",")}  # sides people take whole
    playing = [f"{side} {name}" for side, name in chosen.items() if side not in taken and "all" not in taken]
    console.print("bots: " + (", ".join(playing) or "none (people take every side)"))
    if human is not None:  # a person plays them: what each level does, in its line
        for name in dict.fromkeys(n for side, n in chosen.items() if f"{side} {n}" in playing):
            console.print(f"  {name}: {escape(ladder.note(ruleset, name))}", highlight=False)
    if setup.dice == "manual":
        console.print("Manual dice: type each roll as the table rolls it (e.g. 5 2 6 or 526).")


def _play(
    ruleset: Ruleset,
    setup: _Setup,
    opened: _Opened,
    source: SeededDice | TypedDice,
    prompter: Prompter,
    console: Console,
    verbose: bool,
    quiet: bool,
    show_odds: bool,
    odds_playouts: int,
    explain: bool = False,
) -> tuple[Game, Any, bool]:
    """The game run to its end or its stop: (the game as it stands, its result or None, whether Ctrl-C stopped
    it). Events are printed as they come (every one when people play or the dice are typed)."""
    game, humans = opened.game, opened.humans
    if humans and not quiet:
        console.print("people: " + ", ".join(sorted(humans)) + " (type 'help' at a prompt)")
    live = verbose or bool(humans) or setup.dice == "manual"
    printer = opened.early or _TurnPrinter(ruleset, game, console, verbose=live, quiet=quiet)
    if opened.early is None and setup.resumed is None:
        printer.take(opened.start_events)
    session: Session | None = None

    def game_now() -> Game:  # the session's game (undo puts a rebuilt one in its place)
        return session.game if session is not None else game

    on_events = _listen(ruleset, setup, opened, source, printer, console, game_now)
    if isinstance(source, SeededDice):
        dice_stream = source.seed_sequence

        def dice_after(rebuilt: Replay) -> Any:
            return SeededDice(dice_stream, skip=rebuilt.dice_drawn)
    else:

        def dice_after(rebuilt: Replay) -> Any:
            return source

    if show_odds:  # each turn's chances, as the people (or a spectator) may see the game
        seat = cli_analyse.seat_for_odds(game, humans)
        on_events = cli_analyse.OddsEachTurn(on_events, game_now, console, seat, odds_playouts, setup.seed)
    session = Session(
        ruleset, game, opened.writer, setup.chosen, humans, prompter, setup.seed, on_events, dice_after, explain=explain
    )
    if isinstance(source, TypedDice):
        source.why = session.why  # 'why' at a dice prompt too
    session.plans = opened.plans
    interrupted = False
    try:
        result = session.run()
    except KeyboardInterrupt:  # Ctrl-C: the record holds every action finished; say how to go on
        result, interrupted = None, True
    if isinstance(on_events, cli_analyse.OddsEachTurn) and not interrupted:
        on_events.wait()  # the turns' estimates still running off the game (--show-odds)
    printer.flush()
    return session.game, result, interrupted


def _listen(
    ruleset: Ruleset,
    setup: _Setup,
    opened: _Opened,
    source: SeededDice | TypedDice,
    printer: _TurnPrinter,
    console: Console,
    game_now: Callable[[], Game],
) -> Callable[[list[Event]], None]:
    """Where the session's events go: to the printer after each action, or, with typed dice, as each happens
    (the story so far before each roll is asked for), each roll kept on the disk as typed and the rolls a
    resumed record kept for the action under way given again."""
    game = opened.game
    typed = game.dice if isinstance(game.dice, TypedDice) else source
    if not isinstance(typed, TypedDice):
        return printer.take
    if ruleset.face is not None and ruleset.face.board is not None:
        typed.board = lambda: ruleset.board(game_now(), None) or ""
    game.listener = printer.take_one
    typed.kept = opened.writer.typed  # each roll on the disk as typed: a crash mid-action loses none
    resumed = setup.resumed
    if resumed is not None and resumed.typed:
        typed.waiting = [(p, s, list(v)) for p, s, v in resumed.typed]
        rolls = "; ".join(f"{p}: {' '.join(map(str, v))}" for p, _, v in resumed.typed)
        one = len(resumed.typed) == 1
        console.print(
            f"the action under way when the game stopped was not saved; "
            f"{'the roll' if one else f'the {len(resumed.typed)} rolls'} typed for it "
            f"{'is' if one else 'are'} kept and used again as the game asks ({rolls})"
        )
    return _ignore


def _close_record(sink: IO[str]) -> None:
    """The record's last lines on the disk (bots' lines are synced at most every 0.2 s) and its file closed; an
    error names the file."""
    try:
        sync_file(sink)
        sink.close()
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, sink.name) from None


def _report(
    ruleset: Ruleset,
    game: Game,
    result: Any,
    interrupted: bool,
    record: Path | None,
    resume: Path | None,
    seed: int,
    console: Console,
    quiet: bool,
) -> None:
    """The game's end at the terminal: its result, or where it stopped and how to go on (exit 130 after Ctrl-C)."""
    if result is None:
        saved = record or resume
        where = (
            f"; continue with: grognard play {ruleset.name} --resume {saved}"
            if saved
            else "; nothing was saved (play with --record FILE to keep a game)"
        )
        console.print(f"{'interrupted' if interrupted else 'stopped'} at turn {game.turn}{where}")
        if interrupted:
            raise typer.Exit(INTERRUPTED)
        return
    print_result(ruleset, game, console, seed=seed, quiet=quiet)
    if record is not None:
        console.print(f"record written to {record}")


def _resume_replay(path: Path, prompter: Prompter) -> Replay | None:
    """The record at ``path`` replayed to go on with it; a last line cut short (a crash while it was written)
    is offered to be dropped, and only with a yes is it (None: the person said no, nothing changed). A seat's
    view of a game (``grognard replay --seat``) is refused: only the whole record is resumed."""
    try:
        try:
            rebuilt = replay(path, rulesets.get)
        except TornRecord as torn:
            kept = replay(path, rulesets.get, drop_torn=True)
            _refuse_a_view(path, kept)
            prompter.say(
                f"{path}: line {torn.line}, the last, is cut short: the game stopped while writing it, so the "
                f"action on it was not saved whole. Drop that line and go on from the {torn.line - 1} lines before "
                "it?"
            )
            try:
                answer = prompter.ask("drop the cut line? (yes/no)> ").lower()
            except Quit:
                answer = "no"
            if answer not in ("y", "yes"):
                prompter.say(f"nothing changed: {path} is as it was")
                return None
            drop_torn_line(path)
            prompter.say(f"dropped line {torn.line} of {path}; its action is played again")
            return kept
    except RecordError as exc:
        raise RecordError(f"--resume {str(path)!r}: {exc}") from None
    _refuse_a_view(path, rebuilt)
    return rebuilt


def _refuse_a_view(path: Path, rebuilt: Replay) -> None:
    """``OptionError`` when the record at ``path`` is a seat's view, not the whole record: resumed, it would ask
    again for a choice it holds sealed, and a later resume would stop at that line, every move after it lost."""
    if rebuilt.view is None and rebuilt.sealed_at is None:
        return
    view = rebuilt.view or {}
    seat = view.get("seat")
    whose = "a spectator" if seat == "spectator" else f"seat {seat}" if isinstance(seat, str) else "one seat"
    whole = view.get("record")
    where = (
        f"resume the whole record, {whole}"
        if isinstance(whole, str)
        else "resume the whole record it was written from (the GAME.jsonl given to grognard replay --seat)"
    )
    raise OptionError(
        f"--resume {str(path)!r}: this file is a seat's view (the game as {whose} may read it, written by grognard "
        f"replay --seat), not the whole record: {where}; nothing was written"
    )


def _open_record(path: Path, mode: str) -> IO[str]:
    try:
        if mode == "a" and path.is_file() and path.stat().st_size > 0:
            with path.open("rb") as handle:  # a last line written whole but for its newline: end it first
                handle.seek(-1, os.SEEK_END)
                if handle.read(1) != b"\n":
                    with path.open("a", encoding="utf-8") as tail:
                        tail.write("\n")
        if mode == "w" and path.is_file() and path.stat().st_size > 0:  # never write over a saved game
            raise OptionError(
                f"--record {str(path)!r}: the file is already there (a saved game?); continue it with "
                f"--resume {path}, or give another file"
            )
        return path.open(mode, encoding="utf-8")
    except OSError as exc:
        raise OptionError(f"--record {str(path)!r}: {exc.strerror}") from None


def _close_failing(sink: IO[str]) -> None:
    """The record's file closed while an error goes on its way: what can be put on the disk is, and a write
    that fails again (the same full disk) does not hide the first error."""
    try:
        sync_file(sink)
    except OSError:
        pass
    try:
        sink.close()
    except OSError:  # its buffer could not be written: the file is closed all the same
        pass


def _ignore(events: list[Event]) -> None:
    """Events already shown as they happened."""


def print_result(
    ruleset: Ruleset, game: Game, console: Console, *, seed: int | None = None, quiet: bool = False
) -> None:
    result = game.result
    assert result is not None
    if not quiet:
        console.print()
    outcome = f"{result.winner} win" if result.outcome == "win" else result.outcome
    console.print(f"[bold]Result: {outcome}[/bold] on turn {result.turn}: {result.reason}")
    if seed is not None and quiet:
        console.print(f"  {'seed (play it again with --seed)':<32} {seed}")
    for label, value in ruleset.rules.summary(game):
        console.print(f"  {label:<32} {value}")
    if result.outcome == "scored":
        console.print("  score: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in result.scores.items()))


class _TurnPrinter:
    """Prints events: a compact summary per turn, or every event as it happens (--verbose, or people playing)."""

    def __init__(self, ruleset: Ruleset, game: Game | None, console: Console, *, verbose: bool, quiet: bool) -> None:
        self.ruleset, self.game, self.console = ruleset, game, console
        self.verbose, self.quiet = verbose, quiet
        self.buffer: list[Event] = []
        self.turn: int | None = None

    def take_one(self, event: Event) -> None:
        self.take([event])

    def take(self, events: list[Event]) -> None:
        for event in events:
            if event.to is not None:
                continue
            if event.kind == "turn":
                self.flush()
                self.turn = int(event.data["turn"])
                if self.verbose and not self.quiet:
                    self.console.print(f"[bold]Turn {self.turn}[/bold]")
                continue
            if self.verbose:
                if not self.quiet and (line := self.ruleset.describe(event)):
                    self.console.print(f"  {escape(line)}")
            else:
                self.buffer.append(event)

    def flush(self) -> None:
        events, self.buffer = self.buffer, []
        if self.quiet or not events:
            return
        lines = self.ruleset.rules.summarize_turn(events)
        lines += [line for e in events if e.kind == "game_over" and (line := self.ruleset.describe(e))]
        title = f"Turn {self.turn}" if self.turn is not None else "Setup"
        self.console.print(f"[bold]{title}[/bold]")
        for line in lines:
            self.console.print(f"  {escape(line)}")
