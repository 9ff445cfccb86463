"""The game context every phase module of the skirmish engine works on.

A :class:`Context` is one game's table: its state (``SkirmishState``), the
scenario and its tables, the terrain as the scenario lays it
(``base_terrain``) and as it stands now (``terrain``: with the wire, traps,
structures, vehicles and train of the moment), the burst templates, and the
engine's ``emit`` and ``roll`` (every die goes through the game's dice source
and lands in its events). The phase modules (``moving``, ``fire``,
``artillery``, ``melee``, ``driving``, ``castles``, ``drops``, ``shelling``,
``turn``) are plain functions of a context; none imports the game.

What is worked out from the table and kept until it changes (the terrain now,
the shots each man could fire) is kept here too; what depends on the scenario's
table alone (its terrains, their line of sight and cover between points) is
kept across all the scenario's games (:class:`Shared`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol, cast

from shapely.geometry.base import BaseGeometry

from grognard.core.errors import IllegalAction
from grognard.core.memo import kept_in
from grognard.rulesets.skirmish import vehicles as V
from grognard.rulesets.skirmish.schema import Scenario
from grognard.rulesets.skirmish.state import FireOrder, SkirmishState, Vehicle
from grognard.rulesets.skirmish.tables import Tables
from grognard.rulesets.skirmish.terrain import Feature, Terrain, build_terrain, section_state, storey_state

XY = tuple[float, float]
Template = tuple[str, tuple[XY, ...]]  # (burst class, corners in inches)
ShotTable = dict[str, dict[str, FireOrder | tuple[str, str]]]


class Engine(Protocol):
    """What the context needs of the game that owns it: events, dice, and forgetting its decisions."""

    def emit(self, kind: str, to: Iterable[str] | None = None, **data: Any) -> None: ...

    def roll(self, n: int, sides: int = 6, purpose: str = "") -> list[int]: ...

    def changed(self) -> None: ...


class Context:
    """One skirmish game's table, for the phase modules (see the module's docstring).

    ``state`` is set by the game once it is built (``setup.new_state``). The
    context is a dice source (``roll``) for the mechanics of ``rules``.
    """

    def __init__(self, scenario: Scenario, engine: Engine) -> None:
        self.scenario = scenario
        self.tables: Tables = scenario.tables
        self.shared = shared(scenario)
        self.base_terrain: Terrain = self.shared.base_terrain
        self.engine = engine
        self.state: SkirmishState = SkirmishState({}, {}, {}, {})
        self.railway: str | None = None  # the railway the train runs on, if the scenario has a train
        # every burst template of the game: the tables' shapes and the scenario's own (skirmish.15)
        self.templates: dict[str, Template] = {
            shape.id: (name, tuple(shape.points)) for name, cls in self.tables.burst.items() for shape in cls.shapes
        }
        for own in scenario.spec.templates:
            self.templates[own.id] = (own.burst, tuple(own.points))
        self.terrain_cache: tuple[Any, Terrain] | None = None
        self.terrain_read: tuple[Any, tuple[Any, Terrain]] | None = None  # the state's reading -> terrain_cache
        self.shot_cache: tuple[Any, ShotTable] | None = None
        # line of sight, range and cover between two points, for the terrain object they were worked out on
        self.sight_cache: tuple[Terrain, dict[Any, Any]] | None = None
        self.terrain_json: dict[str, Any] | None = None
        self.train_kept: tuple[tuple[str, float], BaseGeometry | None] | None = None  # train_now's last
        self.bot_cache: dict[str, Any] = self.shared.bot_cache  # the bots' lookups of the table (cover spots)
        # what was worked out while the state stands still (``still``): the terrain now, the shots, ... by name
        self.kept: dict[str, Any] | None = None
        self.version = 0  # counts the game's changes to the state (``moment``)
        self.passed = Passed()  # the actions the decisions' spaces passed at this moment, with what they found
        self.firing: tuple[ShotTable, frozenset[str]] | None = None  # a shot table -> the men with a shot in it

    # ------------------------------------------------------------------ the engine's
    def emit(self, kind: str, to: Iterable[str] | None = None, **data: Any) -> None:
        """Record an event in the game's events; ``to`` limits who sees it."""
        self.engine.emit(kind, to, **data)

    def roll(self, n: int, sides: int = 6, purpose: str = "") -> list[int]:
        """Roll ``n`` dice through the game's dice source (logged as a ``dice`` event)."""
        return self.engine.roll(n, sides, purpose)

    def changed(self) -> None:
        """Tell the game its decisions are to be worked out again (the state changed outside ``apply``)."""
        self.engine.changed()

    def bind(self, engine: Engine, state: SkirmishState) -> Context:
        """A copy of this context for another game (a clone) with its own state; caches are shared until
        either changes."""
        other = object.__new__(Context)
        other.__dict__.update(self.__dict__)
        other.engine, other.state = engine, state
        other.kept = None
        other.passed = Passed()
        return other

    def __getstate__(self) -> dict[str, Any]:
        fields = self.__dict__.copy()
        fields["shot_cache"] = None
        fields["sight_cache"] = None
        fields["shared"] = None  # what the scenario's games share stays with this process's games
        fields["bot_cache"] = {}
        fields["kept"] = None
        fields["firing"] = None
        fields["passed"] = Passed()
        return fields

    def __setstate__(self, fields: dict[str, Any]) -> None:
        self.__dict__.update(fields)
        self.shared = Shared(self.scenario, self.base_terrain)  # a copy's own, round its own terrain
        self.bot_cache = self.shared.bot_cache

    def sight_memo(self, terrain: Terrain) -> dict[Any, Any]:
        """What was worked out between two points on ``terrain`` (line of sight, range, cover): pure
        functions of the terrain and the points, kept with the terrain object (a new one, a new memo) for
        every game of the scenario (``Shared``)."""
        if self.sight_cache is None or self.sight_cache[0] is not terrain:
            self.sight_cache = (terrain, self.shared.memo(terrain))
        return self.sight_cache[1]

    # ------------------------------------------------------------------ the state standing still
    def moment(self) -> tuple[Any, ...]:
        """Which state, and how far on in it: a new moment after every change the game makes (``version``, which
        the game counts on: an action carried out, a secret choice resolved, a state put back, ``changed``)."""
        s = self.state
        return (self.version, id(s), s.turn, s.phase, len(s.done))

    @contextmanager
    def still(self) -> Iterator[None]:
        """While the state stands still (a bot weighing its choice: it probes legality, it changes nothing),
        what is worked out from the state alone is worked out once (``keep``): the terrain now, every man's
        shots, what a man on foot may walk into. Nested, the outer one keeps; afterwards nothing is kept."""
        if self.kept is not None:
            yield
            return
        self.kept = {}
        try:
            yield
        finally:
            self.kept = None

    def keep(self, name: str, make: Callable[[], Any]) -> Any:
        """``make()``, once while the state stands still (``still``); every time otherwise."""
        return kept_in(self.kept, name, make)

    def keep_for(self, name: str, key: Any, make: Callable[[], Any]) -> Any:
        """``make()``, once for each ``key`` while the state stands still (``still``); every time otherwise.
        What it raises (an illegal action) is kept too, and raised again each time."""
        kept = self.kept
        if kept is None:
            return make()
        found: dict[Any, Any] = kept.setdefault(name, {})
        known = found.get(key, found)
        if known is found:
            try:
                known = found[key] = make()
            except IllegalAction as exc:
                found[key] = exc
                raise
        if isinstance(known, IllegalAction):
            raise known
        return known

    # ------------------------------------------------------------------ the table now
    @property
    def terrain(self) -> Terrain:
        """The table's terrain with the wire and tank traps laid so far, its structures as they stand now,
        and the vehicles and the train where they stand."""
        kept = self.kept
        if kept is not None:
            found = kept.get("terrain")
            if found is None:
                found = kept["terrain"] = self._terrain_now()
            return cast(Terrain, found)
        return self._terrain_now()

    def _terrain_now(self) -> Terrain:
        s = self.state
        # what the terrain is made from, read cheaply (the structures by their points); only when it differs
        # from the last reading are the structures' states worked out, and the terrain rebuilt if they differ
        raw = (
            s.wires,
            s.traps,
            tuple(map(tuple, s.sections.values())),
            tuple(s.walls.values()),
            tuple((b.built, b.points) for b in s.bridges.values()),
            s.train,
            tuple((k, v.x, v.y, v.heading) for k, v in s.vehicles.items()),
        )
        if self.terrain_read is not None and self.terrain_read[0] == raw and self.terrain_read[1] is self.terrain_cache:
            return self.terrain_read[1][1]
        standing = self.standing()
        states = self.section_states()
        key = (s.wires, s.traps, standing, tuple(sorted(states.items())), self.moving_key())
        if self.terrain_cache is None or self.terrain_cache[0] != key:
            made = self.shared.terrain(
                key, lambda: self.with_moving(self.base_terrain.with_works(s.wires, s.traps, standing, states))
            )
            self.terrain_cache = (key, made)
        self.terrain_read = (raw, self.terrain_cache)
        return self.terrain_cache[1]

    def structures_changed(self) -> None:
        """Forget what was worked out from the structures (a shell hit one, a bridge was built)."""
        self.shot_cache = None
        self.changed()

    def standing(self) -> frozenset[str]:
        """The bridges standing now: built, with points left."""
        return frozenset(b.id for b in self.state.bridges.values() if b.built and b.points > 0)

    def section_states(self) -> dict[str, str]:
        """Each building section's and castle wall section's state now (FULL POINTS ... ALL DEAD)."""
        s = self.state
        out = {
            sec.id: section_state(sec, s.sections[sec.id]) for b in self.base_terrain.buildings for sec in b.sections
        }
        out.update(
            {sec.id: storey_state(sec.storey, s.walls[sec.id]) for w in self.base_terrain.walls for sec in w.sections}
        )
        return out

    def vehicle_shape(self, v: Vehicle, at: XY | None = None, facing: float | None = None) -> Any:
        """``v``'s footprint (a shapely Polygon, inches) where it stands, or at ``at`` facing ``facing``."""
        entry = self.tables.vehicles.kind(v.kind)
        return V.footprint(at or (v.x, v.y), v.heading if facing is None else facing, entry.length, entry.width)

    def train_now(self) -> BaseGeometry | None:
        """The train's ground now, or None (no train, or off the board)."""
        if self.railway is None or self.state.train is None:
            return None
        key = (self.railway, self.state.train)
        kept = getattr(self, "train_kept", None)  # the last one made (a pure function of the key)
        if kept is None or kept[0] != key:
            kept = self.train_kept = (key, V.train_shape(self.base_terrain, self.railway, self.state.train))
        return kept[1]

    def moving_key(self) -> tuple[Any, ...]:
        """Where the train and the vehicles stand (the terrain now changes with it). The vehicles' ids are not
        in it: every memo it keys is one scenario's (``Shared``), whose vehicles are all placed at setup, in its
        order, and none is ever taken out of the state, so a place in the tuple is always the same vehicle."""
        return (self.state.train, tuple((v.x, v.y, v.heading) for v in self.state.vehicles.values()))

    def with_moving(self, terrain: Terrain) -> Terrain:
        """``terrain`` with the train and the vehicles where they are now."""
        feats = [Feature(v.kind, v.id, self.vehicle_shape(v)) for v in self.state.vehicles.values()]
        return terrain.with_moving(self.train_now(), feats)


class Passed:
    """The actions the decisions' spaces passed at this moment of the game (``Context.moment``), each with what
    its check found (an action names its unit, vehicle or firer, so it answers one decision): the bot's chosen
    action, checked once while the bot weighed it, is not checked again when the fast path applies it, and
    what the check worked out (paths, a drive's plan, shots) is carried out."""

    __slots__ = ("found", "moment")

    def __init__(self) -> None:
        self.moment: tuple[Any, ...] | None = None
        self.found: dict[Any, Any] = {}

    def get(self, ctx: Context, action: Any) -> Any:
        """What the check found for ``action`` at this moment, or ``Passed`` itself when it was not passed now."""
        if self.moment != ctx.moment():
            return Passed
        try:
            return self.found.get(action, Passed)
        except TypeError:  # an action that cannot be a key (a hand-made one with a list inside)
            return Passed

    def put(self, ctx: Context, action: Any, found: Any) -> Any:
        """Remember that ``action`` passed now, with ``found``; returns ``found``."""
        moment = ctx.moment()
        if self.moment != moment:
            self.moment, self.found = moment, {}
        try:
            self.found[action] = found
        except TypeError:
            pass
        return found


class Shared:
    """What every game of one scenario works out alike, kept across its games (one per checked scenario):
    the terrain as the scenario lays it, the terrains of the moment by what they are made of (the same wire,
    traps, structures' states, train and vehicles give the same terrain object), each terrain's memo of sight,
    range and cover (pure functions of the terrain and two points), and the bots' lookups of the table.

    All of it is bounded: at most ``TERRAINS`` terrains and ``MEMO_ENTRIES`` memo entries in all are kept
    (past either, that store starts afresh when a game next asks for it; a game holding the old one keeps it;
    a terrain whose memo alone holds more is emptied when a game next asks for it)."""

    TERRAINS = 64
    MEMO_ENTRIES = 150_000  # some 0.2 kB an entry: a worker of a long simulate holds at most ~30 MB of them

    def __init__(self, scenario: Scenario, base_terrain: Terrain | None = None) -> None:
        self.scenario = scenario
        self.base_terrain = build_terrain(scenario.spec, scenario.tables) if base_terrain is None else base_terrain
        self.terrains: dict[Any, Terrain] = {}
        self.memos: dict[int, tuple[Terrain, dict[Any, Any]]] = {}  # id(terrain) -> (terrain, its memo)
        self.bot_cache: dict[str, Any] = {}

    def terrain(self, key: Any, make: Callable[[], Terrain]) -> Terrain:
        """The terrain made of ``key`` (``Context.terrain``'s reading of the state), made by ``make`` once."""
        found = self.terrains.get(key)
        if found is None:
            if len(self.terrains) >= self.TERRAINS:
                self.terrains = {}
            found = self.terrains[key] = make()
        return found

    def memo(self, terrain: Terrain) -> dict[Any, Any]:
        """``terrain``'s memo (see ``Context.sight_memo``)."""
        found = self.memos.get(id(terrain))
        if found is None or found[0] is not terrain:
            if len(self.memos) >= self.TERRAINS or sum(len(m) for _, m in self.memos.values()) > self.MEMO_ENTRIES:
                self.memos = {}
            found = self.memos[id(terrain)] = (terrain, {})
        elif len(found[1]) > self.MEMO_ENTRIES:
            found[1].clear()  # a terrain every game plays on (nothing on it changes) fills its memo game after game
        return found[1]


_SHARED: dict[int, Shared] = {}  # id(scenario) -> its Shared (which holds the scenario, so the id stays its)


def shared(scenario: Scenario) -> Shared:
    """The :class:`Shared` of ``scenario`` (a checked scenario is one object for all its games: ``load_scenario``
    keeps it); at most 16 scenarios' are kept."""
    found = _SHARED.get(id(scenario))
    if found is None or found.scenario is not scenario:
        if len(_SHARED) >= 16:
            _SHARED.clear()
        found = _SHARED[id(scenario)] = Shared(scenario)
    return found
