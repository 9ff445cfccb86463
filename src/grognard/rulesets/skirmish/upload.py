"""A scenario TOML of one's own, sent to a server (``ScenarioFiles.upload``): checked whole, kept in the record.

Nothing on the server's disk is read for it: the file is its text alone, played on the default tables
(a ``tables`` path would name a file of the server's), and the record's header keeps that text
(``embedded``, as :func:`.scenario.embed_files` gives it) so the game replays and resumes from it.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from grognard.rulesets.skirmish.scenario import check_scenario
from grognard.rulesets.skirmish.schema import ScenarioError
from grognard.rulesets.skirmish.tables import load_tables, loads_toml

MAX_TEXT = 64 * 1024  # characters of one uploaded scenario (the shipped ones are 4-7 KB)
_NAME = re.compile(r"[^A-Za-z0-9_.\-]+")


def file_name(name: str) -> str:
    """The uploaded file's own name, made safe for a record and a page: its last path part, letters,
    digits, ``_ . -`` only, ending ``.toml`` ("my raid.toml" -> "my_raid.toml")."""
    base = re.split(r"[\\/]", name.strip())[-1]
    base = _NAME.sub("_", base).strip("._")[:60] or "scenario"
    return base if base.endswith(".toml") else base + ".toml"


def upload(name: str, text: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(options, embedded)`` for the scenario TOML ``text`` sent as file ``name``: ``{"scenario": NAME}``
    and ``{"scenario": {"file", "toml", "tables": None}}``. Raises :class:`ScenarioError` listing every
    problem (as ``grognard play skirmish FILE`` does, skirmish.2): not TOML, too long, a ``tables`` file
    named (an upload plays on the default tables), each problem of the scenario."""
    name = file_name(name)
    text = text.removeprefix("\ufeff")  # an editor's byte order mark is not TOML's (read_toml leaves it out too)
    if len(text) > MAX_TEXT:
        raise ScenarioError(name, [f"(file): {len(text)} characters; an uploaded scenario has at most {MAX_TEXT}"])
    try:
        data = loads_toml(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(name, [f"(file): not TOML: {exc}"]) from None
    problems: list[str] = []
    tables = data.get("tables", "default")
    if tables != "default":
        problems.append(
            f"tables: {tables!r}: an uploaded scenario plays on the default tables "
            '(a tables file is not read from the server); leave tables out or write "default"'
        )
        data = {k: v for k, v in data.items() if k != "tables"}
    problems += check_scenario(data, None, load_tables())
    if problems:
        raise ScenarioError(name, problems)
    return {"scenario": name}, {"scenario": {"file": name, "toml": text, "tables": None}}
