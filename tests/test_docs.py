"""The documentation site builds with no broken link (``mkdocs build --strict``: a link to a page or a heading that
is not there fails it), every page of docs/ is in its nav, and README's links to the guides lead to files that
are there (with the heading a link names)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    pytest.importorskip("material", reason="mkdocs-material is in the dev extra")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "site" / "index.html").exists() and (
        tmp_path / "site" / "rules" / "skirmish" / "index.html"
    ).exists()


def test_every_page_is_in_the_nav() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("nav:", 1)[1]
    pages = sorted(str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md"))
    missing = [page for page in pages if f": {page}" not in nav]
    assert not missing, f"pages not in mkdocs.yml's nav: {missing}"


def anchors(page: Path) -> set[str]:
    """The ids mkdocs gives ``page``'s headings (lower case, words joined by '-', punctuation dropped)."""
    found = set()
    for heading in re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), re.M):
        words = re.sub(r"[^\w\s-]", "", heading.lower().replace("`", "")).strip()
        found.add(re.sub(r"[\s]+", "-", words))
    return found


def test_readmes_links_lead_somewhere() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    local = [link for link in links if not re.match(r"[a-z]+:", link)]
    assert len(local) >= 10, local  # a guide for each reader
    for link in local:
        path, _, anchor = link.partition("#")
        target = ROOT / path
        assert target.exists(), f"README links to {link}: no such file"
        if anchor:
            assert anchor in anchors(target), f"README links to {link}: {path} has no such heading"
