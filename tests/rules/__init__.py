"""The rules of RULES.md, one test per rule, named after the rule it checks.

A module per area of ``scorekeeper.rules``; ``helpers`` holds what they share.
"""

import pytest

# The shared checks (assert_refused …) live outside the test modules: have pytest rewrite
# their asserts too, so a failure still shows the values compared.
pytest.register_assert_rewrite("tests.rules.helpers")
