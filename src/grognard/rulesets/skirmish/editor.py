"""The skirmish table editor's part (``Ruleset.editor``, the ``/editor`` page): the palette of what may be drawn,
the check of a table as drawn (every problem at once, each with its field, its rule and where to draw it), the
scenario file written and read back.

A table being drawn is the scenario file's data (its TOML parsed: ``terrain``, ``units``, ...), JSON-safe, so
the page edits it as data and the file it downloads is what ``grognard play skirmish FILE.toml`` reads. Text
sent to be opened is parsed as TOML and nothing else (never executed, never read as a path); a table too large
to check quickly (more men or corners than any table has) is refused in one line before it is checked.
"""

from __future__ import annotations

import copy
import math
import re
import tomllib
from typing import Any

from grognard.rulesets.skirmish.editor_scene import editor_scene
from grognard.rulesets.skirmish.scenario import SCENARIOS_DIR, check_scenario, shipped
from grognard.rulesets.skirmish.schema import (
    EDGES,
    LINE_KINDS,
    POINT_KINDS,
    POLYGON_KINDS,
    SIDE_IDS,
    ScenarioError,
)
from grognard.rulesets.skirmish.tables import VEHICLE_KINDS, load_tables, loads_toml, read_toml

MAX_TEXT = 256 * 1024  # characters of a scenario file opened (the shipped ones are 4-7 KB)
MAX_MEN = 1000  # men on one table: a club's whole collection; past it the check would be slow
MAX_POINTS = 4000  # corners and points of all the terrain and objectives together
MAX_ENTRIES = 400  # terrain pieces, units, vehicles, pieces, objectives each

GROUPS = {  # the palette's groups of terrain kinds, in the order the page lists them
    "buildings": ("building", "tower"),
    "ground": ("hill", "woods", "bushes", "small_rocks", "boulder", "cliff"),
    "water": ("river", "pond", "bay", "bridge"),
    "ways": ("road", "railway"),
    "works": ("stone_wall", "sandbags", "barbed_wire", "tank_trap"),
    "castle": ("castle", "castle_wall"),
}
DEFAULTS: dict[str, dict[str, Any]] = {  # what a new piece of a kind starts with (besides its geometry)
    "hill": {"height": 1.0},
    "cliff": {"height": 2.0},
    "river": {"width": 4.0},
    "road": {"width": 2.0},
    "bridge": {"type": "large"},
    "castle_wall": {"height": 3.0},
}
FIELDS: dict[str, list[dict[str, Any]]] = {  # each kind's own fields, as the page's property panel shows them
    "hill": [{"key": "height", "type": "number", "min": 0.5, "max": 12, "step": 0.5, "label": 'height (")'}],
    "cliff": [{"key": "height", "type": "number", "min": 0.5, "max": 12, "step": 0.5, "label": 'height (")'}],
    "castle_wall": [{"key": "height", "type": "number", "min": 0.5, "max": 12, "step": 0.5, "label": 'height (")'}],
    "river": [{"key": "width", "type": "number", "min": 4, "max": 24, "step": 0.5, "label": 'width (")'}],
    "road": [{"key": "width", "type": "number", "min": 0.5, "max": 12, "step": 0.5, "label": 'width (")'}],
    "railway": [{"key": "width", "type": "number", "min": 0.5, "max": 6, "step": 0.5, "label": 'width (")'}],
    "bridge": [
        {"key": "type", "type": "choice", "choices": ["large", "foot"], "label": "bridge"},
        {"key": "built", "type": "bool", "label": "built"},
    ],
}
OPENINGS = {"building": ["doors", "windows"], "tower": ["doors", "windows"], "castle_wall": ["doors"]}


def _geometry(kind: str) -> str:
    if kind in POINT_KINDS:
        return "at"
    return "line" if kind in LINE_KINDS else "shape"


def palette() -> dict[str, Any]:
    """What the page may draw and fill in (``Editor.palette``)."""
    tables = load_tables()
    kinds = []
    for group, names in GROUPS.items():
        for kind in names:
            kinds.append(
                {
                    "kind": kind,
                    "group": group,
                    "label": kind.replace("_", " "),
                    "list": "terrain",
                    "geometry": _geometry(kind),
                    "defaults": {"kind": kind, **DEFAULTS.get(kind, {})},
                    "fields": FIELDS.get(kind, []),
                    "openings": OPENINGS.get(kind, []),
                    "sections": kind in ("building", "tower"),
                }
            )
    assert {k["kind"] for k in kinds} == set(POLYGON_KINDS + LINE_KINDS + POINT_KINDS)
    return {
        "name": "skirmish scenario",
        "extension": ".toml",
        "size": {"width": ["table", "width"], "depth": ["table", "depth"], "max": 480},
        "sides": list(SIDE_IDS),
        "kinds": kinds,
        "men": {
            "list": "units",
            "points": "figures",
            "types": list(tables.men),
            "weapons": list(tables.weapons),
            "max": 60,
        },
        "machines": [
            {"list": "vehicles", "label": "vehicle", "choices": list(VEHICLE_KINDS), "key": "kind", "crew": True},
            {"list": "pieces", "label": "gun", "choices": list(tables.artillery), "key": "weapon", "crew": True},
        ],
        "objective": {"list": "objectives", "geometry": "shape", "taken": ["victory", "objectives"]},
        "form": _form(),
    }


def _form() -> list[dict[str, Any]]:
    """The scenario's fields as the page's form shows them: ``path`` into the data, a type and its bounds."""
    sides = [
        field
        for k in (0, 1)
        for field in (
            {"path": ["sides", k, "id"], "type": "choice", "choices": list(SIDE_IDS), "label": f"side {k + 1}"},
            {"path": ["sides", k, "name"], "type": "text", "label": f"side {k + 1}'s name", "max": 80},
            {"path": ["sides", k, "edge"], "type": "choice", "choices": list(EDGES), "label": "enters from"},
            {"path": ["sides", k, "breaks_at"], "type": "number", "min": 0.05, "max": 1, "step": 0.05,
             "label": "breaks at (share lost)"},
        )
    ]  # fmt: skip
    return [
        {"path": ["title"], "type": "text", "label": "title", "max": 120},
        {"path": ["name"], "type": "text", "label": "file name", "max": 40},
        {"path": ["description"], "type": "textarea", "label": "description", "max": 4000},
        {"path": ["table", "width"], "type": "number", "min": 6, "max": 480, "step": 1, "label": 'table width (")'},
        {"path": ["table", "depth"], "type": "number", "min": 6, "max": 480, "step": 1, "label": 'table depth (")'},
        {"path": ["first_mover"], "type": "choice", "choices": ["initiative", *SIDE_IDS], "label": "moves first"},
        *sides,
        {"path": ["victory", "attacker"], "type": "choice", "choices": list(SIDE_IDS), "label": "attacker"},
        {"path": ["victory", "turn_limit"], "type": "int", "min": 1, "max": 1000, "label": "turns"},
        {"path": ["victory", "at_limit"], "type": "choice", "choices": ["defender", "draw", "unfinished"],
         "label": "at the turn limit"},
        {"path": ["victory", "objectives"], "type": "ids", "of": "objectives", "label": "objectives to take"},
        _PLANS,
    ]  # fmt: skip


_PLANS = {  # the bots' plans (schema.PlanSpec, docs/rules/skirmish.md "The plans"): each a side's groups and tasks
    "path": ["plans"], "type": "records", "item": "plan", "label": "the bots' plans",
    "defaults": {"name": "plan", "side": SIDE_IDS[0], "description": "what the plan does, in a line",
                 "groups": [{"units": [], "task": "objective"}]},
    "fields": [
        {"key": "name", "type": "text", "label": "name (a-z, 0-9, -)", "max": 40},
        {"key": "side", "type": "choice", "choices": list(SIDE_IDS), "label": "side"},
        {"key": "description", "type": "text", "label": "in a line", "max": 160},
        {"key": "groups", "type": "records", "item": "group", "label": "its groups",
         "defaults": {"units": [], "task": "objective"},
         "fields": [
             {"key": "units", "type": "ids", "label": "units (A, B)"},
             {"key": "task", "type": "choice", "choices": ["hold", "objective", "enemy"], "label": "task"},
             {"key": "flank", "type": "choice", "choices": ["", "west", "east"], "label": "by the flank"},
         ]},
    ],
}  # fmt: skip


def blank() -> dict[str, Any]:
    """A new table: 48" square, the Allies from the south, the Axis from the north, nothing on it yet."""
    return {
        "name": "my_table",
        "title": "My table",
        "description": "",
        "tables": "default",
        "first_mover": "initiative",
        "table": {"width": 48.0, "depth": 48.0},
        "sides": [
            {"id": "allies", "name": "Allies", "edge": "south", "breaks_at": 1.0},
            {"id": "axis", "name": "Axis", "edge": "north", "breaks_at": 1.0},
        ],
        "victory": {"attacker": "allies", "objectives": [], "turn_limit": 10, "at_limit": "defender"},
        "objectives": [],
        "terrain": [],
        "units": [],
    }


def too_large(data: Any) -> str | None:
    """Why ``data`` is refused before it is checked (one line), or ``None``."""
    if not isinstance(data, dict):
        return "a scenario is a table of fields (title, table, sides, units, ...)"
    for key in ("terrain", "units", "vehicles", "pieces", "objectives", "drops", "templates"):
        entries = data.get(key)
        if isinstance(entries, list) and len(entries) > MAX_ENTRIES:
            return f"{key}: {len(entries)} entries; a table has at most {MAX_ENTRIES}"
    men = sum(
        len(u["figures"]) for u in data.get("units") or [] if isinstance(u, dict) and isinstance(u.get("figures"), list)
    )
    if men > MAX_MEN:
        return f"units: {men} men; a table has at most {MAX_MEN} (skirmish.2)"
    points = 0
    for key in ("terrain", "objectives"):
        for entry in data.get(key) or []:
            if isinstance(entry, dict):
                for part in ("shape", "line"):
                    if isinstance(entry.get(part), list):
                        points += len(entry[part])
                for section in entry.get("sections") or []:
                    if isinstance(section, dict):
                        points += sum(
                            len(section.get(p) or []) for p in ("shape", "line") if isinstance(section.get(p), list)
                        )
    if points > MAX_POINTS:
        return f"terrain: {points} corners and points; a table has at most {MAX_POINTS} in all (skirmish.2)"
    return None


_FIELD = re.compile(r"^([A-Za-z_][\w.\[\]]*)(?::|$)")
_POINT = re.compile(r"^\s*\[(-?[\d.e+-]+), (-?[\d.e+-]+)\]")


def check(data: Any) -> list[dict[str, Any]]:
    """Every problem of the table as drawn, at once (``Editor.check``): ``{"field", "rule", "text", "at"}``."""
    refused = too_large(data)
    if refused is not None:
        return [{"field": refused.split(":")[0], "rule": "skirmish.2", "text": refused, "at": None}]
    out = []
    texts = check_scenario({k: v for k, v in data.items() if k != "tables"}, None, load_tables())
    tables = data.get("tables", "default")
    if tables != "default":  # a tables file is never read from the server's disk
        texts.insert(
            0, f'tables: {tables!r}: a table drawn here plays on the default tables; write "default" (skirmish.2)'
        )
    for text in texts:
        if text.startswith("units: [") and "at least 2 items" in text:  # pydantic's words for a new table's first want
            count = len(data["units"]) if isinstance(data.get("units"), list) else 0
            text = f"units: {count} drawn: a table needs units, at least one a side (skirmish.2)"
        found = _FIELD.match(text)
        field = found[1] if found else ""
        rule = re.findall(r"skirmish\.\d+", text)
        out.append(
            {"field": field, "rule": rule[-1] if rule else "skirmish.2", "text": text, "at": _at(data, text, field)}
        )
    return out


def _at(data: Any, text: str, field: str) -> list[float] | None:
    """Where a problem lies on the table: the point it quotes, else the centre of the entry its field names."""
    rest = text[len(field) + 1 :] if field else ""
    quoted = _POINT.match(rest)
    if quoted:
        return [round(float(quoted[1]), 2), round(float(quoted[2]), 2)]
    node: Any = data
    best: list[float] | None = None
    for part in re.findall(r"[A-Za-z_]\w*|\[\d+\]", field):
        key: Any = int(part[1:-1]) if part.startswith("[") else part
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            break
        best = _centre(node) or best
    return best


def _centre(node: Any) -> list[float] | None:
    def point(p: Any) -> tuple[float, float] | None:
        if isinstance(p, list | tuple) and len(p) == 2 and all(isinstance(c, int | float) for c in p):
            x, y = float(p[0]), float(p[1])
            return (x, y) if math.isfinite(x) and math.isfinite(y) else None
        return None

    if isinstance(node, dict):
        for key in ("at", "shape", "line"):
            if key in node:
                return _centre(node[key])
        if isinstance(node.get("figures"), list):
            return _centre([f.get("at") for f in node["figures"] if isinstance(f, dict)])
        return None
    one = point(node)
    if one is not None:
        return [round(one[0], 2), round(one[1], 2)]
    if isinstance(node, list):
        points = [q for q in (point(p) for p in node[:200]) if q is not None]
        if points:
            return [
                round(sum(p[0] for p in points) / len(points), 2),
                round(sum(p[1] for p in points) / len(points), 2),
            ]
    return None


def scene(data: Any) -> dict[str, Any]:
    """The table drawn as the game's face draws it (``Editor.scene``), from data with problems too."""
    if too_large(data) is not None:
        return editor_scene(blank())
    return editor_scene(data)


def write(data: Any) -> str:
    """The scenario file's text (``Editor.write``): TOML that reads back to ``data``."""
    import tomli_w  # here, not at the top: a rule set that only plays never needs it

    refused = too_large(data)
    if refused is not None:
        raise ScenarioError("scenario", [refused])
    try:
        return tomli_w.dumps(_tidy(data))
    except (TypeError, ValueError) as exc:
        raise ScenarioError("scenario", [f"(file): cannot be written as TOML: {exc}"]) from None


def _tidy(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` without the empty values TOML cannot hold (``None``), keys in the file's usual order."""

    def clean(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items() if v is not None}
        if isinstance(value, list):
            return [clean(v) for v in value if v is not None]
        return value

    first = ["name", "title", "description", "tables", "first_mover", "table", "sides", "victory"]
    ordered = {k: data[k] for k in first if k in data}
    ordered.update({k: v for k, v in data.items() if k not in ordered})
    tidy: dict[str, Any] = clean(ordered)
    return tidy


def read(text: str) -> dict[str, Any]:
    """A table's data from a scenario file's text (``Editor.read``): TOML only, at most ``MAX_TEXT``
    characters; the text is parsed, never run, never taken for a path."""
    text = text.removeprefix("\ufeff")
    if len(text) > MAX_TEXT:
        raise ScenarioError("file", [f"(file): {len(text)} characters; a scenario file has at most {MAX_TEXT}"])
    try:
        data = loads_toml(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError("file", [f"(file): not TOML: {exc}"]) from None
    refused = too_large(data)
    if refused is not None:
        raise ScenarioError("file", [refused])
    return data


def shipped_data(name: str) -> dict[str, Any]:
    """A shipped scenario's data by its name (``hill_assault``); only those names are read."""
    names = [n for n, _ in shipped()]
    if name not in names:
        raise ScenarioError("scenario", [f"scenario: {name!r}: no shipped scenario of that name ({', '.join(names)})"])
    return copy.deepcopy(read_toml(SCENARIOS_DIR / f"{name}.toml"))


class SkirmishEditor:
    """The skirmish rule set's ``Editor``."""

    def palette(self) -> dict[str, Any]:
        return palette()

    def blank(self) -> dict[str, Any]:
        return blank()

    def check(self, data: Any) -> list[dict[str, Any]]:
        return check(data)

    def scene(self, data: Any) -> dict[str, Any]:
        return scene(data)

    def write(self, data: Any) -> str:
        return write(data)

    def read(self, text: str) -> dict[str, Any]:
        return read(text)

    def shipped(self, name: str) -> dict[str, Any]:
        return shipped_data(name)
