"""Drive the real ``grognard`` program as a person at the keyboard would: wait for a prompt, then answer.

Prompts are written without a newline (``German 1> ``, ``dice: ...: 4 dice> ``),
so :class:`Terminal` reads the program's output as it comes (a reader thread),
and :meth:`Terminal.expect` waits until a pattern shows, with a timeout that
fails the test instead of hanging it. For scripts that need no reacting,
:func:`run_cli` pipes all the answers at once.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HANG_GUARD = 60.0  # seconds: only ever reached when something hangs


def _read_or_empty(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:  # the process ended meanwhile
        return ""


PROMPT = re.compile(r"(?P<text>[^\n]*?)> \Z")
"""A prompt: the output ends in ``> `` with no newline after it, so the program is waiting for a line."""
DICE = re.compile(r"dice: (?P<purpose>.*): (?P<count>\d+) (?:die|dice)(?: \(d(?P<sides>\d+)\))?")
"""A roll to type: ``dice: bunker B2 fires at A1 (kills on 5-6): 4 dice``."""


def cli_env() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("COLUMNS", "120")
    env.pop("PYTHONUNBUFFERED", None)  # the program must flush its prompts by itself
    return env


FRESH_PROCESS = frozenset({"serve", "simulate", "sweep", "balance"})
"""Commands :func:`run_cli` runs in a fresh process: they start a server or a pool of processes."""


def _one_process(args: tuple[str, ...]) -> bool:
    """A command of FRESH_PROCESS that starts no server nor pool: its --help, or a simulate, sweep or balance
    on one process (``--jobs 1``, no ``--scheduler``: its games played in the calling process, no pool)."""
    if "--help" in args:
        return True
    jobs_1 = any(a == "--jobs" and b == "1" for a, b in itertools.pairwise(args)) or "--jobs=1" in args
    return args[0] != "serve" and jobs_1 and not any(a.startswith("--scheduler") for a in args)


def run_cli(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``grognard ARGS`` with ``stdin`` piped in: its exit code and what it wrote, as ``python -m grognard
    ARGS`` gives them. Run in this process through the program's own entry (``grognard.cli.main``, with its
    standard streams and working folder swapped for the call's) unless the command is one of FRESH_PROCESS
    (and not on one process: _one_process) or ``$GROGNARD_TEST_SUBPROCESS`` is set: then in a fresh process,
    where a hang fails after HANG_GUARD seconds. A fresh Python costs the program's whole start (numpy, the
    rule set) at every call: about 0.7 s of CPU, a few minutes of the suite's."""
    if (args and args[0] in FRESH_PROCESS and not _one_process(args)) or os.environ.get("GROGNARD_TEST_SUBPROCESS"):
        return run_fresh(*args, stdin=stdin, cwd=cwd)
    return _run_here(list(args), stdin, cwd)


def run_fresh(
    *args: str, stdin: str = "", cwd: Path | None = None, preexec_fn: Callable[[], None] | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m grognard ARGS`` in a fresh process (``preexec_fn`` run in it first, e.g. a resource limit);
    a hang fails after HANG_GUARD seconds."""
    return subprocess.run(
        [sys.executable, "-m", "grognard", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
        env=cli_env(),
        cwd=cwd,
        preexec_fn=preexec_fn,
    )


def _run_here(args: list[str], stdin: str, cwd: Path | None) -> subprocess.CompletedProcess[str]:
    from grognard.cli import main

    def stream(text: str = "") -> io.TextIOWrapper:  # a pipe's text stream, with its bytes under it
        return io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8", newline=None, write_through=True)

    streams = (sys.stdin, sys.stdout, sys.stderr)
    sys.stdin, sys.stdout, sys.stderr = stream(stdin), stream(), stream()
    try:
        with contextlib.chdir(cwd or Path.cwd()):
            code = main(args)
        sys.stdout.flush()
        sys.stderr.flush()
        out, err = (s.buffer.getvalue().decode("utf-8", "replace") for s in (sys.stdout, sys.stderr))  # type: ignore[attr-defined]
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams
    return subprocess.CompletedProcess(["grognard", *args], code, out, err)


def error_line(done: subprocess.CompletedProcess[str]) -> str:
    """The one ``error:`` line of a refused command (exit 2, no traceback, nothing else on stderr)."""
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2, (done.returncode, done.stdout[-2000:], done.stderr)
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: "), done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    return lines[0]


def sigint_as_at_a_terminal() -> None:
    """A child's Ctrl-C as a shell gives it: the default action, not blocked, whatever the test's process has
    (a worker of the suite may hold SIGINT ignored or blocked: a child inherits both, and Python left ignoring a
    signal it was born ignoring keeps ignoring it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class Terminal:
    """The program running with a pipe for a keyboard and a pipe for a screen."""

    def __init__(self, *args: str, cwd: Path | None = None) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "grognard", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=cli_env(),
            cwd=cwd,
            # Ctrl-C live as at a real terminal, even when the tests run where SIGINT is ignored (a background job)
            preexec_fn=sigint_as_at_a_terminal,
        )
        self.out = ""  # everything the program has written to stdout so far
        self.seen = 0  # how much of ``out`` earlier expects have consumed
        self.shown = ""  # what the program wrote between the last two matches (e.g. between two prompts)
        self._lock = threading.Condition()
        self._eof = False
        self._err = b""
        self._threads = [
            threading.Thread(target=self._pump, daemon=True),
            threading.Thread(target=self._pump_err, daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        pending = b""
        while chunk := os.read(fd, 65536):
            pending += chunk
            try:
                text, pending = pending.decode("utf-8"), b""
            except UnicodeDecodeError:  # a character split between chunks: wait for its rest
                continue
            with self._lock:
                self.out += text
                self._lock.notify_all()
        with self._lock:
            self._eof = True
            self._lock.notify_all()

    def _pump_err(self) -> None:
        assert self.proc.stderr is not None
        self._err = self.proc.stderr.read()

    def expect(self, pattern: str | re.Pattern[str], timeout: float = HANG_GUARD) -> re.Match[str]:
        """Wait until ``pattern`` matches the output not yet consumed; consume up to the end of the match."""
        regex = re.compile(pattern) if isinstance(pattern, str) else pattern
        with self._lock:
            self._lock.wait_for(lambda: regex.search(self.out, self.seen) is not None or self._eof, timeout)
            match = regex.search(self.out, self.seen)
            if match is None:
                why = "the program ended" if self._eof else f"nothing after {timeout:.0f}s"
                raise AssertionError(
                    f"{why} without {regex.pattern!r}; output since the last match:\n{self.out[self.seen :][-3000:]}"
                    f"\nstderr: {self._err.decode(errors='replace')[-2000:]}"
                )
            self.shown = self.out[self.seen : match.start()]
            self.seen = match.end()
            return match

    def prompt(self) -> str:
        """Wait until the program waits for a line; the prompt's text (without ``> ``).

        ``shown`` is then what the program wrote since the previous prompt (the question, a refusal).
        """
        return self.expect(PROMPT).group("text")

    def reading(self) -> None:
        """Wait until the program sits in its read of the keyboard, as it is by the time a person acts on a prompt.

        A prompt shows as soon as it is written, before the program's next call reads the keyboard. A signal that
        comes in that gap is caught, but Python acts on it only at its next bytecode, and the read it is about to
        start is not interrupted: a Ctrl-C sent the instant the prompt showed could go unheard until a line came
        (under load, now and then). Linux shows where a process waits (``/proc/PID/wchan``); elsewhere a short
        pause stands in for a person's reaction.
        """
        wchan = Path(f"/proc/{self.proc.pid}/wchan")
        if not wchan.exists():
            threading.Event().wait(0.5)
            return
        give_up = time.monotonic() + HANG_GUARD
        while "pipe" not in _read_or_empty(wchan):
            if self.proc.poll() is not None or time.monotonic() > give_up:
                raise AssertionError(f"the program never sat reading its keyboard; last output:\n{self.out[-1500:]}")
            threading.Event().wait(0.01)

    def next_prompt(self) -> str | None:
        """The next prompt's text, or None when the program ends without asking again."""
        with self._lock:
            self._lock.wait_for(lambda: PROMPT.search(self.out, self.seen) is not None or self._eof, HANG_GUARD)
            if PROMPT.search(self.out, self.seen) is None and self._eof:
                self.shown = self.out[self.seen :]
                self.seen = len(self.out)
                return None
        return self.prompt()  # found (or hung: then prompt() fails with the output so far)

    def since(self, start: int) -> str:
        return self.out[start:]

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()

    def answer(self, pattern: str, line: str) -> re.Match[str]:
        """Wait for ``pattern`` (normally a prompt), then type ``line``."""
        match = self.expect(pattern)
        self.send(line)
        return match

    def close_input(self) -> None:
        """End of input (Ctrl-D)."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()

    def finish(self, timeout: float = HANG_GUARD) -> tuple[int, str, str]:
        """Close the keyboard, wait for the program to end: (exit code, all stdout, all stderr)."""
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"the program did not end; last output:\n{self.out[-3000:]}") from None
        for thread in self._threads:
            thread.join(timeout)
        return code, self.out, self._err.decode(errors="replace")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None and not stream.closed:
                stream.close()


MENU_LINE = re.compile(r"(?m)^ {2,3}(?P<number>\d+) {2}(?P<action>\S+(?: \S+)*)(?: {2,}(?P<extra>.*))?$")


def menu_of(text: str) -> dict[int, tuple[str, str]]:
    """The numbered choices shown in ``text``: {number: (action, note and odds)}."""
    return {int(m["number"]): (m["action"], (m["extra"] or "").strip()) for m in MENU_LINE.finditer(text)}


def lines_of(path: Path) -> list[str]:
    """A record's lines of text."""
    return path.read_text(encoding="utf-8").splitlines()


def records_of(path: Path) -> list[dict[str, Any]]:
    """A record's lines, parsed."""
    return [json.loads(line) for line in lines_of(path)]


def ctrl_c_after(args: list[str], first: str) -> tuple[int, str, str]:
    """``python -m grognard ARGS`` in a fresh process with Ctrl-C live (as at a terminal), sent once its first
    line on stderr is written; that line must contain ``first``. Its exit code, stdout and the rest of stderr."""
    run = subprocess.Popen(
        [sys.executable, "-m", "grognard", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(),
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert run.stderr is not None
        said = run.stderr.readline()
        assert first in said, said
        os.killpg(run.pid, signal.SIGINT)
        shown, err = run.communicate(timeout=HANG_GUARD)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    return run.returncode, shown, err


ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def run_in_pty(*args: str, columns: int, rows: int = 50) -> tuple[int, str]:
    """Run ``python -m grognard ARGS`` in a real terminal ``columns`` wide (a pseudo-terminal, no COLUMNS):
    (exit code, what it showed, colours taken out)."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    env = {k: v for k, v in cli_env().items() if k not in ("COLUMNS", "LINES")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "grognard", *args], stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env
    )
    os.close(slave)
    chunks = []
    try:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the program ended: the terminal's other side is closed
                break
            if not chunk:
                break
            chunks.append(chunk)
        code = proc.wait(HANG_GUARD)
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    text = b"".join(chunks).decode("utf-8", errors="replace").replace("\r\n", "\n")
    return code, ANSI.sub("", text)
