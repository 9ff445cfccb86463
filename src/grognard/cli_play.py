"""grognard play RULESET: a game at the terminal, bots and people, recorded line by line, resumable."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from typer.core import TyperCommand, TyperGroup

from grognard import cli_analyse, cli_game, rulesets
from grognard.bots import ladder
from grognard.cli_common import whole_number
from grognard.core.dice import SeededDice
from grognard.core.errors import OptionError
from grognard.core.options import OptionSpec, parse_assignments
from grognard.core.ruleset import Ruleset


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
    if ruleset.plans is not None:
        tail += (
            "\n\nPlans: -o plan=random has each side a bot plays follow a secret plan, committed in the record "
            "and revealed at the end (grognard replay checks it); -o plan=NAME fixes one (docs/plans.md)."
        )
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
        cli_game.run_play(ruleset, given, **params)

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
        inspect.Parameter(
            "explain",
            keyword,
            annotation=bool,
            default=typer.Option(
                False,
                "--explain",
                help="each bot move's reason: the rule it followed (docs/rules), in a line; kept in the record",
                rich_help_panel=OUTPUT,
            ),
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
