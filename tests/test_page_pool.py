"""The browser tests' kept contexts and pages (``page_pool``): what one test did to a context does not reach the
next test lent it, in a real Chromium, on a page served over HTTP (storage needs an origin)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from browsers import needs_chromium

pytestmark = needs_chromium
pytest.importorskip("playwright.sync_api")


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b"<!doctype html><title>kept</title><p>a page"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def test_a_kept_context_comes_back_clean_of_the_test_before(kept_pages: Any, site: str) -> None:
    from page_pool import Lender

    lender = Lender(kept_pages)
    first = lender.new_context(viewport={"width": 800, "height": 600}, bypass_csp=True)
    page = first.new_page()
    first.add_init_script("window.marked = 'context'")
    page.add_init_script("window.pageMarked = 'page'")
    heard: list[str] = []
    page.on("console", lambda message: heard.append(message.text))
    first.on("page", lambda p: heard.append("a page"))
    page.goto(site)
    page.evaluate("() => { localStorage.setItem('k', 'v'); sessionStorage.setItem('s', '1'); document.cookie = 'c=1' }")
    assert page.evaluate("() => [window.marked, window.pageMarked, localStorage.length]") == ["context", "page", 1]
    page.mouse.move(300, 200)
    first.set_default_timeout(1)
    first.close()
    assert page.url == "about:blank"  # given back: its page left on a blank, its sockets closed

    again = lender.new_context(viewport={"width": 1024, "height": 700}, bypass_csp=True)
    kept = again.new_page()
    assert again is first and kept is page  # the same context and page, not new ones
    assert kept.viewport_size == {"width": 1024, "height": 700}
    kept.goto(site)  # a short wait would time out here were the 1 ms default kept
    seen = kept.evaluate(
        "() => [window.marked ?? null, window.pageMarked ?? null, localStorage.length, sessionStorage.length, "
        "document.cookie]"
    )
    assert seen == [None, None, 0, 0, ""]
    kept.evaluate("() => console.log('after')")
    kept.wait_for_timeout(50)
    assert heard == []  # neither listener was kept
    lender.pool.give_back_all()


def test_a_context_is_lent_only_for_the_options_it_was_made_with(kept_pages: Any) -> None:
    from page_pool import Lender

    lender = Lender(kept_pages)
    plain = lender.new_context()
    plain.new_page()
    plain.close()
    touch = lender.new_context(has_touch=True)
    assert touch is not plain  # a context cannot take touch up or put it down
    assert touch.new_page().evaluate("() => navigator.maxTouchPoints") > 0
    touch.close()
    assert lender.new_context() is plain


def test_a_page_a_test_closed_is_not_lent_again(kept_pages: Any) -> None:
    from page_pool import Lender

    lender = Lender(kept_pages)
    context = lender.new_context(viewport={"width": 640, "height": 480})
    page = context.new_page()
    page.close()
    context.close()
    again = lender.new_context(viewport={"width": 640, "height": 480})
    fresh = again.new_page()
    assert again is context and fresh is not page and not fresh.is_closed()
    lender.pool.give_back_all()
