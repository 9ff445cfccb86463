"""grognard play RULESET: a game at the terminal, bots and people, recorded line by line, resumable."""

from __future__ import annotations

import inspect
import os
import secrets
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import numpy as np
import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperCommand, TyperGroup

from grognard import cli_analyse, rulesets
from grognard.analysis.winprob import DEFAULT_PLAYOUTS
from grognard.bots import ladder
from grognard.cli_common import check_seed, whole_number
from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.engine import Event, Game
from grognard.core.errors import OptionError, RecordError, TornRecord
from grognard.core.options import OptionSpec, parse_assignments
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


def game_streams(seed: int) -> tuple[SeededDice, np.random.Generator]:
    """The dice and the bots' generator of a seeded game: two independent streams of one seed."""
    return SeededDice(stream(seed, DICE)), np.random.default_rng(stream(seed, BOTS))


def parse_bots(ruleset: Ruleset, items: Sequence[str]) -> dict[str, str]:
    """``["german=random"]`` (or ``["american=random,german=search"]``: several sides in one) as {side: bot name},
    checked against the rule set's sides and bots; a side given twice is refused."""
    out = {side: ruleset.default_bot for side in ruleset.sides}
    out.update({side: name for side, (name, _) in _given_bots(ruleset, items).items()})
    return out


def _given_bots(ruleset: Ruleset, items: Sequence[str]) -> dict[str, tuple[str, str]]:
    """The sides ``--bots`` names: {side: (bot name, the SIDE=BOT item as given)}."""
    given: dict[str, tuple[str, str]] = {}
    for text in items:
        parts = [part.strip() for part in text.split(",")]
        for item in parts:
            if not item:
                raise OptionError(f"--bots {text!r}: an empty SIDE=BOT in the list")
            side, name = _one_bot(ruleset, item, text if len(parts) == 1 else item)
            if side in given:
                raise OptionError(f"--bots: the {side} bot is given twice ({given[side][1]} and {item})")
            given[side] = (name, item)
    return given


def check_bots_and_people(ruleset: Ruleset, bots: Sequence[str], humans: set[str], game: Game) -> None:
    """A bot named for a side whose every seat people take would play nothing: refused in one line, rather
    than dropped in silence (the person meant one or the other, and only they know which)."""
    for side, (_, item) in _given_bots(ruleset, bots).items():
        seats = [seat for seat in game.seats() if game.side_of(seat) == side]
        if seats and all(seat in humans for seat in seats):
            raise OptionError(
                f"--bots {item}: people take every {side} seat (--human), so no bot would play it; "
                f"leave out one or the other"
            )


def _one_bot(ruleset: Ruleset, item: str, shown: str) -> tuple[str, str]:
    """One ``SIDE=BOT`` as (side, bot name), checked; errors name ``shown``."""
    side, sep, name = item.partition("=")
    side, name = side.strip().lower(), name.strip().lower()
    if not sep or side not in ruleset.sides:
        raise OptionError(f"--bots {shown!r}: expected SIDE=BOT with SIDE one of {', '.join(ruleset.sides)}")
    if name not in ruleset.bots:
        raise OptionError(f"--bots {shown!r}: {ladder.unknown_bot(ruleset, name)}")
    return side, name


def _option_parameter(spec: OptionSpec) -> inspect.Parameter:
    flag = "--" + spec.name.replace("_", "-")
    if spec.help.endswith(")") and "(default: " in spec.help:  # the help names its default in its own words
        text = f"{spec.help[:-1]}; {spec.describe_values()})"
    else:
        text = f"{spec.help} (default: {spec.describe_default()}; {spec.describe_values()})"
    if spec.kind is bool:  # listed in the help's last part, compactly, from the data (see _options_epilog)
        default = typer.Option(None, f"{flag}/--no-{flag[2:]}", help=text, show_default=False, hidden=True)
        annotation: Any = bool | None
    else:
        default = typer.Option(None, flag, help=text, metavar="VALUE", show_default=False, hidden=True)
        annotation = str | None
    return inspect.Parameter(spec.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


GAME, RECORD, OUTPUT = "Game", "Record", "Output"  # the panels of play's help


def _options_epilog(ruleset: Ruleset) -> str:
    """The rule set's options from its data, one a line (a line too long for the terminal wraps): each flag
    with its default and values, then what it does; every one is also ``-o NAME=VALUE``."""
    lines = []
    for spec in ruleset.options:
        flag = "--" + spec.name.replace("_", "-")
        own = spec.help.endswith(")") and "(default: " in spec.help  # the help names its default itself
        if spec.kind is bool:
            shown = f"{flag} | --no-{flag[2:]}" + ("" if own else f" ({spec.describe_default()})")
        else:
            shown = f"{flag} VALUE ({spec.describe_values()})" if own else f"{flag}={spec.describe_default()}"
            shown += "" if own else f" ({spec.describe_values()})"
        lines.append(f"[bold]{escape(shown)}[/bold]: {escape(spec.help)}")
    head = "Rule options (the default shown; each also -o NAME=VALUE; grognard rules lists them as a table):"
    return head + "\n\b\n" + "\n".join(lines) + "\n\n" + _levels_epilog(ruleset)


def _levels_epilog(ruleset: Ruleset) -> str:
    """The bots' levels, weakest first, each with its line; then the older names still taken."""
    lines = [f"[bold]{name}[/bold]: {escape(ladder.note(ruleset, name))}" for name in ladder.levels(ruleset)]
    rest = ladder.older(ruleset)
    tail = f"\n\nOlder bot names, still taken: {', '.join(rest)}." if rest else ""
    return "Bot levels (--bots SIDE=LEVEL), weakest first:\n\b\n" + "\n".join(lines) + tail


def _seat_help(ruleset: Ruleset) -> str:
    """The rest of --human's help: the seats of a default game, by name or short label (Omaha's A1,G6), when
    there are more seats than sides; B-17's two seats are its sides."""
    seats = ruleset.new_game(ruleset.resolve({}), SeededDice(0)).seats()
    shorts = [f"{s.split()[0][0]}{s.split()[-1]}" for s in seats if len(s.split()) == 2]
    if len(seats) > len(ruleset.sides) and shorts:
        return f", 'all', or seats by name or label ({shorts[0]},{shorts[-1]})"
    return " or 'all'"


def _play_command(ruleset: Ruleset) -> Callable[..., None]:
    """A ``play RULESET`` command whose flags are the rule set's options, from its data."""
    option_names = [spec.name for spec in ruleset.options]

    def command(**params: Any) -> None:
        named = None  # the SCENARIO argument, for the rule sets that play scenario files
        files = ruleset.files
        if files is not None:  # [SCENARIO] and --list: the rule set plays scenario files
            if params.pop("list_scenarios"):
                for name, title in files.shipped():
                    print(f"{name:<20} {title}")
                return
            named = params.pop("scenario_name")
            if named is not None:
                if params.get("scenario") is not None:
                    raise OptionError("the scenario is given twice (as SCENARIO and --scenario)")
                shipped = {name for name, _ in files.shipped()}
                if named not in shipped and Path(named).is_file():
                    named = str(Path(named).resolve())  # the record replays from any folder
                params["scenario"] = named
        given: dict[str, Any] = {}
        given.update(parse_assignments(params.pop("option") or ()))
        for name in option_names:
            value = params.pop(name)
            if value is not None:
                if name in given and name == "scenario" and named is not None:
                    raise OptionError("the scenario is given twice (as SCENARIO and --option)")
                if name in given:
                    raise OptionError(f"option {name!r} is given twice (as --{name.replace('_', '-')} and --option)")
                given[name] = value
        run_play(ruleset, given, **params)

    sides = ", ".join(ruleset.sides)
    keyword = inspect.Parameter.KEYWORD_ONLY
    common = [
        inspect.Parameter(
            "seed",
            keyword,
            annotation=int | None,
            default=typer.Option(
                None,
                help="the dice's and bots' seed (default: a fresh one, printed)",
                show_default=False,
                parser=whole_number,
                rich_help_panel=GAME,
            ),
        ),
        inspect.Parameter(
            "human",
            keyword,
            annotation=str | None,
            default=typer.Option(
                None,
                "--human",
                metavar="SIDE|SEATS",
                help=f"people take a side ({sides}){_seat_help(ruleset)}: hot seat",
                rich_help_panel=GAME,
            ),
        ),
        inspect.Parameter(
            "dice",
            keyword,
            annotation=str,
            default=typer.Option(
                "seeded",
                "--dice",
                metavar="seeded|manual",
                help="seeded: the program rolls; manual: each roll is typed in (a referee at a table)",
                rich_help_panel=GAME,
            ),
        ),
        inspect.Parameter(
            "option",
            keyword,
            annotation=list[str] | None,
            default=typer.Option(
                None,
                "--option",
                "-o",
                metavar="NAME=VALUE",
                help="a rule option (listed below)",
                rich_help_panel=GAME,
            ),
        ),
        inspect.Parameter(
            "bots",
            keyword,
            annotation=list[str] | None,
            default=typer.Option(
                None,
                "--bots",
                metavar="SIDE=LEVEL",
                help=f"a side's bot, by level: {', '.join(ladder.levels(ruleset))}, weakest first (default: "
                f"{ruleset.default_bot}; each described below); several: SIDE=LEVEL,SIDE=LEVEL",
                rich_help_panel=GAME,
            ),
        ),
        inspect.Parameter(
            "record",
            keyword,
            annotation=Path | None,
            default=typer.Option(
                None,
                dir_okay=False,
                help="write the game's record (JSON Lines) to this new file as it goes",
                rich_help_panel=RECORD,
            ),
        ),
        inspect.Parameter(
            "resume",
            keyword,
            annotation=Path | None,
            default=typer.Option(
                None,
                dir_okay=False,
                help="go on with the game in this record, writing on to it",
                rich_help_panel=RECORD,
            ),
        ),
        inspect.Parameter(
            "verbose",
            keyword,
            annotation=bool,
            default=typer.Option(
                False, "--verbose", "-v", help="every event, not a summary a turn", rich_help_panel=OUTPUT
            ),
        ),
        inspect.Parameter(
            "quiet",
            keyword,
            annotation=bool,
            default=typer.Option(False, "--quiet", "-q", help="only the result", rich_help_panel=OUTPUT),
        ),
        *cli_analyse.play_parameters(),
    ]
    if ruleset.files is not None:
        common = [
            inspect.Parameter(
                "scenario_name",
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation=str | None,
                default=typer.Argument(None, metavar="SCENARIO", help="a shipped scenario's name or a TOML file"),
            ),
            *common,
            inspect.Parameter(
                "list_scenarios",
                keyword,
                annotation=bool,
                default=typer.Option(False, "--list", help="name the shipped scenarios and stop", rich_help_panel=GAME),
            ),
        ]
    # Typer reads the options from the function's __signature__, which typeshed gives no function: its boundary
    command.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        common + [_option_parameter(s) for s in ruleset.options]
    )
    command.__doc__ = (
        f"Play {ruleset.title}: people and bots, turn by turn, to the result "
        f"(the rules: seed text {ruleset.seed_file})."
        + (f"\n\n{ruleset.log_key.replace('`', '')}" if ruleset.log_key else "")
    )
    return command


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


INTERRUPTED = 130  # the exit code of a program stopped by Ctrl-C (128 + SIGINT)


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
    resumed: Replay | None = None
    if resume is not None:
        if given:
            raise OptionError(f"--resume: the options come from the record, not the command line ({', '.join(given)})")
        if record is not None:
            raise OptionError("--resume writes on to its own file; leave out --record")
        resumed = _resume_replay(resume, prompter)
        if resumed is None:
            return
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
        seed = int(header["seed"])
        if dice != "seeded" and dice != header.get("dice"):
            raise OptionError(f"--dice {dice}: the record's game uses {header.get('dice')} dice")
        dice = str(header.get("dice"))
        chosen = parse_bots(ruleset, bots) if bots else dict(header.get("bots") or parse_bots(ruleset, ()))
        human = human if human is not None else (header.get("humans") or None)
    else:
        options = ruleset.resolve(given)
        chosen = parse_bots(ruleset, bots or ())
        if seed is None:
            seed = secrets.randbits(32)
    seeded = game_streams(seed)[0] if dice == "seeded" else None
    source: Any = seeded if seeded is not None else TypedDice(prompter)
    early: _TurnPrinter | None = None
    sink: IO[str] | None
    writer: RecordWriter | StepCounter  # in memory too: 'undo' replays it
    session: Session  # read by the odds and the typed dice's board once the game runs
    if resume is not None and resumed is not None:
        game = resumed.game
        if seeded is not None:
            game.dice = SeededDice(seeded.seed_sequence, skip=resumed.dice_drawn)
        else:
            game.dice = source
        humans = parse_humans(human, game)
        check_bots_and_people(ruleset, bots or (), humans, game)
        if game.is_over:
            console.print(f"the game in {resume} is already over")
            _print_result(ruleset, game, console)
            return
        sink = _open_record(resume, "a")
        writer = RecordWriter.resume(resumed.used, sink)
        if not quiet:
            console.print(f"resumed {resume} at turn {game.turn}: {resumed.actions} actions replayed, digests match")
    else:
        if human is not None:  # the seats checked on a probe game before the banner, the record, a referee's dice
            probe = ruleset.new_game(options, SeededDice(0))
            check_bots_and_people(ruleset, bots or (), parse_humans(human, probe), probe)
        embedded = ruleset.files.embed(options) if ruleset.files is not None else None  # read once: played and kept
        sink = _open_record(record, "w") if record is not None else None  # a bad path fails before anything
        if not quiet:
            console.print(f"[bold]{ruleset.title}[/bold]  seed {seed}  ({_shown(ruleset, options)})")
            taken = {part.strip().lower() for part in (human or "").split(",")}  # sides people take whole
            playing = [f"{side} {name}" for side, name in chosen.items() if side not in taken and "all" not in taken]
            console.print("bots: " + (", ".join(playing) or "none (people take every side)"))
            if human is not None:  # a person plays them: what each level does, in its line
                for name in dict.fromkeys(n for side, n in chosen.items() if f"{side} {n}" in playing):
                    console.print(f"  {name}: {escape(ladder.note(ruleset, name))}", highlight=False)
        if dice == "manual" and not quiet:
            console.print("Manual dice: type each roll as the table rolls it (e.g. 5 2 6 or 526).")
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
            return
        humans = parse_humans(human, game)
        kept = {"embedded": embedded} if embedded else {}  # one's own scenario file travels with the record
        header = make_header(ruleset.name, ruleset.recorded(options), dice, seed, bots=chosen, humans=human, **kept)
        writer = RecordWriter(header, sink)
        start_events = game.take_events()
        writer.start(game, start_events)
    try:
        if humans and not quiet:
            console.print("people: " + ", ".join(sorted(humans)) + " (type 'help' at a prompt)")
        live = verbose or bool(humans) or dice == "manual"
        if early is not None:  # it has shown the setup's events as they happened
            printer = early
        else:
            printer = _TurnPrinter(ruleset, game, console, verbose=live, quiet=quiet)
            if resumed is None:
                printer.take(start_events)
        if isinstance(source, TypedDice) or isinstance(game.dice, TypedDice):
            typed = game.dice if isinstance(game.dice, TypedDice) else source
            adviser = ruleset.adviser
            if adviser is not None:
                typed.board = lambda: adviser.board(session.game, None)
            game.listener = printer.take_one  # the story so far, before each roll is asked for
            on_events = _ignore
            typed.kept = writer.typed  # each roll on the disk as typed: a crash mid-action loses none
            if resumed is not None and resumed.typed:
                typed.waiting = [(p, s, list(v)) for p, s, v in resumed.typed]
                rolls = "; ".join(f"{p}: {' '.join(map(str, v))}" for p, _, v in resumed.typed)
                console.print(
                    f"the action under way when the game stopped was not saved; "
                    f"{'the roll' if len(resumed.typed) == 1 else f'the {len(resumed.typed)} rolls'} typed for it "
                    f"{'is' if len(resumed.typed) == 1 else 'are'} kept and used again as the game asks ({rolls})"
                )
        else:
            on_events = printer.take
        if seeded is not None:
            stream = seeded.seed_sequence

            def dice_after(rebuilt: Replay) -> Any:
                return SeededDice(stream, skip=rebuilt.dice_drawn)
        else:

            def dice_after(rebuilt: Replay) -> Any:
                return source

        if show_odds:  # each turn's chances, as the people (or a spectator) may see the game
            seat = cli_analyse.seat_for_odds(game, humans)
            on_events = cli_analyse.OddsEachTurn(on_events, lambda: session.game, console, seat, odds_playouts, seed)
        session = Session(ruleset, game, writer, chosen, humans, prompter, seed, on_events, dice_after)
        interrupted = False
        try:
            result = session.run()
        except KeyboardInterrupt:  # Ctrl-C: the record holds every action finished; say how to go on
            result, interrupted = None, True
        if isinstance(on_events, cli_analyse.OddsEachTurn) and not interrupted:
            on_events.wait()  # the turns' estimates still running off the game (--show-odds)
        game = session.game
        printer.flush()
    except BaseException:
        if sink is not None:
            _close_failing(sink)
        raise
    if sink is not None:
        try:
            sync_file(sink)  # the last lines on the disk too (bots' lines are synced at most every 0.2 s)
            sink.close()
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, sink.name) from None
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
    _print_result(ruleset, game, console, seed=seed, quiet=quiet)
    if record is not None:
        console.print(f"record written to {record}")


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


def _shown(ruleset: Ruleset, options: Mapping[str, Any]) -> str:
    """Options as a person writes them (on/off, unlimited)."""
    specs = {spec.name: spec for spec in ruleset.options}
    return ", ".join(f"{k}={specs[k].describe(v)}" if k in specs else f"{k}={v}" for k, v in options.items())


def _ignore(events: list[Event]) -> None:
    """Events already shown as they happened."""


def _print_result(
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


class _PlayGroup(TyperGroup):
    """``grognard play RULESET``: a rule set's command is built when it is named, so ``grognard play omaha``
    imports Omaha alone (each rule set takes a few tenths of a second of CPU to import)."""

    def list_commands(self, ctx: Any) -> list[str]:  # Any: typer vendors click; its Context is private
        return rulesets.names()

    def get_command(self, ctx: Any, cmd_name: str) -> TyperCommand | None:
        if cmd_name not in rulesets.names():
            return None
        ruleset = rulesets.get(cmd_name)
        one = typer.Typer(add_completion=False)  # as the whole program: no --install-completion
        one.command(cmd_name, epilog=_options_epilog(ruleset))(_play_command(ruleset))
        command = typer.main.get_command(one)
        assert isinstance(command, TyperCommand)  # one command, no callback: the command itself
        return command


play_app = typer.Typer(
    cls=_PlayGroup, help="Play a rule set: bots on every seat, turn by turn, to the result.", no_args_is_help=True
)


def register(app: typer.Typer) -> None:
    """Add the play group (a command per rule set) to ``app``."""
    app.add_typer(play_app, name="play")
