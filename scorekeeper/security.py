"""Security headers (HSTS over HTTPS only), the session cookie behind HTTPS, the reverse
proxy, and rate limits put on a view by name: ``@limited("RATELIMIT_HAND_OVER")``."""

from __future__ import annotations

import io
import math
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from flask import Flask, current_app, request
from flask.sessions import SecureCookieSessionInterface
from flask_babel import gettext
from flask_limiter.util import get_remote_address
from limits import parse_many
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Response

from .config import PROXY_FIX_KEYS
from .errors import ImportLimitReached, ImportOverLimit
from .extensions import limiter
from .i18n import duration, wait_sentence
from .services.import_document import IMPORT_MAX_BYTES

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

#: The policy: everything from this origin only, nothing inline, no framing, no plugins.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; manifest-src 'self'; worker-src 'self'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'"
)

#: Sent on every response.
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}

#: Sent over HTTPS only: browsers remember for a year to come back over HTTPS alone.
STRICT_TRANSPORT_SECURITY = "max-age=31536000"


def init_app(app: Flask) -> None:
    """Headers on every response, the session cookie, the proxy, the rate limits."""
    app.after_request(add_headers)
    app.session_interface = SessionInterface()
    counts = {
        key.removeprefix("PROXY_FIX_").lower(): int(app.config[key]) for key in PROXY_FIX_KEYS
    }
    # A chunked body is measured before any view reads it (see ChunkedBodies).
    largest = max(int(app.config["MAX_CONTENT_LENGTH"]), IMPORT_MAX_BYTES)
    app.wsgi_app = ChunkedBodies(app.wsgi_app, largest)  # type: ignore[method-assign]
    if any(counts.values()):
        # Trust exactly as many proxies as configured: a client cannot forge its address
        # or scheme past them. Rate limits and HSTS then see the real client and scheme.
        app.wsgi_app = ProxyFix(app.wsgi_app, **counts)  # type: ignore[method-assign]
    # Every limit is on its view (``limited``), whose wrapper checks it; the app has no
    # default or application limits, so Flask-Limiter's own check before each request
    # counts nothing, and a limited view is counted once, by its wrapper.
    limiter.init_app(app)


class ChunkedBodies:
    """WSGI middleware that reads a chunked body (which has no ``Content-Length``) whole, up
    to one byte past ``limit``, and hands it on with its ``Content-Length``: the request's
    own limit then answers a body over it with 413, before a byte of it is used.

    Without it, werkzeug reads a chunked body only up to the limit and passes that on as the
    whole body, so a JSON body padded past the limit with garbage behind was applied."""

    def __init__(self, app: WSGIApplication, limit: int) -> None:
        self.app = app
        self.limit = limit

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if chunked:
            body = environ["wsgi.input"].read(self.limit + 1)
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            # No longer chunked for the app (werkzeug ignores a length beside "chunked").
            del environ["HTTP_TRANSFER_ENCODING"]
        return self.app(environ, start_response)


def add_headers(response: Response) -> Response:
    """The security headers; HSTS only when this request came over HTTPS."""
    headers = response.headers
    for name, value in HEADERS.items():
        headers.setdefault(name, value)
    if request.is_secure and "Strict-Transport-Security" not in headers:
        headers["Strict-Transport-Security"] = STRICT_TRANSPORT_SECURITY
    if response.status_code == 429 and "Retry-After" not in headers:
        headers["Retry-After"] = str(retry_after())
    return response


def retry_after() -> int:
    """Seconds until the limit this request broke lets the client in again."""
    current = limiter.current_limit
    if current is None:
        return 60
    reset = current.window[0]  # when the window ends, in seconds since the epoch
    return max(1, math.ceil(reset - time.time()))


def wait_message() -> str:
    """Over a rate limit: the sentence saying so, and how long to wait, as ``Retry-After``."""
    intro = gettext("Too many requests came from this address.")
    return f"{intro} {wait_sentence(retry_after())}"


class SessionInterface(SecureCookieSessionInterface):
    """The signed cookie session, Secure on HTTPS when ``SESSION_COOKIE_SECURE`` is "auto"."""

    def get_cookie_secure(self, app: Flask) -> bool:
        setting = app.config["SESSION_COOKIE_SECURE"]
        return (bool(request) and request.is_secure) if setting == "auto" else bool(setting)


F = TypeVar("F", bound=Callable[..., Any])

#: The scope starting a game counts in, on the page and in the API alike.
CREATE_GAME = "create-game"
#: The scope imported games count in, one per game.
IMPORT_GAMES = "import-games"


def limited(
    name: str,
    *,
    scope: str | None = None,
    methods: list[str] | None = None,
    when: Callable[[], bool] | None = None,
    spent: Callable[[Response], bool] | None = None,
) -> Callable[[F], F]:
    """Put the rate limit the configuration names ``name`` (e.g. ``"10 per minute"``) on a
    view, counted per client address; views given the same ``scope`` share one count.
    ``methods`` and ``when`` narrow the requests that count, ``spent`` the answers that do
    (all, unless told). Over the limit: 429."""

    return limiter.shared_limit(  # type: ignore[return-value]
        lambda: current_app.config[name],
        scope=scope or name.lower(),
        methods=methods,
        exempt_when=lambda: when is not None and not when(),
        deduct_when=spent,
    )


def succeeded(response: Response) -> bool:
    """Whether the request did what it asked (not refused): what some limits count."""
    return response.status_code < 400


def import_windows() -> list[tuple[int, int]]:
    """The games an address may import, each with its window in seconds (none when the rate
    limits are off): ``[(2000, 86400)]``."""
    if not current_app.config["RATELIMIT_ENABLED"]:
        return []
    return [
        (item.amount, item.get_expiry())
        for item in parse_many(current_app.config["RATELIMIT_IMPORT_GAMES"])
    ]


def spend_import(games: int) -> None:
    """Count an import of ``games`` games against ``RATELIMIT_IMPORT_GAMES`` for the client
    address: each game costs one. Raise :class:`ImportLimitReached` (nothing counted) when
    it would go past a limit, with the seconds until that limit's window lets it in, or
    :class:`ImportOverLimit` when no window could hold the file."""
    if not current_app.config["RATELIMIT_ENABLED"]:
        return
    strategy = limiter.limiter
    key = get_remote_address()
    limits = parse_many(current_app.config["RATELIMIT_IMPORT_GAMES"])
    for item in limits:
        if games > item.amount:
            window = duration(item.get_expiry())
            raise ImportOverLimit(games=games, count=item.amount, window=window)
    try:
        over = [item for item in limits if not strategy.test(item, key, IMPORT_GAMES, cost=games)]
        if not over:
            for item in limits:
                strategy.hit(item, key, IMPORT_GAMES, cost=games)
            return
        reset = strategy.get_window_stats(over[0], key, IMPORT_GAMES).reset_time
    except Exception:  # the storage, as Flask-Limiter's own checks (RATELIMIT_SWALLOW_ERRORS)
        if current_app.config["RATELIMIT_SWALLOW_ERRORS"]:
            return
        raise
    raise ImportLimitReached(
        count=over[0].amount,
        window=duration(over[0].get_expiry()),
        seconds=max(1, math.ceil(reset - time.time())),
    )
