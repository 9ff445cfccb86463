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

    def __init__(self, folder: Path, port: int | None = None, args: tuple[str, ...] = ()) -> None:
        self.folder = Path(folder)
        self.args = args  # more of serve's options (--retention DAYS)
        self.port = port or free_port()
        self.db = f"sqlite:///{self.folder / 'games.sqlite3'}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = self.folder / "server.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> ServerProcess:
        env = dict(os.environ)
        src = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "grognard.cli", "serve", "--port", str(self.port), "--db", self.db, *self.args],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/api/rulesets", timeout=2) as answer:
                    if answer.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        raise RuntimeError("the server did not start in time")

    def kill(self) -> None:
        """SIGKILL: no clean shutdown at all."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


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
