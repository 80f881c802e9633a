"""pip-audit of the installed environment (.venv), summarised: fails on any known
vulnerability, and says how many packages could actually be checked.

A package index without PyPI's vulnerability data (a mirror) leaves every package
"not found"; then nothing was audited, and this says so rather than passing in silence.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

VENV_BIN = Path(__file__).resolve().parents[1] / ".venv" / "bin"


def main() -> int:
    with tempfile.NamedTemporaryFile(suffix=".json") as report:
        completed = subprocess.run(
            [
                str(VENV_BIN / "pip-audit"),
                "--skip-editable",
                "--progress-spinner",
                "off",
                "--format",
                "json",
                "--output",
                report.name,
            ],
            check=False,
        )
        text = Path(report.name).read_text() or "{}"
    dependencies = json.loads(text).get("dependencies", [])
    audited = [d for d in dependencies if "skip_reason" not in d]
    vulnerable = [d for d in audited if d.get("vulns")]
    for dependency in vulnerable:
        for vuln in dependency["vulns"]:
            fixes = ", ".join(vuln.get("fix_versions", [])) or "none yet"
            print(
                f"VULNERABLE {dependency['name']} {dependency['version']}: "
                f"{vuln['id']} (fixed in {fixes})"
            )
    print(
        f"pip-audit: {len(audited)} of {len(dependencies)} installed packages audited, "
        f"{len(vulnerable)} vulnerable"
    )
    if dependencies and not audited:
        print(
            "pip-audit: WARNING: the package index gave no vulnerability data for any package "
            "(a mirror without PyPI's JSON API?): nothing was audited",
        )
    if vulnerable or completed.returncode not in (0, 1):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
