"""A plain script of the Omaha Beach rules and doctrine: the yardstick for ``grognard simulate omaha``.

Written here, in plain Python (the standard library only, no grognard), to play what our engine plays
with the book bots on both sides and default options, so ``bench/compare.py`` can set our games per
second of CPU beside a script's that does only the game's own work. Its games are not ours die for die
(it rolls ``random``'s dice, in its own order), but they are the same game: the same table, rules and
doctrine, so their averages agree (``python bench/peers/omaha.py --games 2000 --stats`` against
``grognard simulate omaha --engine reference``: median end turn, losses, squads sent back).

Readings played (docs/rules/omaha.md; RULINGS O1-O20), at the defaults:
- 6 Germans, 18 Americans; a beach 144" wide, 6" of water, 24" of beach to the sea wall (y=24), a 4"
  obstacle band (y 24-28), bunker fronts at y=29, 3" x 2" footprints, contact within 1" (omaha.5, O3b).
- Obstacle sections 6" (d6: 1 none, 2-5 one, 6 two), rolled at setup; bunker sections 8", German k owns
  sections 3k-2..3k and puts his two bunkers behind the most obstacles (random among ties) (omaha.8, 9, 27).
- A squad lands at its zone's centre, the landing die in inches out to sea (O4); no deep water.
- A move is a straight line, 6" with water inches double (O7), stops at the wall from below (O14), may
  cross the band only through empty sections (omaha.15); positions kept to 0.01", the tolerance 0.01".
- Clear / shoot (at the bunker in the section in front, at or past the wall, O9) / assault (in contact,
  any 6 destroys): one die a figure, 6s; bunkers 4d6 (2d6 with one man), 5-6 kills; artillery 5-6 lands
  then 4d6, 4-6 kills, never past the wall (O11); morale: a d6 per man lost this turn, 12+ sends back.
- Victory after every phase: every exit open (its bunker knocked out, its obstacle section empty, O17);
  100 turns at most; fresh squads unlimited.
- Doctrine (omaha.27-28): every German weapon at the squad furthest up the beach (more figures at the
  start of the turn's fire, then lower number, on a tie); Americans rush the wall (by a cleared section
  within 8" while a bunker holds), shoot with 7+ figures, clear with fewer, cross where clear toward the
  nearest bunker and assault in contact, head for a blocked exit when no bunker holds.

    python bench/peers/omaha.py [--games 300] [--seed 1] [--stats]

Prints its games per second of its own CPU time (``time.process_time``, start-up not counted), last.
"""

from __future__ import annotations

import argparse
import math
import random
import time

TOL, WALL, BAND_END, FRONT, WATER, GROUND = 0.01, 24.0, 28.0, 29.0, 6.0, 4.0
OBS_W, BUNKER_W, ZONE_W, MOVE = 6.0, 8.0, 8.0, 6.0


def snap(v: float) -> float:
    return round(v, 2) + 0.0


class Beach:
    def __init__(self, rng: random.Random, germans: int = 6) -> None:
        uniform = rng.random
        d6 = self.d6 = lambda: int(uniform() * 6.0) + 1
        self.rng, self.germans = rng, germans
        self.width = germans * 3 * ZONE_W
        self.obstacles = [(0, 1, 1, 1, 1, 2)[d6() - 1] for _ in range(round(self.width / OBS_W))]
        self.bunkers: dict[int, list[int]] = {}  # section -> [defenders, active]
        for k in range(germans):
            pairs = [(3 * k, 3 * k + 1), (3 * k, 3 * k + 2), (3 * k + 1, 3 * k + 2)]
            cover = [sum(self.obstacles[self.exit(s)] for s in p) for p in pairs]
            best = [p for p, c in zip(pairs, cover, strict=True) if c == max(cover)]
            for s in best[rng.randrange(len(best))]:
                self.bunkers[s] = [4, 1]
        self.exits = {s: self.exit(s) for s in self.bunkers}
        self.squads: list[list[float] | None] = [None] * (3 * germans)  # [x, y, figures, lost]
        self.turn, self.stats = 0, {"american_losses": 0, "sent_back": 0, "wiped_out": 0}

    def exit(self, section: int) -> int:
        return min(max(math.floor((section * BUNKER_W + BUNKER_W / 2) / OBS_W), 0), len(self.obstacles) - 1)

    def obs_at(self, x: float) -> int:
        return min(max(math.floor(x / OBS_W), 0), len(self.obstacles) - 1)

    def bunker_at(self, x: float) -> int:
        return min(max(math.floor(x / BUNKER_W), 0), 3 * self.germans - 1)

    def active(self) -> list[int]:
        return [s for s in sorted(self.bunkers) if self.bunkers[s][1]]

    def won(self) -> bool:
        return all(not b[1] and self.obstacles[self.exits[s]] == 0 for s, b in self.bunkers.items())

    # -------------------------------------------------------------- moving
    def band(self, x0: float, y0: float, x1: float, y1: float) -> range:
        low, high = min(y0, y1), max(y0, y1)
        if high <= WALL + TOL or low >= BAND_END - TOL:
            return range(0)
        if y1 == y0:
            xa, xb = x0, x1
        else:
            ta, tb = (max(low, WALL) - y0) / (y1 - y0), (min(high, BAND_END) - y0) / (y1 - y0)
            xa, xb = x0 + ta * (x1 - x0), x0 + tb * (x1 - x0)
        return range(self.obs_at(min(xa, xb)), self.obs_at(max(xa, xb)) + 1)

    def legal(self, x0: float, y0: float, x: float, y: float) -> bool:
        if not (-TOL <= x <= self.width + TOL and -WATER - TOL <= y <= BAND_END + GROUND + TOL):
            return False
        if cost(x0, y0, x, y) > MOVE + TOL or (y0 < WALL - TOL and y > WALL + TOL):
            return False
        return all(self.obstacles[i] == 0 for i in self.band(x0, y0, x, y))

    def reach(self, x0: float, y0: float, tx: float, ty: float) -> tuple[float, float]:
        """The legal point furthest along the line to (tx, ty): table, wall, 6" (water double), obstacles."""
        dx, dy = tx - x0, ty - y0
        length = math.hypot(dx, dy)
        if length < 1e-9:
            return x0, y0
        t = 1.0
        for lo, hi, start, delta in ((0.0, self.width, x0, dx), (-WATER, BAND_END + GROUND, y0, dy)):
            if delta:
                t = min(t, ((hi if delta > 0 else lo) - start) / delta)
        if y0 < WALL - TOL and dy > 0 and y0 + t * dy > WALL:
            t = min(t, (WALL - y0) / dy)
        if cost(x0, y0, x0 + t * dx, y0 + t * dy) > MOVE:
            t = allowance(y0, dy, length)
        point = snap(x0 + t * dx), snap(y0 + t * dy)
        if self.legal(x0, y0, *point):
            return point
        lo, hi = 0.0, t
        for _ in range(30):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if self.legal(x0, y0, snap(x0 + mid * dx), snap(y0 + mid * dy)) else (lo, mid)
        x, y = snap(x0 + lo * dx), snap(y0 + lo * dy)
        return (x, y) if self.legal(x0, y0, x, y) else (x0, y0)

    def toward(self, sq: list[float], tx: float, ty: float) -> tuple[float, float]:
        """As far as allowed toward (tx, ty), round the obstacles by a cleared section."""
        x, y = sq[0], sq[1]
        if y >= WALL - TOL and any(self.obstacles[i] for i in self.band(x, y, tx, ty)):
            own = self.obs_at(x)
            far = BAND_END if ty >= BAND_END else WALL
            clear = [i for i, c in enumerate(self.obstacles) if c == 0]
            if y < BAND_END and self.obstacles[own] == 0:
                tx, ty = clamp(own, tx), far
            elif not clear:
                tx, ty = x, y
            else:
                best = min(clear, key=lambda i: abs(x - (i * OBS_W + 3)) + abs(tx - (i * OBS_W + 3)))
                tx, ty = (clamp(best, x), y) if own != best else (clamp(best, tx), far)
        return self.reach(x, y, tx, ty)

    # -------------------------------------------------------------- the doctrine
    def cleared_near(self, x: float) -> float | None:
        gaps = [(abs(i * OBS_W + 3 - x), i * OBS_W + 3) for i, c in enumerate(self.obstacles) if c == 0]
        gaps = [g for g in gaps if g[0] <= 8.0]
        if not gaps:
            return None
        best = min(gaps, key=lambda g: g[0])[1]
        return None if self.obs_at(x) == self.obs_at(best) else best

    def blocked_exit(self, x: float) -> float | None:
        exits = [
            self.exits[s] * OBS_W + 3 for s, b in self.bunkers.items() if not b[1] and self.obstacles[self.exits[s]]
        ]
        return min(exits, key=lambda m: abs(m - x)) if exits else None

    def contact(self, sq: list[float]) -> int | None:
        if sq[1] < FRONT - 1.0 - 2 * TOL:
            return None
        front = self.bunker_at(sq[0])
        for s in [front] + [s for s in self.bunkers if s != front]:
            if s in self.bunkers and self.bunkers[s][1] and rect_distance(sq[0], sq[1], s) <= 1.0 + TOL:
                return s
        return None

    def orders(self, sq: list[float]) -> tuple[str, object]:
        """("move", (x, y)) or ("fight", (clear, shoot, assault)) for one squad (omaha.28)."""
        x, y, figures = sq[0], sq[1], int(sq[2])
        active = self.active()
        if y < WALL - TOL:
            follow = self.cleared_near(x) if active else None
            return "move", self.reach(x, y, x if follow is None else follow, WALL)
        if y > WALL + TOL:
            if self.contact(sq) is not None:
                return "fight", (0, 0, figures)
            if active:
                near = min(active, key=lambda s: rect_distance(x, y, s))
                return "move", self.toward(sq, near * BUNKER_W + 4, BAND_END)
            blocked = self.blocked_exit(x)
            return ("move", self.toward(sq, blocked, WALL)) if blocked is not None else ("fight", (0, 0, 0))
        in_front = self.obstacles[self.obs_at(x)]
        if in_front == 0 and active:
            near = min(active, key=lambda s: rect_distance(x, y, s))
            to = self.toward(sq, near * BUNKER_W + 4, BAND_END)
            if to != (x, y):
                return "move", to
        follow = self.cleared_near(x) if active and in_front else None
        if follow is not None:
            return "move", self.toward(sq, follow, WALL)
        bunker = self.bunkers.get(self.bunker_at(x))
        shoot_ok = bunker is not None and bunker[1]
        if in_front:
            return "fight", ((0, figures, 0) if shoot_ok and figures >= 7 else (figures, 0, 0))
        if shoot_ok:
            return "fight", (0, figures, 0)
        blocked = self.blocked_exit(x)
        return ("move", self.toward(sq, blocked, WALL)) if blocked is not None else ("fight", (0, 0, 0))

    def target(self, artillery: bool) -> int | None:
        best, key = None, None
        for i, sq in enumerate(self.squads):
            if sq is None or (artillery and sq[1] > WALL + TOL):
                continue
            k = (sq[1], sq[2] + sq[3])
            if key is None or k > key:
                best, key = i, k
        return best

    # -------------------------------------------------------------- the turn
    def dice(self, n: int, at_least: int) -> int:
        return sum(1 for _ in range(n) if self.d6() >= at_least)

    def lose(self, i: int, n: int) -> None:
        sq = self.squads[i]
        assert sq is not None
        n = min(n, int(sq[2]))
        sq[2] -= n
        sq[3] += n
        self.stats["american_losses"] += n
        if sq[2] == 0:
            self.stats["wiped_out"] += 1
            self.squads[i] = None

    def fight(self, sq: list[float], clear: int, shoot: int, assault: int) -> None:
        if clear:
            section = self.obs_at(sq[0])
            self.obstacles[section] -= min(self.dice(clear, 6), self.obstacles[section])
        target = self.contact(sq) if assault else None
        if shoot:
            bunker = self.bunkers[self.bunker_at(sq[0])]
            bunker[0] -= min(self.dice(shoot, 6), bunker[0])
            bunker[1] = int(bunker[0] > 0 and bunker[1] == 1)
        if assault and target is not None and self.bunkers[target][1] and self.dice(assault, 6):
            self.bunkers[target] = [0, 0]

    def play(self) -> str:
        while True:
            self.turn += 1
            for i in range(len(self.squads)):  # landings
                if self.squads[i] is None:
                    self.squads[i] = [i * ZONE_W + ZONE_W / 2, snap(-float(self.d6())), 12, 0]
            for sq in self.squads:  # the Americans, one after another
                if sq is None:
                    continue
                kind, what = self.orders(sq)
                if kind == "move":
                    x, y = what  # type: ignore[misc]
                    sq[0], sq[1] = x, (WALL if WALL - TOL <= y <= WALL + TOL else y)
                else:
                    self.fight(sq, *what)  # type: ignore[misc]
            if self.won():
                return "american"
            if any(self.squads):
                for s in self.active():  # every bunker in action, in section order
                    i = self.target(artillery=False)
                    if i is not None and self.bunkers[s][1]:
                        self.lose(i, self.dice(2 if self.bunkers[s][0] == 1 else 4, 5))
                for _ in range(self.germans):  # one strike each
                    i = self.target(artillery=True)
                    if i is not None and self.d6() >= 5:
                        self.lose(i, self.dice(4, 4))
            for i, sq in enumerate(self.squads):  # morale
                if sq is not None and sq[3]:
                    if sum(self.d6() for _ in range(int(sq[3]))) >= 12:
                        self.stats["sent_back"] += 1
                        self.squads[i] = None
                    else:
                        sq[3] = 0
            if self.turn >= 100:
                return "unfinished"


def cost(x0: float, y0: float, x1: float, y1: float) -> float:
    length = math.hypot(x1 - x0, y1 - y0)
    if y0 >= 0 and y1 >= 0:
        return length
    if y0 <= 0 and y1 <= 0:
        return 2 * length
    wet = (-y0 if y0 < 0 else -y1) / abs(y1 - y0)
    return length * (2 * wet + 1 - wet)


def allowance(y0: float, dy: float, length: float) -> float:
    """The t at which a move from y0 along t * (dx, dy) (``length`` long) spends the whole 6"."""
    budget = MOVE / length
    if dy > 0 > y0:  # wades ashore
        ashore = -y0 / dy
        return budget / 2 if 2 * ashore >= budget else ashore + (budget - 2 * ashore)
    if dy < 0 < y0:  # walks into the water
        afloat = y0 / -dy
        return budget if afloat >= budget else afloat + (budget - afloat) / 2
    return budget / 2 if y0 < 0 or (y0 == 0 and dy < 0) else budget


def rect_distance(x: float, y: float, section: int) -> float:
    cx = section * BUNKER_W + BUNKER_W / 2
    dx = max(cx - 1.5 - x, 0.0, x - cx - 1.5)
    dy = max(FRONT - y, 0.0, y - FRONT - 2.0)
    return math.hypot(dx, dy)


def clamp(section: int, x: float) -> float:
    return min(max(x, section * OBS_W), section * OBS_W + OBS_W - 0.01)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stats", action="store_true", help="also print the games' averages")
    args = parser.parse_args()
    start = time.process_time()
    games = [Beach(random.Random(args.seed * 1_000_003 + i)) for i in range(args.games)]
    winners = [g.play() for g in games]
    seconds = time.process_time() - start
    if args.stats:
        turns = sorted(g.turn for g in games)
        n = len(games)
        print(f"american wins {winners.count('american')} of {n}; end turn median {turns[n // 2]}, ", end="")
        print(f"quartiles {turns[n // 4]}-{turns[3 * n // 4]}")
        for key in ("american_losses", "sent_back", "wiped_out"):
            print(f"  {key}: mean {sum(g.stats[key] for g in games) / n:.2f}")
    print(f"omaha peer: {args.games} games in {seconds:.2f} s of CPU: {args.games / seconds:.1f} games/s")


if __name__ == "__main__":
    main()
