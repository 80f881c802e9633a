"""``make bench``: every benchmark module's rows in one table.

Each module in ``MODULES`` exposes ``run() -> list[tuple[str, str]]`` (what was measured,
the figure). Adding one is adding its name here; a module not (yet) in this checkout is
skipped with a note. The long runs have their own entry points: ``make load`` (the capacity
search, docs/performance.md), ``make crash`` (SIGKILL mid-load, repeated) and ``make racing``.
"""

from __future__ import annotations

import importlib
import sys
import time
import traceback

MODULES = [
    "page_weight",
    "queries",
    "stats",
    "racing",
    "load",
    "crash",
    "tap_wait",
]


def main() -> int:
    rows: list[tuple[str, str]] = []
    failed = []
    for name in MODULES:
        try:
            module = importlib.import_module(f"bench.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"bench.{name}":
                raise
            print(f"note: bench.{name} is not in this checkout; skipped", file=sys.stderr)
            continue
        start = time.perf_counter()
        try:
            rows.extend(module.run())
        except Exception:
            traceback.print_exc()
            failed.append(name)
            rows.append((f"bench.{name}", "FAILED (traceback above)"))
        print(f"bench.{name}: {time.perf_counter() - start:.0f} s", file=sys.stderr)
    width = max(len(what) for what, _ in rows)
    print()
    print(f"{'measured':<{width}}  figure")
    print(f"{'-' * width}  {'-' * 40}")
    for what, figure in rows:
        print(f"{what:<{width}}  {figure}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
