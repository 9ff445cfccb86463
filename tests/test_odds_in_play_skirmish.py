"""Every table ``grognard odds skirmish`` prints is what play does: each row played through the game engine
(a table set up for it with test_skirmish_*'s helpers, the real ``apply``) with fixed seeds and compared cell
by cell (tests/odds_check.py). A skirmish order costs milliseconds, so the rows get fewer trials than Omaha's;
the check's margins stay the same (never flaky), its power is lower.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from grognard.analysis.odds import distribution_rows
from grognard.core.dice import SeededDice
from grognard.rulesets.skirmish import RULESET
from grognard.rulesets.skirmish.actions import Burst, Choice, Fire, Move, WedgeOrder, parse_action
from grognard.rulesets.skirmish.analysis import odds_tables, scenario_odds_tables
from grognard.rulesets.skirmish.composites import TURNS_SHOWN
from grognard.rulesets.skirmish.game import SkirmishGame
from grognard.rulesets.skirmish.tables import load_tables
from odds_check import changed_rows, check, option_cases, played
from test_skirmish_rules import fig, figure, hold_moves, scenario, unit
from test_skirmish_rules import make as make_game

TABLES = {t.name: t for t in odds_tables()}
SHIPPED = load_tables()
SEED = 20261204
READING: dict[str, Any] = {}  # the options every scene is played with (an option's other value: monkeypatched)
OPTION_CASES = option_cases(RULESET, scenario_odds_tables)


def make(data: dict[str, Any], *dice: int, options: dict[str, Any] | None = None) -> SkirmishGame:
    """test_skirmish_rules' ``make`` with the options of ``READING`` under ``options``."""
    return make_game(data, *dice, options={**READING, **(options or {})})


def trials(start: SkirmishGame, n: int, one: Callable[[SkirmishGame], Any]) -> Counter[Any]:
    return played(start, n, one, SEED)


def band_middle(param: str) -> tuple[float, bool]:
    """The middle of a row's range band and whether the row is in cover: ``'12-24" cover'`` -> (18.0, True)."""
    low, high = (float(v) for v in re.match(r'([\d.]+)-([\d.]+)"', param).groups())  # type: ignore[union-attr]
    return (low + high) / 2, param.endswith(" cover") and not param.endswith("no cover")


def woods_around(x: float, y: float) -> dict[str, Any]:
    return {"kind": "woods", "shape": [[x - 1.5, y - 1.5], [x + 1.5, y - 1.5], [x + 1.5, y + 1.5], [x - 1.5, y + 1.5]]}


def fate_of(game: SkirmishGame, fid: str) -> str:
    f = figure(game, fid)
    return "dead" if not f.alive else ("wounded" if f.wounds else "miss")


def end_fire(game: SkirmishGame) -> list[Any]:
    """Every fire and burst order still owed holds; returns the events."""
    events: list[Any] = []
    while game.state.phase == "fire" and game.result is None:
        d = game.pending()[0]
        label = d.id.split()[1]
        events += game.apply(d.seat, Burst(label, None) if d.id.startswith("burst") else Fire(label, None))
    return events


def duel_at(
    distance: float, weapon: str, covered: bool, size: float = 48.0, options: dict[str, Any] | None = None
) -> SkirmishGame:
    """A.1 at (10, 10) with ``weapon``; G.1 ``distance`` north of him, in woods if ``covered``; keepers far off;
    the game's ``options``."""
    target = (10.0, 10.0 + distance)
    data = scenario(
        [
            unit("A", "allies", fig(10, 10, weapon)),
            unit("B", "allies", fig(size - 2, 2)),
            unit("G", "axis", fig(*target)),
            unit("H", "axis", fig(size - 2, size - 2, "pistol")),
        ],
        [woods_around(*target)] if covered else [],
        turn_limit=50,
    )
    data["table"] = {"width": size, "depth": size}
    game = make(data, options=options)
    hold_moves(game)
    return game


def play_shot(weapon: str, options: dict[str, Any] | None = None) -> Callable[[str, int], Counter[Any]]:
    def play(param: str, n: int) -> Counter[Any]:
        distance, covered = band_middle(param)
        start = duel_at(distance, weapon, covered, options=options)

        def one(game: SkirmishGame) -> str:
            game.apply("Allies", Fire("A", "G"))
            end_fire(game)
            return fate_of(game, "G.1")

        return trials(start, n, one)

    return play


def play_wedge(weapon: str) -> Callable[[str, int], Counter[Any]]:
    def play(param: str, n: int) -> Counter[Any]:
        distance, covered = band_middle(param)
        start = duel_at(distance, weapon, covered, size=64.0)

        def one(game: SkirmishGame) -> str:
            game.apply("Allies", Fire("A", None, (), (WedgeOrder("A.1", 90.0),)))
            end_fire(game)
            return fate_of(game, "G.1")

        return trials(start, n, one)

    return play


def play_survival(param: None, n: int) -> Counter[Any]:
    start = duel_at(6.0, "rifle", False)
    seen: Counter[Any] = Counter()
    dice = SeededDice(SEED)
    while sum(seen.values()) < n:
        game = start.clone()
        game.dice = dice
        game.apply("Allies", Fire("A", "G"))
        end_fire(game)
        fate = fate_of(game, "G.1")
        if fate != "miss":  # hit once: his survival roll
            seen[fate == "wounded"] += 1
    return seen


def play_initiative(param: None, n: int) -> Counter[Any]:
    data = scenario([unit("A", "allies", fig(10, 10)), unit("G", "axis", fig(10, 40))], first="initiative")
    seen: Counter[Any] = Counter()
    base = make(data, 1, 2)  # a game made with scripted dice; its clones roll the seeded ones from turn 2 on
    dice = SeededDice(SEED)
    for _ in range(n):
        game = base.clone()
        game.dice = dice
        while game.state.turn == 1:
            d = game.pending()[0]
            verb, label = d.id.split()
            game.apply(d.seat, Move(label) if verb == "move" else Fire(label, None))
        seen[game.state.order[0]] += 1
    return seen


def play_rifles_close(k: int, n: int) -> Counter[Any]:
    men = [fig(4 + 2 * i, 10) for i in range(k)]
    data = scenario(
        [unit("A", "allies", *men), unit("G", "axis", fig(11, 15)), unit("H", "axis", fig(46, 46, "pistol"))]
    )
    start = make(data)
    hold_moves(start)

    def one(game: SkirmishGame) -> int:
        events = game.apply("Allies", Fire("A", "G")) + end_fire(game)
        return sum(e.data["hits"] for e in events if e.kind == "shots")

    return trials(start, n, one)


def play_shots_to_kill(param: str, n: int, options: dict[str, Any] | None = None) -> Counter[Any]:
    weapon, band = param.split(" ", 1)
    distance, _ = band_middle(band + " cover")
    start = duel_at(distance, weapon, True, options=options)

    def one(game: SkirmishGame) -> int:
        for turn in range(1, TURNS_SHOWN + 1):
            game.apply("Allies", Fire("A", "G"))
            end_fire(game)
            if not figure(game, "G.1").alive:
                return turn
            hold_moves(game)
        return TURNS_SHOWN

    return trials(start, n, one)


def burst_scene(weapon: str, distance: float, wall: bool = False, aboard: bool = False) -> tuple[SkirmishGame, str]:
    """The firer of ``weapon`` at (10, 10) facing north: a piece with its crew, a man with a mortar or bazooka,
    or a tank with a driver and a gunner; G.1 ``distance`` north (a stone wall 0.8" in front of him if
    ``wall``, aboard an axis half track there, its driver, if ``aboard``); keepers far off. Returns the game at
    the fire phase and the burst's ``by``."""
    entry = SHIPPED.artillery[weapon]
    size = max(48.0, distance + 24.0)
    target = (10.0, 10.0 + distance)
    keepers = [unit("H", "axis", fig(size - 2, size - 2, "pistol"))]
    extra: dict[str, Any] = {}
    if entry.kind in ("mortar", "bazooka"):
        units = [unit("A", "allies", fig(10, 10, weapon)), unit("B", "allies", fig(size - 2, 2))]
        by = "A.1"
    elif entry.kind == "tank_gun":
        units = [unit("A", "allies", fig(10, 10), fig(10, 10)), unit("B", "allies", fig(size - 2, 2))]
        extra["vehicles"] = [
            {"id": "TK", "kind": "tank", "side": "allies", "at": [10, 10], "heading": 90.0, "crew": ["A"],
             "weapons": [weapon]}
        ]  # fmt: skip
        by = "TK"
    else:
        crew = [  # 1" from the piece, a base apart, south of it (away from the line of fire)
            fig(round(10 + math.cos(math.radians(a)), 2), round(10 + math.sin(math.radians(a)), 2), type="crew")
            for a in (180 + 65 * i for i in range(entry.crew))
        ]
        units = [unit("C", "allies", *crew), unit("B", "allies", fig(size - 2, 2))]
        extra["pieces"] = [{"id": "GUN", "weapon": weapon, "at": [10.0, 10.0], "crew": "C"}]
        by = "GUN"
    terrain = [{"kind": "stone_wall", "line": [[7, target[1] - 0.8], [13, target[1] - 0.8]]}] if wall else []
    data = scenario([*units, unit("G", "axis", fig(*target)), *keepers], terrain, turn_limit=50)
    data["table"] = {"width": size, "depth": size}
    data.update(extra)
    if aboard:
        half_track = {"id": "HT", "kind": "half_track", "side": "axis", "at": list(target), "heading": 90.0,
                      "crew": ["G"]}  # fmt: skip
        data.setdefault("vehicles", []).append(half_track)
    game = make(data)
    hold_moves(game)
    return game, by


def fire_burst(game: SkirmishGame, order: Burst) -> list[Any]:
    """Give ``order`` when its decision comes; every other fire or burst order holds."""
    events: list[Any] = []
    while game.state.phase == "fire" and game.result is None:
        d = game.pending()[0]
        label = d.id.split()[1]
        if d.id == f"burst {order.by}":
            events += game.apply(d.seat, order)
        else:
            events += game.apply(d.seat, Burst(label, None) if d.id.startswith("burst") else Fire(label, None))
    return events


def play_ranging(weapon: str) -> Callable[[str, int], Counter[Any]]:
    def play(param: str, n: int) -> Counter[Any]:
        distance, _ = band_middle(param)
        start, by = burst_scene(weapon, distance)
        order = Burst(by, (10.0, 10.0 + distance))

        def one(game: SkirmishGame) -> bool:
            kinds = [e.kind for e in fire_burst(game, order)]
            assert ("burst_lands" in kinds) != ("burst_missed" in kinds), kinds
            return "burst_lands" in kinds

        return trials(start, n, one)

    return play


def play_under(weapon: str) -> Callable[[str, int], Counter[Any]]:
    def play(param: str, n: int) -> Counter[Any]:
        distance, covered = band_middle(param)
        # only a half track covers a man against artillery and tank guns: G.1 rides one; a stone wall else
        aboard = covered and SHIPPED.artillery[weapon].kind in ("artillery", "tank_gun")
        start, by = burst_scene(weapon, distance, wall=covered and not aboard, aboard=aboard)
        order = Burst(by, (10.0, 10.0 + distance))

        def one(game: SkirmishGame) -> str:
            fire_burst(game, order)
            return fate_of(game, "G.1")

        return trials(start, n, one)

    return play


def round_outcome(events: list[Any]) -> str:
    """The first melee round among ``events`` read as the melee tables' outcome labels (attackers are unit A,
    defenders unit G)."""
    starts = [i for i, e in enumerate(events) if e.kind == "melee_round"]
    assert starts, [e.kind for e in events]
    first = events[starts[0] : starts[1] if len(starts) > 1 else len(events)]
    if not any(e.kind == "melee_strike" and e.data["hit"] for e in first):
        return "both missed: stay or retreat"
    dead = [e.data["figure"] for e in first if e.kind == "killed"]
    return f"{sum(d.startswith('A.') for d in dead)} att., {sum(d.startswith('G.') for d in dead)} def. dead"


def in_contact(attackers: int, defenders: int) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Where ``attackers`` and ``defenders`` men stand in contact, no two bases overlapping (1" bases): one man
    with the others on one side of him, 60 degrees apart; two and two at a square's corners (each touches both
    foes); else two lines half a base apart, each man touching the foes beside him (the longer line's end men
    touch one). Each way the engine pairs them one to one, the spare men joining (RULINGS S13), as the tables
    do. Five men cannot all touch (two men touch at most two others in common)."""

    def fan(k: int, centre: tuple[float, float], facing: float) -> list[tuple[float, float]]:
        angles = [facing + 60 * (i - (k - 1) / 2) for i in range(k)]
        return [
            (round(centre[0] + math.cos(math.radians(a)), 2), round(centre[1] + math.sin(math.radians(a)), 2))
            for a in angles
        ]

    if attackers == 1:
        return [(20.0, 20.0)], fan(defenders, (20.0, 20.0), 90)
    if defenders == 1:
        return fan(attackers, (20.0, 20.0), 270), [(20.0, 20.0)]
    if attackers == defenders == 2:
        return [(20.0, 20.0), (20.0, 21.41)], [(19.29, 20.71), (20.71, 20.71)]
    longer, shorter = max(attackers, defenders), min(attackers, defenders)
    line = [(20.0 + i, 20.0) for i in range(longer)]
    offset = [(20.5 + j, 20.87) for j in range(shorter)]
    return (line, offset) if attackers == longer else (offset, line)


def melee_table(
    attackers: int, defenders: int, engaged: bool = False, options: dict[str, Any] | None = None
) -> SkirmishGame:
    """Unit A's ``attackers`` men have charged unit G's ``defenders`` men (turn 1, each from 3" straight out to
    his place by ``in_contact``; the allies move first, so they attack, skirmish.66); every other unit held: the
    game at the fire phase. B and H far off keep each side in the game. ``engaged``: as if the melee began on an
    earlier turn (both stayed), so its next round is a later one (skirmish.70)."""
    ours, theirs = in_contact(attackers, defenders)
    cx, cy = sum(x for x, _ in theirs) / len(theirs), sum(y for _, y in theirs) / len(theirs)

    def start(x: float, y: float) -> tuple[float, float]:
        d = math.hypot(x - cx, y - cy)
        return round(x + 3 * (x - cx) / d, 2), round(y + 3 * (y - cy) / d, 2)

    data = scenario(
        [
            unit("A", "allies", *(fig(*start(*p)) for p in ours)),
            unit("B", "allies", fig(46, 2)),
            unit("G", "axis", *(fig(*p) for p in theirs)),
            unit("H", "axis", fig(46, 46, "pistol")),
        ],
        turn_limit=50,
    )
    game = make(data, options=options)
    orders = " / ".join(f"A.{i + 1} to {x:g},{y:g}" for i, (x, y) in enumerate(ours))
    game.apply("Allies", parse_action(f"move A / {orders}"))
    hold_moves(game)
    if engaged:
        game.state.engaged = {f: "allies" for f in game.state.figures if f[0] in "AG"}
        game.state.charged = set()
        game.changed()
    return game


def one_v_one(defender_type: str = "infantry") -> SkirmishGame:
    """A.1 at (10, 10) and G.1 at (10, 15) (of ``defender_type``); B and H far away keep each side in the game."""
    data = scenario(
        [
            unit("A", "allies", fig(10, 10)),
            unit("B", "allies", fig(46, 2)),
            unit("G", "axis", fig(10, 15, type=defender_type)),
            unit("H", "axis", fig(46, 46, "pistol")),
        ],
        turn_limit=50,
    )
    return make(data)


def charged(game: SkirmishGame) -> list[Any]:
    """A.1 charges G.1 (their bases touch), everyone else holds, nobody fires: the events to the melee's end
    (or its stay-or-retreat choice)."""
    events = game.apply("Allies", Move("A", ((10.0, 14.0),)))
    events += _hold_all(game)
    return events


def _hold_all(game: SkirmishGame) -> list[Any]:
    events: list[Any] = []
    turn = game.state.turn
    while game.result is None and game.state.turn == turn and game.pending():
        d = game.pending()[0]
        verb, label = d.id.split()[:2]
        if verb == "melee":
            return events
        events += game.apply(d.seat, Move(label) if verb == "move" else Fire(label, None))
    return events


def play_melee(first: bool, defender_type: str = "infantry") -> Callable[[str, int], Counter[Any]]:
    def play(param: str, n: int) -> Counter[Any]:
        attackers, defenders = (int(v) for v in param.split()[:3:2])
        if (attackers, defenders) != (1, 1):  # groups charge to their places (in_contact)
            start = melee_table(attackers, defenders, engaged=not first)
            return trials(start, n, lambda game: round_outcome(_hold_all(game)))
        start = one_v_one(defender_type if first else "infantry")
        if first:
            return trials(start, n, lambda game: round_outcome(charged(game)))

        def later(game: SkirmishGame) -> str:
            while True:  # a first round where both missed, both stay: the next turn's first round is a later one
                trial = game.clone()
                charged(trial)
                if {d.id for d in trial.pending()} != {"melee M1", "melee M2"}:
                    continue
                trial.apply("Allies", Choice("M1", "stay"))
                trial.apply("Axis", Choice("M2", "stay"))
                return round_outcome(_hold_all(trial))

        return trials(start, n, later)

    return play


def play_melee_by_type(param: str, n: int) -> Counter[Any]:
    kind = param.split()[3]
    return play_melee(True, kind)("1 v 1", n)


RIVER = {"kind": "river", "line": [[0, 30], [48, 30]], "width": 4.0}


def bridge_scene(kind: str = "large") -> SkirmishGame:
    """A light gun at (10, 10) (crew of two) facing a bridge of ``kind`` across a river at y=30, 20" north."""
    bridge = {"kind": "bridge", "id": "BR", "type": kind, "line": [[10, 26], [10, 34]]}
    crew = [fig(9.0, 10.0, type="crew"), fig(10.0, 9.0, type="crew")]
    data = scenario(
        [
            unit("C", "allies", *crew),
            unit("B", "allies", fig(46, 2)),
            unit("H", "axis", fig(46, 46, "pistol")),
        ],
        [RIVER, bridge],
        turn_limit=200,
    )
    data["pieces"] = [{"id": "GUN", "weapon": "light_artillery", "at": [10.0, 10.0], "crew": "C"}]
    game = make(data)
    hold_moves(game)
    return game


AT_BRIDGE = Burst("GUN", (10.0, 30.0))


def shell_bridge(game: SkirmishGame) -> tuple[bool, int, int]:
    """One turn's burst at the bridge: (landed, points before, points after); the next turn's moves held."""
    before = game.state.bridges["BR"].points
    events = fire_burst(game, AT_BRIDGE)
    after = game.state.bridges["BR"].points
    if game.result is None:
        hold_moves(game)
    return any(e.kind == "burst_lands" for e in events), before, after


def play_structure_damage(param: str, n: int) -> Counter[Any]:
    start = bridge_scene()
    start.state.bridges["BR"].points = 30 if str(param).endswith("+") else int(param)
    start.changed()

    def one(game: SkirmishGame) -> int:
        while True:  # a shell that lands: the points it took (a miss takes none)
            trial = game.clone()
            landed, before, after = shell_bridge(trial)
            if landed:
                return before - after

    return trials(start, n, one)


def door_scene(distance: float) -> SkirmishGame:
    """A light gun at (10, 2) facing north (crew of two); a one-section house whose door (D) is in its south wall
    ``distance`` + 0.6 inches north of the gun, the aim point 0.6" south of the door (the template covers both)."""
    wall = 2.0 + distance + 0.6
    house = {
        "kind": "building",
        "id": "HS",
        "shape": [[7, wall], [13, wall], [13, wall + 3], [7, wall + 3]],
        "doors": [{"id": "D", "at": [10, wall]}],
    }
    crew = [fig(9.0, 2.0, type="crew"), fig(11.0, 2.0, type="crew")]
    data = scenario(
        [unit("C", "allies", *crew), unit("H", "axis", fig(46, 46, "pistol"))], [house], turn_limit=200
    )  # fmt: skip
    data["pieces"] = [{"id": "GUN", "weapon": "light_artillery", "at": [10.0, 2.0], "crew": "C"}]
    game = make(data)
    hold_moves(game)
    return game


def play_artillery_one(param: str, n: int) -> Counter[Any]:
    """The light gun's bands: 0-18" lands on 4 or less, 18-36" on 3, 36-48" on 2 (the tables' defaults)."""
    distance = {4: 10.0, 3: 25.0, 2: 40.0}[int(param.split()[2])]
    start = door_scene(distance)

    def one(game: SkirmishGame) -> bool:
        while True:  # a shell that lands: is the door blown off?
            trial = game.clone()
            events = fire_burst(trial, Burst("GUN", (10.0, 2.0 + distance)))
            if any(e.kind == "burst_lands" for e in events):
                return trial.state.doors["D"].blown

    return trials(start, n, one)


def play_bridge(kind: str) -> Callable[[str, int], Counter[Any]]:
    def play(param: str, n: int) -> Counter[Any]:
        below = 0 if param.startswith("gone") else int(param.split()[1]) - 1

        def one(game: SkirmishGame) -> int:
            shells = 0
            while True:  # shells that land until the bridge is down to ``below`` or fewer points
                landed, _, after = shell_bridge(game)
                shells += landed
                if after <= below:
                    return shells

        return trials(bridge_scene(kind), n, one)

    return play


def building_scene(kind: str) -> SkirmishGame:
    """A light gun at (10, 10) (crew of two) facing a one-storey ``kind`` (building or tower) 20" north."""
    house = {"kind": kind, "id": "HS", "shape": [[8, 28], [12, 28], [12, 32], [8, 32]]}
    crew = [fig(9.0, 10.0, type="crew"), fig(10.0, 9.0, type="crew")]
    data = scenario(
        [unit("C", "allies", *crew), unit("B", "allies", fig(46, 2)), unit("H", "axis", fig(46, 46, "pistol"))],
        [house],
        turn_limit=200,
    )
    data["pieces"] = [{"id": "GUN", "weapon": "light_artillery", "at": [10.0, 10.0], "crew": "C"}]
    game = make(data)
    hold_moves(game)
    return game


def play_storey(kind: str) -> Callable[[str | None, int], Counter[Any]]:
    def play(param: str | None, n: int) -> Counter[Any]:
        below = int(re.search(r"below (\d+)", param).group(1)) - 1 if param and "below" in param else 0  # type: ignore[union-attr]
        start = building_scene(kind)
        (section,) = start.state.sections

        def one(game: SkirmishGame) -> int:
            shells = 0
            while True:  # shells that land until the storey is down to ``below`` or fewer points
                events = fire_burst(game, Burst("GUN", (10.0, 27.5)))  # just short of its face, in sight
                shells += any(e.kind == "burst_lands" for e in events)
                assert game.state.turn < 150, "the shells never bring it down"
                if game.state.sections[section][0] <= below:
                    return shells
                hold_moves(game)

        return trials(start, n, one)

    return play


def play_melee_to_end(param: str, n: int, options: dict[str, Any] | None = None) -> Counter[Any]:
    attackers, defenders = (int(v) for v in param.split()[::2])

    def left(game: SkirmishGame, unit: str) -> int:
        return sum(1 for f in game.state.figures.values() if f.unit == unit and f.alive)

    def one(game: SkirmishGame) -> str:
        if (attackers, defenders) == (1, 1) and options is None:
            charged(game)
        while left(game, "A") and left(game, "G"):
            if {d.id for d in game.pending()} == {"melee M1", "melee M2"}:  # both missed: both stay
                game.apply("Allies", Choice("M1", "stay"))
                game.apply("Axis", Choice("M2", "stay"))
            else:
                _hold_all(game)
            assert game.state.turn < 45, "a melee that never ends"
        a, g = left(game, "A"), left(game, "G")
        return "both gone" if not (a or g) else (f"attackers win, {a} left" if a else f"defenders win, {g} left")

    one_charge = (attackers, defenders) == (1, 1) and options is None
    start = one_v_one() if one_charge else melee_table(attackers, defenders, options=options)
    return trials(start, n, one)


def play_ladder_push(men: int, n: int) -> Counter[Any]:
    """test_skirmish_castles' storming: A.1 raises ladder L1, A.2 and A.3 climb it; ``men`` of G push it."""
    from test_skirmish_castles import CASTLE, FAR, move, next_turn, to_axis_move

    data = scenario(
        [unit("A", "allies", fig(16, 28.5), fig(15, 28.5), fig(17, 28.5)),
         unit("G", "axis", fig(15, 30), fig(17, 30)), FAR],
        CASTLE,
    )  # fmt: skip
    start = make(data)
    move(start, "move A / A.1 ladder 16,30")
    next_turn(start)
    move(start, "move A / A.2 climb L1 / A.3 climb L1")
    to_axis_move(start)
    order = "move G / " + " / ".join(f"G.{k + 1} push L1" for k in range(men))
    return trials(start, n, lambda game: (move(game, order), "L1" not in game.state.ladders)[1])


PLAYERS: dict[str, tuple[Callable[[Any, int], Counter[Any]], int]] = {
    "initiative": (play_initiative, 300),
    "survival": (play_survival, 300),
    "rifles_close": (play_rifles_close, 50),
    "shots_to_kill": (play_shots_to_kill, 40),
    "melee_first_round": (play_melee(True), 300),
    "melee_later_round": (play_melee(False), 200),
    "melee_by_type": (play_melee_by_type, 200),
    "melee_to_end": (play_melee_to_end, 300),
    "ladder_push": (play_ladder_push, 300),
    "structure_damage": (play_structure_damage, 100),
    "artillery_one": (play_artillery_one, 150),
    "bridge_large": (play_bridge("large"), 60),
    "bridge_foot": (play_bridge("foot"), 60),
    "storey": (play_storey("building"), 60),
    "tower": (play_storey("tower"), 60),
}
for _name, _spec in SHIPPED.weapons.items():
    if f"shot_{_name}" in TABLES:
        PLAYERS[f"shot_{_name}"] = (play_shot(_name), 100)
    if f"wedge_{_name}" in TABLES:
        PLAYERS[f"wedge_{_name}"] = (play_wedge(_name), 100)

for _name in SHIPPED.artillery:
    PLAYERS[f"ranging_{_name}"] = (play_ranging(_name), 80)
    PLAYERS[f"under_{_name}"] = (play_under(_name), 80)


def test_every_printed_table_is_played() -> None:
    assert set(PLAYERS) == set(TABLES)


@pytest.mark.rule("skirmish.4", "skirmish.6", "skirmish.8", "skirmish.10", "skirmish.16", "skirmish.32")
@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_the_printed_table_is_what_play_does(name: str) -> None:
    play, n = PLAYERS[name]
    for param, mechanic in TABLES[name].rows:
        seen = play(param, n)
        check(seen, distribution_rows(mechanic), (name, param))


def test_every_option_value_that_changes_a_printed_table_is_played_with_it() -> None:
    assert ("artillery_one", "damage_die", "artillery_one") in OPTION_CASES
    assert ("ladder_push", "one_die", "ladder_push") in OPTION_CASES
    assert {name for _, _, name in OPTION_CASES} <= set(PLAYERS)


@pytest.mark.rule("skirmish.32", "skirmish.7", "skirmish.77", "skirmish.83")
@pytest.mark.parametrize(("option", "value", "name"), OPTION_CASES)
def test_the_printed_table_is_what_play_does_at_each_option_value_that_changes_it(
    option: str, value: Any, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each table an option's other value prints otherwise (the rows it changes) is what play does with it."""
    monkeypatch.setattr(f"{__name__}.READING", {option: value})
    play, n = PLAYERS[name]
    for param, mechanic in changed_rows(RULESET, scenario_odds_tables, option, value)[name]:
        check(play(param, n), distribution_rows(mechanic), (name, param, f"{option}={value}"))
