"""Omaha Beach, rule by rule (docs/rules/omaha.md): every rule ID omaha.1-omaha.34 is proved here.

Games are small (germans=1: 3 Americans A1-A3 in zones centred at x=4, 12, 20;
bunker sections [0,8), [8,16), [16,24); obstacle sections O1-O4 of 6"), every
die is scripted, and positions are set by editing ``game.state`` directly.
Unless a test says otherwise G1 places B1 (section 1, centre x=4) and B2
(section 2, centre x=12); section 3 is empty.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from grognard.core.dice import ScriptedDice, SeededDice
from grognard.core.engine import Event
from grognard.core.errors import IllegalAction, OptionError
from grognard.core.play import play_out
from grognard.rulesets.omaha import RULESET, OmahaGame
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.actions import Artillery, BunkerFire, Fight, Move, PlaceBunkers
from grognard.rulesets.omaha.bots import DoctrineBot, german_target
from grognard.rulesets.omaha.data import BAND_END_Y, BEACH_DEPTH, BUNKER_FRONT_Y, WALL_Y

# ---------------------------------------------------------------------------------- helpers


def new_game(
    obstacles: tuple[int, ...] = (2, 2, 2, 2),
    place: tuple[int, int] = (1, 2),
    landing: tuple[int, ...] = (1, 1, 1),
    **options: Any,
) -> OmahaGame:
    """A germans=1 game in the Americans' phase of turn 1.

    ``obstacles`` are the setup dice (one per section; none with hidden
    obstacles), ``landing`` every die after placement (the landing dice, and
    deep-water dice where they fall).
    """
    dice = ScriptedDice([*obstacles, *landing])
    game = OmahaGame(RULESET.resolve({"germans": 1, **options}), dice)
    game.apply("German 1", PlaceBunkers("G1", place))
    assert dice.remaining == 0
    return game


def script(game: OmahaGame, *values: int) -> ScriptedDice:
    """From now on ``game`` rolls exactly ``values``."""
    dice = ScriptedDice(values)
    game.dice = dice
    return dice


def player(game: OmahaGame, label: str) -> Any:
    return game.state.americans[int(label[1:]) - 1]


def put(
    game: OmahaGame, label: str, x: float | None = None, y: float | None = None, figures: int | None = None
) -> None:
    """Set squad ``label``'s position and/or strength."""
    squad = player(game, label).squad
    assert squad is not None
    if x is not None:
        squad.x = x
    if y is not None:
        squad.y = y
    if figures is not None:
        squad.figures = figures
    game.changed()


def bench(game: OmahaGame, *labels: str) -> None:
    """Take these Americans off the table for good (no squad, no landings), to keep a test small."""
    for label in labels:
        p = player(game, label)
        p.squad = None
        p.out = True
    game.changed()


def seat_of(label: str) -> str:
    return f"American {label[1:]}"


def order(game: OmahaGame, label: str, action: Any) -> list[Event]:
    return game.apply(seat_of(label), action)


def hold_rest(game: OmahaGame) -> list[Event]:
    """Every American still owing orders holds."""
    events: list[Event] = []
    while game.state.phase == "americans" and not game.is_over:
        owed = [d for d in game.pending() if d.id.startswith("orders ")]
        if not owed:
            break
        label = owed[0].id.split()[1]
        events += game.apply(owed[0].seat, Fight(label))
    return events


def pass_germans(game: OmahaGame) -> list[Event]:
    """Every German decision still owed this phase passes."""
    events: list[Event] = []
    while game.state.phase == "germans" and not game.is_over:
        owed = game.pending()
        if not owed:
            break
        d = owed[0]
        who = d.id.split()[1]
        action = BunkerFire(who, None) if d.id.startswith("fire ") else Artillery(who, None)
        events += game.apply(d.seat, action)
    return events


def dice_of(events: list[Event]) -> list[tuple[str, list[int]]]:
    return [(e.data["purpose"], list(e.data["values"])) for e in events if e.kind == "dice"]


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def of_kind(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == kind]


def illegal(game: OmahaGame, seat: str, action: Any) -> IllegalAction:
    """``action`` is refused with IllegalAction and the full state is unchanged."""
    before = game.digest()
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, action)
    assert game.digest() == before
    return info.value


def pending_ids(game: OmahaGame) -> list[str]:
    return [d.id for d in game.pending()]


def decision(game: OmahaGame, ident: str) -> Any:
    return next(d for d in game.pending() if d.id == ident)


# ---------------------------------------------------------------------------------- omaha.1


@pytest.mark.rule("omaha.1")
def test_americans_start_in_the_water_and_germans_wait_in_their_bunkers() -> None:
    game = new_game(landing=(1, 3, 6))
    s = game.state
    assert (s.turn, s.phase) == (1, "americans")
    assert [(a.squad.figures, a.squad.y) for a in s.americans] == [(12, -1.0), (12, -3.0), (12, -6.0)]
    assert {b.label: (b.defenders, b.status) for b in s.bunkers.values()} == {"B1": (4, "active"), "B2": (4, "active")}
    assert game.side_of("American 1") == "american" and game.side_of("German 1") == "german"
    assert [(d.id, d.seat) for d in game.pending()] == [
        ("orders A1", "American 1"),
        ("orders A2", "American 2"),
        ("orders A3", "American 3"),
    ]


@pytest.mark.rule("omaha.1")
@pytest.mark.parametrize("seed", range(4))
def test_landing_force_eventually_breaks_through_at_a_high_cost(seed: int) -> None:
    game = OmahaGame(RULESET.resolve({"germans": 1}), SeededDice(seed))
    bot = DoctrineBot(np.random.default_rng(seed))
    result = play_out(game, lambda seat: bot)
    assert (result.outcome, result.winner) == ("win", "american")
    stats = game.state.stats
    assert stats["american_losses"] > stats["german_losses"] == 8


# ---------------------------------------------------------------------------------- omaha.2 / 26


@pytest.mark.rule("omaha.2", "omaha.26", "omaha.19")
def test_a_wiped_out_squad_needs_no_morale_roll_and_lands_fresh_next_turn() -> None:
    game = new_game()
    bench(game, "A1", "A3")
    put(game, "A2", 12, 10, figures=2)
    hold_rest(game)
    dice = script(game, 5, 6, 1, 1, 4)  # B1's fire: two hits; then A2's landing die next turn
    events = game.apply("German 1", BunkerFire("B1", "A2"))
    # the squad is gone at once; no target is left, so the Germans' phase ends, no morale die, turn 2 lands it
    assert dice_of(events) == [("bunker B1 fires at A2 (kills on 5-6)", [5, 6, 1, 1]), ("landing A2 (inches out)", [4])]
    assert "morale" not in kinds(events)
    assert of_kind(events, "squad_lost")[0]["why"] == "wiped out"
    assert of_kind(events, "landed") == [{"squad": "A2", "inches": 4, "x": 12.0, "y": -4.0, "fresh": True}]
    squad = player(game, "A2").squad
    assert (squad.figures, squad.x, squad.y, squad.lost) == (12, 12.0, -4.0, 0)
    assert (game.state.turn, game.state.stats["wiped_out"], game.state.stats["fresh_squads"]) == (2, 1, 1)
    assert dice.remaining == 0


# ---------------------------------------------------------------------------------- omaha.3


def _last_exit_position(game: OmahaGame) -> None:
    """B1 already silenced with O1 clear; B2 down to one man; A2 at the wall in front of B2."""
    s = game.state
    s.bunkers[0].defenders, s.bunkers[0].status = 0, "silenced"
    s.bunkers[1].defenders = 1
    bench(game, "A1", "A3")
    put(game, "A2", 12, 24)


@pytest.mark.rule("omaha.3", "omaha.10")
def test_americans_win_when_every_exit_is_open_checked_after_their_phase() -> None:
    game = new_game(obstacles=(1, 2, 2, 2))  # O1 rolled none; O2-O4 one each
    _last_exit_position(game)
    script(game, 6, 1, 1, 1, 1, 1, 6, 1, 1, 1, 1, 1)  # six clearing dice, then six shooting dice
    events = order(game, "A2", Fight("A2", shoot=6, clear=6))
    assert dice_of(events) == [
        ("A2 clears O3 (clears on 6)", [6, 1, 1, 1, 1, 1]),
        ("A2 shoots at B2 (kills on 6)", [6, 1, 1, 1, 1, 1]),
    ]
    assert [(e["bunker"], e["first"]) for e in of_kind(events, "exit_opened")] == [("B1", True), ("B2", False)]
    result = game.result
    assert result is not None and (result.outcome, result.winner, result.turn) == ("win", "american", 1)
    assert result.reason == "every exit is open"
    assert game.state.stats["breakthrough_turn"] == 1 and game.state.stats["decisive_turn"] == 1
    # O20: decided at the end of the Americans' phase, the Germans never act
    assert game.pending() == ()
    assert kinds(events)[-1] == "game_over" and not of_kind(events, "bunker_fire")


@pytest.mark.rule("omaha.3")
def test_a_knocked_out_bunker_with_obstacles_still_in_front_is_not_an_open_exit() -> None:
    game = new_game(obstacles=(1, 2, 2, 2))
    _last_exit_position(game)
    script(game, 5, 1, 1, 1, 1, 1, 6, 1, 1, 1, 1, 1)  # the clearing misses, the shooting silences B2
    events = order(game, "A2", Fight("A2", shoot=6, clear=6))
    assert game.state.bunkers[1].status == "silenced"
    assert game.state.obstacles[2] == 1
    assert [e["bunker"] for e in of_kind(events, "exit_opened")] == ["B1"]
    assert game.result is None and game.state.exits_open == [0]
    assert game.state.stats["breakthrough_turn"] == 1 and game.state.stats["decisive_turn"] is None
    assert pending_ids(game) == ["artillery G1"]


@pytest.mark.rule("omaha.3")
def test_option_bunkers_only_wins_once_every_bunker_is_knocked_out() -> None:
    game = new_game(obstacles=(1, 2, 2, 2), victory="bunkers_only")
    _last_exit_position(game)
    script(game, 5, 1, 1, 1, 1, 1, 6, 1, 1, 1, 1, 1)  # same dice as above: obstacles remain in O3
    order(game, "A2", Fight("A2", shoot=6, clear=6))
    assert game.result is not None and (game.result.outcome, game.result.winner) == ("win", "american")
    assert game.result.reason == "every bunker is knocked out"


@pytest.mark.rule("omaha.3")
def test_an_exit_is_the_obstacle_section_holding_its_bunkers_centre() -> None:
    game = new_game(obstacles=(2, 2, 2, 2), place=(2, 3))
    s = game.state
    # bunker centres x=4, 12, 20: O1, O3 (12 is a boundary: the section on its right), O4
    assert [R.exit_section(k, s) for k in range(3)] == [0, 2, 3]
    b2 = s.bunkers[1]
    b2.defenders, b2.status = 0, "destroyed"
    s.obstacles[1] = 0  # O2, left of the boundary, does not open B2's exit
    assert not game.exit_open(b2)
    s.obstacles[2] = 0
    assert game.exit_open(b2)


@pytest.mark.rule("omaha.3")
def test_the_first_squad_past_the_sea_wall_is_recorded() -> None:
    game = new_game(obstacles=(1, 2, 1, 2))  # O1 and O3 clear
    put(game, "A2", 12, 24)
    put(game, "A1", 4, 24)
    events = order(game, "A2", Move("A2", 12, 28))
    assert of_kind(events, "past_wall") == [{"squad": "A2", "turn": 1, "first": True}]
    events = order(game, "A1", Move("A1", 4, 27))
    assert of_kind(events, "past_wall") == []
    assert (game.state.stats["first_past_wall"], game.state.stats["first_past_wall_turn"]) == ("A2", 1)


# ---------------------------------------------------------------------------------- omaha.4 / 6


def _two_german_game() -> OmahaGame:
    dice = ScriptedDice([2] * 8 + [1, 2, 3, 4, 5, 6])
    game = OmahaGame(RULESET.resolve({"germans": 2}), dice)
    game.apply("German 1", PlaceBunkers("G1", (1, 3)))
    game.apply("German 2", PlaceBunkers("G2", (5, 6)))
    assert dice.remaining == 0
    return game


@pytest.mark.rule("omaha.4")
def test_forces_two_bunkers_of_four_per_german_a_squad_of_twelve_per_american_three_to_one() -> None:
    game = _two_german_game()
    s = game.state
    assert len(s.americans) == 6 == 3 * s.germans
    assert [a.squad.figures for a in s.americans] == [12] * 6
    assert [(b.label, b.owner, b.defenders) for _, b in sorted(s.bunkers.items())] == [
        ("B1", "G1", 4),
        ("B3", "G1", 4),
        ("B5", "G2", 4),
        ("B6", "G2", 4),
    ]
    assert game.seats() == (*(f"American {k}" for k in range(1, 7)), "German 1", "German 2")


@pytest.mark.rule("omaha.6", "omaha.11")
def test_each_american_lands_in_his_own_eight_inch_zone() -> None:
    game = _two_german_game()
    s = game.state
    assert [a.zone for a in s.americans] == list(range(6))
    assert [(a.squad.x, a.squad.y) for a in s.americans] == [
        (4.0, -1.0),
        (12.0, -2.0),
        (20.0, -3.0),
        (28.0, -4.0),
        (36.0, -5.0),
        (44.0, -6.0),
    ]
    assert [R.zone_centre(k) for k in range(3)] == [4.0, 12.0, 20.0]


# ---------------------------------------------------------------------------------- omaha.5


@pytest.mark.rule("omaha.5")
def test_board_depth_water_beach_band_and_ground() -> None:
    assert (BEACH_DEPTH, WALL_Y, BAND_END_Y, BUNKER_FRONT_Y) == (24.0, 24.0, 28.0, 29.0)
    game = new_game()
    assert R.table_bounds(game.state) == (0.0, -6.0, 24.0, 32.0)
    put(game, "A1", 4, -4)
    assert illegal(game, "American 1", Move("A1", 4, -6.05)).rule == "omaha.5"
    order(game, "A1", Move("A1", 4, -6))
    put(game, "A3", 20, 28)
    assert illegal(game, "American 3", Move("A3", 20, 32.05)).rule == "omaha.5"
    order(game, "A3", Move("A3", 20, 32))
    assert [(a.squad.x, a.squad.y) for a in game.state.americans if a.label != "A2"] == [(4, -6), (20, 32)]


@pytest.mark.rule("omaha.5")
def test_at_least_six_inches_of_water_and_four_of_ground() -> None:
    with pytest.raises(OptionError):
        RULESET.resolve({"water": 5.9})
    with pytest.raises(OptionError):
        RULESET.resolve({"ground": 3.9})
    game = new_game(water=8.0, ground=6.0)
    assert R.table_bounds(game.state) == (0.0, -8.0, 24.0, 34.0)


# ---------------------------------------------------------------------------------- omaha.7 / 15


@pytest.mark.rule("omaha.7", "omaha.15")
def test_a_squad_must_stop_at_the_sea_wall_line() -> None:
    game = new_game(obstacles=(1, 1, 1, 1))  # nothing in the way anywhere: the wall alone stops it
    put(game, "A1", 4, 20)
    assert illegal(game, "American 1", Move("A1", 4, 24.05)).rule == "omaha.15"
    assert illegal(game, "American 1", Move("A1", 4, 25)).rule == "omaha.15"
    events = order(game, "A1", Move("A1", 4, 24.01))  # within the tolerance: at the wall
    assert of_kind(events, "moved")[0]["y"] == 24.0
    # below, at and past the wall part the beach between them, the tolerance (0.01") belonging to "at"
    for y, where in ((23.95, "below"), (23.99, "at"), (24.0, "at"), (24.01, "at"), (24.05, "past")):
        assert [R.below_wall(y), R.at_wall(y), R.past_wall(y)] == [where == "below", where == "at", where == "past"]


@pytest.mark.rule("omaha.15")
def test_crossing_on_a_later_turn_only_where_the_obstacles_are_cleared() -> None:
    game = new_game(obstacles=(1, 1, 2, 2))  # O1, O2 rolled none; O3, O4 one each
    put(game, "A1", 4, 24)  # at the wall since an earlier turn
    put(game, "A2", 11, 24)
    put(game, "A3", 12, 24)
    order(game, "A1", Move("A1", 4, 28))  # O1 rolled no obstacles: clear (O14)
    assert illegal(game, "American 3", Move("A3", 12, 25)).rule == "omaha.15"  # O3 is in the way
    # a diagonal path from O2 into O3 inside the band is blocked; straight up O2 is not
    assert illegal(game, "American 2", Move("A2", 13, 28)).rule == "omaha.15"
    order(game, "A2", Move("A2", 11.99, 28))
    # along the wall sideways needs nothing cleared
    order(game, "A3", Move("A3", 18, 24))
    assert [(a.squad.x, a.squad.y) for a in game.state.americans] == [(4, 28), (11.99, 28), (18, 24)]


# ---------------------------------------------------------------------------------- omaha.8


@pytest.mark.rule("omaha.8")
@pytest.mark.parametrize(("faces", "counts"), [((1, 2, 5, 6), [0, 1, 1, 2]), ((6, 4, 3, 1), [2, 1, 1, 0])])
def test_obstacle_sections_roll_none_one_or_two(faces: tuple[int, ...], counts: list[int]) -> None:
    dice = ScriptedDice(faces)
    game = OmahaGame(RULESET.resolve({"germans": 1}), dice)
    events = game.take_events()
    assert dice_of(events) == [(f"obstacles O{k}", [f]) for k, f in enumerate(faces, 1)]
    assert game.state.obstacles == counts
    # four 6" sections on a 24" beach, [left, right)
    assert [R.obstacle_section_at(game.state, x) for x in (0, 5.99, 6, 11.99, 12, 18, 24)] == [0, 0, 1, 1, 2, 3, 3]


# ---------------------------------------------------------------------------------- omaha.9


@pytest.mark.rule("omaha.9")
def test_each_german_puts_two_bunkers_in_two_of_his_three_eight_inch_sections() -> None:
    dice = ScriptedDice([2] * 8 + [1] * 6)
    game = OmahaGame(RULESET.resolve({"germans": 2}), dice)
    assert pending_ids(game) == ["place G1", "place G2"]
    assert [a.sections for a in decision(game, "place G1").space.candidates()] == [(1, 2), (1, 3), (2, 3)]
    assert [a.sections for a in decision(game, "place G2").space.candidates()] == [(4, 5), (4, 6), (5, 6)]
    illegal(game, "German 1", PlaceBunkers("G1", (3, 4)))  # section 4 is G2's
    illegal(game, "German 1", PlaceBunkers("G1", (2, 2)))  # two bunkers, two sections
    illegal(game, "German 1", PlaceBunkers("G2", (4, 5)))  # G2's decision
    game.apply("German 1", PlaceBunkers("G1", (2, 3)))
    game.apply("German 2", PlaceBunkers("G2", (4, 6)))
    s = game.state
    assert sorted(s.bunkers) == [1, 2, 3, 5]
    assert [R.bunker_centre(k) for k in sorted(s.bunkers)] == [12.0, 20.0, 28.0, 44.0]
    assert [R.bunker_section_at(s, x) for x in (7.99, 8, 15.99, 16, 47.99)] == [0, 1, 1, 2, 5]


# ---------------------------------------------------------------------------------- omaha.10


@pytest.mark.rule("omaha.10")
def test_a_turn_is_landings_americans_germans_morale() -> None:
    game = new_game()
    events = game.take_events()
    assert game.state.phase == "americans"
    hold_rest(game)
    assert game.state.phase == "germans"
    assert pending_ids(game) == ["fire B1", "fire B2", "artillery G1"]
    script(game, 5, 1, 1, 1, 1)  # B1 hits A1 once; A1's morale die
    events = game.apply("German 1", BunkerFire("B1", "A1"))
    events += game.apply("German 1", BunkerFire("B2", None))
    events += game.apply("German 1", Artillery("G1", None))
    assert kinds(events) == ["dice", "bunker_fire", "holds_fire", "no_artillery", "dice", "morale", "turn"]
    assert of_kind(events, "turn") == [{"turn": 2}]
    assert (game.state.turn, game.state.phase) == (2, "americans")
    assert player(game, "A1").squad.lost == 0 and player(game, "A1").squad.figures == 11


@pytest.mark.rule("omaha.10", "omaha.17")
def test_american_squads_act_one_after_another_on_the_current_beach() -> None:
    game = new_game()
    game.state.bunkers[1].defenders = 1
    put(game, "A1", 10, 24)
    put(game, "A2", 12, 24)
    script(game, 6)
    order(game, "A1", Fight("A1", shoot=1))
    assert game.state.bunkers[1].status == "silenced"
    assert illegal(game, "American 2", Fight("A2", shoot=12)).rule == "omaha.17"


# ---------------------------------------------------------------------------------- omaha.11


@pytest.mark.rule("omaha.11")
@pytest.mark.parametrize("face", [1, 6])
def test_the_landing_die_is_inches_out_from_the_water_line(face: int) -> None:
    dice = ScriptedDice([2, 2, 2, 2, face, 3, 3])
    game = OmahaGame(RULESET.resolve({"germans": 1}), dice)
    events = game.apply("German 1", PlaceBunkers("G1", (1, 2)))
    assert dice_of(events)[0] == ("landing A1 (inches out)", [face])
    squad = player(game, "A1").squad
    assert (squad.x, squad.y, squad.figures) == (4.0, -float(face), 12)


# ---------------------------------------------------------------------------------- omaha.12


@pytest.mark.rule("omaha.12")
def test_deep_water_a_landing_six_drowns_each_man_on_a_six() -> None:
    drown = (6, 6, 5, 5, 5, 5, 5, 5, 5, 5, 5, 1)
    game = new_game(landing=(6, *drown, 5, 1), deep_water=True)
    assert [a.squad.figures for a in game.state.americans] == [10, 12, 12]
    assert player(game, "A1").squad.lost == 2 and game.state.stats["drowned"] == 2


@pytest.mark.rule("omaha.12")
def test_no_deep_water_roll_on_a_five_or_without_the_option() -> None:
    game = new_game(landing=(5, 5, 5), deep_water=True)  # scripted dice would run out if a drowning roll came
    assert [a.squad.figures for a in game.state.americans] == [12, 12, 12]
    game = new_game(landing=(6, 6, 6))
    assert [a.squad.figures for a in game.state.americans] == [12, 12, 12]
    assert [a.squad.y for a in game.state.americans] == [-6, -6, -6]


@pytest.mark.rule("omaha.12", "omaha.25")
@pytest.mark.parametrize(("morale_dice", "failed"), [((6, 5), False), ((6, 6), True)])
def test_drowned_men_count_toward_the_morale_check(morale_dice: tuple[int, int], failed: bool) -> None:
    drown = (6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    game = new_game(landing=(6, *drown, 1, 1), deep_water=True)
    hold_rest(game)
    script(game, *morale_dice, *((3,) if failed else ()))  # a squad sent back lands again next turn
    events = pass_germans(game)
    assert dice_of(events)[0] == ("morale A1, 2 lost (fails on 12+)", list(morale_dice))
    squad = player(game, "A1").squad
    assert (squad.landed, squad.figures) == ((2, 12) if failed else (1, 10))  # sent back: a fresh squad


@pytest.mark.rule("omaha.12", "omaha.25")
@pytest.mark.parametrize("counted", [True, False])
def test_the_drowned_morale_option_counts_the_drowned_in_the_morale_check_or_not(counted: bool) -> None:
    drown = (6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)  # two of A1's men drown
    game = new_game(landing=(6, *drown, 1, 1), deep_water=True, drowned_morale=counted)
    assert player(game, "A1").squad.figures == 10 and game.state.stats["drowned"] == 2
    hold_rest(game)
    dice = script(game, *((6, 6, 3) if counted else ()))  # 12 on two dice: fails, lands again on a 3
    events = pass_germans(game)
    assert [p for p, _ in dice_of(events) if p.startswith("morale")] == (
        ["morale A1, 2 lost (fails on 12+)"] if counted else []
    )
    assert dice.remaining == 0
    squad = player(game, "A1").squad
    assert (squad.landed, squad.figures) == ((2, 12) if counted else (1, 10))
    assert ("drowned_morale" in game.state.options) is not counted  # at its default (the ruling) it is left out


# ---------------------------------------------------------------------------------- omaha.13


@pytest.mark.rule("omaha.13")
def test_one_action_per_figure() -> None:
    game = new_game()
    put(game, "A2", 12, 24)
    assert illegal(game, "American 2", Fight("A2", shoot=7, clear=6)).rule == "omaha.13"
    script(game, *[1] * 12)
    events = order(game, "A2", Fight("A2", shoot=6, clear=6))
    assert [len(v) for _, v in dice_of(events)] == [6, 6]
    # the squad has given its orders: no second action this turn
    illegal(game, "American 2", Fight("A2", shoot=1))
    illegal(game, "American 2", Move("A2", 12, 20))


@pytest.mark.rule("omaha.13")
def test_the_squad_moves_as_one_group_and_a_moved_squad_does_not_fight() -> None:
    game = new_game()
    put(game, "A1", 4, 18)
    events = order(game, "A1", Move("A1", 4, 24))
    assert of_kind(events, "moved") == [{"squad": "A1", "x0": 4, "y0": 18, "x": 4, "y": 24.0}]
    squad = player(game, "A1").squad
    assert (squad.figures, squad.x, squad.y) == (12, 4, 24)
    assert illegal(game, "American 1", Fight("A1", clear=12)).rule is None  # not owed any more


# ---------------------------------------------------------------------------------- omaha.14


@pytest.mark.rule("omaha.14")
def test_six_inches_on_the_beach_exactly_allowed_more_refused() -> None:
    game = new_game()
    put(game, "A1", 4, 10)
    assert illegal(game, "American 1", Move("A1", 4, 16.05)).rule == "omaha.14"
    order(game, "A1", Move("A1", 4, 16))
    put(game, "A2", 12, 10)
    assert illegal(game, "American 2", Move("A2", 15.65, 14.8)).rule == "omaha.14"  # 6.03"
    order(game, "A2", Move("A2", 15.6, 14.8))  # 3.6 by 4.8: 6" on the diagonal
    put(game, "A3", 20, 10)
    order(game, "A3", Move("A3", 14, 10))  # sideways is a move like any other (O3a)


@pytest.mark.rule("omaha.14")
def test_three_inches_in_the_water_water_inches_count_double() -> None:
    game = new_game()
    put(game, "A1", 4, -6)
    assert illegal(game, "American 1", Move("A1", 4, -2.95)).rule == "omaha.14"
    order(game, "A1", Move("A1", 4, -3))
    put(game, "A2", 12, -2)  # 2" of water (4 of the allowance), then 2" of beach
    assert illegal(game, "American 2", Move("A2", 12, 2.05)).rule == "omaha.14"
    order(game, "A2", Move("A2", 12, 2))
    assert R.move_cost(0, -3, 0, 0) == 6.0 and R.move_cost(0, 0, 0, 6) == 6.0


# ---------------------------------------------------------------------------------- omaha.16


@pytest.mark.rule("omaha.16")
def test_clearing_each_six_removes_one_obstacle_a_five_does_not() -> None:
    game = new_game(obstacles=(2, 2, 6, 2))  # O3 holds two
    put(game, "A2", 12, 24)  # on the O2/O3 boundary: O3 is in front
    script(game, 6, 5)
    events = order(game, "A2", Fight("A2", clear=2))
    assert dice_of(events) == [("A2 clears O3 (clears on 6)", [6, 5])]
    assert of_kind(events, "cleared") == [{"squad": "A2", "section": "O3", "cleared": 1, "left": 1}]
    assert game.state.obstacles == [1, 1, 1, 1]


@pytest.mark.rule("omaha.16")
def test_surplus_sixes_are_wasted_and_clearing_needs_the_wall_and_an_obstacle() -> None:
    game = new_game(obstacles=(1, 2, 2, 2))
    put(game, "A1", 4, 24)  # O1 has nothing to clear
    put(game, "A2", 12, 23.95)  # short of the wall
    put(game, "A3", 20, 24)
    assert illegal(game, "American 1", Fight("A1", clear=1)).rule == "omaha.16"
    assert illegal(game, "American 2", Fight("A2", clear=1)).rule == "omaha.16"
    script(game, 6, 6, 6)
    events = order(game, "A3", Fight("A3", clear=3))
    assert of_kind(events, "cleared")[0]["cleared"] == 1
    assert game.state.obstacles == [0, 1, 1, 0]


# ---------------------------------------------------------------------------------- omaha.17


@pytest.mark.rule("omaha.17")
def test_shooting_each_six_kills_a_defender_a_five_does_not() -> None:
    game = new_game()
    put(game, "A2", 12, 24)
    script(game, 6, 5, 1)
    events = order(game, "A2", Fight("A2", shoot=3))
    assert dice_of(events) == [("A2 shoots at B2 (kills on 6)", [6, 5, 1])]
    b2 = game.state.bunkers[1]
    assert (b2.defenders, b2.status) == (3, "active")
    assert game.state.stats["german_losses"] == 1


@pytest.mark.rule("omaha.17")
def test_a_bunker_emptied_by_fire_is_silenced_surplus_wasted() -> None:
    game = new_game()
    put(game, "A2", 12, 24)
    script(game, *[6] * 6)
    events = order(game, "A2", Fight("A2", shoot=6))
    assert of_kind(events, "shot") == [{"squad": "A2", "bunker": "B2", "killed": 4, "left": 0, "status": "silenced"}]
    assert game.state.stats["german_losses"] == 4


@pytest.mark.rule("omaha.17")
def test_shooting_from_the_wall_or_beyond_only_at_the_bunker_in_front() -> None:
    game = new_game(place=(2, 3))  # no bunker in section 1 ([0, 8))
    put(game, "A1", 7.99, 24)  # section 1: nothing in front
    put(game, "A2", 8, 24)  # on the boundary: section 2's B2 is in front
    put(game, "A3", 20, 23.95)  # short of the wall
    assert illegal(game, "American 1", Fight("A1", shoot=1)).rule == "omaha.17"
    assert illegal(game, "American 3", Fight("A3", shoot=1)).rule == "omaha.17"
    script(game, 6)
    events = order(game, "A2", Fight("A2", shoot=1))
    assert of_kind(events, "shot")[0]["bunker"] == "B2"
    put(game, "A3", 20, 28)  # beyond the wall ("or closer") may shoot
    script(game, 6)
    events = order(game, "A3", Fight("A3", shoot=1))
    assert of_kind(events, "shot")[0]["bunker"] == "B3"


# ---------------------------------------------------------------------------------- omaha.18


@pytest.mark.rule("omaha.18")
@pytest.mark.parametrize(
    ("x", "y", "contact"),
    [
        (12, 28, True),
        (12, 27.95, False),  # 1" in front of B2's face (y=29), 1.05"
        (9.5, 30, True),
        (9.45, 30, False),  # 1" beside its left side (x=10.5), 1.05"
    ],
)
def test_contact_is_within_one_inch_of_the_bunker(x: float, y: float, contact: bool) -> None:
    game = new_game(obstacles=(1, 1, 1, 1))
    put(game, "A2", x, y)
    action = Fight("A2", assault=1)
    if contact:
        script(game, 1)
        events = order(game, "A2", action)
        assert dice_of(events) == [("A2 assaults B2 (any 6 destroys)", [1])]
    else:
        assert illegal(game, "American 2", action).rule == "omaha.18"


@pytest.mark.rule("omaha.18")
@pytest.mark.parametrize(("faces", "destroyed"), [((5, 5, 5), False), ((5, 6, 1), True)])
def test_any_six_in_an_assault_destroys_the_bunker(faces: tuple[int, ...], destroyed: bool) -> None:
    game = new_game()
    put(game, "A2", 12, 28)
    script(game, *faces)
    events = order(game, "A2", Fight("A2", assault=3))
    assert of_kind(events, "assault") == [
        {"squad": "A2", "bunker": "B2", "success": destroyed, "killed": 4 if destroyed else 0}
    ]
    b2 = game.state.bunkers[1]
    assert (b2.status, b2.defenders) == (("destroyed", 0) if destroyed else ("active", 4))
    assert game.state.stats["german_losses"] == (4 if destroyed else 0)


@pytest.mark.rule("omaha.18", "omaha.17")
def test_shooting_and_assaulting_in_one_order_resolve_in_turn() -> None:
    # the shooting empties the bunker first: nothing is left to assault, and no assault dice are rolled
    game = new_game()
    put(game, "A2", 12, 28)
    script(game, 6, 6, 6, 6)
    events = order(game, "A2", Fight("A2", shoot=4, assault=8))
    assert dice_of(events) == [("A2 shoots at B2 (kills on 6)", [6, 6, 6, 6])]
    assert of_kind(events, "assault_moot") == [{"squad": "A2", "bunker": "B2", "status": "silenced"}]
    assert game.state.bunkers[1].status == "silenced"
    # the shooting leaves a man: the assault goes in
    game = new_game()
    put(game, "A2", 12, 28)
    script(game, 6, 6, 6, 1, 6)
    events = order(game, "A2", Fight("A2", shoot=4, assault=1))
    assert [p for p, _ in dice_of(events)] == ["A2 shoots at B2 (kills on 6)", "A2 assaults B2 (any 6 destroys)"]
    assert game.state.bunkers[1].status == "destroyed"
    assert game.state.stats["german_losses"] == 4


@pytest.mark.rule("omaha.18", "omaha.21")
def test_a_knocked_out_bunker_cannot_be_assaulted_again() -> None:
    game = new_game()
    game.state.bunkers[1].defenders, game.state.bunkers[1].status = 0, "silenced"
    put(game, "A2", 12, 28)
    assert illegal(game, "American 2", Fight("A2", assault=1)).rule == "omaha.18"


# ---------------------------------------------------------------------------------- omaha.19 / 20 / 21


@pytest.mark.rule("omaha.19")
def test_bunker_fire_four_dice_each_five_or_six_kills_a_four_does_not() -> None:
    game = new_game()
    hold_rest(game)
    script(game, 5, 4, 4, 6)
    events = game.apply("German 1", BunkerFire("B1", "A1"))
    assert dice_of(events) == [("bunker B1 fires at A1 (kills on 5-6)", [5, 4, 4, 6])]
    assert of_kind(events, "bunker_fire") == [{"bunker": "B1", "target": "A1", "dice": 4, "hits": 2, "killed": 2}]
    assert player(game, "A1").squad.figures == 10


@pytest.mark.rule("omaha.19")
def test_a_bunker_may_fire_at_any_squad_anywhere_surplus_wasted() -> None:
    game = new_game()
    put(game, "A2", 20, 30)  # past the wall, far from B1
    put(game, "A3", 20, -1, figures=1)  # in the water
    hold_rest(game)
    space = decision(game, "fire B1").space
    assert {a.target for a in space.candidates()} == {"A1", "A2", "A3", None}
    script(game, 1, 5, 1, 1, 6, 6, 6, 6)
    events = game.apply("German 1", BunkerFire("B1", "A2"))
    assert of_kind(events, "bunker_fire")[0]["killed"] == 1
    events = game.apply("German 1", BunkerFire("B2", "A3"))
    assert of_kind(events, "bunker_fire")[0] == {"bunker": "B2", "target": "A3", "dice": 4, "hits": 4, "killed": 1}
    assert player(game, "A3").squad is None


@pytest.mark.rule("omaha.20")
@pytest.mark.parametrize(("defenders", "n_dice"), [(1, 2), (2, 4), (3, 4), (4, 4)])
def test_a_bunker_with_one_man_left_rolls_two_dice(defenders: int, n_dice: int) -> None:
    game = new_game()
    game.state.bunkers[0].defenders = defenders
    hold_rest(game)
    script(game, *[5] * n_dice)
    events = game.apply("German 1", BunkerFire("B1", "A1"))
    assert dice_of(events) == [("bunker B1 fires at A1 (kills on 5-6)", [5] * n_dice)]
    assert player(game, "A1").squad.figures == 12 - n_dice


@pytest.mark.rule("omaha.21")
def test_an_emptied_or_destroyed_bunker_does_not_fire() -> None:
    game = new_game()
    s = game.state
    s.bunkers[0].defenders, s.bunkers[0].status = 0, "silenced"
    hold_rest(game)
    assert pending_ids(game) == ["fire B2", "artillery G1"]
    illegal(game, "German 1", BunkerFire("B1", "A1"))
    s.bunkers[1].defenders, s.bunkers[1].status = 0, "destroyed"
    game.changed()
    assert pending_ids(game) == ["artillery G1"]
    illegal(game, "German 1", BunkerFire("B2", "A1"))


# ---------------------------------------------------------------------------------- omaha.22 / 23 / 24


@pytest.mark.rule("omaha.22")
def test_one_artillery_strike_per_german_per_turn_even_with_his_bunkers_gone() -> None:
    game = new_game()  # obstacles everywhere: the exits stay shut
    for b in game.state.bunkers.values():
        b.defenders, b.status = 0, "destroyed"
    hold_rest(game)
    assert game.result is None and pending_ids(game) == ["artillery G1"]
    script(game, 4)
    game.apply("German 1", Artillery("G1", "A1"))
    assert game.state.turn == 2  # the strike was the German's only decision: the turn ended
    hold_rest(game)
    script(game, 4)
    game.apply("German 1", Artillery("G1", "A2"))
    assert game.state.turn == 3


@pytest.mark.rule("omaha.22")
def test_each_german_player_calls_his_own_strike_once() -> None:
    game = _two_german_game()
    hold_rest(game)
    assert [i for i in pending_ids(game) if i.startswith("artillery")] == ["artillery G1", "artillery G2"]
    script(game, 4)
    game.apply("German 2", Artillery("G2", "A1"))
    illegal(game, "German 2", Artillery("G2", "A2"))  # already called this turn
    illegal(game, "German 2", Artillery("G1", "A2"))  # not his to call


@pytest.mark.rule("omaha.23")
def test_artillery_may_hit_a_squad_at_the_wall_but_not_one_past_it() -> None:
    game = new_game(obstacles=(1, 1, 1, 1))
    put(game, "A1", 4, 24)
    put(game, "A2", 12, 24.5)
    put(game, "A3", 20, -1)
    hold_rest(game)
    assert {a.target for a in decision(game, "artillery G1").space.candidates()} == {"A1", "A3", None}
    assert illegal(game, "German 1", Artillery("G1", "A2")).rule == "omaha.23"
    script(game, 4)
    events = game.apply("German 1", Artillery("G1", "A1"))
    assert of_kind(events, "artillery")[0]["target"] == "A1"


@pytest.mark.rule("omaha.23", "omaha.19")
def test_no_strike_is_owed_when_every_squad_is_past_the_wall() -> None:
    game = new_game(obstacles=(1, 1, 1, 1))
    bench(game, "A1", "A3")
    put(game, "A2", 8, 28)
    hold_rest(game)
    assert pending_ids(game) == ["fire B1", "fire B2"]


@pytest.mark.rule("omaha.24")
def test_artillery_lands_on_five_or_six_not_four() -> None:
    game = new_game()
    hold_rest(game)
    script(game, 4)
    events = game.apply("German 1", Artillery("G1", "A1"))
    assert dice_of(events) == [("artillery G1 on A1: lands on 5-6", [4])]
    assert of_kind(events, "artillery") == [{"german": "G1", "target": "A1", "landed": False, "killed": 0}]
    game = new_game()
    hold_rest(game)
    script(game, 5, 1, 1, 1, 1)
    events = game.apply("German 1", Artillery("G1", "A1"))
    assert dice_of(events) == [
        ("artillery G1 on A1: lands on 5-6", [5]),
        ("artillery G1 on A1: kills on 4-6", [1, 1, 1, 1]),
    ]
    assert of_kind(events, "artillery")[0]["landed"] is True


@pytest.mark.rule("omaha.24")
def test_artillery_kills_on_four_five_six_not_three() -> None:
    game = new_game()
    hold_rest(game)
    script(game, 6, 3, 4, 6, 1)
    events = game.apply("German 1", Artillery("G1", "A1"))
    assert of_kind(events, "artillery") == [{"german": "G1", "target": "A1", "landed": True, "hits": 2, "killed": 2}]
    assert player(game, "A1").squad.figures == 10


# ---------------------------------------------------------------------------------- omaha.25 / 26


def _lose_then_morale(losses_dice: tuple[int, ...], morale_dice: tuple[int, ...]) -> tuple[OmahaGame, list[Event]]:
    """A1 takes B1's fire (``losses_dice``), everything else passes, then A1's morale dice."""
    game = new_game()
    hold_rest(game)
    script(game, *losses_dice, *morale_dice)
    events = game.apply("German 1", BunkerFire("B1", "A1"))
    events += pass_germans(game)
    return game, events


@pytest.mark.rule("omaha.25", "omaha.26")
@pytest.mark.parametrize(("morale_dice", "failed"), [((6, 5), False), ((6, 6), True)])
def test_morale_a_die_per_figure_lost_twelve_or_more_fails(morale_dice: tuple[int, int], failed: bool) -> None:
    game, events = _lose_then_morale((5, 5, 1, 1), (*morale_dice, *((3,) if failed else ())))
    assert dice_of(events)[1] == ("morale A1, 2 lost (fails on 12+)", list(morale_dice))
    assert of_kind(events, "morale") == [{"squad": "A1", "lost": 2, "failed": failed}]
    squad = player(game, "A1").squad
    if failed:  # sent back, and landed again as turn 2 began
        assert of_kind(events, "squad_lost")[0]["why"] == "failed morale"
        assert (squad.landed, squad.figures, squad.y, game.state.stats["sent_back"]) == (2, 12, -3.0, 1)
    else:  # less than 12: no effect at all
        assert (squad.figures, squad.x, squad.y, squad.lost) == (10, 4.0, -1.0, 0)


@pytest.mark.rule("omaha.25")
def test_morale_counts_every_loss_of_this_turn_and_only_this_turn() -> None:
    game = new_game()
    hold_rest(game)
    script(game, 5, 5, 1, 1, 5, 4, 4, 1, 1, 1, 1, 1, 1)  # B1: 2; artillery lands, 2 more; 4 morale dice
    events = game.apply("German 1", BunkerFire("B1", "A1"))
    events += game.apply("German 1", Artillery("G1", "A1"))
    events += game.apply("German 1", BunkerFire("B2", None))
    assert dice_of(events)[-1] == ("morale A1, 4 lost (fails on 12+)", [1, 1, 1, 1])
    assert [m["squad"] for m in of_kind(events, "morale")] == ["A1"]  # no losses, no roll
    # next turn A1 loses nobody: no morale roll for last turn's losses
    hold_rest(game)
    script(game)
    events = pass_germans(game)
    assert "morale" not in kinds(events) and game.state.turn == 3


@pytest.mark.rule("omaha.26")
def test_a_squad_that_fails_morale_lands_as_a_fresh_squad_of_twelve_next_turn() -> None:
    game = new_game()
    hold_rest(game)
    script(game, 5, 5, 6, 6, 6, 6, 1, 1)  # 4 lost; morale 6+6+1+1 = 14 fails; then the landing die
    events = game.apply("German 1", BunkerFire("B1", "A1"))
    script(game, 6, 6, 1, 1, 2)
    events = pass_germans(game)
    assert [p for p, _ in dice_of(events)] == ["morale A1, 4 lost (fails on 12+)", "landing A1 (inches out)"]
    assert of_kind(events, "squad_lost")[0]["why"] == "failed morale"
    assert of_kind(events, "landed") == [{"squad": "A1", "inches": 2, "x": 4.0, "y": -2.0, "fresh": True}]
    assert (player(game, "A1").squad.figures, game.state.turn) == (12, 2)


# ---------------------------------------------------------------------------------- omaha.27 / 28


@pytest.mark.rule("omaha.27")
def test_german_bot_concentrates_on_the_squad_furthest_up_the_beach() -> None:
    game = new_game(obstacles=(1, 1, 1, 1))
    put(game, "A1", 4, 10)
    put(game, "A2", 12, 24)
    put(game, "A3", 20, 30)  # past the wall: the bunkers' pick, out of the artillery's reach
    hold_rest(game)
    bot = DoctrineBot(np.random.default_rng(0))
    choices = {d.id: bot.choose(game, d) for d in game.pending()}
    assert choices == {
        "fire B1": BunkerFire("B1", "A3"),
        "fire B2": BunkerFire("B2", "A3"),
        "artillery G1": Artillery("G1", "A2"),
    }
    put(game, "A3", 20, 24, figures=8)  # level with A2 but weaker: A2 is the threat
    assert german_target(game, artillery=False) == "A2"


@pytest.mark.rule("omaha.27")
def test_german_bot_keeps_its_squad_for_the_turn_when_two_are_level() -> None:
    """Two squads level on the beach: the first bunker's hits do not turn the rest of the turn's fire to the
    other (the book spread its fire that way: the squad hit had fewer figures left, so the next weapon
    ranked the other first)."""
    game = new_game(obstacles=(1, 1, 1, 1))
    put(game, "A1", 4, 12)
    put(game, "A2", 12, 12)
    put(game, "A3", 20, 6)
    hold_rest(game)
    bot = DoctrineBot(np.random.default_rng(0))
    first = decision(game, "fire B1")
    assert bot.choose(game, first) == BunkerFire("B1", "A1")  # level on y and figures: the lower number
    script(game, 5, 6, 6, 1)  # B1 kills 3 of A1
    game.apply(first.seat, BunkerFire("B1", "A1"))
    assert player(game, "A1").squad.figures == 9
    assert bot.choose(game, decision(game, "fire B2")) == BunkerFire("B2", "A1")
    assert bot.choose(game, decision(game, "artillery G1")) == Artillery("G1", "A1")


def _bot_orders(game: OmahaGame, label: str) -> Any:
    return DoctrineBot(np.random.default_rng(0)).choose(game, decision(game, f"orders {label}"))


@pytest.mark.rule("omaha.28")
def test_american_bot_rushes_for_the_wall() -> None:
    game = new_game()
    put(game, "A1", 4, 10)
    put(game, "A2", 12, 20)
    assert _bot_orders(game, "A1") == Move("A1", 4, 16)
    assert _bot_orders(game, "A2") == Move("A2", 12, 24)


@pytest.mark.rule("omaha.28")
@pytest.mark.parametrize(("figures", "expected"), [(7, Fight("A2", shoot=7)), (6, Fight("A2", clear=6))])
def test_american_bot_shoots_while_mostly_whole_clears_when_hurt(figures: int, expected: Fight) -> None:
    game = new_game()
    put(game, "A2", 12, 24, figures=figures)
    assert _bot_orders(game, "A2") == expected


@pytest.mark.rule("omaha.28")
def test_american_bot_assaults_in_contact_and_crosses_where_clear() -> None:
    game = new_game(obstacles=(2, 2, 1, 2))  # O3 clear
    put(game, "A2", 12, 28)
    assert _bot_orders(game, "A2") == Fight("A2", assault=12)
    put(game, "A2", 12, 24)
    assert _bot_orders(game, "A2") == Move("A2", 12, 28)  # through its cleared section to B2


@pytest.mark.rule("omaha.28")
def test_american_bot_follows_up_a_cleared_section_nearby() -> None:
    game = new_game(obstacles=(2, 1, 2, 2))  # O2 ([6, 12)) clear
    put(game, "A1", 4, 24)
    assert _bot_orders(game, "A1") == Move("A1", 9, 24)


# ---------------------------------------------------------------------------------- omaha.29


@pytest.mark.rule("omaha.29")
def test_the_standard_beach_is_twelve_feet_for_eighteen_americans_and_six_germans() -> None:
    game = OmahaGame(RULESET.resolve({}), ScriptedDice([2] * 24))
    s = game.state
    assert (s.germans, s.width, len(s.americans)) == (6, 144.0, 18)
    assert len(s.obstacles) == 24
    assert [d.id for d in game.pending()] == [f"place G{k}" for k in range(1, 7)]
    assert [a.sections for a in decision(game, "place G6").space.candidates()] == [(16, 17), (16, 18), (17, 18)]


# ---------------------------------------------------------------------------------- omaha.30 / 31


@pytest.mark.rule("omaha.30")
@pytest.mark.parametrize(
    ("faces", "markers", "craters"), [((5, 1, 1, 1, 1), True, 1), ((4,), True, 0), ((5, 1, 1, 1, 1), False, 0)]
)
def test_a_crater_marks_where_artillery_landed(faces: tuple[int, ...], markers: bool, craters: int) -> None:
    game = new_game(markers=markers)
    put(game, "A1", 4, 20)
    hold_rest(game)
    script(game, *faces)
    game.apply("German 1", Artillery("G1", "A1"))
    found = [m for m in game.state.markers if m["kind"] == "crater"]
    assert found == [{"kind": "crater", "x": 4, "y": 20, "turn": 1}] * craters


@pytest.mark.rule("omaha.31")
@pytest.mark.parametrize(
    ("morale_dice", "markers", "casualties"), [((6, 6), True, 1), ((6, 5), True, 0), ((6, 6), False, 0)]
)
def test_a_casualty_marker_where_a_squad_failed_morale(
    morale_dice: tuple[int, int], markers: bool, casualties: int
) -> None:
    game = new_game(markers=markers)
    hold_rest(game)
    script(game, 5, 5, 1, 1, *morale_dice, 3)  # the 3 lands a failed squad again
    game.apply("German 1", BunkerFire("B1", "A1"))
    pass_germans(game)
    assert (
        list(game.state.markers) == [{"kind": "casualty", "x": 4.0, "y": -1.0, "turn": 1, "squad": "A1"}] * casualties
    )


@pytest.mark.rule("omaha.31")
def test_a_casualty_marker_where_a_squad_was_wiped_out() -> None:
    game = new_game()
    put(game, "A3", 20, 12, figures=1)
    hold_rest(game)
    script(game, 6, 1, 1, 1)
    game.apply("German 1", BunkerFire("B2", "A3"))
    assert list(game.state.markers) == [{"kind": "casualty", "x": 20, "y": 12, "turn": 1, "squad": "A3"}]


# ---------------------------------------------------------------------------------- omaha.32


@pytest.mark.rule("omaha.32")
def test_hidden_obstacles_are_rolled_when_a_squad_first_reaches_the_wall_in_front() -> None:
    game = new_game(obstacles=(), hidden_obstacles=True)
    assert game.state.obstacles == [None] * 4
    put(game, "A1", 4, 20)
    put(game, "A2", 5, 20)
    put(game, "A3", 20, 20)
    script(game, 1)
    events = order(game, "A1", Move("A1", 4, 24))
    assert dice_of(events) == [("obstacles O1", [1])]
    assert game.state.obstacles == [0, None, None, None]
    events = order(game, "A2", Move("A2", 5, 24))  # O1 is known now: no second roll
    assert dice_of(events) == []
    events = order(game, "A3", Move("A3", 20, 23))  # short of the wall: nothing rolled
    assert dice_of(events) == [] and game.state.obstacles == [0, None, None, None]


@pytest.mark.rule("omaha.32", "omaha.15")
def test_an_unrolled_section_is_not_clear() -> None:
    game = new_game(obstacles=(), hidden_obstacles=True)
    game.state.obstacles[0] = 0
    put(game, "A1", 5, 24)
    assert illegal(game, "American 1", Move("A1", 7, 28)).rule == "omaha.15"  # crosses unrolled O2
    order(game, "A1", Move("A1", 5, 28))


# ---------------------------------------------------------------------------------- omaha.33


@pytest.mark.rule("omaha.33")
def test_out_of_fresh_squads_the_player_is_out_and_germans_win_when_all_are_out() -> None:
    game = new_game(fresh_squads=0)
    bench(game, "A1", "A3")
    put(game, "A2", figures=1)
    hold_rest(game)
    script(game, 6, 1, 1, 1)
    events = game.apply("German 1", BunkerFire("B1", "A2"))
    assert of_kind(events, "out_of_squads") == [{"player": "A2"}]
    assert player(game, "A2").out
    result = game.result
    assert result is not None and (result.outcome, result.winner) == ("win", "german")
    assert result.reason == "no American player has a squad left"


@pytest.mark.rule("omaha.33")
def test_a_limit_of_one_fresh_squad_allows_one_relanding() -> None:
    game = new_game(fresh_squads=1)
    bench(game, "A1", "A3")
    put(game, "A2", figures=1)
    hold_rest(game)
    script(game, 6, 1, 1, 1, 3)  # wiped out; lands fresh next turn
    game.apply("German 1", BunkerFire("B1", "A2"))
    p = player(game, "A2")
    assert (p.squad.figures, p.fresh_used, p.out) == (12, 1, False)
    put(game, "A2", figures=1)
    hold_rest(game)
    script(game, 6, 1, 1, 1)
    game.apply("German 1", BunkerFire("B1", "A2"))
    assert p.out and p.squad is None
    assert game.result is not None and game.result.winner == "german"


@pytest.mark.rule("omaha.33")
def test_an_american_out_of_squads_may_take_over_a_german_bunker() -> None:
    game = new_game(fresh_squads=0, out_joins_germans=True)
    put(game, "A2", figures=1)
    hold_rest(game)
    script(game, 6, 1, 1, 1)
    events = game.apply("German 1", BunkerFire("B1", "A2"))
    assert of_kind(events, "joins_germans") == [{"player": "A2", "bunker": "B1"}]
    assert game.side_of("American 2") == "german"
    pass_germans(game)
    assert game.state.turn == 2 and player(game, "A2").squad is None  # no landing for him
    hold_rest(game)
    assert decision(game, "fire B1").seat == "American 2"
    illegal(game, "German 1", BunkerFire("B1", "A1"))
    script(game, 1, 1, 1, 1)
    game.apply("American 2", BunkerFire("B1", "A1"))


# ---------------------------------------------------------------------------------- omaha.34


@pytest.mark.rule("omaha.34")
@pytest.mark.parametrize(("cap", "over"), [(1, True), (2, False)])
def test_the_turn_cap_ends_the_game_unfinished(cap: int, over: bool) -> None:
    assert RULESET.resolve({})["turn_cap"] == 100
    game = new_game(turn_cap=cap)
    hold_rest(game)
    script(game)
    pass_germans(game)
    if over:
        result = game.result
        assert result is not None and (result.outcome, result.winner, result.turn) == ("unfinished", None, 1)
        assert game.pending() == ()
    else:
        assert game.result is None and game.state.turn == 2


@pytest.mark.rule("omaha.34")
def test_a_class_period_ends_the_game_and_scores_it() -> None:
    game = new_game(obstacles=(1, 2, 2, 2), period_turns=1)
    b1 = game.state.bunkers[0]
    b1.defenders, b1.status = 0, "silenced"
    game.state.stats["german_losses"] = 4
    hold_rest(game)
    script(game, 5, 5, 1, 1, 1, 1)
    game.apply("German 1", BunkerFire("B2", "A1"))
    pass_germans(game)
    result = game.result
    assert result is not None and (result.outcome, result.winner, result.turn) == ("scored", None, 1)
    assert dict(result.scores) == {
        "exits_open": 1,
        "exits": 2,
        "bunkers_knocked_out": 1,
        "american_losses": 2,
        "german_losses": 4,
    }
