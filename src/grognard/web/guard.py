"""What keeps one client from spoiling a game for a class: rate limits and the request body limit.

- ``Bucket`` and ``Limits``: token buckets, by key (an address, or an address and a browser id).
- ``Guard``: an ASGI middleware that counts the bytes of every HTTP request body as they are
  read (``Content-Length`` or ``Transfer-Encoding: chunked`` alike) and answers 413 at the first
  byte past ``MAX_BODY``, keeping none of it; it puts the security headers on every answer.

- ``CodeGate``: an ASGI middleware that limits how many *different* room codes one address (and,
  on a join, one browser) may try, on every route that names a code (pages, the API, the QR code,
  the WebSocket), so nobody can find a game by trying codes.

A classroom shares one public address behind its router, so what is limited by address is
generous enough for a class of 28 joining at once (they wait a few seconds, their pages retry by
themselves), and the limit on room codes is kept by address *and* browser id: one pupil's typos
lock out that pupil's browser, not the class (a looser ceiling by address stays behind it). A code
already tried from an address is never refused there again (a refusal would tell nothing new), so
a class's own room stays open to it even while someone on its network tries codes by the thousand.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections import OrderedDict
from typing import Any

from grognard.web.messages import Refusal, RefusalCode
from grognard.web.protocol import MAX_BODY

Scope = dict[str, Any]
Message = dict[str, Any]


class Bucket:
    """A token bucket: ``rate`` a second, at most ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.when = time.monotonic()

    def _fill(self) -> None:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.when) * self.rate)
        self.when = now

    def take(self) -> bool:
        self._fill()
        if self.level >= 1:
            self.level -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until one more may be taken (0: now)."""
        self._fill()
        return max(0.0, (1 - self.level) / self.rate)


class Limits:
    """Buckets by key, forgotten when full again (past 10,000 keys)."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.buckets: dict[str, Bucket] = {}

    def _bucket(self, key: str) -> Bucket:
        if len(self.buckets) > 10000:
            self.buckets = {k: b for k, b in self.buckets.items() if b.level < b.burst - 1}
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = Bucket(self.rate, self.burst)
        return bucket

    def take(self, key: str) -> bool:
        return self._bucket(key).take()

    def wait(self, key: str) -> int:
        """Whole seconds (at least 1) until ``key`` may take again: the ``Retry-After`` of a refusal."""
        return max(1, math.ceil(self._bucket(key).wait()))


class BodyTooBig(Exception):
    """A request body went past ``MAX_BODY`` bytes while it was read."""


SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
CSP = (
    b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    b"connect-src 'self'; frame-ancestors 'none'"
)


DRAIN = 1024 * 1024  # bytes of a refused body read and dropped (at least; twice the route's limit if more)


class Guard:
    """ASGI middleware: an HTTP request body of more than ``limit`` bytes is answered 413 and not kept.

    ``wider`` gives a path its own larger limit (``/api/replays``: an uploaded game record).
    A ``Content-Length`` past the limit never reaches the route. Up to ``max(DRAIN, 2 * limit)`` it is
    read and dropped before the answer: a client still sending its body when the server closed would
    get a broken pipe or a reset, never the answer (a browser's upload of a file just too large, a
    slow machine); a longer one is refused before a byte is read. A chunked body (no length) is
    counted as it arrives, and the route reading it is stopped (``BodyTooBig``) at the first byte
    past the limit. The answer: ``{"type": "refused", "code": "too_big", "message": ...}``.
    Every HTTP answer gets ``nosniff``, ``no-referrer`` and a Content-Security-Policy (unless it has one).
    """

    def __init__(self, app: Any, limit: int = MAX_BODY, wider: dict[str, int] | None = None) -> None:
        self.app, self.limit = app, limit
        self.wider = dict(wider or {})  # a path's own larger limit (an uploaded game record)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.wider.get(scope.get("path", ""), self.limit)
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > limit):
                if value.isdigit() and int(value) <= max(DRAIN, 2 * limit):
                    await _drain(receive)
                await self._refuse(send, limit)
                return
        read = 0
        started = False

        async def counted() -> Message:
            nonlocal read
            message: Message = await receive()
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                if read > limit:
                    raise BodyTooBig(f"more than {limit} bytes")
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": _secured(list(message.get("headers", [])))}
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooBig:
            if started:
                raise
            await self._refuse(send, limit)

    async def _refuse(self, send: Any, limit: int) -> None:
        refused = Refusal(code=RefusalCode.TOO_BIG, message=f"a request body has at most {limit} bytes")
        body = json.dumps(refused.out()).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": _secured(
                    [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                        (b"connection", b"close"),
                    ]
                ),
            }
        )
        await send({"type": "http.response.body", "body": body})


async def _drain(receive: Any) -> None:
    """Read a request's body to its end (or the client's going), keeping none of it."""
    while True:
        message: Message = await receive()
        if message["type"] != "http.request" or not message.get("more_body", False):
            return


class Codes:
    """How many different room codes an address (and, when its page sends ``X-Grognard-Browser``, a
    browser) may try: ``by_address`` and ``by_browser`` are token buckets of *new* codes; a code tried
    already (one of the last ``SEEN`` of that address or browser) always goes through."""

    SEEN = 64

    def __init__(self, by_address: Limits, by_browser: Limits) -> None:
        self.by_address, self.by_browser = by_address, by_browser
        self.seen: OrderedDict[str, OrderedDict[str, None]] = OrderedDict()

    def allows(self, address: str, browser: str, code: str) -> bool:
        """May ``address`` (with ``browser``, or "") look up ``code``? Takes from the buckets if it is new."""
        keys = [address] + ([f"{address} {browser}"] if browser else [])
        if all(code in self.seen.get(key, ()) for key in keys):
            return True
        if browser and code not in self.seen.get(keys[1], ()) and not self.by_browser.take(keys[1]):
            return False
        if code not in self.seen.get(address, ()) and not self.by_address.take(address):
            return False
        for key in keys:
            self.note(key, code)
        return True

    def note(self, key: str, code: str) -> None:
        """``key`` (an address, or "address browser") knows ``code`` (it tried it, or made the game)."""
        codes = self.seen.pop(key, None) or OrderedDict()
        codes[code] = None
        while len(codes) > self.SEEN:
            codes.popitem(last=False)
        self.seen[key] = codes
        while len(self.seen) > 10000:
            self.seen.popitem(last=False)

    def wait(self, address: str, browser: str) -> int:
        return self.by_browser.wait(f"{address} {browser}") if browser else self.by_address.wait(address)


class CodeGate:
    """ASGI middleware: every route naming a room code (pages, the API, the QR code, the WebSocket)
    asks ``Codes`` first; a new code past an address's or a browser's limit is answered 429 (a
    WebSocket: refused at the handshake with 429) and the route never runs."""

    PATHS = re.compile(r"^/(?:host|play|projector|replay|ws|qr|api/rooms)/([^/]+?)(?:\.svg)?(?:/.*)?$")
    BROWSER = re.compile(r"^[A-Za-z0-9_-]{8,64}$")

    def __init__(self, app: Any, codes: Codes) -> None:
        self.app, self.codes = app, codes

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        found = self.PATHS.match(scope.get("path", "")) if scope["type"] in ("http", "websocket") else None
        if found is None or found.group(1) in ("", "rulesets"):
            await self.app(scope, receive, send)
            return
        address = scope["client"][0] if scope.get("client") else "?"
        browser = ""
        for name, value in scope.get("headers", ()):
            if name == b"x-grognard-browser":
                browser = value.decode("latin-1")
        browser = browser if self.BROWSER.match(browser) else ""
        if self.codes.allows(address, browser, found.group(1).upper()[:16]):
            await self.app(scope, receive, send)
            return
        wait = self.codes.wait(address, browser)
        why = "too many different room codes tried from here: wait a minute and check the code"
        body = json.dumps(Refusal(code=RefusalCode.RATE, message=why).out()).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"retry-after", str(wait).encode()),
        ]
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 429, "headers": _secured(headers)})
            await send({"type": "http.response.body", "body": body})
            return
        await receive()  # websocket.connect
        if "websocket.http.response" in scope.get("extensions", {}):
            await send({"type": "websocket.http.response.start", "status": 429, "headers": headers})
            await send({"type": "websocket.http.response.body", "body": body})
        else:
            await send({"type": "websocket.close", "code": 1008, "reason": "too many room codes tried"})


def _secured(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    names = {name.lower() for name, _ in headers}
    out = [h for h in headers if h[0].lower() not in (b"x-content-type-options", b"referrer-policy")]
    out += SECURITY_HEADERS
    if b"content-security-policy" not in names:
        out.append((b"content-security-policy", CSP))
    return out
