"""Event kinds as data: each rule set declares, in one table, the kinds of event its game emits, each with its
fields, their types and a one-line meaning.

The engine refuses an event whose kind its game does not declare, or that lacks a declared field or carries one
the kind does not have (:meth:`EventKinds.check`, in ``Game.emit``); reading a record checks every recorded event
the same way and its values' types too (:meth:`EventKinds.check_types`), so a record naming an unknown kind or
missing a field is refused at its line. The engine's own kinds (a roll, a sealed secret and its reveal) are in
:data:`CORE_EVENTS`, which every rule set's table extends.

>>> kinds = EventKinds(kind("moved", "a squad moved", squad=str, x=float, y=float))
>>> kinds.check("moved", {"squad": "A1", "x": 3.0, "y": 4.5})
>>> kinds.check("moved", {"squad": "A1", "x": 3.0})
Traceback (most recent call last):
    ...
grognard.core.errors.EventError: event 'moved' lacks its field y (a squad moved: squad, x, y)
>>> kinds.check("jumped", {"squad": "A1"})
Traceback (most recent call last):
    ...
grognard.core.errors.EventError: event kind 'jumped' is not declared (declared: chosen, dice, moved, revealed, sealed)
"""

from __future__ import annotations

import types
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from grognard.core.errors import EventError

__all__ = ["CORE_EVENTS", "EventKind", "EventKinds", "FieldType", "kind"]

FieldType = type | types.UnionType
"""A field's type: a JSON type (``str``, ``int``, ``float``, ``bool``, ``list``, ``dict``) or a union of them
(``str | None``). A ``float`` field takes an ``int`` too (JSON writes ``3.0`` as it likes)."""


@dataclass(frozen=True)
class EventKind:
    """One kind of event: its ``name``, a one-line ``meaning``, its ``fields`` (name -> type), and which of
    them may be left out (``optional``)."""

    name: str
    meaning: str
    fields: Mapping[str, FieldType]
    optional: frozenset[str] = frozenset()
    required: frozenset[str] = field(init=False)
    allowed: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        unknown = self.optional - set(self.fields)
        if unknown:
            raise ValueError(f"event {self.name!r}: optional {sorted(unknown)} are not among its fields")
        object.__setattr__(self, "allowed", frozenset(self.fields))
        object.__setattr__(self, "required", self.allowed - self.optional)

    def problem(self, data: Mapping[str, Any]) -> str | None:
        """What is wrong with ``data``'s field names for this kind, in words; None when nothing is."""
        if self.required.issubset(data) and self.allowed.issuperset(data):
            return None
        missing = sorted(self.required.difference(data))
        if missing:
            return f"event {self.name!r} lacks its field{'s' if len(missing) > 1 else ''} {', '.join(missing)} ({self})"
        extra = sorted(set(data) - self.allowed)
        return f"event {self.name!r} has no field{'s' if len(extra) > 1 else ''} {', '.join(extra)} ({self})"

    def type_problem(self, data: Mapping[str, Any]) -> str | None:
        """The first field of ``data`` whose value is not of its declared type, in words; None when none is."""
        for name, value in data.items():
            wanted = self.fields.get(name)
            if wanted is None or _is(value, wanted):
                continue
            return f"event {self.name!r}: its field {name} is {value!r}, not {_named(wanted)}"
        return None

    def __str__(self) -> str:
        names = [f"{n}?" if n in self.optional else n for n in self.fields]
        return f"{self.meaning}: {', '.join(names)}" if names else self.meaning


def _is(value: Any, wanted: FieldType) -> bool:
    if isinstance(value, bool):  # JSON's true is no number
        return wanted is bool or (isinstance(wanted, types.UnionType) and bool in wanted.__args__)
    if isinstance(value, int) and not isinstance(value, bool) and _takes_float(wanted):
        return True
    return isinstance(value, wanted)


def _takes_float(wanted: FieldType) -> bool:
    return wanted is float or (isinstance(wanted, types.UnionType) and float in wanted.__args__)


def _named(wanted: FieldType) -> str:
    if isinstance(wanted, types.UnionType):
        return " or ".join("None" if t is type(None) else t.__name__ for t in wanted.__args__)
    return wanted.__name__


def kind(name: str, meaning: str, /, *, optional: Iterable[str] = (), **fields: FieldType) -> EventKind:
    """One kind, its fields given as keywords: ``kind("moved", "a squad moved", squad=str, x=float)``."""
    return EventKind(name, meaning, fields, frozenset(optional))


class EventKinds(Mapping[str, EventKind]):
    """A rule set's table of event kinds (a mapping name -> :class:`EventKind`), the core's included."""

    def __init__(self, *kinds: EventKind, core: bool = True) -> None:
        table: dict[str, EventKind] = dict(_CORE) if core else {}
        for each in kinds:
            if each.name in table:
                raise ValueError(f"event kind {each.name!r} is declared twice")
            table[each.name] = each
        self._table = table
        # each kind's (required, allowed) names: the check a game makes of every event it emits, kept cheap
        self._names = {name: (each.required, each.allowed) for name, each in table.items()}

    def __getitem__(self, name: str) -> EventKind:
        return self._table[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)

    def check(self, name: str, data: Mapping[str, Any]) -> None:
        """Raise :class:`EventError` unless ``name`` is declared and ``data`` has exactly its fields (the
        optional ones may be left out)."""
        names = self._names.get(name)
        if names is not None and names[0] <= data.keys() <= names[1]:
            return
        if names is None:
            raise EventError(f"event kind {name!r} is not declared (declared: {', '.join(sorted(self._table))})")
        problem = self._table[name].problem(data)
        assert problem is not None  # the same sets said no
        raise EventError(problem)

    def check_types(self, name: str, data: Mapping[str, Any]) -> None:
        """:meth:`check`, and each value of its declared type."""
        self.check(name, data)
        problem = self._table[name].type_problem(data)
        if problem is not None:
            raise EventError(problem)


_CORE = {
    each.name: each
    for each in (
        kind("dice", "dice rolled through the game's source", purpose=str, sides=int, values=list),
        kind("sealed", "a secret choice, seen by its seat alone", decision=str, seat=str, action=str),
        kind("chosen", "a seat made its secret choice (not what)", decision=str, seat=str),
        kind("revealed", "every secret choice of a group, shown once all are in", group=str, choices=dict),
    )
}

CORE_EVENTS = EventKinds()
"""The engine's own kinds, which every rule set's table holds too."""
