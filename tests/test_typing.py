"""The core and the web server type-check under ``mypy --strict`` (the files ``[tool.mypy]`` in pyproject.toml
names): the contracts between the core, the rule sets and the faces are typed, and stay so."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_core_and_web_type_check_strictly(monkeypatch: pytest.MonkeyPatch) -> None:
    """mypy's own cache (``.mypy_cache``, as ``mypy`` at the root keeps it): a run after a change checks again what
    changed and what depends on it (a minute and a half of a loaded suite from a cache made afresh each time)."""
    api = pytest.importorskip("mypy.api")
    monkeypatch.chdir(ROOT)  # the configuration and its files are read from the project's root
    out, err, status = api.run(["--no-error-summary"])
    assert status == 0, out + err
