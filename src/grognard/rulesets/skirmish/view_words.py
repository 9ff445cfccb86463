"""What a person reads of a skirmish from a seat's view (``SkirmishGame.view``, JSON-safe): the situation of a
decision and the table as text, for the terminal and the pages alike (``Face.situation``, ``Face.board``).

The view carries what the rules work out for them (``view_facts``: where each man stands, each vehicle's crew
and move, a unit's move, its men's shots, a melee's contacts, a burst's bands), so nothing here needs the game.
"""

from __future__ import annotations

from typing import Any

from grognard.core.engine import Decision
from grognard.core.words import counted

View = dict[str, Any]


def _figure(view: View, fid: str) -> dict[str, Any]:
    return next(f for f in view["figures"] if f["id"] == fid)


def _living(view: View, unit: str) -> list[dict[str, Any]]:
    """The living men of ``unit``, in figure order."""
    figures = {f["id"]: f for f in view["figures"]}
    members = next(u for u in view["units"] if u["id"] == unit)["figures"]
    return [figures[fid] for fid in members if figures[fid]["alive"]]


def where(view: View, f: dict[str, Any]) -> str:
    """A man's place in words: position, height, what he stands in."""
    if not f["on_table"]:
        return f"({f['x']:g}, {f['y']:g}), off the table"
    if f.get("aboard") is not None:
        return f"({f['x']:g}, {f['y']:g}) aboard {f['aboard']}"
    place = view["places"][f["id"]]
    parts = [f"({f['x']:g}, {f['y']:g})"]
    if place["height"]:
        parts.append(f'{place["height"]:g}" up')
    parts += [f"in {kind.replace('_', ' ')}" for kind in place["in"]]
    if place["river"]:
        parts.append("in the river")
    if place["pond"]:
        parts.append("swimming")
    if place["building"] is not None:
        parts.append(f"in building {place['building']}")
    return " ".join(parts)


def arms(f: dict[str, Any]) -> str:
    """The man's weapon in words, and the one he fires when it is another (a vehicle's MG)."""
    fires = f.get("fires", f["weapon"])
    if fires == f["weapon"]:
        return str(f["weapon"])
    return f"{f['weapon']}, manning {f['aboard']}'s {'MG' if fires == 'mg' else fires.replace('_', ' ')}"


def unit_line(view: View, label: str) -> str:
    unit = next(u for u in view["units"] if u["id"] == label)
    men = _living(view, label)
    lost = len(unit["figures"]) - len(men)
    head = f"{label} ({unit['side']}{', ' + unit['name'] if unit['name'] else ''}): {counted(len(men), 'man', 'men')}"
    if lost:
        head += f", {lost} lost"
    if not men:
        return head
    weapons: dict[str, int] = {}
    for f in men:
        weapons[f["weapon"]] = weapons.get(f["weapon"], 0) + 1
    head += " (" + ", ".join(f"{n} {w}" for w, n in weapons.items()) + ")"
    return f"{head}; {men[0]['id']} at {where(view, men[0])}"


def vehicle_lines(view: View, label: str) -> list[str]:
    """A vehicle in words: where it stands and faces, who drives, mans its MG and rides, what it may do."""
    v = next(v for v in view.get("vehicles", []) if v["id"] == label)
    terms = view["vehicle_terms"][label]
    riders = terms["riders"]
    driver = riders[0] if riders else None
    gunner = terms["gunner"]
    others = [fid for fid in riders if fid not in (driver, gunner)]
    lines = [
        f"{v['id']} ({v['side']} {v['kind'].replace('_', ' ')}{', ' + v['name'] if v['name'] else ''}) at "
        f"({v['x']:g}, {v['y']:g}) facing {v['heading']:g} degrees" + (", in the river" if terms["river"] else ""),
        f"  driver {driver or 'none'}"
        + (f", MG {gunner or 'unmanned'}" if "mg" in v["weapons"] else "")
        + f"; riders: {', '.join(others) or 'none'} ({len(riders)} of {terms['carries']} aboard)",
        f'drive up to {terms["move"]:g}" (a road inch costs {terms["road_cost"]:g}); '
        "load or unload takes half of it, before or after: drive V [load|unload MEN then] X,Y [then unload MEN]",
    ]
    gun = terms["tank_gun"]
    if gun is not None:
        lines.insert(2, f"  {gun.replace('_', ' ')}: laid by {terms['layer'] or 'nobody (silent)'}")
    if terms["towed"]:
        towed = terms["towed"][0]
        lines.append(f"tows {towed}: drive V X,Y then unhitch {towed} [CREW] (half the move)")
    elif terms["tows"]:
        lines.append(f"tows {', '.join(terms['tows'])}: drive V hitch PIECE [CREW] then X,Y (half the move)")
    return lines


def situation(view: View, decision: Decision) -> list[str]:
    """The lines a person needs for ``decision``: the unit, its men, what they can fire at."""
    kind, _, label = decision.id.partition(" ")
    head = f"Turn {view['turn']}, {view['phase']} - {decision.seat}: {decision.prompt}"
    if kind == "melee":
        lines = [head]
        for fid, foes in view["contacts"][label].items():
            f = _figure(view, fid)
            lines.append(
                f"  {fid} {f['type']} {f['weapon']} at {where(view, f)}, touching {', '.join(foes) or 'nobody'}"
            )
        lines.append("both sides missed: stay (the melee goes on next turn) or retreat (a full move away)")
        return lines
    if kind == "burst":
        return [head, *_burst_lines(view, label)]
    if kind == "drive":
        return [head, *vehicle_lines(view, label)]
    lines = [head, unit_line(view, label)]
    for f in _living(view, label)[:10]:
        extra = f" (hit {f['hits']} this turn)" if f["hits"] else ""
        lines.append(f"  {f['id']} {f['type']} {arms(f)} at {where(view, f)}{extra}")
    if kind == "move":
        lines.append(f'move up to {view["moving"][label]:g}" (a path: at most two waypoints, then the end point)')
        for piece in view.get("pieces", []):
            if piece["crew"] == label and piece["hitched"] is None:
                lines.append(
                    f"or turn piece {piece['id']} (facing {piece['heading']:g}): turn {label} {piece['id']} "
                    "HEADING|X,Y (your whole move; it cannot fire this turn)"
                )
        side = next(u for u in view["units"] if u["id"] == label)["side"]
        enemy = sorted({f["unit"] for f in view["figures"] if f["side"] != side and f["alive"] and f["on_table"]})
        if enemy:
            lines.append("enemy: " + "; ".join(unit_line(view, u) for u in enemy))
    elif kind == "fire":
        for fid, shots in view["shots"][label].items():
            if shots:
                text = ", ".join(f'{t} {r:g}" {h}+{" cover" if c else ""}' for t, r, h, c in shots)
                lines.append(f"  {fid} can fire at {text}")
    return lines


def _burst_lines(view: View, by: str) -> list[str]:
    """A piece's or a mortar or bazooka man's burst decision: where it stands, its bands, the enemy in reach."""
    b = view["burst_terms"][by]
    weapon = b["weapon"]
    if b["kind"] == "piece":
        piece = next(p for p in view.get("pieces", []) if p["id"] == by)
        lines = [
            f"  piece {by} ({weapon.replace('_', ' ')}) at ({piece['x']:g}, {piece['y']:g}), "
            f"served by {', '.join(b['crew'])}"
        ]
        if b["arc"] is not None:
            lines.append(
                f"  facing {piece['heading']:g} degrees: it fires {b['arc']:g} degrees either side of that "
                "(turning it is its crew's move: turn CREW PIECE HEADING|X,Y, and it cannot fire that turn)"
            )
    elif b["kind"] == "vehicle":
        v = next(v for v in view.get("vehicles", []) if v["id"] == by)
        lines = [f"  {by}'s {weapon.replace('_', ' ')} at ({v['x']:g}, {v['y']:g}), laid by {b['layer'] or 'nobody'}"]
    else:
        f = _figure(view, by)
        lines = [f"  {by} {f['type']} with a {weapon} at {where(view, f)}"]
    low = 0.0
    bands = []
    for to, ranging, hit_on in b["bands"]:
        bands.append(f'{low:g}-{to:g}": ranging {ranging} or less, then {hit_on}+ each man under it')
        low = to
    lines.append("  " + "; ".join(bands))
    lines.append(
        f'  template: {b["burst"]} ({b["across"]:g}" across; shapes '
        + ", ".join(b["shapes"])
        + ("); indirect fire: any man of the side must see the aim point" if b["indirect"] else "); direct fire")
    )
    near = [f'{eid} {d:.1f}"' for eid, d in b["near"]]
    lines.append("  enemy in range: " + (", ".join(near) or "none"))
    lines.append("  order: burst BY X,Y [ANGLE [TEMPLATE]], or burst BY hold")
    return lines


def board(view: View) -> str:
    """The whole table as text: every unit, its men and where they stand."""
    lines = [f"{view['scenario']['title']}: turn {view['turn']}, {view['phase']}"]
    for label in sorted(u["id"] for u in view["units"]):
        lines.append(unit_line(view, label))
    for label in sorted(v["id"] for v in view.get("vehicles", [])):
        lines += vehicle_lines(view, label)[:2]
    if view.get("train") is not None:
        lines.append(f'the train: its head {view["train"]:g}" along railway {view["railway"]}')
    lines.append("terrain (inches; x east, y north from the south-west corner):")
    for k, piece in enumerate(view["pieces_of_terrain"]):
        name = f"{piece['kind'].replace('_', ' ')} {piece['id'] or f'#{k + 1}'}"
        if piece["height"] is not None:
            name += f', {piece["height"]:g}" high'
        if piece["width"] is not None:
            name += f', {piece["width"]:g}" wide'
        lines.append(f"  {name}: {_where(piece['shape'], piece['line'], piece['at'], piece['radius'])}")
    for door in sorted(view.get("doors", []), key=lambda d: d["id"]):
        lines.append(f"  door {door['id']}: {'blown off' if door['blown'] else 'open' if door['open'] else 'closed'}")
    for sid, section in sorted(view["structures"]["sections"].items()):
        storeys = " / ".join(str(p) for p in section["points"])
        lines.append(f"  section {sid}: {storeys} points (first storey first): {section['state']}")
    for _bid, bridge in sorted(view["structures"]["bridges"].items()):
        lines.append(f"  bridge {bridge['text']}")
    for wire in view.get("wires", []):
        lines.append(f"  barbed wire (laid): {_where(None, wire, None, None)}")
    for trap in view.get("traps", []):
        lines.append(f"  tank trap (set): {_where(None, None, trap, None)}")
    for gun in sorted(view.get("pieces", []), key=lambda p: p["id"]):
        lines.append(
            f"  piece {gun['id']} ({gun['weapon'].replace('_', ' ')}) at ({gun['x']:g}, {gun['y']:g}), "
            f"crew {gun['crew'] or 'none (abandoned)'}"
        )
    for objective in view["scenario"]["objectives"]:
        lines.append(
            f"objective {objective['id']} ({objective['name'] or objective['id']}): "
            f"{_where(objective['shape'], None, None, None)}"
        )
    return "\n".join(lines)


def _where(shape: Any, line: Any, at: Any, radius: Any) -> str:
    """Where a piece lies, in a few words: a shape's extent, a line's points, or a point."""
    if shape:
        xs, ys = [p[0] for p in shape], [p[1] for p in shape]
        return f"x {min(xs):g}-{max(xs):g}, y {min(ys):g}-{max(ys):g}"
    if line:
        return " to ".join(f"({x:g}, {y:g})" for x, y in line)
    if at is not None:
        return f"at ({at[0]:g}, {at[1]:g})" + (f', radius {radius:g}"' if radius else "")
    return "?"
