"""What the B-17 raid's view (``B17Game.view``) says beyond the state, worked out by the rules for the terminal
and the pages (``view_words``): each aircraft's move, and the terms of the decisions owed. The raid hides
nothing, so every seat is told all of it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from grognard.rulesets.b17 import rules as R

if TYPE_CHECKING:
    from grognard.rulesets.b17.game import B17Game


def seen(game: B17Game, view: dict[str, Any]) -> dict[str, Any]:
    """``view`` (the state as JSON, its seat and the decisions owed) with, added:

    - ``motion``: for each aircraft, ``unplaced`` (a bomber whose box is not on the table yet, b17.8), ``altitude`` (a
      fighter's element above or below the bombers, b17.21, else ``None``) and ``allowance``, the inches it
      flies this move (b17.22-b17.28);
    - ``moving``: for each aircraft owed a move, its path's terms (``straight``: inches at least straight,
      ``turn``: the largest turn, b17.25, b17.27) and ``reach``, ``[enemy, inches]`` from the fighter's nose to
      each enemy flying (b17.34);
    - ``guns_in_range``: for each bomber's fire owed at a fighter (``"B1 F2"``), ``[gun, inches]`` of each gun position
      in range (b17.44).
    """
    s = game.state
    view["motion"] = {
        a.label: {"unplaced": s.unplaced(a), "altitude": game.altitude(a), "allowance": game.allowance(a)}
        for a in s.aircraft.values()
    }
    moving: dict[str, Any] = {}
    guns: dict[str, Any] = {}
    for decision in game.pending():
        kind, _, rest = decision.id.partition(" ")
        if kind == "move":
            a = game.aircraft(rest)
            length = game.allowance(a)
            enemies = game.flying_fighters() if a.bomber else game.flying_bombers()
            reach = [
                [e.label, R.attack_range(s.options, e, e.x, e.y, e.heading, a)]
                if a.bomber
                else [e.label, R.attack_range(s.options, a, a.x, a.y, a.heading, e)]
                for e in enemies
            ]
            moving[rest] = {"straight": R.minimum_straight(a, length), "turn": R.max_turn(a), "reach": reach}
        elif kind == "guns":
            bomber, fighter = rest.split()
            in_range = R.guns_in_range(s.options, game.aircraft(bomber), game.aircraft(fighter))
            guns[rest] = [[gun, d] for gun, d in in_range.items()]
    view["moving"] = moving
    view["guns_in_range"] = guns
    return view
