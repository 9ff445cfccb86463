"""A burst is never laid on its firer's own position (skirmish.12): not on the piece nor the men of its crew at it,
not on the tank whose gun fires, not on the man with the mortar or bazooka; each touched as a man is by a
template (his base within the tolerance, skirmish.14), so each threshold is tried 0.02" either side. With the
option ``burst_min_range`` a group plays a minimum range too (to the aim point, inclusive).
"""

from __future__ import annotations

import numpy as np
import pytest
from shapely.geometry import Point

from grognard.rulesets.skirmish import artillery as AR
from grognard.rulesets.skirmish.actions import Burst, Fire, Move
from grognard.rulesets.skirmish.artillery import BurstSpace
from grognard.rulesets.skirmish.book import DoctrineBot
from grognard.rulesets.skirmish.bots_fire import burst_order
from test_skirmish_artillery import GUN, crew
from test_skirmish_guns import tank
from test_skirmish_rules import fig, fire, hold_moves, make, refusal, scenario, script, unit

DOWN = 270.0  # light_a turned so that its corner (1.25, 0) points straight down: its lowest point, 1.25" below


def gun(*crew_at: tuple[float, float], options: dict[str, float] | None = None) -> object:
    """A light gun at (10, 10) facing north, served by C at ``crew_at``; one axis man far north."""
    data = scenario([crew(*crew_at), unit("G", "axis", fig(10, 40)), unit("H", "axis", fig(46, 46, "pistol"))])
    data["pieces"] = [dict(GUN)]
    game = make(data, options=options)
    hold_moves(game)
    return game


@pytest.mark.rule("skirmish.12")
@pytest.mark.parametrize(
    ("crew_at", "touching", "clear", "named"),
    [
        (((10, 9), (11, 10)), 11.75, 11.77, "piece GUN"),  # the piece: its base 0.5" from the template's corner
        (((10, 11), (11, 10)), 12.75, 12.77, "C.1"),  # a man of its crew in front of it
    ],
)
def test_a_piece_never_lays_its_template_on_itself_or_its_crew(
    crew_at: tuple[tuple[float, float], ...], touching: float, clear: float, named: str
) -> None:
    game = gun(*crew_at)
    err = refusal(game, "Allies", Burst("GUN", (10.0, touching), DOWN))
    assert err.rule == "skirmish.12" and "GUN's own position" in str(err) and named in str(err)
    assert not BurstSpace(game.ctx, "GUN").contains(Burst("GUN", (10.0, touching), DOWN))
    script(game, 6)  # 0.02" further it is laid (and this ranging die misses: nobody is hurt)
    events = fire(game, Burst("GUN", (10.0, clear), DOWN))
    assert [e.data["at"] for e in events if e.kind == "burst_order"] == [[10.0, clear]]


@pytest.mark.rule("skirmish.12")
def test_the_issues_gun_line_order_is_refused_and_the_game_is_unchanged() -> None:
    """gun_line, seed 3: ``burst PAK 24,34`` laid the template on the piece and its three crewmen at 0"."""
    from grognard.core.dice import SeededDice
    from grognard.rulesets.skirmish import RULESET

    game = RULESET.create({"scenario": "gun_line"}, SeededDice(3))
    allies = DoctrineBot(np.random.default_rng(3))
    while "burst PAK" not in [d.id for d in game.pending()]:
        d = game.pending()[0]  # the allies come on as their bot moves them; the axis holds
        game.apply(
            d.seat,
            allies.choose(game, d) if d.seat == "Allies" else (Move if "move" in d.id else Fire)(d.id.split()[1]),
        )
    err = refusal(game, "Axis", Burst("PAK", (24.0, 34.0)))
    assert err.rule == "skirmish.12" and "piece PAK, K.1, K.2, K.3" in str(err)


@pytest.mark.rule("skirmish.12")
def test_a_tank_never_lays_its_guns_template_on_itself() -> None:
    game = tank((10, 10), (10, 10))
    hold_moves(game)
    top = game.ctx.vehicle_shape(game.state.vehicles["TK"]).bounds[3]
    # medium_a's corner (0.5, -1.5) is its lowest point: laid at (9.5, top + 1.5) it sits on the hull's front edge
    err = refusal(game, "Allies", Burst("TK", (9.5, round(top + 1.5, 2))))
    assert err.rule == "skirmish.12" and "TK's own position (TK)" in str(err)
    assert AR.plan_burst(game.ctx, "allies", Burst("TK", (9.5, round(top + 1.52, 2)))) is not None


@pytest.mark.rule("skirmish.12")
def test_a_mortar_man_never_lays_his_template_on_himself() -> None:
    game = make(scenario([unit("A", "allies", fig(10, 10, "mortar")), unit("G", "axis", fig(40, 46))]))
    hold_moves(game)
    # small_a reaches 0.75" west of its landing point: A.1's base (0.5") touches it at 11.25, not at 11.27
    err = refusal(game, "Allies", Burst("A.1", (11.25, 10.0)))
    assert err.rule == "skirmish.12" and "A.1's own position (A.1)" in str(err)
    assert AR.plan_burst(game.ctx, "allies", Burst("A.1", (11.27, 10.0))) is not None


@pytest.mark.rule("skirmish.12")
def test_the_burst_min_range_option_refuses_an_aim_point_nearer_than_it() -> None:
    assert AR.plan_burst(gun((10, 9), (11, 10)).ctx, "allies", Burst("GUN", (10.0, 15.98))) is not None  # default: none
    game = gun((10, 9), (11, 10), options={"burst_min_range": 6.0})
    err = refusal(game, "Allies", Burst("GUN", (10.0, 15.98)))
    assert (
        err.rule == "skirmish.12"
        and 'nearer than the minimum range of 6"' in str(err)
        and "burst_min_range" in str(err)
    )
    assert AR.plan_burst(game.ctx, "allies", Burst("GUN", (10.0, 16.0))) is not None  # 6" exactly: in range


@pytest.mark.rule("skirmish.12")
def test_the_doctrine_never_lays_its_template_on_its_own_piece() -> None:
    """An enemy man at the gun's muzzle: a template on him would touch the piece (not its crew, who stand behind
    and beside it); the doctrine lays one clear of the piece, or holds."""
    data = scenario(
        [crew((10, 9), (11, 10)), unit("G", "axis", fig(10, 11.4), fig(9.2, 12.6)), unit("H", "axis", fig(46, 46))]
    )
    data["pieces"] = [dict(GUN)]
    game = make(data)
    hold_moves(game)
    order = burst_order(game.ctx, BurstSpace(game.ctx, "GUN"))
    assert order.at is not None, "an enemy stands where a template clear of the piece still reaches him"
    planned = AR.plan_burst(game.ctx, "allies", order)
    assert planned is not None
    shape = AR.burst_polygon(game.ctx, planned)
    assert shape.distance(Point(10, 10)) > 0.51  # the piece's base clear of it
    assert [f.id for f in AR.under(game.ctx, shape)] and all(f.side == "axis" for f in AR.under(game.ctx, shape))
