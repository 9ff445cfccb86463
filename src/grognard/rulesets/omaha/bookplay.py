"""The book's bots playing a whole phase in one pass (issue 33, item 2): what the per-decision fast path does,
without a decision's round trip.

On the fast path with nobody reading the game (``Game.play_bots`` of an unobserved game: Monte Carlo, search
playouts), every decision of the Americans' or the Germans' phase whose seat's bot is the book's
(:class:`~grognard.rulesets.omaha.bots.DoctrineBot` itself, following no plan) is answered here in the order
``pending`` owes them: the same doctrine (``bots.american_orders``, ``bots.german_target``), the same checks
(``check_fast``), the same book's fire and moves (the game's ``_move``, ``_fight``, ``_bunker_fire``,
``_artillery``), the same state after it. What it leaves out is the protocol's work a decision: asking the
bot's ``choose`` to dispatch on the space, making the action it names, and the engine's and ``_apply``'s
bookkeeping of what is still owed.

A decision of another seat's bot (a plan, a search, a person's stand-in) stops the pass; the engine's step answers
it (``OmahaGame.play_bots``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.actions import Move
from grognard.rulesets.omaha.bots import DoctrineBot, american_orders, german_target
from grognard.rulesets.omaha.game import OmahaGame
from grognard.rulesets.omaha.spaces import FightSpace, OrdersSpace, TargetSpace


def plays_book(bot: Any) -> bool:
    """Whether ``bot`` answers every decision of a phase by the book alone: a :class:`DoctrineBot` (not a kind
    of it that may choose otherwise) following no plan."""
    return type(bot) is DoctrineBot and bot.plan is None


class _Book(dict[str, bool]):
    """Whether each seat's bot plays the book (:func:`plays_book`), by seat: ``player_for`` asked once a seat in a
    pass (:func:`play_phase`; the engine's step asks it again for a seat not the book's), not once a decision."""

    def __init__(self, player_for: Callable[[str], Any]) -> None:
        super().__init__()
        self.player_for = player_for

    def __missing__(self, seat: str) -> bool:
        found = self[seat] = plays_book(self.player_for(seat))
        return found


def play_phase(game: OmahaGame, player_for: Callable[[str], Any]) -> int:
    """Answer the decisions owed now, in order, while each is the Americans' or the Germans' phase's and its seat's
    bot plays the book; returns how many were answered (0: the first owed is not such a one).

    The phase ended, the automatic phases run as after the per-decision path's last answer (``_advance``); a
    refusal (``IllegalAction`` from a space's ``check_fast``) leaves the game as the per-decision path does: the
    decisions answered before it applied, the refused one still owed, its state untouched."""
    s = game.state
    answered = 0
    game._pending = None  # what the engine held is answered here: pending() works it out (a refusal included)
    book = _Book(player_for)
    while s.outcome is None and s.phase in ("americans", "germans"):
        if s.phase == "germans":
            played, stopped = _germans(game, game._owed_now(), book)
        elif game._owed is None and not s.done:  # the phase's decisions not worked out yet (_advance): none needed
            played, stopped = _squads(game, book)
        else:
            played, stopped = _americans(game, game._owed_now(), book)
        answered += played
        if stopped:
            break  # a seat not the book's owes the next: the engine's step answers it
        if game._owed is not None:
            game._advance()  # the phase answered: its end, morale, the next turn's landings
    return answered


def _squads(game: OmahaGame, book: _Book) -> tuple[int, bool]:
    """The whole Americans' phase by the book, its decisions never made: every squad on the table in order (those
    ``_build`` would owe), its orders checked as its decision's ``check_fast`` would (a move by the rules' reach
    stands proved; a squad staying put and a fight are checked in full); how many were answered, and whether a
    seat not the book's stopped it (its decision and those after it worked out by ``pending``)."""
    s = game.state
    done = s.done
    answered = 0
    for player in s.americans:
        squad = player.squad
        if squad is None:
            continue
        if not book[player.seat]:
            return answered, True
        action = american_orders(game, squad)
        if isinstance(action, Move):
            if action.x == squad.x and action.y == squad.y:  # reach proves no point it stays at
                R.check_move(s, squad, action.x, action.y)
        else:
            FightSpace(game, squad).check(action)
        game.actions_applied += 1
        done.add(f"orders {player.label}")
        answered += 1
        if isinstance(action, Move):
            game._place(squad, action.x, action.y)  # a point reach gives (snapped)
        else:
            game._fight(action)
    game._owed = (s, ())
    return answered, False


def _americans(game: OmahaGame, owed: tuple[Any, ...], book: _Book) -> tuple[int, bool]:
    """The squads' orders of ``owed`` by the book, in order (as ``_apply`` does each); how many were answered, and
    whether a seat not the book's stopped it."""
    s = game.state
    done = s.done
    answered = 0
    try:
        for decision in owed:
            space = decision.space
            if type(space) is not OrdersSpace:
                return answered, True
            if not book[decision.seat]:
                return answered, True
            action = american_orders(game, space.squad, space)
            space.check_fast(action)
            game.actions_applied += 1
            done.add(decision.id)
            answered += 1
            if isinstance(action, Move):
                game._move(action)
            else:
                game._fight(action)
    finally:
        if game._owed is not None:
            game._owed = (s, owed[answered:])
    return answered, False


def _germans(game: OmahaGame, owed: tuple[Any, ...], book: _Book) -> tuple[int, bool]:
    """The bunkers' fire and the strikes of ``owed`` by the book, in order, until a squad leaves the table (the
    decisions are then worked out again: ``_owed`` is None); how many were answered, and whether a seat not the
    book's stopped it."""
    s = game.state
    done = s.done
    answered = 0
    try:
        for decision in owed:
            space = decision.space
            if type(space) is not TargetSpace:
                return answered, True
            if not book[decision.seat]:
                return answered, True
            artillery = space.artillery
            memo = game.target_memo  # german_target's, read here (as the bot's choose does)
            if memo is None or memo[0] is not s or memo[1] != game.squads_version:
                target = german_target(game, artillery=artillery)
            else:
                target = memo[3] if artillery else memo[2]
            game.actions_applied += 1
            done.add(decision.id)
            answered += 1
            if target is not None:
                if artillery:
                    game._artillery(space.who, target)
                else:
                    game._bunker_fire(s.bunkers[int(space.who[1:]) - 1], target)
                if game._owed is None:
                    return answered, False  # a squad has left: what is owed is worked out again
    finally:
        if game._owed is not None:
            game._owed = (s, owed[answered:])
    return answered, False
