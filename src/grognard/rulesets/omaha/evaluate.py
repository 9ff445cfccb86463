"""A heuristic score of an Omaha position, for search bots that cut their playouts short.

``evaluate(game, side)`` is about the chance that ``side`` wins from here when
both sides then play the doctrine (omaha.27-28): a logistic function of a few
features of the position, each in [0, 1], from the American point of view:

- ``exits``: exits open (O17), out of the bunkers: the American goal itself;
- ``knocked``: bunkers knocked out (silenced or destroyed);
- ``defenders``: defenders killed in the bunkers still active (shooting's
  progress toward silencing them);
- ``exit_clear``: how clear the exit sections (the obstacle sections in front
  of the bunkers) are: 1 clear, 1/2 one obstacle left, 1/4 two, 1/2 unknown;
- ``cleared``: obstacle sections cleared anywhere (a way through the band);
- ``force``: figures of the squads on the table, out of 12 per American player;
- ``advance``: how near those figures are to their work, weighted by
  figures: 1 at the nearest goal, 0 a beach's depth (water included) or more
  away; the goals are the contact points of the active bunkers and the wall
  in front of the exits still blocked by obstacles;
- ``reserve``: squads each American player has not yet lost (fresh squads,
  omaha.33), out of all he may land; 1 when fresh squads are unlimited.

The weights were fitted by logistic regression to the final results of
doctrine-against-doctrine games (1 and 2 German players, fresh squads 1-3;
a position sampled at the start of each turn's American phase) and rounded:
``bench/omaha_evaluate_fit.py`` refits them and prints the calibration (the
predicted American chance tracks the observed win rate within a few points
in every tenth). It is a chance under doctrine play: a position the doctrine
would squander is not scored lower for it. With fresh squads unlimited the
Americans cannot lose, and the score then measures progress, not a chance.
A game over scores 1 or 0 for a winner and 0.5 otherwise; the German score
is one minus the American one.
"""

from __future__ import annotations

import math

from grognard.rulesets.omaha import rules as R
from grognard.rulesets.omaha.data import BAND_END_Y, DEFENDERS, SQUAD_SIZE, WALL_Y
from grognard.rulesets.omaha.game import OmahaGame

FEATURES = ("exits", "knocked", "defenders", "exit_clear", "cleared", "force", "advance", "reserve")

# logistic weights of the features (American point of view) and the intercept
WEIGHTS: dict[str, float] = {
    "exits": 1.5,
    "knocked": 4.1,
    "defenders": 3.9,
    "exit_clear": 1.2,
    "cleared": 0.7,
    "force": 0.8,
    "advance": 5.9,
    "reserve": 4.8,
}
INTERCEPT = -6.9

_CLEAR = {0: 1.0, 1: 0.5, 2: 0.25}


def features(game: OmahaGame) -> dict[str, float]:
    """The features of the position, each in [0, 1], American point of view (see the module's notes)."""
    s = game.state
    bunkers = list(s.bunkers.values())
    n = max(len(bunkers), 1)
    active = [b for b in bunkers if b.active]
    exit_clear = 0.0
    for b in bunkers:
        count = s.obstacles[R.exit_section(b.section, s)]
        exit_clear += 0.5 if count is None else _CLEAR.get(count, 0.0)
    players = s.americans
    m = max(len(players), 1)
    span = BAND_END_Y + float(s.options["water"])  # from the water's far edge to the band's far edge
    goals = [R.contact_point(b) for b in active]
    goals += [
        (R.bunker_centre(b.section), WALL_Y)  # the wall in front of a blocked exit, where it is cleared
        for b in bunkers
        if not b.active and s.obstacles[R.exit_section(b.section, s)] != 0
    ]
    force = advance = reserve = 0.0
    limit = s.options["fresh_squads"]
    for p in players:
        squad = p.squad
        if squad is not None:
            share = squad.figures / SQUAD_SIZE
            force += share
            if goals:
                gap = min(math.hypot(squad.x - gx, squad.y - gy) for gx, gy in goals)
                advance += share * max(1.0 - gap / span, 0.0)
        if p.out:
            continue
        if limit is None:
            reserve += 1.0
        else:
            lost = p.landings - (1 if squad is not None else 0)
            reserve += max(limit + 1 - lost, 0) / (limit + 1)
    return {
        "exits": len(s.exits_open) / n,
        "knocked": (len(bunkers) - len(active)) / n,
        "defenders": sum(DEFENDERS - b.defenders for b in active) / (DEFENDERS * n),
        "exit_clear": exit_clear / n,
        "cleared": sum(1 for c in s.obstacles if c == 0) / max(len(s.obstacles), 1),
        "force": force / m,
        "advance": advance / m,
        "reserve": reserve / m,
    }


def american_chance(game: OmahaGame) -> float:
    """The heuristic chance that the Americans win from this position."""
    f = features(game)
    z = INTERCEPT + sum(WEIGHTS[name] * f[name] for name in FEATURES)
    return 1.0 / (1.0 + math.exp(-z))


def evaluate(game: OmahaGame, side: str) -> float:
    """``side``'s score of the position in [0, 1]: about its chance to win (``Analysis.evaluate``)."""
    result = game.result
    if result is not None:
        if result.winner is None:
            return 0.5
        return 1.0 if result.winner == side else 0.0
    chance = american_chance(game)
    return chance if side == "american" else 1.0 - chance
