"""Playing at the terminal: people on some seats (hot seat), bots on the rest, dice typed or seeded.

A :class:`Session` runs a game to its end (or until a person quits), writing
the record as it goes, asking :class:`HumanPlayer` for the decisions of
people's seats and the bots for the rest. A :class:`TypedDice` asks a
referee for every roll ("bunker B3 fires at A7 (kills on 5-6): 4 dice"),
refusing impossible values or counts and asking again.
"""

from __future__ import annotations

import getpass
import re
import sys
from collections import Counter, deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

import numpy as np
from rich.console import Console
from rich.markup import escape

from grognard import rulesets
from grognard.cli_common import check_output
from grognard.core.dice import BOTS, DiceSource, ManualDice, stream
from grognard.core.engine import Decision, Event, Game, Result
from grognard.core.errors import GrognardError, OptionError
from grognard.core.numbers import is_count, read_int
from grognard.core.plans import Plan
from grognard.core.reasons import Reason, reason_for, reason_json
from grognard.core.record import RecordWriter, Replay, StepCounter, replay
from grognard.core.ruleset import Bot, Ruleset
from grognard.core.takeback import stands
from grognard.core.words import possessive
from grognard.render import write_picture

QUIT_WORDS = {"quit", "exit"}


class Quit(Exception):
    """A person stopped the session (quit, or input ended): the game is saved as it stands."""


class Resign(Exception):
    """A person resigned for ``seat`` (and confirmed it)."""

    def __init__(self, seat: str) -> None:
        super().__init__(seat)
        self.seat = seat


class TakeBack(Exception):
    """The person at ``seat`` asked to take back their last action (``undo``)."""

    def __init__(self, seat: str) -> None:
        super().__init__(seat)
        self.seat = seat


def _typed_at_a_terminal() -> bool:
    """Whether answers come from a keyboard at a terminal (not a pipe or a file)."""
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


class Prompter:
    """Reads answers from a person; end of input is :class:`Quit`.

    ``read_secret`` reads an answer that others at the keyboard must not see: without echo
    (:func:`getpass.getpass`) when the answers are typed at a terminal, else as ``read``
    (a pipe echoes nothing anyway).
    """

    def __init__(
        self,
        console: Console,
        read: Callable[[str], str] = input,
        read_secret: Callable[[str], str] | None = None,
        interactive: Callable[[], bool] = _typed_at_a_terminal,
    ) -> None:
        self.console = console
        self._read = read
        self._read_secret = read_secret
        self.interactive = interactive

    def ask(self, prompt: str, *, secret: bool = False) -> str:
        """One answer, stripped; ``secret``: typed without echo at a terminal. Raises :class:`Quit`."""
        self.console.file.flush()
        read = self._read
        if secret:
            read = self._read_secret or (getpass.getpass if self.interactive() else self._read)
        try:
            answer = read(prompt)
        except EOFError:
            raise Quit("input ended") from None
        if answer.strip().lower() in QUIT_WORDS:
            raise Quit("quit")
        return answer.strip()

    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(escape(text), style=style)

    def clear(self) -> None:
        """Clear the screen (a terminal only: a pipe or a file keeps everything)."""
        self.console.file.flush()
        self.console.clear()


def parse_dice(text: str, sides: int) -> list[Any]:
    """Typed dice: numbers separated by spaces or commas, or for dice of up to 9 sides a run of digits.

    Anything that is not a number is kept as typed, so the check that follows names it.

    >>> parse_dice("5 2 6", 6), parse_dice("526", 6), parse_dice("5,x", 6)
    ([5, 2, 6], [5, 2, 6], [5, 'x'])
    """
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    if len(tokens) == 1 and is_count(tokens[0]) and sides <= 9 and len(tokens[0]) > 1:
        return [int(ch) for ch in tokens[0]]
    return [number if (number := read_int(t)) is not None else t for t in tokens]


_WORDS = {"help", "board", "why"}  # words of the prompt itself, said alone (no action begins with one)


class TypedDice(ManualDice):
    """A referee types what the table rolled; the prompt says what, how many dice and for whom."""

    def __init__(self, prompter: Prompter) -> None:
        self.prompter = prompter
        self.board: Callable[[], str] | None = None  # set once the game exists: 'board' at a dice prompt
        self.why: Callable[[], list[str]] | None = None  # the session's: 'why' at a dice prompt
        self.listener: Callable[[Event], None] | None = None  # the live display, for the game it rolls for

        def ask(n: int, sides: int, purpose: str, problem: str | None) -> Sequence[int]:
            if problem:
                prompter.say(f"  refused: {problem}; roll again or type the dice again", style="red")
            count = f"{n} {'die' if n == 1 else 'dice'}" + ("" if sides == 6 else f" (d{sides})")
            while True:
                answer = prompter.ask(f"dice: {purpose}: {count}> ")
                word = answer.lower()
                if word in ("help", "?", "h"):
                    prompter.say(DICE_HELP.format(count=count))
                elif word in ("board", "b"):
                    prompter.say(self.board() if self.board is not None else "the table is still being set up")
                elif word in ("why", "w"):
                    for line in self.why() if self.why is not None else ["no bot has moved yet"]:
                        prompter.say(line)
                elif word == "resign":
                    prompter.say("finish this roll first: a side resigns at one of its decisions")
                else:
                    return parse_dice(answer, sides)

        super().__init__(ask)
        self.kept: Callable[[str, int, Sequence[int]], None] | None = None  # each roll typed, as it is typed
        self.waiting: list[tuple[str, int, list[int]]] = []  # typed before the program stopped: used again

    def roll(self, n: int, sides: int = 6, purpose: str = "") -> list[int]:
        """A roll typed (or, after a stop, the one typed for it before, shown and kept), then written down."""
        if self.waiting:
            was_purpose, was_sides, values = self.waiting[0]
            if (was_purpose, was_sides, len(values)) == (purpose, sides, n):
                self.waiting.pop(0)
                shown = " ".join(map(str, values))
                self.prompter.say(f"dice: {purpose}: {shown} (typed before the program stopped: kept)")
                if self.kept is not None:
                    self.kept(purpose, sides, values)
                return list(values)
            left = "; ".join(f"{p}: {' '.join(map(str, v))}" for p, _, v in self.waiting)
            self.prompter.say(f"the game asks for another roll than was typed before the stop; not kept: {left}")
            self.waiting = []
        values = super().roll(n, sides, purpose)
        if self.kept is not None and values:
            self.kept(purpose, sides, values)
        return values


DICE_HELP = """Roll {count} at the table and type what they show: 5 2 6 1, 5,2,6,1 or 5261.
'board' shows the table, 'why' the bots' last reasons, 'quit' stops here (with --record the game so far is saved)."""


HELP = """Answer with the number of a choice, or type an order in full ({usage}).
A point is X,Y or X Y (inches), in every rule set.
Other words: 'preview ORDER' tells what an order would do without giving it,
'draw FILE.svg [ORDER]' draws the table (with the order's path, if given) to a picture,
'board' shows the whole table, 'choices' lists the choices again,
'why' tells why the bots made their last moves (the rule they followed, what else they weighed),
'undo' takes back the last order a person gave (and what the bots did since)
until a die is rolled or a secret revealed: an order whose dice were rolled stands,
'help' shows this, 'resign' gives up the game for your side (asked again to be sure), 'quit' stops here
(with --record the game is saved and --resume continues it)."""

RESIGN_WORDS = {"yes", "y"}
WHY_KEPT = 6  # the bot moves whose reasons 'why' shows, the latest last


class HumanPlayer:
    """A person at the keyboard answering the decisions of one or more seats."""

    def __init__(self, ruleset: Ruleset, prompter: Prompter, why: Callable[[], list[str]] | None = None) -> None:
        self.ruleset = ruleset
        self.prompter = prompter
        self.why = why  # the last bot moves' reasons ('why')

    def show(self, game: Game, decision: Decision, menu: list[Any]) -> None:
        say = self.prompter.say
        lines = self.ruleset.situation(game, decision)
        if lines:
            say(lines[0], style="bold")
            for line in lines[1:]:
                say(f"  {line}")
        else:
            say(f"{decision.seat}: {decision.prompt}", style="bold")
        for number, action in enumerate(menu, 1):
            extra = self.advice(game, action)
            say(f"  {number:>2}  {action!s:<28} {' - '.join(extra)}")

    def advice(self, game: Game, action: Any) -> list[str]:
        """The adviser's note and dice odds of ``action``, those it has."""
        adviser = self.ruleset.adviser
        if adviser is None:
            return []
        return [text for text in (adviser.note(game, action), adviser.odds(game, action)) if text]

    def preview(self, game: Game, decision: Decision, text: str) -> None:
        """What the order ``text`` would do (the rule set's note and odds), or why it is refused; nothing is given."""
        try:
            action = self.ruleset.parse_action(text)
            decision.space.check(action)
        except GrognardError as exc:
            self.prompter.say(f"refused: {exc}", style="red")
            return
        extra = self.advice(game, action)
        self.prompter.say(f"  preview {action}: {' - '.join(extra) or 'legal'} (not given: type the order to give it)")

    def draw(self, game: Game, decision: Decision, text: str) -> None:
        """Write the table as ``decision.seat`` sees it to a picture (``FILE [ORDER]``), the order drawn in."""
        force = text.startswith("--force")
        path, _, order = text.removeprefix("--force").strip().partition(" ")
        if not path:
            self.prompter.say("draw [--force] FILE.svg [ORDER]: name the picture to write (.svg or .png)", style="red")
            return
        if self.ruleset.render is None:
            self.prompter.say(f"{self.ruleset.name} cannot be drawn yet", style="red")
            return
        try:
            check_output(Path(path), force, "draw")
            view = game.view(decision.seat)
            if order.strip():
                action = self.ruleset.parse_action(order)
                decision.space.check(action)
                if self.ruleset.adviser is not None:
                    view = self.ruleset.adviser.preview(game, decision.seat, action)
            write_picture(self.ruleset.render(view), Path(path), "draw")
        except GrognardError as exc:
            self.prompter.say(f"refused: {exc}", style="red")
            return
        drawn = f" with {order.strip()} drawn in" if order.strip() and self.ruleset.adviser is not None else ""
        self.prompter.say(f"  drew the table{drawn} to {path} (nothing given yet)")

    def confirm_resign(self, game: Game, seat: str) -> bool:
        """Ask once more before ``seat`` gives up the game: only 'yes' resigns."""
        side = game.side_of(seat)
        others = [s for s in type(game).sides if s != side]
        winner = f"; {', '.join(others)} win" if others else ""
        answer = self.prompter.ask(f"resign for {seat}? The game ends now{winner}. Type yes to resign> ")
        if answer.lower() in RESIGN_WORDS:
            return True
        self.prompter.say(f"not resigned: {seat} plays on")
        return False

    def choose(self, game: Game, decision: Decision) -> Any:
        """The person's answer to ``decision``: an action it contains. Raises Resign, TakeBack or Quit.

        A secret choice (``decision.secret_group``) is typed without echo at a terminal.
        """
        if self.ruleset.adviser is not None:  # the rule set's own: useful first, every legal target
            menu = [action for action, _ in self.ruleset.adviser.menu(game, decision)]
        else:
            menu = decision.space.candidates(12)
        self.show(game, decision, menu)
        secret = decision.secret_group is not None
        while True:
            answer = self.prompter.ask(f"{decision.seat}> ", secret=secret)
            word = answer.lower()
            if not answer:
                continue
            head, *rest = word.split() or [""]
            if rest and head in _WORDS:  # 'why 3' read as an action said "unknown action 'why'"
                self.prompter.say(f"refused: {answer!r}: '{head}' takes nothing after it; type {head}", style="red")
                continue
            if word in ("help", "?", "h"):
                usage = "; ".join(self.ruleset.usage) or "see the choices"
                self.prompter.say(HELP.format(usage=usage))
                continue
            if word in ("board", "b"):
                board = self.ruleset.board(game, decision.seat)
                if board is not None:
                    self.prompter.say(board)
                continue
            if word in ("why", "w"):
                for line in self.why() if self.why is not None else ["no bot plays in this game"]:
                    self.prompter.say(line)
                continue
            if word in ("choices", "c", "list"):
                self.show(game, decision, menu)
                continue
            if word == "resign":
                if self.confirm_resign(game, decision.seat):
                    raise Resign(decision.seat)
                continue
            if word in ("undo", "take back"):
                raise TakeBack(decision.seat)
            if word.startswith("draw ") or word == "draw":
                self.draw(game, decision, answer[len("draw") :].strip())
                continue
            if word.startswith("preview ") or word == "preview":
                self.preview(game, decision, answer[len("preview") :].strip())
                continue
            if is_count(answer):
                index = int(answer)
                if 1 <= index <= len(menu):
                    return menu[index - 1]
                self.prompter.say(f"no choice {index}: choose 1 to {len(menu)}", style="red")
                continue
            try:
                action = self.ruleset.parse_action(answer)
                key = game.decision_id(action)
                if key is not None and key != decision.id and (absent := game.missing(action)) is not None:
                    self.prompter.say(f"refused: {absent}", style="red")
                    continue
                if key is not None and key != decision.id:
                    self.prompter.say(
                        f"refused: {action} answers '{key}', but this question is '{decision.id}' ({decision.prompt})",
                        style="red",
                    )
                    continue
                decision.space.check(action)
            except GrognardError as exc:
                self.prompter.say(f"refused: {exc}", style="red")
                continue
            return action


def short_labels(seats: Sequence[str]) -> dict[str, str]:
    """Seats' short labels (``G1`` for ``German 1``), upper case; a label two seats share (skirmish's
    ``Allies 1`` and ``Axis 1``) is left out: those seats go by name.

    >>> short_labels(["American 1", "German 1"]), short_labels(["Allies 1", "Axis 1"])
    ({'A1': 'American 1', 'G1': 'German 1'}, {})
    """
    labels = [(f"{s.split()[0][0]}{s.split()[-1]}".upper(), s) for s in seats if len(s.split()) == 2]
    counts = Counter(label for label, _ in labels)
    return {label: s for label, s in labels if counts[label] == 1}


def parse_humans(spec: str | None, game: Game, flag: str = "--human") -> set[str]:
    """The seats people take: a side (``american``), ``all``, or seats by name or short label (``A3,G1``).

    ``flag`` is the option the text came from, named in the error of a seat that does not exist. None is
    nobody; an empty text, an empty item of the list, or a seat named twice (itself, or through its side or
    ``all``) is refused.
    """
    if spec is None:
        return set()
    if not spec.strip():
        raise OptionError(f"{flag} {spec!r}: names no side or seat (leave {flag} out for bots on every seat)")
    seats = game.seats()
    sides = {side: [s for s in seats if game.side_of(s) == side] for side in type(game).sides}
    short = short_labels(seats)
    chosen: dict[str, str] = {}  # seat -> the item that named it
    for part in (p.strip() for p in spec.split(",")):
        if not part:
            raise OptionError(f"{flag} {spec!r}: an empty item in the list")
        lowered = part.lower()
        if lowered == "all":
            named = list(seats)
        elif lowered in sides:
            named = sides[lowered]
        elif part.upper() in short:
            named = [short[part.upper()]]
        else:
            match = next((s for s in seats if s.lower() == lowered), None)
            if match is None:
                shorts = f" (or short: {', '.join(list(short)[:2])} ...)" if short else ""
                listed = f"{seats[0]} ... {seats[-1]}" if len(seats) > 2 else ", ".join(seats)
                raise OptionError(
                    f"{flag} {part!r}: no such side or seat; sides: {', '.join(sides)}; seats: {listed}{shorts}"
                )
            named = [match]
        for seat in named:
            if seat in chosen:
                again = "twice" if chosen[seat] == part else f"twice ({chosen[seat]} and {part})"
                raise OptionError(f"{flag} {spec!r}: {seat} is named {again}; name each seat once")
            chosen[seat] = part
    return set(chosen)


def one_seat(spec: str, game: Game, flag: str = "--seat") -> str | None:
    """The one seat ``spec`` names (by name, short label or a side of one seat), as :func:`parse_humans` reads it;
    None for ``spectator`` (no seat: what every seat may see)."""
    if spec.strip().lower() == "spectator":
        return None
    try:
        chosen = parse_humans(spec, game, flag=flag)
    except OptionError as exc:
        raise OptionError(f"{exc}, or spectator") from None
    if len(chosen) != 1:
        raise OptionError(f"{flag} {spec!r}: name one seat (e.g. A3 or 'German 1')")
    return chosen.pop()


class Session:
    """Runs a game at the terminal: bots and people answer, events are printed, the record is written."""

    def __init__(
        self,
        ruleset: Ruleset,
        game: Game,
        writer: RecordWriter | StepCounter,
        bot_for_side: dict[str, str],
        humans: set[str],
        prompter: Prompter,
        bot_seed: int,
        on_events: Callable[[list[Event]], None],
        dice_after: Callable[[Replay], DiceSource] | None = None,
        explain: bool = False,
    ) -> None:
        self.ruleset, self.game, self.writer = ruleset, game, writer
        # a bot's reasons are built when someone reads them: --explain prints each, 'why' at a person's prompt
        # shows the last ones; a game of bots alone without --explain builds none (and its record is as before)
        self.explain = explain
        self.reasons: deque[tuple[str, Reason]] = deque(maxlen=WHY_KEPT)
        self.dice_after = dice_after  # the dice a game rebuilt by 'undo' rolls on with (None: no undo)
        self.taken_back = 0  # orders 'undo' has taken back
        self.bot_for_side = bot_for_side
        self.humans = humans
        self.human = HumanPlayer(ruleset, prompter, self.why)
        self.prompter = prompter
        self.bot_seed = bot_seed
        self.bot_rng = np.random.default_rng(0)
        self.bots: dict[str, Bot] = {}
        self.on_events = on_events
        self.plans: dict[str, Plan] = {}  # side -> the plan its bots follow (grognard.core.plans)

    @property
    def step(self) -> int:
        """Actions recorded so far: keys the bots' random stream, so a resumed game plays on the same."""
        return self.writer.steps

    def bot(self, seat: str) -> Bot:
        bot = self.bots.get(seat)
        if bot is None:
            side = self.game.side_of(seat)
            bot = self.bots[seat] = self.ruleset.bots[self.bot_for_side[side]](self.bot_rng)
            if side in self.plans:
                bot.follow(self.plans[side])  # type: ignore[attr-defined]  # checked: plans.check_followed
        key = stream(self.bot_seed, BOTS, self.step)
        self.bot_rng.bit_generator.state = np.random.PCG64(key).state
        return bot

    def run(self) -> Result | None:
        """Play until the game ends (its result) or a person quits (None)."""
        while not self.game.is_over:
            game = self.game
            pending = game.pending()
            if not pending:
                raise RuntimeError(f"{type(game).__name__} owes no decision but is not over")
            decision = pending[0]
            hidden = decision.secret_group is not None and decision.seat in self.humans and len(self.humans) > 1
            try:
                if decision.seat in self.humans:
                    if hidden:
                        self.hand_over(decision.seat)
                    action = self.human.choose(game, decision)
                    reason = None
                else:
                    bot = self.bot(decision.seat)
                    action = bot.choose(game, decision)
                    reason = self.reason(bot, decision, action)
                events = game.apply(decision.seat, action)
            except Resign as resign:
                events = game.resign(resign.seat)
                self.writer.resignation(game, resign.seat, events)
                self.on_events(events)
                break
            except TakeBack as asked:
                self.take_back(asked.seat)
                continue
            except Quit:
                return None
            self.writer.action(game, decision.seat, action, events, reason)
            if hidden:  # hot seat: the next person must not read this seat's screen
                self.prompter.clear()
                self.prompter.say(f"{decision.seat}: chosen, sealed until every side has chosen")
            self.on_events(events)
        return self.game.result

    def reason(self, bot: Bot, decision: Decision, action: Any) -> dict[str, Any] | None:
        """``bot``'s reason for ``action`` when someone will read it (``--explain``, or people at the keyboard),
        kept for 'why' and printed with ``--explain``; its JSON form for the record (None: not built)."""
        if not (self.explain or self.humans or isinstance(self.game.dice, TypedDice)):
            return None  # no one reads it: not --explain, no person at a prompt, no referee typing the dice
        reason = reason_for(bot, self.game, decision, action)
        if reason is None:
            return None
        if decision.secret_group is None:  # a secret choice's reason is not shown: the record keeps it for its seat
            self.reasons.append((decision.seat, reason))
            if self.explain:
                self.prompter.say(f"  {decision.seat}: {reason.line} ({reason.clause})", style="dim")
        return reason_json(self.game, decision, reason)

    def why(self) -> list[str]:
        """The last bot moves' reasons, with the candidates each weighed ('why' at a prompt)."""
        if not self.reasons:
            return ["no bot has moved yet"]
        out = []
        for seat, reason in self.reasons:
            first, *rest = reason.lines()
            out += [f"{seat}: {first}", *rest]
        return out

    def hand_over(self, seat: str) -> None:
        """Before a secret choice in hot seat: clear the screen and, at a terminal, wait for ``seat``."""
        self.prompter.clear()
        self.prompter.say(f"{seat}: a secret choice. Only {seat} should see the screen now.", style="bold")
        if self.prompter.interactive():
            self.prompter.ask(f"{seat}, press Enter when the others look away> ")

    def take_back(self, asker: str) -> None:
        """``undo`` asked at ``asker``'s prompt: rebuild the game from its record without the last action a
        person gave (and the bots' actions after it), as the web's take back does; the file on disk loses
        those lines too. In hot seat only that order's own side may take it back: the person at the
        keyboard cannot undo the other side's order (a sealed secret choice among them). An order stands once
        it or a bot's action after it rolled a die or revealed a secret (:mod:`grognard.core.takeback`): taken
        back, it would roll the same dice again, which the person has seen."""
        writer = self.writer
        lines = writer.lines if isinstance(writer, RecordWriter) else []
        people = [i for i, line in enumerate(lines) if line.get("type") == "action" and line.get("seat") in self.humans]
        if self.dice_after is None or not people:
            why = (
                "every order a person gave is taken back already"
                if self.taken_back
                else "no person has given an order yet"
            )
            self.prompter.say(f"nothing to take back: {why}", style="red")
            return
        keep = people[-1]
        undone = lines[keep]
        game = self.game
        if game.side_of(undone["seat"]) != game.side_of(asker):
            self.prompter.say(
                f"nothing of yours to take back: the last order was {possessive(undone['seat'])}"
                f" ({game.side_of(undone['seat'])}), and only that side may take it back",
                style="red",
            )
            return
        if (stand := stands(lines[keep:])) is not None:
            self.prompter.say(f"that order stands: {stand}", style="red")
            return
        rebuilt = replay(lines[:keep], rulesets.get)
        game = rebuilt.game
        game.dice = self.dice_after(rebuilt)
        game.listener = self.game.listener
        assert isinstance(writer, RecordWriter)
        if writer.sink is not None:
            _truncate_lines(writer.sink, keep)
        self.writer = RecordWriter.resume(rebuilt.used, writer.sink)
        self.writer.plans = dict(writer.plans)  # the plans committed at set-up, still to be revealed
        self.game = game
        self.bots = {}
        bots = len(lines) - keep - 1
        after = f" and {bots} bot action{'' if bots == 1 else 's'} after it" if bots else ""
        self.taken_back += 1
        self.prompter.say(f"took back {possessive(undone['seat'])} {undone['action']}{after}; turn {game.turn} again")


def _truncate_lines(sink: IO[str], keep: int) -> None:
    """Cut the open record file ``sink`` after its first ``keep`` lines; writing goes on at the new end."""
    sink.flush()
    with open(sink.name, "rb") as whole:
        data = whole.read()
    end = 0
    for _ in range(keep):
        end = data.index(b"\n", end) + 1
    sink.truncate(end)
    sink.seek(0, 2)
