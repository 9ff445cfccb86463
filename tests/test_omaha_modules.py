"""The Omaha rule set's shape: no module over ~700 lines (the game's decisions, its turn and its orders carried
out are three modules: game, turns, combat)."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "grognard" / "rulesets" / "omaha"
MOST_LINES = 700


def test_no_omaha_module_is_over_700_lines() -> None:
    long = {
        str(path.relative_to(PACKAGE)): n
        for path in PACKAGE.rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert not long, f"split these (the limit is {MOST_LINES} lines): {long}"
