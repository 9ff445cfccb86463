"""Fit the weights of Omaha's position evaluation (rulesets/omaha/evaluate.py) to doctrine games.

Plays doctrine against doctrine on small beaches with fresh squads limited
(so either side can win), takes the features of the position at the start of
each turn's American phase, and fits a logistic regression of the final
result (American win = 1) on them (Newton's method, numpy only). Prints the
fitted weights, the Brier score of the fit, of the weights in evaluate.py and
of the base rate, and a calibration table of the weights in evaluate.py.
Nothing here is asserted by the tests.

    python bench/omaha_evaluate_fit.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse

import numpy as np

from grognard.core.dice import SeededDice
from grognard.rulesets import get
from grognard.rulesets.omaha.evaluate import FEATURES, american_chance, features

SCENARIOS = (
    {"germans": 1, "fresh_squads": 1},
    {"germans": 1, "fresh_squads": 2},
    {"germans": 1, "fresh_squads": 3},
    {"germans": 2, "fresh_squads": 1},
    {"germans": 2, "fresh_squads": 2},
)


def collect(games: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features, results and the current evaluation of every sampled position."""
    ruleset = get("omaha")
    rows: list[list[float]] = []
    results: list[float] = []
    current: list[float] = []
    for k, options in enumerate(SCENARIOS):
        for i in range(games):
            game = ruleset.create(options, SeededDice(np.random.SeedSequence(seed, spawn_key=(k, i))))
            bot = ruleset.bots["doctrine"](np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(k, i, 1))))
            sampled = 0
            last_turn = -1
            while game.result is None:
                decision = game.pending()[0]
                if game.turn != last_turn and decision.id.startswith("orders"):
                    last_turn = game.turn
                    f = features(game)  # type: ignore[arg-type]
                    rows.append([f[name] for name in FEATURES])
                    current.append(american_chance(game))  # type: ignore[arg-type]
                    sampled += 1
                game.apply(decision.seat, bot.choose(game, decision), checked=False, decision=decision)
            results += [1.0 if game.result.winner == "american" else 0.0] * sampled
    return np.array(rows), np.array(results), np.array(current)


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Logistic regression by Newton's method (a touch of ridge for stability); intercept first."""
    a = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(a.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-a @ w))
        hessian = a.T @ (a * (p * (1 - p))[:, None]) + 1e-3 * np.eye(len(w))
        step = np.linalg.solve(hessian, a.T @ (y - p))
        w += step
        if np.max(np.abs(step)) < 1e-8:
            break
    return w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600, help="games per scenario")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    x, y, current = collect(args.games, args.seed)
    w = fit(x, y)
    fitted = 1 / (1 + np.exp(-(w[0] + x @ w[1:])))
    print(f"{len(y)} positions from {args.games * len(SCENARIOS)} games; American wins {y.mean():.1%} of positions")
    print(f"fitted:  INTERCEPT = {w[0]:.2f}")
    for name, weight in zip(FEATURES, w[1:], strict=True):
        print(f"  {name:<11} {weight:6.2f}")
    print(
        f"Brier score: fit {np.mean((fitted - y) ** 2):.4f}, evaluate.py {np.mean((current - y) ** 2):.4f}, "
        f"base rate {np.mean((y.mean() - y) ** 2):.4f}"
    )
    print("calibration of evaluate.py (predicted American chance: positions, observed American wins):")
    for low in np.arange(0.0, 1.0, 0.1):
        mask = (current >= low) & (current < low + 0.1)
        if mask.any():
            print(f"  {low:.1f}-{low + 0.1:.1f}: {mask.sum():6d}  {y[mask].mean():.2f}")


if __name__ == "__main__":
    main()
