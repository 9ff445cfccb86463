"""Bad input at the terminal is one ``error:`` line and exit code 2, never a traceback (issue 21)."""

from __future__ import annotations

from pathlib import Path

import pytest

from terminal_driver import error_line, run_cli


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("errors") / "game.jsonl"
    done = run_cli("play", "omaha", "--germans", "1", "--seed", "11", "--record", str(path), "-q")
    assert done.returncode == 0, done.stderr
    return path


# ---------------------------------------------------------------------- serve --db
@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("notaurl", "not a database URL"),
        ("sqlite:////no/such/folder/games.sqlite3", "the folder '/no/such/folder' does not exist"),
        ("postgresql+psycopg://teacher:secret@localhost/grognard", "driver is not installed: psycopg"),
        ("mysql://teacher@localhost/grognard", "driver is not installed: mysqlclient"),
        ("nosuchdb://x", "unknown kind of database 'nosuchdb'"),
    ],
)
def test_serve_with_a_database_it_cannot_use(url: str, expected: str) -> None:
    pytest.importorskip("sqlalchemy")
    if "psycopg" in url:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            pass
        else:
            pytest.skip("psycopg is installed here")
    line = error_line(run_cli("serve", "--db", url, "--port", "8799"))
    assert line.startswith("error: --db ") and expected in line, line
    assert "secret" not in line  # a password is never echoed


# ---------------------------------------------------------------------- render
def test_a_png_that_cannot_be_written_says_why(record: Path, tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "board.png"
    line = error_line(run_cli("render", "omaha", str(record), "-o", str(target)))
    assert line == f"error: -o '{target}': cannot write (No such file or directory)"
