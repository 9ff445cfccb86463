"""Several commanders per side (option ``commanders``): which seat commands which unit, and who owes what.

With ``commanders = 1`` (the default) a side is one seat, ``Allies`` or ``Axis``, as it always was. With
``commanders = N`` each side has N seats, ``Allies 1`` .. ``Allies N`` and ``Axis 1`` .. ``Axis N``, and the
side's units are dealt to them round robin in the scenario's order (the side's first unit to commander 1,
its second to 2, ..., its N+1th to 1 again), or to the commander a unit names in the scenario file
(``[[units]] commander = 2``; the units naming none are dealt round robin among themselves). A seat decides
only for what it commands:

- a unit's move and fire orders: the unit's commander;
- a vehicle's drive: the commander of the man driving it (the first living man aboard); a vehicle with
  nobody aboard, the commander of its starting crew's unit (the side's first commander if it started empty);
- a burst: a piece's crew's commander, a mortar or bazooka man's unit's commander, a tank gun's vehicle's;
- a melee group's secret stay-or-retreat: the commander with the most men in the group (a tie: the
  lower-numbered of them).

Nothing else is a decision (initiative is dice). What a side knows its commanders all know: they see the
same view, and a commander's sealed stay-or-retreat is shown to the other commanders of his side (never to
the enemy) until the choices are revealed. A commander who resigns resigns for his side.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from grognard.core.errors import IllegalAction, OptionError
from grognard.rulesets.skirmish import men as M
from grognard.rulesets.skirmish.actions import Burst, Drive, Fire, Move
from grognard.rulesets.skirmish.context import Context

SIDE_SEATS = {"allies": "Allies", "axis": "Axis"}


@dataclass(frozen=True)
class Commanders:
    """The seats of a game and the unit each commands (``units``: unit id -> seat), ``count`` seats a side;
    ``crews``: vehicle id -> the unit of its first man aboard at the start (None: it started empty)."""

    count: int
    units: Mapping[str, str]
    crews: Mapping[str, str | None]

    def seats(self) -> tuple[str, ...]:
        """Every seat: the allies' in order, then the axis's."""
        return tuple(seat for side in SIDE_SEATS for seat in self.of_side(side))

    def of_side(self, side: str) -> tuple[str, ...]:
        """``side``'s seats: ``("Allies",)`` for one commander, ``("Allies 1", "Allies 2")`` for two."""
        name = SIDE_SEATS[side]
        return (name,) if self.count == 1 else tuple(f"{name} {k}" for k in range(1, self.count + 1))

    def side_of(self, seat: str) -> str:
        for side in SIDE_SEATS:
            if seat in self.of_side(side):
                return side
        raise IllegalAction(f"no seat {seat!r} in this game ({', '.join(self.seats())})")

    def first(self, side: str) -> str:
        return self.of_side(side)[0]

    def commanded_by(self, seat: str) -> list[str]:
        """The units ``seat`` commands, in the scenario's order."""
        return [unit for unit, owner in self.units.items() if owner == seat]


def deal(spec: Any, count: int) -> Commanders:
    """The commanders of scenario ``spec`` with ``count`` seats a side (see the module); raises
    :class:`OptionError` when a side has fewer units than commanders or a unit names a commander beyond
    ``count`` (with one commander every unit is the side's, whatever it names)."""
    units: dict[str, str] = {}
    for side, name in SIDE_SEATS.items():
        mine = [u for u in spec.units if u.side == side]
        if len(mine) < count:
            raise OptionError(
                f"option 'commanders': {count} commanders a side, but the {side} have {len(mine)} "
                f"unit{'s' if len(mine) != 1 else ''} in {spec.name} (at most {len(mine)})"
            )
        if count == 1:
            units.update((u.id.upper(), name) for u in mine)
            continue
        dealt = 0
        for u in mine:
            named = getattr(u, "commander", None)
            if named is not None and named > count:
                raise OptionError(
                    f"option 'commanders': unit {u.id} names commander {named}, but there are {count} a side"
                )
            if named is None:
                named, dealt = dealt % count + 1, dealt + 1
            units[u.id.upper()] = f"{name} {named}"
    crews: dict[str, str | None] = {}
    for vs in spec.vehicles:
        first = next(iter([*vs.crew, *vs.passengers]), None)
        crews[vs.id.upper()] = None if first is None else first.upper().split(".")[0]
    return Commanders(count, units, crews)


def of_vehicle(ctx: Context, cmd: Commanders, vehicle: str) -> str:
    """The commander of ``vehicle``'s driver; with nobody aboard, of its starting crew's unit."""
    v = ctx.state.vehicles[vehicle]
    driver = M.driver(ctx, v)
    if driver is not None:
        return cmd.units[driver.unit]
    crew = cmd.crews.get(vehicle)
    return cmd.units[crew] if crew is not None and crew in cmd.units else cmd.first(v.side)


def of_burst(ctx: Context, cmd: Commanders, by: str, side: str) -> str:
    """The commander of a burst by ``by``: a piece's crew's, a man's unit's, a vehicle's (its tank gun)."""
    s = ctx.state
    if by in s.pieces and s.pieces[by].crew is not None:
        return cmd.units[str(s.pieces[by].crew)]
    if by in s.vehicles:
        return of_vehicle(ctx, cmd, by)
    if by in s.figures:
        return cmd.units[s.figures[by].unit]
    return cmd.first(side)


def of_group(ctx: Context, cmd: Commanders, men: Sequence[str]) -> str:
    """The commander of the most men of a melee group (a tie: the lower-numbered)."""
    counts = Counter(cmd.units[ctx.state.figures[f].unit] for f in men)
    side = ctx.state.figures[men[0]].side
    order = cmd.of_side(side)
    return max(order, key=lambda seat: (counts.get(seat, 0), -order.index(seat)))


def check_order(ctx: Context, cmd: Commanders, seat: str, action: Any) -> None:
    """Refuse an order for a unit, vehicle or burst another commander of ``seat``'s side commands, in one
    line naming both (``IllegalAction``); anything else is left to the decision's own checks."""
    if cmd.count == 1 or seat not in cmd.seats():
        return
    s = ctx.state
    if isinstance(action, (Move, Fire)) and action.unit in cmd.units:
        what, owner = f"unit {action.unit}", cmd.units[action.unit]
    elif isinstance(action, Drive) and action.vehicle in s.vehicles:
        what, owner = f"vehicle {action.vehicle}", of_vehicle(ctx, cmd, action.vehicle)
    elif isinstance(action, Burst) and (action.by in s.pieces or action.by in s.figures or action.by in s.vehicles):
        what, owner = action.by, of_burst(ctx, cmd, action.by, cmd.side_of(seat))
    else:
        return
    if owner != seat and cmd.side_of(owner) == cmd.side_of(seat):
        raise IllegalAction(f"{action}: {what} is commanded by {owner}, not {seat}", "option commanders")
