"""Skirmish scenarios: TOML files of a table, its terrain, two sides, their units, and how to win.

A scenario is checked whole: :func:`check_scenario` returns every problem at
once as ``field: value: why`` (for a scenario editor), and
:func:`load_scenario` refuses a file with problems (:class:`ScenarioError`).
Shipped scenarios live in ``scenarios/`` and are named by their file's stem
(``hill_assault``); any other value is a path to the user's own file.

Conventions (the whole rule set's): inches; the table's origin is its
south-west corner, x runs east (0 to ``table.width``), y runs north (0 to
``table.depth``). A figure stands at the centre of its 1" base. Terrain is
given as shapes: ``shape`` (a polygon's corners), ``line`` (a polyline's
points) with a ``width`` for roads and rivers, or ``at`` (a point).

A unit with ``enters = 0`` stands on the table at the start; one with
``enters = k`` waits off its side's edge and may come on from move ``k``:
its figures' positions are given off the table, at most 6" beyond that edge.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError

from grognard.rulesets.skirmish.forces import (
    check_bases,
    check_drops,
    check_pieces,
    check_sides_manned,
    check_train,
    check_units,
    check_vehicles,
    men_aboard,
)
from grognard.rulesets.skirmish.ground import check_overlaps, check_piece, check_polygon, check_structure
from grognard.rulesets.skirmish.plans import check_plans
from grognard.rulesets.skirmish.schema import (
    EDGES,
    SIDE_IDS,
    Scenario,
    ScenarioError,
    ScenarioSpec,
    SideSpec,
    TableSize,
    TerrainPiece,
    UnitSpec,
)
from grognard.rulesets.skirmish.tables import (
    Tables,
    TablesError,
    check_tables,
    describe_error,
    load_tables,
    loads_toml,
    read_toml,
)

SCENARIOS_DIR = Path(__file__).parent / "scenarios"


def _semantic(spec: ScenarioSpec, tables: Tables | None) -> Iterable[str]:
    """Problems pydantic's field checks cannot see: references, shapes, positions."""
    width, depth = spec.table.width, spec.table.depth
    side_ids = [s.id for s in spec.sides]
    for i, side in enumerate(spec.sides):
        if side.id not in SIDE_IDS:
            yield f"sides[{i}].id: {side.id!r}: must be one of {', '.join(SIDE_IDS)}"
        if side.edge not in EDGES:
            yield f"sides[{i}].edge: {side.edge!r}: must be one of {', '.join(EDGES)}"
    if len(set(side_ids)) != len(side_ids):
        yield f"sides: {side_ids}: the two sides must differ"
    if spec.first_mover not in ("initiative", *SIDE_IDS):
        yield f"first_mover: {spec.first_mover!r}: 'initiative' (RULINGS S0) or a side"
    if spec.victory.attacker not in side_ids:
        yield f"victory.attacker: {spec.victory.attacker!r}: not a side of this scenario ({', '.join(side_ids)})"
    objective_ids = [o.id for o in spec.objectives]
    for ref in spec.victory.objectives:
        if ref not in objective_ids:
            yield f"victory.objectives: {ref!r}: no objective has this id"
    for i, objective in enumerate(spec.objectives):
        yield from check_polygon(f"objectives[{i}].shape", objective.shape, width, depth)
    ids: dict[str, str] = {}
    for i, piece in enumerate(spec.terrain):
        yield from check_piece(f"terrain[{i}]", piece, width, depth)
        yield from check_structure(f"terrain[{i}]", piece, tables, spec)
        if piece.id is not None:
            if piece.id in ids:
                yield f"terrain[{i}].id: {piece.id!r}: used twice"
            ids[piece.id] = piece.kind
        for section in piece.sections or []:
            if section.id in ids:
                yield f"terrain[{i}].sections: {section.id!r}: id used twice"
            ids[section.id] = "section"
        for door in piece.doors:
            if door.id is not None:
                if door.id in ids:
                    yield f"terrain[{i}].doors: {door.id!r}: id used twice"
                ids[door.id] = "door"
    yield from check_overlaps(spec)
    aboard = dict(men_aboard(spec))
    yield from check_units(spec, tables)
    yield from check_vehicles(spec, tables, aboard)
    yield from check_train(spec)
    yield from check_drops(spec, aboard)
    dropped = {d.unit.upper() for d in spec.drops}
    yield from check_bases(spec, tables, set(aboard) | {f"{u}.{n}" for u in dropped for n in range(1, 61)})
    yield from check_pieces(spec, tables)
    yield from check_sides_manned(spec)
    yield from check_plans(spec)


def check_scenario(data: Any, base: Path | None = None, tables: Tables | None = None) -> list[str]:
    """Every problem of a scenario's data (parsed TOML), at once; empty when it is sound.

    ``base`` is the folder a relative ``tables`` path is read from; ``tables``, when given, are the
    tables to check against instead (a record's embedded copy of the file the scenario names).
    """
    try:
        spec = ScenarioSpec.model_validate(data)
    except ValidationError as exc:
        problems = [describe_error(e) for e in exc.errors()]
        problems += [p for p in _terrain_alone(data) if p not in problems]
        problems += [p for p in _checks_of_the_rest(data, exc, base, tables) if p not in problems]
    else:
        problems = _checks(spec, base, tables)
    return [with_rule(problem) for problem in problems]


_RULES = (  # a problem's field (its indices taken out) -> the rule it breaks; the first that matches
    (r"terrain\.(sections|storeys|points)|terrain\.sections", "skirmish.17"),
    (r"terrain\.doors", "skirmish.65"),
    (r"terrain\.windows", "skirmish.39"),
    (r"terrain\.type", "skirmish.19"),
    (r"units\.figures\.weapon", "skirmish.24"),
    (r"units\.figures\.type", "skirmish.9"),
    (r"units\.enters", "skirmish.45"),
    (r"vehicles", "skirmish.23"),
    (r"pieces\.crew", "skirmish.31"),
    (r"pieces", "skirmish.29"),
    (r"templates", "skirmish.15"),
    (r"drops", "skirmish.26"),
    (r"train", "skirmish.44"),
    (r"first_mover", "skirmish.10"),
    (r"victory|objectives|sides\.breaks_at", "skirmish.20"),
)


def with_rule(problem: str) -> str:
    """``problem`` naming the rule it breaks, when it does not yet: the rule of its field (``units[1].id``:
    the scenario's own, skirmish.2; a figure's weapon: the tables', skirmish.24; ...)."""
    if re.search(r"skirmish\.\d", problem):
        return problem
    field = re.sub(r"\[\d+\]|\.\d+(?=\.|$)", "", problem.split(":", 1)[0])
    rule = next((rule for pattern, rule in _RULES if re.match(pattern, field)), "skirmish.2")
    return f"{problem} ({rule})"


def _checks(spec: ScenarioSpec, base: Path | None, tables: Tables | None) -> list[str]:
    """The tables' problems and the cross-checks of a scenario whose fields all check."""
    problems: list[str] = []
    if tables is None:
        try:
            tables = _tables_for(spec, base)
        except TablesError as exc:
            problems += [f"tables: {spec.tables!r}: {p}" for p in exc.problems]
    problems += list(_semantic(spec, tables))
    return problems


def _checks_of_the_rest(data: Any, error: ValidationError, base: Path | None, tables: Tables | None) -> list[str]:
    """The cross-checks of what is left once the entries with field problems are set aside, so that a file
    with several mistakes lists them all at once.

    An entry of a list (``units[2]``) with a field problem is left out, a field with a default that does not
    check falls back to its default; the checks then run on the rest, their problems numbered as in the file.
    A problem naming an entry that was left out (by its id) is not listed: it may be that entry's doing. When
    a field that has no default does not check (the table's size, the sides), nothing more can be checked.
    """
    if not isinstance(data, dict):
        return []
    aside = _set_aside(data, error)
    if aside is None:
        return []
    rest, dropped, unknown, stood_in = aside
    gone: set[str] = set()
    if unknown:
        rest["table"] = _stand_in_table(data, unknown)
    kept: dict[str, list[int]] = {}
    for top, indices in dropped.items():
        kept[top] = [i for i in range(len(data[top])) if i not in indices]
        rest[top] = [data[top][i] for i in kept[top]]
        for i in indices:
            entry = data[top][i]
            if isinstance(entry, dict):
                gone.update(str(entry[key]) for key in ("id", "unit") if isinstance(entry.get(key), str))
                if top == "units" and isinstance(entry.get("side"), str):  # its side is not left without units
                    gone.add(entry["side"])
    try:
        spec: ScenarioSpec = _Rest.model_validate(rest)  # as few sides and units as are left
    except ValidationError:
        return []  # what is left does not stand alone: the field problems first

    def renumber(problem: str) -> str:
        for top, old in kept.items():

            def index(m: re.Match[str], old: list[int] = old, top: str = top) -> str:
                return f"{top}[{old[int(m[1])]}]"

            problem = re.sub(rf"\b{top}\[(\d+)\]", index, problem)
        return problem

    out = []
    for problem in _checks(spec, base, tables):
        if any(f"'{name}'" in problem or f"'{name}." in problem or f" {name}." in problem for name in gone):
            continue
        if any(problem.startswith(field) for field in stood_in):
            continue
        if unknown:  # measured against the stand-in: say so
            sizes = {"width": spec.table.width, "depth": spec.table.depth}
            why = "; ".join(
                f'table.{side} does not check, its terrain reaches {sizes[side]:g}"' for side in sorted(unknown)
            )
            problem = re.sub(r'off the (\S+" x \S+" )?table', f"off the table ({why})", problem)
        out.append(renumber(problem))
    return out


def _set_aside(
    data: dict[str, Any], error: ValidationError
) -> tuple[dict[str, Any], dict[str, set[int]], set[str], list[str]] | None:
    """What of ``data`` the cross-checks read, its field problems (``error``) set aside: ``(rest, dropped,
    unknown, stood_in)``: the data left, the entries of each list left out, the table's sizes that do not
    check, the fields read as a stand-in (nothing more is said of them); ``None`` when nothing can be checked."""
    rest = dict(data)
    dropped: dict[str, set[int]] = {}
    unknown: set[str] = set()  # the table's width or depth, when it does not check
    stood_in: list[str] = []
    for item in error.errors():
        loc = item["loc"]
        if not loc:
            return None
        top = str(loc[0])
        field = ScenarioSpec.model_fields.get(top)
        if field is None:  # a key the file should not have: leave it out
            rest.pop(top, None)
        elif len(loc) >= 2 and isinstance(loc[1], int) and isinstance(data.get(top), list):
            dropped.setdefault(top, set()).add(loc[1])
        elif not field.is_required():
            rest.pop(top, None)
        elif top == "table" and len(loc) == 2 and loc[1] in ("width", "depth") and isinstance(rest.get(top), dict):
            unknown.add(str(loc[1]))  # the rest is checked against a stand-in: see _stand_in_table
        elif len(loc) >= 2 and isinstance(rest.get(top), dict):
            inner = getattr(field.annotation, "model_fields", {}).get(str(loc[1]))
            if inner is None or (inner.is_required() and str(loc[1]) not in _STAND_INS):
                return None
            if inner.is_required():  # a stand-in (victory.turn_limit: 1000), and nothing said of it
                rest[top] = {**rest[top], str(loc[1]): _stand_in(str(loc[1]), data)}
                stood_in.append(f"{top}.{loc[1]}")
            else:
                rest[top] = {k: v for k, v in rest[top].items() if k != loc[1]}
        elif len(loc) == 1 and field.annotation is str:  # the title or name not a text: a stand-in
            rest[top] = ""
            stood_in.append(top)
        else:
            return None
    return rest, dropped, unknown, stood_in


class _Rest(ScenarioSpec):
    """A scenario's fields as the cross-checks of what is left read them: a side or a unit with a field problem
    is set aside, so as few as one of each may be left (the check says what is missing apart)."""

    sides: list[SideSpec] = Field(min_length=1, max_length=2)
    units: list[UnitSpec] = Field(default_factory=list)


_STAND_INS = ("attacker", "turn_limit")


def _stand_in(field: str, data: dict[str, Any]) -> Any:
    """What a required field of the victory that does not check is taken to be while the rest is checked."""
    if field == "turn_limit":
        return 1000
    sides = data.get("sides")
    first = sides[0] if isinstance(sides, list) and sides and isinstance(sides[0], dict) else {}
    return str(first.get("id", SIDE_IDS[0]))


def _stand_in_table(data: dict[str, Any], unknown: set[str]) -> dict[str, Any]:
    """The table the rest of a scenario is checked against when its width or depth does not check: that side
    as far as the terrain and objectives reach (they lie on the table, so it is at least that large; a man
    beyond them all is likely off it), the other side as given; a side nothing reaches along is as large as
    a table may be (480"), so nothing is said to be off it."""
    size = dict(data["table"])
    reach = {"width": 0.0, "depth": 0.0}
    for entry in [*(data.get("terrain") or []), *(data.get("objectives") or [])]:
        if not isinstance(entry, dict):
            continue
        points = [entry.get("at"), *(entry.get("shape") or []), *(entry.get("line") or [])]
        for point in points:
            if isinstance(point, list) and len(point) == 2 and all(isinstance(c, int | float) for c in point):
                reach["width"] = max(reach["width"], float(point[0]))
                reach["depth"] = max(reach["depth"], float(point[1]))
    for side in unknown:
        size[side] = reach[side] if 0 < reach[side] <= 480 else 480.0
    return size


def _terrain_alone(data: Any) -> Iterable[str]:
    """The terrain's own problems when the file's fields do not all check (so these are reported at once too)."""
    if not isinstance(data, dict) or not isinstance(data.get("terrain"), list):
        return
    try:
        size = TableSize.model_validate(data.get("table"))
        width, depth = size.width, size.depth
    except ValidationError:
        width = depth = math.inf  # no table to measure against: only the pieces' own shapes
    for i, raw in enumerate(data["terrain"]):
        try:
            piece = TerrainPiece.model_validate(raw)
        except ValidationError:
            continue  # its field errors are already listed
        yield from check_piece(f"terrain[{i}]", piece, width, depth)


def _tables_for(spec: ScenarioSpec, base: Path | None) -> Tables:
    if spec.tables == "default":
        return load_tables()
    path = Path(spec.tables)
    if not path.is_absolute() and base is not None:
        path = base / path
    return load_tables(path)


def shipped() -> list[tuple[str, str]]:
    """The shipped scenarios: (name, title), by name."""
    out = []
    for path in sorted(SCENARIOS_DIR.glob("*.toml")):
        data = read_toml(path)
        out.append((path.stem, str(data.get("title", ""))))
    return out


def resolve_path(name: str) -> Path:
    """The file a scenario name stands for: a shipped name, else a path; :class:`ScenarioError` if neither."""
    if not name.strip():
        names = ", ".join(n for n, _ in shipped())
        raise ScenarioError("scenario", [f"scenario: no scenario named (a shipped one: {names}; or a TOML file)"])
    shipped_path = SCENARIOS_DIR / f"{name}.toml"
    if "/" not in name and "\\" not in name and not name.endswith(".toml") and shipped_path.is_file():
        return shipped_path
    path = Path(name)
    if path.is_file():
        return path
    if path.is_dir():
        raise ScenarioError(name, [f"scenario: {name!r}: a folder, not a scenario file (name its .toml)"])
    if path.exists():  # /dev/zero, a FIFO: there, but read whole (or forever) it is no scenario
        raise ScenarioError(name, [f"scenario: {name!r}: a device or a pipe, not a scenario file (name its .toml)"])
    names = ", ".join(n for n, _ in shipped())
    raise ScenarioError(name, [f"scenario: {name!r}: no shipped scenario of that name ({names}) and no such file"])


def load_scenario(name: str) -> Scenario:
    """The checked scenario ``name`` (shipped name or path); raises :class:`ScenarioError` listing every problem."""
    path = resolve_path(name).resolve()
    info = path.stat()
    return _load(str(path), name, (info.st_mtime_ns, info.st_size))


@lru_cache(maxsize=32)
def _load(path: str, name: str, stamp: tuple[int, int]) -> Scenario:
    try:
        data = read_toml(Path(path))
    except TablesError as exc:
        raise ScenarioError(name, exc.problems) from None
    return scenario_from_data(data, name, Path(path).parent)


def scenario_from_data(
    data: dict[str, Any], source: str, base: Path | None = None, tables: Tables | None = None
) -> Scenario:
    """A checked scenario from parsed TOML; raises :class:`ScenarioError` listing every problem.

    ``tables``: the scenario's tables when they do not come from its ``tables`` path (an embedded copy).
    """
    problems = check_scenario(data, base, tables)
    if problems:
        raise ScenarioError(source, problems)
    spec = ScenarioSpec.model_validate(data)
    scenario = Scenario(spec, tables if tables is not None else _tables_for(spec, base), source, data)
    _SEEN[scenario.digest] = scenario
    while len(_SEEN) > 64:  # the scenarios of the games in this process, for their pictures
        _SEEN.pop(next(iter(_SEEN)))
    return scenario


_SEEN: dict[str, Scenario] = {}


def scenario_for_view(view: dict[str, Any]) -> Scenario:
    """The scenario a game's view was made from: the one of that digest this process has played
    (a record's embedded copy), else the file or shipped name the view gives as its source."""
    digest = view.get("stats", {}).get("scenario_sha256")
    found = _SEEN.get(str(digest))
    return found if found is not None else load_scenario(view["scenario"]["source"])


def embed_files(options: dict[str, Any] | Any) -> dict[str, Any] | None:
    """The scenario file of one's own (not a shipped one) that ``options`` name, and its tables file, as text
    for a record's header: ``{"scenario": {"file", "toml", "tables": {"file", "toml"} | None}}``; None for
    a shipped scenario. Raises :class:`ScenarioError` (every problem) for a file that does not load."""
    name = str(options["scenario"])
    path = resolve_path(name)
    if path.parent.resolve() == SCENARIOS_DIR.resolve():
        return None
    scenario = load_scenario(name)  # checked whole first: a file with problems is refused, listing them
    tables = None
    if scenario.spec.tables != "default":
        tables_path = Path(scenario.spec.tables)
        if not tables_path.is_absolute():
            tables_path = path.resolve().parent / tables_path
        tables = {"file": scenario.spec.tables, "toml": _text(tables_path, name)}
    return {"scenario": {"file": name, "toml": _text(path, name), "tables": tables}}


def _text(path: Path, name: str) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")  # the text without an editor's byte order mark, as read
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(name, [f"(file) {str(path)!r}: cannot read: {exc}"]) from None


def scenario_from_embedded(embedded: dict[str, Any] | Any, source: str) -> Scenario:
    """The scenario (and its tables) a record's header keeps (see :func:`embed_files`), read from that copy
    and not from the files, which may have changed or gone; :class:`ScenarioError` lists its problems."""
    import tomllib

    kept = embedded["scenario"]
    try:
        data = loads_toml(str(kept["toml"]))
        tables = None
        if kept.get("tables"):
            tables_data = loads_toml(str(kept["tables"]["toml"]))
            problems = check_tables(tables_data)
            if problems:
                raise ScenarioError(f"{source} (the record's copy of its tables)", problems)
            tables = Tables.model_validate(tables_data)
    except (tomllib.TOMLDecodeError, KeyError, TypeError) as exc:
        raise ScenarioError(f"{source} (the record's copy)", [f"(file): not the TOML it was: {exc}"]) from None
    return scenario_from_data(data, source, None, tables)
