"""Weigh the test files: seconds each took in a whole run, for conftest's order (the longest handed out first).

    pytest --junitxml=/tmp/run.xml && python tests/weigh.py /tmp/run.xml

writes ``tests/weights.json``: each file's seconds (setup, call and teardown of its tests), longest first.
Run it again when a file's weight changes a lot; a file missing from it counts as the median file.
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

WEIGHTS = Path(__file__).with_name("weights.json")


def _file_of(classname: str) -> str:
    """``tests.test_x`` (or ``tests.test_x.TestCase``) -> ``tests/test_x.py``, as pytest names the file."""
    parts = classname.split(".")
    root = Path(__file__).parent.parent
    for n in range(len(parts), 0, -1):
        path = "/".join(parts[:n]) + ".py"
        if (root / path).is_file():
            return path
    return classname


def weigh(report: Path) -> dict[str, float]:
    """{test file (as pytest names it): seconds} from a JUnit XML report."""
    seconds: dict[str, float] = defaultdict(float)
    for case in ET.parse(report).getroot().iter("testcase"):
        seconds[_file_of(case.get("classname", ""))] += float(case.get("time") or 0.0)
    return {path: round(s, 1) for path, s in sorted(seconds.items(), key=lambda kv: -kv[1])}


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    WEIGHTS.write_text(json.dumps(weigh(Path(sys.argv[1])), indent=0) + "\n", encoding="utf-8")
    print(f"wrote {WEIGHTS}")
