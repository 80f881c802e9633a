"""The Content-Security-Policy in the browser: a whole game walked with not one violation.

Every browser test runs under the policy (the live server sends it), and Chromium logs a
violation as a console error, which fails any test; this one also listens for the
``securitypolicyviolation`` events themselves, on every page of a game from the home page
to the game's end, its sheet and a correction.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Page, expect

from .helpers import all_made, bid, new_game, open_sheet, score, set_trump, tricks

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


def test_a_whole_game_runs_without_a_single_csp_violation(page: Page, base_url: str) -> None:
    violations = listen_for_violations(page)
    documents: list[str] = []
    page.on(
        "response",
        lambda response: (
            documents.append(response.headers.get("content-security-policy", ""))
            if response.request.resource_type == "document"
            else None
        ),
    )
    new_game(page, base_url, ["Ann", "Bob", "Cy"], dealer="Ann", rounds="2")
    set_trump(page, "Wizard", chosen="red Dwarves")
    bid(page, "Bob", 1)
    bid(page, "Cy", 0)
    bid(page, "Ann", 0)
    tricks(page, "Bob", 1)
    tricks(page, "Cy", 0)
    score(page, 1)
    open_sheet(page)
    page.get_by_role("link", name="Correct round 1", exact=True).click()
    expect(page.get_by_role("heading", name="Correct round 1", level=1)).to_be_visible()
    page.goto(base_url + "/")
    page.get_by_role("link", name=re.compile("Ann, Bob, Cy")).first.click()
    expect(page.get_by_role("heading", name="Round 2 of 2")).to_be_visible()
    set_trump(page, "blue Humans")
    bid(page, "Cy", 1)
    bid(page, "Ann", 0)
    bid(page, "Bob", 1)
    all_made(page, 2)
    page.get_by_role("button", name="See who won").click()
    expect(page.get_by_role("heading", name="Game over", level=1)).to_be_visible()
    page.get_by_role("link", name="Tablet of Truth").click()
    expect(page.get_by_role("heading", name="Your games")).to_be_visible()

    assert violations == []
    assert documents, "no page was loaded"
    for policy in documents:
        assert "script-src 'self'" in policy
        assert "style-src 'self'" in policy
        assert "unsafe" not in policy


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
