"""Omaha's one-game engine, lean per decision (issue 33, item 2): a bot's order on the fast path hands ``pending``
the rest of the phase as it stands (no decision worked out again), and the phase so handed on is the one the
rules owe (the same as a copy works out afresh); a mechanic counts its successes of any whole number type; a bot's
move built by its decision's own space (by the rules' reach) is not checked again on the fast path, anything else
is; ``play_out`` on the fast path with nothing recorded plays through ``Game.play_bots``, the game ``apply`` plays."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from grognard.core.dice import (
    BOTS,
    DICE,
    AnySuccess,
    ScriptedDice,
    SeededDice,
    SuccessCount,
    game_dice_generator,
    stream,
)
from grognard.core.engine import Game
from grognard.core.errors import IllegalAction
from grognard.core.play import play_out
from grognard.rulesets import get
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.actions import Fight, Move
from grognard.rulesets.omaha.game import OmahaGame


def _to_the_americans(seed: int) -> tuple[Game, Any]:
    ruleset = get("omaha")
    game = ruleset.create({}, SeededDice(stream(seed, 0, DICE))).unobserved()
    bot = ruleset.bots["doctrine"](np.random.default_rng(stream(seed, 0, BOTS)))
    while not game.pending()[0].id.startswith("orders"):
        decision = game.pending()[0]
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    return game, bot


def test_a_bots_order_hands_pending_the_rest_of_the_phase_as_it_stands() -> None:
    for seed in (3, 4):
        game, bot = _to_the_americans(seed)
        owed = game.pending()
        assert len(owed) > 2
        decision = owed[0]
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
        # the engine holds the rest of the phase, the very decisions owed before (nothing rebuilt or searched)
        assert game._pending is not None
        assert all(a is b for a, b in zip(game._pending, owed[1:], strict=True))
        fresh = game.clone()  # a copy remembers no decisions: it works them out from the state
        assert [d.id for d in fresh.pending()] == [d.id for d in game.pending()]


def test_a_phase_played_through_on_the_fast_path_owes_what_a_copy_works_out() -> None:
    game, bot = _to_the_americans(5)
    for _ in range(60):  # through the Americans' phase, the Germans' and into the next turn
        fresh = game.clone()
        assert [(d.id, d.seat) for d in game.pending()] == [(d.id, d.seat) for d in fresh.pending()]
        decision = game.pending()[0]
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)


def test_a_mechanic_counts_successes_of_any_whole_number_type() -> None:
    values = [np.int64(6), 5, np.int8(4), 6, True]  # a source may hand numpy's integers
    assert SuccessCount(dice=5, target=5).roll(ScriptedDice([int(v) for v in values]), "test") == 3
    assert SuccessCount(dice=5, target=5).roll(_Fixed(values), "test") == 3
    assert AnySuccess(dice=2, target=6).roll(_Fixed([np.int64(6), 1]), "test") is True
    assert AnySuccess(dice=2, target=6).roll(_Fixed([np.int64(5), 1]), "test") is False


class _Fixed:
    """A dice source handing the values given, whatever their type (a source's own, not ScriptedDice's check)."""

    def __init__(self, values: list[object]) -> None:
        self.values = values

    def roll(self, n: int, sides: int = 6, purpose: str = "") -> list[object]:
        return self.values[:n]


def test_one_seed_sequence_makes_a_games_dice_as_two_do() -> None:
    """The batch path's dice of game ``i`` (issue 33, item 5): one ``SeedSequence`` a game, the same dice as
    ``SeededDice(stream(seed, i, DICE))`` draws."""
    for seed, index in ((1, 0), (1, 19_999), (7, 3), (0, 0), (2**40, 9)):
        made = game_dice_generator(seed, index, 6).integers(1, 7, size=64)
        assert made.tolist() == SeededDice(stream(seed, index, DICE)).roll(64)


def test_the_batch_finds_each_move_it_remembers_where_it_put_it() -> None:
    """Moves found fresh are remembered (``geometry.REACHED``) in a hash table, two slots a hash: each key
    once, found in the slot it was put in, an unknown key not found; a batch played again from them plays
    the same games."""
    from grognard.rulesets.omaha.batch import geometry, play_batch

    options = get("omaha").resolve({"germans": 2})
    doctrine = {"american": "doctrine", "german": "doctrine"}
    geometry.REACHED.clear()
    first = play_batch(options, doctrine, 3, 0, 24)
    (table,) = geometry.REACHED.values()
    kept = np.nonzero(table.keys >= 0)[0]
    keys = table.keys[kept]
    assert len(keys) > 50 and len(np.unique(keys)) == len(keys)
    spot, hit = table.find(keys)
    assert hit.all() and (spot == kept).all()
    _, hit = table.find(np.array([1, 2**59 + 3], dtype=np.int64))
    assert not hit.any()
    assert play_batch(options, doctrine, 3, 0, 24) == first


def _counting_move_checks(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The moves ``rules.check_move`` works out from now on (the real check, counted)."""
    checked: list[Any] = []
    real = R.check_move

    def counted(state: Any, squad: Any, x: float, y: float) -> None:
        checked.append((squad.label, x, y))
        real(state, squad, x, y)

    monkeypatch.setattr(R, "check_move", counted)
    return checked


def test_a_move_its_space_built_is_not_checked_again_and_any_other_is(monkeypatch: pytest.MonkeyPatch) -> None:
    game, bot = _to_the_americans(3)
    decision = game.pending()[0]
    space = decision.space
    squad = space.squad  # type: ignore[attr-defined]
    book = bot.choose(game, decision)
    built = space.toward(squad.x, R.WALL_Y)  # type: ignore[attr-defined]
    assert built == book and (built.x, built.y) != (squad.x, squad.y)  # the book's move, built by the space
    checked = _counting_move_checks(monkeypatch)
    space.check_fast(Move(built.squad, built.x, built.y))  # the same move, not the one built: checked in full
    assert checked == [(squad.label, built.x, built.y)]
    space.check_fast(built)
    assert len(checked) == 1  # reach proved it legal: not worked out again
    space.check(built)  # a person's check of the same move works it out
    assert len(checked) == 2
    game.changed()  # the state may have changed: the move built before is checked again
    space.check_fast(built)
    assert len(checked) == 3
    far = Move(squad.label, squad.x, squad.y + 20.0)
    with pytest.raises(IllegalAction) as refusal:
        space.check_fast(far)
    assert refusal.value.rule == "omaha.14"


def test_a_move_built_for_a_state_gone_is_refused_when_it_is_illegal_now() -> None:
    game, _ = _to_the_americans(4)
    decision = game.pending()[0]
    space = decision.space
    squad = space.squad  # type: ignore[attr-defined]
    built = space.toward(squad.x, R.WALL_Y)  # type: ignore[attr-defined]
    squad.y -= 3.0  # further out to sea: the point built is out of the squad's reach now
    game.changed()
    digest = game.digest()
    with pytest.raises(IllegalAction) as refusal:
        game.apply(decision.seat, built, checked=False, decision=game.pending()[0])
    assert refusal.value.rule == "omaha.14" and game.digest() == digest


def _doctrine_game(name: str, options: Any, seed: int) -> tuple[Game, dict[str, Any]]:
    """Rule set ``name``'s game 0 of ``seed`` on ``options``, unobserved, and the book's bot of each side (one
    stream)."""
    ruleset = get(name)
    game = ruleset.new_game(options, SeededDice(stream(seed, 0, DICE))).unobserved()
    rng = np.random.default_rng(stream(seed, 0, BOTS))
    return game, {side: ruleset.bots["doctrine"](rng) for side in ruleset.sides}


def _stepped(game: Game, bots: dict[str, Any]) -> Any:
    """``play_out``'s loop written out: each first owed decision answered through ``apply`` on the fast path."""
    while game.result is None:
        decision = game.pending()[0]
        action = bots[game.side_of(decision.seat)].choose(game, decision)
        game.apply(decision.seat, action, checked=False, decision=decision)
    return game.result


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("omaha", {}),
        ("omaha", {"hidden_obstacles": True, "fresh_squads": 2, "out_joins_germans": True}),
        ("omaha", {"bunker_targets": "not_past_wall", "artillery_needs_bunker": True, "deep_water": True}),
        ("omaha", {"victory": "bunkers_only", "shoot_from": "wall", "germans": 2}),
        ("b17", {}),
    ],
)
def test_play_out_on_the_fast_path_plays_the_game_apply_plays(name: str, options: dict[str, Any]) -> None:
    ruleset = get(name)
    resolved = ruleset.resolve(options)
    finals = []
    for through_play_out in (True, False):
        game, bots = _doctrine_game(name, resolved, 8)
        if through_play_out:
            result = play_out(game, lambda seat, g=game, b=bots: b[g.side_of(seat)], checked=False)
        else:
            result = _stepped(game, bots)
        finals.append((result, game.digest(), game.take_events()))
    assert finals[0] == finals[1]
    assert finals[0][2] == []


class _Wrong:
    """Answers every squad's orders with a move far past its allowance (the book for the rest)."""

    def __init__(self, book: Any) -> None:
        self.book = book

    def choose(self, game: Any, decision: Any) -> Any:
        if decision.id.startswith("orders "):
            squad = decision.space.squad
            return Move(squad.label, squad.x, squad.y + 20.0)
        return self.book.choose(game, decision)


def test_play_bots_refuses_a_bots_illegal_order_and_leaves_the_state_as_it_was() -> None:
    game, bot = _to_the_americans(6)
    digest, owed = game.digest(), [d.id for d in game.pending()]
    with pytest.raises(IllegalAction) as refusal:
        game.play_bots(lambda seat: _Wrong(bot))
    assert refusal.value.rule == "omaha.14"
    assert game.digest() == digest and [d.id for d in game.pending()] == owed
    hold = Fight(game.pending()[0].id.split()[1])
    game.apply(game.pending()[0].seat, hold, checked=False, decision=game.pending()[0])  # it plays on


def _choices_counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The decisions the book's bots answer through ``DoctrineBot.choose`` from now on (the real one, counted)."""
    from grognard.rulesets.omaha.bots import DoctrineBot

    asked: list[str] = []
    real = DoctrineBot.choose

    def counted(self: Any, game: Any, decision: Any) -> Any:
        asked.append(decision.id)
        return real(self, game, decision)

    monkeypatch.setattr(DoctrineBot, "choose", counted)
    return asked


def test_the_book_plays_its_phases_in_one_pass_and_the_game_apply_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unobserved, on the fast path, the Americans' and the Germans' phases of book bots are played without a
    decision's round trip (no ``choose``: only the placements are asked), and it is the game ``apply`` plays."""
    asked = _choices_counted(monkeypatch)
    made: list[str] = []
    real_orders = OmahaGame._orders

    def orders(self: Any, player: Any) -> Any:
        made.append(player.label)
        return real_orders(self, player)

    monkeypatch.setattr(OmahaGame, "_orders", orders)
    ruleset = get("omaha")
    resolved = ruleset.resolve({"turn_cap": 12})
    finals = []
    for through_play_out in (True, False):
        game, bots = _doctrine_game("omaha", resolved, 9)
        asked.clear()
        if through_play_out:
            result = play_out(game, lambda seat, g=game, b=bots: b[g.side_of(seat)], checked=False)
            assert asked == [f"place G{k}" for k in range(1, 7)]
            assert made == []  # no squad's decision was made
        else:
            result = _stepped(game, bots)
            assert len(asked) > 200
        finals.append((result, game.digest()))
    assert finals[0] == finals[1]


class _Asked:
    """The book's bot behind another type: its every answer is asked of it (not the book's one pass)."""

    def __init__(self, book: Any) -> None:
        self.book = book

    def choose(self, game: Any, decision: Any) -> Any:
        return self.book.choose(game, decision)


@pytest.mark.parametrize("other", ["german plan", "american asked"])
def test_a_phase_in_one_pass_hands_a_seat_not_the_books_its_decision_and_plays_on(other: str) -> None:
    """One side the book's, the other not (Germans following a plan, or Americans each asked): the book's side's
    phases in one pass, the other's decisions asked of its bot one by one, and the game the one ``apply`` plays."""
    from grognard.rulesets.omaha.levels import PLANS

    ruleset = get("omaha")
    resolved = ruleset.resolve({"turn_cap": 10})
    finals = []
    for through_play_out in (True, False):
        game, bots = _doctrine_game("omaha", resolved, 10)
        if other == "german plan":
            bots["german"].follow(next(iter(PLANS.values()))[0])
        else:
            bots["american"] = _Asked(bots["american"])
        if through_play_out:
            result = play_out(game, lambda seat, g=game, b=bots: b[g.side_of(seat)], checked=False)
        else:
            result = _stepped(game, bots)
        finals.append((result, game.digest()))
    assert finals[0] == finals[1]


@pytest.mark.parametrize("odd", ["A1", "A3", "A6"])
def test_one_seat_not_the_books_stops_the_pass_at_its_squad_and_each_seat_is_asked_once_a_pass(odd: str) -> None:
    """The book's bot for every seat but one American's (asked one by one): each pass asks ``player_for`` of a
    seat at most once (``bookplay``'s seats found), stops at that seat's squad, and the game is the one ``apply``
    plays decision by decision."""
    from grognard.rulesets.omaha.bookplay import play_phase

    ruleset = get("omaha")
    resolved = ruleset.resolve({"turn_cap": 10})
    finals = []
    for through_passes in (True, False):
        game, bots = _doctrine_game("omaha", resolved, 11)
        odd_seat = next(p.seat for p in game.state.americans if p.label == odd)  # type: ignore[attr-defined]
        asked_for = _Asked(bots["american"])

        def player_for(seat: str, g: Any = game, b: Any = bots, o: str = odd_seat, a: Any = asked_for) -> Any:
            return a if seat == o else b[g.side_of(seat)]

        if through_passes:
            passes = stops = 0
            while game.result is None:
                seats: list[str] = []
                played = play_phase(game, lambda seat, f=player_for, log=seats: log.append(seat) or f(seat))
                assert len(seats) == len(set(seats))  # each seat asked once a pass at most
                passes += 1
                if played == 0 and game.result is None:  # not the book's to answer: the engine's step
                    decision = game.pending()[0]
                    stops += decision.seat == odd_seat
                    game.apply(decision.seat, player_for(decision.seat).choose(game, decision), checked=False)
            assert stops > 0 and passes > stops  # the odd seat stopped passes, and the book played on
            result = game.result
        else:
            result = _stepped_by_seat(game, player_for)
        finals.append((result, game.digest()))
    assert finals[0] == finals[1]


def _stepped_by_seat(game: Game, player_for: Any) -> Any:
    """:func:`_stepped`, each decision's bot found by its seat."""
    while game.result is None:
        decision = game.pending()[0]
        game.apply(decision.seat, player_for(decision.seat).choose(game, decision), checked=False, decision=decision)
    return game.result


def test_the_exits_still_blocked_kept_are_those_worked_out_afresh_at_every_decision() -> None:
    """``blocked_exits`` and ``active_bunkers`` (kept until a fight silences or destroys a bunker or clears an
    obstacle, an obstacle roll or ``changed()``) against those worked out from the bunkers and the obstacles at every
    decision of a game whose obstacles are rolled as squads reach the wall; and a mechanic of the same numbers is one
    value (``data``'s, made once)."""
    from grognard.rulesets.omaha import data

    ruleset = get("omaha")
    game = ruleset.new_game(ruleset.resolve({"hidden_obstacles": True, "turn_cap": 30}), SeededDice(11))
    bot = ruleset.bots["doctrine"](np.random.default_rng(11))
    seen = set()
    while game.result is None:
        state = game.state
        afresh = [m for b, at, m in game.exits() if not b.active and state.obstacles[at] != 0]  # type: ignore[attr-defined]
        assert game.blocked_exits() == afresh  # type: ignore[attr-defined]
        in_action = [b for _, b in sorted(state.bunkers.items()) if b.active]  # type: ignore[attr-defined]
        assert game.active_bunkers() == in_action  # type: ignore[attr-defined]
        seen.add(len(afresh))
        decision = game.pending()[0]
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
    assert len(seen) > 2  # none blocked, then some
    assert data.morale(3) is data.morale(3) and data.shooting(7) is data.shooting(7)
    assert data.assault(2) is data.assault(2) and data.clearing(5) == data.SuccessCount(dice=5, target=6)


def test_the_beachs_measures_written_without_min_and_max_equal_the_long_way() -> None:
    """``band_sections``, the sections in front, contact and the nearest bunker, their ``min``/``max`` written out
    (the builtins parse their arguments at every call), against the same measures by ``min``/``max`` and
    ``geometry.distance_to_rect`` at random points, on the band's edges and at the beach's ends."""
    from grognard.core.geometry import distance_to_rect
    from grognard.rulesets.omaha.state import Bunker

    state = get("omaha").new_game(get("omaha").resolve({"germans": 2}), SeededDice(1)).state
    rng = np.random.default_rng(12)
    edges = [R.WALL_Y, R.BAND_END_Y, 0.0, -0.0, 29.0, 31.0]
    xs = [*np.round(rng.uniform(-3.0, 51.0, 400), 2).tolist(), 0.0, -0.0, 48.0, 6.0, 5.99]
    ys = [*np.round(rng.uniform(-7.0, 34.0, 400), 2).tolist(), *edges]
    count = len(state.obstacles)
    bunkers = [Bunker(f"B{i + 1}", i, "G1", "German 1", 4) for i in (0, 2, 3, 5)]
    for i in range(600):
        x0, x1 = xs[i % len(xs)], xs[(7 * i + 3) % len(xs)]
        y0, y1 = ys[(3 * i) % len(ys)], ys[(5 * i + 1) % len(ys)]
        low, high = min(y0, y1), max(y0, y1)
        if high <= R.WALL_Y + 0.01 or low >= R.BAND_END_Y - 0.01:
            expected = range(0)
        else:
            if y1 == y0:
                xa, xb = x0, x1
            else:
                ta = (max(low, R.WALL_Y) - y0) / (y1 - y0)
                tb = (min(high, R.BAND_END_Y) - y0) / (y1 - y0)
                xa, xb = x0 + ta * (x1 - x0), x0 + tb * (x1 - x0)
            first = min(max(int(np.floor(min(xa, xb) / 6.0)), 0), count - 1)
            expected = range(first, min(max(int(np.floor(max(xa, xb) / 6.0)), 0), count - 1) + 1)
        assert R.band_sections(state, x0, y0, x1, y1) == expected
        assert (
            R.obstacle_section_at(state, x0)
            == R.section_at(x0, 6.0, count)
            == min(max(int(np.floor(x0 / 6.0)), 0), count - 1)
        )
        assert R.bunker_section_at(state, x0) == R.section_at(x0, 8.0, 3 * state.germans)
        gaps = [distance_to_rect(x0, y0, *R.footprint(b.section)) for b in bunkers]
        assert R.nearest_bunker(x0, y0, bunkers) is bunkers[gaps.index(min(gaps))]
        assert [R.touching(x0, y0, b.section) for b in bunkers] == [gap <= 1.01 for gap in gaps]


def test_a_finished_game_is_freed_without_the_garbage_collector() -> None:
    """Its decisions (whose spaces name the game) dropped once it is over, a game played out holds no cycle: it is
    freed when its last reference goes, not left for the collector's search (a Monte Carlo run plays thousands)."""
    import gc
    import weakref

    ruleset = get("omaha")
    game = ruleset.new_game(ruleset.resolve({"turn_cap": 8}), SeededDice(stream(13, 0, DICE))).unobserved()
    bot = ruleset.bots["doctrine"](np.random.default_rng(13))
    _stepped(game, {"american": bot, "german": bot})  # the per-decision path: every decision made
    gone = weakref.ref(game)
    enabled = gc.isenabled()
    gc.disable()
    try:
        del game
        assert gone() is None
    finally:
        if enabled:
            gc.enable()


def test_a_squad_in_contact_touches_the_bunker_in_front_or_none_as_the_long_way_finds() -> None:
    """``bunker_in_contact`` looks no further than the bunker in front (the footprints stand 2.5" from their
    sections' sides, contact reaches 1"): the same bunker as the long way, every active bunker in the game's order
    after the one in front, at random points near the fronts with some bunkers knocked out."""
    from grognard.rulesets.omaha import combat
    from grognard.rulesets.omaha.state import Squad

    assert combat._FRONT_ONLY
    game, _ = _to_the_americans(7)
    bunkers = list(game.state.bunkers.values())  # type: ignore[attr-defined]
    for bunker in bunkers[::3]:
        bunker.status = "destroyed"
    rng = np.random.default_rng(14)
    width = game.state.width  # type: ignore[attr-defined]
    points = [(round(float(x), 2), round(float(y), 2)) for x, y in rng.uniform((-0.01, 27.5), (width, 31.5), (3000, 2))]
    points += [(8.0 * k + d, 28.0) for k in range(18) for d in (1.49, 1.5, 1.51, 6.49, 6.5, 6.51, 0.0, 7.99)]
    found = 0
    for x, y in points:
        squad = Squad("A1", 12, x, y)
        front = game.bunker_in_front(squad)  # type: ignore[attr-defined]
        order = ([front] if front is not None else []) + [b for b in bunkers if b is not front]
        touching = [b for b in order if b.active and R.touching(x, y, b.section) and y >= R.CONTACT_FROM_Y]
        assert game.bunker_in_contact(squad) is (touching[0] if touching else None), (x, y)  # type: ignore[attr-defined]
        found += bool(touching)
    assert found > 100


def test_an_unobserved_game_on_the_fast_path_rolls_its_dice_straight(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Game.roll`` adds only events: in ``play_bots`` of an unobserved Omaha game the mechanics roll the dice
    source itself (``Game.roll`` is not called), the same dice; after it the game rolls through ``Game.roll`` again."""
    rolled: list[str] = []
    real = Game.roll

    def counted(self: Any, n: int, sides: int = 6, purpose: str = "") -> list[int]:
        rolled.append(purpose)
        return real(self, n, sides, purpose)

    monkeypatch.setattr(Game, "roll", counted)
    ruleset = get("omaha")
    game = ruleset.new_game(ruleset.resolve({"turn_cap": 5}), SeededDice(stream(15, 0, DICE))).unobserved()
    bot = ruleset.bots["doctrine"](np.random.default_rng(15))
    rolled.clear()
    play_out(game, lambda seat: bot, checked=False)
    assert rolled == [] and "roll" not in vars(game)
    assert game.roll(2, 6, "after") and rolled == ["after"]


def test_the_placements_still_owed_are_the_decisions_made_at_the_start() -> None:
    """A German's placement hangs on nothing but his number: made once a game, not again after each placement."""
    ruleset = get("omaha")
    game = ruleset.new_game(ruleset.resolve({}), SeededDice(16)).unobserved()
    bot = ruleset.bots["doctrine"](np.random.default_rng(16))
    owed = game.pending()
    assert [d.id for d in owed] == [f"place G{k}" for k in range(1, 7)]
    for answered in range(1, 6):
        decision = game.pending()[0]
        game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
        assert all(a is b for a, b in zip(game.pending(), owed[answered:], strict=True))
    fresh = game.clone()  # a copy makes its own
    assert [d.id for d in fresh.pending()] == ["place G6"] and fresh.pending()[0] is not owed[5]
