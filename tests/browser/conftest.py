"""Browser tests: the pages in Debian's Chromium, driven by Playwright, on a live server.

The server runs the app in a thread on a fresh SQLite file (built by the migrations), for
the whole session; each test gets a fresh phone-sized browser context, so a fresh browser key.
A test fails if its page logs a console error, throws, or a request fails or answers 5xx.

Without Playwright, or without Chromium at ``$CHROMIUM`` (default ``/usr/bin/chromium``),
the tests are skipped; with ``CI`` set, a missing Chromium fails them instead.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from werkzeug.serving import WSGIRequestHandler, make_server

from scorekeeper.extensions import db

from ..conftest import RAISED_LIMITS, migrated_sqlite_app

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ConsoleMessage, Page, Request, Response

HERE = Path(__file__).parent
DEFAULT_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives the pages in Chromium (tests/browser)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test of this folder (the hook sees the whole session's items)."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.browser)


# -- The live server -----------------------------------------------------------------------


class _QuietHandler(WSGIRequestHandler):
    """No access log line per request."""

    def log_request(self, *args: Any, **kwargs: Any) -> None:
        pass


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app served on 127.0.0.1 on a free port, on its own migrated SQLite file."""
    tmp = tmp_path_factory.mktemp("browser")
    # The spectator page's stream ends every 4 s (not 10 minutes), so that every test that
    # follows a game also goes through its reconnections.
    app = migrated_sqlite_app(tmp, "browser", LIVE_STREAM_SECONDS=4, **RAISED_LIMITS)
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=_QuietHandler)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()
        with app.app_context():
            db.engine.dispose()


# -- The browser ---------------------------------------------------------------------------


def _chromium_path() -> str:
    path = os.environ.get("CHROMIUM", DEFAULT_CHROMIUM)
    if not os.path.isfile(path):
        if os.environ.get("CI"):
            pytest.fail(
                f"the browser tests need Chromium, and there is none at {path}: "
                "install Debian's (apt-get install chromium) or set CHROMIUM"
            )
        pytest.skip(
            "browser tests need Debian's Chromium at /usr/bin/chromium "
            "(apt-get install chromium); set CHROMIUM to another path"
        )
    return path


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the session."""
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = _chromium_path()
    playwright = sync_api.sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
    finally:
        playwright.stop()


@dataclass
class Problems:
    """What went wrong in a page: console errors, uncaught errors, failed requests, 5xx.

    A test that provokes a refusal on purpose allows its console line with :meth:`allow`.
    """

    seen: list[str] = field(default_factory=list)
    allowed: list[re.Pattern[str]] = field(default_factory=list)

    def allow(self, pattern: str) -> None:
        """Expect problems matching ``pattern`` (a regular expression)."""
        self.allowed.append(re.compile(pattern))

    def unexpected(self) -> list[str]:
        """The problems no :meth:`allow` expected."""
        return [
            problem
            for problem in self.seen
            if not any(pattern.search(problem) for pattern in self.allowed)
        ]


@pytest.fixture
def problems() -> Problems:
    """The current test page's problems (ask for it to :meth:`Problems.allow` some)."""
    return Problems()


def _watch(page: Page, problems: Problems) -> None:
    """Record the page's console errors, uncaught errors, failed requests and 5xx answers."""

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            problems.seen.append(f"console error: {message.text} ({message.location})")

    def on_page_error(error: Exception) -> None:
        problems.seen.append(f"uncaught error: {error}")

    def on_request_failed(request: Request) -> None:
        # The browser drops a tab icon's download when the page moves on before it is in,
        # and the spectator page's stream when it is left.
        aborted = request.failure == "net::ERR_ABORTED"
        if aborted and ("/static/icons/" in request.url or "/view/events" in request.url):
            return
        problems.seen.append(
            f"request failed: {request.method} {request.url}: {request.failure or ''}"
        )

    def on_response(response: Response) -> None:
        if response.status >= 500:
            problems.seen.append(
                f"server error: {response.status} for {response.request.method} {response.url}"
            )

    page.on("console", on_console)
    page.on("pageerror", on_page_error)
    page.on("requestfailed", on_request_failed)
    page.on("response", on_response)


@contextmanager
def _phone(browser: Browser, problems: Problems) -> Iterator[Page]:
    """A fresh phone-sized page (390×844, touch) in a context of its own, watched."""
    context = browser.new_context(**PHONE)
    context.set_default_timeout(10_000)
    page = context.new_page()
    _watch(page, problems)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def page(browser: Browser, problems: Problems) -> Iterator[Page]:
    """A fresh phone-sized page (390×844, touch) in a fresh context, checked for problems."""
    with _phone(browser, problems) as page:
        yield page
        found = problems.unexpected()
    assert not found, "the page had problems:\n" + "\n".join(found)


@pytest.fixture
def other_page(browser: Browser, problems: Problems) -> Iterator[Page]:
    """Another phone at the table: a page in a context (so a browser key) of its own, watched
    like :func:`page` (whose check, at its end, covers both)."""
    with _phone(browser, problems) as page:
        yield page
