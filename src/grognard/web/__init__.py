"""Play in the browser: the server (FastAPI, WebSocket), its database, its pages.

``grognard serve`` starts it (``serve.run``); ``app.create_app`` makes the application.

- ``store``: rooms and the lines of their game records (SQLAlchemy; SQLite in WAL mode by default).
  A game is stored as its record, one row a line, each committed before anyone is told.
- ``room``: one game, its players and seats, and the one actor (an asyncio task) that applies
  every change in order; bots choose on worker threads; referee mode asks the host for each roll.
- ``app``: HTTP (make a game, join, the record after the end, delete, the debrief) and the
  WebSocket ``/ws/{code}``: the first message is ``hello`` (role ``host``, ``player`` or
  ``projector``, with the host's or the player's token), then ``act``/``preview`` (players),
  ``start``, ``pause``, ``assign``, ``bot``, ``rename``, ``remove``, ``remove_many``, ``lock``,
  ``settings``, ``undo``, ``end``, ``dice``, ``dice_mode`` (host), ``ping``. The server answers ``ack`` or ``refused``
  (a code from a fixed list and a message: ``undo`` is refused ``stands`` once the last action rolled a die or
  revealed a secret, ``core.takeback``), sends ``events`` (a record step's events the page
  may see) at once and ``state`` (everything the page shows) at most five times a second.
  A ``preview`` is answered with ``preview``: legal or the problem (naming the rule), the note and
  the exact odds, and, for a rule set with a ``preview`` hook, ``svg``: the picture with the
  order drawn in (its path, where it ends, the 4" rings of the guns it meets). Nothing changes.
- ``protocol``: every message as a pydantic model (type, size, range).
- ``guard``: rate limits (token buckets by address, or address and browser id) and the request body
  limit counted on the bytes read.
- ``faces``: what the pages show through the Ruleset record and its face (``Ruleset.face``: controls, tables,
  the scene); this package names no rule set.
- ``pages`` and ``static/``: server-made HTML shells, one small script and one style sheet.
- ``debrief``: the analysis code's plots of bot games with a finished game's options.
- ``testing``: a real server process for the tests and the load bench.
"""
