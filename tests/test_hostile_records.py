"""Every reader of a game record survives a hostile file, through the real program and the real server
(issue 28, item 5).

A line nested 100,000 deep, ``/dev/zero``, one line of 100 MB, a binary file: ``replay``, ``render``,
``analyse`` and ``play --resume`` each say one ``error:`` line naming the line (exit 2), holding no more
than a line's worth of the file (a line longer than any record line is refused before it is parsed);
the web's replay upload refuses them with one line. A last line written whole (its newline after it)
that is not JSON is "not JSON", not "cut short", and ``--resume`` does not offer to drop it.
The programs run under an address-space limit, so that a reader that slurps ``/dev/zero`` fails the test
instead of the machine.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from grognard.core.jsonl import MAX_LINE
from grognard.web.testing import ServerProcess, call
from terminal_driver import HANG_GUARD, cli_env, error_line, run_cli, run_fresh

GOLDEN = Path(__file__).parent / "golden" / "omaha-g1-seed1.jsonl"
ADDRESS_SPACE = 1536 * 1024 * 1024  # bytes: grognard needs some 300 MB of address space; /dev/zero would take all
LONG = 100 * 1024 * 1024  # bytes of the one-line file

READERS = {
    "replay": lambda path, out: ("replay", str(path)),
    "render": lambda path, out: ("render", "omaha", str(path), "-o", str(out / "table.svg")),
    "analyse": lambda path, out: ("analyse", str(path), "--playouts", "2"),
    "play --resume": lambda path, out: ("play", "omaha", "--resume", str(path), "-q"),
}

HOSTILE = {  # the file's name: (what the one line says, the line it names)
    "deep.jsonl": ("not a record line: nested deeper than 64 levels", 1),
    "/dev/zero": ("longer than 4 MiB", 1),
    "long.jsonl": ("longer than 4 MiB", 1),
    "binary.jsonl": ("not UTF-8 text", 2),
    "junk_last.jsonl": ("not JSON", None),  # the golden record's lines, then a whole line of junk
}
# the files a reader that read them whole would take all memory on: read in a fresh process under the
# address-space limit; the others (a few hundred KiB at most) in this one (run_cli: the program's own entry,
# the same line and exit code, without a fresh Python's 0.7 s of CPU each)
UNBOUNDED = {"/dev/zero", "long.jsonl"}


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def run_limited(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``grognard ARGS`` under the address-space limit."""
    return run_fresh(*args, stdin=stdin, preexec_fn=_limited)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "deep.jsonl").write_text("[" * 100000 + "]" * 100000 + "\n", encoding="ascii")
    with (folder / "long.jsonl").open("wb") as handle:  # one line of 100 MB, a record's start to look at
        handle.write(b'{"type":"header","format":"grognard-record/1","x":"')
        for _ in range(LONG // (1024 * 1024)):
            handle.write(b"a" * 1024 * 1024)
        handle.write(b'"}\n')
    golden = GOLDEN.read_bytes()
    binary = bytes(b for b in range(256) if b != ord("\n")) * 64  # not text, and no newline to end it
    (folder / "binary.jsonl").write_bytes(golden.split(b"\n")[0] + b"\n" + binary)
    (folder / "junk_last.jsonl").write_bytes(golden + b"this line is whole, and not JSON\n")
    paths = {name: (Path(name) if name.startswith("/") else folder / name) for name in HOSTILE}
    yield paths


@pytest.mark.parametrize("reader", list(READERS))
@pytest.mark.parametrize("name", list(HOSTILE))
def test_each_reader_says_one_line_naming_the_line(
    files: dict[str, Path], tmp_path: Path, reader: str, name: str
) -> None:
    path = files[name]
    before = path.read_bytes() if path.is_file() else None
    said, number = HOSTILE[name]
    if number is None:
        number = len(GOLDEN.read_bytes().splitlines()) + 1
    run = run_limited if name in UNBOUNDED else run_cli
    line = error_line(run(*READERS[reader](path, tmp_path), stdin="yes\n"))
    assert f"line {number}: {said}" in line, line
    assert "cut short" not in line
    assert not (tmp_path / "table.svg").exists()
    if before is not None:
        assert path.read_bytes() == before  # --resume neither dropped nor appended a line


def _peak_kb(*args: str) -> tuple[subprocess.CompletedProcess[str], int]:
    """``grognard ARGS`` run by a small parent that reports its child's peak resident memory (KiB)."""
    parent = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], capture_output=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", parent, sys.executable, "-m", "grognard", *args],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
        env=cli_env(),
        preexec_fn=_limited,
    )
    return done, int(done.stdout.split()[-1])


def test_a_line_of_100_mb_is_refused_holding_a_lines_worth_of_memory(files: dict[str, Path], tmp_path: Path) -> None:
    small = tmp_path / "small.jsonl"
    small.write_text("not a record\n", encoding="ascii")
    _, usual = _peak_kb("replay", str(small))
    _, long = _peak_kb("replay", str(files["long.jsonl"]))
    _, zero = _peak_kb("replay", "/dev/zero")
    bound = 4 * MAX_LINE // 1024  # KiB: the longest line read, decoded and looked at
    assert long - usual < bound, (long, usual)
    assert zero - usual < bound, (zero, usual)


def test_a_whole_last_line_that_is_not_json_is_not_cut_short(tmp_path: Path) -> None:
    """Only a last line with no newline after it was cut short by a crash; one written whole is not JSON,
    and --resume says so without offering to drop it (nothing changed)."""
    golden = GOLDEN.read_bytes()
    number = len(golden.splitlines()) + 1
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(golden + b'{"type": "action", "seat"\n')
    line = error_line(run_cli("replay", str(whole)))
    assert f"line {number}: not JSON" in line and "cut short" not in line, line
    line = error_line(run_cli("play", "omaha", "--resume", str(whole), stdin="yes\n"))
    assert f"line {number}: not JSON" in line, line
    assert whole.read_bytes() == golden + b'{"type": "action", "seat"\n'
    torn = tmp_path / "torn.jsonl"  # the same without its newline: the crash's cut, read without it
    torn.write_bytes(golden + b'{"type": "action", "seat"')
    done = run_cli("replay", str(torn))
    assert done.returncode == 0, done.stderr
    assert f"line {number} is cut short" in done.stderr


# ---------------------------------------------------------------------- the web's replay upload
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("hostile_web")) as srv:
        yield srv


def test_the_replay_upload_refuses_hostile_files_with_one_line(server: ServerProcess) -> None:
    golden = GOLDEN.read_bytes()
    uploads = {
        "deep": (b"[" * 100000 + b"]" * 100000 + b"\n", "line 1: not a record line: nested deeper than 64 levels"),
        "long": (b'{"type":"header","x":"' + b"a" * (MAX_LINE + 10) + b'"}\n', "line 1: longer than 4 MiB"),
        "zeros": (b"\0" * (MAX_LINE + 10), "line 1: longer than 4 MiB"),
        "binary": (golden.split(b"\n")[0] + b"\n" + bytes(range(11, 256)) * 64, "line 2: not UTF-8 text"),
        "junk last": (golden + b"junk\n", f"line {len(golden.splitlines()) + 1}: not JSON"),
        "deep in a line": (golden.replace(b'"events":[', b'"events":[' + b"[" * 500 + b"]" * 500 + b",", 1), "nested"),
    }
    for what, (body, said) in uploads.items():
        status, answer = call(server.url + "/api/replays?name=bad.jsonl", body)
        assert status == 400, (what, status, answer)
        assert said in answer["message"] and "\n" not in answer["message"], (what, answer)
    status, made = call(server.url + "/api/replays?name=good.jsonl", golden)  # and the server still serves
    assert status == 200, made
    assert json.loads(json.dumps(made))["url"].startswith("/replays/")
