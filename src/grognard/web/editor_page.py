"""The table editor's page (``/editor``): a shell ``static/editor.js`` fills from the rule set's editor part.

The page names no rule set: what may be drawn, the form's fields and the check come from ``/api/editor/NAME``.
"""

from __future__ import annotations

from html import escape

from grognard.web.pages import _page
from grognard.web.trials import MAX_GAMES


def editor_page(ruleset: str, offered: list[tuple[str, str]]) -> str:
    """The editor of ``ruleset``'s tables; ``offered``: the rule sets with an editor, ``(name, title)``."""
    title = dict(offered).get(ruleset, ruleset)
    others = " ".join(
        f'<a href="/editor?ruleset={escape(n)}">{escape(t.split(" (")[0])}</a>' for n, t in offered if n != ruleset
    )
    body = f"""<header class="editor-head"><h1><span class="head-title">Table editor</span>
<span class="head-code" id="ed-title"></span></h1>
<div class="status" role="status" aria-live="polite"><span id="ed-status">Loading...</span></div>
</header>
<div id="message" role="alert" class="message"></div>
<main id="main" class="editor" data-ruleset="{escape(ruleset)}">
<nav class="ed-tools" aria-label="what to draw">
<p class="ed-row"><button type="button" id="ed-undo" aria-keyshortcuts="Control+Z" title="undo (Ctrl+Z)">Undo</button>
<button type="button" id="ed-redo" aria-keyshortcuts="Control+Y" title="redo (Ctrl+Y)">Redo</button></p>
<p class="ed-row"><label for="ed-snap">Snap</label>
<select id="ed-snap"><option value="1">whole inches</option><option value="0.5" selected>half inches</option>
<option value="0">off</option></select></p>
<div id="ed-palette" role="radiogroup" aria-label="the tool"></div>
<fieldset id="ed-men"><legend>Men to place</legend>
<p><label for="ed-men-side">side</label> <select id="ed-men-side"></select></p>
<p><label for="ed-men-count">men</label> <input id="ed-men-count" type="number" min="1" max="60" value="5"></p>
<p><label for="ed-men-type">kind</label> <select id="ed-men-type"></select></p>
<p><label for="ed-men-weapon">weapon</label> <select id="ed-men-weapon"></select></p>
</fieldset>
<p class="hint">Keys: arrows move what is picked (or the cross, when drawing), Space or Enter puts a point at the
cross, Enter ends a line or outline, R and Shift+R turn, [ and ] pick a corner, Delete removes, Esc lets go,
N picks the next thing (Shift+N the one before).</p>
</nav>
<section class="board ed-board" aria-labelledby="board-h">
<h2 id="board-h" class="visually-hidden">The table being drawn</h2>
<div id="svg" class="svg"></div>
</section>
<div class="ed-side">
<section aria-labelledby="ed-problems-h">
<h2 id="ed-problems-h">Problems <span id="ed-count"></span></h2>
<ol id="ed-problems" class="ed-problems"></ol>
</section>
<section aria-labelledby="ed-picked-h">
<h2 id="ed-picked-h">Picked</h2>
<div id="ed-picked"><p class="hint">Nothing picked: tap something on the table, or press N on the table.</p></div>
</section>
<section aria-labelledby="ed-file-h">
<h2 id="ed-file-h">File</h2>
<p class="ed-row"><button type="button" id="ed-new">New table</button>
<button type="button" id="ed-download">Download the file</button></p>
<p class="ed-row"><label for="ed-shipped">Open a shipped one</label> <select id="ed-shipped"></select>
<button type="button" id="ed-open-shipped">Open</button></p>
<p class="ed-row"><label for="ed-file">Open a file</label>
<input type="file" id="ed-file" accept=".toml,text/plain"></p>
<p class="ed-row ed-play"><button type="button" id="ed-play" disabled>Play</button>
<button type="button" id="ed-test" disabled>Test it</button>
<button type="button" id="ed-balance" disabled>Balance it</button>
<label for="ed-games">over</label> <input type="number" id="ed-games" min="1" max="{MAX_GAMES}" value="100"
 inputmode="numeric"> games</p>
<p class="hint" id="ed-play-note">A table with problems is kept as a draft (here, on this server) but cannot be
played.</p>
<div id="ed-run" aria-live="polite"></div>
</section>
<section aria-labelledby="ed-form-h">
<h2 id="ed-form-h">The scenario</h2>
<form id="ed-form"></form>
</section>
<p class="home-link"><a href="/">Back to the home page</a> {others}</p>
</div>
</main>"""
    return _page(f"Table editor: {title}", body, "editor", scripts=("table",), module="editor")
