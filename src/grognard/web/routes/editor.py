"""The table editor: its page and API, for any rule set with an editor part (``Ruleset.editor``).

The page draws a scenario's data with the rule set's face (``Editor.scene``) and lists its problems
(``Editor.check``) after each edit; the server keeps the table being drawn as that browser's draft in its
database (a random number the page keeps in the browser's local storage names it, sent as ``X-Editor``; only
its SHA-256 is stored: no cookie), so it survives a reload and a restart. A
file is opened from its text only (``Editor.read``: parsed, never run, never a path) and downloaded as the
text ``Editor.write`` makes. Checks run on a worker thread: a slow one never holds up the rooms' games.
"""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from grognard import rulesets
from grognard.core.ruleset import Editor, Ruleset
from grognard.web.deps import ServerDep
from grognard.web.editor_page import editor_page as editor_html
from grognard.web.messages import RefusalCode
from grognard.web.protocol import Refused

router = APIRouter()
MAX_DRAFT = 512 * 1024  # bytes of a table's data sent to be checked or kept (a shipped one is 10-30 KB)
MAX_FILE = 300 * 1024  # bytes of a file's text sent to be opened (Editor.read refuses past 256 K characters)


def with_editor() -> list[str]:
    """The rule sets that have a table editor, by name."""
    return [n for n in rulesets.names() if rulesets.get(n).editor is not None]


def wide_paths() -> dict[str, int]:
    """The editor's request paths and the bodies they take (``guard.Guard``'s ``wider``)."""
    out = {}
    for name in with_editor():
        out[f"/api/editor/{name}/check"] = MAX_DRAFT
        out[f"/api/editor/{name}/file"] = MAX_DRAFT
        out[f"/api/editor/{name}/open"] = MAX_FILE
    return out


def editor_of(name: str) -> tuple[Ruleset, Editor]:
    names = with_editor()
    if name not in names:
        raise Refused(
            RefusalCode.NO_EDITOR, f"no table editor for {name!r}; the rule sets with one: {', '.join(names)}"
        )
    ruleset = rulesets.get(name)
    assert ruleset.editor is not None
    return ruleset, ruleset.editor


def browser_of(x_editor: str) -> str:
    """The SHA-256 of the number naming this browser's editor (its local storage); refused without one."""
    if not 16 <= len(x_editor) <= 64:
        raise Refused(RefusalCode.MALFORMED, "no X-Editor header naming this browser's editor: open /editor again")
    return hashlib.sha256(x_editor.encode()).hexdigest()


EditorId = Annotated[str, Header()]


class Drawn(BaseModel):
    """A table as drawn: the scenario's data; ``keep``: kept as this browser's draft."""

    model_config = ConfigDict(extra="forbid")
    data: dict[str, Any]
    keep: bool = True


class Opened(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=MAX_FILE)


@router.get("/editor", response_class=HTMLResponse)
async def editor_page(ruleset: Annotated[str, Query(max_length=32)] = "") -> Any:
    names = with_editor()
    chosen = ruleset or (names[0] if names else "")
    editor_of(chosen)
    return HTMLResponse(editor_html(chosen, [(n, rulesets.get(n).title) for n in names]))


@router.get("/api/editor/{name}")
async def editor_start(name: str, server: ServerDep, x_editor: EditorId = "") -> Any:
    """What the page starts from: the palette, the shipped scenarios, a blank table, this browser's draft."""
    ruleset, editor = editor_of(name)
    draft = await server.run(server.store.draft, browser_of(x_editor), name)
    files = ruleset.files.shipped() if ruleset.files is not None else []
    return {
        "palette": editor.palette(),
        "shipped": [[n, t] for n, t in files],
        "blank": editor.blank(),
        "draft": json.loads(draft) if draft is not None else None,
    }


@router.post("/api/editor/{name}/check")
async def check(name: str, drawn: Drawn, server: ServerDep, x_editor: EditorId = "") -> Any:
    """The table's problems and its picture; kept as this browser's draft (problems and all)."""
    _, editor = editor_of(name)
    browser = browser_of(x_editor)

    def work() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        return editor.check(drawn.data), editor.scene(drawn.data)

    problems, scene = await run_in_threadpool(work)
    if drawn.keep:
        await server.run(server.store.save_draft, browser, name, json.dumps(drawn.data, separators=(",", ":")))
    return {"problems": problems, "scene": scene}


@router.get("/api/editor/{name}/shipped/{scenario}")
async def open_shipped(name: str, scenario: str) -> Any:
    _, editor = editor_of(name)
    return {"data": editor.shipped(scenario)}


@router.post("/api/editor/{name}/open")
async def open_file(name: str, opened: Opened) -> Any:
    """A file's text read as a table (parsed, never run, never a path)."""
    _, editor = editor_of(name)
    return {"data": await run_in_threadpool(editor.read, opened.text)}


@router.post("/api/editor/{name}/file")
async def download(name: str, drawn: Drawn) -> Response:
    """The table as its scenario file (problems and all: a draft may be kept as a file too)."""
    _, editor = editor_of(name)
    text = await run_in_threadpool(editor.write, drawn.data)
    stem = str(drawn.data.get("name") or "table")
    safe = "".join(c if c.isalnum() or c in "_-" else "_" for c in stem)[:40] or "table"
    suffix = str(editor.palette().get("extension", ".txt"))
    return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{safe}{suffix}"'})
