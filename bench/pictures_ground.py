"""Screenshots of the skirmish's table mid-game, in Debian's Chromium, for docs/pictures.md.

village_street and castle_storm are golden records (tests/golden/); the vehicle scenario, gun_line_armour (a
Sherman, a jeep and two field guns), is played by the book bots on seed 11 into a record first. Each record is
uploaded to a fresh ``grognard serve`` and opened in the replay viewer half way through the game (the same scene
a player's page draws, seen by a spectator), at 1366x768 (a Chromebook) and 1920x1080, and close up at
1366x768 (three turns of the wheel, as a player zooms in on the men). The pictures are written to
docs/pictures/ (or the folder given).

    python bench/pictures_ground.py [FOLDER]
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
GOLDEN = ROOT / "tests" / "golden"
# (picture name, record or scenario to play, seed, the share of the game shown, what the close-up centres on)
TABLES = [
    ("skirmish-village_street", GOLDEN / "skirmish-village-street-seed6.jsonl", None, 0.5, ".layer-units .t-figure"),
    ("skirmish-castle_storm", GOLDEN / "skirmish-castle-storm-seed2.jsonl", None, 0.5, ".layer-units .t-figure"),
    ("skirmish-gun_line_armour", "gun_line_armour", 11, 0.3, ".layer-units .t-hull"),
]
SIZES = [(1366, 768), (1920, 1080)]
CENTRE = """(sel) => {
  const boxes = Array.from(document.querySelectorAll("#svg svg.table " + sel)).map((g) => g.getBoundingClientRect())
    .filter((b) => b.width > 0);
  const mid = (k) => boxes.reduce((t, b) => t + (k ? b.top + b.height / 2 : b.left + b.width / 2), 0) / boxes.length;
  return [mid(0), mid(1)];
}"""


def record_of(source: Path | str, seed: int | None, folder: Path) -> bytes:
    """The record's bytes: a golden record as it is, or ``source``'s scenario played by the bots on ``seed``."""
    if isinstance(source, Path):
        return source.read_bytes()
    out = folder / f"{source}-seed{seed}.jsonl"
    play = [sys.executable, "-m", "grognard.cli", "play", "skirmish", source, "--seed", str(seed), "--record", str(out)]
    subprocess.run(play, check=True, capture_output=True)
    return out.read_bytes()


def shoot(folder: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    folder.mkdir(parents=True, exist_ok=True)
    made = []
    with tempfile.TemporaryDirectory() as tmp, ServerProcess(Path(tmp)) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for name, source, seed, share, focus in TABLES:
            status, up = call(f"{server.url}/api/replays?name={name}.jsonl", record_of(source, seed, Path(tmp)))
            assert status == 200, up
            for width, height in SIZES:
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(server.url + up["url"])
                page.wait_for_selector("#svg svg.table .layer-units", state="attached")
                steps = page.evaluate(f"fetch('/api/replays/{up['id']}').then((r) => r.json()).then((o) => o.steps)")
                event = max(1, int(steps * share))
                for _ in range(event):
                    page.keyboard.press("ArrowRight")
                page.wait_for_function(
                    "(w) => document.getElementById('where').textContent.includes(w)", arg=f"(event {event} of"
                )
                page.wait_for_timeout(400)
                path = folder / f"{name}-{width}x{height}.png"
                page.screenshot(path=str(path))
                made.append(path)
                if (width, height) == SIZES[0]:
                    page.mouse.move(*page.evaluate(CENTRE, focus))
                    for _ in range(3):
                        page.mouse.wheel(0, -240)
                        page.wait_for_timeout(150)
                    page.wait_for_timeout(500)
                    path = folder / f"{name}-close-{width}x{height}.png"
                    page.screenshot(path=str(path))
                    made.append(path)
                page.close()
        browser.close()
    return made


if __name__ == "__main__":
    for path in shoot(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "pictures"):
        print(path)
