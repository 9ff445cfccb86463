"""Seconds per win-probability estimate (``grognard.analysis.winprob``), and per step of ``grognard.rl``.

For each rule set (Omaha at its full size, the standard B-17 raid, the
skirmish proving ground): the CPU seconds of one estimate of ``--playouts``
doctrine playouts from the start of the game, and from the start of a middle
turn; then the environment steps a second of random masked agents. Prints the
figures of this one run; nothing here is asserted by the tests.

    python bench/winprob.py [--playouts N] [--seed S]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from grognard.analysis.winprob import win_probability
from grognard.core.dice import SeededDice
from grognard.core.play import play_out
from grognard.rulesets import get

CASES: list[tuple[str, dict[str, Any]]] = [
    ("omaha", {}),
    ("b17", {}),
    ("skirmish", {"scenario": "proving_ground"}),
]


def middle(name: str, options: dict[str, Any], seed: int) -> Any:
    """A game of ``name`` played by the doctrine to the start of half its length."""
    ruleset = get(name)
    probe = ruleset.create(options, SeededDice(seed))
    rng = np.random.default_rng(seed)
    bots = {side: ruleset.bots["doctrine"](rng) for side in probe.sides}
    end = play_out(probe, lambda seat: bots[probe.side_of(seat)], checked=False).turn
    game = ruleset.create(options, SeededDice(seed))
    rng = np.random.default_rng(seed)
    bots = {side: ruleset.bots["doctrine"](rng) for side in game.sides}
    while not game.is_over and game.turn < max(1, end // 2):
        decision = game.pending()[0]
        game.apply(decision.seat, bots[game.side_of(decision.seat)].choose(game, decision), checked=False)
    return game


def env_steps(name: str, options: dict[str, Any], seconds: float = 5.0) -> float:
    from grognard.rl import env

    beach = env(name, **options)
    rng = np.random.default_rng(0)
    steps, start, seed = 0, time.process_time(), 0
    while time.process_time() - start < seconds:
        beach.reset(seed=seed)
        seed += 1
        for _agent in beach.agent_iter():
            observation, _, termination, truncation, _ = beach.last()
            if termination or truncation:
                beach.step(None)
                continue
            beach.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
            if time.process_time() - start >= seconds:
                break
    return steps / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'rule set':<10} {'estimate at the start':>22} {'at mid-game':>14} {'rl steps/s':>11}")
    for name, options in CASES:
        start = get(name).create(options, SeededDice(args.seed))
        mid = middle(name, options, args.seed)
        timed = []
        for game in (start, mid):
            clock = time.process_time()
            win_probability(game, None, playouts=args.playouts, seed=args.seed)
            timed.append(time.process_time() - clock)
        rate = env_steps(name, {"germans": 1} if name == "omaha" else options)
        print(f"{name:<10} {timed[0]:>20.1f} s {timed[1]:>12.1f} s {rate:>11.0f}   (turn {mid.turn} mid-game)")
    print(f"({args.playouts} doctrine playouts an estimate, CPU seconds; rl: Omaha with 1 German player)")


if __name__ == "__main__":
    main()
