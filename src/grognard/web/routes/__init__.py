"""The server's routes, one ``APIRouter`` per area: ``rooms`` (the games' API), ``pages`` (the HTML pages),
``replays`` (the replay viewer) and ``play`` (the WebSocket a page plays through)."""
