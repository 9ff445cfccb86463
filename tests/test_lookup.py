"""One lookup of the decision an action answers (issue 30, item 4): ``core.lookup.find_decision``, which
``Game.find_decision`` is for one seat and the web room asks for every seat a player holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from grognard import rulesets
from grognard.core.dice import SeededDice
from grognard.core.engine import Game
from grognard.core.errors import IllegalAction
from grognard.core.lookup import NotOwed, find_decision

WEB = Path(__file__).resolve().parents[1] / "src" / "grognard" / "web"


def _landing() -> Game:
    """An Omaha game of two Germans past the bunkers' placing: six American squads owe orders."""
    ruleset = rulesets.get("omaha")
    game = ruleset.create(ruleset.resolve({"germans": 2}), SeededDice(3), None)
    while game.pending()[0].id.startswith("place"):
        decision = game.pending()[0]
        game.apply(decision.seat, decision.space.candidates(1)[0])
    return game


def test_the_decision_of_one_of_several_seats() -> None:
    game = _landing()
    parse = rulesets.get("omaha").parse_action
    found = find_decision(game, ["American 1", "American 3"], parse("hold A3"))
    assert (found.id, found.seat) == ("orders A3", "American 3")
    with pytest.raises(NotOwed) as named:  # the decision named is another seat's: which, and whose
        find_decision(game, ["American 1", "American 3"], parse("hold A2"))
    assert named.value.owner is not None and named.value.owner.seat == "American 2"
    with pytest.raises(NotOwed) as nobody:
        find_decision(game, ["German 1"], parse("hold A1"))
    assert nobody.value.owner is not None and nobody.value.owner.seat == "American 1"
    with pytest.raises(NotOwed) as absent:  # a squad the game has not: said so, nobody's
        find_decision(game, ["American 1"], parse("hold A99"))
    assert absent.value.owner is None and "A99" in str(absent.value)
    with pytest.raises(IllegalAction) as refused:  # the space's own refusal, not a NotOwed
        find_decision(game, ["American 1"], parse("move A1 40 0"))
    assert not isinstance(refused.value, NotOwed)
    assert game.digest() == _landing().digest()  # nothing asked changed the game


def test_the_engine_and_the_room_share_it() -> None:
    """``Game.find_decision`` gives the one lookup's answer for one seat, in the engine's words; no module of the
    web looks a decision up by itself (``decision_id`` and the pending list filtered by seat are the core's)."""
    game = _landing()
    parse = rulesets.get("omaha").parse_action
    assert game.find_decision("American 2", parse("hold A2")).id == "orders A2"
    with pytest.raises(NotOwed, match=r"^hold A2: 'orders A2' is owed by American 2, not American 1$"):
        game.find_decision("American 1", parse("hold A2"))
    with pytest.raises(NotOwed, match=r"^'hold A99': there is no squad A99 in this game \(A1 to A6\)$"):
        game.find_decision("American 1", parse("hold A99"))
    for path in sorted(WEB.rglob("*.py")):
        assert "decision_id(" not in path.read_text(), f"{path.name} looks a decision up by itself"
