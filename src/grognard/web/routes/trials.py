"""A scenario of one's own tried from its text (``web/trials.py``): the table editor's "Test it" and "Balance it"
("Play" is ``POST /api/rooms`` with the same ``upload``: the usual host page).

``POST /api/trials/test`` ``{"ruleset", "upload": {"name", "text"}, "options"?, "seed"?}``: one game of the book
against the book, played at once: ``{"url" (its replay), "result", "steps", "turn", "seed", "cpu_seconds"}``.
``POST /api/trials/balance`` (the same, and ``"games"``): games played in the background, the run as it stands
(``Run.to_json``) and its ``url``; ``GET`` that url: how it stands now; ``DELETE``: cancelled. A bad file is
refused as a new game's is (every problem listed); past a bound, one line.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, ConfigDict, Field

from grognard import rulesets
from grognard.analysis.montecarlo import Plan
from grognard.core.dice import SeededDice
from grognard.core.options import check_offered
from grognard.web import faces
from grognard.web.deps import ServerDep
from grognard.web.guard import CodeGate
from grognard.web.messages import RefusalCode
from grognard.web.protocol import OptionValue, Refused, Upload
from grognard.web.replays import read
from grognard.web.server import client_address
from grognard.web.trials import MAX_GAMES, book_of, turn_limit

router = APIRouter()
PATHS = ("/api/trials/test", "/api/trials/balance")  # the bodies with a file in them (``guard.Guard``'s ``wider``)


class Trial(BaseModel):
    """A scenario of one's own to try: the rule set, the file (as a new game's ``upload``), the rule set's other
    options (as a new game's), the dice's seed (a random one when left out: the answer names it, so the same
    games can be played again)."""

    model_config = ConfigDict(extra="forbid")
    ruleset: Annotated[str, Field(min_length=1, max_length=32)]
    upload: Upload
    options: Annotated[dict[Annotated[str, Field(max_length=40)], OptionValue], Field(max_length=40)] = {}
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = None


class Balance(Trial):
    games: Annotated[int, Field(ge=1, le=MAX_GAMES)] = 100


def _plan(body: Trial, games: int) -> tuple[Plan, str, int | None]:
    """The games to play of ``body``'s file (checked whole, as a new game's: ``ScenarioError`` lists every
    problem): the plan, the game's own name (its scenario's title, else the file's name) and its turn limit."""
    ruleset = rulesets.get(body.ruleset)
    if ruleset.files is None:
        raise Refused(RefusalCode.NO_UPLOAD, f"upload: the {ruleset.name} rules take no file of one's own")
    given: dict[str, Any] = dict(body.options)
    given.pop(ruleset.upload_option, None)  # the file stands for it
    check_offered(ruleset.options, given)
    uploaded, embedded = ruleset.files.upload(body.upload.name, body.upload.text)
    given.update(uploaded)
    options = ruleset.resolve(given)
    bot = book_of(ruleset)
    seed = body.seed if body.seed is not None else secrets.randbits(63)
    plan = Plan(ruleset.name, options, {side: bot for side in ruleset.sides}, seed, games, embedded=embedded)
    probe = ruleset.create(options, SeededDice(0), embedded)
    title = faces.heading(ruleset, probe) or str(given.get(ruleset.upload_option, body.upload.name))
    return plan, title, turn_limit(ruleset, options, embedded)


def _browser(request: Request) -> str:
    """Who asks: the page's browser id (``X-Grognard-Browser``), else its address."""
    browser = request.headers.get("x-grognard-browser", "")
    return browser if CodeGate.BROWSER.match(browser) else "address " + client_address(request)


def _rate(request: Request, server: ServerDep) -> None:
    if not server.trial_asks.take(client_address(request)):
        raise Refused(RefusalCode.RATE, "too many trials asked from this address: wait a minute")


@router.post("/api/trials/test")
async def test(request: Request, server: ServerDep) -> Any:
    _rate(request, server)
    body = Trial.model_validate_json(await request.body())
    plan, title, _ = await run_in_threadpool(_plan, body, 1)
    lines, seconds = await server.trials.test(plan)
    book = await run_in_threadpool(read, lines, f"a test of {title}")
    key = secrets.token_urlsafe(12)
    request.app.state.replays.shelf.put("u:" + key, book)
    return {
        "url": f"/replays/{key}",
        "title": title,
        "result": book.result,
        "steps": book.steps,
        "turn": book.turns[-1] if book.turns else 0,
        "bots": dict(plan.bots),
        "seed": plan.seed,
        "cpu_seconds": round(seconds, 2),
    }


@router.post("/api/trials/balance")
async def balance(request: Request, server: ServerDep) -> Any:
    _rate(request, server)
    body = Balance.model_validate_json(await request.body())
    browser = _browser(request)
    server.trials.room_for(browser)  # refused before the file is read
    plan, title, limit = await run_in_threadpool(_plan, body, body.games)
    run = server.trials.start(plan, title, browser, limit)
    return run.to_json() | {"url": f"/api/trials/balance/{run.id}", "seed": plan.seed}


@router.get("/api/trials/balance/{key}")
async def progress(key: Annotated[str, Field(max_length=40)], server: ServerDep) -> Any:
    return server.trials.run(key).to_json()


@router.delete("/api/trials/balance/{key}")
async def cancel(key: Annotated[str, Field(max_length=40)], server: ServerDep) -> Any:
    return server.trials.cancel(key).to_json()
