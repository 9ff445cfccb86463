"""The skirmish engine's shape (issue 16): phase modules of plain functions over one game context, no
import loop in the package, no phase module importing the game, no ``type: ignore``, no module over ~700
lines, and every module importable alone in a fresh interpreter."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "grognard" / "rulesets" / "skirmish"
PREFIX = "grognard.rulesets.skirmish"
PHASES = (
    "context",
    "men",
    "setup",
    "turn",
    "moving",
    "fire",
    "artillery",
    "melee",
    "driving",
    "boarding",
    "drops",
    "castles",
    "structures",
    "shelling",
    "view",
    "schema",
    "ground",
    "forces",
)
MOST_LINES = 700


def modules() -> list[str]:
    return sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__")


def imports_of(name: str) -> set[str]:
    """The package's modules that ``name`` imports anywhere in its text (TYPE_CHECKING blocks included)."""
    tree = ast.parse((PACKAGE / f"{name}.py").read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == PREFIX:
                out |= {alias.name for alias in node.names}
            elif node.module.startswith(PREFIX + "."):
                out.add(node.module[len(PREFIX) + 1 :].split(".")[0])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(PREFIX + "."):
                    out.add(alias.name[len(PREFIX) + 1 :].split(".")[0])
    return out & set(modules())


def test_the_import_graph_of_the_package_has_no_loop() -> None:
    graph = {name: imports_of(name) for name in modules()}
    state: dict[str, str] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                loop = [*path[path.index(nxt) :], nxt] if nxt in path else [node, nxt]
                pytest.fail(f"import loop: {' -> '.join(loop)}")
            if nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])


def test_no_phase_module_imports_the_game() -> None:
    offenders = sorted(name for name in PHASES if "game" in imports_of(name))
    assert not offenders, f"phase modules importing game.py: {offenders}"
    assert set(PHASES) <= set(modules())


def test_the_game_is_a_step_machine_with_no_mixins() -> None:
    tree = ast.parse((PACKAGE / "game.py").read_text(encoding="utf-8"))
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    assert [c.name for c in classes] == ["SkirmishGame"]
    # one base: the engine's Game, generic in its state (issue 30)
    assert [ast.unparse(b) for b in classes[0].bases] == ["Game[SkirmishState]"]


@pytest.mark.parametrize("name", modules())
def test_each_module_is_small_and_has_no_type_ignore(name: str) -> None:
    text = (PACKAGE / f"{name}.py").read_text(encoding="utf-8")
    assert "type: ignore" not in text
    assert len(text.splitlines()) <= MOST_LINES, f"{name}.py has {len(text.splitlines())} lines"


ALONE = """
import importlib, os, sys, traceback
# "import grognard.rulesets.skirmish.X" in a fresh interpreter imports the package first, then X: the package's
# import is the same whatever X is, so one fresh interpreter imports it, and X is imported in a fork of it
import grognard.rulesets.skirmish
for target in sys.argv[1:]:
    if target in sys.modules:  # the package's own import imported it: that import was the one X's would be
        continue
    pid = os.fork()
    if pid == 0:
        try:
            importlib.import_module(target)
        except BaseException:
            traceback.print_exc()
            sys.stderr.flush()
            os._exit(1)
        os._exit(0)
    if os.waitpid(pid, 0)[1] != 0:
        print(target)
"""


def test_each_module_imports_alone_in_a_fresh_interpreter() -> None:
    """Each module imports as the first thing a fresh interpreter does (no import loop shows only in some order).
    The package's import, which every one begins with, is done once (it was 46 interpreters, 4 minutes of a
    loaded machine's suite); a module it does not import itself is imported in a fork made after it."""
    targets = [f"{PREFIX}.{name}" for name in modules()]
    done = subprocess.run([sys.executable, "-c", ALONE, *targets], capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"import {PREFIX} alone fails:\n{done.stderr[-2000:]}"
    assert not done.stdout.split(), f"these fail to import alone: {done.stdout.split()}\n{done.stderr[-2000:]}"
