"""The B-17 raid: placement, arrival, movement, combat, defensive fire, the bomb run (seed 003).

A turn (RULINGS B15): each German element not yet on the table rolls to enter (automatic); the fighters
move one at a time (a decision each: its whole path, with at most one stop to attack), the bombers'
gunners answering a stop to attack and the end of each fighter's move; the bombers move (a decision
each); the bombers fire at fighters within 4"; flak and the bomb run for bombers in range of the AA and
over the target (automatic). A gunners' choice of pair (nose and tail, or the waists) is a decision
of the American seat only when both pairs have a gun in range.

Seats: ``American`` (the boxes, the bombers, their gunners) and ``German`` (the fighters).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Literal

from grognard.core.dice import DiceSource
from grognard.core.engine import Decision, FiniteSpace, Game, Result
from grognard.core.errors import IllegalAction
from grognard.core.geometry import snap
from grognard.core.options import recorded
from grognard.core.words import counted
from grognard.rulesets.b17 import geometry as G
from grognard.rulesets.b17 import rules as R
from grognard.rulesets.b17.actions import Fly, Guns, PlaceBox
from grognard.rulesets.b17.data import (
    ALTITUDE_ROLL,
    AMERICAN,
    BOMB_ROLLS,
    BOMBER_ENGINES,
    BOX_SIZE,
    CLOCK_ROLL,
    DAMAGE_MOVE_LOSS,
    DAMAGED,
    DESTROYED,
    ELEMENT_SIZE,
    ENTRY_ROLL,
    FIGHTER_ENGINES,
    FIGHTER_TYPES,
    GERMAN,
    GRADES,
    HITS_TO_WIN,
    NO_DAMAGE,
    OPTIONS,
    PAIRS,
    SIDES,
    attack_mechanic,
    crippled_at,
    damage_grade,
    mechanics,
)
from grognard.rulesets.b17.events import EVENTS
from grognard.rulesets.b17.spaces import FlySpace, PlaceSpace
from grognard.rulesets.b17.state import Aircraft, B17State, Element
from grognard.rulesets.b17.view import seen

ENGINE_ORDER = (1, 4, 2, 3)  # which engine smokes at each damage point: outboard first, alternating sides


class B17Game(Game[B17State]):
    """A B-17 raid (seed 003, sections I-VIII). ``options`` are resolved (see ``data.OPTIONS``).

    >>> from grognard.core.dice import ScriptedDice
    >>> from grognard.rulesets.b17 import RULESET
    >>> game = B17Game(RULESET.resolve({}), ScriptedDice([1, 1]))
    >>> [d.id for d in game.pending()]
    ['place box 1']
    >>> events = game.apply("American", game.pending()[0].space.candidates(1)[0])
    >>> game.turn, [d.id for d in game.pending()]
    (1, ['move B1', 'move B2', 'move B3', 'move B4'])

    Raises :class:`IllegalAction` (naming the rule ``b17.N``) for an action the rules forbid, leaving
    the state as it was.
    """

    ruleset = "b17"
    sides = SIDES
    event_kinds = EVENTS

    def __init__(self, options: Mapping[str, Any], dice: DiceSource) -> None:
        super().__init__(dice)
        self.applied = 0  # actions applied: FlySpace keeps what it resolved until the next one
        self._dims_of: tuple[Any, dict[str, G.Dims]] = (None, {})
        self._moves: dict[tuple[str, float], Decision] = {}  # an aircraft's move decision, per allowance
        boxes = 2 if options["enlarged"] else 1
        aircraft: dict[str, Aircraft] = {}
        for k in range(boxes * BOX_SIZE):
            label = f"B{k + 1}"
            aircraft[label] = Aircraft(
                label, "bomber", "B-17", BOMBER_ENGINES, box=k // BOX_SIZE + 1, slot=R.SLOTS[k % BOX_SIZE]
            )
        elements = []
        fighters = boxes * BOX_SIZE  # as many fighters as bombers (b17.3, b17.61)
        kind = options["fighter_type"]
        for e in range(fighters // ELEMENT_SIZE):
            labels = tuple(f"F{e * ELEMENT_SIZE + i + 1}" for i in range(ELEMENT_SIZE))
            elements.append(Element(f"E{e + 1}", labels))
            for i, label in enumerate(labels):
                name = FIGHTER_TYPES[("me109", "fw190")[i % 2] if kind == "mixed" else kind][0]
                aircraft[label] = Aircraft(
                    label, "fighter", name, FIGHTER_ENGINES, status="waiting", element=f"E{e + 1}"
                )
        self.state = B17State(options=recorded(OPTIONS, options), aircraft=aircraft, elements=elements, boxes=boxes)
        self.state.stats = {
            "bombers_lost": 0,
            "fighters_lost": 0,
            "bombers_left": 0,
            "fighters_left": 0,
            "bomb_run_turn": None,
            "first_attack_turn": None,
            "attacks": 0,
        }
        self.emit("setup", bombers=boxes * BOX_SIZE, fighters=fighters, boxes=boxes)
        self._advance()

    # ------------------------------------------------------------------ protocol
    def seats(self) -> tuple[str, ...]:
        return (AMERICAN, GERMAN)

    def side_of(self, seat: str) -> str:
        if seat == AMERICAN:
            return "american"
        if seat == GERMAN:
            return "german"
        raise IllegalAction(f"no seat {seat!r} in this game")

    @property
    def result(self) -> Result | None:
        return self.state.outcome

    @property
    def turn(self) -> int:
        return self.state.turn

    def state_json(self) -> dict[str, Any]:
        return self.state.to_json()

    def copy_state(self) -> B17State:
        return self.state.copy()

    def view(self, seat: str | None) -> dict[str, Any]:
        """The B-17 game hides nothing: every seat sees the whole table."""
        full = self.state.to_json()
        full["seat"] = seat
        full["side"] = self.side_of(seat) if seat in (AMERICAN, GERMAN) else None
        full["pending"] = [{"id": d.id, "seat": d.seat, "prompt": d.prompt} for d in self.pending()]
        full["grade"] = damage_grade(self.state.hits)
        return seen(self, full)

    def _resign(self, seat: str) -> None:
        side = self.side_of(seat)
        self.emit("resigned", seat=seat, side=side)
        self._finish("german" if side == "american" else "american", f"{seat} resigned")

    def missing(self, action: Any) -> str | None:
        """The aircraft ``action`` names (the one flying, its target, a bomber or fighter at the guns), when this
        game has no aircraft of that label."""
        labels = list(self.state.aircraft)
        named: list[str | None] = []
        if isinstance(action, Fly):
            named = [action.aircraft, action.target]
        elif isinstance(action, Guns):
            named = [action.bomber, action.fighter]
        for label in named:
            if label is not None and label.upper() not in labels:
                return f"{str(action)!r}: there is no aircraft {label} in this game ({', '.join(labels)})"
        return None

    def decision_id(self, action: Any) -> str | None:
        if isinstance(action, Fly):
            return f"move {action.aircraft}"
        if isinstance(action, Guns):
            return f"guns {action.bomber} {action.fighter}"
        if isinstance(action, PlaceBox):
            return f"place box {action.box}"
        return None

    # ------------------------------------------------------------------ lookups
    def aircraft(self, label: str) -> Aircraft:
        return self.state.aircraft[label]

    def dims(self, a: Aircraft) -> G.Dims:
        options = self.state.options
        if options is not self._dims_of[0]:  # kept per model for the options the game plays (never changed)
            self._dims_of = (options, {})
        known = self._dims_of[1]
        found = known.get(a.model)
        if found is None:
            found = known[a.model] = R.dims_of(options, a.model)
        return found

    def altitude(self, a: Aircraft) -> str | None:
        if a.bomber:
            return None
        return next((e.altitude for e in self.state.elements if e.label == a.element), None)

    def allowance(self, a: Aircraft) -> float:
        """Inches ``a`` flies this move (seed V.D.4, VI.B, VI.C.1.c, VI.C.2.b; b17.22-b17.28)."""
        return R.allowance(a, self.altitude(a))

    def flying_bombers(self) -> list[Aircraft]:
        return [a for a in self.state.aircraft.values() if a.bomber and a.flying]

    def flying_fighters(self) -> list[Aircraft]:
        return [a for a in self.state.aircraft.values() if not a.bomber and a.flying]

    # ------------------------------------------------------------------ decisions
    def _decisions(self) -> tuple[Decision, ...]:
        s = self.state
        if s.outcome is not None:
            return ()
        if s.phase == "setup":
            return tuple(
                Decision(
                    f"place box {n}",
                    AMERICAN,
                    f'place box {n}: leader, left, right and last bombers, 6-18" from the entry edge',
                    PlaceSpace(self, n),
                )
                for n in range(1, s.boxes + 1)
                if n not in s.placed
            )
        if s.fire:
            entry = s.fire[0]
            options = self._pair_options(entry)
            bomber, fighter = entry["bomber"], entry["fighter"]
            actions = [Guns(bomber, fighter, pair) for pair in options]
            return (
                Decision(
                    f"guns {bomber} {fighter}",
                    AMERICAN,
                    f"{bomber}'s gunners fire at {fighter}: nose and tail, or the waist guns",
                    FiniteSpace(actions, "b17.45", "gun pair"),
                ),
            )
        out = []
        for label in s.to_move:
            a = s.aircraft[label]
            inches = self.allowance(a)
            # the same decision while its move is the same (not one made by the game this one is a copy of)
            decision = self._moves.get((label, inches))
            if decision is None or getattr(decision.space, "game", None) is not self:
                seat = AMERICAN if a.bomber else GERMAN
                prompt = f'{label} ({a.model}) flies {inches:g}"'
                decision = self._moves[label, inches] = Decision(f"move {label}", seat, prompt, FlySpace(self, label))
            out.append(decision)
        return tuple(out)

    def _apply(self, decision: Decision, action: Any) -> None:
        s = self.state
        if isinstance(action, PlaceBox):
            self._place(action)
        elif isinstance(action, Guns):
            entry = s.fire.pop(0)
            self._gunfire(entry, action.pair)
        elif isinstance(action, Fly):
            space = decision.space
            assert isinstance(space, FlySpace)
            path, stop, target = space.resolve(action)  # what the bot's check found (before ``applied`` moves on)
            s.to_move.remove(action.aircraft)
            self._fly(s.aircraft[action.aircraft], path, stop, target)
        self.applied += 1  # what the action spaces found before is stale now
        self._advance()

    # ------------------------------------------------------------------ the turn machine
    def _advance(self) -> None:
        """Run what needs no decision until one is owed or the game is over."""
        s = self.state
        while s.outcome is None:
            if s.phase == "setup":
                if len(s.placed) < s.boxes:
                    return
                self._begin_turn()
                continue
            if self._check_end():
                return
            if s.fire:
                entry = s.fire[0]
                options = self._pair_options(entry)
                if len(options) > 1:
                    return
                s.fire.pop(0)
                if options:
                    self._gunfire(entry, options[0])
                continue
            if s.flight is not None:
                self._finish_flight()
                continue
            s.to_move = [label for label in s.to_move if s.aircraft[label].flying]
            if s.to_move:
                return
            if s.phase == "fighters":
                s.phase = "bombers"
                s.to_move = [b.label for b in self.flying_bombers()]
                continue
            if s.phase == "bombers":
                s.phase = "bomber fire"
                self._bomber_fire()
                continue
            if s.phase == "bomber fire":
                self._bomb_runs()
                if self._check_end():
                    return
                if s.turn >= int(s.options["turn_cap"]) and not self._course_fixed():
                    self._finish(None, f"the turn cap ({s.turn}) was reached")
                    return
                self._begin_turn()

    def _no_fighter_left(self) -> bool:
        """Every German fighter is shot down or off the table: none flies or is still to enter (b17.9)."""
        return all(a.status in ("destroyed", "left") for a in self.state.aircraft.values() if not a.bomber)

    def _course_fixed(self) -> bool:
        """Nothing is left for anyone to decide (b17.9): no fighter is left and every bomber still to bomb
        flies only straight ahead (its move no longer than the straight part before a turn, b17.28), so
        its course to the target or the edge is fixed and the raid ends by itself within 54 turns."""
        if not self._no_fighter_left():
            return False
        waiting = [b for b in self.flying_bombers() if not (b.bombed or b.broke_off)]
        return all(self.allowance(b) <= R.minimum_straight(b, self.allowance(b)) for b in waiting)

    def _check_end(self) -> bool:
        """The game ends once every bomber has bombed, been destroyed or left the table (seed IV, VII.D.3; B18),
        or once no fighter is left and the hits already do the seed's greatest damage (five: major), when
        nothing can change the result (b17.9)."""
        s = self.state
        if s.outcome is not None:
            return True
        if s.hits >= GRADES[0][0] and self._no_fighter_left() and any(not b.bombed for b in self.flying_bombers()):
            self._finish(
                "american",
                f"{s.hits} bomb hits on the target: {damage_grade(s.hits)} damage, and no fighter is left: "
                "nothing the bombers still flying do can change the result",
            )
            return True
        if all(b.bombed or b.broke_off or not b.flying for b in s.bombers()):
            winner = "american" if s.hits >= HITS_TO_WIN else "german"
            grade = damage_grade(s.hits)
            lost = sum(1 for b in s.bombers() if b.status == "destroyed")
            if winner == "american":
                reason = f"{s.hits} bomb hits on the target: {grade} damage"
            elif lost == len(s.bombers()):
                reason = "every bomber was shot down"
            else:
                reason = (
                    f"{counted(s.hits, 'bomb hit')} on the target, {HITS_TO_WIN} were needed; "
                    f"{lost} of {len(s.bombers())} bombers shot down"
                )
            self._finish(winner, reason)
            return True
        return False

    def _finish(self, winner: str | None, reason: str) -> None:
        s = self.state
        scores = {
            "bomb_hits": s.hits,
            "damage": damage_grade(s.hits),
            "bombers_lost": s.stats["bombers_lost"],
            "fighters_lost": s.stats["fighters_lost"],
        }
        outcome: Literal["win", "unfinished"] = "win" if winner is not None else "unfinished"
        s.outcome = Result(outcome, winner, s.turn, reason, scores)
        s.phase, s.to_move, s.fire, s.flight = "over", [], [], None
        self.emit("game_over", outcome=outcome, winner=winner, reason=reason, turn=s.turn, **scores)

    def _begin_turn(self) -> None:
        """A new turn: elements roll to enter (seed V.C-D, b17.16-b17.20, B9), then the fighters owe their moves."""
        s = self.state
        s.turn += 1
        self.emit("turn", turn=s.turn)
        for element in s.elements:
            if element.entered is None:
                self._roll_entry(element)
        s.phase = "fighters"
        s.to_move = [f.label for f in self.flying_fighters()]

    def _roll_entry(self, element: Element) -> None:
        s = self.state
        enters = ENTRY_ROLL.roll(self, f"element {element.label} enters on an even roll")
        if not enters:
            self.emit("no_entry", element=element.label)
            return
        hour = CLOCK_ROLL.roll(self, f"element {element.label}: clock hour of entry (2d6)")
        altitude = ALTITUDE_ROLL.roll(self, f"element {element.label}: altitude (1-2 below, 3-4 level, 5-6 above)")
        x, y, heading = R.entry_point(hour)
        element.entered, element.hour, element.altitude = s.turn, hour, altitude
        placed = []
        for i, label in enumerate(element.fighters):
            f = s.aircraft[label]
            if i == 0:
                f.x, f.y = x, y
            else:
                f.x, f.y = R.wingman_point(x, y, heading, self.dims(f).span)
            f.heading, f.status = heading, "flying"
            placed.append({"fighter": label, "x": f.x, "y": f.y})
        self.emit(
            "entered",
            element=element.label,
            hour=hour,
            altitude=altitude,
            heading=heading,
            fighters=placed,
        )

    # ------------------------------------------------------------------ placement
    def _place(self, action: PlaceBox) -> None:
        s = self.state
        bombers = [b for b in s.bombers() if b.box == action.box]
        for b, (x, y) in zip(bombers, action.positions, strict=True):
            b.x, b.y, b.heading = snap(x), snap(y), 0.0
        s.placed.append(action.box)
        self.emit(
            "placed", box=action.box, bombers=[{"bomber": b.label, "slot": b.slot, "x": b.x, "y": b.y} for b in bombers]
        )

    # ------------------------------------------------------------------ movement
    def _fly(self, a: Aircraft, path: G.Path, stop: float | None, target: str | None) -> None:
        """Fly ``a`` along ``path``; a fighter stopping to attack is left there until the defensive fire ends."""
        a.moves += 1
        if stop is None or target is None:
            self._fly_on(a, path, 0.0, path.length)
            if not a.bomber and a.flying:
                self._queue_fire(a, "end of move")
            return
        x, y, h = path.snapped(stop)
        self.emit("stops", aircraft=a.label, x=x, y=y, heading=h, at=stop, target=target)
        a.x, a.y, a.heading = x, y, h
        self.state.flight = {
            "fighter": a.label,
            "x": path.x,
            "y": path.y,
            "heading": path.heading,
            "straight": path.straight,
            "turn": path.turn,
            "length": path.length,
            "stop": stop,
            "damage": a.damage,
        }
        self._attack(a, self.aircraft(target))
        if a.flying:
            self._queue_fire(a, "attack")

    def _fly_on(self, a: Aircraft, path: G.Path, start: float, stop: float) -> None:
        """``a`` flies ``path`` from ``start`` to ``stop`` inches; it is out if it leaves the table (VI.C.3, B18)."""
        leave = path.leaves_table_at()
        x0, y0 = a.x, a.y
        if leave is not None and leave <= stop:
            x, y, h = path.snapped(leave)
            a.x, a.y, a.heading = x, y, h
            a.status = "left"
            self.state.stats["bombers_left" if a.bomber else "fighters_left"] += 1
            self.emit("left_table", aircraft=a.label, x0=x0, y0=y0, x=x, y=y, heading=h)
            return
        x, y, h = path.snapped(stop)
        a.x, a.y, a.heading = x, y, (path.new_heading if stop > path.straight else path.heading)
        self.emit("moved", aircraft=a.label, x0=x0, y0=y0, x=x, y=y, heading=a.heading, inches=round(stop - start, 2))

    def _finish_flight(self) -> None:
        """The rest of a fighter's move after its attack, 2" shorter if the defensive fire damaged it (VI.C.3.b)."""
        s = self.state
        flight = s.flight
        assert flight is not None
        s.flight = None
        f = s.aircraft[flight["fighter"]]
        if not f.flying:
            return
        path = G.Path(flight["x"], flight["y"], flight["heading"], flight["straight"], flight["turn"], flight["length"])
        end = path.length
        if f.damage > flight["damage"]:
            end = max(flight["stop"], end - DAMAGE_MOVE_LOSS * (f.damage - flight["damage"]))
            self.emit("move_cut", aircraft=f.label, inches=round(end - flight["stop"], 2))
        self._fly_on(f, path, flight["stop"], end)
        if f.flying:
            self._queue_fire(f, "end of move")

    # ------------------------------------------------------------------ combat
    def _damage(self, target: Aircraft, outcome: str) -> None:
        """An engine damaged, or the aircraft destroyed when none is left (seed VI.D.4.d-e; RULINGS B4; with the
        option ``fourth_engine = destroys`` a B-17 is destroyed by the damage that would take its last engine)."""
        lasts = crippled_at(self.state.options) if target.bomber else target.engines
        if outcome == DAMAGED and target.damage < lasts:
            engine = next(e for e in ENGINE_ORDER if e <= target.engines and e not in target.damaged)
            target.damaged.append(engine)
            self.emit("engine_damaged", aircraft=target.label, engine=engine, damage=target.damage)
        elif outcome in (DAMAGED, DESTROYED):
            target.status = "destroyed"
            self.state.stats["bombers_lost" if target.bomber else "fighters_lost"] += 1
            self.emit("destroyed", aircraft=target.label, x=target.x, y=target.y)

    def _attack(self, fighter: Aircraft, bomber: Aircraft) -> None:
        """A fighter's attack: d6+3 (+1 directly head-on or from behind) against the B-17's d6+3 (seed VI.D.1-4)."""
        s = self.state
        how = R.head_on_or_behind(bomber, fighter.x, fighter.y, fighter.heading, float(s.options["head_on_tolerance"]))
        mechanic = attack_mechanic(how is not None, s.options)
        bonus = f" {how} +1" if how else ""
        values = self.roll(2, 6, f"{fighter.label} attacks {bomber.label}{bonus}: attacker die, defender die")
        outcome = mechanic.read(values)
        s.stats["attacks"] += 1
        if s.stats["first_attack_turn"] is None:
            s.stats["first_attack_turn"] = s.turn
        self.emit(
            "attack",
            fighter=fighter.label,
            bomber=bomber.label,
            approach=how,
            attack=values[0] + mechanic.attack,
            defence=values[1] + mechanic.defence,
            outcome=outcome,
        )
        self._damage(bomber, outcome)

    def _queue_fire(self, fighter: Aircraft, occasion: str) -> None:
        """Every bomber with a gunner within 4" of ``fighter`` will fire at it (seed VI.D.5.a, f-g)."""
        s = self.state
        s.guns_used = {}
        for b in self.flying_bombers():
            if self._may_fire(b, fighter):
                s.fire.append({"bomber": b.label, "fighter": fighter.label, "occasion": occasion})

    def _may_fire(self, b: Aircraft, f: Aircraft) -> bool:
        """Whether a gunner of ``b`` has ``f`` within 4" (``rules.guns_in_range``, whose first test, the centres
        too far apart for any gun to reach, is made here without asking it: most pairs a turn are that far)."""
        if math.hypot(f.x - b.x, f.y - b.y) > R.gun_reach(self.dims(f), self.dims(b)):
            return False
        return bool(R.guns_in_range(self.state.options, b, f))

    def _bomber_fire(self) -> None:
        """After the bombers' moves, each bomber fires at every fighter within 4" (seed VI.D.5.c, f)."""
        s = self.state
        s.guns_used = {}
        for b in self.flying_bombers():
            for f in self.flying_fighters():
                if self._may_fire(b, f):
                    s.fire.append({"bomber": b.label, "fighter": f.label, "occasion": "bombers' move"})

    def _pair_options(self, entry: Mapping[str, Any]) -> list[str]:
        s = self.state
        b, f = s.aircraft[entry["bomber"]], s.aircraft[entry["fighter"]]
        if not (b.flying and f.flying):
            return []
        return R.pair_options(R.guns_in_range(s.options, b, f), s.guns_used.get(b.label, []))

    def _gunfire(self, entry: Mapping[str, Any], pair: str) -> None:
        """Each gun of ``pair`` in range makes its own roll: d6+1 against the fighter's d6+2 (seed VI.D.5.b-e, B13)."""
        s = self.state
        b, f = s.aircraft[entry["bomber"]], s.aircraft[entry["fighter"]]
        in_range = R.guns_in_range(s.options, b, f)
        used = s.guns_used.setdefault(b.label, [])
        guns = [g for g in PAIRS[pair] if g in in_range and g not in used]
        self.emit("gunners", bomber=b.label, fighter=f.label, pair=pair, guns=guns, occasion=entry["occasion"])
        for gun in guns:
            used.append(gun)
            values = self.roll(2, 6, f"{b.label} {gun} gunner fires at {f.label}: gunner die, fighter die")
            gunner = mechanics(s.options).gunner
            outcome = gunner.read(values)
            self.emit(
                "gun",
                bomber=b.label,
                gun=gun,
                fighter=f.label,
                attack=values[0] + gunner.attack,
                defence=values[1] + gunner.defence,
                outcome=outcome,
            )
            self._damage(f, outcome)
            if not f.flying:
                break

    # ------------------------------------------------------------------ the bomb run
    def _bomb_runs(self) -> None:
        """Flak, then four bomb rolls for each bomber whose fuselage is over the target (seed VII; B5-B7)."""
        s = self.state
        every = bool(s.options["flak_every_turn"])
        for b in self.flying_bombers():
            if b.bombed and not every:
                continue
            dims = self.dims(b)
            over = G.over_target(dims, b.x, b.y, b.heading)
            near = over or G.in_flak_range(dims, b.x, b.y, b.heading)
            if near and (every or not b.flak_done):
                b.flak_done = True
                values = self.roll(2, 6, f"flak at {b.label}: AA die, bomber die")
                flak = mechanics(s.options).flak
                outcome = flak.read(values)
                self.emit("flak", bomber=b.label, aa=values[0], bomber_score=values[1] + flak.defence, outcome=outcome)
                self._damage(b, outcome)
                if outcome != NO_DAMAGE and b.flying and not b.bombed and mechanics(s.options).breaks_off:
                    b.broke_off = True  # the option flak_damage = breaks_off (RULINGS B6 read the other way)
                    self.emit("breaks_off", bomber=b.label)
            if over and b.flying and not b.bombed and not b.broke_off:
                hits = []
                for k in range(BOMB_ROLLS):
                    values = self.roll(2, 6, f"{b.label} bomb {k + 1}: bomber die, target die")
                    hits.append(mechanics(s.options).bomb.read(values))
                b.bombed = True
                b.hits = sum(hits)
                s.hits += b.hits
                if s.stats["bomb_run_turn"] is None:
                    s.stats["bomb_run_turn"] = s.turn
                self.emit("bombs", bomber=b.label, rolls=hits, hits=b.hits, total=s.hits)
