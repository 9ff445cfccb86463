"""Every rule ID in docs/rules/*.md has a test, and every test's rule ID is in the docs."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "rules"
HEADING = re.compile(r"^###\s+((?:omaha|b17|skirmish)\.\d+)\b", re.MULTILINE)
CODE_PATH = re.compile(r"`((?:src|tests)/[\w/.\-]+\.py)`")
# a source path and the names that follow it: `src/.../scenario.py` `check_scenario`, `load_scenario`
NAMED_IN = re.compile(r"`(src/[\w/.\-]+\.py)`((?:[ \t]*(?:,|and)?[ \t\n]*`[A-Za-z_][\w.]*`)+)")


def documented() -> dict[str, str]:
    ids: dict[str, str] = {}
    for doc in sorted(DOCS.glob("*.md")):
        for match in HEADING.finditer(doc.read_text(encoding="utf-8")):
            assert match.group(1) not in ids, f"{match.group(1)} is defined twice"
            ids[match.group(1)] = doc.name
    return ids


@functools.cache  # the test files parsed once a run, not once for each test that asks
def rule_ids_in_tests() -> dict[str, list[str]]:
    """Rule IDs named by @pytest.mark.rule(...) in the test files, with the tests naming them."""
    out: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                continue
            for deco in node.decorator_list:
                if isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute) and deco.func.attr == "rule":
                    for arg in deco.args:
                        assert isinstance(arg, ast.Constant), f"{path.name}::{node.name}: rule IDs must be literals"
                        out.setdefault(str(arg.value), []).append(f"{path.name}::{node.name}")
    return out


def test_rule_documents_exist() -> None:
    assert (DOCS / "omaha.md").is_file()
    assert documented(), "no rule IDs found in docs/rules"


def test_every_documented_rule_has_a_test() -> None:
    missing = sorted(
        set(documented()) - set(rule_ids_in_tests()), key=lambda r: (r.split(".")[0], int(r.split(".")[1]))
    )
    assert not missing, f"rules without a test: {', '.join(missing)}"


def test_every_tested_rule_is_documented() -> None:
    unknown = sorted(set(rule_ids_in_tests()) - set(documented()))
    assert not unknown, f"tests name rule IDs the docs lack: {unknown}"


@pytest.mark.parametrize("doc", sorted(p.name for p in DOCS.glob("*.md")))
def test_code_paths_in_docs_exist(doc: str) -> None:
    text = (DOCS / doc).read_text(encoding="utf-8")
    missing = sorted({p for p in CODE_PATH.findall(text) if not (ROOT / p).exists()})
    assert not missing, f"{doc} names files that do not exist: {missing}"


def test_ids_are_numbered_in_order() -> None:
    for doc in sorted(DOCS.glob("*.md")):
        numbers = [int(m.group(1).split(".")[1]) for m in HEADING.finditer(doc.read_text(encoding="utf-8"))]
        assert numbers == list(range(1, len(numbers) + 1)), f"{doc.name}: IDs not 1..N in order: {numbers}"


@functools.cache  # a module parsed once a run, not once for each Code: line naming it
def defined_in(path: Path) -> frozenset[str]:
    """The names a module defines or imports anywhere (functions, classes, methods, assigned names)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Assign):
            out |= {n.id for target in node.targets for n in ast.walk(target) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.add(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            out |= {alias.asname or alias.name for alias in node.names}
    return frozenset(out)


@pytest.mark.parametrize("doc", sorted(p.name for p in DOCS.glob("*.md")))
def test_code_names_in_docs_are_in_the_file_named(doc: str) -> None:
    """A rule's ``Code:`` line names a file and then what in it plays the rule; each plain name (not a dotted
    one) is defined in that file, so a module split cannot leave the docs pointing at the old place."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    wrong = []
    for match in NAMED_IN.finditer(text):
        path = ROOT / match.group(1)
        if not path.is_file():
            continue  # test_code_paths_in_docs_exist names it
        have = defined_in(path)
        names = re.findall(r"`([A-Za-z_]\w*)`", match.group(2))
        wrong += [f"{match.group(1)} {name}" for name in names if name not in have]
    assert not wrong, f"{doc} names what the file does not define: {wrong}"
