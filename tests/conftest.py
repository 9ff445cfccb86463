"""Shared test setup: the `rule` marker ties a test to rule IDs in docs/rules/<ruleset>.md; the browser
tests' ``browser`` (Debian's Chromium, one per test module) and ``shots`` (where screenshots go:
``$GROGNARD_SHOTS`` or the module's tmp dir) fixtures."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("COLUMNS", "120")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium (``browsers.CHROMIUM``) for the test module; closed after it."""
    from browsers import ARGS, CHROMIUM

    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        assert b.version, "Chromium started"
        yield b
        b.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("GROGNARD_SHOTS") or tmp_path_factory.mktemp("shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
