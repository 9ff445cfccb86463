"""The rule sets grognard plays, by name."""

from __future__ import annotations

from importlib import import_module

from grognard.core.errors import OptionError
from grognard.core.ruleset import Ruleset

_MODULES = {
    "omaha": "grognard.rulesets.omaha",
    "b17": "grognard.rulesets.b17",
    "skirmish": "grognard.rulesets.skirmish",
}


DEFAULT = next(iter(_MODULES))  # the rule set a new game plays when none is named


def names() -> list[str]:
    """The names of every rule set."""
    return list(_MODULES)


def get(name: str) -> Ruleset:
    """The rule set called ``name``; raises :class:`OptionError` naming the known ones."""
    module = _MODULES.get(name.lower())
    if module is None:
        raise OptionError(f"unknown rule set {name!r}; rule sets are: {', '.join(_MODULES)}")
    ruleset: Ruleset = import_module(module).RULESET
    return ruleset
