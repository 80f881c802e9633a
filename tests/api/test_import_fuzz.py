"""Whatever a file holds, an import answers 201 or a clear refusal, never a server error, and
a refusal imports nothing: hypothesis mutates a real export leaf by leaf."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ..api_client import ApiClient
from ..pages.test_history import game_count

# One database for all examples (SQLite: each example is a request, not a new schema).

LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from(["", "wizard", "none", "red", "jester", "canadian", "secret", "=1", "\x00"]),
    st.lists(st.one_of(st.none(), st.integers(-3, 30)), max_size=7),
    st.dictionaries(st.sampled_from(["turned", "suit", "seat", "name"]), st.text(max_size=3)),
)


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in the document a value sits."""
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += paths(value, (*prefix, index))
    return found


def replaced(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    result = copy.deepcopy(document)
    node = result
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return result


@pytest.fixture
def exported(api: ApiClient) -> dict[str, Any]:
    game_id: str = api.create(["Ann", "Bob", "Cy"], first_dealer=0, rules={"rounds": 3})["id"]
    api.play_round(game_id, 1, [0, 1, 1], [0, 0, 1], turned="wizard", chosen="red")
    api.play_round(game_id, 2, [2, 0, 0], [1, 0, 1])
    api.tricks(game_id, 1, [0, 1, 0])
    document: dict[str, Any] = api.client.get(f"/api/v1/games/{game_id}/export").get_json()
    return document


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_mutated_export_is_imported_whole_or_refused_whole(
    app: Flask, api: ApiClient, exported: dict[str, Any], data: st.DataObject
) -> None:
    places = paths(exported)[1:]  # the document itself stays an object
    path = data.draw(st.sampled_from(places))
    document = replaced(exported, path, data.draw(LEAVES))
    before = game_count(app)
    response = api.client.post("/api/v1/import", json=document)
    assert response.status_code in (201, 400, 422), response.get_json()
    if response.status_code == 201:
        assert game_count(app) == before + 1
    else:
        assert response.get_json()["detail"]
        assert game_count(app) == before
