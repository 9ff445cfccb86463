"""The events of an Omaha game, as data (:mod:`grognard.core.events`): each kind, its fields and what it means."""

from __future__ import annotations

from grognard.core.events import EventKinds, kind

EVENTS = EventKinds(
    kind("setup", "the beach laid out", germans=int, americans=int, width=float, water=float, ground=float),
    kind("obstacles", "a section's obstacles rolled (omaha.8)", section=str, count=int),
    kind("turn", "a turn begins", turn=int),
    kind("placed", "a German placed his bunkers' sections (optional rule)", german=str, sections=list),
    kind("landed", "a squad landed (omaha.11)", squad=str, inches=int, x=float, y=float, fresh=bool),
    kind("drowned", "figures of a squad landed in deep water drowned (omaha.12)", squad=str, figures=int),
    kind("morale", "a squad's morale check (omaha.28)", squad=str, lost=int, failed=bool),
    kind("squad_lost", "a squad is gone", squad=str, why=str, figures=int, x=float, y=float),
    kind("out_of_squads", "an American player has no fresh squad left (optional rule)", player=str),
    kind("joins_germans", "an American player out of squads takes a bunker (omaha.33)", player=str, bunker=str),
    kind("moved", "a squad moved", squad=str, x0=float, y0=float, x=float, y=float),
    kind("past_wall", "a squad crossed the sea wall", squad=str, turn=int, first=bool),
    kind("cleared", "a squad cleared obstacles", squad=str, section=str, cleared=int, left=int),
    kind("shot", "a squad shot at a bunker", squad=str, bunker=str, killed=int, left=int, status=str),
    kind("assault_moot", "an assault on a bunker already emptied: no dice", squad=str, bunker=str, status=str),
    kind("assault", "a squad assaulted a bunker (any 6 destroys)", squad=str, bunker=str, success=bool, killed=int),
    kind("holds", "a squad did nothing this turn", squad=str),
    kind("bunker_fire", "a bunker fired at a squad", bunker=str, target=str, dice=int, hits=int, killed=int),
    kind("holds_fire", "a bunker held its fire", bunker=str),
    kind(
        "artillery",
        "a German's artillery strike on a squad (omaha.24)",
        german=str,
        target=str,
        landed=bool,
        killed=int,
        hits=int,
        optional=("hits",),
    ),
    kind("no_artillery", "a German called no artillery", german=str),
    kind("exit_opened", "a bunker's beach exit opened", bunker=str, turn=int, first=bool),
    kind("resigned", "a seat gave up", seat=str, side=str),
    kind("game_over", "the game ended", outcome=str, winner=str | None, turn=int, reason=str, scores=dict),
)
