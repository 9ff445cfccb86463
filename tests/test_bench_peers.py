"""bench/peers/ and bench/compare.py: the plain scripts of the rules, timed by their own CPU (issue 33, item 7).

No speed is asserted (the machine is shared): only that compare.py runs each rule set's peer for the games it
asks and reads the peer's own games per second of CPU, that a peer plays whole games to a result, and that a
peer which fails or prints no figure is one clear line.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"bench_{name.replace('/', '_')}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


COMPARE = _load("compare")


def test_compare_runs_each_rule_sets_peer_and_reads_its_cpu_speed() -> None:
    assert set(COMPARE.PEERS) >= {"omaha", "b17"}
    speeds = COMPARE.peers(["omaha"], [], 0.01)  # 3 games
    assert set(speeds) == {"omaha"} and speeds["omaha"] > 0
    done = subprocess.run(
        [sys.executable, str(COMPARE.PEERS["omaha"][0]), "--games", "3"], capture_output=True, text=True, check=True
    )
    assert "3 games in" in done.stdout and "of CPU" in done.stdout


def test_the_omaha_peer_plays_whole_games_by_the_rules() -> None:
    peer = _load("peers/omaha")
    import random

    for seed in range(3):
        beach = peer.Beach(random.Random(seed))
        assert len(beach.bunkers) == 12 and all(b == [4, 1] for b in beach.bunkers.values())
        assert beach.play() in ("american", "unfinished")
        assert 1 <= beach.turn <= 100 and beach.stats["american_losses"] > 0
        if beach.won():  # every exit open: each bunker knocked out, the section in front of it empty
            assert all(not b[1] and beach.obstacles[beach.exits[s]] == 0 for s, b in beach.bunkers.items())


def test_the_b17_peer_plays_whole_raids_by_the_rules() -> None:
    peer = _load("peers/b17")
    import random

    for seed in range(2):
        raid = peer.Raid(random.Random(seed))
        winner = raid.play()
        assert winner in ("american", "german", None) and 1 <= raid.turn <= 40
        bombed = [b for b in raid.bombers if b.bombed]
        assert (winner == "american") == (raid.hits >= 3) or winner is None
        assert raid.hits <= 8 * len(bombed)  # four bomb rolls a bomber that bombed, two hits at most each
        assert all(f.damage <= 1 and b.damage <= 4 for f in raid.fighters for b in raid.bombers)


def test_a_peer_that_fails_or_prints_no_figure_is_one_clear_line(tmp_path: Path) -> None:
    silent = tmp_path / "silent.py"
    silent.write_text("print('no figure here')\n")
    with pytest.raises(SystemExit, match=r"^error: peer .*silent.py printed no number"):
        COMPARE.peer_speed(silent, 1)
    with pytest.raises(SystemExit, match=r"^error: --peer omaha: expected RULESET=PATH"):
        COMPARE.peers(["omaha"], ["omaha"], 1.0)


def test_compare_against_another_tree_times_each_row_on_both_in_turn() -> None:
    """``--against REV``: each row played on this tree and on the revision's (here HEAD's), in fresh processes,
    round by round; the ratio printed is the median of the rounds' ratios, which are printed beside it."""
    command = [sys.executable, str(BENCH / "compare.py"), "--only", "omaha", "--scale", "0.01"]
    done = subprocess.run(
        [*command, "--against", "HEAD", "--rounds", "2"], capture_output=True, text=True, check=True, timeout=600
    )
    rows = [line.split() for line in done.stdout.splitlines() if line.startswith("omaha ")]
    assert [row[1] for row in rows] == ["reference", "batch"], done.stdout
    for row in rows:
        ours, theirs, ratio = (float(cell.replace(",", "")) for cell in row[3:6])
        rounds = [float(cell.strip(",")) for cell in row[6:]]
        assert ours > 0 and theirs > 0 and len(rounds) == 2
        assert ratio == pytest.approx((rounds[0] + rounds[1]) / 2, abs=0.011)


def test_against_is_a_tree_or_a_revision_else_one_line(tmp_path: Path) -> None:
    root = BENCH.parent
    src = (root / "src").resolve()
    assert COMPARE.against_source(str(root))[0] == src
    assert COMPARE.against_source(str(src))[0] == src
    exported, clean = COMPARE.against_source("HEAD")
    assert (exported / "grognard" / "__init__.py").is_file() and exported != src
    clean()
    assert not exported.exists()
    with pytest.raises(SystemExit, match=r"^error: --against .*: no grognard package there"):
        COMPARE.against_source(str(tmp_path))
    with pytest.raises(SystemExit, match=r"^error: --against no-such-rev: neither a directory nor a git revision"):
        COMPARE.against_source("no-such-rev")
    with pytest.raises(SystemExit, match=r"^error: --rounds 0: at least 1$"):
        COMPARE.against([], 1.0, "HEAD", 0)
    missing = COMPARE.Row("skirmish nowhere", "reference", 1, len, "skirmish", {})
    assert COMPARE.row_speed(None, missing, 1) is None  # a row that tree has not got: said, not a failure


def test_a_rule_sets_first_row_and_its_peer_are_timed_in_turn() -> None:
    """The reference row and the peer, each in a fresh process, ``--rounds`` times: the ratio printed is the
    median row's over the median peer's, and each round's ratio follows it; the batch row is over that peer."""
    command = [sys.executable, str(BENCH / "compare.py"), "--only", "omaha", "--scale", "0.01", "--rounds", "2"]
    done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=600)
    rows = {line.split()[1]: line.split() for line in done.stdout.splitlines() if line.startswith("omaha ")}
    assert set(rows) == {"reference", "batch"}, done.stdout
    reference, batch = rows["reference"], rows["batch"]
    speed, peer, ratio = (float(cell.replace(",", "")) for cell in (reference[3], reference[5], reference[6]))
    assert ratio == pytest.approx(speed / peer, abs=0.006) and len(reference[7:]) == 2
    assert float(batch[5].replace(",", "")) == peer and len(batch) == 7  # the same peer; no rounds of its own


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ({"scale": 0.0}, r"^error: --scale 0.0: more than 0"),
        ({"rounds": -1}, r"^error: --rounds -1: at least 1$"),
        ({"only": ["Omaha"]}, r"^error: --only Omaha: no such rule set here \(omaha, b17, skirmish\)$"),
        ({"against": " "}, r"^error: --against: empty"),
        ({"against": "HEAD", "search": True}, r"^error: --search with --against: that run times the rows"),
    ],
)
def test_bad_options_are_one_line_naming_the_option(given: dict[str, Any], said: str) -> None:
    import argparse

    options = {"scale": 1.0, "rounds": 2, "only": None, "against": None, "search": False, "peer": [], "no_peers": False}
    with pytest.raises(SystemExit, match=said):
        COMPARE.checked_rows(argparse.Namespace(**{**options, **given}))


def test_a_bad_peer_is_refused_before_anything_runs(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match=r"^error: --peer chess=.*: no rule set 'chess' here"):
        COMPARE.peer_paths(["omaha"], [f"chess={tmp_path}"], 1.0)
    with pytest.raises(SystemExit, match=r"^error: --peer omaha=.*nothing.py: no file "):
        COMPARE.peer_paths(["omaha"], [f"omaha={tmp_path / 'nothing.py'}"], 1.0)
    done = subprocess.run(
        [sys.executable, str(BENCH / "compare.py"), "--only", "chess"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == "error: --only chess: no such rule set here (omaha, b17, skirmish)"
