"""A plain script of the B-17 raid's rules and doctrine: the yardstick for ``grognard simulate b17``.

Written here, in plain Python (the standard library only, no grognard, no numpy, no shapely), to play
what our engine plays with the book bots on both sides and default options, so ``bench/compare.py`` can
set our raids per second of CPU beside a script's that does only the raid's own work. Its raids are not
ours die for die (``random``'s dice, in its own order), but the same raid: the same table, rules and
doctrine, so their averages agree (``python bench/peers/b17.py --games 1000 --stats`` against
``grognard simulate b17 --engine reference``: American wins, bomb hits, bombers and fighters lost).

Readings played (docs/rules/b17.md; RULINGS B1-B19), at the defaults:
- A 108" x 60" table; the target x 100-108, y 24.5-35.5; flak within 6" of its edge (b17.2, 5, 11, 53).
- Four B-17s (3.13" x 4.37") in one diamond box at the minimum spacings, its leader on y=24, 30 or 36 at
  random; four Me-109s (1.24" x 1.37") in two elements. Models are rectangles: fuselage, wing, tailplane.
- Each turn every element not yet on rolls a d6 (even: it enters), 2d6 for the clock hour of entry (12 at
  the target end, 3 on the bombers' right; on the edge, heading for the centre), a d6 for altitude (first
  move: above +6", below -6"); the wingman a span and a half to the leader's right (b17.16-22).
- Fighters fly 14" (6" straight, then one turn of any angle), B-17s 10" (3", then up to 90 degrees), 2"
  less a damage point; a move is all of it; a centre off the table is out of the game (b17.24-29).
- A fighter may stop to attack a bomber whose footprint is within 4" of its nose: d6+3 (+1 directly
  head-on or from behind: within 15 degrees of the axis, flying within 15 degrees of at or after it)
  against d6+3; the bombers with a gun within 4" of the fighter fire at it there and at the end of its
  move (a damaged fighter's move 2" shorter), each gun of the pair chosen d6+1 against d6+2; after the
  bombers move, each fires at every fighter in range, a gun once an occasion (b17.30-47).
- Combat: the defender's score equal or higher, no damage; the attacker's at least double, destroyed;
  else an engine (a fighter's second damage downs it, a B-17's fifth) (b17.38-40).
- After the bombers' fire: flak once (bare d6 against bare d6) when a bomber first comes within 6" of the
  target, then four bomb rolls (bare d6s: tie no hit, double two hits) for a fuselage over the target;
  three hits win; the raid ends when no bomber is left to bomb, or at 40 turns (b17.49-60).
- Doctrine (b17.23, RULINGS B19; the doctrine's clauses edge, reach, gunners, variety): a fighter goes
  for the bomber nearest its nose: the attacks onto its axis (head-on or from behind) and a grid of
  paths (straight 6", half-way or all, then turns of 15 degrees) with the first stop in range and the
  closest; it takes the one meeting the fewest gunners (at the stop, the end, and one for each bomber
  whose next move may reach the end; a plain attack one more), never one leaving the table now or on
  the next 6" straight; with none it flies toward a spot varied ahead of or behind the bomber's next
  position, facing it, off the guns. Bombers: the leader flies for the target (aim varied 8" aside while
  60" off), the others hold the diamond behind it; within 30" each lines up its own run, looking a move
  ahead; after bombing, straight on. Gunners: the pair with more guns in range, nose and tail on a tie.

    python bench/peers/b17.py [--games 100] [--seed 1] [--stats]

Prints its raids per second of its own CPU time (``time.process_time``, start-up not counted), last.
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import time

LENGTH, WIDTH, TOL = 108.0, 60.0, 0.01
TX0, TY0, TX1, TY1 = 100.0, 24.5, 108.0, 35.5
CENTRE = (104.0, 30.0)
B17, ME109 = (3.13, 4.37, 0.313), (1.24, 1.37, 0.136)  # length, span, fuselage width
RANGE, EDGE_STRAIGHT = 4.0, 6.0
PAIRS = {"nose-tail": (0, 3), "waists": (1, 2)}  # guns: nose, left waist, right waist, tail


@functools.lru_cache(maxsize=8192)
def unit(h: float) -> tuple[float, float]:
    r = math.radians(h)
    return math.cos(r), math.sin(r)


def norm(h: float) -> float:
    h = round(math.remainder(h, 360.0), 2)
    return 180.0 if h == -180.0 else h + 0.0


def off(a: float, b: float) -> float:
    return abs(math.remainder(a - b, 360.0))


def rects(dims: tuple[float, float, float], bomber: bool) -> list[tuple[float, float, float]]:
    """(back, front, half width) of fuselage, wing and tailplane in the model's frame."""
    length, span, width = dims
    tail = span * (0.43 if bomber else 0.35)
    return [
        (-length / 2, length / 2, width / 2),
        ((0.08 - 0.09) * length, (0.08 + 0.09) * length, span / 2),
        (-length / 2, (-0.42 + 0.045) * length, tail / 2),
    ]


B17_RECTS, ME109_RECTS = rects(B17, True), rects(ME109, False)
B17_REACH = math.hypot(B17[0], B17[1]) / 2
ME109_REACH = math.hypot(ME109[0], ME109[1]) / 2


def to_model(px: float, py: float, x: float, y: float, c: float, s: float, parts: list) -> float:
    """Inches from a point to the nearest point of a model at (x, y) whose heading has cosine c, sine s."""
    dx, dy = px - x, py - y
    u, v = dx * c + dy * s, abs(-dx * s + dy * c)
    best = math.inf
    for back, front, half in parts:
        du = back - u if u < back else u - front if u > front else 0.0
        d = math.hypot(du, v - half) if v > half else abs(du)
        if d < best:
            best = d
    return best


class Plane:
    def __init__(self, label: str, bomber: bool, slot: int = 0) -> None:
        self.label, self.bomber, self.slot = label, bomber, slot
        self.x = self.y = self.h = 0.0
        self.damage, self.moves, self.alive, self.on = 0, 0, True, not bomber
        self.bombed = self.flak = False
        self.first = 0.0  # a fighter's first move: +6 above, -6 below

    def allowance(self) -> float:
        base = 10.0 if self.bomber else 14.0 + (self.first if self.moves == 0 else 0.0)
        return max(base - 2.0 * self.damage, 0.0)

    def guns(self) -> list[tuple[float, float]]:
        c, s = unit(self.h)
        w = -0.15 * B17[0]
        side = B17[2] / 2
        pts = ((B17[0] / 2, 0.0), (w, side), (w, -side), (-B17[0] / 2, 0.0))
        return [(self.x + f * c - left * s, self.y + f * s + left * c) for f, left in pts]


class Raid:
    def __init__(self, rng: random.Random) -> None:
        self.rng, uniform = rng, rng.random
        self.d6 = lambda: int(uniform() * 6.0) + 1
        self.bombers = [Plane(f"B{i + 1}", True, i) for i in range(4)]
        self.fighters = [Plane(f"F{i + 1}", False) for i in range(4)]
        for f in self.fighters:
            f.on = False
        self.elements = [self.fighters[0:2], self.fighters[2:4]]
        self.entered = [False, False]
        self.hits = self.turn = 0
        ly = (30.0, 24.0, 36.0)[rng.randrange(3)]
        box = [(15.57, ly), (12.0, ly + 4.2), (12.0, ly - 4.2), (8.42, ly)]
        for b, (x, y) in zip(self.bombers, box, strict=True):
            b.x, b.y, b.on = x, y, True

    # ------------------------------------------------------------------ measures
    def flying_bombers(self) -> list[Plane]:
        return [b for b in self.bombers if b.alive and b.on]

    def nose_range(self, x: float, y: float, h: float, b: Plane) -> float:
        c, s = unit(h)
        bc, bs = unit(b.h)
        return to_model(x + 0.62 * c, y + 0.62 * s, b.x, b.y, bc, bs, B17_RECTS)

    def guns_in_range(self, b: Plane, x: float, y: float, h: float) -> list[int]:
        if math.hypot(x - b.x, y - b.y) > RANGE + TOL + B17_REACH + ME109_REACH:
            return []
        c, s = unit(h)
        return [i for i, (gx, gy) in enumerate(b.guns()) if to_model(gx, gy, x, y, c, s, ME109_RECTS) <= RANGE + TOL]

    def gunners(self, x: float, y: float, h: float) -> int:
        """Per bomber its better pair's guns in range of a fighter standing at (x, y, h)."""
        total = 0
        for b in self.flying_bombers():
            guns = self.guns_in_range(b, x, y, h)
            if guns:
                total += max(sum(1 for g in pair if g in guns) for pair in PAIRS.values())
        return total

    def reaches(self) -> list[tuple[float, float, float, list[tuple[float, float]]]]:
        """For each bomber flying, the ends of its next moves within 15 degrees of ahead (clause reach), with
        a circle round them (centre, radius) that settles most fighters' ends at once."""
        out = []
        for b in self.flying_bombers():
            length = b.allowance()
            c, s = unit(b.h)
            ends = [(b.x + f * c - left * s, b.y + f * s + left * c) for f, left in bomber_ends(length)]
            mx, my = sum(e[0] for e in ends) / len(ends), sum(e[1] for e in ends) / len(ends)
            out.append((mx, my, max(math.dist((mx, my), e) for e in ends), ends))
        return out

    def in_reach(self, x: float, y: float, reaches: list) -> int:
        """The bombers whose next move may bring a fighter at (x, y) within 4" of a gun."""
        limit = RANGE + B17_REACH + ME109_REACH
        count = 0
        for mx, my, radius, ends in reaches:
            d = math.hypot(x - mx, y - my)
            if d <= limit - radius:
                count += 1
            elif d <= limit + radius:
                count += any((x - ex) ** 2 + (y - ey) ** 2 <= limit * limit for ex, ey in ends)
        return count

    # ------------------------------------------------------------------ the fighters' doctrine
    def fighter_move(self, f: Plane) -> tuple[float, float, str | None, float]:
        """(straight, turn, bomber attacked or None, stop) by the automaton (b17.23)."""
        length = f.allowance()
        minimum = min(6.0, length)
        bombers = self.flying_bombers()
        if not bombers:
            return minimum, 0.0, None, 0.0
        target = min(bombers, key=lambda b: self.nose_range(f.x, f.y, f.h, b))
        reaches = self.reaches()
        best = None
        for straight, turn, stop in self.attacks(f, target, length, minimum):
            path = Path(f, straight, turn, length)
            if path.leaves() is not None:
                continue
            x, y, h = path.at(stop)
            if self.nose_range(x, y, h, target) > RANGE + TOL:
                continue
            ex, ey, eh = path.at(length)
            if edge(ex, ey, eh):
                continue
            plain = not self.bonus(target, x, y, h)
            at_stop = self.gunners(x, y, h)
            met = at_stop + self.gunners(ex, ey, eh) + self.in_reach(ex, ey, reaches)
            key = (met + plain, plain, met, at_stop, stop)
            if best is None or key < best[0]:
                best = (key, (straight, turn, target.label, stop))
        if best is not None:
            return best[1]
        return self.intercept(f, target, length, minimum)

    def bonus(self, b: Plane, x: float, y: float, h: float) -> bool:
        where = math.degrees(math.atan2(y - b.y, x - b.x))
        if off(where, b.h) <= 15.0 + 1e-9 and off(h, b.h + 180.0) <= 15.0 + 1e-9:
            return True
        return off(where, b.h + 180.0) <= 15.0 + 1e-9 and off(h, b.h) <= 15.0 + 1e-9

    def attacks(self, f: Plane, b: Plane, length: float, minimum: float) -> list[tuple[float, float, float]]:
        out = []
        hx, hy = unit(f.h)
        bx, by = unit(b.h)
        for sign in (1.0, -1.0):  # head-on, from behind: the nose onto the bomber's axis
            phi = norm(b.h + (180.0 if sign > 0 else 0.0))
            px, py = unit(phi)
            for gap in (3.5, 2.5, 1.5, 0.8):
                nx, ny = b.x + bx * sign * (B17[0] / 2 + gap), b.y + by * sign * (B17[0] / 2 + gap)
                dx, dy = nx - px * 0.62 - f.x, ny - py * 0.62 - f.y
                det = hx * py - hy * px
                if abs(det) < 1e-9:  # already on the axis, flying along it: straight on to the stop
                    along = dx * hx + dy * hy
                    if abs(-dx * hy + dy * hx) <= TOL and 0 <= along <= length and off(f.h, phi) <= 1:
                        out.append((length, 0.0, math.floor(along * 100 + 1e-6) / 100))
                    continue
                s_, t_ = (dx * py - dy * px) / det, (hx * dy - hy * dx) / det
                if s_ >= minimum - TOL and t_ >= 0.05 and s_ + t_ <= length:
                    s2 = max(math.floor((s_ + 0.004) * 100 + 1e-6) / 100, minimum)
                    out.append((s2, norm(phi - f.h), round(s2 + t_, 2)))
        if math.hypot(f.x - b.x, f.y - b.y) > length + 0.62 + B17_REACH + RANGE + TOL:
            return out
        bc, bs = unit(b.h)
        for straight in sorted({minimum, round((minimum + length) / 2, 2), length}):
            for turn in [0.0] if length - straight < 0.02 else FIGHTER_TURNS:
                path = Path(f, straight, turn, length)
                if not path.nose_near(b.x, b.y, 0.62, B17_REACH + RANGE + 2 * TOL):
                    continue  # the nose comes nowhere near the bomber on this path
                first = closest = None
                near = (RANGE + B17_REACH + TOL) ** 2
                for k in range(int(length * 2) + 1):
                    d = k / 2
                    if d <= straight:
                        x, y, c, s = f.x + d * path.c, f.y + d * path.s, path.c, path.s
                    else:
                        x = f.x + straight * path.c + (d - straight) * path.c1
                        y = f.y + straight * path.s + (d - straight) * path.s1
                        c, s = path.c1, path.s1
                    if not on_table(x, y):
                        break
                    nx, ny = x + 0.62 * c, y + 0.62 * s
                    if (nx - b.x) ** 2 + (ny - b.y) ** 2 > near:
                        continue  # the nose is surely more than 4" from every part of the bomber
                    d = to_model(nx, ny, b.x, b.y, bc, bs, B17_RECTS)
                    if d <= RANGE + TOL and first is None:
                        first = k / 2
                    if closest is None or d < closest[0]:
                        closest = (d, k / 2)
                if first is not None:
                    out.append((straight, turn, first))
                    if closest is not None and closest[1] != first:
                        out.append((straight, turn, closest[1]))
        return out

    def intercept(self, f: Plane, b: Plane, length: float, minimum: float) -> tuple[float, float, None, float]:
        bx, by = unit(b.h)
        step = b.allowance()
        nx, ny = b.x + bx * step, b.y + by * step
        aims = []
        for sign, want in ((1.0, b.h + 180.0), (-1.0, b.h)):
            ahead, aside, lean = self.rng.uniform(6, 14), self.rng.uniform(-4, 4), self.rng.uniform(0, 6)
            x, y = nx + sign * bx * ahead - by * aside, ny + sign * by * ahead + bx * aside
            aims.append((min(max(x, 3.0), 105.0), min(max(y, 3.0), 57.0), want, lean))
        best = None
        reaches = self.reaches()
        for straight in sorted({minimum, round((minimum + length) / 2, 2), length}):
            for turn in [0.0] if length - straight < 0.02 else FIGHTER_TURNS:
                path = Path(f, straight, turn, length)
                x, y, h = path.at(length)
                gone = path.leaves() is not None or edge(x, y, h)
                miss = min(math.hypot(x - ax, y - ay) + 0.05 * off(h, w) + c for ax, ay, w, c in aims)
                key = (gone, miss + (0 if gone else 6.0 * (self.gunners(x, y, h) + self.in_reach(x, y, reaches))))
                if best is None or key < best[0]:
                    best = (key, (straight, turn, None, 0.0))
        assert best is not None
        return best[1]

    # ------------------------------------------------------------------ the bombers' doctrine
    def bomber_move(self, a: Plane, moving: list[str]) -> tuple[float, float]:
        length = a.allowance()
        minimum = min(3.0, length)
        paths = [Path(a, s, t, length) for s in sorted({minimum, round((minimum + length) / 2, 2), length})
                 for t in ([0.0] if length - s < 0.02 else BOMBER_TURNS)]  # fmt: skip
        if a.bombed:
            return min((p.leaves() is not None, abs(p.turn) - p.straight / 100, p.straight, p.turn) for p in paths)[2:]
        way_in = [b for b in self.flying_bombers() if not b.bombed]
        leader = way_in[0] if way_in else None
        near = math.dist((a.x, a.y), CENTRE) <= 30.0
        slot = None
        if leader is not None and leader is not a and not near:
            lx, ly = leader.x, leader.y
            if leader.label in moving:
                ux, uy = unit(leader.h)
                lx, ly = lx + ux * leader.allowance(), ly + uy * leader.allowance()
            back, side = (B17[0] + 4.5) / 2, (B17[1] + 4.5) / 2
            offsets = [(0.0, 0.0), (-back, side), (-back, -side), (-2 * back, 0.0)]
            ox, oy = offsets[a.slot][0] - offsets[leader.slot][0], offsets[a.slot][1] - offsets[leader.slot][1]
            c, s = unit(leader.h)
            slot = (lx + ox * c - oy * s, ly + ox * s + oy * c, leader.h)
        far = math.dist((a.x, a.y), CENTRE) > 60.0
        aim = (CENTRE[0], CENTRE[1] + self.rng.uniform(-8.0, 8.0)) if far and slot is None else CENTRE
        best = None
        for p in paths:
            x, y, h = p.at(length)
            d = math.dist((x, y), CENTRE)
            gone = p.leaves() is not None
            if over_target(x, y, h):
                row = (gone, 0, d)
            elif slot is not None:
                row = (gone, 2, math.dist((x, y), slot[:2]) + 0.05 * off(h, slot[2]))
            elif d <= 25.0:
                row = (gone, 1, d) if bombs_next(x, y, h, length, minimum) else (gone, 3, abs(d - length))
            else:
                want = math.degrees(math.atan2(aim[1] - y, aim[0] - x))
                row = (gone, 3, math.dist((x, y), aim) + 0.02 * off(h, want))
            key = (*row, p.straight, p.turn)
            if best is None or key < best:
                best = key
        assert best is not None
        return best[3], best[4]

    # ------------------------------------------------------------------ combat
    def hurt(self, p: Plane, attack: int, defence: int) -> None:
        if defence >= attack:
            return
        if attack >= 2 * defence or p.damage >= (4 if p.bomber else 1):
            p.alive = False
        else:
            p.damage += 1

    def fire_at(self, f: Plane, bombers: list[Plane], used: dict[str, list[int]]) -> None:
        for b in bombers:
            if not (f.alive and b.alive):
                continue
            guns = [g for g in self.guns_in_range(b, f.x, f.y, f.h) if g not in used.setdefault(b.label, [])]
            if not guns:
                continue
            pair = max(PAIRS.values(), key=lambda p: (sum(1 for g in p if g in guns), p == PAIRS["nose-tail"]))
            for g in pair:
                if g in guns and f.alive:
                    used[b.label].append(g)
                    self.hurt(f, self.d6() + 1, self.d6() + 2)

    def fly_fighter(self, f: Plane) -> None:
        straight, turn, target, stop = self.fighter_move(f)
        length = f.allowance()
        path = Path(f, straight, turn, length)
        f.moves += 1
        end = length
        if target is not None:
            f.x, f.y, f.h = path.at(stop)
            b = next(b for b in self.bombers if b.label == target)
            self.hurt(b, self.d6() + (4 if self.bonus(b, f.x, f.y, f.h) else 3), self.d6() + 3)
            before = f.damage
            self.fire_at(f, self.flying_bombers(), {})
            if not f.alive:
                return
            end = max(stop, length - 2.0 * (f.damage - before))
        leave = path.leaves()
        if leave is not None and leave <= end:
            f.on = False
            return
        f.x, f.y, f.h = path.at(end)
        self.fire_at(f, self.flying_bombers(), {})

    def play(self) -> str | None:
        while True:
            self.turn += 1
            for k, element in enumerate(self.elements):
                if not self.entered[k] and self.d6() % 2 == 0:
                    self.entered[k] = True
                    hour = self.d6() + self.d6()
                    first = (-6.0, -6.0, 0.0, 0.0, 6.0, 6.0)[self.d6() - 1]
                    x, y, h = entry(hour)
                    for i, f in enumerate(element):
                        f.x, f.y, f.h, f.on, f.first = x, y, h, True, first
                        if i:
                            f.x, f.y = wingman(x, y, h)
            for f in self.fighters:
                if f.alive and f.on and self.flying_bombers():
                    self.fly_fighter(f)
            moving = [b.label for b in self.flying_bombers()]
            for b in self.flying_bombers():
                straight, turn = self.bomber_move(b, moving)
                moving.remove(b.label)
                path = Path(b, straight, turn, b.allowance())
                if path.leaves() is not None:
                    b.on = False
                else:
                    b.x, b.y, b.h = path.at(path.length)
            used: dict[str, list[int]] = {}
            for b in self.flying_bombers():
                for f in self.fighters:
                    if f.alive and f.on:
                        self.fire_at(f, [b], used)
            for b in self.flying_bombers():
                over = over_target(b.x, b.y, b.h)
                if (over or in_flak(b)) and not b.flak:
                    b.flak = True
                    self.hurt(b, self.d6(), self.d6())
                if over and b.alive and not b.bombed:
                    b.bombed = True
                    for _ in range(4):
                        bomb, target = self.d6(), self.d6()
                        self.hits += 0 if bomb <= target else 2 if bomb >= 2 * target else 1
            gone = all(not f.alive or (not f.on and self.entered[i // 2]) for i, f in enumerate(self.fighters))
            if self.hits >= 5 and gone and any(not b.bombed for b in self.flying_bombers()):
                return "american"
            if all(b.bombed or not b.alive or not b.on for b in self.bombers):
                return "american" if self.hits >= 3 else "german"
            if self.turn >= 40:
                return None


class Path:
    """``straight`` inches along the heading, a turn, the rest of ``length`` (positions kept to 0.01")."""

    def __init__(self, a: Plane, straight: float, turn: float, length: float) -> None:
        self.x, self.y, self.h, self.straight, self.turn, self.length = a.x, a.y, a.h, straight, turn, length
        self.c, self.s = unit(a.h)
        self.h1 = norm(a.h + turn)
        self.c1, self.s1 = unit(self.h1)

    def at(self, d: float) -> tuple[float, float, float]:
        first = min(d, self.straight)
        x, y = self.x + first * self.c, self.y + first * self.s
        if d <= self.straight:
            return round(x, 2), round(y, 2), self.h
        rest = d - self.straight
        return round(x + rest * self.c1, 2), round(y + rest * self.s1, 2), self.h1

    def nose_near(self, px: float, py: float, half: float, within: float) -> bool:
        """Whether the nose (``half`` ahead of the centre) comes within ``within`` of (px, py) on either leg."""
        tx, ty = self.x + self.straight * self.c, self.y + self.straight * self.s
        rest = self.length - self.straight
        legs = (
            (self.x + half * self.c, self.y + half * self.s, tx + half * self.c, ty + half * self.s),
            (tx + half * self.c1, ty + half * self.s1, tx + (rest + half) * self.c1, ty + (rest + half) * self.s1),
        )
        for ax, ay, bx, by in legs:
            dx, dy = bx - ax, by - ay
            span = dx * dx + dy * dy
            t = min(max(((px - ax) * dx + (py - ay) * dy) / span, 0.0), 1.0) if span > 0 else 0.0
            if math.hypot(ax + t * dx - px, ay + t * dy - py) <= within:
                return True
        return False

    def leaves(self) -> float | None:
        """How far along the centre leaves the table, or None."""
        for start, stop in ((0.0, self.straight), (self.straight, self.length)):
            if stop <= start and start:
                continue
            x1, y1, _ = self.at(stop)
            if on_table(x1, y1):
                continue
            x0, y0, _ = self.at(start)
            c, s = (self.c1, self.s1) if start else (self.c, self.s)
            ts = [((LENGTH + TOL - x0) / c if c > 0 else (-TOL - x0) / c) if abs(c) > 1e-12 else math.inf]
            ts.append(((WIDTH + TOL - y0) / s if s > 0 else (-TOL - y0) / s) if abs(s) > 1e-12 else math.inf)
            return start + max(0.0, min(ts))
        return None


FIGHTER_TURNS = [float(t) for t in range(-180, 180, 15) if t]
BOMBER_TURNS = [float(t) for t in range(-90, 91, 10) if t]
_ENDS: dict[float, list[tuple[float, float]]] = {}


def bomber_ends(length: float) -> list[tuple[float, float]]:
    """A bomber's next moves within 15 degrees of ahead, (forward, left) in its frame (clause reach)."""
    minimum = min(3.0, length)
    if length not in _ENDS:
        rows = []
        for straight in sorted({minimum, round((minimum + length) / 2, 2), length}):
            for turn in [0.0] if length - straight < 0.02 else [float(t) for t in range(-90, 91, 10)]:
                rest = length - straight
                fwd, left = straight + rest * math.cos(math.radians(turn)), rest * math.sin(math.radians(turn))
                if abs(math.degrees(math.atan2(left, fwd))) <= 15.0:
                    rows.append((fwd, left))
        _ENDS[length] = rows
    return _ENDS[length]


def on_table(x: float, y: float) -> bool:
    return -TOL <= x <= LENGTH + TOL and -TOL <= y <= WIDTH + TOL


def edge(x: float, y: float, h: float) -> bool:
    """The next move's 6" straight ahead would leave the table (clause edge)."""
    c, s = unit(h)
    return not on_table(x + EDGE_STRAIGHT * c, y + EDGE_STRAIGHT * s)


def over_target(x: float, y: float, h: float) -> bool:
    c, s = unit(h)
    for f, left in ((1.565, 0.1565), (1.565, -0.1565), (-1.565, 0.1565), (-1.565, -0.1565)):
        px, py = x + f * c - left * s, y + f * s + left * c
        if not (TX0 - TOL <= px <= TX1 + TOL and TY0 - TOL <= py <= TY1 + TOL):
            return False
    return True


def bombs_next(x: float, y: float, h: float, length: float, minimum: float) -> bool:
    """One of the next moves from (x, y, h) ends over the target."""
    if math.hypot(max(TX0 - x, 0.0, x - TX1), max(TY0 - y, 0.0, y - TY1)) > length + B17_REACH:
        return False
    c, s = unit(h)
    for straight in sorted({minimum, round((minimum + length) / 2, 2), length}):
        for turn in [0.0] if length - straight < 0.02 else BOMBER_TURNS:
            rest = length - straight
            fwd, left = straight + rest * math.cos(math.radians(turn)), rest * math.sin(math.radians(turn))
            if over_target(x + fwd * c - left * s, y + fwd * s + left * c, h + turn):
                return True
    return False


def in_flak(b: Plane) -> bool:
    dx = max(TX0 - b.x, 0.0, b.x - TX1)
    dy = max(TY0 - b.y, 0.0, b.y - TY1)
    if math.hypot(dx, dy) - B17_REACH > 6.0 + 2 * TOL:
        return False
    c, s = unit(b.h)
    for bk, fr, w in B17_RECTS:  # a corner of a part within 6" of the target, or the target's corner near a part
        for f, left in ((bk, w), (bk, -w), (fr, w), (fr, -w)):
            px, py = b.x + f * c - left * s, b.y + f * s + left * c
            if math.hypot(max(TX0 - px, 0.0, px - TX1), max(TY0 - py, 0.0, py - TY1)) <= 6.0 + TOL:
                return True
    return any(to_model(x, y, b.x, b.y, c, s, B17_RECTS) <= 6.0 + TOL for x, y in ((TX0, TY0), (TX0, TY1)))


def entry(hour: int) -> tuple[float, float, float]:
    c, s = unit(-30.0 * hour)
    t = min(54.0 / abs(c) if abs(c) > 1e-12 else math.inf, 30.0 / abs(s) if abs(s) > 1e-12 else math.inf)
    return round(54.0 + t * c, 2), round(30.0 + t * s, 2), norm(-30.0 * hour + 180.0)


def wingman(x: float, y: float, h: float) -> tuple[float, float]:
    c, s = unit(h)
    for side in (-1.0, 1.0):
        px, py = x - side * 1.5 * ME109[1] * s, y + side * 1.5 * ME109[1] * c
        if on_table(px, py):
            return round(px, 2), round(py, 2)
    return round(min(max(px, 0.0), LENGTH), 2), round(min(max(py, 0.0), WIDTH), 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stats", action="store_true", help="also print the raids' averages")
    args = parser.parse_args()
    start = time.process_time()
    raids = [Raid(random.Random(args.seed * 1_000_003 + i)) for i in range(args.games)]
    winners = [r.play() for r in raids]
    seconds = time.process_time() - start
    if args.stats:
        n = len(raids)
        turns = sorted(r.turn for r in raids)
        print(f"american wins {winners.count('american')} of {n}, unfinished {winners.count(None)}; ", end="")
        print(f"end turn median {turns[n // 2]}; bomb hits mean {sum(r.hits for r in raids) / n:.2f}")
        lost_b = sum(1 for r in raids for b in r.bombers if not b.alive) / n
        lost_f = sum(1 for r in raids for f in r.fighters if not f.alive) / n
        print(f"  bombers lost mean {lost_b:.2f}; fighters lost mean {lost_f:.2f}")
    print(f"b17 peer: {args.games} raids in {seconds:.2f} s of CPU: {args.games / seconds:.1f} raids/s")


if __name__ == "__main__":
    main()
