"""``grognard serve``: the web server on uvicorn."""

from __future__ import annotations

import socket

from grognard.core.errors import OptionError
from grognard.web.protocol import MAX_BODY

WS_MAX_SIZE = MAX_BODY  # bytes of one WebSocket message (16 KiB, as an HTTP body); larger ones close the page (1009)


def lan_address() -> str:
    """This machine's address on its network (no packet is sent: a UDP socket only picks a route)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address = str(probe.getsockname()[0])
    except OSError:
        address = "127.0.0.1"
    finally:
        probe.close()
    return address


def run(host: str, port: int, lan: bool, db: str | None, log_level: str = "info") -> None:
    """Serve until interrupted; with ``lan``, listen on every interface and print the join address and its QR code."""
    import uvicorn

    from grognard.web.app import create_app
    from grognard.web.pages import qr_text
    from grognard.web.store import default_url

    if not 0 < port < 65536:
        raise OptionError(f"--port {port}: a port is 1 to 65535")
    url = db or default_url()
    join_url = None
    if lan:
        host = "0.0.0.0" if host == "127.0.0.1" else host
        join_url = f"http://{lan_address()}:{port}"
        print(f"Players join at {join_url} (room code on the host page)")
        print(qr_text(join_url))
    else:
        print(f"grognard serving at http://{host}:{port} (database {url.split('://')[0]})")
    app = create_app(url, join_url=join_url)
    uvicorn.run(app, host=host, port=port, ws_max_size=WS_MAX_SIZE, log_level=log_level, access_log=False)
