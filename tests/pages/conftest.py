"""Fixtures of the page tests: the Confidant's phone and another phone, each a test client
with its own cookies."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from ..confidant import Confidant


@pytest.fixture
def phone(client: FlaskClient) -> Confidant:
    return Confidant(client)


@pytest.fixture
def other_phone(app: Flask) -> Confidant:
    return Confidant(app.test_client())
