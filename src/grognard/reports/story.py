"""What a player did in a finished game, read from its record: the facts an after-action report tells.

A player's units are those his orders named (the word after an order's verb: ``move A3 ...`` -> ``A3``,
``fire B1 A1`` -> ``B1``, ``fly F2 ...`` -> ``F2``); an event is about him when one of its fields names one
of them (a man ``A.3`` belongs to unit ``A``). His losses inflicted are the losses (each rule set's
``LOSSES``: the events that cost a side men, aircraft or engines) his own orders caused to units not his;
a player who plays his whole side (a solo game, a skirmish's side) inflicted every loss not his. His
losses taken are those of his units, whoever caused them. The odds of each of his orders that rolled dice
are the rule set's adviser's, at the position before it (what the page showed him before he committed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from grognard import rulesets
from grognard.core.engine import Event, Game
from grognard.core.record import replay

__all__ = ["LOSSES", "Facts", "Order", "facts_of", "playtest_line"]

# per rule set, the events that are losses: kind -> (the field naming who lost, the field counting it or None: 1)
LOSSES: dict[str, dict[str, tuple[str, str | None]]] = {
    "omaha": {
        "bunker_fire": ("target", "killed"),
        "artillery": ("target", "killed"),
        "drowned": ("squad", "figures"),
        "shot": ("bunker", "killed"),
        "assault": ("bunker", "killed"),
    },
    "b17": {"engine_damaged": ("aircraft", None), "destroyed": ("aircraft", None)},
    "skirmish": {"killed": ("figure", None), "wounded": ("figure", None)},
}
# the events of a quiet turn: moving or holding (Omaha, the skirmish; the B-17's flights below)
QUIET = {"moved", "holds", "holds_fire", "no_artillery", "waits", "drove", "parks", "entered", "stops"}
STORY_TURNS = 12  # turns told one by one on a page; the rest are counted
EVENTS_A_TURN = 4  # events told in a turn's line


@dataclass
class Order:
    """One of the player's orders: its record line, turn, seat, text, and, when it rolled dice, the odds
    shown before it, the dice (each roll's values) and what followed in words."""

    line: int
    turn: int
    seat: str
    text: str
    odds: str | None = None
    dice: list[list[int]] = field(default_factory=list)
    happened: list[str] = field(default_factory=list)


@dataclass
class Facts:
    """A player's game: his seats, units, orders, the turns' words about him, his losses, the end."""

    seats: list[str]
    side: str
    units: set[str] = field(default_factory=set)
    orders: list[Order] = field(default_factory=list)
    turns: dict[int, list[str]] = field(default_factory=dict)
    quiet: set[int] = field(default_factory=set)  # turns in which his units only moved or held
    kinds: Counter[str] = field(default_factory=Counter)
    inflicted: int = 0
    taken: int = 0
    ended: str = ""

    def verbs(self) -> Counter[str]:
        return Counter(order.text.split()[0] for order in self.orders)


def _unit(text: str) -> str | None:
    """The unit an order names (its second word), if it names one (``place 1 ...`` names a box, no unit)."""
    words = text.split()
    return words[1] if len(words) > 1 and any(c.isalpha() for c in words[1]) else None


def _names(value: Any, units: set[str]) -> bool:
    if isinstance(value, str):
        return value in units or value.split(".")[0] in units
    if isinstance(value, list):
        return any(_names(v, units) for v in value)
    return False


def _about(event: dict[str, Any], units: set[str]) -> bool:
    return any(_names(value, units) for key, value in event.items() if key not in ("kind", "to", "purpose"))


def facts_of(
    lines: Sequence[dict[str, Any]], owners: Mapping[int, str], seats: Mapping[str, list[str]]
) -> dict[str, Facts]:
    """Each player's facts, in one replay: ``owners`` maps the record line of each order to its player,
    ``seats`` each player to his seats (a player with no order has no units, and his facts say so)."""
    ruleset = rulesets.get(str(lines[0]["ruleset"]))
    adviser = ruleset.adviser
    out = {who: Facts(list(seats.get(who, [])), "") for who in seats}
    for number, who in owners.items():
        out.setdefault(who, Facts([], ""))
        if (unit := _unit(str(lines[number - 1].get("action", "")))) is not None:
            out[who].units.add(unit)
    at = [n for n, line in enumerate(lines, 1) if line.get("type") in ("action", "resign", "end")]
    count = [0]

    def before(game: Game) -> bool:
        number = at[count[0]]
        count[0] += 1
        who = owners.get(number)
        line = lines[number - 1]
        if who is not None and line.get("type") == "action":
            order = Order(number, game.turn, str(line["seat"]), str(line["action"]))
            if adviser is not None and any(e.get("kind") == "dice" for e in line.get("events", [])):
                order.odds = adviser.odds(game, ruleset.parse_action(order.text))
            out[who].orders.append(order)
        return False

    game = replay(lines, rulesets.get, until=before).game
    result = game.result
    ended = result.reason if result is not None else ""
    if result is not None and result.winner is not None:
        ended = f"the {result.winner} side won on turn {result.turn}: {result.reason}"
    for who, facts in out.items():
        facts.side = game.side_of(facts.seats[0]) if facts.seats else ""
        facts.ended = ended
        alone = bool(facts.seats) and {s for s in game.seats() if game.side_of(s) == facts.side} <= set(facts.seats)
        _read_events(lines, ruleset.name, facts, {n for n, w in owners.items() if w == who}, alone)
    return out


def _read_events(lines: Sequence[dict[str, Any]], name: str, facts: Facts, own: set[int], alone: bool) -> None:
    """The turns' words about the player, his losses, and each of his orders' dice and outcome. ``alone``:
    he plays his whole side, so every loss not his is one he inflicted (a fire answered in the other side's
    line, a melee's round, included)."""
    ruleset = rulesets.get(name)
    losses = LOSSES.get(name, {})
    orders = {order.line: order for order in facts.orders}
    turn = 0
    for number, line in enumerate(lines, 1):
        for data in line.get("events", []):
            kind = str(data.get("kind"))
            if kind == "turn":
                turn = int(data.get("turn", turn))
                continue
            order = orders.get(number)
            if kind == "dice":
                if order is not None:
                    order.dice.append([int(v) for v in data.get("values", [])])
                continue
            if kind in losses:
                who, how_many = losses[kind]
                lost = int(data.get(how_many, 0)) if how_many is not None else 1
                if _names(data.get(who), facts.units):
                    facts.taken += lost
                elif alone or number in own:
                    facts.inflicted += lost
            if not (_about(data, facts.units) or number in own):
                continue
            text = ruleset.describe(Event.from_json(data))
            if not text:
                continue
            facts.kinds[kind] += 1
            if turn not in facts.turns:
                facts.quiet.add(turn)
            if kind not in QUIET:
                facts.quiet.discard(turn)
            facts.turns.setdefault(turn, []).append(text.strip())
            if order is not None:
                order.happened.append(text.strip())


def playtest_line(lines: Sequence[dict[str, Any]], minutes: float | None) -> str:
    """The game beside what the rules' own text says of a game's length or result (the seed's playtest)."""
    name = str(lines[0]["ruleset"])
    events = [e for line in lines for e in line.get("events", [])]
    over = next((e for e in events if e.get("kind") == "game_over"), None)
    took = f", {minutes:.0f} minutes of play in all" if minutes is not None else ""
    if name == "omaha":
        first = next((e for e in events if e.get("kind") == "exit_opened"), None)
        said = (
            "The rules' playtest: the Americans broke through after about 45 minutes "
            "and won decisively in about an hour."
        )
        if first is None:
            return f"{said} This game: no exit was opened{took}."
        end = f", and the game ended on turn {over['turn']}" if over is not None else ""
        return f"{said} This game: the Americans broke through on turn {first['turn']}{end}{took}."
    if name == "b17":
        hits = sum(int(e.get("hits", 0)) for e in events if e.get("kind") == "bombs")
        said = "The rules: three bomb hits win the raid for the Americans (four: moderate damage, five or more: major)."
        return f"{said} This raid: {hits} bomb {'hit' if hits == 1 else 'hits'}{took}."
    return f"The skirmish rules give no playtest length or result to set this game beside{took or ''}."
