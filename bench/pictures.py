"""Screenshots of the B-17 raid's and Omaha's tables mid-game, in Debian's Chromium, for docs/pictures.md.

Each table is a golden record (tests/golden/) uploaded to a fresh ``grognard serve`` and opened in the replay
viewer at an event in the middle of the game (the same scene a player's page draws, seen by a spectator),
at 1366x768 (a Chromebook) and 1920x1080, and close up (the wheel turned over the units); and the same table
at the start of that turn as ``grognard render`` paints it to PNG (the one painter). The pictures are written to
docs/pictures/ (or the folder given).

    python bench/pictures.py [FOLDER]
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from grognard.web.testing import ServerProcess, call

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
# (picture name, golden record, event shown, its turn): a moment with aircraft damaged, squads on the beach
TABLES = [
    ("b17", "b17-seed2-enlarged-arcs.jsonl", 98, 7),
    ("omaha", "omaha-g2-seed2-optional-rules.jsonl", 178, 16),
]
SIZES = [(1366, 768), (1920, 1080)]
FOCUS = {"b17": ".layer-units .t-bomber", "omaha": ".layer-marks .t-obstacle"}  # the close-up's middle: these units'
ZOOM = {"b17": 3, "omaha": 2}  # wheel turns
CENTRE = """(sel) => {
  const boxes = Array.from(document.querySelectorAll("#svg svg.table " + sel)).map((g) => g.getBoundingClientRect());
  const mid = (k) => boxes.reduce((t, b) => t + (k ? b.top + b.height / 2 : b.left + b.width / 2), 0) / boxes.length;
  return [mid(0), mid(1)];
}"""


def shoot(folder: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    folder.mkdir(parents=True, exist_ok=True)
    made = []
    with tempfile.TemporaryDirectory() as tmp, ServerProcess(Path(tmp)) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for name, record, event, _ in TABLES:
            raw = (ROOT / "tests" / "golden" / record).read_bytes()
            status, up = call(f"{server.url}/api/replays?name={record}", raw)
            assert status == 200, up
            for width, height in SIZES:
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(server.url + up["url"])
                page.wait_for_selector("#svg svg.table .layer-units", state="attached")
                steps = page.evaluate(f"fetch('/api/replays/{up['id']}').then((r) => r.json()).then((o) => o.steps)")
                for _ in range(min(event, steps - 1)):
                    page.keyboard.press("ArrowRight")
                want = f"(event {min(event, steps - 1)} of"
                page.wait_for_function("(w) => document.getElementById('where').textContent.includes(w)", arg=want)
                page.wait_for_timeout(300)
                path = folder / f"{name}-{width}x{height}.png"
                page.screenshot(path=str(path))
                made.append(path)
                if (width, height) == SIZES[0]:  # and close up, as a player zooms in on the fight (the wheel)
                    page.mouse.move(*page.evaluate(CENTRE, FOCUS[name]))
                    for _ in range(ZOOM[name]):
                        page.mouse.wheel(0, -240)
                        page.wait_for_timeout(120)
                    page.wait_for_timeout(400)
                    path = folder / f"{name}-close-{width}x{height}.png"
                    page.screenshot(path=str(path))
                    made.append(path)
                page.close()
        browser.close()
    return made


def paint(folder: Path) -> list[Path]:
    """``grognard render`` of each table at the start of its turn, to PNG."""
    made = []
    for name, record, _, turn in TABLES:
        path = folder / f"{name}-render.png"
        golden = ROOT / "tests" / "golden" / record
        command = ["render", name, str(golden), "--turn", str(turn), "-o", str(path), "--force"]
        subprocess.run([sys.executable, "-m", "grognard", *command], check=True, capture_output=True)
        made.append(path)
    return made


if __name__ == "__main__":
    where = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "pictures"
    for path in [*shoot(where), *paint(where)]:
        print(path)
