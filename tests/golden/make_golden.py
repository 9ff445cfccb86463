"""Write the golden game records: seeded bot games played by the real program, recorded.

``tests/test_golden.py`` replays each record and plays its game again from the
header; any change of behaviour (a die, a bot's choice, an event, a digest)
shows as a difference from these files. When a change is intended, run from
the project root::

    python tests/golden/make_golden.py

then read ``git diff tests/golden`` (the records are the behaviour) and commit them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIMIT = 1_000_000  # bytes: a golden record stays small enough to read in a diff

GAMES: dict[str, list[str]] = {
    "omaha-g1-seed1": ["--germans", "1", "--seed", "1"],
    "omaha-g2-seed2-optional-rules": [
        "--germans",
        "2",
        "--seed",
        "2",
        "--deep-water",
        "--hidden-obstacles",
        "--fresh-squads",
        "3",
    ],
    "omaha-g1-seed3-random-americans-period": [
        "--germans",
        "1",
        "--seed",
        "3",
        "--bots",
        "american=random",
        "--period-turns",
        "10",
    ],
    "b17-seed1": ["--seed", "1"],
    "b17-seed2-enlarged-arcs": ["--seed", "2", "--enlarged", "--firing-arcs"],
    "b17-seed3-random-germans-fw190": ["--seed", "3", "--bots", "german=random", "--fighter-type", "fw190"],
    "skirmish-hill-assault-seed7": ["hill_assault", "--seed", "7"],
    "skirmish-village-street-seed6": ["village_street", "--seed", "6"],
    "skirmish-castle-storm-seed2": ["castle_storm", "--seed", "2"],
    "skirmish-landing-seed1": ["landing", "--seed", "1"],
}


def make(name: str, folder: Path = HERE) -> Path:
    """Play golden game ``name`` with the real program, recording it to ``folder/name.jsonl``."""
    path = folder / f"{name}.jsonl"
    path.unlink(missing_ok=True)  # play --record refuses to write over a saved game
    ruleset = name.split("-", 1)[0]  # each golden game's name starts with its rule set
    command = [sys.executable, "-m", "grognard", "play", ruleset, *GAMES[name], "--record", str(path), "-q"]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, timeout=300)
    return path


def main() -> int:
    too_big = []
    for name in GAMES:
        path = make(name)
        size = path.stat().st_size
        lines = len(path.read_text(encoding="utf-8").splitlines())
        print(f"wrote {path} ({lines} lines, {size:,} bytes)")
        if size > LIMIT:
            too_big.append(path.name)
    if too_big:
        print(f"error: over {LIMIT:,} bytes: {', '.join(too_big)}; choose smaller games", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
