"""Every table ``grognard odds omaha`` prints is what play does: each row's mechanic played through the game
engine (a state set up for it, the real ``apply``) many times with a fixed seed, compared cell by cell
with the printed distribution (tests/odds_check.py: pooled cells, 5 standard errors).

This is the test that would have caught the uncapped "defenders killed" table: play wastes kills beyond
the defenders present (RULINGS O2); the mechanic's own ``roll`` does not. A table the CLI prints with no
player here fails ``test_every_printed_table_is_played``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from grognard.analysis.odds import distribution_rows
from grognard.core.dice import Capped, ScriptedDice, SeededDice
from grognard.core.engine import Event
from grognard.rulesets.omaha import RULESET, OmahaGame
from grognard.rulesets.omaha.actions import Artillery, BunkerFire, Fight, PlaceBunkers
from grognard.rulesets.omaha.analysis import odds_tables
from grognard.rulesets.omaha.composites import ROUNDS_SHOWN
from grognard.rulesets.omaha.data import shooting
from odds_check import changed_rows, check, option_cases, played

TABLES = {t.name: t for t in odds_tables()}
SEED = 20261202
READING: dict[str, Any] = {}  # the options every scene is played with (an option's other value: monkeypatched)
OPTION_CASES = option_cases(RULESET, odds_tables)


def base(**options: Any) -> OmahaGame:
    """A germans=1 game in the Americans' phase of turn 1: obstacles 2 everywhere, B1 at x=4, B2 at x=12,
    squads A1-A3 landed 1" out (x = 4, 12, 20)."""
    dice = ScriptedDice([2, 2, 2, 2, 1, 1, 1])
    game = OmahaGame(RULESET.resolve({"germans": 1, **READING, **options}), dice)
    game.apply("German 1", PlaceBunkers("G1", (1, 2)))
    return game


def of_kind(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == kind]


def squad(game: OmahaGame, label: str) -> Any:
    return game.state.americans[int(label[1:]) - 1].squad


def hold_rest(game: OmahaGame) -> list[Event]:
    events: list[Event] = []
    while game.state.phase == "americans" and not game.is_over:
        owed = [d for d in game.pending() if d.id.startswith("orders ")]
        if not owed:
            break
        events += game.apply(owed[0].seat, Fight(owed[0].id.split()[1]))
    return events


def pass_germans(game: OmahaGame, fire: dict[str, str] | None = None, strike: str | None = None) -> list[Event]:
    """The Germans' phase: the bunkers named in ``fire`` fire at their squads, the artillery at ``strike``,
    the rest pass. Returns the events, the morale phase's included."""
    events: list[Event] = []
    while game.state.phase == "germans" and not game.is_over:
        owed = game.pending()
        if not owed:
            break
        d = owed[0]
        who = d.id.split()[1]
        if d.id.startswith("fire "):
            action: Any = BunkerFire(who, (fire or {}).get(who))
        else:
            action = Artillery(who, strike)
        events += game.apply(d.seat, action)
    return events


def trials(start: OmahaGame, n: int, one: Callable[[OmahaGame], Any]) -> Counter[Any]:
    return played(start, n, one, SEED)


def at(game: OmahaGame, label: str, x: float, y: float, figures: int | None = None) -> None:
    s = squad(game, label)
    s.x, s.y = x, y
    if figures is not None:
        s.figures = figures
    game.changed()


# ------------------------------------------------------------------------------ one row each
def play_clearing(param: str, n: int) -> Counter[Any]:
    present, k = (int(v.split()[0]) for v in param.split(","))
    start = base()
    at(start, "A2", 12, 24)  # at the wall, O3 in front
    start.state.obstacles[2] = present
    return trials(start, n, lambda g: of_kind(g.apply("American 2", Fight("A2", clear=k)), "cleared")[0]["cleared"])


def play_shooting(param: str, n: int) -> Counter[Any]:
    left, k = (int(v.split()[0]) for v in param.split(","))
    start = base()
    at(start, "A2", 12, 24)  # B2 in front
    start.state.bunkers[1].defenders = left
    return trials(start, n, lambda g: of_kind(g.apply("American 2", Fight("A2", shoot=k)), "shot")[0]["killed"])


def play_assault(k: int, n: int) -> Counter[Any]:
    start = base()
    at(start, "A2", 12, 28)  # in contact with B2
    return trials(start, n, lambda g: of_kind(g.apply("American 2", Fight("A2", assault=k)), "assault")[0]["success"])


def squad_size(label: str) -> int:
    return int(label.split("-")[0])


def play_bunker_fire(param: str, n: int) -> Counter[Any]:
    left, size = param.split(", ")
    start = base()
    start.state.bunkers[0].defenders = int(left)
    at(start, "A1", 4, -1, figures=squad_size(size))
    hold_rest(start)
    return trials(start, n, lambda g: of_kind(g.apply("German 1", BunkerFire("B1", "A1")), "bunker_fire")[0]["killed"])


def _artillery(size: str) -> OmahaGame:
    start = base()
    at(start, "A1", 4, -1, figures=squad_size(size))
    hold_rest(start)
    start.apply("German 1", BunkerFire("B1", None))
    start.apply("German 1", BunkerFire("B2", None))
    return start


def play_artillery_lands(param: None, n: int) -> Counter[Any]:
    start = _artillery("12")
    return trials(start, n, lambda g: of_kind(g.apply("German 1", Artillery("G1", "A1")), "artillery")[0]["landed"])


def play_artillery_given_lands(size: str, n: int) -> Counter[Any]:
    start = _artillery(size)

    def one(game: OmahaGame) -> Any:
        while True:  # given it lands: strikes that miss are rolled again on a fresh clone
            trial = game.clone()
            shot = of_kind(trial.apply("German 1", Artillery("G1", "A1")), "artillery")[0]
            if shot["landed"]:
                return shot["killed"]

    return trials(start, n, one)


def play_artillery_per_call(size: str, n: int) -> Counter[Any]:
    start = _artillery(size)
    return trials(start, n, lambda g: of_kind(g.apply("German 1", Artillery("G1", "A1")), "artillery")[0]["killed"])


def play_morale(lost: int, n: int) -> Counter[Any]:
    start = base()
    s = squad(start, "A1")
    s.figures, s.lost = 12 - lost, lost  # lost this turn
    start.changed()
    hold_rest(start)
    return trials(start, n, lambda g: of_kind(pass_germans(g), "morale")[0]["failed"])


def landings(n: int, **options: Any) -> list[tuple[int, int, bool]]:
    """``n`` landings of seeded games (3 a game): (landing die, men drowned, the squad went back that turn)."""
    out: list[tuple[int, int, bool]] = []
    seed = SEED
    while len(out) < n:
        seed += 1
        game = RULESET.create({"germans": 1, **READING, **options}, SeededDice(seed))
        landed = game.apply("German 1", PlaceBunkers("G1", (1, 2)))  # the first landings (and drownings)
        later = hold_rest(game) + pass_germans(game)  # no fire: only the landing's losses count at morale
        drowned = {e["squad"]: e["figures"] for e in of_kind(landed, "drowned")}
        back = {e["squad"] for e in of_kind(landed + later, "squad_lost")}
        for landing in of_kind(landed, "landed"):
            out.append((landing["inches"], drowned.get(landing["squad"], 0), landing["squad"] in back))
    return out[:n]


def play_landing(param: None, n: int) -> Counter[Any]:
    return Counter(inches for inches, _, _ in landings(n))


def play_deep_water(param: int, n: int) -> Counter[Any]:
    return Counter(drowned for inches, drowned, _ in landings(7 * n, deep_water=True) if inches == 6)


def play_deep_water_landing(param: None, n: int) -> Counter[Any]:
    return Counter(drowned for _, drowned, _ in landings(n, deep_water=True))


def play_deep_water_morale(param: None, n: int) -> Counter[Any]:
    return Counter(back for _, _, back in landings(n, deep_water=True))


def play_obstacles(param: None, n: int) -> Counter[Any]:
    seen: Counter[Any] = Counter()
    seed = SEED
    while sum(seen.values()) < n:
        seed += 1
        seen.update(RULESET.create({"germans": 1, **READING}, SeededDice(seed)).state.obstacles)
    return seen


def play_beach_obstacles(param: str, n: int) -> Counter[Any]:
    germans = int(param.split()[0])
    return Counter(
        sum(RULESET.create({"germans": germans, **READING}, SeededDice(SEED + k)).state.obstacles) for k in range(n)
    )


def _turns(start: OmahaGame, order: Callable[[], Fight], over: Callable[[OmahaGame], bool]) -> Callable[..., int]:
    def one(game: OmahaGame) -> int:
        for turn in range(1, ROUNDS_SHOWN + 1):
            game.apply("American 2", order())
            if over(game):
                return turn
            hold_rest(game)
            pass_germans(game)
        return ROUNDS_SHOWN

    return one


def _alone(x: float, y: float) -> OmahaGame:
    start = base()
    for p in (start.state.americans[0], start.state.americans[2]):  # A1 and A3 off the table for good
        p.squad, p.out = None, True
    at(start, "A2", x, y)
    return start


def play_shots_to_empty(k: int, n: int) -> Counter[Any]:
    start = _alone(12, 24)
    return trials(start, n, _turns(start, lambda: Fight("A2", shoot=k), lambda g: g.state.bunkers[1].defenders == 0))


def play_assaults_to_take(k: int, n: int) -> Counter[Any]:
    start = _alone(12, 28)
    return trials(
        start, n, _turns(start, lambda: Fight("A2", assault=k), lambda g: g.state.bunkers[1].status == "destroyed")
    )


def play_fire_then_morale(param: None, n: int) -> Counter[Any]:
    start = base()
    hold_rest(start)
    return trials(
        start, n, lambda g: any(e["squad"] == "A1" for e in of_kind(pass_germans(g, {"B1": "A1"}), "squad_lost"))
    )


PLAYERS: dict[str, tuple[Callable[[Any, int], Counter[Any]], int]] = {
    "obstacles": (play_obstacles, 2000),
    "landing": (play_landing, 1500),
    "deep_water": (play_deep_water, 400),
    "clearing": (play_clearing, 200),
    "shooting": (play_shooting, 500),
    "assault": (play_assault, 300),
    "bunker_fire": (play_bunker_fire, 400),
    "artillery_lands": (play_artillery_lands, 1000),
    "artillery_given_lands": (play_artillery_given_lands, 400),
    "artillery_per_call": (play_artillery_per_call, 600),
    "morale": (play_morale, 300),
    "deep_water_landing": (play_deep_water_landing, 1500),
    "deep_water_morale": (play_deep_water_morale, 3000),
    "beach_obstacles": (play_beach_obstacles, 300),
    "shots_to_empty": (play_shots_to_empty, 100),
    "assaults_to_take": (play_assaults_to_take, 100),
    "fire_then_morale": (play_fire_then_morale, 2000),
}


def test_every_printed_table_is_played() -> None:
    assert set(PLAYERS) == set(TABLES)


@pytest.mark.rule("omaha.8", "omaha.11", "omaha.12", "omaha.16", "omaha.17", "omaha.18", "omaha.19", "omaha.24")
@pytest.mark.parametrize("name", list(PLAYERS))
def test_the_printed_table_is_what_play_does(name: str) -> None:
    play, n = PLAYERS[name]
    for param, mechanic in TABLES[name].rows:
        check(play(param, n), distribution_rows(mechanic), (name, param))


def test_every_option_value_that_changes_a_printed_table_is_played_with_it() -> None:
    """``odds omaha -o drowned_morale=off`` once printed the default's deep_water_morale while play left the
    drowned out of morale: the composites take the options, and each table an option changes is played so."""
    assert ("drowned_morale", False, "deep_water_morale") in OPTION_CASES
    assert {name for _, _, name in OPTION_CASES} <= set(PLAYERS)


@pytest.mark.rule("omaha.12", "omaha.25")
@pytest.mark.parametrize(("option", "value", "name"), OPTION_CASES)
def test_the_printed_table_is_what_play_does_at_each_option_value_that_changes_it(
    option: str, value: Any, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(f"{__name__}.READING", {option: value})
    play, n = PLAYERS[name]
    for param, mechanic in changed_rows(RULESET, odds_tables, option, value)[name]:
        check(play(param, n), distribution_rows(mechanic), (name, param, f"{option}={value}"))


@pytest.mark.rule("omaha.17")
def test_the_uncapped_table_the_cli_once_printed_fails_this_check() -> None:
    """The power of the check: 12 figures' raw sixes against 4 defenders (5 to 12 kills, a mean of 2) is
    refused by what play does, as the printed (capped) row is accepted."""
    seen = play_shooting("4 left, 12", 500)
    with pytest.raises(AssertionError, match="shooting"):
        check(seen, distribution_rows(shooting(12)), "shooting")
    check(seen, distribution_rows(Capped(shooting(12), 4)), "shooting")
