"""``grognard serve``: the web server on uvicorn."""

from __future__ import annotations

import socket
from pathlib import Path

from grognard.core.errors import OptionError
from grognard.web.odds import MAX_PLAYOUTS, PLAYOUTS
from grognard.web.protocol import MAX_BODY

WS_MAX_SIZE = MAX_BODY  # bytes of one WebSocket message (16 KiB, as an HTTP body); larger ones close the page (1009)
GRACE = 2  # seconds a stopping server gives open pages and requests before it closes them


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


DRIVERS = {  # a dialect's missing driver module: the package to install
    "psycopg": 'psycopg (pip install -e ".[postgres]")',
    "psycopg2": "psycopg2 (pip install psycopg2-binary)",
    "MySQLdb": "mysqlclient (pip install mysqlclient)",
    "pymysql": "PyMySQL (pip install pymysql)",
}


def check_database(url: str, flag: str = "--db") -> None:
    """Connect once to the database at ``url``; OptionError (one line naming ``flag``) if it cannot be used.

    Catches what SQLAlchemy raises for a string that is not a URL, a database kind it does not know, a
    driver that is not installed, and a database that cannot be opened (an SQLite file in a missing
    folder or a file that is not a database, a server that refuses the connection); SQLite in memory is
    refused (it would keep no game).
    """
    from sqlalchemy import create_engine, inspect, make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    try:
        shown = f"{flag} {make_url(url).render_as_string(hide_password=True)!r}"  # never echo a password
    except ArgumentError:
        shown = f"{flag} {url!r}"
    example = "e.g. sqlite:///games.sqlite3 or postgresql+psycopg://user@host/db"
    try:
        engine = create_engine(url)
    except NoSuchModuleError:
        raise OptionError(f"{shown}: unknown kind of database {url.split(':')[0]!r} ({example})") from None
    except ArgumentError:
        raise OptionError(f"{shown}: not a database URL ({example})") from None
    except ImportError as exc:
        module = exc.name or str(exc)
        package = DRIVERS.get(module.split(".")[0], module)
        raise OptionError(f"{shown}: its database driver is not installed: {package}") from None
    if url.startswith("sqlite") and engine.url.database in (None, "", ":memory:"):
        engine.dispose()  # each of the server's connections would have an empty one of its own
        raise OptionError(f"{shown}: an SQLite database in memory keeps no game; name a file ({example})")
    if url.startswith("sqlite"):
        folder = Path(str(engine.url.database)).expanduser().resolve().parent
        if not folder.is_dir():
            engine.dispose()
            raise OptionError(f"{shown}: the folder {str(folder)!r} does not exist (make it first)")
    try:
        with engine.connect() as connection:
            inspect(connection).get_table_names()  # reads the file: one that is not a database is refused
    except ImportError as exc:  # some dialects import their driver only when they first connect
        module = exc.name or str(exc)
        package = DRIVERS.get(module.split(".")[0], module)
        raise OptionError(f"{shown}: its database driver is not installed: {package}") from None
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise OptionError(f"{shown}: cannot open the database: {reason}") from None
    finally:
        engine.dispose()


def check_port(host: str, port: int) -> None:
    """Refuse, in one line, an address this machine cannot listen on now (``OptionError``): a port another
    server holds, or a host that is not one of this machine's addresses."""
    import errno
    import socket

    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    except socket.gaierror as exc:
        raise OptionError(f"--host {host}: not an address of this machine ({exc.strerror})") from None
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn listens
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise OptionError(
                    f"--port {port}: another program is listening on it (another grognard serve?); choose another port"
                ) from None
            raise OptionError(f"--host {host} --port {port}: cannot listen there: {exc.strerror or exc}") from None


MAX_RETENTION = 3650.0  # days: ten years, the longest a server keeps a game


def check_retention(days: float) -> None:
    """``--retention DAYS``: more than 0 (a game is always deleted some day), at most ``MAX_RETENTION``."""
    if not 0 < days <= MAX_RETENTION:  # NaN fails too
        raise OptionError(
            f"--retention {days:g}: the days a game and its record are kept, more than 0 and at most {MAX_RETENTION:g}"
        )


def check_odds_playouts(playouts: int) -> None:
    """``--odds-playouts N``: 1 to ``MAX_PLAYOUTS`` (each a whole game played out, every seat, every turn)."""
    if not 1 <= playouts <= MAX_PLAYOUTS:
        raise OptionError(
            f"--odds-playouts {playouts}: the games played out for each estimate of who is winning, 1 to {MAX_PLAYOUTS}"
        )


def run(
    host: str,
    port: int,
    lan: bool,
    db: str | None,
    log_level: str = "info",
    retention: float = 30.0,
    odds_playouts: int = PLAYOUTS,
) -> None:
    """Serve until interrupted; with ``lan``, listen on every interface and print the join address and its QR code.
    Each game and its record are deleted ``retention`` days after it was made (a host may choose fewer); each
    estimate of who is winning plays ``odds_playouts`` games a seat (``OptionError`` outside 1 to
    ``MAX_PLAYOUTS``)."""
    import uvicorn

    from grognard.web.app import create_app
    from grognard.web.pages import qr_text
    from grognard.web.store import default_url

    if not 0 < port < 65536:
        raise OptionError(f"--port {port}: a port is 1 to 65535")
    check_retention(retention)
    check_odds_playouts(odds_playouts)
    url = db or default_url()
    check_database(url, "--db")
    join_url = None
    if lan:
        host = "0.0.0.0" if host == "127.0.0.1" else host
    check_port(host, port)
    if lan:
        join_url = f"http://{lan_address()}:{port}"
        print(f"Players join at {join_url} (room code on the host page)")
        print(qr_text(join_url))
    else:
        print(f"grognard serving at http://{host}:{port} (database {url.split('://')[0]})")
    print(f"games and their records are deleted {retention:g} days after they are made (--retention)")
    app = create_app(url, join_url=join_url, retention=retention, odds_playouts=odds_playouts)
    # a stop (Ctrl-C, SIGTERM) closes the pages still open after a short grace, never waits on them for ever
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=WS_MAX_SIZE,
        log_level=log_level,
        access_log=False,
        timeout_graceful_shutdown=GRACE,
    )
