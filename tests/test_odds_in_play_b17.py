"""Every table ``grognard odds b17`` prints is what play does: each row played through the game engine (a scene
set up for it, the real ``apply``) many times with fixed seeds, compared cell by cell (tests/odds_check.py).

The scenes are test_b17_rules' own: a B-17 alone at (50, 30), a fighter 6" beside it (a plain attack) or
behind it on its axis (+1), a bomber flying into the flak ring, one flying onto the target.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from grognard.analysis.odds import distribution_rows
from grognard.core.dice import SeededDice
from grognard.core.engine import Event
from grognard.rulesets.b17 import RULESET, B17Game
from grognard.rulesets.b17.actions import Fly
from grognard.rulesets.b17.analysis import odds_tables
from grognard.rulesets.b17.composites import ATTACKS_SHOWN
from grognard.rulesets.b17.game import ENGINE_ORDER
from odds_check import changed_rows, check, option_cases, played
from test_b17_rules import BOMBER, NOSE_4_BEHIND_X, ROUND, RUN, RUN_MOVE, scene

TABLES = {t.name: t for t in odds_tables()}
SEED = 20261203
READING: dict[str, Any] = {}  # the options the scenes are played with (the other readings of RULINGS B1-B3)
OTHER_READINGS = {"doubled": "more_than", "bomb_tie": "hit", "flak_dice": "bomber_defence"}
OPTION_CASES = option_cases(RULESET, odds_tables)


def table_scene(*args: Any, **kwargs: Any) -> B17Game:
    """test_b17_rules' ``scene`` with the options of ``READING``."""
    return scene(*args, **{**READING, **kwargs})


def of_kind(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == kind]


def fate(events: list[Event], label: str) -> str:
    """What the events did to ``label``: destroyed, damaged (an engine) or no damage."""
    if any(e["aircraft"] == label for e in of_kind(events, "destroyed")):
        return "destroyed"
    if any(e["aircraft"] == label for e in of_kind(events, "engine_damaged")):
        return "damaged"
    return "no damage"


def trials(start: B17Game, n: int, one: Callable[[B17Game], Any]) -> Counter[Any]:
    return played(start, n, one, SEED)


@functools.cache
def entries(n: int) -> list[dict[str, Any]]:
    """``n`` entry rolls of seeded games (2 elements a game, turn 1): the 'entered' or 'no_entry' events."""
    out: list[dict[str, Any]] = []
    seed = SEED
    while len(out) < n:
        seed += 1
        game = B17Game(RULESET.resolve(dict(ROUND)), SeededDice(seed))
        events: list[Event] = []
        for decision in list(game.pending()):
            events += game.apply("American", decision.space.candidates(1)[0])
        out += [{"entered": True, **e} for e in of_kind(events, "entered")]
        out += [{"entered": False} for _ in of_kind(events, "no_entry")]
    return out[:n]


ENTRIES = 2000  # entry rolls played once, read by the three tables


def play_entry(param: None, n: int) -> Counter[Any]:
    return Counter(e["entered"] for e in entries(ENTRIES))


def play_clock(param: None, n: int) -> Counter[Any]:
    return Counter(e["hour"] for e in entries(ENTRIES) if e["entered"])


def play_altitude(param: None, n: int) -> Counter[Any]:
    return Counter(e["altitude"] for e in entries(ENTRIES) if e["entered"])


def attack_scene(param: str) -> tuple[B17Game, Fly]:
    behind = param.startswith("head-on")
    if behind:
        game = table_scene(BOMBER, {"F1": (NOSE_4_BEHIND_X - 6.0, 30.0, 0.0)})
        order = Fly("F1", 14.0, 0.0, "B1", 6.0)
    else:
        game = table_scene(BOMBER, {"F1": (50.0, 36.0, -90.0)})
        order = Fly("F1", 14.0, 0.0, "B1", 1.5)
    out = engines_out(param)
    if out:
        game.aircraft("B1").damaged = list(ENGINE_ORDER[:out])
        game.changed()
    return game, order


def engines_out(param: str) -> int:
    """The engines a row's bomber has out: ``'plain, 4 engines out'`` -> 4, ``'3 engines out'`` -> 3; a fresh
    bomber's row (``'plain'``, ``'0-3 engines out'``) -> 0."""
    words = param.replace(",", "").split()
    return next((int(w) for w, after in itertools.pairwise(words) if w.isdigit() and after == "engines"), 0)


def play_attack(param: str, n: int) -> Counter[Any]:
    start, order = attack_scene(param)
    expected = "head-on" if param.startswith("head-on") else None

    def one(game: B17Game) -> str:
        events = game.apply("German", order)
        attack = of_kind(events, "attack")[0]
        assert (attack["approach"] is not None) == (expected is not None), attack
        return fate(events, "B1")  # nothing but the attack touches B1 in the fighter's move

    return trials(start, n, one)


def play_gunner(param: str, n: int) -> Counter[Any]:
    start = table_scene(BOMBER, {"F1": (NOSE_4_BEHIND_X - 6.0, 30.0, 0.0)})
    damaged = param == "fighter already damaged"
    if damaged:
        start.aircraft("F1").damaged = [1]
        start.changed()
    order = Fly("F1", 12.0 if damaged else 14.0, 0.0, "B1", 6.0)  # a damaged fighter flies 2" less

    def one(game: B17Game) -> str:
        while True:  # an attack that destroys B1 leaves no gunner to fire: fly it again on a fresh copy
            trial = game.clone()
            events = trial.apply("German", order)
            at = [i for i, e in enumerate(events) if e.kind == "gun"]
            if at:  # the first gun's shot, at the stop
                return fate(events[at[0] : at[0] + 3], "F1")

    return trials(start, n, one)


def play_flak(param: str, n: int) -> Counter[Any]:
    out = engines_out(param)
    move = 10.0 - 2.0 * out  # 2" a damage point off the 10"
    start = table_scene({"B1": (98.0 - move, 30.0, 0.0)}, phase="bombers")  # ends 0.5" short of the target: in the ring
    if out:
        start.aircraft("B1").damaged = list(ENGINE_ORDER[:out])
        start.changed()
    return trials(start, n, lambda game: fate(game.apply("American", Fly("B1", move, 0.0)), "B1"))


def bomb_run(flak: bool) -> B17Game:
    start = table_scene(RUN, phase="bombers")
    start.aircraft("B1").flak_done = not flak  # without flak: it met the flak on an earlier turn (B5)
    start.changed()
    return start


def loads(n: int, flak: bool) -> list[int]:
    """``n`` bomb runs of one bomber onto the target: its hits (0 if the flak destroyed it)."""
    start = bomb_run(flak)
    seen: list[int] = []
    dice = SeededDice(SEED + (1 if flak else 0))
    for _ in range(n):
        game = start.clone()
        game.dice = dice
        bombs = of_kind(game.apply("American", RUN_MOVE), "bombs")
        seen.append(bombs[0]["hits"] if bombs else 0)
    return seen


def play_bomb(param: None, n: int) -> Counter[Any]:
    start = bomb_run(False)
    dice = SeededDice(SEED)
    seen: Counter[Any] = Counter()
    while sum(seen.values()) < n:
        game = start.clone()
        game.dice = dice
        seen.update(of_kind(game.apply("American", RUN_MOVE), "bombs")[0]["rolls"])
    return seen


def summed(k: int, n: int, flak: bool) -> list[int]:
    """``n`` raids of ``k`` bombers: each bomber's run played through the engine, the hits summed."""
    runs = loads(k * n, flak)
    return [sum(runs[i * k : (i + 1) * k]) for i in range(n)]


def play_bomb_load(k: int, n: int) -> Counter[Any]:
    return Counter(summed(k, n, flak=False))


def play_bomb_load_flak(k: int, n: int) -> Counter[Any]:
    return Counter(summed(k, n, flak=True))


def play_raid_wins(k: int, n: int) -> Counter[Any]:
    return Counter(total >= 3 for total in summed(k, n, flak=True))


def play_target_destroyed(k: int, n: int) -> Counter[Any]:
    return Counter(total >= 3 for total in summed(k, n, flak=False))


def play_attacks_to_down(param: str, n: int) -> Counter[Any]:
    start, order = attack_scene(param)
    home = start.aircraft("F1")
    where = (home.x, home.y, home.heading)

    def one(game: B17Game) -> int:
        for attack in range(1, ATTACKS_SHOWN + 1):
            f1 = game.aircraft("F1")  # the fighter comes back, whole, to the same place each time
            f1.x, f1.y, f1.heading = where
            f1.status, f1.damaged = "flying", []
            game.state.phase, game.state.to_move = "fighters", ["F1"]
            game.state.fire, game.state.guns_used = [], {}
            game.changed()
            events = game.apply("German", order)
            if not game.aircraft("B1").flying:
                return attack
            assert of_kind(events, "attack")
        return ATTACKS_SHOWN

    return trials(start, n, one)


PLAYERS: dict[str, tuple[Callable[[Any, int], Counter[Any]], int]] = {
    "entry": (play_entry, 1500),
    "clock": (play_clock, 1500),
    "altitude": (play_altitude, 1000),
    "attack": (play_attack, 800),
    "gunner": (play_gunner, 800),
    "flak": (play_flak, 800),
    "bomb": (play_bomb, 2000),
    "bomb_load": (play_bomb_load, 200),
    "raid_wins": (play_raid_wins, 200),
    "bomb_load_flak": (play_bomb_load_flak, 200),
    "target_destroyed": (play_target_destroyed, 200),
    "attacks_to_down": (play_attacks_to_down, 300),
}


def test_every_printed_table_is_played() -> None:
    assert set(PLAYERS) == set(TABLES)


@pytest.mark.rule("b17.16", "b17.17", "b17.20", "b17.37", "b17.39", "b17.42", "b17.51", "b17.53", "b17.57", "b17.60")
@pytest.mark.parametrize("name", list(PLAYERS))
def test_the_printed_table_is_what_play_does(name: str) -> None:
    play, n = PLAYERS[name]
    for param, mechanic in TABLES[name].rows:
        check(play(param, n), distribution_rows(mechanic), (name, param))


@pytest.mark.rule("b17.37", "b17.53", "b17.57")
@pytest.mark.parametrize(
    "name", ["attack", "gunner", "flak", "bomb", "bomb_load", "raid_wins", "bomb_load_flak", "attacks_to_down"]
)
def test_the_tables_of_the_other_readings_are_what_play_does_with_them(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With doubled=more_than, bomb_tie=hit and flak_dice=bomber_defence the tables and play both change."""
    monkeypatch.setattr(f"{__name__}.READING", dict(OTHER_READINGS))
    tables = {t.name: t for t in odds_tables(RULESET.resolve(OTHER_READINGS))}
    play, n = PLAYERS[name]
    for param, mechanic in tables[name].rows:
        check(play(param, n), distribution_rows(mechanic), (name, param, "other readings"))


def test_every_option_value_that_changes_a_printed_table_is_played_with_it() -> None:
    assert {("fourth_engine", "destroys", name) for name in ("attack", "flak", "attacks_to_down")} <= set(OPTION_CASES)
    assert ("flak_damage", "breaks_off", "raid_wins") in OPTION_CASES
    assert {name for _, _, name in OPTION_CASES} <= set(PLAYERS)


@pytest.mark.rule("b17.39", "b17.40", "b17.53", "b17.55", "b17.57")
@pytest.mark.parametrize(("option", "value", "name"), OPTION_CASES)
def test_the_printed_table_is_what_play_does_at_each_option_value_that_changes_it(
    option: str, value: Any, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each table an option's other value prints otherwise (the rows it changes) is what play does with it."""
    monkeypatch.setattr(f"{__name__}.READING", {option: value})
    play, n = PLAYERS[name]
    for param, mechanic in changed_rows(RULESET, odds_tables, option, value)[name]:
        check(play(param, n), distribution_rows(mechanic), (name, param, f"{option}={value}"))
