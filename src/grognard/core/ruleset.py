"""What a rule set declares to the faces: its facts as data, and how to make a game."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from grognard.core.dice import DiceSource
from grognard.core.engine import Decision, Event, Game
from grognard.core.face import Face
from grognard.core.options import OptionSpec, recorded, resolve_options


class Bot(Protocol):
    """A player program: given the game and a decision it owes, an action of that decision's space."""

    def choose(self, game: Game, decision: Decision) -> Any: ...


BotFactory = Callable[[np.random.Generator], Bot]


@dataclass(frozen=True)
class Metric:
    """A number a rule set reports for each finished game (for Monte Carlo and sweeps).

    ``kind`` is ``"turn"`` (the turn something first happened; ``None`` if it never did)
    or ``"count"`` (an integer such as figures lost).
    """

    name: str
    label: str
    kind: str = "count"


@dataclass(frozen=True)
class BatchPath:
    """A rule set's fast path for Monte Carlo runs: many games side by side.

    ``supports(bots)`` says whether it plays these bots (side -> bot name);
    ``play(options, bots, seed, start, stop)`` returns the rows of games
    ``start`` to ``stop - 1`` of a run seeded ``seed``, each equal to the row
    the one-game-at-a-time engine gives for that game (``analysis.montecarlo.play_one``).
    """

    supports: Callable[[Mapping[str, str]], bool]
    play: Callable[[Mapping[str, Any], Mapping[str, str], int, int, int], list[dict[str, Any]]]


@dataclass(frozen=True)
class Ruleset:
    """A rule set's declaration.

    ``new_game(options, dice)`` takes resolved options; :meth:`create` resolves
    and checks them first. ``parse_action`` turns an action's text form back
    into the action (raising ``ParseError``). ``describe`` turns an event into a
    line for people, or ``None`` for events not worth a line. ``bots`` maps a
    bot's name to a factory taking the bot's own random generator: the levels of
    ``grognard.bots.ladder.LADDER`` it offers (weakest first), then older names;
    ``bot_notes`` describes the rule set's bot at each level in one line a player
    understands ("beginner: forgets cover, good for a first game").
    ``summarize_turn`` condenses a turn's events into a few lines and
    ``summary`` lists the figures of a finished game, for the CLI.
    ``action_from_json`` rebuilds an action from its ``to_json()`` form.
    For people at the terminal: ``usage`` (the action syntax), ``situation``
    (lines on a decision), ``note`` and ``odds`` (a few words and the dice
    odds of a choice) and ``board_text`` (the whole table as text); ``menu(game,
    decision)`` lists the choices offered a person, useful first, as ``(action,
    words)`` pairs, every one legal ("Move up to the sea wall"; ``None``: the
    space's ``candidates``, as their text forms);
    ``render`` draws a seat's view as an SVG document. For the analysis code:
    ``odds_tables(options=None)`` lists the rule set's dice mechanics (``analysis.odds.OddsTable``) as a
    game's resolved ``options`` read them (the readings of RULINGS that are options);
    ``metrics`` declares the numbers ``measure(game)`` reports for a finished game.
    For search bots: ``evaluate(game, side)`` scores a game not yet over from
    ``side``'s point of view, in [0, 1] (roughly its chance to win), so that a
    playout cut short can be scored; ``None``: such a game counts as a draw (0.5).
    ``search_candidates(game, decision, k)`` lists at most ``k`` legal actions the
    search bot weighs at ``decision`` (``None``: the space's ``candidates(k)``).
    For speed: ``batch`` (a :class:`BatchPath`) plays many games of a Monte
    Carlo run side by side. ``preview(game, seat, action)`` is ``seat``'s view
    with a legal action not yet given drawn in (a path, where it stops and
    ends, what it meets), for ``render`` to picture before a person commits.
    ``scenarios`` lists the shipped scenarios (name, title) of a rule set
    whose ``scenario`` option names one. ``embed(options)`` gives the files
    of one's own that resolved options name (a scenario TOML and its tables)
    as JSON-safe data for the record's header, or ``None`` when the options
    name only what ships with grognard; ``restore(options, dice, embedded)``
    makes the game from that data, so that a record replays after the files
    are edited, moved or gone. ``upload(name, text)`` checks a file of one's
    own sent to a server (a scenario TOML, by its file name and text) without
    reading anything on the server's disk, and gives ``(options, embedded)``:
    the options it sets and the data ``restore`` makes the game from; it raises
    a :class:`~grognard.core.errors.GrognardError` listing every problem.
    ``upload_option`` names the option such a file stands for ("scenario").
    ``face`` (a :class:`grognard.core.face.Face`) is what the web pages draw and
    offer of a game, from a seat's view; ``None``: the menu, a typed order and ``board_text``.
    """

    name: str
    title: str
    seed_file: str
    sides: tuple[str, ...]
    options: tuple[OptionSpec, ...]
    new_game: Callable[[Mapping[str, Any], DiceSource], Game]
    parse_action: Callable[[str], Any]
    describe: Callable[[Event], str | None]
    bots: Mapping[str, BotFactory] = field(default_factory=dict)
    default_bot: str = "random"
    bot_notes: Mapping[str, str] = field(default_factory=dict)  # a level's bot in one line a player reads
    summarize_turn: Callable[[list[Event]], list[str]] | None = None
    log_key: str = ""  # what the compact turn summary's abbreviations mean
    sequence: tuple[str, ...] = ()  # the sequence of play in a few plain lines (the printed card)
    summary: Callable[[Game], list[tuple[str, Any]]] | None = None
    action_from_json: Callable[[dict[str, Any]], Any] | None = None
    usage: tuple[str, ...] = ()
    situation: Callable[[Any, Decision], list[str]] | None = None
    note: Callable[[Any, Any], str] | None = None
    odds: Callable[[Any, Any], str | None] | None = None
    board_text: Callable[[Any, str | None], str] | None = None
    menu: Callable[[Any, Decision], list[tuple[Any, str]]] | None = None
    render: Callable[[dict[str, Any]], str] | None = None
    odds_tables: Callable[..., list[Any]] | None = None
    evaluate: Callable[[Any, str], float] | None = None
    search_candidates: Callable[[Any, Decision, int], list[Any]] | None = None
    metrics: tuple[Metric, ...] = ()
    measure: Callable[[Any], dict[str, int | None]] | None = None
    batch: BatchPath | None = None
    preview: Callable[[Any, str, Any], dict[str, Any]] | None = None
    scenarios: Callable[[], list[tuple[str, str]]] | None = None
    embed: Callable[[Mapping[str, Any]], dict[str, Any] | None] | None = None
    restore: Callable[[Mapping[str, Any], DiceSource, Mapping[str, Any]], Game] | None = None
    upload: Callable[[str, str], tuple[dict[str, Any], dict[str, Any]]] | None = None
    upload_option: str = ""
    face: Face | None = None

    def resolve(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults overlaid with ``given``, checked (``OptionError`` names the field)."""
        return resolve_options(self.options, given)

    def recorded(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Resolved ``options`` as a record's header keeps them (quiet options at their default left out)."""
        return recorded(self.options, options)

    def create(self, given: Mapping[str, Any], dice: DiceSource, embedded: Mapping[str, Any] | None = None) -> Game:
        """A new game with ``given`` options (text or values) and ``dice``; from ``embedded`` files when given
        (a record header's ``embedded``, see ``embed``) and the rule set can ``restore`` from them."""
        options = self.resolve(given)
        if embedded and self.restore is not None:
            return self.restore(options, dice, embedded)
        return self.new_game(options, dice)
