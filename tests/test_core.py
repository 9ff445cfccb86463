"""The core: dice sources, mechanics, options, action spaces, events, the game record and replay."""

from __future__ import annotations

import copy
import io
import json
import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from grognard.core.dice import (
    AnySuccess,
    DieRoll,
    Gated,
    ManualDice,
    RecordedDice,
    ScriptedDice,
    SeededDice,
    SuccessCount,
    SumAtLeast,
    TableRoll,
    check_values,
    spawn_seeds,
)
from grognard.core.engine import Event, FiniteSpace, Result, UnionSpace, canonical_json
from grognard.core.errors import (
    DiceError,
    GrognardError,
    IllegalAction,
    OptionError,
    ParseError,
    RecordError,
)
from grognard.core.geometry import TOLERANCE, at_least, at_most, distance, distance_to_rect, near, snap
from grognard.core.options import OptionSpec, parse_assignments, resolve_options
from grognard.core.play import play_out
from grognard.core.record import RecordWriter, make_header, read_lines, replay
from grognard.core.ruleset import Ruleset
from grognard.rulesets import get as get_ruleset
from grognard.rulesets.omaha import RULESET as OMAHA
from grognard.rulesets.omaha.actions import Move, PlaceBunkers
from toy_game import RULESET as TOY
from toy_game import RUNNER, SENTRY, Dash, Lane, Shoot


# ====================================================================== dice sources
class TestSeededDice:
    def test_same_seed_same_dice(self) -> None:
        assert SeededDice(42).roll(200) == SeededDice(42).roll(200)
        assert SeededDice(42).roll(200) != SeededDice(43).roll(200)
        assert SeededDice(42).seed == 42

    def test_values_are_on_the_die_and_all_faces_come_up(self) -> None:
        for sides in (2, 6, 10, 20):
            values = SeededDice(1).roll(2000, sides)
            assert set(values) == set(range(1, sides + 1))

    def test_rolling_in_pieces_is_rolling_at_once(self) -> None:
        a, b = SeededDice(7), SeededDice(7)
        pieces = a.roll(3) + a.roll(0) + a.roll(5) + a.roll(1)
        assert pieces == b.roll(9)
        assert a.roll(0) == []

    def test_pieces_across_the_buffer_block_match_one_long_roll(self) -> None:
        a, b = SeededDice(11), SeededDice(11)
        stream = []
        while len(stream) < SeededDice.BLOCK + 500:
            stream += a.roll(7)
        assert stream == b.roll(len(stream))

    def test_different_sides_are_independent_streams(self) -> None:
        plain = SeededDice(5)
        d6 = plain.roll(10)
        d10 = SeededDice(5).roll(4, 10)
        mixed = SeededDice(5)
        interleaved = mixed.roll(3) + (mixed.roll(4, 10) and []) + mixed.roll(2, 20) * 0 + mixed.roll(7)
        assert interleaved == d6
        other = SeededDice(5)
        other.roll(50)
        assert other.roll(4, 10) == d10
        assert mixed.drawn == {6: 10, 10: 4, 20: 2}

    @pytest.mark.parametrize("k", [0, 1, 100, SeededDice.BLOCK - 1, SeededDice.BLOCK, SeededDice.BLOCK + 17])
    def test_skip_continues_a_stream(self, k: int) -> None:
        played = SeededDice(3)
        for _ in range(k // 97):
            played.roll(97)
        played.roll(k % 97)
        played.roll(5, 10)
        assert played.drawn.get(6, 0) == k
        resumed = SeededDice(3, skip=played.drawn)
        assert resumed.roll(20) == played.roll(20)
        assert resumed.roll(3, 10) == played.roll(3, 10)
        assert resumed.drawn == played.drawn

    def test_spawned_seeds_give_reproducible_independent_games(self) -> None:
        first, again = spawn_seeds(9, 3), spawn_seeds(9, 3)
        games = [SeededDice(s).roll(30) for s in first]
        assert games == [SeededDice(s).roll(30) for s in again]
        assert len({tuple(g) for g in games}) == 3

    def test_impossible_requests_are_refused(self) -> None:
        dice = SeededDice(1)
        with pytest.raises(DiceError, match="cannot roll -1 dice"):
            dice.roll(-1, 6, "bad")
        dice.roll(4)
        with pytest.raises(DiceError, match="cannot roll -2 dice for 'again'"):
            dice.roll(-2, 6, "again")  # once buffered too: a negative count must not rewind the stream
        assert dice.drawn == {6: 4}
        with pytest.raises(DiceError, match="at least 2 sides"):
            dice.roll(1, 1, "coin with one face")


class TestScriptedDice:
    def test_serves_values_in_order_and_logs_requests(self) -> None:
        dice = ScriptedDice([5, 2, 6, 1, 9])
        assert dice.roll(2, 6, "first") == [5, 2]
        assert dice.roll(1, 6, "second") == [6]
        assert dice.roll(2, 10, "third") == [1, 9]
        assert dice.remaining == 0
        assert dice.log == [("first", 6, [5, 2]), ("second", 6, [6]), ("third", 10, [1, 9])]

    def test_running_out_names_the_purpose(self) -> None:
        dice = ScriptedDice([3])
        with pytest.raises(DiceError, match=r"ran out: 'bunker B1 fires' asked for 2d6, 1 left"):
            dice.roll(2, 6, "bunker B1 fires")
        assert dice.roll(1) == [3]  # the failed request took nothing
        with pytest.raises(DiceError, match="morale"):
            dice.roll(1, 6, "morale A1")

    @pytest.mark.parametrize("value", [0, 7, -1])
    def test_refuses_a_value_off_the_die(self, value: int) -> None:
        with pytest.raises(DiceError, match=rf"{value} is not on a d6 \('landing A3'\)"):
            ScriptedDice([value]).roll(1, 6, "landing A3")
        assert ScriptedDice([7]).roll(1, 8) == [7]


class TestManualDice:
    def test_re_asks_on_a_wrong_count_or_an_impossible_value(self) -> None:
        answers = iter([[4, 5], [4, 5, 7], [4, 5, 0], [4, 5, 6]])
        asked: list[tuple[int, int, str, str | None]] = []

        def ask(n: int, sides: int, purpose: str, problem: str | None) -> list[int]:
            asked.append((n, sides, purpose, problem))
            return next(answers)

        assert ManualDice(ask).roll(3, 6, "bunker B2 fires") == [4, 5, 6]
        assert asked == [
            (3, 6, "bunker B2 fires", None),
            (3, 6, "bunker B2 fires", "3 dice rolled but 2 values typed"),
            (3, 6, "bunker B2 fires", "7 is not a face of a d6"),
            (3, 6, "bunker B2 fires", "0 is not a face of a d6"),
        ]

    def test_the_referee_may_abandon_a_roll(self) -> None:
        def ask(n: int, sides: int, purpose: str, problem: str | None) -> list[int]:
            raise DiceError("the referee gave up")

        with pytest.raises(DiceError, match="gave up"):
            ManualDice(ask).roll(1)

    def test_check_values(self) -> None:
        assert check_values([1, 6], 2, 6) is None
        assert check_values([1], 2, 6) == "2 dice rolled but 1 value typed"
        assert check_values([1, 2.5], 2, 6) == "2.5 is not a face of a d6"  # type: ignore[list-item]
        assert check_values([11], 1, 10) == "11 is not a face of a d10"


class TestRecordedDice:
    def test_serves_the_recorded_rolls(self) -> None:
        dice = RecordedDice([("landing A1", 6, [3])])
        dice.extend([("morale A1", 6, [2, 2])])
        assert dice.remaining == 2
        assert dice.roll(1, 6, "landing A1") == [3]
        assert dice.roll(2, 6, "morale A1") == [2, 2]
        assert dice.remaining == 0
        with pytest.raises(DiceError, match="no roll left for 'more'"):
            dice.roll(1, 6, "more")

    @pytest.mark.parametrize(
        ("n", "sides", "purpose"), [(1, 6, "landing A2"), (2, 6, "landing A1"), (1, 10, "landing A1")]
    )
    def test_refuses_a_request_that_differs_from_the_record(self, n: int, sides: int, purpose: str) -> None:
        dice = RecordedDice([("landing A1", 6, [3])])
        with pytest.raises(DiceError, match=r"the game asked for .* the record has 'landing A1' 1d6"):
            dice.roll(n, sides, purpose)
        assert dice.remaining == 1

    def test_refuses_an_impossible_recorded_value(self) -> None:
        with pytest.raises(DiceError, match="7 is not a face of a d6"):
            RecordedDice([("x", 6, [7])]).roll(1, 6, "x")


# ====================================================================== mechanics
class TestMechanics:
    def test_success_count(self) -> None:
        mechanic = SuccessCount(dice=4, target=5)
        dist = mechanic.distribution()
        assert dist.probability(0) == Fraction(16, 81)
        assert dist.probability(1) == Fraction(32, 81)
        assert dist.probability(4) == Fraction(1, 81)
        assert sum(dist.probability(k) for k in range(5)) == 1
        dice = ScriptedDice([5, 2, 6, 1, 4, 4, 4, 4])
        assert mechanic.roll(dice, "bunker fire") == 2
        assert mechanic.roll(dice, "again") == 0
        assert dice.log[0] == ("bunker fire", 6, [5, 2, 6, 1])
        assert mechanic.text == "4d6, each 5+ succeeds"

    def test_a_distribution_is_worked_out_once_for_equal_numbers(self) -> None:
        """A page's menus ask the same odds again and again: equal mechanics share one exact die."""
        first = Gated(SuccessCount(1, 5), SuccessCount(4, 4)).distribution()
        assert Gated(SuccessCount(1, 5), SuccessCount(4, 4)).distribution() is first
        assert SuccessCount(3, 5).distribution() is SuccessCount(3, 5).distribution()
        assert SuccessCount(3, 5).distribution() is not SuccessCount(3, 6).distribution()
        assert SuccessCount(3, 6).distribution().probability(3) == Fraction(1, 216)

    def test_any_success(self) -> None:
        assert AnySuccess(1, 6).distribution().probability(True) == Fraction(1, 6)
        assert AnySuccess(3, 6).distribution().probability(True) == 1 - Fraction(5, 6) ** 3
        assert AnySuccess(3, 6).distribution().probability(False) == Fraction(125, 216)
        assert AnySuccess(3, 6).roll(ScriptedDice([1, 6, 2]), "assault") is True
        assert AnySuccess(3, 6).roll(ScriptedDice([5, 5, 5]), "assault") is False

    def test_sum_at_least(self) -> None:
        assert SumAtLeast(2, 12).distribution().probability(True) == Fraction(1, 36)
        assert SumAtLeast(2, 7).distribution().probability(True) == Fraction(21, 36)
        assert SumAtLeast(3, 12).distribution().probability(True) == Fraction(25 + 21 + 15 + 10 + 6 + 3 + 1, 216)
        assert SumAtLeast(3, 15).distribution().probability(True) == Fraction(10 + 6 + 3 + 1, 216)
        assert SumAtLeast(2, 12).roll(ScriptedDice([6, 6]), "morale") is True
        assert SumAtLeast(2, 12).roll(ScriptedDice([6, 5]), "morale") is False

    def test_die_roll(self) -> None:
        dist = DieRoll(10).distribution()
        assert all(dist.probability(face) == Fraction(1, 10) for face in range(1, 11))
        dice = ScriptedDice([9])
        assert DieRoll(10).roll(dice, "d10") == 9
        assert dice.log == [("d10", 10, [9])]

    def test_table_roll(self) -> None:
        table = TableRoll((0, 1, 1, 1, 1, 2))
        dist = table.distribution()
        assert (dist.probability(0), dist.probability(1), dist.probability(2)) == (
            Fraction(1, 6),
            Fraction(2, 3),
            Fraction(1, 6),
        )
        assert [table.roll(ScriptedDice([face]), "obstacles") for face in range(1, 7)] == [0, 1, 1, 1, 1, 2]
        dice = ScriptedDice([3])
        assert TableRoll(("light", "heavy", "none")).roll(dice, "weather") == "none"
        assert dice.log == [("weather", 3, [3])]  # a table of 3 rows is read on a d3

    def test_gated(self) -> None:
        artillery = Gated(SuccessCount(1, 5), SuccessCount(4, 4))  # lands on 5-6, then 4d6 each 4+
        dist = artillery.distribution()
        assert dist.probability(0) == Fraction(2, 3) + Fraction(1, 3) * Fraction(1, 16)
        assert dist.probability(4) == Fraction(1, 3) * Fraction(1, 16)
        assert dist.probability(1) == Fraction(1, 3) * Fraction(4, 16)
        miss = ScriptedDice([4])
        assert artillery.roll(miss, "artillery G1") == 0
        assert miss.log == [("artillery G1: lands?", 6, [4])]  # no kill dice when it does not land
        hit = ScriptedDice([5, 4, 4, 1, 6])
        assert artillery.roll(hit, "artillery G1") == 3
        assert [purpose for purpose, _, _ in hit.log] == ["artillery G1: lands?", "artillery G1"]
        assert Gated(AnySuccess(1, 6), DieRoll(6), otherwise=0).distribution().probability(0) == Fraction(5, 6)

    @pytest.mark.parametrize(
        "mechanic",
        [
            SuccessCount(4, 5),
            SumAtLeast(2, 7),
            TableRoll((0, 1, 1, 1, 1, 2)),
            Gated(SuccessCount(1, 5), SuccessCount(4, 4)),
        ],
    )
    def test_play_agrees_with_the_exact_odds(self, mechanic: Any) -> None:
        """Seeded play against distribution(): within 5 standard errors, fixed seed, never flaky."""
        dice = SeededDice(2024)
        n = 6000
        rolls = [mechanic.roll(dice, "check") for _ in range(n)]
        dist = mechanic.distribution()
        for outcome in dist.outcomes():
            p = float(dist.probability(outcome))
            seen = sum(1 for r in rolls if r == outcome) / n
            assert abs(seen - p) <= 5 * math.sqrt(p * (1 - p) / n) + 1e-12, (outcome, seen, p)

    def test_mechanics_are_values(self) -> None:
        assert SuccessCount(4, 5) == SuccessCount(dice=4, target=5, sides=6)
        assert hash(SuccessCount(4, 5)) == hash(SuccessCount(4, 5))
        with pytest.raises(AttributeError):
            SuccessCount(4, 5).dice = 3  # type: ignore[misc]


# ====================================================================== options
class TestOptions:
    GERMANS = OptionSpec("germans", int, 6, "German players", minimum=1, maximum=12)

    def test_parse_and_validate_an_int(self) -> None:
        assert self.GERMANS.parse(" 4 ") == 4
        for text, why in [
            ("x", "'x' is not a whole number from 1 to 12"),
            ("0", "0 is below the minimum 1"),
            ("13", "13 is above the maximum 12"),
            ("2.5", "'2.5' is not a whole number from 1 to 12"),
        ]:
            with pytest.raises(OptionError) as info:
                self.GERMANS.parse(text)
            assert str(info.value) == f"option 'germans': {why}"
        with pytest.raises(OptionError, match="'germans'"):
            self.GERMANS.validate(True)  # a bool is not a count
        with pytest.raises(OptionError, match="a value is required"):
            self.GERMANS.validate(None)

    def test_float_bool_choices_and_none(self) -> None:
        water = OptionSpec("water", float, 6.0, "inches", minimum=6.0, maximum=24.0)
        assert water.validate(7) == 7.0 and isinstance(water.validate(7), float)
        assert water.parse("6.5") == 6.5
        with pytest.raises(OptionError) as info:  # a player's words, not Python's type names ("float 6..24")
            water.parse("abc")
        assert str(info.value) == "option 'water': 'abc' is not a number from 6 to 24"
        with pytest.raises(OptionError) as info:  # the number as it was typed, not Python's 500.0
            water.parse("500")
        assert str(info.value) == "option 'water': 500 is above the maximum 24"
        with pytest.raises(OptionError, match=r"'water': 5 is below the minimum 6"):
            water.parse("5")
        flag = OptionSpec("deep_water", bool, False, "optional rule")
        words = ("on", "YES", "true", "1", "off", "no", "False", "0")
        assert [flag.parse(t) for t in words] == [True] * 4 + [False] * 4
        with pytest.raises(OptionError, match="'deep_water': 'maybe' is not on/off"):
            flag.parse("maybe")
        with pytest.raises(OptionError, match="deep_water"):
            flag.validate(1)
        victory = OptionSpec("victory", str, "exits", "how to win", choices=("exits", "bunkers_only"))
        assert victory.parse("bunkers_only") == "bunkers_only"
        with pytest.raises(OptionError, match="'victory': 'all' is not one of exits, bunkers_only"):
            victory.parse("all")
        fresh = OptionSpec("fresh_squads", int, None, "fresh squads", minimum=0, none_word="unlimited")
        assert fresh.parse("unlimited") is None and fresh.validate(None) is None and fresh.parse("3") == 3
        assert fresh.describe_default() == "unlimited" and fresh.describe_values() == "int 0..|unlimited"
        assert flag.describe_default() == "off" and flag.describe_values() == "on|off"
        assert victory.describe_values() == "exits|bunkers_only"

    def test_resolve_options(self) -> None:
        specs = (self.GERMANS, OptionSpec("deep_water", bool, False, "optional rule"))
        assert resolve_options(specs, {}) == {"germans": 6, "deep_water": False}
        assert resolve_options(specs, {"germans": "2", "deep_water": True}) == {"germans": 2, "deep_water": True}
        with pytest.raises(OptionError, match="unknown option 'german'; options are: germans, deep_water"):
            resolve_options(specs, {"german": 2})
        with pytest.raises(OptionError, match="'germans'"):
            resolve_options(specs, {"germans": 99})

    def test_parse_assignments(self) -> None:
        assert parse_assignments(["germans=4", "deep-water=on", " turn_cap = 8"]) == {
            "germans": "4",
            "deep_water": "on",
            "turn_cap": " 8",
        }
        assert parse_assignments(["victory=a=b"]) == {"victory": "a=b"}
        for bad in ["germans", "=4", " =4"]:
            with pytest.raises(OptionError, match="is not NAME=VALUE"):
                parse_assignments([bad])

    def test_every_error_is_a_grognard_error_with_a_code(self) -> None:
        codes = {cls: cls.code for cls in (ParseError, IllegalAction, OptionError, DiceError, RecordError)}
        assert all(issubclass(cls, GrognardError) for cls in codes)
        assert len(set(codes.values())) == len(codes)
        assert str(IllegalAction("too far", "omaha.14")) == "too far (omaha.14)"
        assert IllegalAction("too far").rule is None
        assert str(RecordError("bad", 3)) == "line 3: bad" and RecordError("bad").line is None


# ====================================================================== spaces, events, geometry
class TestSpaces:
    def test_finite_space(self) -> None:
        space = FiniteSpace(["a", "b", "c"], rule="toy.1", what="letter")
        assert space.contains("a") and not space.contains("z")
        with pytest.raises(IllegalAction, match=r"z is not a legal letter; legal: a, b, c \(toy.1\)") as info:
            space.check("z")
        assert info.value.rule == "toy.1"
        assert space.candidates(2) == ["a", "b"] and space.candidates() == ["a", "b", "c"]
        rng = np.random.default_rng(0)
        assert {space.sample(rng) for _ in range(50)} == {"a", "b", "c"}
        many = FiniteSpace(list(range(20)))
        with pytest.raises(IllegalAction, match=r"legal: 0, 1, 2, 3, 4, 5, 6, 7, \.\.\.$"):
            many.check(99)
        with pytest.raises(ValueError):
            FiniteSpace([])

    def test_union_space_with_kinds(self) -> None:
        numbers = FiniteSpace([1, 2], rule="n")
        words = FiniteSpace(["x"], rule="w")
        union = UnionSpace(numbers, words, kinds=(int, str))
        assert union.contains(2) and union.contains("x")
        with pytest.raises(IllegalAction, match=r"\(n\)"):
            union.check(3)  # refused by the space for its kind
        with pytest.raises(IllegalAction, match=r"\(w\)"):
            union.check("y")
        with pytest.raises(IllegalAction, match="is not one of: int, str"):
            union.check(2.5)
        assert union.candidates(4) == [1, 2, "x"]
        assert len(union.candidates(1)) == 1
        rng = np.random.default_rng(1)
        assert {union.sample(rng) for _ in range(60)} == {1, 2, "x"}

    def test_union_space_without_kinds(self) -> None:
        union = UnionSpace(FiniteSpace([1], rule="first"), FiniteSpace([2], rule="last"))
        assert union.contains(1) and union.contains(2)
        with pytest.raises(IllegalAction, match=r"\(last\)"):
            union.check(3)
        with pytest.raises(ValueError):
            UnionSpace()


class TestEvents:
    def test_json_round_trip(self) -> None:
        for event in [
            Event("dice", {"purpose": "landing A1", "sides": 6, "values": [3]}),
            Event("sealed", {"decision": "lane Runner 1", "action": "lane left"}, frozenset({"Runner"})),
            Event("moved", {"x": 1.25, "nested": {"a": [1, None, True]}}, frozenset({"B", "A"})),
            Event("nothing", {}),
        ]:
            data = json.loads(json.dumps(event.to_json()))
            assert Event.from_json(data) == event
        assert Event("x", {}, frozenset({"B", "A"})).to_json() == {"kind": "x", "to": ["A", "B"]}

    def test_visibility(self) -> None:
        public, private = Event("x", {}), Event("y", {}, frozenset({"A"}))
        assert public.visible_to(None) and public.visible_to("B")
        assert private.visible_to("A") and not private.visible_to("B") and not private.visible_to(None)

    def test_result_and_canonical_json(self) -> None:
        result = Result("win", "german", 7, "no American player has a squad left", {"exits_open": 0})
        assert json.loads(json.dumps(result.to_json())) == {
            "outcome": "win",
            "winner": "german",
            "turn": 7,
            "reason": "no American player has a squad left",
            "scores": {"exits_open": 0},
        }
        assert canonical_json({"b": 1, "a": [1.5, None]}) == '{"a":[1.5,null],"b":1}'
        with pytest.raises(ValueError):
            canonical_json({"a": math.nan})


def test_geometry_tolerance() -> None:
    assert TOLERANCE == 0.01
    assert snap(3.14159) == 3.14 and snap(-0.001) == 0.0 and str(snap(-0.001)) == "0.0"
    assert at_most(6.01, 6.0) and not at_most(6.02, 6.0)
    assert at_least(5.99, 6.0) and not at_least(5.98, 6.0)
    assert near(6.0, 6.01) and not near(6.0, 6.02)
    assert distance(0, 0, 3, 4) == 5.0
    assert distance_to_rect(1, 1, 0, 0, 2, 2) == 0.0 and distance_to_rect(5, 6, 0, 0, 2, 2) == 5.0


# ====================================================================== the engine's guarantees
def test_clone_is_independent() -> None:
    game = TOY.create({}, ScriptedDice([]))
    game.apply(RUNNER, Lane("left"))
    twin = game.clone()
    twin.apply(SENTRY, Lane("left"))
    assert [d.id for d in game.pending()] == ["lane Sentry 1"]
    assert game.sealed and not twin.sealed
    assert [d.id for d in twin.pending()] == ["dash 1"]


def test_the_fast_path_gives_the_same_events() -> None:
    checked, fast = TOY.create({}, ScriptedDice([5])), TOY.create({}, ScriptedDice([5]))
    steps = [
        (RUNNER, Lane("left")),
        (SENTRY, Lane("left")),
        (RUNNER, Dash(8)),
        (RUNNER, Lane("right")),
        (SENTRY, Lane("right")),
        (RUNNER, Dash(6)),
        (SENTRY, Shoot()),
    ]
    for seat, action in steps:
        decision = next(d for d in fast.pending() if d.seat == seat)
        a = checked.apply(seat, action)
        b = fast.apply(seat, action, checked=False, decision=decision)
        assert [e.to_json() for e in a] == [e.to_json() for e in b]
    assert checked.digest() == fast.digest()
    assert checked.result is not None and checked.result.winner == "sentry"


def test_a_checked_apply_whose_dice_run_out_mid_action_changes_nothing() -> None:
    """Omaha: the last bunker placement lands the three squads; the script runs dry on the third landing."""
    dice = ScriptedDice([2, 3, 4, 5, 1, 2])  # four obstacle sections, then two of three landings
    game = OMAHA.create({"germans": 1}, dice)
    game.take_events()
    assert dice.remaining == 2
    digest, owed, views = game.digest(), [d.id for d in game.pending()], game.view("German 1")
    with pytest.raises(DiceError, match="landing A3"):
        game.apply("German 1", PlaceBunkers("G1", (1, 3)))
    assert game.digest() == digest
    assert [d.id for d in game.pending()] == owed
    assert game.view("German 1") == views
    assert game.take_events() == []
    game.dice = ScriptedDice([4, 5, 6])
    events = game.apply("German 1", PlaceBunkers("G1", (1, 3)))
    assert [e.data["inches"] for e in events if e.kind == "landed"] == [4, 5, 6]


# ====================================================================== the game record
def bot_game(seed: int = 5, sink: io.StringIO | None = None, **options: Any) -> tuple[Any, RecordWriter]:
    """A doctrine-bot game of Omaha, recorded."""
    options = {"germans": 1, **options}
    dice = SeededDice(seed)
    game = OMAHA.create(options, dice)
    writer = RecordWriter(make_header("omaha", OMAHA.resolve(options), "seeded", seed), sink)
    writer.start(game, game.take_events())
    bots: dict[str, Any] = {}
    rng = np.random.default_rng(seed)

    def player_for(seat: str) -> Any:
        return bots.setdefault(seat, OMAHA.bots["doctrine"](rng))

    play_out(game, player_for, record=writer)
    return game, writer


def lookup(name: str) -> Ruleset:
    return get_ruleset(name)


@pytest.fixture(scope="module")
def recorded() -> tuple[Any, list[dict[str, Any]], list[str]]:
    sink = io.StringIO()
    game, writer = bot_game(sink=sink)
    text = sink.getvalue().splitlines()
    assert len(text) == len(writer.lines) > 10
    return game, writer.lines, text


def action_lines(lines: list[dict[str, Any]]) -> list[int]:
    """1-based numbers of the action lines."""
    return [n for n, line in enumerate(lines, 1) if line["type"] == "action"]


def fault(lines: Any) -> int | None:
    with pytest.raises(RecordError) as info:
        replay(lines, lookup)
    return info.value.line


class TestRecord:
    def test_a_bot_game_replays_to_the_same_digest(self, recorded: Any, tmp_path: Any) -> None:
        game, lines, text = recorded
        assert game.result is not None
        assert [line["type"] for line in lines[:2]] == ["header", "start"]
        header = lines[0]
        assert header["ruleset"] == "omaha" and header["options"]["germans"] == 1 and header["seed"] == 5
        assert header["format"] == "grognard-record/1" and "grognard" in header["versions"]
        for source in (lines, text, copy.deepcopy(lines)):
            rebuilt = replay(source, lookup)
            assert rebuilt.game.digest() == game.digest()
            assert rebuilt.game.result == game.result
            assert rebuilt.actions == len(lines) - 2 and rebuilt.lines == len(lines)
        path = tmp_path / "game.jsonl"
        path.write_text("\n".join(text) + "\n", encoding="utf-8")
        assert replay(path, lookup).game.digest() == game.digest()
        assert replay(str(path), lookup).game.digest() == game.digest()
        assert read_lines(path) == lines

    def test_every_die_is_in_the_record(self, recorded: Any) -> None:
        _, lines, _ = recorded
        rolls = [e for line in lines for e in line.get("events", []) if e["kind"] == "dice"]
        assert rolls and all({"purpose", "sides", "values"} <= set(e) for e in rolls)
        assert any(e["purpose"].startswith("landing") for e in rolls)

    def test_changed_header_options(self, recorded: Any) -> None:
        lines = copy.deepcopy(recorded[1])
        lines[0]["options"]["germans"] = 2
        assert fault(lines) == 1
        lines = copy.deepcopy(recorded[1])
        lines[0]["seed"] = 6
        assert fault(lines) == 1

    def test_changed_action_text(self, recorded: Any) -> None:
        lines = copy.deepcopy(recorded[1])
        number = next(n for n in action_lines(lines) if lines[n - 1]["action"].startswith("move"))
        move = OMAHA.parse_action(lines[number - 1]["action"])
        assert isinstance(move, Move)
        lines[number - 1]["action"] = str(Move(move.squad, move.x + 0.5, move.y))
        assert fault(lines) == number

    def test_changed_seat(self, recorded: Any) -> None:
        lines = copy.deepcopy(recorded[1])
        number = next(n for n in action_lines(lines) if lines[n - 1]["seat"] == "American 1")
        lines[number - 1]["seat"] = "American 2"
        assert fault(lines) == number

    def test_changed_die_value(self, recorded: Any) -> None:
        lines = copy.deepcopy(recorded[1])
        number = next(n for n in action_lines(lines) if any(e["kind"] == "dice" for e in lines[n - 1]["events"]))
        event = next(e for e in lines[number - 1]["events"] if e["kind"] == "dice")
        event["values"][0] = event["values"][0] % event["sides"] + 1
        assert fault(lines) == number

    def test_changed_die_that_leaves_the_state_as_it_was(self, recorded: Any) -> None:
        """A bunker's miss of 1 turned into a miss of 2 changes no state; the digest covers the line itself."""
        lines = copy.deepcopy(recorded[1])
        found = None
        for number in action_lines(lines):
            for event in lines[number - 1]["events"]:
                if event["kind"] == "dice" and event["purpose"].startswith("bunker") and 1 in event["values"]:
                    found = number, event
                    break
            if found:
                break
        assert found is not None, "the bot game has no bunker fire with a 1"
        number, event = found
        event["values"][event["values"].index(1)] = 2
        assert fault(lines) == number

    def test_changed_digest(self, recorded: Any) -> None:
        lines = copy.deepcopy(recorded[1])
        number = action_lines(lines)[3]
        lines[number - 1]["digest"] = "0" * 64
        assert fault(lines) == number
        lines = copy.deepcopy(recorded[1])
        lines[1]["digest"] = "f" * 64
        assert fault(lines) == 2

    def test_changed_event(self, recorded: Any) -> None:
        lines = copy.deepcopy(recorded[1])
        number = next(n for n in action_lines(lines) if any(e["kind"] == "moved" for e in lines[n - 1]["events"]))
        event = next(e for e in lines[number - 1]["events"] if e["kind"] == "moved")
        event["x0"] += 1
        assert fault(lines) == number

    def test_deleted_line(self, recorded: Any) -> None:
        lines = copy.deepcopy(recorded[1])
        number = action_lines(lines)[5]
        del lines[number - 1]
        assert fault(lines) == number
        lines = copy.deepcopy(recorded[1])
        del lines[1]  # the start line
        assert fault(lines) == 2
        with pytest.raises(RecordError) as info:
            replay(recorded[2][1:], lookup)  # the header
        assert info.value.line == 1

    def test_added_junk(self, recorded: Any) -> None:
        text = list(recorded[2])
        number = action_lines(recorded[1])[4]
        assert fault([*text[: number - 1], "this is not JSON", *text[number - 1 :]]) == number
        assert fault([*text[: number - 1], '{"type": "note"}', *text[number - 1 :]]) == number
        assert fault([*text[: number - 1], "[1, 2]", *text[number - 1 :]]) == number
        assert fault([*text, "junk"]) == len(text) + 1
        junk_key = copy.deepcopy(recorded[1])
        junk_key[number - 1]["comment"] = "hi"
        assert fault(junk_key) == number
        extra_roll = copy.deepcopy(recorded[1])
        extra_roll[number - 1]["events"].append({"kind": "dice", "purpose": "x", "sides": 6, "values": [1]})
        assert fault(extra_roll) == number

    def test_blank_lines_do_not_shift_the_line_numbers(self, recorded: Any) -> None:
        game, lines, text = recorded
        spaced = [text[0], "", text[1], "   ", *text[2:], ""]
        assert replay(spaced, lookup).game.digest() == game.digest()
        number = action_lines(lines)[2]  # its text line is number + 2 in the spaced record
        bad = json.loads(text[number - 1])
        bad["digest"] = "0" * 64
        spaced[number + 1] = json.dumps(bad)
        assert fault(spaced) == number + 2

    def test_bad_headers(self, recorded: Any) -> None:
        lines = copy.deepcopy(recorded[1])
        assert fault([]) == 1
        assert fault(lines[1:]) == 1
        wrong_format = copy.deepcopy(lines)
        wrong_format[0]["format"] = "other/9"
        assert fault(wrong_format) == 1
        unknown = [RecordWriter(make_header("chess", {}, "seeded", 5)).lines[0], *lines[1:]]  # a sound header
        with pytest.raises(RecordError, match="unknown rule set 'chess'") as info:
            replay(unknown, lookup)
        assert info.value.line == 1
        assert fault(lines[:1]) == 2
        with pytest.raises(RecordError, match="cannot read record"):
            replay("/nonexistent/record.jsonl", lookup)

    def test_replay_until_stops_early(self, recorded: Any) -> None:
        game, lines, _ = recorded
        assert game.state.turn > 3
        partial = replay(lines, lookup, until=lambda g: g.state.turn >= 3)
        assert partial.game.state.turn == 3 and partial.game.result is None
        assert 0 < partial.actions < len(lines) - 2
        # the state is the record's after that many actions: the prefix replays to it, digests and all
        prefix = replay(lines[: 2 + partial.actions], lookup)
        assert prefix.game.digest() == partial.game.digest()
        assert replay(lines, lookup, until=lambda g: True).actions == 0

    def test_the_writer_flushes_each_line_as_written(self) -> None:
        sink = io.StringIO()
        game = TOY.create({}, ScriptedDice([]))
        writer = RecordWriter(make_header("toy", TOY.resolve({}), "scripted"), sink)
        assert sink.getvalue().count("\n") == 1
        writer.start(game, game.take_events())
        events = game.apply(RUNNER, Lane("left"))
        writer.action(game, RUNNER, Lane("left"), events)
        assert [json.loads(t) for t in sink.getvalue().splitlines()] == writer.lines
        assert writer.lines[-1]["action"] == "lane left"
        assert writer.lines[-1]["events"][0]["to"] == [RUNNER]  # the sealed choice keeps its audience
        assert replay(writer.lines, lambda name: TOY).game.digest() == game.digest()


def test_every_seeded_stream_is_derived_in_core_dice() -> None:
    """One derivation of streams from seeds (core.dice.stream): no other module builds a SeedSequence or
    spawns one, so the cli, the web room, the terminal, Monte Carlo, the search bot and the batch path
    cannot drift apart (issue 19)."""
    import re
    from pathlib import Path

    package = Path(__file__).resolve().parent.parent / "src" / "grognard"
    pattern = re.compile(r"SeedSequence\(|\.spawn\(")
    found = [
        f"{path.relative_to(package)}:{n}"
        for path in sorted(package.rglob("*.py"))
        if path.relative_to(package).as_posix() != "core/dice.py"
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line) and not line.lstrip().startswith("#")
    ]
    assert found == []


def test_the_streams_are_numpys_children_of_the_seed() -> None:
    """stream(s, i, j) is child j of child i of SeedSequence(s), as the earlier spawn() calls made them, so
    every seeded game and record plays on as before."""
    from grognard.core.dice import BOTS, DICE, stream

    def state(seq: np.random.SeedSequence) -> list[int]:
        return seq.generate_state(4).tolist()

    dice, bots = np.random.SeedSequence(2026, spawn_key=(5,)).spawn(2)
    assert state(stream(2026, 5, DICE)) == state(dice) and state(stream(2026, 5, BOTS)) == state(bots)
    assert state(stream(stream(2026, 5), DICE)) == state(dice)
    assert state(stream(9, DICE)) == state(np.random.SeedSequence(9).spawn(1)[0])
    assert state(stream(9, BOTS, 12)) == state(np.random.SeedSequence(9, spawn_key=(1, 12)))
    assert state(stream(dice, 6)) == state(np.random.SeedSequence(2026, spawn_key=(5, 0, 6)))


def test_snap_is_round_to_two_places_exactly() -> None:
    """snap's short cut for a value already stored (k/100 itself) gives what round(value, 2) + 0.0 gives,
    bit for bit and sign of zero too, on stored values, halves, thousandths and arbitrary floats."""
    rng = np.random.default_rng(3)
    values = [float(v) for v in rng.uniform(-200.0, 200.0, 20_000)]
    values += (
        [round(v, 2) for v in values] + [k / 100 for k in range(-3000, 3000)] + [k / 200 for k in range(-4000, 4000)]
    )
    values += [k / 1000 for k in range(-3000, 3000)] + [-0.0, 0.0, 0.005, 2.675, 1.005, -0.004, 1e13, -1e13]
    for v in values:
        want = round(v, 2) + 0.0
        assert snap(v) == want and math.copysign(1.0, snap(v)) == math.copysign(1.0, want), v
    assert math.isnan(snap(math.nan)) and snap(math.inf) == math.inf
