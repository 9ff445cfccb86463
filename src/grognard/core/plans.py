"""A bot's plan: named doctrine priorities as data, kept secret during the game and proved after it.

A :class:`Plan` is one way a side's bot plays a whole game: a name, a one-line description, the doctrine
clauses it sets (``docs/rules/<rule set>.md``'s doctrine section) and its ``priorities``, the rule set's own data
(the Omaha Germans' targets, the B-17 fighters' attacks, a skirmish side's groups of units and their tasks).
A rule set lists the plans of each side (``Ruleset.plans``: Omaha's and the B-17's data, a skirmish scenario's
``[[plans]]``); a bot that can follow one has ``follow(plan)``.

Which plan: ``-o plan=random`` (the host's *plan* choice) has each bot side with plans draw one, and
``-o plan=NAME`` fixes that plan for its side (several, comma-separated, for several sides); without it no
plan is drawn and the bots play as they always did (the book). The draw and the salt come from the game's own
stream of plans, ``stream(bot_seed, PLANS, side)``, never from its dice: the dice fall as without a plan.

The record proves it: after the start line, one ``plan`` line a side, ``{"type": "plan", "side", "commitment"}``
where the commitment is ``sha256(canonical_json([name, salt]))`` (hex; the salt 32 hex digits), read by all,
telling nothing of the plan; when the game is over (its rules' end, a resignation, the host's end line) one
``reveal`` line a side, ``{"type": "reveal", "side", "plan", "salt"}``. Both are chained into the record's
digests like every line; they change nothing in the game, so its state's digests are as without a plan.
:func:`grognard.core.record.replay` checks each reveal against its commitment and names the line that does not
match. Before the reveal no line, view or event says the plan: the bots' priorities show only in their moves.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from grognard.core.dice import stream
from grognard.core.engine import canonical_json
from grognard.core.errors import OptionError, RecordError
from grognard.core.reasons import Reason

if TYPE_CHECKING:
    from grognard.core.engine import Game
    from grognard.core.record import RecordWriter, StepCounter
    from grognard.core.ruleset import Ruleset

PLANS = 2  # the stream of a seeded game's plans, beside its dice (0) and its bots' choices (1)
RANDOM = "random"


@dataclass(frozen=True)
class Plan:
    """One way a side's bot plays a game: ``name`` (a slug), ``description`` (one line), the doctrine
    ``clauses`` it sets, and ``priorities`` (the rule set's data the bot reads)."""

    name: str
    side: str
    description: str
    clauses: tuple[str, ...] = ()
    priorities: Mapping[str, Any] = field(default_factory=dict)


def commitment(name: str, salt: str) -> str:
    """The digest a ``plan`` line carries: sha256 of the plan's name and the salt.

    >>> commitment("concentrate", "00" * 16)[:12]
    '2c45cf2fd581'
    """
    return hashlib.sha256(canonical_json([name, salt]).encode()).hexdigest()


def _stream(bot_seed: int, index: int) -> np.random.Generator:
    return np.random.default_rng(stream(bot_seed, PLANS, index))


def draw(bot_seed: int, index: int, plans: Sequence[Plan], fixed: str) -> tuple[Plan, str]:
    """The plan of side number ``index`` (its place in the rule set's sides) and its salt, from the game's
    stream of plans: ``fixed`` names the plan, or is ``random`` (drawn, each alike)."""
    rng = _stream(bot_seed, index)
    salt = rng.bytes(16).hex()
    if fixed == RANDOM:
        return plans[int(rng.integers(len(plans)))], salt
    return next(p for p in plans if p.name == fixed), salt


def recover(bot_seed: int, index: int, plans: Sequence[Plan], committed: str) -> tuple[Plan, str] | None:
    """The plan a resumed game's side committed to (the salt drawn again from the stream of plans; the plan
    the one whose digest is the commitment), or None when none is (another seed's record)."""
    salt = _stream(bot_seed, index).bytes(16).hex()
    return next(((p, salt) for p in plans if commitment(p.name, salt) == committed), None)


def listed(plans: Mapping[str, Sequence[Plan]]) -> str:
    """The plans as a line lists them: ``german: concentrate, wall-and-landings``."""
    return "; ".join(f"{side}: {', '.join(p.name for p in side_plans)}" for side, side_plans in plans.items())


def choose(
    given: str | None, plans: Mapping[str, Sequence[Plan]], bot_sides: Iterable[str], flag: str = "-o plan"
) -> dict[str, str]:
    """The plan option (``random``, or plan names, comma-separated) read against the plans of each side:
    ``{side: "random" | name}`` for the sides bots play. Raises :class:`OptionError` in one line naming
    the plan at fault (as ``flag`` names the option) and listing the plans."""
    if given is None:
        return {}
    bots = [side for side in bot_sides if plans.get(side)]
    offered = {side: side_plans for side, side_plans in plans.items() if side_plans}
    if not offered:
        raise OptionError(f"{flag}={given}: no side of this game has plans to follow")
    names = [name.strip() for name in str(given).split(",")]
    out: dict[str, str] = {}
    for name in names:
        if name == RANDOM:
            out.update({side: RANDOM for side in bots if side not in out})
            continue
        side = next((s for s, side_plans in offered.items() if any(p.name == name for p in side_plans)), None)
        if side is None:
            raise OptionError(f"{flag}={given}: no plan {name!r}; the plans: {listed(offered)} (or random)")
        if side not in bots:
            raise OptionError(f"{flag}={given}: {name} is a plan of the {side} side, which no bot plays")
        out[side] = name
    if not out:
        raise OptionError(f"{flag}={given}: no bot plays a side with plans ({listed(offered)})")
    return out


def following(ruleset: Ruleset) -> list[str]:
    """The rule set's bots (by name, its ladder first) that follow a plan (they have ``follow``)."""
    seed = np.random.default_rng(0)
    return [name for name, make in ruleset.bots.items() if callable(getattr(make(seed), "follow", None))]


def check_followed(ruleset: Ruleset, side: str, level: str) -> None:
    """Refuses, in one line, a plan for a side whose bot level follows none."""
    able = following(ruleset)
    if level not in able:
        raise OptionError(f"-o plan: the {side} bot ({level}) follows no plan; these do: {', '.join(able)}")


def check_line(line: Mapping[str, Any], number: int, committed: dict[str, dict[str, Any]], over: bool) -> None:
    """A ``plan`` or ``reveal`` line (number ``number``) checked as replay reads it; ``committed`` (side ->
    ``{"line", "commitment", "revealed", "plan"}``) is filled in as the lines come; ``over``: the game is over
    (its rules' end, a resignation, the host's end line). Raises :class:`RecordError` naming what is wrong."""
    side = str(line.get("side"))
    if line.get("type") == "plan":
        digest = line.get("commitment")
        if not isinstance(digest, str) or len(digest) != 64:
            raise RecordError(f"the {side} plan's commitment is not a sha256 digest", number)
        if side in committed:
            raise RecordError(f"the {side} plan is committed twice (line {committed[side]['line']} and this)", number)
        committed[side] = {"line": number, "commitment": digest, "revealed": None, "plan": None}
        return
    kept = committed.get(side)
    if kept is None:
        raise RecordError(f"a reveal of the {side} plan, which no line committed", number)
    if kept["revealed"] is not None:
        raise RecordError(f"the {side} plan is revealed twice (line {kept['revealed']} and this)", number)
    if not over:
        raise RecordError(f"the {side} plan is revealed before the game's end", number)
    name, salt = line.get("plan"), line.get("salt")
    if not isinstance(name, str) or not isinstance(salt, str) or commitment(name, salt) != kept["commitment"]:
        raise RecordError(f"the revealed plan does not match the commitment of line {kept['line']}", number)
    kept["revealed"], kept["plan"] = number, name


SEALED_CLAUSE = "plan.sealed"


def sealed_reason(action: Any) -> Reason:
    """The reason of a decision a plan made, as it is kept and shown before the reveal: that the side's plan
    chose it, and nothing of which plan (no clause of it, no candidates: their ranking would tell it). A bot
    following a plan gives it for every decision of the kinds a plan of its side may change, whichever plan,
    so that which decisions say it tells nothing either."""
    return Reason(SEALED_CLAUSE, f"{action}: by the side's plan, sealed until the game's end")


def offered(ruleset: Ruleset, game: Game) -> dict[str, tuple[Plan, ...]]:
    """The plans of each side of ``game`` (none where the rule set has none)."""
    if ruleset.plans is None:
        return {}
    return {side: tuple(side_plans) for side, side_plans in ruleset.plans.of(game).items() if side_plans}


def arm(
    ruleset: Ruleset, game: Game, writer: RecordWriter | StepCounter, chosen: Mapping[str, str], bot_seed: int
) -> dict[str, Plan]:
    """Each side of ``chosen`` (side -> ``random`` or a plan's name, :func:`choose`) draws its plan, which the
    record commits to (a ``plan`` line a side, after the start line): side -> the plan its bots follow."""
    plans = offered(ruleset, game)
    out: dict[str, Plan] = {}
    for side, fixed in sorted(chosen.items()):
        plan, salt = draw(bot_seed, ruleset.sides.index(side), plans[side], fixed)
        writer.commit(game, side, plan.name, salt)
        out[side] = plan
    return out


def rearm(
    ruleset: Ruleset, game: Game, writer: RecordWriter, committed: Mapping[str, Mapping[str, Any]], bot_seed: int
) -> dict[str, Plan]:
    """A resumed record's plans not yet revealed, found again from the stream of plans and kept by ``writer``
    for the reveal: side -> the plan. Raises :class:`OptionError` when a commitment matches no plan."""
    plans = offered(ruleset, game)
    out: dict[str, Plan] = {}
    for side, kept in committed.items():
        if kept.get("revealed") is not None:
            continue
        found = recover(bot_seed, ruleset.sides.index(side), plans.get(side, ()), str(kept["commitment"]))
        if found is None:
            raise OptionError(f"the {side} plan of line {kept['line']} is none of this game's plans for its seed")
        plan, salt = found
        writer.plans[side] = (plan.name, salt)
        out[side] = plan
    return out


def load(path: Any) -> dict[str, tuple[Plan, ...]]:
    """A rule set's plans file (``rulesets/<rs>/plans.toml``: ``[[plans]]`` each with ``name``, ``side``,
    ``description``, ``clauses`` and the rule set's priorities): side -> its plans, in the file's order."""
    import tomllib
    from pathlib import Path

    with Path(path).open("rb") as handle:
        data = tomllib.load(handle)
    out: dict[str, list[Plan]] = {}
    for entry in data.get("plans", []):
        body = dict(entry)
        plan = Plan(
            name=str(body.pop("name")),
            side=str(body.pop("side")),
            description=str(body.pop("description")),
            clauses=tuple(body.pop("clauses", ())),
            priorities=body,
        )
        out.setdefault(plan.side, []).append(plan)
    return {side: tuple(side_plans) for side, side_plans in out.items()}
