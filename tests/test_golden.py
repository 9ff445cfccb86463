"""Golden records: seeded bot games whose every line is the expected behaviour.

Each record in ``tests/golden`` must replay (every die, event and digest
checked against today's rules), and the game played again from its header
(same options, seed, bots, through the real program) must write the same
record line for line. Any change of behaviour shows as a difference; when it
is intended, regenerate the records with ``python tests/golden/make_golden.py``.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from grognard.rulesets import get
from terminal_driver import lines_of, run_cli

GOLDEN = Path(__file__).resolve().parent / "golden"
REGENERATE = (
    "If the change of behaviour is intended, regenerate the golden records with "
    "`python tests/golden/make_golden.py` (from the project root), review `git diff tests/golden` and commit them."
)


def _make_golden() -> Any:
    spec = importlib.util.spec_from_file_location("make_golden", GOLDEN / "make_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKE = _make_golden()
NAMES = sorted(MAKE.GAMES)


def play_arguments(header: dict[str, Any]) -> list[str]:
    """The command line that plays the game of ``header`` again (options that differ from the defaults)."""
    assert header["dice"] == "seeded" and not header.get("humans"), "a golden game is seeded and played by bots"
    ruleset = get(header["ruleset"])
    args = ["play", ruleset.name, "--seed", str(header["seed"])]
    for spec in ruleset.options:
        value = header["options"].get(spec.name, spec.default)  # a quiet option at its default is left out
        if value == spec.default:
            continue
        if value is None:
            text = spec.none_word or "none"
        elif isinstance(value, bool):
            text = "on" if value else "off"
        else:
            text = str(value)
        args += ["--option", f"{spec.name}={text}"]
    for side, bot in header["bots"].items():
        args += ["--bots", f"{side}={bot}"]
    return args


def _without_digests(line: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in line.items() if k not in ("digest", "versions")}
    return out


def test_the_golden_records_are_there_and_small() -> None:
    on_disk = sorted(p.stem for p in GOLDEN.glob("*.jsonl"))
    assert on_disk == NAMES, f"tests/golden holds {on_disk}, make_golden.py makes {NAMES}. {REGENERATE}"
    for name in NAMES:
        size = (GOLDEN / f"{name}.jsonl").stat().st_size
        assert size < MAKE.LIMIT, f"{name}.jsonl is {size:,} bytes; keep golden records under {MAKE.LIMIT:,}"


@pytest.mark.parametrize("name", NAMES)
def test_golden_record_replays(name: str) -> None:
    path = GOLDEN / f"{name}.jsonl"
    done = run_cli("replay", str(path))
    assert done.returncode == 0, f"{path.name} no longer replays: {done.stderr.strip()}\n{REGENERATE}"
    assert "every die and digest matches the record" in done.stdout
    assert "Result:" in done.stdout, "a golden game is played to its end"


@pytest.mark.parametrize("name", NAMES)
def test_golden_game_played_again_writes_the_same_record(name: str, tmp_path: Path) -> None:
    golden = GOLDEN / f"{name}.jsonl"
    want = lines_of(golden)
    header = json.loads(want[0])
    fresh = tmp_path / golden.name
    done = run_cli(*play_arguments(header), "--record", str(fresh), "-q")
    assert done.returncode == 0, done.stderr
    got = lines_of(fresh)
    new_header = json.loads(got[0])
    same_versions = new_header["versions"] == header["versions"]
    for number, (a, b) in enumerate(zip(got, want, strict=False), 1):
        if same_versions:
            same = a == b
        else:  # another Python or grognard version: its header, so every chained digest, differs; the rest must not
            same = _without_digests(json.loads(a)) == _without_digests(json.loads(b))
        assert same, (
            f"{golden.name}: line {number} of the game played again differs from the golden record\n"
            f"  now:    {a[:600]}\n  golden: {b[:600]}\n{REGENERATE}"
        )
    assert len(got) == len(want), (
        f"{golden.name}: the game played again has {len(got) - 2} actions, the golden record {len(want) - 2}. "
        f"{REGENERATE}"
    )
