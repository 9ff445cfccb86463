"""The table being drawn in the editor as the game's face draws it: a view made from the scenario's data as it
stands (problems and all: each entry that reads is drawn, one that does not is left out), given to
``face.scene``, so the editor and the game show one table.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import ValidationError
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from grognard.rulesets.skirmish.face import scene
from grognard.rulesets.skirmish.forces import vehicle_footprint
from grognard.rulesets.skirmish.ground import storey_thresholds
from grognard.rulesets.skirmish.schema import (
    PieceSpec,
    StoreySpec,
    TableSize,
    TerrainPiece,
    UnitSpec,
    VehicleSpec,
)
from grognard.rulesets.skirmish.tables import load_tables
from grognard.rulesets.skirmish.terrain import _feature

BRIDGE_WIDTH = 2.0  # a bridge's deck drawn this wide when it gives no width


def _coords(geometry: BaseGeometry) -> Any:
    if isinstance(geometry, Polygon):
        return [[round(x, 2), round(y, 2)] for x, y in geometry.exterior.coords]
    if geometry.geom_type in ("LineString", "LinearRing"):
        return [[round(x, 2), round(y, 2)] for x, y in geometry.coords]
    return [_coords(g) for g in getattr(geometry, "geoms", [])]


def _piece(raw: Any, index: int) -> dict[str, Any] | None:
    """One terrain piece as the view gives it, or ``None`` when it does not read (its problem is listed)."""
    try:
        piece = TerrainPiece.model_validate(raw)
        if piece.kind == "bridge" and piece.line is not None and len(piece.line) >= 2:
            from shapely.geometry import LineString

            kinds = load_tables().bridges.types
            abreast = kinds[piece.type].states[0].abreast * load_tables().sight.base.value if piece.type in kinds else 0
            deck = LineString(piece.line).buffer((piece.width or abreast or BRIDGE_WIDTH) / 2, cap_style="flat")
            ident = piece.id or f"bridge{index + 1}"
            return {"kind": "bridge", "id": ident, "shape": _coords(deck), "standing": piece.built}
        feature = _feature(piece, index)
    except (ValidationError, ValueError, TypeError, AssertionError, KeyError):
        return None
    item: dict[str, Any] = {"kind": piece.kind, "id": feature.id, "shape": _coords(feature.shape)}
    if feature.line is not None:
        item["line"] = _coords(feature.line)
    if piece.height is not None or piece.kind == "hill":
        item["height"] = piece.height or 0.0
    openings = [{"id": d.id or f"{feature.id}.d{k + 1}", "at": list(d.at), "width": d.width, "door": True}
                for k, d in enumerate(piece.doors)]  # fmt: skip
    openings += [{"id": f"{feature.id}.w{k + 1}", "at": list(w.at), "width": w.width, "door": False}
                 for k, w in enumerate(piece.windows)]  # fmt: skip
    if openings:
        item["openings"] = openings
    if piece.kind == "castle_wall" and piece.sections:
        item["sections"] = [
            {"id": s.id, "line": [list(p) for p in s.line or []], "points": "?"} for s in piece.sections
        ]
    if piece.kind in ("building", "tower"):
        sections = piece.sections or []
        item["sections"] = [
            {
                "id": s.id,
                "shape": _closed([list(p) for p in (s.shape or piece.shape or [])]),
                "storeys": [st.model_dump(exclude_none=True) for st in s.storeys],
            }
            for s in sections
        ] or [{"id": feature.id, "shape": item["shape"], "storeys": [{}]}]
    return item


def _closed(ring: list[list[float]]) -> list[list[float]]:
    return ring + ring[:1] if ring and ring[0] != ring[-1] else ring


def _size(data: dict[str, Any]) -> tuple[float, float]:
    try:
        size = TableSize.model_validate(data.get("table"))
        return size.width, size.depth
    except ValidationError:
        return 48.0, 48.0


def editor_view(data: Any) -> dict[str, Any]:
    """The view ``face.scene`` draws, made from the scenario's data as it stands."""
    data = data if isinstance(data, dict) else {}
    width, depth = _size(data)
    terrain = [p for k, raw in enumerate(_list(data, "terrain")) if (p := _piece(raw, k)) is not None]
    objectives = []
    for raw in _list(data, "objectives"):
        shape = raw.get("shape") if isinstance(raw, dict) else None
        if isinstance(shape, list) and len(shape) >= 3 and all(_point(p) for p in shape):
            objectives.append({"id": str(raw.get("id", "")), "name": str(raw.get("name", "")), "shape": shape})
    figures: list[dict[str, Any]] = []
    units: list[dict[str, Any]] = []
    for raw in _list(data, "units"):
        try:
            unit = UnitSpec.model_validate(raw)
        except ValidationError:
            continue
        ids = [f"{unit.id}.{n + 1}" for n in range(len(unit.figures))]
        units.append({"id": unit.id, "side": unit.side, "name": unit.name, "enters": unit.enters, "figures": ids})
        for man, fig in zip(ids, unit.figures, strict=True):
            x, y = fig.at
            on = 0 <= x <= width and 0 <= y <= depth
            figures.append(
                {"id": man, "unit": unit.id, "side": unit.side, "type": fig.type, "weapon": fig.weapon, "x": x, "y": y}
                | {"alive": True, "on_table": on}
            )
    vehicles, outlines = _vehicles(data)
    aboard: dict[str, str] = {}
    for v in _list(data, "vehicles"):
        if isinstance(v, dict) and isinstance(v.get("id"), str):
            for key in ("crew", "passengers"):
                names = v.get(key)
                aboard.update({n: v["id"] for n in names if isinstance(n, str)} if isinstance(names, list) else {})
    for f in figures:  # drawn with their vehicle, as in the game
        if f["unit"] in aboard or f["id"] in aboard:
            f["aboard"] = aboard.get(f["unit"], aboard.get(f["id"]))
    pieces = []
    for raw in _list(data, "pieces"):
        try:
            gun = PieceSpec.model_validate(raw)
        except ValidationError:
            continue
        where = {"x": gun.at[0], "y": gun.at[1], "heading": gun.heading}
        pieces.append({"id": gun.id.upper(), "weapon": gun.weapon, **where, "crew": gun.crew, "hitched": gun.hitched})
        kind = load_tables().artillery.get(gun.weapon)
        pieces[-1]["arc"] = kind.arc if kind is not None and kind.arc is not None else 0.0
    title = data.get("title")
    return {
        "terrain": {"width": width, "depth": depth, "pieces": terrain},
        "structures": {
            "sections": _points(terrain),
            "bridges": {p["id"]: {"standing": p["standing"]} for p in terrain if p["kind"] == "bridge"},
        },
        "scenario": {"title": title if isinstance(title, str) else "", "objectives": objectives},
        "figures": figures,
        "units": units,
        "vehicles": vehicles,
        "vehicle_shapes": outlines,
        "pieces": pieces,
    }


def _points(terrain: list[dict[str, Any]]) -> dict[str, Any]:
    """Each building section's storeys' points at the start, as the game's view gives them (the tables' defaults
    where the scenario gives none)."""
    tables = load_tables()
    out: dict[str, Any] = {}
    for piece in terrain:
        for sec in piece.get("sections") or [] if piece["kind"] in ("building", "tower") else []:
            storeys = [StoreySpec.model_validate(st) for st in sec.get("storeys") or [{}]]
            out[sec["id"]] = {
                "points": [storey_thresholds(st, tables, piece["kind"])[0] for st in storeys],
                "state": "whole",
            }
    return out


def _vehicles(data: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    kinds = load_tables().vehicles
    vehicles, outlines = [], []
    for raw in _list(data, "vehicles"):
        try:
            v = VehicleSpec.model_validate(raw)
        except ValidationError:
            continue
        kind = getattr(kinds, v.kind, None)
        length, breadth = (kind.length, kind.width) if kind is not None and hasattr(kind, "length") else (3.0, 1.2)
        foot = vehicle_footprint(v.at, v.heading, length, breadth)
        vehicles.append({"id": v.id.upper(), "kind": v.kind, "side": v.side, "name": v.name, "x": v.at[0], "y": v.at[1],
                         "heading": v.heading, "weapons": v.weapons, "aboard": []})  # fmt: skip
        outlines.append({"id": v.id.upper(), "kind": v.kind, "side": v.side, "shape": _coords(foot), "aboard": []})
    return vehicles, outlines


def _list(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    return value if isinstance(value, list) else []


def _point(p: Any) -> bool:
    return (
        isinstance(p, list | tuple)
        and len(p) == 2
        and all(isinstance(c, int | float) and not isinstance(c, bool) and math.isfinite(c) for c in p)
    )


def editor_scene(data: Any) -> dict[str, Any]:
    """The face's scene of the table being drawn (nobody's units ringed)."""
    return scene(editor_view(data), ())
