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

from playwright.sync_api import Page, expect

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


def test_adding_seats_on_the_new_game_form_breaks_no_policy(
    page: Page, base_url: str, problems: Problems
) -> None:
    """A name field that carries a style of the phone's own (a screenshot hides the caret with
    one, a password manager draws its icon with one) is not copied into the next form that a
    seat added brings: the policy refuses every inline style, and would log each one."""
    violations = listen_for_violations(page)
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(base_url + "/games/new")
    for seat, name in enumerate(["Bartholomew", "Maximiliane", "Cy", "Dörte"], start=1):
        field = page.get_by_label(f"Seat {seat}", exact=True)
        if field.count() == 0:
            page.screenshot()  # Playwright's hidden caret: style="" on every input
            page.get_by_role("button", name="Add a player").click()
        field.fill(name)
        field.blur()
        expect(page.get_by_role("radio", name=name, exact=True)).to_be_visible()
    page.wait_for_timeout(200)  # a late report comes back from the page asynchronously
    assert violations == []
    assert problems.unexpected() == []
