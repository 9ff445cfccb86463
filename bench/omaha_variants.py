"""Omaha: screen a variant of one side's play against the book, paired on the same dice (issue 29).

For each variant, plays N games of book against book and N of the variant on
its side against the book on the other, game i of both on the dice of game i
(seed S, as ``bench/ladder.py``: game i's dice and the bots' generator come
from S and i alone), and prints the variant's side's win rates, the paired
difference (the variant's minus the book's) with its 95% interval, the games
it turned into wins and into losses, McNemar's exact p and the CPU seconds.
The variants are the ones tried for a ``hard`` that beats the book by 5
points (docs/rules/omaha.md, "The levels measured"); each is a few words:

- ``hard``: the ``hard`` level as it stands (either side); ``level=NAME``: the
  ladder's level NAME as it is (``level=normal``: the search bot, 32 playouts);
- American ``exits``: hard, but on the beach a squad not in front of an active
  bunker's exit (the obstacle section in front of it, O17) heads for the wall in
  front of the nearest one, to clear it and cross there with its neighbour;
- American ``shield=W``: hard, but on the beach a squad of W figures or more
  stays behind a hurt squad (fewer than W) ahead of it, so the German fire,
  which goes to the squad furthest up (omaha.27), falls on the hurt one;
  ``+hold``: it holds where it is when it cannot move without passing it;
- German ``switch=T``: the book's fire, but once the turn's squad has lost T
  figures this turn the weapons left fire at the next squad by the book's rank;
  ``outer``: the bunkers in the two outer sections (hard's placement), with
  the book's fire or with ``switch``;
- German ``search=P``: the search bot (``grognard.bots.search``) on every fire
  and artillery decision, P playouts a decision, two turns deep, the book as
  its rollout, the bunkers placed as hard places them (``book`` after it: as
  the book places them).

With no variant words a side plays exactly as the book (the check that the
pairs are paired: ``tests/test_bench_omaha_variants.py``). Nothing here is
asserted about strength.

    python bench/omaha_variants.py --side american --games N --seed S [-o NAME=VALUE] VARIANT [VARIANT ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from grognard.analysis.ladder import compare
from grognard.bots.search import SearchBot
from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.engine import Decision
from grognard.core.play import play_out
from grognard.core.ruleset import Bot, BotFactory
from grognard.rulesets import get
from grognard.rulesets.omaha import bots as book
from grognard.rulesets.omaha import hard
from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.actions import Artillery, BunkerFire, Fight, Move
from grognard.rulesets.omaha.data import OBSTACLE_SECTION_WIDTH, WALL_Y
from grognard.rulesets.omaha.game import OmahaGame

DEFAULT_OPTIONS: dict[str, Any] = {"germans": 1, "fresh_squads": 1}


def words(spec: str) -> dict[str, str]:
    """``shield=12,hold`` -> {"shield": "12", "hold": ""}."""
    out = {}
    for word in filter(None, spec.split(",")):
        key, _, value = word.partition("=")
        out[key.strip()] = value.strip()
    return out


class American:
    """The American variant: hard's orders (``hard``), or the book's, with the shield (module notes)."""

    def __init__(self, rng: np.random.Generator, flags: dict[str, str]) -> None:
        self.flags = flags
        self.hard = bool(flags)  # every American variant is hard with a change; no words: the book

    def choose(self, game: OmahaGame, decision: Decision) -> Any:
        _kind, _, label = decision.id.partition(" ")
        squad = game.squad(label)
        order = hard.orders(game, squad) if self.hard else book.american_orders(game, squad)
        if "exits" in self.flags and isinstance(order, Move) and R.below_wall(squad.y):
            order = _to_exit(game, squad, order)
        if "shield" in self.flags and isinstance(order, Move) and R.below_wall(squad.y):
            whole = int(self.flags["shield"])
            hurt = [
                p.squad.y
                for p in game.state.americans
                if p.squad is not None and p.squad.figures < whole and R.below_wall(p.squad.y)
            ]
            ahead = [y for y in hurt if y > squad.y]
            if squad.figures >= whole and ahead and order.y >= min(ahead) - 0.01:
                cap = max(ahead) - 0.05
                if cap > squad.y + 0.01:
                    return Move(label, *R.reach(game.state, squad, order.x, cap))
                if "hold" in self.flags:
                    return Fight(label)
        return order


def _to_exit(game: OmahaGame, squad: Any, order: Move) -> Move:
    """On the beach, a squad not in front of an active bunker's exit heads for the wall in front of the nearest."""
    state = game.state
    width = OBSTACLE_SECTION_WIDTH
    exits = {R.exit_section(b.section, state) for b in game.active_bunkers()}
    if not exits or R.obstacle_section_at(state, squad.x) in exits:
        return order
    tx = min((min(max(squad.x, i * width + 0.5), (i + 1) * width - 0.5) for i in exits), key=lambda x: abs(x - squad.x))
    return Move(order.squad, *R.reach(state, squad, tx, WALL_Y))


class German:
    """The German variant: the book's or hard's placement, the book's fire or ``switch``, or the search."""

    def __init__(self, rng: np.random.Generator, flags: dict[str, str]) -> None:
        self.flags = flags
        outer = "hard" in flags or "outer" in flags or ("search" in flags and "book" not in flags)
        self.placer = (hard.HardBot if outer else book.DoctrineBot)(rng)
        self.search = (
            SearchBot(rng, get("omaha"), playouts=int(flags["search"]), depth=2) if "search" in flags else None
        )

    def choose(self, game: OmahaGame, decision: Decision) -> Any:
        kind, _, label = decision.id.partition(" ")
        if kind == "place":
            return self.placer.choose(game, decision)
        if self.search is not None:
            return self.search.choose(game, decision)
        artillery = kind == "artillery"
        make = Artillery if artillery else BunkerFire
        targets = game.strike_targets() if artillery else game.fire_targets()
        ranked = sorted((game.squad(t) for t in targets), key=book.threat, reverse=True)
        if not ranked:
            return make(label, None)
        pick = ranked[0]
        if "switch" in self.flags and pick.lost >= int(self.flags["switch"]) and len(ranked) > 1:
            pick = ranked[1]
        return make(label, pick.label)


def variant(side: str, spec: str) -> BotFactory:
    flags = words(spec)
    if "level" in flags:
        return get("omaha").bots[flags["level"]]
    kind = American if side == "american" else German
    return lambda rng: kind(rng, flags)


def play(options: dict[str, Any], bots: dict[str, BotFactory], seed: int, index: int) -> str | None:
    """Game ``index`` of a run seeded ``seed`` (``analysis.montecarlo.play_one``'s dice and generator)."""
    ruleset = get("omaha")
    game = ruleset.new_game(options, SeededDice(stream(seed, index, DICE)))
    rng = np.random.default_rng(stream(seed, index, BOTS))
    made: dict[str, Bot] = {side: factory(rng) for side, factory in bots.items()}
    return play_out(game, lambda seat: made[game.side_of(seat)], checked=False).winner


def winners(options: dict[str, Any], bots: dict[str, BotFactory], seed: int, games: int) -> tuple[list[Any], float]:
    start = time.process_time()
    return [play(options, bots, seed, i) for i in range(games)], time.process_time() - start


def main(argv: Sequence[str] | None = None, out: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--side", choices=("american", "german"), required=True)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("variants", nargs="+", help="e.g. hard, shield=12, switch=5,outer, search=32")
    args = parser.parse_args(argv)
    ruleset = get("omaha")
    options = ruleset.resolve({**DEFAULT_OPTIONS, **dict(o.split("=", 1) for o in args.option)})
    the_book = ruleset.bots["book"]
    base, seconds = winners(options, {"american": the_book, "german": the_book}, args.seed, args.games)
    shown = ", ".join(f"{k}={v}" for k, v in options.items() if k in ("germans", "fresh_squads"))
    out(f"Omaha ({shown}), {args.side} variants against the book, {args.games} paired games, seed {args.seed}")
    out(f"  book       {args.side} wins {100 * base.count(args.side) / args.games:5.1f}%  cpu {seconds:6.1f} s")
    for spec in args.variants:
        bots = {"american": the_book, "german": the_book, args.side: variant(args.side, spec)}
        played, seconds = winners(options, bots, args.seed, args.games)
        comparison = compare(base, played, args.side)
        out(
            f"  {spec:<10} {args.side} wins {100 * played.count(args.side) / args.games:5.1f}%  "
            f"{comparison.words()}  cpu {seconds:6.1f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
