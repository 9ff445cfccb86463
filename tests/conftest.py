"""Shared test setup: the `rule` marker ties a test to rule IDs in docs/rules/<ruleset>.md; the browser
tests' ``browser`` (Debian's Chromium, one per worker, started when a test first asks for it) and ``shots``
(where screenshots go: ``$GROGNARD_SHOTS`` or the module's tmp dir) fixtures; ``database``, the web's
persistence tests' database, SQLite and PostgreSQL alike; ``no_process_left``, which fails the session when a
process the suite started (a ``grognard serve``, a Chromium, a worker) is still alive at its end; and the order
the test files are handed to the workers in, the longest first (``tests/weights.json``)."""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("COLUMNS", "120")
# Python compiles each module it imports; with PYTHONDONTWRITEBYTECODE set (as on this project's machines) it keeps
# nothing, so every server, fresh CLI and worker the suite starts compiled grognard's 44,000 lines again (about
# 0.25 s of CPU each, over a hundred times a run). The suite writes them, as Python does by default, in the
# __pycache__ folders beside the sources (git ignores them), for itself and every process it starts.
if sys.flags.dont_write_bytecode or os.environ.get("PYTHONDONTWRITEBYTECODE"):
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False
# the servers the tests start play their live odds at their own priority: on a machine shared with other work, at
# nice 10 an estimate waited minutes behind everyone else's (test_web_odds checks the default, 10, on its own)
os.environ.setdefault("GROGNARD_ODDS_NICE", "0")
# and play 2 games a seat for each estimate (serve --odds-playouts), not 16: the pages are drawn the same from any
# estimate, and 16 cost a few percent more CPU (five browser files: 235 and 238 s against 220 and 234 s at 2;
# test_web_odds plays its own number)
os.environ.setdefault("GROGNARD_ODDS_PLAYOUTS", "2")

# Every process this pytest process starts (and theirs) inherits this mark: at the session's end, one still alive
# that carries it was left behind. Each process running tests (xdist's workers too) marks its own.
LEFT = "GROGNARD_TEST_SESSION"
os.environ[LEFT] = f"{os.getpid()}-{secrets.token_hex(4)}"
BOUND = ("multiprocessing.resource_tracker", "multiprocessing.spawn", "multiprocessing.forkserver")


def _started_here() -> list[Any]:
    """The live processes (not zombies) carrying this process's mark, this one aside; Python's own helpers of this
    very process (its resource tracker, a pool's workers: they end with it) aside too."""
    import psutil

    me, mark = os.getpid(), os.environ[LEFT]
    found = []
    for proc in psutil.process_iter(["pid", "ppid", "status", "cmdline"]):
        try:
            if proc.pid == me or proc.info["status"] == psutil.STATUS_ZOMBIE:
                continue
            if proc.environ().get(LEFT) != mark:
                continue
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
        command = " ".join(proc.info["cmdline"] or [])
        if proc.info["ppid"] == me and any(helper in command for helper in BOUND):
            continue
        found.append(proc)
    return found


@pytest.fixture(scope="session", autouse=True)
def no_process_left() -> Iterator[None]:
    """After the last test (every module's server and browser closed), no process the tests started is left:
    those still alive 10 s on (``$GROGNARD_TEST_GRACE``) are named, killed, and fail the session."""
    yield
    import psutil

    left = _started_here()
    _, left = psutil.wait_procs(left, timeout=float(os.environ.get("GROGNARD_TEST_GRACE", "10")))
    if not left:
        return
    named = []
    for proc in left:
        try:
            named.append(f"{proc.pid} {' '.join(proc.cmdline())[:120]}")
            proc.kill()
        except psutil.Error:
            pass
    pytest.fail(f"the tests left {len(named)} process(es) running: " + "; ".join(named), pytrace=False)


PG_URL = "GROGNARD_TEST_PG_URL"
PG_SKIP = (
    f"PostgreSQL: set {PG_URL}=postgresql+psycopg://USER@HOST/DB (a role that may create databases) to run them;"
    " .ci/run starts one with .ci/postgres"
)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of an empty database for a test's server (``serve --db``): an SQLite file in the test's tmp dir, or
    a PostgreSQL database of its own (every test and xdist worker apart) made on the server at
    ``$GROGNARD_TEST_PG_URL`` and dropped after; skipped, saying how to run it, where that is not set."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.sqlite3'}"
        return
    url = os.environ.get(PG_URL)
    if not url:
        pytest.skip(PG_SKIP)
    from sqlalchemy import create_engine, make_url, text

    name = f"grognard_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}_{secrets.token_hex(4)}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        yield make_url(url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def stored_lines(url: str) -> list[dict[str, Any]]:
    """Every record line a server keeps in the database at ``url``, room by room in order, as JSON."""
    import json

    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("select text from grognard_lines order by room_id, n")).all()
    finally:
        engine.dispose()
    return [json.loads(row[0]) for row in rows]


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """A headless Chromium (``browsers.CHROMIUM``) for the worker's session, started by the first test that asks
    for it and closed after the last. One per module cost each of about 30 browser files a Playwright driver and a
    Chromium start."""
    from browsers import ARGS, CHROMIUM

    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        assert b.version, "Chromium started"
        yield b
        b.close()


@pytest.fixture(scope="session")
def kept_pages(chromium: Any) -> Iterator[Any]:
    """The worker's kept contexts and pages (``page_pool.PagePool``), closed after the last browser test."""
    from page_pool import PagePool

    pool = PagePool(chromium)
    yield pool
    pool.close()


@pytest.fixture
def browser(kept_pages: Any) -> Iterator[Any]:
    """What a browser test opens its contexts and pages from: ``new_context`` and ``new_page`` as on a Playwright
    ``Browser``, kept warm from earlier tests and clean of them (``kept_pages``); every context the test opened is
    taken back at its end, closed or not."""
    from page_pool import Lender

    yield Lender(kept_pages)
    kept_pages.give_back_all()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("GROGNARD_SHOTS") or tmp_path_factory.mktemp("shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The browser tests skipped for want of Chromium, and the database cases for want of PostgreSQL, each said in
    one line (pytest -q lists no skip's reason)."""
    reasons = []
    for report in terminalreporter.stats.get("skipped", []):
        reason = _reason(report)
        if reason.startswith("Skipped: no Chromium at"):
            reasons.append(reason.removeprefix("Skipped: "))
    if reasons:
        terminalreporter.write_line(
            f"{len(reasons)} browser tests skipped: {reasons[0]}; GROGNARD_CHROMIUM=PATH names another Chromium"
        )
    postgres = sum(
        1 for report in terminalreporter.stats.get("skipped", []) if _reason(report) == f"Skipped: {PG_SKIP}"
    )
    if postgres:
        terminalreporter.write_line(f"{postgres} database cases skipped: {PG_SKIP}")


def _reason(report: Any) -> str:
    longrepr = getattr(report, "longrepr", None)
    return str(longrepr[2]) if isinstance(longrepr, tuple) and len(longrepr) == 3 else ""


# ---------------------------------------------------------------------- the order files are handed out
WEIGHTS = Path(__file__).with_name("weights.json")
"""Seconds each test file took in a whole run (``python tests/weigh.py`` writes it from a run's report)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest test files first. xdist hands out whole files (``--dist loadfile``) in this order
    (``--no-loadscope-reorder``; by default it orders them by their count of tests), so a long browser file
    handed out last no longer runs alone on one core while the other has nothing left to do. A file not
    weighed yet counts as the median file; the tests of a file keep their own order."""
    import json
    import statistics

    try:
        weights: dict[str, float] = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if not weights:
        return
    unknown = statistics.median(weights.values())
    first: dict[str, int] = {}
    for index, item in enumerate(items):
        first.setdefault(item.nodeid.split("::")[0], index)
    items.sort(key=lambda item: (-weights.get(item.nodeid.split("::")[0], unknown), first[item.nodeid.split("::")[0]]))


# ---------------------------------------------------------------------- how many workers -n auto starts
@pytest.hookimpl(optionalhook=True)  # xdist's hook: a run without xdist (-p no:xdist) knows it not
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """Three workers for every two cores (``-n auto``; ``-n N`` still says how many): a browser test waits on its
    server and its pages part of the time, and since its contexts and pages are kept (``page_pool``) that is a
    larger part. On this project's 2-core machine, one run after the other with the same caches: 2 workers
    5 min 45 s (569 s of CPU, 1.64 cores busy), 3 workers 5 min 17 s (605 s, 1.9 cores busy)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, (3 * cores + 1) // 2)
