"""The host's "Take back the last action" is free until a die is rolled or a secret revealed (issue 28).

Against a real server process: in each rule set an action that rolled nothing is taken back (its seat is
asked again), and one that rolled dice or revealed the sealed melee choices stands: refused in one line
naming the roll (code ``stands``), the game as it was; the host's state says why before the button is
pressed (its tooltip).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browsers import needs_chromium
from grognard.web.testing import ServerProcess, call
from test_web_api import Client, join
from test_web_keep import answer_dice

YARD = (Path(__file__).parent / "skirmish_melee_yard.toml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("take_back")) as srv:
        yield srv


def room(srv: ServerProcess, **body: Any) -> dict[str, Any]:
    status, made = call(srv.url + "/api/rooms", body)
    assert status == 200, made
    return dict(made)


def started(srv: ServerProcess, made: dict[str, Any], fill_bots: bool) -> Client:
    """The host's page, the game started (``fill_bots``: bots on the empty seats)."""
    host = Client(srv, made["code"], "host", made["host_token"])
    host.state_where(lambda s: s.get("ready"))
    host.send({"type": "settings", "fill_bots": fill_bots})
    host.until(lambda m: m["type"] == "ack")
    host.send({"type": "start"})
    host.until(lambda m: m["type"] == "ack")
    return host


def act(page: Client, text: str, n: int) -> int:
    """``page`` gives the order ``text``; its step, once acknowledged."""
    page.send({"type": "act", "action": text, "n": n})
    answer = page.until(lambda m: m["type"] in ("ack", "refused") and m.get("n") == n, timeout=60)
    assert answer["type"] == "ack", answer
    return int(answer["step"])


def owed(page: Client, prefix: str) -> dict[str, Any]:
    """The first decision of ``page``'s seats whose id begins with ``prefix``, once it is owed."""
    state = page.state_where(lambda s: any(d["id"].startswith(prefix) for d in s.get("decisions", [])), 60)
    return dict(next(d for d in state["decisions"] if d["id"].startswith(prefix)))


def take_back(host: Client) -> dict[str, Any]:
    """The host presses "Take back the last action": the answer (an ack, or the refusal)."""
    host.send({"type": "undo"})
    return host.until(lambda m: m["type"] == "refused" or (m["type"] == "ack" and m.get("op") == "undo"))


def taken_back(host: Client, step: int) -> None:
    """The host takes back the action of record step ``step`` (nothing rolled: the host's state says none
    stands), then lets the game go on (a take back pauses it)."""
    host.state_where(lambda s: s["host"]["steps"] == step and s["host"]["stands"] is None)
    assert take_back(host)["type"] == "ack"
    host.state_where(lambda s: s["host"]["steps"] == step - 1 and s["paused"])
    host.send({"type": "pause", "paused": False})
    host.until(lambda m: m["type"] == "ack")


def stands(host: Client, step: int, why: str) -> None:
    """The action of step ``step`` stands: the host's state says so (``why``, a pattern), take back is refused
    in one line saying the same, and the game stays at that step."""
    state = host.state_where(lambda s: s["host"]["steps"] == step and s["host"]["stands"] is not None)
    said = state["host"]["stands"]
    assert re.fullmatch(why, said), said
    refused = take_back(host)
    assert refused["type"] == "refused" and refused["code"] == "stands", refused
    assert refused["message"] == f"that action stands: {said}"
    time.sleep(0.3)  # a take back done after all would show by now
    while True:
        try:
            host.recv(0.2)
        except TimeoutError:
            break
    assert host.state is not None and host.state["host"]["steps"] == step and not host.state["paused"]


def test_omaha_a_held_squad_is_taken_back_and_the_landing_and_bunker_fire_stand(server: ServerProcess) -> None:
    """Four people: the German's placement rolls the landing (it stands); American 1's hold rolls nothing
    (taken back, asked again); the bunker's fire stands."""
    made = room(server, ruleset="omaha", options={"germans": 1})
    code = made["code"]
    americans = [join(server, code, f"Pupil {k}", "american") for k in range(3)]
    german = join(server, code, "Gerda", "german")
    host = started(server, made, fill_bots=False)
    g = Client(server, code, "player", german["token"])
    step = act(g, owed(g, "place")["choices"][0]["text"], 1)
    stands(host, step, r"its dice were rolled \(place G1 \d \d by German 1: \d+ dice\)")
    pupils = [Client(server, code, "player", a["token"]) for a in americans]
    step = act(pupils[0], "hold A1", 2)
    taken_back(host, step)
    assert owed(pupils[0], "orders A1")  # asked again
    for k, pupil in enumerate(pupils):
        act(pupil, f"hold A{k + 1}", 3 + k)
    fire = owed(g, "fire")
    step = act(g, fire["choices"][0]["text"], 6)
    stands(host, step, r"its dice were rolled \(fire B\d A\d+ by German 1: 4 dice\)")
    for c in (host, g, *pupils):
        c.close()


def test_b17_a_flight_is_taken_back_and_the_placement_stands(server: ServerProcess) -> None:
    """The bombers' player and the fighters': the box's placement rolls the fighters' entry (it stands); the
    first flight (a bomber's, or a fighter's that attacks nobody) rolls nothing: taken back, asked again."""
    made = room(server, ruleset="b17", options={})
    code = made["code"]
    bombers, fighters = join(server, code, "Ann", "american"), join(server, code, "Axel", "german")
    host = started(server, made, fill_bots=False)
    ann, axel = Client(server, code, "player", bombers["token"]), Client(server, code, "player", fighters["token"])
    step = act(ann, owed(ann, "place")["choices"][0]["text"], 1)
    stands(host, step, r"its dice were rolled \(place 1 [\d.,]+ [\d.,]+ [\d.,]+ [\d.,]+ by American: \d+ dice\)")
    host.state_where(lambda s: any(seat["owes"] for seat in s["seats"]))
    first = ann if any(seat["owes"] for seat in host.state["seats"] if seat["seat"] == "American") else axel
    flight = owed(first, "move")
    texts = [c["text"] for c in flight["choices"]]
    # a flight that attacks nobody ('fly F1 13 -45'); where the menu offers attacks alone (a fighter that starts in
    # reach of the box), the first one's path flown without its attack
    plain = next((t for t in texts if len(t.split()) == 4), " ".join(texts[0].split()[:4]))
    step = act(first, plain, 2)
    taken_back(host, step)
    assert owed(first, flight["id"])
    for c in (host, ann, axel):
        c.close()


def refereed(host: Client, page: Client, text: str, n: int, value: str = "1") -> int:
    """``page`` gives ``text`` in a referee's game, the host typing ``value`` for every die it asks; its step."""
    page.send({"type": "act", "action": text, "n": n})
    host_fresh = True
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            answer = page.recv(0.05)
            if answer["type"] in ("ack", "refused") and answer.get("n") == n:
                assert answer["type"] == "ack", answer
                return int(answer["step"])
        except TimeoutError:
            pass
        try:
            host_fresh = host.recv(0.05)["type"] == "state" or host_fresh
        except TimeoutError:
            pass
        request = host.state["host"]["dice_request"] if host.state else None
        if request is not None and host_fresh:
            assert answer_dice(host, " ".join([value] * int(request["n"])))["type"] == "ack"
            host_fresh = False
    raise AssertionError(f"{text}: no answer")


def test_skirmish_a_move_and_a_sealed_choice_are_taken_back_the_strikes_and_the_reveal_stand(
    server: ServerProcess,
) -> None:
    """A referee's melee (every die a 1: both strikes miss): the charge rolls nothing (taken back); the strikes
    stand; Ann's sealed retreat is taken back while Axel has not chosen (nothing revealed), and once both
    are in, the reveal stands."""
    made = room(server, ruleset="skirmish", dice="manual", upload={"name": "melee_yard.toml", "text": YARD})
    code = made["code"]
    allies, axis = join(server, code, "Ann", "allies"), join(server, code, "Axel", "axis")
    host = started(server, made, fill_bots=False)
    ann, axel = Client(server, code, "player", allies["token"]), Client(server, code, "player", axis["token"])
    owed(axel, "move G")
    step = act(axel, "move G / G.1 to 12,12", 1)  # the charge: bases touching
    taken_back(host, step)
    owed(axel, "move G")
    act(axel, "move G / G.1 to 12,12", 2)
    act(ann, "hold A", 3)
    act(ann, "fire A hold", 4)
    step = refereed(host, axel, "fire G hold", 5)  # the last fire order: the melee strikes are rolled
    stands(host, step, r"its dice were rolled \(fire G hold by Axis: 2 dice\)")
    mine, theirs = owed(ann, "melee")["id"], owed(axel, "melee")["id"]
    step = act(ann, f"{mine} retreat", 6)
    taken_back(host, step)  # sealed, not revealed: Ann may change her mind
    step = act(ann, f"{owed(ann, 'melee')['id']} retreat", 7)
    step = act(axel, f"{theirs} retreat", 8)
    chosen = ", ".join(sorted((mine, theirs)))
    stands(host, step, re.escape(f"it revealed the secret choices ({theirs} retreat by Axis: {chosen} shown)"))
    for c in (host, ann, axel):
        c.close()


@needs_chromium
def test_the_host_page_says_why_an_action_stands(browser: Any, server: ServerProcess, shots: Path) -> None:
    """In Chromium: the host's "Take back" button's tooltip gives the rule, or why the last action stands
    (the German's placement rolled the landing); pressed then, the page says so in one line; after a hold
    (nothing rolled) the tooltip is the rule again and the button takes it back. Screenshots at 1366x768
    and 1920x1080."""
    pytest.importorskip("playwright.sync_api")
    made = room(server, ruleset="omaha", options={"germans": 1})
    code = made["code"]
    americans = [join(server, code, f"Pupil {k}", "american") for k in range(3)]
    german = join(server, code, "Gerda", "german")
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    context.add_init_script(f"localStorage.setItem('grognard:host:{code}', {made['host_token']!r})")
    host = context.new_page()
    host.set_default_timeout(30000)
    host.goto(f"{server.url}/host/{code}")
    host.wait_for_selector("#seat-rows tr")
    host.uncheck("#fill-bots")
    host.click("#settings button[type=submit]")
    host.wait_for_function("!document.getElementById('start').disabled")
    host.click("#start")
    g = Client(server, code, "player", german["token"])
    act(g, owed(g, "place")["choices"][0]["text"], 1)
    host.wait_for_function("document.getElementById('undo').title.startsWith('The last action stands: ')")
    title = host.get_attribute("#undo", "title") or ""
    assert re.fullmatch(
        r"The last action stands: its dice were rolled \(place G1 \d \d by German 1: \d+ dice\)\. .+", title
    )
    host.click("#undo")
    host.wait_for_function("document.getElementById('message').textContent.startsWith('Refused: ')")
    message = host.inner_text("#message")
    assert re.fullmatch(
        r"Refused: that action stands: its dice were rolled \(place G1 \d \d by German 1: \d+ dice\)", message
    )
    for size in ((1366, 768), (1920, 1080)):
        host.set_viewport_size({"width": size[0], "height": size[1]})
        host.screenshot(path=str(shots / f"take_back_stands_{size[0]}x{size[1]}.png"))
    pupil = Client(server, code, "player", americans[0]["token"])
    act(pupil, "hold A1", 2)
    host.wait_for_function("document.getElementById('undo').title.startsWith('Take back works until a die')")
    host.click("#undo")
    host.wait_for_function("document.getElementById('pause').textContent === 'Resume'")  # taken back: paused
    assert owed(pupil, "orders A1")
    for c in (g, pupil):
        c.close()
    context.close()
