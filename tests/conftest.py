"""Shared test setup: the `rule` marker ties a test to rule IDs in docs/rules/<ruleset>.md."""

from __future__ import annotations

import os

os.environ.setdefault("COLUMNS", "120")
