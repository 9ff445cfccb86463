"""No output file is left broken (issue 28, item 4), through the real program.

Each output (``sheet``, ``render``, ``simulate --out``, ``sweep --out``, ``analyse --png``, ``replay --out``)
is written to a temporary file beside it and renamed (``core.files.write_output``): when the write fails
the file there before is left as it was, or there is none, and no temporary file is left over. A write is
made to fail as a full disk fails it: the program runs with a file-size limit (``RLIMIT_FSIZE``: a write
past it is refused with ``EFBIG``), for any user, on any file system. A ``simulate`` killed outright while
its table is written leaves the old table. ``play --record`` stopped by a full disk names the file and the
command that goes on with it; that command finishes the very game.
"""

from __future__ import annotations

import functools
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from terminal_driver import HANG_GUARD, cli_env, error_line, run_cli

GOLDEN = Path(__file__).parent / "golden" / "omaha-g1-seed1.jsonl"
LIMIT = 256  # bytes a file may grow to: less than any output, more than nothing


def _full_disk() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))  # Python ignores SIGXFSZ: a write says EFBIG


def full_disk_env() -> dict[str, str]:
    """cli_env() with no bytecode written: under the limit Python's write of a module's .pyc is cut at the
    limit and kept (its short write unchecked), and every later import of that module, in any run, failed
    ("marshal data too short") until the file was deleted: a module changed since its last compile broke it."""
    return {**cli_env(), "PYTHONDONTWRITEBYTECODE": "1"}


def run_on_a_full_disk(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "grognard", *args],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
        env=full_disk_env(),
        preexec_fn=_full_disk,
    )


@functools.cache  # a command's --help read once a run: simulate's and sweep's each cost a fresh process
def force(command: str) -> list[str]:
    """``--force`` where the command takes it to write over a file (every output, once outputs refuse to)."""
    return ["--force"] if "--force" in run_cli(command, "--help").stdout else []


OUTPUTS = {  # (the command's arguments given the folder, the files it writes there)
    "sheet": (lambda d: ["sheet", "b17", "-o", str(d / "card.pdf"), *force("sheet")], ["card.pdf"]),
    "render svg": (lambda d: ["render", "omaha", str(GOLDEN), "-o", str(d / "t.svg"), *force("render")], ["t.svg"]),
    "render png": (lambda d: ["render", "omaha", str(GOLDEN), "-o", str(d / "t.png"), *force("render")], ["t.png"]),
    "simulate --out": (
        lambda d: ["simulate", "b17", "-n", "4", "--jobs", "1", "--out", str(d), *force("simulate")],
        ["games.parquet", "summary.json", "turns.png", "win_curve.png"],
    ),
    "sweep --out": (
        lambda d: ["sweep", "b17", "-o", "turn_cap=30,40", "-n", "2", "--jobs", "1", "--out", str(d), *force("sweep")],
        ["sweep.csv", "sweep.png"],
    ),
    "analyse --png": (
        lambda d: ["analyse", str(GOLDEN), "--playouts", "2", "--png", str(d / "curve.png"), *force("analyse")],
        ["curve.png"],
    ),
}


@pytest.mark.parametrize("output", list(OUTPUTS))
@pytest.mark.parametrize("before", ["an old file", "no file"])
def test_a_failed_write_leaves_the_old_file_or_none(tmp_path: Path, output: str, before: str) -> None:
    arguments, names = OUTPUTS[output]
    folder = tmp_path / "out"
    folder.mkdir()
    old = {}
    if before == "an old file":
        for name in names:
            (folder / name).write_bytes(f"the {name} of yesterday, whole\n".encode())
            old[name] = (folder / name).read_bytes()
    line = error_line(run_on_a_full_disk(*arguments(folder)))
    assert str(folder) in line and "File too large" in line, line
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == old  # nothing half written, nothing left over


def test_replay_out_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    view = tmp_path / "view.jsonl"
    line = error_line(run_on_a_full_disk("replay", str(GOLDEN), "--seat", "G1", "--out", str(view)))
    assert str(view) in line, line
    assert list(tmp_path.iterdir()) == []


def test_a_simulate_killed_while_writing_its_table_leaves_the_old_one(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "games.parquet").write_bytes(b"yesterday's table\n")
    arguments = ["simulate", "b17", "-n", "100000", "--jobs", "1", "--out", str(folder), *force("simulate")]
    proc = subprocess.Popen(
        [sys.executable, "-m", "grognard", *arguments],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=cli_env(),
        start_new_session=True,  # its own group: the kill reaches any worker it started, and only those
    )
    try:
        deadline = time.monotonic() + HANG_GUARD
        while not any(p.name.endswith(".part") for p in folder.iterdir()):  # the new table being written
            assert proc.poll() is None and time.monotonic() < deadline, "simulate ended before writing its table"
            time.sleep(0.05)
        time.sleep(0.5)  # some games into it
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=HANG_GUARD)
    assert (folder / "games.parquet").read_bytes() == b"yesterday's table\n"


def test_a_full_disk_during_play_record_names_the_file_and_the_way_on(tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    done = run_cli("play", "omaha", "--germans", "1", "--seed", "11", "--record", str(whole), "-q")
    assert done.returncode == 0, done.stderr
    assert whole.stat().st_size > 8 * LIMIT
    game = tmp_path / "game.jsonl"
    play = ["play", "omaha", "--germans", "1", "--seed", "11", "--record", str(game), "-q"]
    line = error_line(
        subprocess.run(
            [sys.executable, "-m", "grognard", *play],
            capture_output=True,
            text=True,
            timeout=HANG_GUARD,
            env=full_disk_env(),
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (8 * LIMIT, 8 * LIMIT)),
        )
    )
    assert f"cannot write the record {game} (File too large)" in line, line
    assert line.endswith(f"continue with: grognard play omaha --resume {game}"), line
    done = run_cli("play", "omaha", "--resume", str(game), "-q", stdin="yes\n")  # its cut line dropped, if any
    assert done.returncode == 0, done.stderr
    assert game.read_bytes() == whole.read_bytes()  # the very game, played to its end


def test_force_over_a_link_replaces_the_file_it_leads_to_and_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "real.svg"
    real.write_text("yesterday's picture\n")
    link = tmp_path / "latest.svg"
    link.symlink_to(real.name)
    done = run_cli("render", "omaha", str(GOLDEN), "-o", str(link), "--force")
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and os.readlink(link) == real.name  # the link kept (a rename put a file in its place)
    assert real.read_text().startswith("<?xml") or "<svg" in real.read_text()  # the file it leads to is the new one
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latest.svg", "real.svg"]


def test_force_over_a_pipe_writes_into_it_and_leaves_the_pipe(tmp_path: Path) -> None:
    """A device or a pipe (``-o /dev/stdout``, a FIFO) is written to; a rename would replace the device itself
    with a file (root could put a picture in place of /dev/null)."""
    pipe = tmp_path / "pipe.svg"
    os.mkfifo(pipe)
    command = [sys.executable, "-m", "grognard", "render", "omaha", str(GOLDEN), "-o", str(pipe), "--force"]
    picture: list[bytes] = []
    reader = threading.Thread(target=lambda: picture.append(pipe.read_bytes()), daemon=True)
    reader.start()  # a reader of its own: when the pipe is renamed over, its open waits forever, not the test
    done = subprocess.run(command, capture_output=True, text=True, timeout=HANG_GUARD, env=cli_env())
    assert done.returncode == 0, done.stderr
    assert pipe.is_fifo()  # not replaced by a file
    reader.join(HANG_GUARD)
    assert picture and b"<svg" in picture[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.svg"]


def test_a_run_on_a_full_disk_leaves_no_cut_bytecode(tmp_path: Path) -> None:
    """A module first imported under the limit: its .pyc is not left cut short for the next run to fail on."""
    (tmp_path / "sizable.py").write_text("".join(f"def f{i}(x):\n    return x + {i}\n" for i in range(200)))
    command = [sys.executable, "-c", "import sizable"]
    done = subprocess.run(
        command,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
        env=full_disk_env(),
        preexec_fn=_full_disk,
    )
    assert done.returncode == 0, done.stderr
    again = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=HANG_GUARD, env=cli_env())
    assert again.returncode == 0, again.stderr  # it said: EOFError: marshal data too short
