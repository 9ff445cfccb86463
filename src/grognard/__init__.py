"""grognard: three WWII miniature wargames played exactly as written.

The rule sets live in :mod:`grognard.rulesets`; the engine protocol, dice and
the game record in :mod:`grognard.core`.
"""

__version__ = "0.1.0"
