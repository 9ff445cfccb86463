"""Write the words a person is shown at sampled steps of some golden records (``tests/golden/words/*.json``).

At every ``EVERY``-th action of a record, for each decision owed: its situation lines and the board as its seat
sees it, and the board a spectator sees. ``tests/test_view_words.py`` computes the same words from the seats'
views (each sent through JSON, as the web and the terminal have them) and compares. The files were first
written when ``situation`` and ``board`` still read the whole game; when the words change on purpose, run from
the project root::

    python tests/golden/make_words.py

and read ``git diff tests/golden/words``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from grognard.core.engine import Game
from grognard.core.record import replay
from grognard.rulesets import get

HERE = Path(__file__).resolve().parent
OUT = HERE / "words"
# a record and how often its steps are sampled (every so many actions)
RECORDS: dict[str, int] = {
    "omaha-g2-seed2-optional-rules": 15,
    "b17-seed2-enlarged-arcs": 10,
    "skirmish-castle-storm-seed2": 10,
    "skirmish-landing-seed1": 6,
}


def words(ruleset: str, game: Game) -> list[dict[str, Any]]:
    """The situation of each decision owed and the board of its seat and of a spectator, from the seats' views
    (each through JSON, as a page or a terminal has it)."""
    face = get(ruleset).face
    assert face is not None and face.situation is not None and face.board is not None

    def view(seat: str | None) -> dict[str, Any]:
        return json.loads(json.dumps(game.view(seat)))

    out: list[dict[str, Any]] = []
    for decision in game.pending():
        out.append(
            {"decision": decision.id, "seat": decision.seat, "situation": face.situation(view(decision.seat), decision)}
        )
    for seat in sorted({d.seat for d in game.pending()}):
        out.append({"seat": seat, "board": face.board(view(seat))})
    out.append({"seat": None, "board": face.board(view(None))})
    return out


def sampled(name: str, every: int) -> list[dict[str, Any]]:
    """The words at every ``every``-th action of golden record ``name`` (the first included), and at the first
    action where a kind of decision is owed that no step taken so far owed (a bomber's guns, a melee)."""
    ruleset = name.split("-")[0]
    taken: list[dict[str, Any]] = []
    count = [0]
    kinds: set[str] = set()

    def at(game: Game) -> bool:
        owed = {d.id.split(" ")[0] for d in game.pending()}
        if count[0] % every == 0 or not owed <= kinds:
            taken.append({"action": count[0], "words": words(ruleset, game)})
            kinds.update(owed)
        count[0] += 1
        return False

    replay(HERE / f"{name}.jsonl", get, until=at)
    return taken


def main() -> int:
    OUT.mkdir(exist_ok=True)
    for name, every in RECORDS.items():
        text = json.dumps(sampled(name, every), indent=1, ensure_ascii=False) + "\n"
        (OUT / f"{name}.json").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
