"""Racing phones: pairs of writes based on the same version of one game, sent at once.

Each pair is two threads, each with its own client, released together by a barrier, each
sending a different write that names the same version: through the API (``If-Match``) and
through the round screen's form (its hidden ``version``, the same browser in two tabs).
Exactly one may win; the other must be told (412, "another phone changed this game").
After each pair the game is read back: a write that was acknowledged but is not there, or
two acknowledged writes, is a *silent overwrite*, and there must be none.

``python -m bench.racing`` runs 1,000 pairs per path on SQLite and on PostgreSQL (when
``BENCH_DATABASE_URL`` or ``TEST_DATABASE_URL`` names one);
``tests/services/test_racing.py`` runs 100 of the same races (``tests/racing.py``).
"""

from __future__ import annotations

import sys

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.racing import Counts, race_api, race_forms

from .databases import BACKENDS, Unavailable, database

PAIRS = 1000  # python -m bench.racing
QUICK_PAIRS = 200  # make bench


# -- The benchmark -------------------------------------------------------------------------


def race_on(url: str, pairs: int) -> tuple[Counts, Counts]:
    """Both races on the database at ``url``."""
    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False}
    )
    try:
        return race_api(app, pairs), race_forms(app, pairs)
    finally:
        with app.app_context():
            db.engine.dispose()


def run(pairs: int = QUICK_PAIRS) -> list[tuple[str, str]]:
    """``pairs`` racing pairs per path and backend, as rows."""
    rows = []
    for backend in BACKENDS:
        try:
            with database(backend) as url:
                api, forms = race_on(url, pairs)
        except Unavailable as reason:
            rows.append((f"racing pairs ({backend})", f"skipped: {reason}"))
            continue
        rows.append(api.row(f"racing pairs, API ({backend})"))
        rows.append(forms.row(f"racing pairs, HTML forms ({backend})"))
    return rows


def main() -> int:
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else PAIRS
    for what, figure in run(pairs):
        print(f"{what}: {figure}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
