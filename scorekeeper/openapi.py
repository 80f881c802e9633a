"""The OpenAPI 3.1 document of JSON API v1, served at ``/api/v1/openapi.json``.

The test suite validates every API response it sees against these schemas, so the
document cannot drift from the server.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from . import rules

_SUITS = [suit.value for suit in rules.Suit]
_TURNABLE = [t.value for t in rules.Turned if t is not rules.Turned.NONE]


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _problem(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/problem+json": {"schema": _ref("Problem")}},
    }


def _game_ok(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "headers": {"ETag": {"$ref": "#/components/headers/ETag"}},
        "content": {"application/json": {"schema": _ref("Game")}},
    }


_WRITE_ERRORS = {
    "400": _problem("Malformed JSON or a value of the wrong JSON type."),
    "401": _problem("No edit token was sent."),
    "403": _problem("The edit token is not this game's."),
    "404": _problem("Unknown game or round."),
    "409": _problem("Out of turn: an earlier round or step is not done yet."),
    "412": _problem("`If-Match` named a version that is no longer current."),
    "413": _problem("The body is too large."),
    "415": _problem("The body is not `application/json`."),
    "422": _problem("A value the rules forbid, or an unknown field."),
    "429": _problem("Too many games started from this address; retry after `Retry-After` seconds."),
    "503": _problem(
        "The database is busy or could not be reached; retry after `Retry-After` seconds."
    ),
}

_GAME_ID = {
    "name": "game_id",
    "in": "path",
    "required": True,
    "description": "The game's id: knowing it gives read access.",
    "schema": {"type": "string"},
}
_ROUND = {
    "name": "number",
    "in": "path",
    "required": True,
    "description": "The round, 1 to `rules.rounds`.",
    "schema": {"type": "integer", "minimum": 1},
}
_IF_MATCH = {
    "name": "If-Match",
    "in": "header",
    "required": False,
    "description": 'The version the write is based on, as `"7"`; stale → 412.',
    "schema": {"type": "string"},
}


def _round_put(summary: str, body: str, description: str) -> dict[str, Any]:
    return {
        "put": {
            "summary": summary,
            "description": description,
            "operationId": f"put{body.capitalize()}",
            "security": [{"editToken": []}],
            "parameters": [_GAME_ID, _ROUND, _IF_MATCH],
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": _ref(f"{body.capitalize()}Body")}},
            },
            "responses": {"200": _game_ok("The game after the write."), **_WRITE_ERRORS},
        }
    }


_FACTS = {
    "oneOf": [
        {"type": "null"},
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["trump", "bids", "tricks"],
            "properties": {
                "trump": {"oneOf": [_ref("Trump"), {"type": "null"}]},
                "bids": {"type": ["array", "null"], "items": {"type": ["integer", "null"]}},
                "tricks": {"type": ["array", "null"], "items": {"type": "integer"}},
            },
        },
    ]
}

_SCHEMAS: dict[str, Any] = {
    "Problem": {
        "type": "object",
        "required": ["type", "title", "status", "detail"],
        "properties": {
            "type": {"type": "string"},
            "title": {"type": "string"},
            "status": {"type": "integer"},
            "detail": {"type": "string", "description": "A sentence a person understands."},
            "errors": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["field", "message"],
                    "properties": {
                        "field": {"type": "string", "examples": ["bids[2]"]},
                        "message": {"type": "string"},
                    },
                },
            },
        },
    },
    "Rules": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "bid_rule": {"enum": [r.value for r in rules.BidRule], "default": "standard"},
            "last_bidder_may_bid_zero": {"type": "boolean", "default": False},
            "bid_reveal": {"enum": [r.value for r in rules.BidReveal], "default": "open"},
            "clairvoyance": {"type": "boolean", "default": False},
            "rounds": {
                "type": ["integer", "null"],
                "minimum": 1,
                "description": "Rounds to play; default (or null) the full count, 60 / players.",
            },
        },
    },
    "CreateGameBody": {
        "type": "object",
        "additionalProperties": False,
        "required": ["players"],
        "properties": {
            "players": {
                "type": "array",
                "minItems": rules.MIN_PLAYERS,
                "maxItems": rules.MAX_PLAYERS,
                "description": "Names in clockwise seat order: trimmed, 1 to 24 characters, "
                "unique regardless of case.",
                "items": {"type": "string", "minLength": 1, "pattern": "\\S"},
            },
            "first_dealer": {
                "type": ["integer", "null"],
                "minimum": 0,
                "description": "The seat that deals round 1; omitted or null: drawn at random.",
            },
            "rules": {"oneOf": [_ref("Rules"), {"type": "null"}]},
        },
    },
    "TrumpBody": {
        "type": "object",
        "additionalProperties": False,
        "required": ["turned"],
        "properties": {
            "turned": {"enum": _TURNABLE},
            "chosen": {
                "enum": [*_SUITS, None],
                "description": 'The suit the dealer chose; only, and always, with "wizard".',
            },
        },
    },
    "BidsBody": {
        "type": "object",
        "additionalProperties": False,
        "required": ["bids"],
        "properties": {
            "bids": {
                "type": "array",
                "description": "One bid per seat, in seat order; null: not bid yet.",
                "items": {"type": ["integer", "null"], "minimum": 0},
            }
        },
    },
    "TricksBody": {
        "type": "object",
        "additionalProperties": False,
        "required": ["tricks"],
        "properties": {
            "tricks": {
                "type": "array",
                "description": "The tricks each seat won, in seat order; they sum to the cards.",
                "items": {"type": "integer", "minimum": 0},
            }
        },
    },
    "Trump": {
        "type": "object",
        "additionalProperties": False,
        "required": ["turned", "suit"],
        "properties": {
            "turned": {"enum": [t.value for t in rules.Turned]},
            "suit": {"enum": [*_SUITS, None], "description": "The trump suit; null: no trump."},
        },
    },
    "Round": {
        "type": "object",
        "additionalProperties": False,
        "required": [
            "number",
            "cards",
            "dealer",
            "bid_order",
            "state",
            "trump",
            "bids",
            "has_bid",
            "forbidden_bid",
            "tricks",
            "scores",
        ],
        "properties": {
            "number": {"type": "integer", "minimum": 1},
            "cards": {"type": "integer", "minimum": 1},
            "dealer": {"type": "integer", "minimum": 0},
            "bid_order": {
                "type": "array",
                "items": {"type": "integer", "minimum": 0},
                "description": "Seats in bid order: left of the dealer first, the dealer last.",
            },
            "state": {"enum": [s.value for s in rules.RoundState]},
            "trump": {"oneOf": [_ref("Trump"), {"type": "null"}]},
            "bids": {
                "type": ["array", "null"],
                "items": {"type": ["integer", "null"]},
                "description": "null until started; hidden bids read null (covered: until "
                "every bid is in; secret: until the round is scored).",
            },
            "has_bid": {
                "type": ["array", "null"],
                "items": {"type": "boolean"},
                "description": "Who has bid, in seat order, in every reveal mode.",
            },
            "forbidden_bid": {
                "type": ["integer", "null"],
                "description": "The one value the dealer may not bid now, else null; null "
                "too while the bids are hidden, since it would give away their sum.",
            },
            "tricks": {"type": ["array", "null"], "items": {"type": "integer"}},
            "scores": {"type": ["array", "null"], "items": {"type": "integer"}},
        },
    },
    "Standing": {
        "type": "object",
        "additionalProperties": False,
        "required": ["seat", "name", "total", "rank"],
        "properties": {
            "seat": {"type": "integer"},
            "name": {"type": "string"},
            "total": {"type": "integer"},
            "rank": {"type": "integer", "minimum": 1, "description": "Competition ranking."},
        },
    },
    "AuditEntry": {
        "type": "object",
        "additionalProperties": False,
        "required": ["round", "kind", "at", "old", "new"],
        "description": "One write to a round: when, which kind, its facts before and after. "
        "Bids the reveal mode still hides read null.",
        "properties": {
            "round": {"type": "integer", "minimum": 1},
            "kind": {"enum": ["trump", "bids", "tricks", "score", "correction", "import"]},
            "at": {"type": "string", "format": "date-time"},
            "old": _FACTS,
            "new": _FACTS,
        },
    },
    "GameExport": {
        "type": "object",
        "required": ["game", "audit"],
        "properties": {
            "game": {"type": "object", "description": "The game object, as GET returns it."},
            "audit": {"type": "array", "items": _ref("AuditEntry")},
        },
    },
    "Export": {
        "type": "object",
        "required": ["schema_version"],
        "description": "One game (`game` and `audit`) or many (`games`).",
        "properties": {
            "schema_version": {"const": 1},
            "exported_at": {"type": "string", "format": "date-time"},
            "game": {"type": "object"},
            "audit": {"type": "array", "items": _ref("AuditEntry")},
            "games": {"type": "array", "items": _ref("GameExport")},
        },
    },
    "ImportResult": {
        "type": "object",
        "additionalProperties": False,
        "required": ["games"],
        "properties": {
            "games": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["id", "edit_token", "links"],
                    "properties": {
                        "id": {"type": "string"},
                        "edit_token": {
                            "type": "string",
                            "description": "The new game's edit token, shown only here.",
                        },
                        "links": {
                            "type": "object",
                            "additionalProperties": False,
                            "required": ["self", "view"],
                            "properties": {
                                "self": {"type": "string"},
                                "view": {"type": "string"},
                            },
                        },
                    },
                },
            }
        },
    },
    "Game": {
        "type": "object",
        "additionalProperties": False,
        "required": [
            "id",
            "version",
            "schema_version",
            "created_at",
            "updated_at",
            "players",
            "first_dealer",
            "rules",
            "status",
            "current_round",
            "rounds",
            "totals",
            "standings",
            "winners",
            "links",
        ],
        "properties": {
            "id": {"type": "string", "minLength": 22},
            "version": {"type": "integer", "minimum": 1},
            "schema_version": {"const": 1},
            "created_at": {"type": "string", "format": "date-time"},
            "updated_at": {"type": "string", "format": "date-time"},
            "players": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["seat", "name"],
                    "properties": {"seat": {"type": "integer"}, "name": {"type": "string"}},
                },
            },
            "first_dealer": {"type": "integer", "minimum": 0},
            "rules": {
                "allOf": [_ref("Rules")],
                "required": [
                    "bid_rule",
                    "last_bidder_may_bid_zero",
                    "bid_reveal",
                    "clairvoyance",
                    "rounds",
                ],
            },
            "status": {"enum": [s.value for s in rules.GameStatus]},
            "current_round": {"type": ["integer", "null"]},
            "rounds": {"type": "array", "items": _ref("Round")},
            "totals": {"type": "array", "items": {"type": "integer"}},
            "standings": {"type": "array", "items": _ref("Standing")},
            "winners": {"type": "array", "items": {"type": "integer"}},
            "links": {
                "type": "object",
                "additionalProperties": False,
                "required": ["self", "view"],
                "properties": {
                    "self": {"type": "string", "description": "This game in the API."},
                    "view": {
                        "type": "string",
                        "description": "The spectator page: anyone with the game's id follows "
                        "it there, live, read-only.",
                    },
                },
            },
            "edit_token": {
                "type": "string",
                "description": "Only in the answer that creates the game: keep it, it is "
                "never shown again.",
            },
        },
    },
}


@cache
def openapi_document() -> dict[str, Any]:
    """The whole OpenAPI 3.1 document."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Tablet of Truth API",
            "version": "1",
            "description": "Scorekeeping for the card game Wizard: games, trump, bids and "
            "tricks, with scores, totals and standings derived by the rules.",
        },
        "servers": [{"url": "/"}],
        "components": {
            "schemas": _SCHEMAS,
            "securitySchemes": {
                "editToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The edit_token returned once when the game was created.",
                }
            },
            "headers": {
                "ETag": {
                    "description": 'The game\'s version, as `"7"`.',
                    "schema": {"type": "string"},
                }
            },
        },
        "paths": {
            "/api/v1/games": {
                "post": {
                    "summary": "Start a game",
                    "operationId": "createGame",
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": _ref("CreateGameBody")}},
                    },
                    "responses": {
                        "201": {
                            "description": "The game, with its edit token (shown only here).",
                            "headers": {
                                "Location": {
                                    "description": "The game's address.",
                                    "schema": {"type": "string"},
                                },
                                "ETag": {"$ref": "#/components/headers/ETag"},
                            },
                            "content": {
                                "application/json": {
                                    "schema": {
                                        "allOf": [_ref("Game")],
                                        "required": ["edit_token"],
                                    }
                                }
                            },
                        },
                        **{k: _WRITE_ERRORS[k] for k in ("400", "413", "415", "422", "429", "503")},
                    },
                }
            },
            "/api/v1/games/{game_id}": {
                "get": {
                    "summary": "Read a game",
                    "operationId": "getGame",
                    "parameters": [
                        _GAME_ID,
                        {
                            "name": "If-None-Match",
                            "in": "header",
                            "required": False,
                            "schema": {"type": "string"},
                        },
                    ],
                    "responses": {
                        "200": _game_ok("The game."),
                        "304": {
                            "description": "`If-None-Match` names the current version.",
                            "headers": {"ETag": {"$ref": "#/components/headers/ETag"}},
                        },
                        "404": _WRITE_ERRORS["404"],
                        "503": _WRITE_ERRORS["503"],
                    },
                },
                "delete": {
                    "summary": "Delete a game",
                    "operationId": "deleteGame",
                    "security": [{"editToken": []}],
                    "parameters": [_GAME_ID, _IF_MATCH],
                    "responses": {
                        "204": {"description": "Deleted."},
                        **{k: _WRITE_ERRORS[k] for k in ("401", "403", "404", "412", "503")},
                    },
                },
            },
            "/api/v1/games/{game_id}/rounds/{number}/trump": _round_put(
                "Record the trump",
                "trump",
                "The card turned after dealing; with a Wizard, the suit the dealer chose. "
                "May be changed while the round is bidding or playing, and once scored. "
                "The round that deals every card has no trump to record (409).",
            ),
            "/api/v1/games/{game_id}/rounds/{number}/bids": _round_put(
                "Record the bids",
                "bids",
                "Bids may be saved partially; the bid rule is checked once every bid is in. "
                "A scored round takes a complete set (a correction).",
            ),
            "/api/v1/games/{game_id}/rounds/{number}/tricks": _round_put(
                "Record the tricks",
                "tricks",
                "The tricks each player won, once every bid is in; this scores the round. "
                "On a scored round this is a correction: every total is recomputed.",
            ),
            "/api/v1/games/{game_id}/export": {
                "get": {
                    "summary": "Export a game",
                    "description": "The game object (as `GET /api/v1/games/{game_id}`) and "
                    "its audit trail: every write to a round, with the facts before and "
                    "after. `POST /api/v1/import` takes it back.",
                    "operationId": "exportGame",
                    "parameters": [_GAME_ID],
                    "responses": {
                        "200": {
                            "description": "The export, `schema_version` 1.",
                            "headers": {"ETag": {"$ref": "#/components/headers/ETag"}},
                            "content": {
                                "application/json": {
                                    "schema": {
                                        "allOf": [_ref("Export")],
                                        "required": ["game", "audit"],
                                        "properties": {"game": _ref("Game")},
                                    }
                                }
                            },
                        },
                        "404": _WRITE_ERRORS["404"],
                        "503": _WRITE_ERRORS["503"],
                    },
                }
            },
            "/api/v1/import": {
                "post": {
                    "summary": "Import games",
                    "description": "An export of one game or many becomes new games, with "
                    "new ids and edit tokens. Every round is replayed through the rules; a "
                    "round they refuse, or scores and totals that do not follow from the "
                    "bids and tricks, refuse the whole file (422, naming the game, the round "
                    "and the reason), and nothing is imported.",
                    "operationId": "importGames",
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": _ref("Export")}},
                    },
                    "responses": {
                        "201": {
                            "description": "The new games with their edit tokens.",
                            "content": {"application/json": {"schema": _ref("ImportResult")}},
                        },
                        **{k: _WRITE_ERRORS[k] for k in ("400", "413", "415", "422", "503")},
                    },
                }
            },
            "/api/v1/openapi.json": {
                "get": {
                    "summary": "This document",
                    "operationId": "openapi",
                    "responses": {
                        "200": {
                            "description": "The OpenAPI 3.1 document.",
                            "content": {"application/json": {"schema": {"type": "object"}}},
                        }
                    },
                }
            },
        },
    }
