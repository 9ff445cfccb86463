"""What a rule set declares: its facts as data, and a few typed parts that the faces need whole or not at all.

A :class:`Ruleset` is data (its name, sides, options, bots, the words of its help) and five parts, each a small
typed protocol the rule set implements in its own package:

- :class:`Rules` (required): the game factory; it makes a game, reads an action's text and JSON forms back, and
  tells events in words;
- ``face`` (:class:`grognard.core.face.Face`): what the web pages draw and offer, from a seat's view only;
- :class:`Adviser`: the few things for people that need more than the view: the menu of a decision, a note
  and the dice odds of a choice, a preview of an order (the situation of a decision and the table as text read
  the view: ``Face.situation``, ``Face.board``);
- :class:`Analysis`: what Monte Carlo runs, sweeps, the odds cards and the search bots ask of a game;
- :class:`ScenarioFiles`: the files of one's own a rule set plays (shipped, embedded in a record, uploaded),
  and :class:`Batch`, a fast path for Monte Carlo runs;
- :class:`Editor`: the table editor's palette, check, picture and files (the ``/editor`` page, which names no
  rule set).

``Ruleset`` is generic in its game and its actions (``Ruleset[OmahaGame, OmahaAction]``) so that mypy checks each
rule set's parts against the protocols; a ``Ruleset`` named bare (the web's, the CLI's) is any rule set's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol

import numpy as np
from typing_extensions import TypeVar  # a default (PEP 696) before Python 3.13

from grognard.core.dice import DiceSource
from grognard.core.engine import Decision, Event, Game
from grognard.core.face import Face, View
from grognard.core.options import OptionSpec, recorded, resolve_options
from grognard.core.plans import Plan

if TYPE_CHECKING:
    from grognard.analysis.odds import OddsTable

# a rule set's game and action types; bare, any rule set's
G = TypeVar("G", bound=Game, default=Any)
A = TypeVar("A", default=Any)
G_contra = TypeVar("G_contra", bound=Game, contravariant=True, default=Any)
G_co = TypeVar("G_co", bound=Game, covariant=True, default=Any)
A_co = TypeVar("A_co", covariant=True, default=Any)


class Bot(Protocol[G_contra]):
    """A player program: given the game and a decision it owes, an action of that decision's space (``Bot``
    named bare plays any rule set's game; ``Bot[OmahaGame]`` Omaha's)."""

    def choose(self, game: G_contra, decision: Decision) -> Any: ...


BotFactory = Callable[[np.random.Generator], Bot[G_contra]]  # a bot made with its own random generator


@dataclass(frozen=True)
class Metric:
    """A number a rule set reports for each finished game (for Monte Carlo and sweeps).

    ``kind`` is ``"turn"`` (the turn something first happened; ``None`` if it never did)
    or ``"count"`` (an integer such as figures lost).
    """

    name: str
    label: str
    kind: str = "count"


class Rules(Protocol[G, A_co]):
    """The game factory: how a rule set makes a game, reads actions and tells what happened."""

    def new_game(self, options: Mapping[str, Any], dice: DiceSource) -> G:
        """A new game from resolved options (:meth:`Ruleset.create` resolves and checks them first)."""
        ...

    def parse_action(self, text: str) -> A_co:
        """An action from its text form (``str(action)``); raises ``ParseError`` naming what is wrong."""
        ...

    def action_from_json(self, data: Mapping[str, Any]) -> A_co:
        """An action rebuilt from its ``to_json()`` form."""
        ...

    def describe(self, event: Event) -> str | None:
        """An event as a line for people; ``None`` for events not worth a line."""
        ...

    def summarize_turn(self, events: Sequence[Event]) -> list[str]:
        """A turn's events condensed into a few lines (the CLI's compact log)."""
        ...

    def summary(self, game: G) -> list[tuple[str, object]]:
        """The figures of a finished game, ``(label, value)``, for its final report."""
        ...


class Adviser(Protocol[G_contra, A]):
    """What needs more than the seat's view: what a person is offered and told of a choice.

    ``menu``: ``decision``'s choices for a person, useful first, each ``(action, words)``, every one legal
    ("Move up to the sea wall"). ``note`` and ``odds``: a few words and the dice odds of a choice (``None``: no
    dice). ``preview``: ``seat``'s view with a legal action not yet given drawn in (``view["preview"]``: a path,
    where it stops and ends, what it meets), for a picture before a person commits. The situation of a decision
    and the table as text are the face's, from the view (``Face.situation``, ``Face.board``).
    """

    def menu(self, game: G_contra, decision: Decision) -> list[tuple[A, str]]: ...

    def note(self, game: G_contra, action: A) -> str: ...

    def odds(self, game: G_contra, action: A) -> str | None: ...

    def preview(self, game: G_contra, seat: str, action: A) -> View: ...


class Analysis(Protocol[G_contra, A]):
    """What the analysis code and the search bots ask of a rule set.

    ``odds_tables(options)``: its dice mechanics (``analysis.odds.OddsTable``) as a game's resolved ``options``
    read them (``None``: the defaults). ``measure(game)``: the numbers of ``Ruleset.metrics`` for a finished
    game. ``evaluate(game, side)``: a game not yet over scored from ``side``'s point of view in [0, 1] (roughly
    its chance to win), so that a playout cut short can be scored. ``search_candidates(game, decision, k)``: at
    most ``k`` legal actions the search bot weighs at ``decision``.
    """

    def odds_tables(self, options: Mapping[str, Any] | None = None) -> list[OddsTable]: ...

    def measure(self, game: G_contra) -> dict[str, int | None]: ...

    def evaluate(self, game: G_contra, side: str) -> float: ...

    def search_candidates(self, game: G_contra, decision: Decision, k: int) -> list[A]: ...


class ScenarioFiles(Protocol[G_co]):
    """The scenario files a rule set plays (the ``upload_option`` option names one).

    ``shipped()``: the shipped scenarios, ``(name, title)``. ``embed(options)``: the files of one's own that
    resolved options name (a scenario TOML and its tables) as JSON-safe data for a record's header, or
    ``None`` when they name only what ships with grognard. ``restore(options, dice, embedded)``: the game made
    from that data, so that a record replays after the files are edited, moved or gone. ``upload(name,
    text)``: a file of one's own sent to a server, checked without reading the server's disk, as ``(options,
    embedded)``: the options it sets and the data ``restore`` makes the game from; raises a
    :class:`~grognard.core.errors.GrognardError` listing every problem.
    """

    def shipped(self) -> list[tuple[str, str]]: ...

    def embed(self, options: Mapping[str, Any]) -> dict[str, Any] | None: ...

    def restore(self, options: Mapping[str, Any], dice: DiceSource, embedded: Mapping[str, Any]) -> G_co: ...

    def upload(self, name: str, text: str) -> tuple[dict[str, Any], dict[str, Any]]: ...


class Editor(Protocol):
    """A rule set's table editor (the ``/editor`` page): a scenario as JSON-safe data (its file's TOML parsed)
    drawn, checked and written back, so that the page names no rule set.

    ``palette()``: what may be drawn and filled in: the kinds with their geometry and fields, the form's
    fields, the men's kinds and weapons from the tables (JSON-safe; the page reads it as data). ``blank()``: a
    new table's data. ``check(data)``: every problem of ``data`` at once, each ``{"field", "rule", "text",
    "at"}`` (``at``: ``[x, y]`` where to draw it, or ``None``). ``scene(data)``: the table as the game's
    face draws it (``Face.scene``'s shape), drawn from data with problems too. ``write(data)``: the
    scenario file's text (what ``grognard play`` reads); ``read(text)``: data from a file's text (never a
    path; raises a :class:`~grognard.core.errors.GrognardError` in one line for what is no scenario file).
    ``shipped(name)``: a shipped scenario's data.
    """

    def palette(self) -> dict[str, Any]: ...

    def blank(self) -> dict[str, Any]: ...

    def check(self, data: Any) -> list[dict[str, Any]]: ...

    def scene(self, data: Any) -> dict[str, Any]: ...

    def write(self, data: Any) -> str: ...

    def read(self, text: str) -> dict[str, Any]: ...

    def shipped(self, name: str) -> dict[str, Any]: ...


class Batch(Protocol):
    """A rule set's fast path for Monte Carlo runs: many games side by side.

    ``supports(bots)`` says whether it plays these bots (side -> bot name); ``play(options, bots, seed, start,
    stop)`` returns the rows of games ``start`` to ``stop - 1`` of a run seeded ``seed``, each equal to the row
    the one-game-at-a-time engine gives for that game (``analysis.montecarlo.play_one``).
    """

    def supports(self, bots: Mapping[str, str]) -> bool: ...

    def play(
        self, options: Mapping[str, Any], bots: Mapping[str, str], seed: int, start: int, stop: int
    ) -> list[dict[str, Any]]: ...


class Plans(Protocol[G_contra]):
    """The plans each side's bot may follow in a game (:mod:`grognard.core.plans`): side -> its plans (a side
    without plans left out). ``of(game)``: a game's, as its options and files make them (a scenario's own)."""

    def of(self, game: G_contra) -> Mapping[str, Sequence[Plan]]: ...


@dataclass(frozen=True)
class Ruleset(Generic[G, A]):
    """A rule set's declaration: facts as data, and its parts (see the module's docstring).

    The facts: ``name``, ``title``, ``seed_file`` (the rules' seed text), ``sides``, ``options``; ``bots`` maps
    a bot's name to a factory taking the bot's own random generator: the levels of
    ``grognard.bots.ladder.LADDER`` it offers (weakest first), then older names; ``default_bot``; ``bot_notes``
    describes the rule set's bot at each level in one line a player understands ("beginner: forgets cover,
    good for a first game"). ``log_key``: what the compact turn summary's abbreviations mean; ``sequence``:
    the sequence of play in a few plain lines (the printed card); ``usage``: the action syntax; ``metrics``:
    the numbers ``analysis.measure`` reports for a finished game; ``upload_option``: the option a file of
    one's own stands for ("scenario").

    The parts: ``rules`` (:class:`Rules`), ``face`` (:class:`~grognard.core.face.Face`; ``None``: the pages
    show the menu and a typed order), ``adviser`` (:class:`Adviser`; ``None``: the
    decision's prompt and its space's candidates), ``analysis`` (:class:`Analysis`), ``files``
    (:class:`ScenarioFiles`), ``batch`` (:class:`Batch`), ``editor`` (:class:`Editor`: the table editor's palette,
    check and files), ``render``, a seat's view drawn as an SVG document, and ``plans`` (:class:`Plans`), the
    plans each side's bot may follow in a game (``None``: none).
    """

    name: str
    title: str
    seed_file: str
    sides: tuple[str, ...]
    options: tuple[OptionSpec, ...]
    rules: Rules[G, A]
    bots: Mapping[str, BotFactory] = field(default_factory=dict)
    default_bot: str = "random"
    bot_notes: Mapping[str, str] = field(default_factory=dict)  # a level's bot in one line a player reads
    log_key: str = ""
    sequence: tuple[str, ...] = ()
    usage: tuple[str, ...] = ()
    metrics: tuple[Metric, ...] = ()
    upload_option: str = ""
    face: Face | None = None
    adviser: Adviser[G, A] | None = None
    analysis: Analysis[G, A] | None = None
    files: ScenarioFiles[G] | None = None
    batch: Batch | None = None
    editor: Editor | None = None
    render: Callable[[View], str] | None = None
    plans: Plans[G] | None = None

    def resolve(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults overlaid with ``given``, checked (``OptionError`` names the field)."""
        return resolve_options(self.options, given)

    def recorded(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Resolved ``options`` as a record's header keeps them (quiet options at their default left out)."""
        return recorded(self.options, options)

    def new_game(self, options: Mapping[str, Any], dice: DiceSource) -> G:
        """A new game from resolved options (``rules.new_game``)."""
        return self.rules.new_game(options, dice)

    def parse_action(self, text: str) -> A:
        """An action from its text form (``rules.parse_action``; raises ``ParseError``)."""
        return self.rules.parse_action(text)

    def describe(self, event: Event) -> str | None:
        """An event as a line for people, or ``None`` (``rules.describe``)."""
        return self.rules.describe(event)

    def create(self, given: Mapping[str, Any], dice: DiceSource, embedded: Mapping[str, Any] | None = None) -> G:
        """A new game with ``given`` options (text or values) and ``dice``; from ``embedded`` files when given
        (a record header's ``embedded``, see ``ScenarioFiles.embed``) and the rule set plays files of its own."""
        options = self.resolve(given)
        if embedded and self.files is not None:
            return self.files.restore(options, dice, embedded)
        return self.rules.new_game(options, dice)

    def situation(self, game: G, decision: Decision, view: View | None = None) -> list[str] | None:
        """The lines a person reads on ``decision`` (``Face.situation`` of the view of its seat, ``view`` when
        the caller has it already); ``None``: the face says nothing more than the decision's prompt."""
        if self.face is None or self.face.situation is None:
            return None
        return self.face.situation(game.view(decision.seat) if view is None else view, decision)

    def board(self, game: G, seat: str | None) -> str | None:
        """The whole table as text, as ``seat`` may see it (``Face.board`` of its view); ``None``: no such text."""
        if self.face is None or self.face.board is None:
            return None
        return self.face.board(game.view(seat))
