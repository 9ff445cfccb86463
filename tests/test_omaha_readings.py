"""RULINGS O9-O11 as options: each reading decided both ways by scripted dice, on both sides of its threshold.

The default is the RULINGS reading; the option plays the other one (docs/rules/omaha.md names each at its
rule). Play (the engine's real ``apply``), the doctrine bots, the batch path and ``grognard simulate`` follow
the option; at its default an option is left out of records (it is ``quiet``).
"""

from __future__ import annotations

import numpy as np
import pytest

from grognard.analysis.montecarlo import play_one
from grognard.rulesets.omaha import RULESET
from grognard.rulesets.omaha.actions import Artillery, BunkerFire, Fight
from grognard.rulesets.omaha.bots import german_target
from terminal_driver import run_cli
from test_omaha_rules import decision, hold_rest, illegal, new_game, of_kind, order, player, put, script, seat_of


# ---------------------------------------------------------------------------------- O9 (omaha.17)
@pytest.mark.rule("omaha.17")
@pytest.mark.parametrize(
    ("y", "shoot_from", "may_shoot"),
    [
        (23.95, "wall_or_beyond", False),  # short of the wall: never
        (23.95, "wall", False),
        (24.0, "wall_or_beyond", True),  # at the wall: both readings
        (24.0, "wall", True),
        (25.0, "wall_or_beyond", True),  # past the wall ("or closer", O9)
        (25.0, "wall", False),  # past the wall: only assault (the other reading)
    ],
)
def test_the_shoot_from_option_lets_squads_past_the_wall_shoot_or_not(
    y: float, shoot_from: str, may_shoot: bool
) -> None:
    game = new_game(place=(1, 2), shoot_from=shoot_from)
    put(game, "A2", 12, y)  # B2 (section 2) in front; at y=25 not in contact (1" is from y=28)
    action = Fight("A2", shoot=2)
    if not may_shoot:
        refused = illegal(game, seat_of("A2"), action)
        assert refused.rule == "omaha.17"
        assert ("O9" in str(refused)) is (y > 24)
        return
    dice = script(game, 6, 5)  # one 6: one defender killed, the 5 misses
    events = order(game, "A2", action)
    assert [(e["bunker"], e["killed"]) for e in of_kind(events, "shot")] == [("B2", 1)]
    assert game.state.bunkers[1].defenders == 3 and dice.remaining == 0


@pytest.mark.rule("omaha.17")
def test_the_shoot_from_option_is_recorded_only_away_from_its_default() -> None:
    assert "shoot_from" not in new_game().state.options
    assert new_game(shoot_from="wall").state.options["shoot_from"] == "wall"


@pytest.mark.rule("omaha.17")
@pytest.mark.parametrize(("shoot_from", "kinds"), [("wall_or_beyond", ["shoot"]), ("wall", [])])
def test_the_fights_a_bot_may_pick_past_the_wall_follow_the_shoot_from_option(
    shoot_from: str, kinds: list[str]
) -> None:
    """The random and search bots pick among the kinds the space allows (the doctrine never shoots past the
    wall: it assaults in contact, or moves on)."""
    game = new_game(place=(1, 2), shoot_from=shoot_from)
    put(game, "A2", 12, 25.0)
    space = decision(game, "orders A2").space.fight
    assert space.kinds() == kinds
    assert all(space.sample(np.random.default_rng(k)).shoot == 0 for k in range(20)) is (not kinds)


def test_a_bad_shoot_from_value_is_one_line() -> None:
    bad = run_cli("simulate", "omaha", "-n", "1", "--jobs", "1", "-o", "shoot_from=sand")  # one process: run here
    assert bad.returncode == 2
    assert bad.stderr.strip() == "error: option 'shoot_from': 'sand' is not one of wall_or_beyond, wall"


# ---------------------------------------------------------------------------------- O10 (omaha.19)
@pytest.mark.rule("omaha.19")
@pytest.mark.parametrize(
    ("y", "bunker_targets", "may_fire"),
    [
        (24.0, "anywhere", True),  # at the wall: a target under both readings
        (24.0, "not_past_wall", True),
        (24.5, "anywhere", True),  # past the wall: the ruling (O10), any squad anywhere
        (24.5, "not_past_wall", False),  # the other reading: barred as artillery is
    ],
)
def test_the_bunker_targets_option_lets_bunkers_fire_past_the_wall_or_not(
    y: float, bunker_targets: str, may_fire: bool
) -> None:
    game = new_game(bunker_targets=bunker_targets)
    put(game, "A2", 12, y)
    hold_rest(game)
    space = decision(game, "fire B1").space
    assert ("A2" in {a.target for a in space.candidates()}) is may_fire
    action = BunkerFire("B1", "A2")
    if not may_fire:
        refused = illegal(game, "German 1", action)
        assert refused.rule == "omaha.19" and "O10" in str(refused)
        assert german_target(game, artillery=False) == "A1"  # the doctrine turns to a squad it may fire at
        return
    assert german_target(game, artillery=False) == "A2"  # furthest up the beach
    script(game, 5, 4, 6, 1)  # 5 and 6 kill, 4 does not
    events = game.apply("German 1", action)
    assert of_kind(events, "bunker_fire")[0]["killed"] == 2
    assert player(game, "A2").squad.figures == 10


@pytest.mark.rule("omaha.19")
@pytest.mark.parametrize(("bunker_targets", "owed"), [("anywhere", ["fire B1", "fire B2"]), ("not_past_wall", [])])
def test_no_bunker_fire_is_owed_when_every_squad_is_past_the_wall_with_not_past_wall(
    bunker_targets: str, owed: list[str]
) -> None:
    game = new_game(bunker_targets=bunker_targets)
    for label in ("A1", "A2", "A3"):
        put(game, label, None, 30)
    events = hold_rest(game)  # holds until a German decision is owed
    if owed:
        assert [d.id for d in game.pending()] == owed
        return
    # nothing to fire at and nothing artillery may target: no German decision, turn after turn to the cap
    assert game.is_over and game.state.turn == 100 and game.state.stats["american_losses"] == 0
    assert not [e for e in events if e.kind in ("bunker_fire", "no_fire", "artillery", "no_artillery")]


@pytest.mark.rule("omaha.19")
def test_simulate_follows_the_bunker_targets_option() -> None:
    """The doctrine's squads past the wall are spared the bunkers' fire: the same seeded games go otherwise,
    and the batch path (tested equal to the engine in test_omaha_batch) plays them alike."""
    import statistics

    bots = {"american": "doctrine", "german": "doctrine"}
    rows = {
        value: [
            play_one(RULESET, RULESET.resolve({"germans": 1, "bunker_targets": value}), bots, 4, i) for i in range(40)
        ]
        for value in ("anywhere", "not_past_wall")
    }
    assert rows["anywhere"] != rows["not_past_wall"]
    # game by game on the same dice: the Americans lose fewer figures, by more than two standard errors (4 games
    # sufficed until the book kept its fire on one squad, be6f8e0; 40 give 3.1 standard errors)
    pairs = zip(rows["anywhere"], rows["not_past_wall"], strict=True)
    saved = [a["american_losses"] - b["american_losses"] for a, b in pairs]
    assert statistics.mean(saved) > 2 * statistics.stdev(saved) / len(saved) ** 0.5, saved


# ---------------------------------------------------------------------------------- O11 (omaha.22)
@pytest.mark.rule("omaha.22")
@pytest.mark.parametrize(
    ("knocked_out", "needs_bunker", "strike"),
    [
        (1, False, True),  # one bunker left: a strike under both readings
        (1, True, True),
        (2, False, True),  # both gone: the ruling (O11), the guns are not in the bunkers
        (2, True, False),  # the other reading: no bunker, no observer, no strike
    ],
)
def test_the_artillery_needs_bunker_option_keeps_or_ends_a_strike_with_the_bunkers_gone(
    knocked_out: int, needs_bunker: bool, strike: bool
) -> None:
    game = new_game(artillery_needs_bunker=needs_bunker)  # obstacles everywhere: the exits stay shut
    for b in list(game.state.bunkers.values())[:knocked_out]:
        b.defenders, b.status = 0, "destroyed"
    game.changed()
    for label in ("A1", "A2", "A3"):
        order(game, label, Fight(label))  # every squad holds
    if not strike:
        assert (game.state.turn, game.state.phase) == (2, "americans")  # nothing owed by the Germans
        refused = illegal(game, "German 1", Artillery("G1", "A1"))
        assert "O11" in str(refused) and "\n" not in str(refused)
        return
    assert "artillery G1" in [d.id for d in game.pending()]
    pass_fire = [d for d in game.pending() if d.id.startswith("fire ")]
    for d in pass_fire:
        game.apply(d.seat, BunkerFire(d.id.split()[1], None))
    dice = script(game, 5, 4, 4, 3, 6, 1, 1, 1)  # lands on 5; 4, 4, 6 kill, 3 does not; A1 holds morale
    events = game.apply("German 1", Artillery("G1", "A1"))
    assert of_kind(events, "artillery")[0]["killed"] == 3 and dice.remaining == 0


@pytest.mark.rule("omaha.22")
def test_simulate_follows_the_artillery_needs_bunker_option() -> None:
    bots = {"american": "doctrine", "german": "doctrine"}
    rows = {
        value: [
            play_one(RULESET, RULESET.resolve({"germans": 1, "artillery_needs_bunker": value}), bots, 6, i)
            for i in range(4)
        ]
        for value in (False, True)
    }
    assert rows[False] != rows[True]
    losses = {value: sum(r["american_losses"] for r in rows[value]) for value in rows}
    assert losses[True] < losses[False]
