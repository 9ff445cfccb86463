"""How long the table editor's check takes (issue 32, item 2: <= 200 ms for the shipped scenarios).

For each shipped scenario: the CPU time of the check and the picture in this process (``Editor.check`` and
``Editor.scene``, time.process_time, the least of ``--repeat``), and the round trip of ``POST
/api/editor/skirmish/check`` to a real ``grognard serve`` (wall time, the median: what a person drawing
waits for, on this machine as loaded as it is).

    python bench/editor_check.py --repeat 20
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from grognard import rulesets
from grognard.rulesets.skirmish.scenario import shipped
from grognard.web.testing import ServerProcess


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    editor = rulesets.get("skirmish").editor
    assert editor is not None
    with tempfile.TemporaryDirectory() as folder, ServerProcess(Path(folder)) as server:
        client = httpx.Client(base_url=server.url, timeout=30, headers={"X-Editor": secrets.token_hex(12)})
        print(f"{'scenario':18} {'check CPU':>10} {'scene CPU':>10} {'round trip (median, max)':>26}")
        worst = 0.0
        for name, _ in shipped():
            data = editor.shipped(name)
            cpu_check, cpu_scene, trips = [], [], []
            for _ in range(args.repeat):
                t = time.process_time()
                editor.check(data)
                cpu_check.append(time.process_time() - t)
                t = time.process_time()
                editor.scene(data)
                cpu_scene.append(time.process_time() - t)
                t = time.perf_counter()
                answer = client.post("/api/editor/skirmish/check", json={"data": data})
                trips.append(time.perf_counter() - t)
                assert answer.status_code == 200 and answer.json()["problems"] == [], name
            worst = max(worst, statistics.median(trips))
            print(
                f"{name:18} {min(cpu_check) * 1000:8.1f} ms {min(cpu_scene) * 1000:8.1f} ms "
                f"{statistics.median(trips) * 1000:12.1f} ms {max(trips) * 1000:8.1f} ms"
            )
        print(f"worst median round trip: {worst * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
