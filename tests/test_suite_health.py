"""The suite's own health: a test server is one process group that leaves nothing behind, and the session fails
when a test leaves a process running (``conftest.no_process_left``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from grognard.web.testing import ServerProcess
from test_web_api import Client, make_room

HERE = Path(__file__).parent


def group(pgid: int) -> list[psutil.Process]:
    """The live processes (zombies aside) of process group ``pgid``."""
    found = []
    for proc in psutil.process_iter(["status"]):
        try:
            if proc.info["status"] != psutil.STATUS_ZOMBIE and os.getpgid(proc.pid) == pgid:
                found.append(proc)
        except (ProcessLookupError, psutil.Error):
            continue
    return found


def serving(server: ServerProcess) -> list[psutil.Process]:
    """The ``grognard serve`` processes this test started on ``server``'s port."""
    found = []
    for proc in psutil.Process().children(recursive=True):
        try:
            command = proc.cmdline()
        except psutil.Error:
            continue
        if "serve" in command and str(server.port) in command:
            found.append(proc)
    return found


def playing(server: ServerProcess) -> None:
    """A game started on ``server``, its bots playing, who is winning shown from the start: the server starts its
    worker (the live odds)."""
    made = make_room(server)
    host = Client(server, made["code"], "host", made["host_token"])
    host.send({"type": "settings", "odds_shown": "everyone", "odds_from": 0})  # an estimate from the start
    host.send({"type": "start"})
    host.state_where(lambda s: s["status"] in ("playing", "over"), 60)
    host.close()


def test_a_server_started_in_a_with_is_one_server_and_its_group_ends_with_it(tmp_path: Path) -> None:
    """``with server.start():`` (test_web_menus) started a second server over the first, which nobody stopped: a
    ``grognard serve`` and its worker outlived the suite. One now; stopped, its whole group is gone."""
    server = ServerProcess(tmp_path)
    with server.start():
        assert len(serving(server)) == 1
        playing(server)
        assert server.proc is not None
        pgid = server.proc.pid
        deadline = time.monotonic() + 60
        while len(group(pgid)) < 2 and time.monotonic() < deadline:  # the server and its worker
            time.sleep(0.1)
        assert len(group(pgid)) >= 2, [p.cmdline() for p in group(pgid)]
    assert serving(server) == [] and group(pgid) == []


def test_a_server_killed_takes_its_workers_with_it(tmp_path: Path) -> None:
    """kill -9 of a test server (the restart tests) kills its worker too, and a restart on the same port works."""
    server = ServerProcess(tmp_path).start()
    try:
        playing(server)
        assert server.proc is not None
        pgid = server.proc.pid
        deadline = time.monotonic() + 60
        while len(group(pgid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        port = server.port
        server.kill()
        assert group(pgid) == []
        server.start()
        assert server.port == port and len(serving(server)) == 1
    finally:
        server.stop()
    assert serving(server) == []


def test_a_test_that_leaves_a_process_fails_the_session(tmp_path: Path) -> None:
    """The suite's conftest, run on two tests, one of which leaves a process running: the session fails naming
    it, and the process is killed."""
    shutil.copy(HERE / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_leaves.py").write_text(
        "import subprocess\n"
        "def test_clean():\n"
        "    subprocess.run(['sleep', '0'], check=True)\n"
        "def test_leaves():\n"
        "    open('pid', 'w').write(str(subprocess.Popen(['sleep', '3600'], start_new_session=True).pid))\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_leaves.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "GROGNARD_TEST_GRACE": "1"},
    )
    out = run.stdout + run.stderr
    assert run.returncode != 0, out
    assert "2 passed, 1 error" in out and "the tests left 1 process(es) running" in out and "sleep 3600" in out, out
    left = int((tmp_path / "pid").read_text())
    assert not psutil.pid_exists(left) or psutil.Process(left).status() == psutil.STATUS_ZOMBIE


def test_without_chromium_the_browser_tests_say_so_in_one_line() -> None:
    """No Chromium where the tests look: every browser test is skipped, and the summary says why in one line."""
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-o", "addopts=-q",
         "tests/test_web_layout.py", "tests/test_web_table.py"],
        cwd=HERE.parent,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "GROGNARD_CHROMIUM": "/nonexistent/chromium"},
    )  # fmt: skip
    said = [line for line in run.stdout.splitlines() if "Chromium" in line]
    assert run.returncode == 0 and " passed" not in run.stdout, run.stdout[-2000:]
    assert len(said) == 1 and said[0].endswith(
        "browser tests skipped: no Chromium at /nonexistent/chromium (.ci/run installs it);"
        " GROGNARD_CHROMIUM=PATH names another Chromium"
    ), said


# ---------------------------------------------------------------------- run_cli in this process
@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (("play", "omaha", "--germans", "1", "--seed", "3", "-q"), ""),  # a game to its result
        (("play", "skirmish", "--bots", "axis=expert"), ""),  # one error line, exit 2
        (("play", "b17", "--seed", "2", "--human", "american", "-q"), "quit\n"),  # a person who stops at once
        (("rules",), ""),
        (("simulate", "b17", "-n", "3", "--seed", "2", "--jobs", "1"), ""),  # on one process: no pool, run here
    ],
)
def test_a_command_run_in_this_process_says_what_a_fresh_one_says(
    args: tuple[str, ...], stdin: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """run_cli runs the program's entry in the test's own process (a fresh Python cost 0.7 s of CPU a call);
    what it gives back is what ``python -m grognard`` gives: exit code, output and errors alike."""
    from terminal_driver import run_cli

    here = run_cli(*args, stdin=stdin)
    monkeypatch.setenv("GROGNARD_TEST_SUBPROCESS", "1")
    fresh = run_cli(*args, stdin=stdin)
    assert (here.returncode, here.stdout, here.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
