"""A long B-17 run holds what a short one does (issue 33, item 6).

``bench/memory.py`` read 244 MB more per 100,000 raids from a 2,000-raid run: the end of the run (the summary
and matplotlib's plots, some 35 MB once) was counted as growth. What a run could keep raid after raid is a
raid itself, held by a cache, or a cache without bound; both are checked here on a few raids.
"""

from __future__ import annotations

import gc
import importlib
import pkgutil
import weakref

import numpy as np

from grognard import rulesets
from grognard.analysis.montecarlo import play_one
from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.play import play_out
from grognard.rulesets import b17


def test_no_raid_outlives_its_play() -> None:
    """Every raid played and dropped is freed: no cache of the bots or the rules keeps its game, its state or
    its decisions' spaces."""
    r = rulesets.get("b17")
    kept: list[weakref.ref[object]] = []
    for index in range(3):
        game = r.new_game(r.resolve({}), SeededDice(stream(7, index, DICE)))
        bots = {side: r.bots["doctrine"](np.random.default_rng(stream(7, index, BOTS))) for side in r.sides}
        decisions: list[object] = []

        def player(seat: str, game=game, bots=bots, decisions=decisions):  # type: ignore[no-untyped-def]
            decisions.append(game.pending()[0])
            return bots[game.side_of(seat)]

        play_out(game, player, checked=False)
        kept += [weakref.ref(game), weakref.ref(game.state)]
        kept += [weakref.ref(d.space) for d in decisions[:20]]  # a decision's space holds its game
        del game, bots, decisions, player
    play_one(r, r.resolve({}), {side: "doctrine" for side in r.sides}, 7, 9)  # the simulate path too
    gc.collect()
    alive = [ref() for ref in kept if ref() is not None]
    assert not alive, f"{len(alive)} objects of raids played are still held, e.g. {type(alive[0]).__name__}"


def test_every_cache_of_the_b17_rules_and_bots_is_bounded() -> None:
    """A module-level cache keyed by positions or headings (floats) has a bound; the few without one are
    keyed by the options alone (a finite set)."""
    unbounded = []
    for info in pkgutil.iter_modules(b17.__path__):
        module = importlib.import_module(f"{b17.__name__}.{info.name}")
        for name, value in vars(module).items():
            params = getattr(value, "cache_parameters", None)
            if params is not None and getattr(value, "__module__", None) == module.__name__:
                if params()["maxsize"] is None:
                    unbounded.append(f"{info.name}.{name}")
    assert sorted(unbounded) == ["data._mechanics", "evaluate._load"]  # both keyed by option values only
