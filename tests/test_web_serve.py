"""``grognard serve``: its options, the LAN address and QR codes, the default database, message checks."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from grognard.cli import app
from grognard.web.pages import qr_svg, qr_text
from grognard.web.protocol import Join, clean_name, client_message
from grognard.web.serve import lan_address
from grognard.web.store import Store, default_url


def test_serve_help_lists_its_options() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for flag in ("--host", "--port", "--lan", "--db"):
        assert flag in result.output


def test_a_port_in_use_is_refused_in_one_line_before_anything_is_printed(tmp_path: Path) -> None:
    import socket
    import subprocess
    import sys

    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "grognard.cli", "serve", "--port", str(port), "--db", f"sqlite:///{tmp_path}/g.db"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2 and done.stdout == "", (done.stdout, done.stderr)
    assert done.stderr.strip() == (
        f"error: --port {port}: another program is listening on it (another grognard serve?); choose another port"
    )


def test_lan_address_and_qr_codes() -> None:
    address = lan_address()
    assert address.count(".") == 3
    text = qr_text(f"http://{address}:8000")
    assert len(text.splitlines()) > 10
    svg = qr_svg(f"http://{address}:8000/play/ABCDEF")
    assert svg.lstrip().startswith("<?xml") or "<svg" in svg[:200]


def test_any_sqlalchemy_url(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path}/x.sqlite3")
    room = store.create_room("ABCDEF", "omaha", {"status": "lobby"}, [{"type": "header"}])
    store.append(room, 1, {"type": "start"})
    store.append(room, 2, {"type": "action"})
    store.truncate(room, 2)
    [(room_id, code, ruleset, meta, record)] = store.load()
    assert (room_id, code, ruleset, meta, [line["type"] for line in record]) == (
        room,
        "ABCDEF",
        "omaha",
        {"status": "lobby"},
        ["header", "start"],
    )
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    store.close()


@pytest.mark.parametrize(
    "text",
    [
        '{"type": "act", "action": "hold A1", "n": -1}',
        '{"type": "act", "action": "hold A1", "extra": 1}',
        '{"type": "settings", "timer": 99999}',
        '{"type": "assign", "seat": "American 1", "player": "drop table"}',
        '{"type": "hello", "role": "god"}',
        '{"type": "pause", "paused": "yes"}',
        "[]",
    ],
)
def test_malformed_messages_are_refused(text: str) -> None:
    with pytest.raises(ValidationError):
        client_message.validate_json(text)


def test_names_are_cleaned() -> None:
    assert clean_name("  Ann \u202e\u200b  Lee\x07 ") == "Ann Lee"
    assert Join.model_validate({"name": "<b>Bo</b>"}).name == "<b>Bo</b>"  # kept as typed; pages write it as text
    with pytest.raises(ValueError):
        clean_name("\x00\u202e ")


def test_default_database_in_the_user_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    url = default_url()
    assert url == f"sqlite:///{tmp_path / 'grognard' / 'games.sqlite3'}"
    assert (tmp_path / "grognard").is_dir()
