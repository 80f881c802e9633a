"""Mutation testing of the rules and the use cases with mutmut (``make mutate``).

mutmut makes its mutants of ``scorekeeper/rules`` and ``scorekeeper/services`` and runs, for
each, the tests of the layers that own them (``[tool.mutmut]`` in pyproject.toml) that reach
the mutated function. ``--sample N`` runs one mutant in N, chosen by a hash of its name, so
the same sample is drawn from two checkouts; the score of each package follows: killed
over all mutants run, a mutant no test reaches counted as a survivor.

    python scripts/mutate.py [--sample N] [--jobs J]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import zlib
from collections import Counter
from pathlib import Path

MUTMUT = str(Path(sys.executable).with_name("mutmut"))
#: A pattern no mutant matches: ``mutmut run`` with it makes the mutants and runs none.
NOTHING = "no.mutant.is.called.this*"


def results() -> dict[str, str]:
    """Every mutant's name and status, as mutmut reports them."""
    listed = subprocess.run(
        [MUTMUT, "results", "--all", "true"], capture_output=True, text=True, check=True
    ).stdout
    found = {}
    for line in listed.splitlines():
        name, _, status = line.strip().rpartition(": ")
        if name:
            found[name] = status
    return found


def in_sample(name: str, sample: int) -> bool:
    return zlib.crc32(name.encode()) % sample == 0


def package(name: str) -> str:
    """``rules`` or ``services``, from ``scorekeeper.rules.bids.x_can_bid__mutmut_3``."""
    return name.split(".")[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=1, help="run one mutant in N (default all)")
    parser.add_argument("--jobs", type=int, default=None, help="mutants run at once (cores)")
    args = parser.parse_args()
    # Makes the mutants and the map of tests to functions, then stops: nothing matches.
    subprocess.run([MUTMUT, "run", NOTHING], capture_output=True, check=False)
    chosen = sorted(name for name in results() if in_sample(name, args.sample))
    jobs = [] if args.jobs is None else ["--max-children", str(args.jobs)]
    subprocess.run([MUTMUT, "run", *jobs, *chosen], check=True, stdout=subprocess.DEVNULL)
    statuses = results()
    tally: dict[str, Counter[str]] = {}
    for name in chosen:
        tally.setdefault(package(name), Counter())[statuses[name]] += 1
    print(f"mutants: one in {args.sample}")
    for area, counts in sorted(tally.items()):
        total = sum(counts.values())
        killed = counts["killed"] + counts["timeout"]
        detail = ", ".join(f"{status} {count}" for status, count in sorted(counts.items()))
        print(f"scorekeeper/{area}: {killed}/{total} killed = {killed / total:.1%} ({detail})")


if __name__ == "__main__":
    main()
