"""What every part of :class:`~.game.SkirmishGame` kept in a module of its own (vehicles, castles,
paratroop drops) may use of the game: its state, scenario, tables and terrain, and the engine's
``emit`` and ``roll``. The mixins derive from :class:`GamePart`, so this is said once."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from grognard.rulesets.skirmish.scenario import Scenario
from grognard.rulesets.skirmish.state import Figure, SkirmishState
from grognard.rulesets.skirmish.tables import Tables
from grognard.rulesets.skirmish.terrain import Terrain


class GamePart:
    """The attributes and methods of the skirmish game that its mixins read (for type checking)."""

    state: SkirmishState
    scenario: Scenario
    tables: Tables
    base_terrain: Terrain

    if TYPE_CHECKING:

        @property
        def terrain(self) -> Terrain: ...

        def allowance(self, figure: Figure) -> float: ...

        def emit(self, kind: str, to: Iterable[str] | None = None, **data: Any) -> None: ...

        def roll(self, n: int, sides: int = 6, purpose: str = "") -> list[int]: ...

        def _kill(self, f: Figure, why: str) -> None: ...
