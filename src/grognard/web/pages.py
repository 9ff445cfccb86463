"""The HTML pages: small server-made shells; ``static/app.js`` (ES modules) fills them from the WebSocket.

Nothing a person typed is put in a page here: names reach the pages only
through the WebSocket and are written with ``textContent``.
"""

from __future__ import annotations

import io
import json
from html import escape
from typing import Any
from urllib.parse import urlsplit

from grognard.bots import ladder
from grognard.core.ruleset import Ruleset
from grognard.web.trials import MAX_GAMES


def _page(
    title: str, body: str, role: str, code: str = "", scripts: tuple[str, ...] = ("table", "odds"), module: str = "app"
) -> str:
    """A page: ``scripts`` are plain scripts (deferred), then ``module`` (an ES module importing the rest)."""
    tags = "\n".join(f'<script src="/static/{name}.js" defer></script>' for name in scripts)
    tags += f'\n<script type="module" src="/static/{module}.js"></script>'
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<link rel="stylesheet" href="/static/style.css">
{tags}
</head>
<body data-role="{escape(role)}" data-code="{escape(code)}">
<a class="skip" href="#main">Skip to the game</a>
{body}
</body>
</html>
"""


def index(rulesets: list[tuple[str, Ruleset]]) -> str:
    """The home page: make a game (the host) or join one (a player)."""
    choices = "".join(
        f'<option value="{escape(n)}" data-sides="{escape(" ".join(r.sides))}" '
        f'data-levels="{escape(json.dumps([[v, ladder.note(r, v)] for v in ladder.levels(r)]))}" '
        f'data-level="{escape(r.default_bot)}">{escape(r.title)}</option>'
        for n, r in rulesets
    )
    options = "\n".join(_options(n, r, first=k == 0) for k, (n, r) in enumerate(rulesets))
    body = f"""<header><h1>grognard</h1><p>WWII miniature wargames played exactly as written.</p></header>
<div id="message" role="alert" class="message"></div>
<main id="main" class="columns">
<section aria-labelledby="make-h">
<h2 id="make-h">Host a game</h2>
<form id="create-form">
<p><label for="ruleset">Rule set</label>
<select id="ruleset" name="ruleset">{choices}</select></p>
<fieldset id="solo"><legend>Play it alone, against the bots (with the options below)</legend>
<p><label for="solo-name">Your name</label>
<input id="solo-name" name="solo_name" autocomplete="off" maxlength="32">
<label for="solo-side">your side</label>
<select id="solo-side" name="solo_side"></select></p>
<p><label for="solo-level">your opponents' level</label>
<select id="solo-level" name="solo_level" aria-describedby="solo-level-note"></select>
<button type="button" id="solo-start">Play solo</button></p>
<p id="solo-level-note" class="hint"></p>
</fieldset>
{options}
<fieldset><legend>Dice</legend>
<p><input type="radio" id="dice-seeded" name="dice" value="seeded" checked>
<label for="dice-seeded">the computer rolls</label></p>
<p><input type="radio" id="dice-manual" name="dice" value="manual">
<label for="dice-manual">referee mode: I type the table's real dice</label></p>
</fieldset>
<p><button type="submit">Make the game</button></p>
</form>
</section>
<div>
<section aria-labelledby="join-h">
<h2 id="join-h">Join a game</h2>
<form id="join-form">
<p><label for="join-code">Room code</label>
<input id="join-code" name="code" autocomplete="off" maxlength="12" required></p>
<p><label for="join-name">Your name (first name or a nickname)</label>
<input id="join-name" name="name" autocomplete="off" maxlength="32" required></p>
<p><button type="submit">Join</button></p>
</form>
</section>
<section aria-labelledby="editor-h">
<h2 id="editor-h">Draw your own table</h2>
<p><a href="/editor" id="editor-link">The table editor</a>: draw a table of your own, see at once what the rules
say about it, save it as a scenario file.</p>
</section>
<section aria-labelledby="replay-h">
<h2 id="replay-h">Watch a replay</h2>
<form id="replay-form">
<p><label for="replay-file">A saved game record (.jsonl: the host page's "Download the record", or
<code>grognard play --record</code>)</label><br>
<input type="file" id="replay-file" name="record" accept=".jsonl,.json,application/x-ndjson,text/plain" required></p>
<p><button type="submit">Watch it</button></p>
</form>
</section>
</div>
</main>"""
    return _page("grognard", body, "index")


def _trial_row(key: str) -> str:
    """Beside a file of one's own: test it (one game of the book against the book, its replay) or balance it
    (games in the background, each side's chance): ``static/trials.js``."""
    return (
        f'<p class="trial-row"><button type="button" id="{key}-test" data-trial="test">Test it</button> '
        f'<button type="button" id="{key}-balance" data-trial="balance">Balance it</button> '
        f'<label for="{key}-games">over</label> <input type="number" id="{key}-games" data-trial="games" min="1" '
        f'max="{MAX_GAMES}" value="100" inputmode="numeric"> games of the book against the book</p>'
        f'<div class="trial-box" id="{key}-trial" data-trial="box" aria-live="polite"></div>'
    )


def _options(name: str, ruleset: Ruleset, first: bool) -> str:
    """The rule set's options as form controls, from its data (``Ruleset.options``)."""
    rows = []
    for spec in ruleset.options:
        key = f"opt-{name}-{spec.name}"
        label = f'<label for="{key}">{escape(spec.help)}</label>'
        data = f'data-option="{escape(spec.name)}"'
        if spec.kind is bool:
            checked = " checked" if spec.default else ""
            rows.append(f'<p><input type="checkbox" id="{key}" {data}{checked}> {label}</p>')
        elif spec.choices or spec.offered:  # a closed list, or the values offered (a scenario: shipped ones)
            pairs = spec.offered or tuple((c, c) for c in spec.choices)
            items = "".join(
                f'<option value="{escape(v)}"{" selected" if v == spec.default else ""}>{escape(words)}</option>'
                for v, words in pairs
            )
            rows.append(f'<p>{label}<br><select id="{key}" {data}>{items}</select></p>')
            if ruleset.files is not None and spec.name == ruleset.upload_option:  # or a file of one's own
                rows.append(
                    f'<p><label for="{key}-file">or your own {escape(spec.name)} file (TOML): it replaces the '
                    f'choice above</label><br><input type="file" id="{key}-file" accept=".toml,text/plain" '
                    f'data-upload="{escape(spec.name)}"></p>' + _trial_row(key)
                )
        elif spec.none_word is not None:
            low = "" if spec.minimum is None else f" from {spec.minimum:g}"
            high = "" if spec.maximum is None else f" to {spec.maximum:g}"
            hint = f"a number{low}{high}, or {spec.none_word}"
            rows.append(
                f'<p>{label} ({escape(hint)})<br><input id="{key}" {data} value="{escape(spec.describe_default())}" '
                f'autocomplete="off" maxlength="20"></p>'
            )
        elif spec.kind is str:
            rows.append(
                f'<p>{label}<br><input id="{key}" {data} value="{escape(spec.describe_default())}" '
                f'autocomplete="off" maxlength="80"></p>'
            )
        else:
            step = "1" if spec.kind is int else "any"
            low = "" if spec.minimum is None else f' min="{spec.minimum:g}"'
            high = "" if spec.maximum is None else f' max="{spec.maximum:g}"'
            mode = "numeric" if spec.kind is int else "decimal"
            rows.append(
                f'<p>{label}<br><input id="{key}" {data} type="number" step="{step}"{low}{high} '
                f'value="{escape(spec.describe_default())}" inputmode="{mode}"></p>'
            )
    if ruleset.plans is not None:  # the bots' plan: a secret the record proves at the end (core.plans)
        key = f"opt-{name}-plan"
        rows.append(
            f'<p><label for="{key}">the bots\' plan (kept secret, proved by the record at the end)</label><br>'
            f'<select id="{key}" data-option="plan"><option value="" selected>none: the book, alike every game'
            '</option><option value="random">a secret plan for each side, drawn for this game</option></select></p>'
        )
    hidden = "" if first else " hidden"
    return (
        f'<fieldset class="options" data-ruleset="{escape(name)}"{hidden}>'
        f"<legend>Options of {escape(ruleset.title)}</legend>{''.join(rows)}</fieldset>"
    )


def room_page(role: str, room: Any, join_base: str = "") -> str:
    """The host, player or projector page of ``room`` (filled in by app.js).

    ``join_base`` is the address players reach this server at (``http://192.168.1.20:8000``): the
    projector shows it with the room code and the QR code, as large as the screen allows.
    """
    code = escape(room.code)
    title = escape(room.ruleset.title)
    heading = {"host": "Host", "player": "Player", "projector": "Projector"}[role]
    # the game's own name (a scenario's title: the state's heading), said instead of the rule set's long title
    game = '<span class="head-game" id="head-game" hidden></span>'
    # a player's page says who plays it once its state names them (panels.js): "Ann, room CODE"
    room_words = f'<span class="head-room">: <span id="head-who">{heading}</span>, room {code}</span>'
    h1 = f'<h1><span class="head-title">{title}</span>{game}{room_words}</h1>'
    parts = _room_parts(code)
    status, toggle, message, odds_line = parts["status"], parts["toggle"], parts["message"], parts["odds_line"]
    board, debrief, tables, figures, events, odds = (
        parts[name] for name in ("board", "debrief", "tables", "figures", "events", "odds")
    )
    if role == "host":
        side = _host_panel(code)
        body = f"""<header class="room-head">{h1}{status}{toggle}</header>
{message}
<main id="main" class="columns room">
<div class="left">{board}{debrief}</div>
<div class="right" id="side">{odds}{side}{tables}{figures}{events}</div>
</main>"""
    elif role == "player":
        side = _player_panel(room)
        body = f"""<header class="room-head">{h1}{status}{toggle}</header>
{message}
<main id="main" class="columns room">
<div class="left keep" tabindex="0" role="region" aria-label="the table and its units">{board}{debrief}</div>
<div class="right" id="side">{odds}{side}{tables}{figures}{events}</div>
</main>"""
    else:
        # one screen, as the host's and a player's (main.room): the table, and beside it (below a long one)
        # the debrief (at the end: the news first), who is winning, the count and the news; the room code
        # stays in sight in the header
        body = f"""<header class="projector-head"><h1><span class="head-title">{title},</span>{game}
<span class="head-code">room <span class="code">{code}</span></span></h1>{status}
<button type="button" id="join-toggle" aria-controls="join-info" aria-expanded="true"
 aria-keyshortcuts="J">Hide how to join (J)</button></header>
{message}
<main id="main" class="columns projector room">
{_join_info(room.code, join_base)}
<div class="left">{board}</div>
<div class="right">{debrief}{odds_line}{figures}{events}{tables}</div>
</main>"""
    return _page(f"{room.ruleset.title} - {heading} - {room.code}", body, role, room.code)


def _room_parts(code: str) -> dict[str, str]:
    """The parts every room page is made of: the status line, the table, its text tables, the side panel's
    toggle, the news, the count, who is winning (and its line, for the projector), the debrief, the message."""
    status = """<div class="status" role="status" aria-live="polite">
<span id="turn">Connecting...</span> <span id="phase"></span> <span id="state"></span> <span id="clock"></span>
<div id="waiting" class="waiting"></div>
</div>"""
    board = """<section class="board" aria-labelledby="board-h">
<h2 id="board-h">The table</h2>
<div id="svg" class="svg"></div>
</section>"""
    tables = """<section class="tables" aria-label="The table as text"><div id="tables"></div></section>"""
    # the side panel folds away (a button in the header): the table takes the page's whole width
    toggle = """<button type="button" id="side-toggle" class="side-toggle" aria-controls="side" aria-expanded="true">
Hide the side panel</button>"""
    events = """<section aria-labelledby="events-h" class="events">
<h2 id="events-h">What just happened</h2>
<ol id="events" reversed tabindex="0" aria-labelledby="events-h"></ol>
</section>"""
    figures = """<section aria-labelledby="figures-h">
<h2 id="figures-h">The count</h2>
<dl id="figures" class="figures"></dl>
</section>"""
    odds = """<section id="odds" hidden aria-labelledby="odds-h" class="odds">
<h2 id="odds-h">Who is winning?</h2>
<div id="odds-labels" class="odds-labels"></div>
<div id="odds-bar"></div>
<p id="odds-note" class="odds-note"></p>
</section>"""
    odds_line = odds.replace('<p id="odds-note"', '<div id="odds-line"></div>\n<p id="odds-note"')
    debrief = f"""<section id="debrief" hidden aria-labelledby="debrief-h">
<h2 id="debrief-h">Debrief</h2>
<p id="result"></p>
<table><caption>The game in figures</caption><tbody id="summary"></tbody></table>
<p><a id="replay-link" href="/replay/{code}">Watch the replay</a>: step through the game turn by turn,
every die shown</p>
<section id="coach" aria-labelledby="coach-h" aria-live="polite"><h3 id="coach-h">The coach</h3>
<div id="coach-body"></div></section>
<div id="debrief-extra"></div>
</section>"""
    message = '<div id="message" role="alert" class="message"></div>'
    return dict(
        status=status,
        board=board,
        tables=tables,
        toggle=toggle,
        events=events,
        figures=figures,
        odds=odds,
        odds_line=odds_line,
        debrief=debrief,
        message=message,
    )


def _host_panel(code: str) -> str:
    """The host page's side panel: the referee's roll, the room and its join links, the game's controls and
    settings, the seats and the players."""
    # referee mode: the roll asked for comes first, where the referee's eyes are all game
    return f"""<section id="dice-panel" hidden aria-labelledby="dice-h">
<h2 id="dice-h">Referee: roll the dice</h2>
<p id="dice-purpose"></p>
<form id="dice-form">
<p><label for="dice-values" id="dice-label">Dice</label>
<input id="dice-values" name="values" autocomplete="off" inputmode="numeric"></p>
<p id="dice-problem" class="problem"></p>
<p><button type="submit">Enter the roll</button></p>
</form>
</section>
<section aria-labelledby="room-h">
<h2 id="room-h">Room {code}</h2>
<p>Players join at <strong id="join-url"></strong> with the room code <strong class="code">{code}</strong>.</p>
<img id="qr" src="/qr/{code}.svg" alt="QR code of the join address for room {code}" width="160" height="160">
<p id="lock-note" class="problem"></p>
<p><a id="projector-link" href="/projector/{code}" target="_blank">Open the projector page</a></p>
</section>
<section aria-labelledby="control-h">
<h2 id="control-h">The game</h2>
<p class="buttons"><button type="button" id="start" aria-describedby="start-why">Start</button>
<span id="start-why" class="why"></span></p>
<p class="buttons">
<button type="button" id="pause">Pause</button>
<button type="button" id="undo"
title="Take back works until a die is rolled or a secret revealed: an action whose dice were rolled stands."
>Take back the last action</button>
<button type="button" id="lock" aria-pressed="false">Lock the room (no new players)</button>
<button type="button" id="end">End the game</button>
<button type="button" id="delete">Delete the game</button>
<a id="record" hidden>Download the record</a>
<a id="reports" hidden title="a PDF page a player and the class CSV, in one zip">Download the after-action reports</a>
</p>
<p id="reports-note" class="hint" role="status"></p>
<form id="settings">
<p><input type="checkbox" id="fill-bots" name="fill_bots">
<label for="fill-bots">bots play the empty seats</label></p>
<p><label for="timer">phase timer, seconds (0: none)</label>
<input id="timer" name="timer" type="number" min="0" max="3600" inputmode="numeric"></p>
<p><label for="on-timeout">when time runs out</label>
<select id="on-timeout" name="on_timeout"><option value="bot">a bot decides</option>
<option value="hold">hold (do nothing)</option></select></p>
<div id="bot-names"></div>
<p><label for="odds-shown">who is winning (the bots' estimate) is shown</label>
<select id="odds-shown" name="odds_shown"><option value="off">to nobody</option>
<option value="projector">on the projector and this page only</option>
<option value="everyone">to everyone, pupils too</option></select>
<label for="odds-from">from turn</label>
<input id="odds-from" name="odds_from" type="number" min="0" max="99" inputmode="numeric"></p>
<p><label for="retention">keep this game and its record for (days, then deleted)</label>
<input id="retention" name="retention_days" type="number" min="1" inputmode="numeric"></p>
<p><button type="submit">Save settings</button></p>
</form>
<p><button type="button" id="dice-mode">Referee mode: type the table's dice</button></p>
<p id="expires" class="hint"></p>
</section>
<section aria-labelledby="seats-h">
<h2 id="seats-h">Seats</h2>
<table class="seats"><caption>Who plays each seat</caption>
<thead><tr><th scope="col">seat</th><th scope="col">side</th>
<th scope="col" id="seat-commands" hidden>commands</th><th scope="col">player</th>
<th scope="col">bot</th><th scope="col">now</th></tr></thead><tbody id="seat-rows"></tbody></table>
</section>
<section aria-labelledby="players-h">
<h2 id="players-h">Players</h2>
<p class="buttons"><button type="button" id="select-unseated">Tick the players without a seat</button>
<button type="button" id="remove-chosen" disabled>Remove the ticked players</button></p>
<table><caption>Players who joined</caption>
<thead><tr><th scope="col">tick</th><th scope="col">name</th><th scope="col">seats</th><th scope="col">online</th>
<th scope="col">rename</th><th scope="col">remove</th></tr></thead><tbody id="player-rows"></tbody></table>
</section>"""


def _player_panel(room: Any) -> str:
    """A player's side panel: joining (a page opened without a token), who you are, your orders."""
    sides = "".join(f'<option value="{escape(x)}">{escape(x)}</option>' for x in room.ruleset.sides)
    return (
        """<section id="join-panel" hidden aria-labelledby="pjoin-h">
<h2 id="pjoin-h">Join this game</h2>
<form id="player-join">
<p><label for="pname">Your name (first name or a nickname)</label>
<input id="pname" name="name" autocomplete="off" maxlength="32" required></p>
<p><label for="pside">Side</label>
<select id="pside" name="side"><option value="">any free seat</option>"""
        + sides
        + """</select></p>
<p><button type="submit">Join</button></p>
</form>
</section>
<section id="you-panel" aria-labelledby="you-h">
<h2 id="you-h">You</h2>
<p id="you"></p>
</section>
<section aria-labelledby="orders-h">
<h2 id="orders-h">Your orders</h2>
<p id="idle">Connecting...</p>
<div id="decisions"></div>
<div id="preview" class="preview" aria-live="polite"></div>
</section>"""
    )


def _join_info(code: str, base: str) -> str:
    """The projector's "how to join": the address, the room code and the QR code, for the back row."""
    base = base.rstrip("/")
    url = f"{base}/play/{code}"
    local = urlsplit(base).hostname in ("127.0.0.1", "localhost", "::1")
    hint = (
        '<p class="join-hint">This address works on this computer only: start the server with '
        '<code class="nowrap">grognard serve --lan</code> for the class to join.</p>'
        if local
        else ""
    )
    spelled = " ".join(code)
    return f"""<section id="join-info" class="join-info" aria-labelledby="join-info-h">
<div class="join-words">
<h2 id="join-info-h">Join the game</h2>
<p>Scan the code, or open</p>
<p class="join-url"><strong id="join-address">{escape(base)}<wbr>/play/<wbr>{escape(code)}</strong></p>
<p>or open <strong>{escape(base)}</strong> and type the room code</p>
<p class="room-code" aria-label="room code {escape(spelled)}">{escape(code)}</p>
{hint}
</div>
<img class="join-qr" src="/qr/{escape(code)}.svg" alt="QR code of {escape(url)}" width="400" height="400">
</section>"""


def qr_svg(text: str) -> str:
    """A QR code of ``text`` as an SVG document."""
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    out = io.BytesIO()
    image.save(out)
    return out.getvalue().decode()


def qr_text(text: str) -> str:
    """A QR code of ``text`` for the terminal (half-height block characters)."""
    import qrcode

    qr = qrcode.QRCode(border=2)
    qr.add_data(text)
    qr.make(fit=True)
    out = io.StringIO()
    qr.print_ascii(out=out, invert=True)
    return out.getvalue()


def replay_page(title: str, subject: str, api: str) -> str:
    """The replay viewer of ``subject`` ("replay of room AB12CD") in rule set ``title`` (filled in by
    ``static/replay.js`` from ``api``: the outline, then one step at a time). One screen, as a room's
    pages (main.room): the table, and the controls, the event and the count beside it (below a long one)."""
    title = title.split(" (")[0]  # the rule set's short title, not its list of parts cut off before the game's name
    body = f"""<header class="replay-head"><h1><span class="head-title">{escape(title)}:</span>
<span class="head-code">{escape(subject)}</span></h1>
<div class="status" role="status" aria-live="polite"><span id="turn">Reading the record...</span>
<span id="phase"></span> <span id="where"></span></div>
</header>
<div id="message" role="alert" class="message"></div>
<main id="main" class="columns replay room" data-api="{escape(api)}">
<div class="left">
<section class="board" aria-labelledby="board-h">
<h2 id="board-h">The table</h2>
<div id="svg" class="svg"></div>
</section>
</div>
<div class="right">
<section class="replay-controls" aria-labelledby="steps-h">
<h2 id="steps-h">Step through the game</h2>
<p class="buttons">
<button type="button" id="first" aria-keyshortcuts="Home">|&#x25C0; First</button>
<button type="button" id="prev-turn" aria-keyshortcuts="PageUp">&#x25C0;&#x25C0; Previous turn</button>
<button type="button" id="prev" aria-keyshortcuts="ArrowLeft">&#x25C0; Previous event</button>
<button type="button" id="next" aria-keyshortcuts="ArrowRight">Next event &#x25B6;</button>
<button type="button" id="next-turn" aria-keyshortcuts="PageDown">Next turn &#x25B6;&#x25B6;</button>
<button type="button" id="last" aria-keyshortcuts="End">Last &#x25B6;|</button>
</p>
<p class="slider"><label for="turn-slider">Turn</label>
<input type="range" id="turn-slider" min="0" max="0" step="1" value="0">
<output id="turn-out" for="turn-slider"></output></p>
</section>
<section id="end" hidden aria-labelledby="end-h">
<h2 id="end-h">The end</h2>
<p id="result"></p>
</section>
<section aria-labelledby="step-h" class="events">
<h2 id="step-h">This event</h2>
<p id="order"></p>
<ol id="events" tabindex="0" aria-labelledby="step-h"></ol>
</section>
<section aria-labelledby="figures-h">
<h2 id="figures-h">The count</h2>
<dl id="figures" class="figures"></dl>
<p class="hint">Keys: &larr; &rarr; an event back or on, Page Up and Page Down (or Shift and an arrow) a turn,
Home and End the first and the last. An event is an order and what it caused.</p>
</section>
<section class="tables" aria-label="The table as text"><div id="tables"></div></section>
<p class="home-link"><a href="/">Back to the home page</a></p>
</div>
</main>"""
    return _page(f"{title}: {subject}", body, "replay", scripts=("table",), module="replay")
