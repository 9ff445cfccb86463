"""Skirmish composite odds, exact, from the mechanics play rolls (:mod:`~grognard.rulesets.skirmish.mechanics`,
:mod:`~grognard.rulesets.skirmish.structures`), printed by ``grognard odds skirmish`` after the single
mechanics and tested against play in ``tests/test_odds_in_play_skirmish.py``:

- ``shots_to_kill``: for each small-arms weapon and range band, the turns one man firing once a turn takes to
  kill a man in cover (each turn: the hit die one less, skirmish.32, or none where a 6 alone hits under the
  option ``cover_six = hits``; a hit allows survival, skirmish.6; a flesh wound carries no lasting effect,
  RULINGS S5, so the turns are alike, or under ``wounds = last`` his next hit kills);
- ``melee_to_end``: a melee of n against m whose men all touch, fought to its end (``MeleeToEnd``);
- the points a shell takes from a structure with what is left (``structure_damage`` in ``analysis``: points
  never go below 0, RULINGS S7) and the shells to bring bridges, storeys and towers down (``bridge_*``,
  ``storey``, ``tower``: ``structures.ShotsUntil``).

The hits and kills of each weapon and band against cover are the ``shot_*`` and ``wedge_*`` tables (every
kind of cover that covers against a weapon takes the same one from the die; their notes name the kinds).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import icepool

from grognard.analysis.chains import Rounds
from grognard.analysis.odds import OddsTable
from grognard.core.dice import DiceSource, Mechanic
from grognard.rulesets.skirmish import mechanics as MX
from grognard.rulesets.skirmish.mechanics import ShotFate
from grognard.rulesets.skirmish.rules import cover_shift
from grognard.rulesets.skirmish.tables import FIRES_IN_PART_1, WEDGE_ATTACKS, Tables

TURNS_SHOWN = 12
# every man touching every foe, 1" bases apart: one against up to three (on one side of him) or two and two (a
# square); five men cannot all touch (two men touch at most two others in common), so 3 v 2 breaks apart as men fall
MELEE_TO_END = ((1, 1), (2, 1), (1, 2), (2, 2), (3, 1), (1, 3))


def shots_to_kill(hit_on: int, survive_on: int, shift: int = -1, lasting: bool = False) -> Rounds:
    """Turns of one shot a turn until a man (in cover: ``shift`` -1) is dead. ``lasting`` (the option ``wounds =
    last``, RULINGS S5 read the other way): a man with a flesh wound dies at his next hit (state 2 unhurt, 1
    wounded, 0 dead); else a flesh wound changes nothing (state 1 alive, 0 dead)."""
    if not lasting:
        return Rounds(
            1,
            lambda alive: ShotFate(hit_on, shift, survive_on),
            lambda alive, fate: 0 if fate == "dead" else alive,
            limit=TURNS_SHOWN,
            label=f"one shot a turn, hit on {hit_on}+ ({shift:+d}), survive on {survive_on}+, until dead",
        )
    never = 7  # a wounded man hit again dies: no face survives
    return Rounds(
        2,
        lambda state: ShotFate(hit_on, shift, survive_on if state == 2 else never),
        lambda state, fate: {"dead": 0, "wounded": 1}.get(fate, state),
        limit=TURNS_SHOWN,
        label=f"one shot a turn, hit on {hit_on}+ ({shift:+d}), survive on {survive_on}+ once, until dead",
    )


def band_label(tables: Tables, weapon: str, index: int) -> str:
    """A range band's label, its inches from and to (``0-12"``)."""
    bands = tables.weapons[weapon].bands
    low = 0.0 if index == 0 else bands[index - 1].to
    return f'{low:g}-{bands[index].to:g}"'


def cover_kinds(tables: Tables, attack: str) -> str:
    """The kinds of cover that cover against ``attack`` (the tables' cover lookup), for a table's note."""
    kinds = sorted({row.terrain for row in tables.cover_rows(attack)})
    return ", ".join(kinds) if kinds else "none"


def composite_tables(tables: Tables, six: bool = False, lasting: bool = False) -> list[OddsTable]:
    """``melee_to_end`` and ``shots_to_kill``; ``six``: the option ``cover_six = hits`` (RULINGS S4 read the other
    way), ``lasting``: ``wounds = last`` (S5 read the other way)."""
    rows: list[tuple[Any, Any]] = []
    for weapon, spec in tables.weapons.items():
        if spec.kind not in FIRES_IN_PART_1 or spec.kind in WEDGE_ATTACKS:
            continue
        survive = tables.survive_on(spec.kind)
        for index, band in enumerate(spec.bands):
            shift = cover_shift(True, band.hit_on, 0, six)
            if band.hit_on - shift > 6:  # in cover a hit on 6 alone cannot hit (RULINGS S4): never
                continue
            label = f"{weapon} {band_label(tables, weapon, index)}"
            rows.append((label, shots_to_kill(band.hit_on, survive, shift, lasting)))
    wound = (
        "a flesh wound lasts: his next hit kills (option wounds = last, not RULINGS S5)"
        if lasting
        else "a flesh wound carries no lasting effect (RULINGS S5)"
    )
    six_text = (
        "a 6 always hits, in cover too (option cover_six = hits, not RULINGS S4)"
        if six
        else "a band that hits on 6 alone never hits a man in cover (RULINGS S4)"
    )
    return [
        OddsTable(
            "melee_to_end",
            "A melee fought to its end, attackers v defenders all touching, both sides staying whenever both miss",
            "skirmish.70",
            tuple((f"{a} v {d}", MeleeToEnd(a, d, lasting=lasting)) for a, d in MELEE_TO_END),
            "attackers v defenders",
            "a man hit twice in one turn dies (skirmish.7)"
            + ("; so does a man with a flesh wound from before (option wounds = last)" if lasting else "")
            + "; grognard default melee numbers (RULINGS S6); "
            'only groups whose men can all touch are printed: five 1" bases cannot (a 3 v 2 in lines breaks apart '
            "as men fall)",
        ),
        OddsTable(
            "shots_to_kill",
            "Turns of one man's shot a turn to kill a man in cover, by weapon and range band",
            "skirmish.32",
            tuple(rows),
            "weapon, range",
            f"{wound}; {TURNS_SHOWN}+ is {TURNS_SHOWN} turns or more; the mean is exact; {six_text}",
        ),
    ]


# ------------------------------------------------------------------------------ a melee to its end
Hits = tuple[int, ...]  # per living man, in id order: hits taken this turn (0 or 1; a second kills)
State = tuple[bool, Hits, Hits]  # (first round still to come, attackers, defenders)
DEAD = -1


def _strike_branches(
    branches: dict[tuple[Hits, Hits, bool], Fraction],
    striker_side: int,
    target: int,
    p_hit: Fraction,
    kills_outright: bool,
    p_survive: Fraction,
) -> dict[tuple[Hits, Hits, bool], Fraction]:
    """Every branch after one die struck at man ``target`` of the other side (``striker_side`` 0: attackers strike
    defenders). A man dead this round (DEAD) takes no more; a hit on a man hit before this turn kills; else a
    first-round attacker's hit kills outright, any other allows survival (skirmish.69-70, 7)."""
    out: dict[tuple[Hits, Hits, bool], Fraction] = {}

    def add(key: tuple[Hits, Hits, bool], p: Fraction) -> None:
        out[key] = out.get(key, Fraction(0)) + p

    for (att, dfd, hit_any), p in branches.items():
        add((att, dfd, hit_any), p * (1 - p_hit))
        men = list(dfd if striker_side == 0 else att)
        q = p * p_hit
        if men[target] == DEAD:
            add((att, dfd, True), q)
            continue
        outcomes: list[tuple[int, Fraction]]
        if kills_outright or men[target] >= 1:
            outcomes = [(DEAD, Fraction(1))]
        else:
            outcomes = [(1, p_survive), (DEAD, 1 - p_survive)]
        for value, r in outcomes:
            after = list(men)
            after[target] = value
            key = (att, tuple(after), True) if striker_side == 0 else (tuple(after), dfd, True)
            add(key, q * r)
    return out


@functools.lru_cache(maxsize=4096)
def _round(
    state: State, p_att: Fraction, p_def: Fraction, p_survive: Fraction, lasting: bool = False
) -> dict[State | tuple[str, int], Fraction]:
    """One melee round from ``state`` as ``melee.fight`` plays it, exact: each attacker strikes the defender his
    place gives (one to one, the spare men joining the pairs, RULINGS S13), then the defenders strike back (in
    the first round only the living; later the dead too, before removal). Returns the next states (the next
    round this turn, or, when both missed, the next turn's, hits forgotten: both stay) and the ends."""
    first, att, dfd = state
    branches: dict[tuple[Hits, Hits, bool], Fraction] = {(att, dfd, False): Fraction(1)}
    for k in range(len(att)):
        branches = _strike_branches(branches, 0, k % len(dfd), p_att, first, p_survive)
    out: dict[Any, Fraction] = {}
    for (a1, d1, hit_any), p in branches.items():
        back = [j for j in range(len(dfd)) if not (first and d1[j] == DEAD)]
        sub: dict[tuple[Hits, Hits, bool], Fraction] = {(a1, d1, hit_any): Fraction(1)}
        for k, _ in enumerate(back):
            sub = _strike_branches(sub, 1, k % len(att), p_def, False, p_survive)
        for (a2, d2, hit2), q in sub.items():
            a_left = tuple(h for h in a2 if h != DEAD)
            d_left = tuple(h for h in d2 if h != DEAD)
            if not a_left or not d_left:
                end: Any = (
                    ("both gone", 0)
                    if not a_left and not d_left
                    else (("attackers win", len(a_left)) if a_left else ("defenders win", len(d_left)))
                )
            elif not hit2 and not lasting:
                end = (False, (0,) * len(a_left), (0,) * len(d_left))  # both missed, both stay: next turn
            else:
                end = (False, a_left, d_left)
            out[end] = out.get(end, Fraction(0)) + p * q
    return out


@dataclass(frozen=True)
class MeleeToEnd(Mechanic):
    """A melee of ``attackers`` against ``defenders`` (all bases touching) fought to its end, both sides staying
    whenever both miss: the first round, then later rounds in the turn (a man hit twice in a turn dies), the
    next turn's rounds after each both-missed. The outcome is who is left: ``"attackers win, 2 left"``,
    ``"defenders win, 1 left"`` or ``"both gone"``. Exact: the rounds of a turn share the men's hits, so the
    state is each man's hits this turn; within a number of living men a chain only returns to all-unhit (by a
    turn that ends with both missing), which is solved for exactly.

    >>> MeleeToEnd(1, 1).distribution().probability("attackers win, 1 left")
    Fraction(18025, 28944)
    """

    attackers: int
    defenders: int
    hit_on: int = MX.MELEE_HIT_ON
    survive_on: int = MX.MELEE_SURVIVE_ON
    attacker_shift: int = 0
    defender_shift: int = 0
    lasting: bool = False  # the option wounds = last: a man's flesh wound stays, his next hit kills (S5 other way)

    def _p(self, shift: int) -> Fraction:
        return Fraction(sum(1 for face in range(1, 7) if face + shift >= self.hit_on), 6)

    def _probabilities(self) -> tuple[Fraction, Fraction, Fraction]:
        survive = Fraction(sum(1 for face in range(1, 7) if face >= self.survive_on), 6)
        return self._p(self.defender_shift), self._p(self.attacker_shift), survive

    def ends(self) -> dict[str, Fraction]:
        if self.lasting:
            return self._lasting_ends()
        p_att, p_def, p_survive = self._probabilities()
        zero_of: dict[tuple[int, int], dict[str, Fraction]] = {}
        resolved: dict[Any, dict[str, Fraction]] = {}

        def label(end: tuple[str, int]) -> str:
            return end[0] if end[0] == "both gone" else f"{end[0]}, {end[1]} left"

        def value(state: Any) -> dict[str, Fraction]:
            if isinstance(state[0], str):
                return {label(state): Fraction(1)}
            if state in resolved:
                return resolved[state]
            level = (len(state[1]), len(state[2]))
            zero = (False, (0,) * level[0], (0,) * level[1])
            if state[0]:  # the first round: it never comes back
                out: dict[str, Fraction] = {}
                for nxt, p in _round(state, p_att, p_def, p_survive).items():
                    for end, q in value(nxt).items():
                        out[end] = out.get(end, Fraction(0)) + p * q
            else:
                vz = zero_value(level, zero)
                c, d = param(state, zero)
                out = dict(c)
                for end, q in vz.items():
                    out[end] = out.get(end, Fraction(0)) + d * q
            resolved[state] = out
            return out

        params: dict[Any, tuple[dict[str, Fraction], Fraction]] = {}

        def param(state: Any, zero: Any) -> tuple[dict[str, Fraction], Fraction]:
            """value(state) = c + d * value(zero), for a state of zero's level."""
            if state not in params:
                params[state] = _param(state, zero)
            return params[state]

        def _param(state: Any, zero: Any) -> tuple[dict[str, Fraction], Fraction]:
            c: dict[str, Fraction] = {}
            d = Fraction(0)
            level = (len(zero[1]), len(zero[2]))
            for nxt, p in _round(state, p_att, p_def, p_survive).items():
                if not isinstance(nxt[0], str) and (len(nxt[1]), len(nxt[2])) == level:
                    if nxt == zero:
                        d += p
                        continue
                    c2, d2 = param(nxt, zero)
                    for end, q in c2.items():
                        c[end] = c.get(end, Fraction(0)) + p * q
                    d += p * d2
                    continue
                for end, q in value(nxt).items():
                    c[end] = c.get(end, Fraction(0)) + p * q
            return c, d

        def zero_value(level: tuple[int, int], zero: Any) -> dict[str, Fraction]:
            if level not in zero_of:
                c, d = param(zero, zero)
                zero_of[level] = {end: q / (1 - d) for end, q in c.items()}
            return zero_of[level]

        return value((True, (0,) * self.attackers, (0,) * self.defenders))

    def _lasting_ends(self) -> dict[str, Fraction]:
        """``ends`` when wounds last: a state only stays (a turn both missed) or moves on (a man hit or dead),
        never back, so each state's ends are its moves' ends over one less the chance it stays."""
        p_att, p_def, p_survive = self._probabilities()
        resolved: dict[Any, dict[str, Fraction]] = {}

        def value(state: Any) -> dict[str, Fraction]:
            if isinstance(state[0], str):
                return {state[0] if state[0] == "both gone" else f"{state[0]}, {state[1]} left": Fraction(1)}
            if state not in resolved:
                out: dict[str, Fraction] = {}
                stay = Fraction(0)
                for nxt, p in _round(state, p_att, p_def, p_survive, True).items():
                    if nxt == state:
                        stay += p
                        continue
                    for end, q in value(nxt).items():
                        out[end] = out.get(end, Fraction(0)) + p * q
                resolved[state] = {end: q / (1 - stay) for end, q in out.items()}
            return resolved[state]

        return value((True, (0,) * self.attackers, (0,) * self.defenders))

    def distribution(self) -> icepool.Die:
        ends = self.ends()
        common = math.lcm(*(p.denominator for p in ends.values()))
        return icepool.Die({end: int(p * common) for end, p in ends.items() if p})

    def roll(self, source: DiceSource, purpose: str) -> str:
        state: Any = (True, (0,) * self.attackers, (0,) * self.defenders)

        def hit_att(face: int) -> bool:
            return face + self.defender_shift >= self.hit_on

        def hit_def(face: int) -> bool:
            return face + self.attacker_shift >= self.hit_on

        while not isinstance(state[0], str):
            first, att, dfd = state
            a, d = list(att), list(dfd)
            hit_any = False

            def struck(men: list[int], j: int, outright: bool) -> None:
                if men[j] == DEAD:
                    return
                if outright or men[j] >= 1:
                    men[j] = DEAD
                else:
                    men[j] = 1 if source.roll(1, 6, f"{purpose}: survival")[0] >= self.survive_on else DEAD

            for k in range(len(att)):
                if hit_att(source.roll(1, 6, f"{purpose}: attacker strikes")[0]):
                    hit_any = True
                    struck(d, k % len(dfd), first)
            back = [j for j in range(len(dfd)) if not (first and d[j] == DEAD)]
            for k, _ in enumerate(back):
                if hit_def(source.roll(1, 6, f"{purpose}: defender strikes")[0]):
                    hit_any = True
                    struck(a, k % len(att), False)
            a_left = tuple(h for h in a if h != DEAD)
            d_left = tuple(h for h in d if h != DEAD)
            if not a_left or not d_left:
                if not a_left and not d_left:
                    return "both gone"
                return f"attackers win, {len(a_left)} left" if a_left else f"defenders win, {len(d_left)} left"
            kept = hit_any or self.lasting
            state = (False, a_left, d_left) if kept else (False, (0,) * len(a_left), (0,) * len(d_left))
        raise AssertionError("unreachable")

    @property
    def text(self) -> str:
        return f"{self.attackers} attackers v {self.defenders} defenders to the end, both staying"
