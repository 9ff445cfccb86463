"""The bots' plans (issue 31, item 1): named plans as data, committed at set-up, revealed at the end, proved.

Each rule set with plans plays one short game with ``-o plan=...`` through the real program; its record is
then read: a ``plan`` line after the start line carries only a salted digest, a ``reveal`` line at the end
names the plan and the salt, ``grognard replay`` checks one against the other and names the line of a changed
plan or salt; before the reveal no line, no seat's view of the record and no view of the game says the plan's
name, description or salt (as the sealed melee choices are leak-tested). Bad plan options get one line.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from grognard import rulesets
from grognard.core import plans
from grognard.core.engine import Game, canonical_json
from grognard.core.errors import RecordError
from grognard.core.record import readable_by, replay
from terminal_driver import error_line, lines_of, run_cli

GAMES = {  # rule set -> the flags of one short game whose bots follow a plan
    "omaha": ("omaha", "--germans", "2", "--seed", "5", "-o", "plan=wall-and-landings"),
    "b17": ("b17", "--seed", "3", "-o", "plan=head-on"),
    "skirmish": ("skirmish", "-o", "scenario=proving_ground", "--seed", "2", "-o", "plan=random"),
}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = {}
    for name, args in GAMES.items():
        path = tmp_path_factory.mktemp("plans") / f"{name}.jsonl"
        done = run_cli("play", *args, "--record", str(path), "-q", "--explain")  # the reasons kept too
        assert done.returncode == 0, done.stderr
        out[name] = path
    return out


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines_of(path)]


def rechained(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``lines`` with the last line's digest taken again (a forger who knows the chain's recipe)."""
    game = replay(lines[:-1], rulesets.get).game
    last = {key: value for key, value in lines[-1].items() if key != "digest"}
    chain = hashlib.sha256((lines[-2]["digest"] + game.digest() + canonical_json(last)).encode()).hexdigest()
    return [*lines[:-1], {**last, "digest": chain}]


def offered(lines: list[dict[str, Any]]) -> dict[str, tuple[plans.Plan, ...]]:
    return plans.offered(rulesets.get(lines[0]["ruleset"]), replay(lines[:2], rulesets.get).game)


@pytest.mark.parametrize("name", list(GAMES))
def test_the_plan_is_committed_at_set_up_revealed_at_the_end_and_replay_checks_it(
    played: dict[str, Path], name: str
) -> None:
    lines = records(played[name])
    commits = [(n, line) for n, line in enumerate(lines, 1) if line["type"] == "plan"]
    reveals = [line for line in lines if line["type"] == "reveal"]
    sides = sorted(offered(lines)) if GAMES[name][-1] == "plan=random" else ["german"]
    assert [line["side"] for _, line in commits] == sides
    assert [n for n, _ in commits] == list(range(3, 3 + len(sides)))  # right after the start line
    assert lines[-len(sides) :] == reveals and [line["side"] for line in reveals] == sides
    rebuilt = replay(lines, rulesets.get)
    assert rebuilt.game.is_over
    done = run_cli("replay", str(played[name]))
    assert done.returncode == 0, done.stderr
    for (number, commit), reveal in zip(commits, reveals, strict=True):
        assert set(commit) == {"type", "side", "commitment", "digest"}
        assert plans.commitment(reveal["plan"], reveal["salt"]) == commit["commitment"]
        assert reveal["plan"] in [p.name for p in offered(lines)[commit["side"]]]
        assert rebuilt.plans[commit["side"]] == {
            "line": number,
            "commitment": commit["commitment"],
            "revealed": lines.index(reveal) + 1,
            "plan": reveal["plan"],
        }
        assert f"plan: {reveal['plan']}" in done.stdout
        assert f"it matches the commitment of line {number}" in done.stdout
    if sides == ["german"]:
        assert reveals[0]["plan"] == GAMES[name][-1].split("=")[1]


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("field", ["plan", "salt"])
def test_a_changed_plan_or_salt_is_named_by_line(
    played: dict[str, Path], tmp_path: Path, name: str, field: str
) -> None:
    lines = records(played[name])
    last = len(lines)
    side = lines[-1]["side"]
    committed = next(n for n, line in enumerate(lines, 1) if line["type"] == "plan" and line["side"] == side)
    others = [p.name for p in offered(lines)[side] if p.name != lines[-1]["plan"]]
    lines[-1][field] = others[0] if field == "plan" else "0" * 32
    said = f"line {last}: the revealed plan does not match the commitment of line {committed}"
    for forged in (lines, rechained(lines)):  # as changed, and with every digest taken again
        with pytest.raises(RecordError) as caught:
            replay(forged, rulesets.get)
        assert str(caught.value) == said
    path = tmp_path / "forged.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in rechained(lines)), encoding="utf-8")
    done = run_cli("replay", str(path))
    assert done.returncode == 2
    assert error_line(done) == f"error: {path}: {said}"


@pytest.mark.parametrize("name", list(GAMES))
def test_nothing_before_the_reveal_says_the_plan(played: dict[str, Path], name: str) -> None:
    lines = records(played[name])
    reveals = [line for line in lines if line["type"] == "reveal"]
    game = replay(lines[:2], rulesets.get).game
    secrets: list[str] = []
    for reveal in reveals:
        plan = next(p for p in offered(lines)[reveal["side"]] if p.name == reveal["plan"])
        secrets += [plan.name, plan.description, reveal["salt"]]
    before = lines[: -len(reveals)]
    seats: list[str | None] = [None, *game.seats()]

    def clean(text: str, where: str) -> None:
        for secret in secrets:
            assert secret not in text, f"{where} says {secret!r}"

    for number, line in enumerate(before, 1):
        clean(json.dumps(line), f"line {number}")
    said = {line["reason"]["clause"] for line in before if "reason" in line}
    assert plans.SEALED_CLAUSE in said  # the decisions a plan made say only that a plan did
    for seat in seats:
        clean(json.dumps(readable_by(before, seat)), f"the record as {seat} reads it")
    seen = {"views": 0}

    def views(now: Game) -> bool:  # every view of every seat, each turn of the game as it is replayed
        if now.turn != seen.get("turn"):
            seen["turn"] = now.turn
            for seat in seats:
                clean(json.dumps(now.view(seat)), f"the view of {seat} on turn {now.turn}")
                seen["views"] += 1
        return False

    replay(before, rulesets.get, until=views)
    assert seen["views"] > len(seats)


def test_a_resumed_game_reveals_the_plan_it_committed_to(played: dict[str, Path], tmp_path: Path) -> None:
    whole = records(played["omaha"])
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(json.dumps(line) + "\n" for line in whole[:40]), encoding="utf-8")
    done = run_cli("play", "omaha", "--resume", str(cut), "-q", "--explain")
    assert done.returncode == 0, done.stderr
    assert records(cut) == whole


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ("omaha", "-o", "plan=hold"),
            "error: -o plan=hold: no plan 'hold'; the plans: german: concentrate, wall-and-landings (or random)",
        ),
        (
            ("omaha", "-o", "plan=concentrate", "--bots", "german=normal"),
            "error: -o plan: the german bot (normal) follows no plan; these do: book, hard, doctrine",
        ),
        (
            ("skirmish", "-o", "scenario=gun_line", "-o", "plan=left"),
            "error: -o plan=left: no plan 'left'; the plans: allies: both-squads-in, fix-and-flank; "
            "axis: dig-in, rifles-forward (or random)",
        ),
        (
            ("omaha", "-o", "plan=concentrate", "--human", "german"),
            "error: -o plan=concentrate: concentrate is a plan of the german side, which no bot plays",
        ),
    ],
)
def test_a_bad_plan_option_gets_one_line_and_nothing_is_written(
    tmp_path: Path, args: tuple[str, ...], said: str
) -> None:
    path = tmp_path / "game.jsonl"
    done = run_cli("play", *args, "--record", str(path), "-q")
    assert done.returncode == 2
    assert error_line(done) == said
    assert not path.exists()


BAD_PLANS = [  # a change to gun_line's plans, and the one line that names the field at fault
    (lambda d: d["plans"][0]["groups"][0].update(units=["Z"]), "plans[0].groups[0].units: 'Z': no unit has this id"),
    (
        lambda d: d["plans"][0]["groups"][0].update(units=["G"]),
        "plans[0].groups[0].units: 'G': a unit of the axis side, not the plan's (allies)",
    ),
    (lambda d: d["plans"][1].update(name="both-squads-in"), "plans[1].name: 'both-squads-in': two plans of"),
    (lambda d: d["plans"][3].update(groups=[]), "plans[3].groups: []: List should have at least 1 item"),
    (lambda d: d["plans"][0]["groups"][0].update(task="charge"), "plans[0].groups[0].task:"),
    (lambda d: d["plans"][0].update(side="neutral"), "plans[0].side: 'neutral': not a side of this scenario"),
    (lambda d: d.update(plans=d["plans"][:3]), "plans: the axis side has one plan; a side has none or at least two"),
]


@pytest.mark.parametrize(("change", "said"), BAD_PLANS)
def test_a_scenario_s_plans_are_checked_each_problem_in_one_line_naming_its_field(change: Any, said: str) -> None:
    import tomllib

    from grognard.rulesets.skirmish.scenario import SCENARIOS_DIR, check_scenario

    data = tomllib.loads((SCENARIOS_DIR / "gun_line.toml").read_text(encoding="utf-8"))
    assert check_scenario(data) == []
    change(data)
    problems = check_scenario(data)
    assert problems[0].startswith(said), problems
    assert all("\n" not in problem for problem in problems)


def test_every_shipped_scenario_gives_each_side_at_least_two_plans_and_its_state_digest_leaves_them_out() -> None:
    from grognard.rulesets.skirmish.scenario import load_scenario, shipped

    for name, _ in shipped():
        scenario = load_scenario(name)
        by_side = {side: [p for p in scenario.spec.plans if p.side == side] for side in ("allies", "axis")}
        assert all(len(side_plans) >= 2 for side_plans in by_side.values()), name
        bare = {key: value for key, value in scenario.data.items() if key != "plans"}
        assert scenario.digest == type(scenario)(scenario.spec, scenario.tables, scenario.source, bare).digest


def test_the_replay_viewer_shows_the_plan_lines_as_steps_of_their_own(played: dict[str, Path]) -> None:
    """The web's replay viewer (``web.replays``): a step a line, the plan's commitment and its reveal among them
    with the view of the line before (they change nothing in the game), each said in words."""
    from grognard.web.replays import read, step

    lines = records(played["skirmish"])
    book = read(lines, "plans")
    assert book.steps == len(lines) - 1
    shown = [step(book, n) for n in range(book.steps)]
    assert shown[1]["order"] == {"seat": "the allies bots", "text": "commit to a plan, sealed until the game's end"}
    assert shown[1]["turn"] == shown[0]["turn"]
    assert shown[-1]["order"] == {"seat": "the axis bots", "text": f"followed the plan {lines[-1]['plan']}"}
    assert [s["line"] for s in shown] == list(range(2, len(lines) + 1))


def test_the_omaha_plans_put_the_german_fire_on_other_squads() -> None:
    """A scripted beach (as tests/test_omaha_levels.py sets one): A1 past the sea wall with 3 men, A2 at it with
    10, A3 just landed. ``concentrate`` (the book, the seed's advice) puts the bunkers on the squad furthest up
    and the strike on the furthest up it may reach (not past the wall); ``wall-and-landings`` the bunkers on the
    biggest squad at the wall and the strike on the landing. ``hard`` fires as the book under either plan."""
    import numpy as np

    from grognard.rulesets.omaha.actions import Artillery, BunkerFire
    from grognard.rulesets.omaha.bots import DoctrineBot
    from grognard.rulesets.omaha.hard import HardBot
    from test_omaha_rules import hold_rest, new_game, put

    game = new_game(obstacles=(1, 1, 1, 1), place=(1, 3))
    put(game, "A1", 4, 26, figures=3)
    put(game, "A2", 12, 24, figures=10)
    put(game, "A3", 20, 2)
    hold_rest(game)
    chosen: dict[str, dict[str, Any]] = {}
    for plan in plans.offered(rulesets.get("omaha"), game)["german"]:
        for bot in (DoctrineBot(np.random.default_rng(0)), HardBot(np.random.default_rng(0))):
            bot.follow(plan)
            picks = {d.id: bot.choose(game, d) for d in game.pending()}
            assert chosen.setdefault(plan.name, picks) == picks
    book = DoctrineBot(np.random.default_rng(0))
    assert chosen["concentrate"] == {d.id: book.choose(game, d) for d in game.pending()}
    assert chosen["concentrate"] == {
        "fire B1": BunkerFire("B1", "A1"),
        "fire B3": BunkerFire("B3", "A1"),
        "artillery G1": Artillery("G1", "A2"),
    }
    assert chosen["wall-and-landings"] == {
        "fire B1": BunkerFire("B1", "A2"),
        "fire B3": BunkerFire("B3", "A2"),
        "artillery G1": Artillery("G1", "A3"),
    }


def test_a_skirmish_plan_s_flank_swings_a_quarter_table_aside_then_turns_on_the_aim() -> None:
    """plans.py: the task a plan gives a unit, and the flank point a unit makes for until it is no farther from
    the aim than that point (village_street, 48" wide: 12" to a side)."""
    import grognard.rulesets.skirmish.plans as PL
    from grognard.rulesets.skirmish.scenario import load_scenario

    spec = load_scenario("village_street").spec
    refuse = next(p for p in PL.side_plans(spec)["allies"] if p.name == "refuse-the-left")
    held, swung = PL.task_of(refuse, "A"), PL.task_of(refuse, "C")
    assert held is not None and held.task == "hold" and held.flank is None
    assert swung is not None and swung.task == "objective" and swung.flank == "east"
    assert PL.task_of(refuse, "G") is None and PL.task_of(None, "A") is None  # not named: the book's
    aim = (20.0, 28.0)
    assert PL.flank_aim(spec, (24.0, 9.0), aim, "east") == (32.0, 28.0)  # far off: by the east flank
    assert PL.flank_aim(spec, (31.0, 27.0), aim, "east") == aim  # at the flank point: on the aim
    assert PL.flank_aim(spec, (24.0, 9.0), aim, "west") == (8.0, 28.0)
    assert PL.flank_aim(spec, (24.0, 9.0), aim, None) == aim


def test_a_finished_game_whose_reveal_was_cut_out_is_refused_by_line(played: dict[str, Path], tmp_path: Path) -> None:
    """A record of a finished game with its reveal lines taken away (the bots never proving their plan) was
    replayed as good, saying the plan 'sealed until the game's end' after the end; now replay names it."""
    lines = [line for line in records(played["omaha"]) if line["type"] != "reveal"]
    committed = next(n for n, line in enumerate(lines, 1) if line["type"] == "plan")
    assert replay(lines, rulesets.get).game.is_over
    path = tmp_path / "unrevealed.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    done = run_cli("replay", str(path))
    assert done.returncode == 2
    assert error_line(done) == (
        f"error: {path}: line {len(lines)}: the game is over but the german plan committed at line "
        f"{committed} is never revealed"
    )
    cut = run_cli("replay", str(path), "--to", "1")  # stopped before the end as asked: nothing owed yet
    assert cut.returncode == 0, cut.stderr
