"""Helpers for the web tests and the load bench: a real server process and small clients."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import weakref
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``grognard serve`` in a subprocess on a free port, its database in ``folder`` (``args``: more options)."""

    TRIES = 5  # ports tried at the first start: another test's server (or a client's socket) may take a free one first

    def __init__(
        self,
        folder: Path,
        port: int | None = None,
        db: str | None = None,
        args: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
    ) -> None:
        self.folder = Path(folder)
        self.args = args  # more of serve's options (--retention DAYS)
        self.env = dict(env or {})  # set in the server's environment, over this process's
        self.chosen = port is None  # a port of our own choosing: another is tried if it is taken before we listen
        self.port = port or free_port()
        self.db = db or f"sqlite:///{self.folder / 'games.sqlite3'}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = self.folder / "server.log"
        self._group_gone = True  # no process of ours is left to kill

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self, timeout: float = 30.0) -> ServerProcess:
        """Start the server and wait until it answers; a server already running is kept (``with server.start():``
        starts one, not two). It leads its own process group, its workers in it (``kill``, ``stop``). At the first
        start, a port taken before the server listened is replaced by another; a restart keeps its port (the pages
        open come back to it)."""
        if self.running:
            return self
        for _ in range(self.TRIES if self.chosen else 1):
            said = self._launch()
            if self._ready(said, timeout):
                self.chosen = False
                return self
            self.port = free_port()
        raise RuntimeError(f"no free port in {self.TRIES} tries: {self._said(said)[-2000:]}")

    def _launch(self) -> int:
        """Start ``grognard serve``; the log's length before it (what this start says comes after)."""
        env = dict(os.environ)
        src = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
        env["PYTHONUNBUFFERED"] = "1"  # its first line in the log at once
        env.update(self.env)
        said = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "grognard.cli", "serve", "--port", str(self.port), "--db", self.db, *self.args],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )
        self._group_gone = False
        return said

    def _said(self, since: int) -> str:
        with self.log.open("rb") as log:
            log.seek(since)
            return log.read().decode(errors="replace")

    def _ready(self, said: int, timeout: float) -> bool:
        """Wait until this server answers (its own 'grognard serving at' said, so no other server on the port is
        taken for it); False if the port was taken; RuntimeError if it stopped for another reason or took too long."""
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.kill()
                text = self._said(said)
                if "another program is listening on it" in text:
                    return False
                raise RuntimeError(f"the server stopped: {text[-2000:]}")
            if "grognard serving at" not in self._said(said):
                time.sleep(0.05)
                continue
            try:
                with urllib.request.urlopen(self.url + "/api/rulesets", timeout=2) as answer:
                    if answer.status == 200:
                        return True
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"the server did not start in {timeout} s: {self._said(said)[-2000:]}")

    def kill(self, group: bool = True) -> None:
        """SIGKILL to the server and its workers (its process group): no clean shutdown at all. ``group=False``:
        to the server alone, its workers left to notice (``stop`` ends what is left of them)."""
        if self.proc is None or self._group_gone:
            return
        if not group:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait(10)
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # the group outlives its leader while a worker is left
        except (ProcessLookupError, PermissionError):
            pass
        self.proc.wait(10)
        deadline = time.monotonic() + 10
        while _group_alive(self.proc.pid) and time.monotonic() < deadline:  # a signal is not yet an end
            time.sleep(0.02)
        self._group_gone = True  # its number may be another's soon: never signalled again

    def stop(self) -> None:
        """SIGTERM: the server shuts down as on a stop; then whatever is left of its group is killed."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def _group_alive(pgid: int) -> bool:
    """Whether a process of group ``pgid`` is alive (a zombie is not: it only waits to be reaped), by Linux's
    /proc; False where there is none."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            return True
    return False


def call(url: str, data: Any = None, method: str | None = None, headers: dict[str, str] | None = None) -> Any:
    """An HTTP call: (status, JSON answer or text)."""
    body = None if data is None else (data if isinstance(data, bytes) else json.dumps(data).encode())
    request = urllib.request.Request(url, data=body, method=method or ("POST" if body is not None else "GET"))
    request.add_header("Content-Type", "application/json")
    for key, value in (headers or {}).items():
        request.add_header(key, value)
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            status, text = answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        status, text = exc.code, exc.read().decode()
    try:
        return status, json.loads(text)
    except json.JSONDecodeError:
        return status, text


def join(url: str, code: str, name: str, side: str | None = None, tries: int = 60) -> dict[str, Any]:
    """Join room ``code`` at server ``url`` as a page does: a refusal that says when to try again
    (many joining from one address: ``retry`` seconds) is tried again then. The join's answer;
    ``RuntimeError`` naming the refusal otherwise."""
    for _ in range(tries):
        status, answer = call(f"{url}/api/rooms/{code}/join", {"name": name, "side": side})
        if status == 200:
            return dict(answer)
        if status != 429 or not isinstance(answer, dict) or not answer.get("retry"):
            break
        time.sleep(float(answer["retry"]))
    raise RuntimeError(f"join {code} as {name!r}: {status} {answer}")


_held: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


def receive(ws: Any, timeout: float = 10.0) -> dict[str, Any]:
    """A page's next message on ``ws`` (a ``websockets`` sync connection), a ``patch`` merged into
    the state the page holds and given as that whole ``state`` (``grognard.web.patch``)."""
    from grognard.web.patch import merge

    message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    if message["type"] == "patch":
        message = merge(_held[ws], message)
    if message["type"] == "state":
        _held[ws] = message
    return message
