"""The player page's menus, in a real headless Chromium against the real server.

Rooms are made by playing a seeded Omaha game with the doctrine bots up to the moment wanted
(a German's bunker choosing a target with the whole first wave ashore; American 1's squad at the
sea wall with obstacles in front), written to the server's database through its own ``Store`` as
the server writes them, and loaded by the server when it starts. The page must then offer every
legal target by a tap, the useful order first and in words, and the typed grammar of that
decision only. Screenshots at 1280x800 and 1366x768 go to ``$GROGNARD_SHOTS`` (or the test's tmp dir).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from browsers import needs_chromium
from grognard import rulesets
from grognard.core.dice import SeededDice
from grognard.core.engine import Decision, Game
from grognard.core.record import RecordWriter, make_header
from grognard.web.room import dice_stream, token_hash
from grognard.web.store import Store
from grognard.web.testing import ServerProcess

SIZES = ((1280, 800), (1366, 768))

pytestmark = needs_chromium
pytest.importorskip("playwright.sync_api")


def stored_room(store: Store, code: str, seed: int, seat: str, until: Any) -> tuple[str, Game, Decision]:
    """Play a seeded Omaha game with the doctrine bots until ``until(game, decision)`` holds for a decision
    owed by ``seat``; store it as a room being played, ``seat`` held by a player. Returns (token, game, decision)."""
    ruleset = rulesets.get("omaha")
    options = ruleset.resolve({})
    game = ruleset.new_game(options, SeededDice(dice_stream(seed)))
    writer = RecordWriter(make_header("omaha", options, "seeded", seed, server="grognard serve"))
    writer.start(game, game.take_events())
    bot = ruleset.bots["doctrine"](np.random.default_rng(seed))
    for _ in range(5000):
        owed = [d for d in game.pending() if d.seat == seat and until(game, d)]
        if owed:
            break
        decision = game.pending()[0]
        action = bot.choose(game, decision)
        writer.action(game, decision.seat, action, game.apply(decision.seat, action))
    else:
        raise AssertionError(f"seed {seed}: {seat} never came to the decision wanted")
    token = secrets.token_urlsafe(24)
    seats = {s: {"player": "p1" if s == seat else None, "bot": None} for s in game.seats()}
    meta = {
        "status": "playing",
        "paused": False,
        "dice": "seeded",
        "options": options,
        "host": token_hash(secrets.token_urlsafe(24)),
        "bot_seed": seed,
        "seed": seed,
        "players": {"p1": {"name": "Pat", "token": token_hash(token)}},
        "seats": seats,
        "seat_sides": {s: game.side_of(s) for s in game.seats()},
        "fill_bots": False,  # the game stays as stored: no bot on another seat fires first (its squads gone)
        "bot_names": {side: ruleset.default_bot for side in ruleset.sides},
        "timer": 0,
        "on_timeout": "bot",
        "next_player": 2,
    }
    store.create_room(code, "omaha", meta, writer.lines)
    return token, game, owed[0]


def at_the_wall(game: Any, decision: Decision) -> bool:
    if decision.id != "orders A1":
        return False
    squad = game.squad("A1")
    return abs(squad.y - 24.0) < 0.01 and bool(game.obstacles_in_front(squad))


@pytest.fixture(scope="module")
def rooms(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, dict[str, Any]]]:
    folder = tmp_path_factory.mktemp("menus")
    server = ServerProcess(folder)
    store = Store(server.db)
    made = {
        "german": ("GERMNS", *stored_room(store, "GERMNS", 15, "German 1", lambda g, d: d.id.startswith("fire "))),
        "wall": ("SEAWAL", *stored_room(store, "SEAWAL", 15, "American 1", at_the_wall)),
    }
    store.close()
    with server.start():
        yield server, made


def player_page(browser: Any, server: ServerProcess, code: str, token: str, size: tuple[int, int]) -> Any:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, bypass_csp=True)
    context.set_default_timeout(20000)
    context.add_init_script(f"localStorage.setItem('grognard:player:{code}', '{token}')")
    page = context.new_page()
    page.goto(f"{server.url}/play/{code}")
    page.wait_for_selector(".decision")
    return page


def choices(page: Any) -> list[tuple[str, str]]:
    """The menu of the first decision: (order sent, words shown)."""
    return [
        (radio.get_attribute("value"), radio.evaluate("r => r.labels[0].firstChild.textContent"))
        for radio in page.locator("input[name=d0]").all()
    ]


def test_a_bunker_can_target_every_squad_by_a_tap(browser: Any, rooms: Any, shots: Path) -> None:
    server, made = rooms
    code, token, game, decision = made["german"]
    targets = decision.space.targets
    assert len(targets) > 12  # the whole first wave is ashore: more than a menu of 12 held
    furthest = max(targets, key=lambda t: game.squad(t).y)
    bunker = decision.id.split()[1]
    for size in SIZES:
        page = player_page(browser, server, code, token, size)
        assert page.inner_text("#d0-h").startswith(f"German 1: bunker {bunker}")
        menu = choices(page)
        offered = [order for order, _ in menu]
        assert sorted(offered) == sorted([f"fire {bunker} {t}" for t in targets] + [f"fire {bunker} pass"])
        assert offered[-1] == f"fire {bunker} pass"
        assert game.squad(offered[0].split()[2]).y == game.squad(furthest).y  # furthest up the beach first
        assert all(words.startswith(("Fire at A", "Hold fire")) for _, words in menu), menu[:3]
        text = page.inner_text("body")
        assert "type 'board'" not in text and "'board'" not in text  # no terminal commands in the browser
        hint = page.inner_text("label[for=d0typed]")
        assert "fire BUNKER SQUAD|pass" in hint and f"for example: fire {bunker} " in hint
        assert "move SQUAD" not in hint and "fight" not in hint and "e.g. fire B3" not in hint
        # the last squad of the menu (once only typed) is one tap away, and is given
        last = page.locator("input[name=d0]").nth(len(menu) - 2)
        page.locator(f"label[for='{last.get_attribute('id')}']").click()
        assert last.is_checked()
        page.locator(".decision fieldset").first.screenshot(path=str(shots / f"german-bunker-menu-{size[0]}.png"))
        page.screenshot(path=str(shots / f"german-bunker-page-{size[0]}x{size[1]}.png"))
        page.context.close()


def test_at_the_sea_wall_the_useful_order_comes_first_in_words(browser: Any, rooms: Any, shots: Path) -> None:
    server, made = rooms
    code, token, game, decision = made["wall"]
    for size in SIZES:
        page = player_page(browser, server, code, token, size)
        assert page.inner_text("#d0-h") == f"American 1: {decision.prompt}"
        menu = choices(page)
        first_order, first_words = menu[0]
        assert first_order.startswith("fight A1 ") and "clear=" in first_order, menu
        assert first_words == f"Clear the obstacles at O1 with all {game.squad('A1').figures}", first_words
        moves = [order for order, _ in menu if order.startswith("move")]
        assert len(moves) <= 2, moves  # no row of near-identical moves
        raw = re.compile(r"^(move|fight|hold) A1\b")
        assert not [words for _, words in menu if raw.match(words)], menu  # words, never the typed form
        assert menu[-1] == ("hold A1", "Hold")
        hint = page.inner_text("label[for=d0typed]")
        assert "move SQUAD X Y" in hint and "fire BUNKER" not in hint and "artillery" not in hint
        page.screenshot(path=str(shots / f"american-sea-wall-{size[0]}x{size[1]}.png"))
        if size == SIZES[-1]:  # the first order, given with the menu's button
            page.locator(".decision fieldset").first.locator("button").click()
            # given: "Done" said, or already gone with the next decision (the obstacles cleared, A1 owes again)
            page.wait_for_function(
                "document.getElementById('message').textContent.startsWith('Done: fight A1') || "
                "!(document.querySelector('.decision fieldset input:checked') || {value: 'fight'})"
                ".value.startsWith('fight A1')"
            )
        page.context.close()
