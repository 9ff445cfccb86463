"""grognard.rl: the PettingZoo AEC environments of the three rule sets."""

from __future__ import annotations

import functools

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from grognard.rl import GrognardEnv, env

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo")  # its naming and space advice

SMALL = {
    "omaha": {"germans": 1, "turn_cap": 40},
    "b17": {},
    "skirmish": {"scenario": "proving_ground"},
}


def play_random(beach: GrognardEnv, seed: int) -> dict[str, float]:
    """Random masked agents to the end of one game; every agent's total reward."""
    beach.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = {agent: 0.0 for agent in beach.possible_agents}
    for agent in beach.agent_iter(max_iter=1_000_000):
        observation, reward, termination, truncation, _ = beach.last()
        totals[agent] += reward
        if termination or truncation:
            beach.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert legal.size > 0, f"{agent} is selected but has no legal slot"
        beach.step(int(rng.choice(legal)))
    return totals


@pytest.mark.parametrize("name", ["omaha", "b17", "skirmish"])
def test_pettingzoo_api_test_passes(name: str) -> None:
    options = {} if name == "omaha" else SMALL[name]  # Omaha at its full size: 24 seats
    api_test(env(name, **options), num_cycles=200)


@pytest.mark.parametrize("name", ["omaha", "b17", "skirmish"])
def test_reset_with_a_seed_is_reproducible(name: str) -> None:
    seed_test(lambda: env(name, **SMALL[name]), num_cycles=30)


# Omaha's seeds 0-35: 35 drawn games and, at seed 35, the first an American win (the only one of seeds 0-99)
# B-17's 30: 13 German wins and 17 American. Each game's end and rewards are checked on its own; more games
# (100 each, once) add no case the ones here lack.
@pytest.mark.parametrize(("name", "games"), [("omaha", 36), ("b17", 30), ("skirmish", 10)])
def test_random_masked_agents_play_games_to_the_end(name: str, games: int) -> None:
    """Every game ends, every agent leaves, and rewards are +1 for the winner's seats, -1 for the others;
    a drawn game 0 to every seat. Each rule set's games here hold a won game and Omaha's a drawn one too."""
    beach = env(name, **SMALL[name])
    ended = 0
    winners: set[str | None] = set()
    for seed in range(games):
        totals = play_random(beach, seed)
        result = beach.game.result
        assert result is not None
        winners.add(result.winner)
        assert beach.agents == []
        ended += 1
        for agent, total in totals.items():
            if result.winner is None:
                assert total == 0.0
            else:
                assert total == (1.0 if beach.game.side_of(agent) == result.winner else -1.0)
    assert ended == games
    assert winners - {None}, f"no {name} game of {games} was won: the winner's reward went untested"


def test_observations_have_the_declared_shape_and_bounds() -> None:
    for name, options in SMALL.items():
        beach = env(name, **options)
        beach.reset(seed=3)
        space = beach.observation_space(beach.agent_selection)
        for agent in beach.possible_agents:
            observation = beach.observe(agent)
            assert space.contains(observation), (name, agent)
        chosen = beach.observe(beach.agent_selection)["action_mask"]
        assert chosen.sum() == len(beach.infos[beach.agent_selection]["actions"]) > 0


def test_a_masked_off_slot_is_refused_and_changes_nothing() -> None:
    beach = env("omaha", **SMALL["omaha"])
    beach.reset(seed=1)
    agent = beach.agent_selection
    before = beach.game.digest()
    mask = beach.observe(agent)["action_mask"]
    off = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match=f"slot {off} is masked off"):
        beach.step(off)
    assert beach.game.digest() == before
    assert beach.agent_selection == agent


@functools.cache
def _reach_melee() -> tuple[int, int]:
    """The first seed of 40 whose random proving-ground game comes to a secret stay/retreat that the other
    seat still owes too, and the random moves played before it."""
    beach = env("skirmish", scenario="proving_ground")
    for seed in range(40):
        beach.reset(seed=seed)
        rng = np.random.default_rng(seed)
        moves = 0
        while beach.agents and beach._decision is not None:
            decision = beach._decision
            if decision.secret_group is not None:
                group = [d for d in beach.game.pending() if d.secret_group == decision.secret_group]
                if {d.seat for d in group} - {decision.seat}:
                    return seed, moves
            legal = np.flatnonzero(beach.observe(beach.agent_selection)["action_mask"])
            beach.step(int(rng.choice(legal)))
            moves += 1
    raise AssertionError("no seed of 40 reached a melee both sides owe a secret choice in")


def _melee_env(first_slot: int) -> tuple[GrognardEnv, str]:
    """A proving-ground game played at random up to a secret stay/retreat that the other seat still owes too
    (found once, by _reach_melee, and played again here with the same seed and moves); the first seat
    answers with ``first_slot``. Returns the env and the seat still to choose."""
    seed, moves = _reach_melee()
    beach = env("skirmish", scenario="proving_ground")
    beach.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        beach.step(int(rng.choice(np.flatnonzero(beach.observe(beach.agent_selection)["action_mask"]))))
    decision = beach._decision
    assert decision is not None and decision.secret_group is not None
    group = [d for d in beach.game.pending() if d.secret_group == decision.secret_group]
    others = {d.seat for d in group} - {decision.seat}
    beach.step(first_slot)
    return beach, others.pop()


def test_an_observation_never_carries_another_seats_secret_choice() -> None:
    stayed, other = _melee_env(0)
    retreated, other_too = _melee_env(1)
    assert other == other_too
    assert stayed.infos[other] == retreated.infos[other]
    assert stayed.game.digest() != retreated.game.digest()  # the choices differ in the game itself
    np.testing.assert_array_equal(stayed.observe(other)["observation"], retreated.observe(other)["observation"])
    np.testing.assert_array_equal(stayed.observe(other)["action_mask"], retreated.observe(other)["action_mask"])


def test_an_observation_names_the_decision_owed_and_what_it_is_for() -> None:
    """A German player owes a fire order per bunker and an artillery strike: the observation tells which."""
    beach = env("omaha", **SMALL["omaha"])
    beach.reset(seed=2)
    rng = np.random.default_rng(2)
    seen: dict[str, np.ndarray] = {}
    while beach.agents and beach.game.turn < 2:
        decision = beach._decision
        assert decision is not None
        observation = beach.observe(beach.agent_selection)
        if decision.seat == "German 1":
            seen[decision.id] = observation["observation"][10:19]
        beach.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    fires = sorted(key for key in seen if key.startswith("fire "))
    assert "place G1" in seen and "artillery G1" in seen and len(fires) == 2
    names = ["A1", "A2", "A3", "B1", "B2", "B3", "G1"]  # squads, a bunker per section, German players
    place, artillery = seen["place G1"], seen["artillery G1"]
    assert place[0] == 1.0 and place[8] == pytest.approx(7 / 7)  # kind place, for G1
    assert artillery[3] == 1.0 and artillery[8] == pytest.approx(7 / 7)  # kind artillery, for G1
    for key in fires:
        assert seen[key][2] == 1.0  # kind fire
        assert seen[key][8] == pytest.approx((names.index(key.split()[1]) + 1) / 7)
    assert not np.array_equal(seen[fires[0]], seen[fires[1]])
