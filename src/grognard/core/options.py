"""Scenario options as data: each rule set lists its options, faces show them.

>>> spec = OptionSpec("germans", int, 6, "German players", minimum=1, maximum=12)
>>> spec.parse("4")
4
>>> spec.parse("0")
Traceback (most recent call last):
...
grognard.core.errors.OptionError: option 'germans': 0 is below the minimum 1
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from grognard.core.errors import OptionError
from grognard.core.numbers import read_float, read_int

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class OptionSpec:
    """One option: its name, type, default, allowed values and the rule it changes.

    ``kind`` is ``int``, ``float``, ``bool`` or ``str`` (with ``choices``).
    ``none_word`` names the value that stands for "no limit" (``None``).
    ``offered`` lists (value, words) pairs a menu offers when the option also takes other values
    (a scenario's name, or a scenario file the CLI reads): a face that reads no file a person names
    (the web) offers these and takes only these (:func:`check_offered`).
    ``quiet``: the option plays another reading of a ruling (RULINGS) and was added after games were recorded;
    at its default it is left out of a record's header and of the game's state (:func:`recorded`), so records
    made before it still replay and default play writes the same record as before.
    """

    name: str
    kind: type
    default: Any
    help: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    none_word: str | None = None
    rule: str | None = None
    offered: tuple[tuple[str, str], ...] = ()
    quiet: bool = False

    def describe(self, value: Any) -> str:
        """``value`` as a person writes it (``unlimited`` for None, ``on``/``off`` for booleans)."""
        if value is None:
            return self.none_word or "none"
        if self.kind is bool:
            return "on" if value else "off"
        return f"{value:g}" if isinstance(value, float) else str(value)

    def describe_default(self) -> str:
        return self.describe(self.default)

    def describe_values(self) -> str:
        if self.choices:
            return "|".join(self.choices)
        if self.kind is bool:
            return "on|off"
        word = f"|{self.none_word}" if self.none_word else ""
        if self.kind is str:
            return f"text{word}"  # a name or a file's path: 'str ..' said nothing
        if self.minimum is None and self.maximum is None:
            return f"{self.kind.__name__}{word}"
        low = "" if self.minimum is None else f"{self.minimum:g}"
        high = "" if self.maximum is None else f"{self.maximum:g}"
        return f"{self.kind.__name__} {low}..{high}{word}"

    def describe_in_words(self) -> str:
        """The values this option takes, as an error message says them to a player.

        >>> OptionSpec("germans", int, 6, "German players", minimum=1, maximum=12).describe_in_words()
        'a whole number from 1 to 12'
        >>> OptionSpec("fresh", int, None, "squads", minimum=0, none_word="unlimited").describe_in_words()
        'a whole number 0 or more, or unlimited'
        """
        if self.choices or self.kind is bool or self.kind is str:
            return self.describe_values()
        noun = "a whole number" if self.kind is int else "a number"
        low = None if self.minimum is None else f"{self.minimum:g}"
        high = None if self.maximum is None else f"{self.maximum:g}"
        if low is not None and high is not None:
            noun += f" from {low} to {high}"
        elif low is not None:
            noun += f" {low} or more"
        elif high is not None:
            noun += f" {high} or less"
        return noun + (f", or {self.none_word}" if self.none_word else "")

    def parse(self, text: str) -> Any:
        """The value ``text`` names, checked; raises :class:`OptionError`."""
        raw = text.strip()
        if self.none_word is not None and raw.lower() == self.none_word:
            return None
        if self.kind is bool:
            if raw.lower() in _TRUE:
                return True
            if raw.lower() in _FALSE:
                return False
            raise OptionError(f"option {self.name!r}: {text!r} is not on/off")
        if self.kind is str:
            value: Any = raw
        else:
            value = read_int(raw) if self.kind is int else read_float(raw) if self.kind is float else None
            if value is None:
                raise OptionError(f"option {self.name!r}: {text!r} is not {self.describe_in_words()}")
        return self.validate(value)

    def validate(self, value: Any) -> Any:
        """``value`` checked against type and range; raises :class:`OptionError`."""
        if value is None:
            if self.none_word is None and self.default is not None:
                raise OptionError(f"option {self.name!r}: a value is required")
            return None
        if self.kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, self.kind) or (self.kind is int and isinstance(value, bool)):
            raise OptionError(f"option {self.name!r}: {value!r} is not {self.describe_in_words()}")
        if isinstance(value, float) and not math.isfinite(value):  # the kind is float (an int became one)
            raise OptionError(f"option {self.name!r}: {value!r} is not a finite number")
        if self.choices and value not in self.choices:
            raise OptionError(f"option {self.name!r}: {value!r} is not one of {', '.join(self.choices)}")
        if self.minimum is not None and isinstance(value, int | float) and value < self.minimum:
            raise OptionError(f"option {self.name!r}: {self.describe(value)} is below the minimum {self.minimum:g}")
        if self.maximum is not None and isinstance(value, int | float) and value > self.maximum:
            raise OptionError(f"option {self.name!r}: {self.describe(value)} is above the maximum {self.maximum:g}")
        return value


def resolve_options(specs: Sequence[OptionSpec], given: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults overlaid with ``given`` (values or their text), every value checked.

    Raises :class:`OptionError` for an unknown name, listing the known ones.
    """
    by_name = {spec.name: spec for spec in specs}
    out = {spec.name: spec.default for spec in specs}
    for name, value in given.items():
        spec = by_name.get(name)
        if spec is None:
            raise OptionError(f"unknown option {name!r}; options are: {', '.join(by_name)}")
        out[name] = spec.parse(value) if isinstance(value, str) else spec.validate(value)
    return out


def recorded(specs: Sequence[OptionSpec], options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` as records and states keep them: each ``quiet`` option at its default left out.

    >>> spec = OptionSpec("bomb_tie", str, "no_hit", "RULINGS B2", choices=("no_hit", "hit"), quiet=True)
    >>> recorded([spec], {"bomb_tie": "no_hit", "turn_cap": 40}), recorded([spec], {"bomb_tie": "hit"})
    ({'turn_cap': 40}, {'bomb_tie': 'hit'})
    """
    quiet = {spec.name: spec.default for spec in specs if spec.quiet}
    return {name: value for name, value in options.items() if name not in quiet or value != quiet[name]}


def check_offered(specs: Sequence[OptionSpec], given: Mapping[str, Any]) -> None:
    """Refuse a value of an option with ``offered`` values that is not one of them (raises :class:`OptionError`).

    >>> spec = OptionSpec("scenario", str, "hill", "a scenario", offered=(("hill", "Hill"), ("ford", "Ford")))
    >>> check_offered([spec], {"scenario": "ford"})
    >>> check_offered([spec], {"scenario": "/etc/passwd"})
    Traceback (most recent call last):
    ...
    grognard.core.errors.OptionError: option 'scenario': '/etc/passwd' is not one of hill, ford
    """
    for spec in specs:
        if spec.offered and spec.name in given:
            values = [value for value, _ in spec.offered]
            if given[spec.name] not in values:
                raise OptionError(f"option {spec.name!r}: {given[spec.name]!r} is not one of {', '.join(values)}")


def parse_assignments(items: Iterable[str]) -> dict[str, str]:
    """``["germans=4", "deep_water=on"]`` as a dict; raises :class:`OptionError` on a bad item."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"option {item!r} is not NAME=VALUE")
        key = name.strip().replace("-", "_")
        if key in out:
            raise OptionError(f"option {key!r} is given twice ({key}={out[key]} and {key}={value})")
        out[key] = value
    return out
