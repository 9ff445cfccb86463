"""The error classes of grognard.

Every error a user can cause derives from :class:`GrognardError`, so a face
(CLI, web) catches one class and turns it into one clear line: the CLI prints
``error: <message>`` and exits with code 2; the web answers with ``code`` and
the message. Messages quote the input at fault and name the rule or field.
"""

from __future__ import annotations


class GrognardError(Exception):
    """Base of every error grognard raises for bad input or an illegal action."""

    code = "error"


class ParseError(GrognardError):
    """Text that is not a well-formed action, option or record line."""

    code = "parse"


class IllegalAction(GrognardError):
    """A well-formed action the rules forbid now.

    ``rule`` names the rule ID (``"omaha.7"``) or field at fault. The state is
    unchanged when this is raised.
    """

    code = "illegal"

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.rule = rule
        super().__init__(f"{message} ({rule})" if rule else message)


class OptionError(GrognardError):
    """An unknown option, or a value of the wrong type or out of range."""

    code = "option"


class DiceError(GrognardError):
    """Dice that cannot be: a value off the die, a wrong count, a source run dry."""

    code = "dice"


class RecordError(GrognardError):
    """A game record that is malformed, or diverges on replay.

    ``line`` is the 1-based line number of the record at fault, when known.
    """

    code = "record"

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


class TornRecord(RecordError):
    """A record whose last line was cut short (the program stopped while writing it): nothing after it.

    ``line`` is that line's number and ``keep`` the bytes of the record before it (every whole line),
    so that the cut line can be dropped, and nothing else.
    """

    code = "torn_record"
    line: int  # always known: the cut line

    def __init__(self, message: str, line: int, keep: int) -> None:
        super().__init__(message, line)
        self.keep = keep


class EventError(Exception):
    """An event its game does not declare (:mod:`grognard.core.events`): an undeclared kind, a field missing or
    not its kind's. A fault of the rule set's code, never of a person's input, so no :class:`GrognardError`: a
    face shows it as the bug it is. A record naming such an event is refused as a :class:`RecordError`."""
