"""Chromium contexts and pages kept warm across a worker's browser tests.

What a browser test costs is mostly Chromium starting a renderer process for each new context and page: about
1 CPU-second for a context and a page showing a game's table, against 0.35 for the same page shown in a context
and page kept from an earlier test (measured with the Chromium processes in a cgroup of their own: issue 28,
item 17). So the ``browser`` fixture a test gets is a ``PagePool``'s lender, not the Chromium itself:
``new_context(**options)`` hands out a context with those options, ``new_page()`` on it a page, both kept from an
earlier test where one is free, and nothing of that test's reaches the next:

- a context closed by the test (or still open at its end) goes back with every init script it was given
  (``add_init_script`` on the context or a page) disposed of, every listener it was given (``on``, ``once``)
  removed, its cookies cleared, each page's local and session storage cleared, the page left on ``about:blank``
  (its sockets closed) with no button or key held and its pointer at the corner, and its default timeouts unset
  (Playwright's 30 s);
- a page's viewport is set to the one the test's ``new_context`` asked for each time it is handed out;
- a context is kept only for options it was made with (touch, ``bypass_csp``: what a context cannot change);
- a context or page that fails its clean-up (a crashed page, a test that closed it) is closed, not kept.

A page the test closes is closed for real (a test may close one to see its seat leave).
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page

DEFAULT_VIEWPORT = {"width": 1280, "height": 720}  # Playwright's own, for a context asked for with none


class PooledPage(Page):
    """A page of a ``PooledContext``: its init scripts and listeners are the context's to undo."""

    _pooled: PooledContext

    def add_init_script(self, script: str | None = None, path: Any = None) -> Any:
        handle = super().add_init_script(script=script, path=path)
        self._pooled._undo.append(handle.close)
        return handle

    def on(self, event: Any, f: Any) -> None:  # type: ignore[override]
        super().on(event, f)
        self._pooled._undo.append(lambda: self.remove_listener(event, f))

    def once(self, event: Any, f: Any) -> None:  # type: ignore[override]
        super().once(event, f)
        self._pooled._undo.append(lambda: self.remove_listener(event, f))


class PooledContext(BrowserContext):
    """A context lent by a ``PagePool``: ``close`` gives it back, clean, and ``new_page`` hands out a kept page."""

    _pool: PagePool
    _key: str
    _viewport: dict[str, int]
    _parked: list[PooledPage]
    _undo: list[Any]
    _lent: bool

    def new_page(self) -> Page:  # type: ignore[override]
        page = self._parked.pop() if self._parked else _adopt_page(super().new_page(), self)
        if page.viewport_size != self._viewport:
            page.set_viewport_size(self._viewport)  # type: ignore[arg-type]
        return page

    def add_init_script(self, script: str | None = None, path: Any = None) -> Any:
        handle = super().add_init_script(script=script, path=path)
        self._undo.append(handle.close)
        return handle

    def on(self, event: Any, f: Any) -> None:  # type: ignore[override]
        super().on(event, f)
        self._undo.append(lambda: self.remove_listener(event, f))

    def once(self, event: Any, f: Any) -> None:  # type: ignore[override]
        super().once(event, f)
        self._undo.append(lambda: self.remove_listener(event, f))

    def close(self, reason: str | None = None) -> None:
        self._pool.give(self)


def _adopt_page(page: Page, context: PooledContext) -> PooledPage:
    page.__class__ = PooledPage
    pooled: PooledPage = page  # type: ignore[assignment]
    pooled._pooled = context
    return pooled


class PagePool:
    """The worker's kept contexts, by the options they were made with (``browser``: the worker's Chromium)."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.free: dict[str, list[PooledContext]] = {}
        self.lent: list[PooledContext] = []

    def new_context(self, **options: Any) -> BrowserContext:
        viewport = dict(options.pop("viewport", None) or DEFAULT_VIEWPORT)
        key = repr(sorted(options.items()))
        free = self.free.get(key)
        if free:
            context = free.pop()
        else:
            context = self.browser.new_context(viewport=viewport, **options)  # type: ignore[assignment]
            context.__class__ = PooledContext
            context._pool, context._key, context._parked = self, key, []
        context._viewport, context._undo, context._lent = viewport, [], True
        self.lent.append(context)
        return context

    def give(self, context: PooledContext) -> None:
        """Takes ``context`` back, clean, to be lent again; closes it instead if it cannot be cleaned."""
        if not context._lent:
            return
        context._lent = False
        self.lent.remove(context)
        try:
            _unset_timeouts(context)  # first: a test's 1 ms would fail the clean-up
            for undo in reversed(context._undo):
                _quietly(undo)  # a closed page's init script or listener went with it
            context._undo = []
            parked = [_park(page) for page in context.pages]
            context.clear_cookies()
        except Exception:  # a crashed page or a context the test broke: not worth keeping
            BrowserContext.close(context)
            return
        context._parked = [page for page in parked if page is not None]
        self.free.setdefault(context._key, []).append(context)

    def give_back_all(self) -> None:
        """Takes back every context still lent (a test's end: what it left open)."""
        for context in list(self.lent):
            self.give(context)

    def close(self) -> None:
        self.give_back_all()
        for kept in self.free.values():
            for context in kept:
                BrowserContext.close(context)
        self.free.clear()


def _unset_timeouts(target: Page | BrowserContext) -> None:
    """Back to Playwright's own defaults (30 s; a page's from its context's), as when ``target`` was new."""
    target.set_default_timeout(None)  # type: ignore[arg-type]
    target.set_default_navigation_timeout(None)  # type: ignore[arg-type]


def _quietly(undo: Any) -> None:
    try:
        undo()
    except Exception:
        pass


def _park(page: Page) -> PooledPage | None:
    """``page`` cleaned and left on about:blank, or None when it is not worth keeping (closed, or not ours)."""
    if page.is_closed():
        return None
    if not isinstance(page, PooledPage):  # opened by the page itself (a pop-up): close it
        page.close()
        return None
    _unset_timeouts(page)
    if page.url.startswith("http"):
        page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    page.goto("about:blank")
    page.mouse.up()  # no button or key a test left held (one that failed mid-drag) is held for the next
    for key in ("Shift", "Control", "Alt", "Meta"):
        page.keyboard.up(key)
    page.mouse.move(0, 0)  # where a new page's pointer is: not over what the last test tapped
    return page


class Lender:
    """What a browser test gets as ``browser``: ``new_context`` and ``new_page`` from the pool, all else from the
    worker's Chromium (``version``); every context it lent is taken back at the test's end."""

    def __init__(self, pool: PagePool) -> None:
        self.pool = pool

    def new_context(self, **options: Any) -> BrowserContext:
        return self.pool.new_context(**options)

    def new_page(self, **options: Any) -> Page:
        return self.pool.new_context(**options).new_page()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pool.browser, name)
