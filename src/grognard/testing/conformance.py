"""The conformance suite every rule set runs (DESIGN "Core contracts", STYLE habit 11).

Each check takes a :class:`~grognard.core.ruleset.Ruleset`, options and seeds,
plays random legal games through the protocol alone and raises
``AssertionError`` with a precise message when the rule set breaks a contract:

- :func:`check_playouts`: random legal playouts (decisions answered in random
  order) reach a result; every sampled action is in its space and its text
  form parses back; every view is JSON-safe;
- :func:`check_replay`: the record of a playout replays to the same digest,
  and a changed die is caught at its line;
- :func:`check_fast_path`: the unchecked path gives the same events and state;
- :func:`check_illegal_unchanged`: illegal actions (another seat's, a stale
  one, the rule set's own probes) raise ``IllegalAction`` and leave the full
  state digest as it was, on the checked path and on the bots' fast path;
- :func:`check_unobserved`: a game that builds no events (Monte Carlo's) plays
  the same game as one recorded, action for action, to the same state;
- :func:`check_views_hide`: a committed secret choice changes nothing another
  seat can see (its view and its events) until the reveal.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from grognard.core.dice import BOTS, DICE, SeededDice, stream
from grognard.core.engine import Decision, Event, Game
from grognard.core.errors import GrognardError, IllegalAction, RecordError
from grognard.core.record import RecordWriter, make_header, replay
from grognard.core.ruleset import Ruleset

Probe = Callable[[Game, Decision], Iterable[Any]]


@dataclass
class Playout:
    """A finished random playout: the game, its record, and what was applied."""

    game: Game
    writer: RecordWriter
    steps: list[tuple[Decision, Any]] = field(default_factory=list)
    secret_commits: int = 0


def _visible(events: Iterable[Event], seat: str | None) -> list[dict[str, Any]]:
    return [e.to_json() for e in events if e.visible_to(seat)]


def random_playout(
    ruleset: Ruleset,
    options: Mapping[str, Any],
    seed: int,
    *,
    max_steps: int = 200_000,
    before: Callable[[Game, Decision, Any], None] | None = None,
) -> Playout:
    """Play one game with random legal actions, decisions taken in random order.

    ``before(game, decision, action)`` is called before each action is applied.
    """
    dice = SeededDice(seed)
    rng = np.random.default_rng([seed, 1])
    game = ruleset.create(options, dice)
    writer = RecordWriter(make_header(ruleset.name, ruleset.recorded(ruleset.resolve(options)), "seeded", seed))
    writer.start(game, game.take_events())
    playout = Playout(game, writer)
    for _ in range(max_steps):
        if game.is_over:
            assert game.pending() == (), f"{ruleset.name}: a finished game still owes decisions"
            return playout
        pending = game.pending()
        assert pending, f"{ruleset.name} seed {seed}: no decision owed but the game is not over"
        decision = pending[int(rng.integers(len(pending)))]
        action = decision.space.sample(rng)
        assert decision.space.contains(action), f"{ruleset.name}: sampled {action} is not in its own space"
        text = str(action)
        assert ruleset.parse_action(text) == action, f"{ruleset.name}: {text!r} does not parse back to {action!r}"
        data = json.loads(json.dumps(action.to_json()))
        assert ruleset.rules.action_from_json(data) == action, f"{ruleset.name}: {data} does not rebuild {action!r}"
        for candidate in decision.space.candidates(8):
            assert decision.space.contains(candidate), f"{ruleset.name}: candidate {candidate} is not legal"
        if before is not None:
            before(game, decision, action)
        if decision.secret_group is not None:
            playout.secret_commits += 1
        events = game.apply(decision.seat, action)
        writer.action(game, decision.seat, action, events)
        playout.steps.append((decision, action))
    raise AssertionError(f"{ruleset.name} seed {seed}: not over after {max_steps} steps")


def check_playouts(ruleset: Ruleset, options: Mapping[str, Any], seeds: Iterable[int]) -> list[Playout]:
    """Random legal playouts reach a result; views are JSON-safe for every seat."""
    out = []
    for seed in seeds:
        playout = random_playout(ruleset, options, seed)
        game = playout.game
        assert game.result is not None
        assert game.result.outcome in ("win", "draw", "unfinished", "scored")
        for seat in (None, *game.seats()):
            json.dumps(game.view(seat), allow_nan=False)
        json.dumps(game.state_json(), allow_nan=False)
        out.append(playout)
    return out


def check_replay(ruleset: Ruleset, options: Mapping[str, Any], seed: int) -> None:
    """The record replays to the same state; a changed die is named at its line."""
    playout = random_playout(ruleset, options, seed)
    lines = playout.writer.lines
    rebuilt = replay(lines, lambda name: ruleset)
    assert rebuilt.game.digest() == playout.game.digest(), "replay ends in another state"
    assert rebuilt.actions == len(playout.steps)
    for number, line in enumerate(lines, 1):
        dice = [e for e in line.get("events", []) if e["kind"] == "dice" and e["values"]]
        if number > 2 and dice:
            tampered = copy.deepcopy(lines)
            event = next(e for e in tampered[number - 1]["events"] if e["kind"] == "dice" and e["values"])
            event["values"][0] = event["values"][0] % event["sides"] + 1
            try:
                replay(tampered, lambda name: ruleset)
            except RecordError as exc:
                assert exc.line == number, f"a die changed on line {number} was reported on line {exc.line}"
            else:
                raise AssertionError(f"a die changed on line {number} went unnoticed")
            break


def check_fast_path(ruleset: Ruleset, options: Mapping[str, Any], seed: int) -> None:
    """Applying the same actions unchecked gives the same events and the same state."""
    playout = random_playout(ruleset, options, seed)
    game = ruleset.create(options, SeededDice(seed))
    game.take_events()
    for number, (decision, action) in enumerate(playout.steps):
        owed = next((d for d in game.pending() if d.id == decision.id), None)
        assert owed is not None, f"step {number}: {decision.id} not owed on the fast path"
        events = game.apply(decision.seat, action, checked=False, decision=owed)
        expected = playout.writer.lines[number + 2]["events"]
        assert json.loads(json.dumps([e.to_json() for e in events])) == expected, f"step {number}: events differ"
    assert game.digest() == playout.game.digest()


def check_unobserved(ruleset: Ruleset, options: Mapping[str, Any], seed: int, bot: str = "doctrine") -> int:
    """A game that builds no events (``Game.unobserved``, as Monte Carlo, playouts and rollouts play) plays, on
    the same dice and bots' seeds, the game a recorded one plays: the same actions, the same final state
    (digest), the same result; it builds no event at all, and the record replays. Returns the steps played."""
    games: list[Game] = []
    played: list[list[tuple[str, str]]] = []  # (seat, action) of each step
    writer = RecordWriter(make_header(ruleset.name, ruleset.recorded(ruleset.resolve(options)), "seeded", seed))
    for observed in (True, False):
        game = ruleset.create(options, SeededDice(stream(seed, 0, DICE)))
        rng = np.random.default_rng(stream(seed, 0, BOTS))
        bots = {side: ruleset.bots[bot](rng) for side in ruleset.sides}
        steps: list[tuple[str, str]] = []
        if observed:
            writer.start(game, game.take_events())
        else:
            game.unobserved()
        while game.result is None:
            decision = game.pending()[0]
            action = bots[game.side_of(decision.seat)].choose(game, decision)
            events = game.apply(decision.seat, action, checked=False, decision=decision)
            if observed:
                writer.action(game, decision.seat, action, events)
            else:
                assert events == [], f"{ruleset.name} seed {seed}: an unobserved game built {events[0].kind!r}"
            steps.append((decision.seat, str(action)))
        if not observed:
            assert game.take_events() == [], f"{ruleset.name} seed {seed}: an unobserved game kept events"
        games.append(game)
        played.append(steps)
    for number, (seen, unseen) in enumerate(zip(*played, strict=False)):
        assert seen == unseen, f"{ruleset.name} seed {seed}: step {number} differs unobserved: {seen} / {unseen}"
    assert len(played[0]) == len(played[1]), f"{ruleset.name} seed {seed}: the games' lengths differ"
    assert games[0].result == games[1].result
    assert games[0].digest() == games[1].digest(), f"{ruleset.name} seed {seed}: the final states differ"
    rebuilt = replay(writer.lines, lambda name: ruleset)
    assert rebuilt.game.digest() == games[1].digest(), f"{ruleset.name} seed {seed}: the record replays elsewhere"
    return len(played[0])


def check_illegal_unchanged(
    ruleset: Ruleset, options: Mapping[str, Any], seed: int, *, probes: Probe | None = None, every: int = 3
) -> int:
    """Illegal actions raise ``IllegalAction`` and change nothing; returns how many were tried."""
    tried = 0
    stale: list[Any] = []
    counter = 0

    def before(game: Game, decision: Decision, action: Any) -> None:
        nonlocal tried, counter
        counter += 1
        if counter % every:
            stale.append(action)
            return
        digest = game.digest()
        owed = [d.id for d in game.pending()]
        attempts: list[tuple[str, Any]] = []
        others = [s for s in game.seats() if s != decision.seat]
        if others:
            attempts.append((others[counter % len(others)], action))  # the right action from the wrong seat
        for other in game.pending():
            if other.seat != decision.seat:
                attempts.append((decision.seat, other.space.sample(np.random.default_rng(counter))))
                break
        attempts += [(decision.seat, old) for old in stale[-3:] if not decision.space.contains(old)]
        if probes is not None:
            attempts += [(decision.seat, bad) for bad in probes(game, decision)]
        for seat, bad in attempts:
            if any(d.seat == seat and d.space.contains(bad) for d in game.pending()):
                continue  # happens to be legal for that seat after all
            # checked (a person's), then the fast path answering the decision owed (a bot's, as Monte Carlo plays)
            for path, fast in (("checked", None), ("fast path", decision)):
                try:
                    if fast is None:
                        game.apply(seat, bad)
                    else:
                        game.apply(seat, bad, checked=False, decision=fast)
                except IllegalAction:
                    pass
                except GrognardError as exc:
                    raise AssertionError(f"{bad} by {seat} ({path}): raised {type(exc).__name__}") from exc
                else:
                    raise AssertionError(f"{bad} by {seat} was accepted though illegal ({path})")
                tried += 1
                assert game.digest() == digest, f"illegal {bad} by {seat} changed the state ({path})"
                assert [d.id for d in game.pending()] == owed, f"illegal {bad} by {seat} changed what is owed ({path})"
        stale.append(action)

    random_playout(ruleset, options, seed, before=before)
    return tried


def check_views_hide(ruleset: Ruleset, options: Mapping[str, Any], seed: int) -> int:
    """A secret commit that is not the last of its group leaves other seats' views and events unchanged.

    Returns how many commits were checked.
    """
    checked = 0

    def before(game: Game, decision: Decision, action: Any) -> None:
        nonlocal checked
        group = decision.secret_group
        if group is None:
            return
        if sum(1 for d in game.pending() if d.secret_group == group) < 2:
            return  # the last choice reveals all: nothing left to hide
        alternatives = [a for a in decision.space.candidates(16) if a != action]
        if not alternatives:
            return
        shadow, twin = game.clone(), game.clone()
        ours = shadow.apply(decision.seat, action)
        theirs = twin.apply(decision.seat, alternatives[0])
        for seat in (None, *game.seats()):
            if seat is not None and seat in game.shares_secrets_with(decision.seat):
                continue  # the chooser, and the seats of his side that share what it knows
            assert shadow.view(seat) == twin.view(seat), f"{seat}'s view shows {decision.seat}'s secret choice"
            assert _visible(ours, seat) == _visible(theirs, seat), f"{seat}'s events show the secret choice"
        checked += 1

    random_playout(ruleset, options, seed, before=before)
    return checked


def check_all(
    ruleset: Ruleset, options: Mapping[str, Any], seeds: Iterable[int] = (1, 2), *, probes: Probe | None = None
) -> dict[str, int]:
    """Every check on every seed; returns counts (games, illegal actions tried, secret commits checked)."""
    seeds = list(seeds)
    playouts = check_playouts(ruleset, options, seeds)
    illegal = hidden = 0
    for seed in seeds:
        check_replay(ruleset, options, seed)
        check_fast_path(ruleset, options, seed)
        illegal += check_illegal_unchanged(ruleset, options, seed, probes=probes)
        hidden += check_views_hide(ruleset, options, seed)
    return {
        "games": len(playouts),
        "steps": sum(len(p.steps) for p in playouts),
        "illegal_tried": illegal,
        "secrets_checked": hidden,
        "secret_commits": sum(p.secret_commits for p in playouts),
    }
