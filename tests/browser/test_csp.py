"""The Content-Security-Policy in the browser: the listener the walks use.

Every browser test runs under the policy (the live server sends it), and Chromium logs a
violation as a console error, which fails any test; the walk of every page
(test_every_page.py) and the referee's tests also listen for the
``securitypolicyviolation`` events themselves. The policy's words are checked in
tests/app/test_security.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Page

if TYPE_CHECKING:
    from .conftest import Problems

LISTENER = """
document.addEventListener('securitypolicyviolation', (event) => {
  window.reportViolation(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`
    + ` at ${event.sourceFile || document.location.href}:${event.lineNumber}`);
});
"""


def listen_for_violations(page: Page) -> list[str]:
    """Collect every CSP violation of every page this tab opens from now on."""
    violations: list[str] = []

    def report(_source: Any, violation: str) -> None:
        violations.append(violation)

    page.context.expose_binding("reportViolation", report)
    page.context.add_init_script(LISTENER)
    return violations


def test_the_listener_does_report_a_violation(
    page: Page, base_url: str, problems: Problems
) -> None:
    """Without this, an empty list of violations could mean a deaf listener."""
    problems.allow(r"Content Security Policy")
    violations = listen_for_violations(page)
    page.goto(base_url + "/")
    page.evaluate(
        "() => { const s = document.createElement('style'); s.textContent = 'p{}';"
        " document.head.append(s); }"
    )
    for _ in range(40):  # the report comes back from the page asynchronously
        if violations:
            break
        page.wait_for_timeout(50)
    assert any("style-src" in violation for violation in violations), violations
