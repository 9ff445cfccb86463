"""Play in the browser: the server (FastAPI, WebSocket), its database, its pages.

``grognard serve`` starts it. Games are stored as their records (one row per
record line); a restart replays every record. See ``app.create_app``.
"""
