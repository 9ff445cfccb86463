"""A scenario of one's own tried on a real server (``web/trials.py``, issue 32 item 4): "Test it" plays one game of
the book against the book at once and its replay opens; "Balance it" plays games in a worker process in the
background, its progress read as it goes, its figures those ``analysis.montecarlo`` gives for the same seed,
cancelled at will, bounded (one run a browser, two a server, 200 games a run); the other rooms answer meanwhile."""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browsers import needs_chromium
from grognard import rulesets
from grognard.analysis.montecarlo import Plan, play_chunk
from grognard.analysis.stats import wilson
from grognard.rulesets.skirmish.scenario import SCENARIOS_DIR
from grognard.web.testing import ServerProcess, call

RANGE = (Path(__file__).parent / "skirmish_fire_range.toml").read_text(encoding="utf-8")
STREET = (SCENARIOS_DIR / "village_street.toml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("trials")) as srv:
        yield srv


def asked(text: str, name: str = "range.toml", **more: Any) -> dict[str, Any]:
    return {"ruleset": "skirmish", "upload": {"name": name, "text": text}, **more}


def as_browser(key: str) -> dict[str, str]:
    return {"X-Grognard-Browser": key}


def rows_of(text: str, name: str, seed: int, games: int) -> list[dict[str, Any]]:
    """The rows ``analysis.montecarlo`` plays for games 0 .. games - 1 of the file, both sides the book."""
    ruleset = rulesets.get("skirmish")
    assert ruleset.files is not None
    given, embedded = ruleset.files.upload(name, text)
    plan = Plan("skirmish", ruleset.resolve(given), {"allies": "book", "axis": "book"}, seed, games, embedded=embedded)
    return play_chunk(plan, 0, games)


def test_test_it_plays_one_book_game_and_its_replay_opens(server: ServerProcess) -> None:
    status, made = call(server.url + "/api/trials/test", asked(RANGE, seed=7))
    assert status == 200, made
    assert made["bots"] == {"allies": "book", "axis": "book"} and made["seed"] == 7
    assert made["title"] == "Fire range: a MG and a mortar against a section in the open"
    # game 0 of seed 7, as the Monte Carlo runner plays it: the same dice, the same end
    row = rows_of(RANGE, "range.toml", 7, 1)[0]
    assert (made["result"]["outcome"], made["result"].get("winner") or "", made["turn"]) == (
        row["outcome"],
        row["winner"],
        row["turn"],
    )
    status, outline = call(server.url + "/api/" + made["url"].lstrip("/"))
    assert status == 200, outline
    assert outline["steps"] == made["steps"] > 2 and outline["result"] == made["result"]
    assert "a test of Fire range" in outline["title"]
    status, last = call(server.url + "/api/" + made["url"].lstrip("/") + f"/{made['steps'] - 1}")
    assert status == 200 and last["result"] == made["result"]
    status, page = call(server.url + made["url"])
    assert status == 200 and "replay.js" in page  # the replay viewer's page


def test_bad_input_to_a_trial_is_refused_in_one_line(server: ServerProcess) -> None:
    status, answer = call(server.url + "/api/trials/test", asked(RANGE.replace("width = 36.0", "width = -1.0", 1)))
    assert status == 400 and answer["code"] == "scenario" and "table.width" in answer["message"], answer
    status, answer = call(server.url + "/api/trials/balance", asked(RANGE, games=10000), headers=as_browser("b" * 12))
    assert status == 422 and answer["message"].startswith("malformed message: games: "), answer
    assert "\n" not in answer["message"]
    status, answer = call(server.url + "/api/trials/test", {"ruleset": "omaha", "upload": {"name": "x", "text": "y"}})
    assert status == 400 and answer["code"] == "no_upload", answer
    status, answer = call(server.url + "/api/trials/balance/nosuchrun")
    assert status == 404 and answer["code"] == "no_run", answer


def poll(server: ServerProcess, url: str, until: Any, tries: int = 600) -> dict[str, Any]:
    run: dict[str, Any] = {}
    for _ in range(tries):
        status, run = call(server.url + url)
        assert status == 200, run
        if until(run):
            return run
        time.sleep(0.1)
    raise AssertionError(f"not reached: {run}")


def test_a_small_balance_run_gives_each_sides_chance_as_the_monte_carlo_runner_does(server: ServerProcess) -> None:
    status, run = call(
        server.url + "/api/trials/balance", asked(RANGE, games=12, seed=11), headers=as_browser("c" * 12)
    )
    assert status == 200, run
    assert run["status"] == "running" and run["games"] == 12 and run["url"].endswith(run["id"])
    run = poll(server, run["url"], lambda r: r["status"] != "running")
    assert run["status"] == "done" and run["done"] == 12, run
    rows = rows_of(RANGE, "range.toml", 11, 12)
    wins = Counter(row["winner"] for row in rows if row["outcome"] == "win")
    for side in run["sides"]:
        assert side["wins"] == wins[side["side"]]
        assert (side["low95"], side["high95"]) == pytest.approx(wilson(side["wins"], 12))
        assert side["share"] == pytest.approx(side["wins"] / 12)
    assert run["draws"]["games"] == 12 - sum(wins.values())
    turns = sorted(row["turn"] for row in rows)
    assert run["turns"]["min"] == turns[0] and run["turns"]["max"] == turns[-1] and run["limit"] == 2
    assert run["cpu_seconds"] > 0 and run["left_seconds"] == 0


def test_a_trial_takes_the_rule_sets_other_options_as_a_new_game_does(server: ServerProcess) -> None:
    body = asked(RANGE, games=3, seed=5, options={"turn_limit": 1, "scenario": "village_street"})
    status, run = call(server.url + "/api/trials/balance", body, headers=as_browser("g" * 12))
    assert status == 200 and run["limit"] == 1, run  # the file stands for the scenario; the turn limit is the option's
    run = poll(server, run["url"], lambda r: r["status"] != "running")
    assert run["status"] == "done" and run["turns"]["max"] == 1, run
    status, answer = call(server.url + "/api/trials/test", asked(RANGE, options={"turn_limit": "x"}))
    assert status == 400 and answer["code"] == "option" and "turn_limit" in answer["message"], answer


def test_balance_runs_are_bounded_cancelled_and_never_hold_up_the_other_rooms(server: ServerProcess) -> None:
    """Two browsers' runs of 200 games of the village street: a second run of one browser and a third of the
    server are refused in one line; a room is made, joined and its page read while both play; each cancelled
    keeps the games it counted."""
    status, one = call(
        server.url + "/api/trials/balance", asked(STREET, "street.toml", games=200), headers=as_browser("d" * 12)
    )
    assert status == 200, one
    status, again = call(server.url + "/api/trials/balance", asked(RANGE, games=5), headers=as_browser("d" * 12))
    assert status == 409 and again["code"] == "busy" and "this browser's balance run is going on" in again["message"]
    status, two = call(
        server.url + "/api/trials/balance", asked(STREET, "street.toml", games=200), headers=as_browser("e" * 12)
    )
    assert status == 200, two
    status, third = call(server.url + "/api/trials/balance", asked(RANGE, games=5), headers=as_browser("f" * 12))
    assert status == 409 and "2 balance runs are going on" in third["message"], third
    poll(server, one["url"], lambda r: r["done"] > 0)  # the worker has begun
    # another room answers meanwhile: made, joined, its page
    status, room = call(server.url + "/api/rooms", {"ruleset": "skirmish", "options": {"scenario": "village_street"}})
    assert status == 200, room
    status, joined = call(server.url + f"/api/rooms/{room['code']}/join", {"name": "Ann", "side": "allies"})
    assert status == 200, joined
    status, page = call(server.url + f"/play/{room['code']}")
    assert status == 200 and room["code"] in page
    status, now = call(server.url + one["url"])
    assert now["status"] == "running" and now["done"] < 200, now  # it was still playing all the while
    for made in (one, two):
        status, stopped = call(server.url + made["url"], method="DELETE")
        assert status == 200 and stopped["status"] == "cancelled", stopped
        later = poll(server, made["url"], lambda r: True)
        assert later["status"] == "cancelled" and later["done"] == stopped["done"] < 200
        assert sum(s["wins"] for s in later["sides"]) + (later["draws"] or {"games": 0})["games"] == later["done"]
    status, fresh = call(server.url + "/api/trials/balance", asked(RANGE, games=2), headers=as_browser("d" * 12))
    assert status == 200, fresh  # the browser's run cancelled: it may start another
    poll(server, fresh["url"], lambda r: r["status"] == "done")


@needs_chromium
def test_the_page_tests_and_balances_a_file_with_progress_and_cancel(
    browser: Any, server: ServerProcess, shots: Path, tmp_path: Path
) -> None:
    """The home page's file of one's own: Test it gives the game's end and a link to its replay (which opens);
    Balance it shows the progress bar moving, each side's chance with its interval and the game's length, and a
    long run is cancelled by its button, keeping the games it counted."""
    pytest.importorskip("playwright.sync_api")
    mine = tmp_path / "range.toml"
    mine.write_text(RANGE, encoding="utf-8")
    street = tmp_path / "street.toml"
    street.write_text(STREET, encoding="utf-8")
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(30000)
    page = context.new_page()
    page.goto(server.url + "/")
    page.select_option("#ruleset", "skirmish")
    page.set_input_files("#opt-skirmish-scenario-file", str(mine))
    page.click("#opt-skirmish-scenario-test")
    page.wait_for_selector("#opt-skirmish-scenario-trial a.trial-replay")
    line = page.inner_text("#opt-skirmish-scenario-trial .trial-status")
    assert "One game, the book against the book (seed " in line and " on turn " in line, line
    href = page.get_attribute("#opt-skirmish-scenario-trial a.trial-replay", "href")
    replay = context.new_page()
    replay.goto(server.url + str(href))
    replay.wait_for_function("() => document.body.innerText.includes('a test of Fire range')")
    replay.close()
    # a small run to its end
    page.fill("#opt-skirmish-scenario-games", "12")
    page.click("#opt-skirmish-scenario-balance")
    page.wait_for_selector("#opt-skirmish-scenario-trial[data-run='done']")
    words = page.inner_text("#opt-skirmish-scenario-trial")
    assert "12 of 12 games (done)" in words and "Game length: " in words, words
    for side in ("allies", "axis"):
        found = re.search(side + r"\t(\d+) of 12\t(\d+)%\t(\d+)% to (\d+)%", words)
        assert found, words
        low, high = wilson(int(found.group(1)), 12)
        assert (int(found.group(3)), int(found.group(4))) == (round(100 * low), round(100 * high)), words
    assert page.get_attribute("#opt-skirmish-scenario-trial progress", "value") == "12"
    snap(page, shots, "trial-balance-done")
    # a long one, seen moving, then cancelled
    page.set_input_files("#opt-skirmish-scenario-file", str(street))
    page.fill("#opt-skirmish-scenario-games", "200")
    page.click("#opt-skirmish-scenario-balance")
    page.wait_for_function(
        "() => { const p = document.querySelector('#opt-skirmish-scenario-trial progress');"
        " return (p && p.value >= 2) || document.querySelector('#opt-skirmish-scenario-trial .problem'); }",
        timeout=90000,  # the worker's first games, on a machine shared with the rest of the suite
    )
    assert not page.locator("#opt-skirmish-scenario-trial .problem").count(), page.inner_text(
        "#opt-skirmish-scenario-trial"
    )
    snap(page, shots, "trial-balance-progress")
    page.click("#opt-skirmish-scenario-trial .trial-cancel")
    page.wait_for_selector("#opt-skirmish-scenario-trial[data-run='cancelled']")
    words = page.inner_text("#opt-skirmish-scenario-trial")
    found = re.search(r"Book against book, (\d+) of 200 games \(cancelled\)", words)
    assert found and 2 <= int(found.group(1)) < 200, words
    assert "95% interval" in words
    context.close()


def snap(page: Any, shots: Path, name: str) -> None:
    """The page at 1366x768 and 1920x1080, the trial's box in sight."""
    page.locator("#opt-skirmish-scenario-trial").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"{name}-1366x768.png"), full_page=False)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.wait_for_timeout(150)
    page.screenshot(path=str(shots / f"{name}-1920x1080.png"), full_page=False)
    page.set_viewport_size({"width": 1366, "height": 768})


@needs_chromium
def in_the_editor(browser: Any, server: ServerProcess, tmp_path: Path) -> tuple[Any, Any]:
    """A context and its page on the table editor at 1366x768, the fire range's file opened and checked sound."""
    pytest.importorskip("playwright.sync_api")
    mine = tmp_path / "range.toml"
    mine.write_text(RANGE, encoding="utf-8")
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(30000)
    page = context.new_page()
    page.goto(server.url + "/editor")
    page.wait_for_selector("main[data-checked]")
    page.set_input_files("#ed-file", str(mine))
    page.wait_for_function("() => document.getElementById('ed-status').textContent.startsWith('checked: no problems')")
    return context, page


def test_the_editors_buttons_test_balance_and_play_its_table(
    browser: Any, server: ServerProcess, shots: Path, tmp_path: Path
) -> None:
    """The table editor's Test it, Balance it and Play take the table as it stands (its file, as the editor
    writes it): one game's end and its replay's link, a small run's figures, then a room hosted on it."""
    context, page = in_the_editor(browser, server, tmp_path)
    page.click("#ed-test")
    page.wait_for_selector("#ed-run a.trial-replay")
    assert "One game, the book against the book (seed " in page.inner_text("#ed-run")
    page.fill("#ed-games", "6")
    page.click("#ed-balance")
    page.wait_for_selector("#ed-run[data-run='done']")
    words = page.inner_text("#ed-run")
    assert "6 of 6 games (done)" in words and "95% interval" in words and "Game length: " in words, words
    page.screenshot(path=str(shots / "trial-editor-balance-1366x768.png"))
    page.click("#ed-play")
    page.wait_for_url("**/host/*")
    page.wait_for_function(
        "t => document.querySelector('header h1').innerText.includes(t)",
        arg="Fire range: a MG and a mortar against a section in the open",
    )
    context.close()


def test_a_number_of_games_out_of_reach_is_said_in_words_and_asks_nothing(
    browser: Any, server: ServerProcess, shots: Path, tmp_path: Path
) -> None:
    """The editor's Balance it over 10000 games said 'Not balanced: malformed message: games: Input should be
    less than or equal to 200' (the server's validation, in its words); now the page says the number typed and
    the reach, and starts no run."""
    context, page = in_the_editor(browser, server, tmp_path)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if "/api/trials/" in request.url else None)
    for typed in ("10000", "0", "2.5"):
        page.fill("#ed-games", typed)
        page.click("#ed-balance")
        said = page.inner_text("#ed-run")
        assert said == (
            f"Not balanced: games: {typed}: a whole number from 1 to 200 here (grognard balance at a terminal "
            "plays more)"
        ), said
    page.screenshot(path=str(shots / "trial-editor-games-out-of-reach-1366x768.png"))
    assert asked == []
    context.close()
