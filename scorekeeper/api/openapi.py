"""The OpenAPI 3.1 document of /api/v1, served at /api/v1/openapi.json.

The request bodies' schemas come from the models that validate them (``api.models``); the
answers are still described here.
"""

from __future__ import annotations

from typing import Any

from scorekeeper import transfer
from scorekeeper.api import models

_ERROR = {"$ref": "#/components/schemas/Error"}
_POINTS = {
    "type": "object",
    "description": "Points keyed by player id (as a string).",
    "additionalProperties": {"type": "integer"},
}
_CARDS_OUT = {"type": "array", "items": {"type": "string"}}
_KIND = {"enum": ["set", "sequence"]}
# German Rummy (G2): a joker lies in "cards" as "JKR"; "jokers" says what each stands for.
_JOKERS = {
    "type": "array",
    "description": 'German Rummy: each joker, by its place in "cards" (index, from 0, where it '
    'lies as "JKR"), and the cards it may stand for: one in a sequence, each missing suit in a '
    "set.",
    "items": {
        "type": "object",
        "required": ["index", "as"],
        "properties": {
            "index": {"type": "integer", "minimum": 0},
            "as": {"type": "array", "minItems": 1, "items": {"type": "string"}},
        },
    },
}
_OPENING_VALUE = {
    "type": "integer",
    "description": "German Rummy: what the meld counts towards an opening (G3): 2-10 face value, "
    "J Q K 10, ace 11 in a set or after the K and 1 before the 2, a joker the card it stands for.",
}
# What a meld as it was put down counts towards an opening, in the answers about melds.
_MELD_OPENING_VALUE = {
    "type": "integer",
    "description": "Where the rule system has an opening (German Rummy, G3): what the meld as "
    "it was put down counts towards an opening (layoffs onto it never count); of a meld entry, "
    "its melds together. Answers about layoffs and swaps leave it out.",
}
_ID = {"type": "integer", "minimum": 1}
_SESSION_ID = {
    "type": "string",
    "description": "A session's id: random, so that it cannot be guessed.",
}
_GROUP_ID = {
    "type": "string",
    "description": "A group's id: random, so that it cannot be guessed.",
}
# Every request about a session, its games or entries sends one of the session's keys.
_EDIT: list[dict[str, list[str]]] = [{"editKey": []}]
_VIEW: list[dict[str, list[str]]] = [{"editKey": []}, {"viewKey": []}]


def _answer(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*codes: int) -> dict[str, Any]:
    meaning = {
        400: "The body is not valid JSON.",
        404: "No such session, game or entry, or the key is missing or wrong (the edit key "
        "is needed to write).",
        409: "Not possible in the state things are in now (the game is over, a game is open, "
        "the session is finished, a later entry builds on this one), or the first request "
        "with this Idempotency-Key is still being answered or was applied but its answer lost.",
        413: "The body is too large.",
        415: "The body is not declared as JSON: a write sends Content-Type: application/json "
        "(a charset parameter is fine); only a write without a body may leave it out.",
        422: "Against the rules, a field is missing or of the wrong type, or the "
        "Idempotency-Key header is not 1 to 200 printable characters (for a new session: "
        "not a secret of at least 128 bits).",
    }
    return {str(code): _answer(meaning[code], _ERROR) for code in codes}


def _body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


_IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "Sent again with the same key, the request is answered with the first "
    "answer and not applied again (1 to 200 printable characters, e.g. a UUID). A key counts "
    "for the session key that sends it and for this operation only: another session's, or "
    "another operation's, same key is another request.",
    "schema": {"type": "string", "minLength": 1, "maxLength": 200},
}
# Creating a session needs no key, so the Idempotency-Key alone tells one caller from another.
_SECRET_IDEMPOTENCY_KEY = {
    **_IDEMPOTENCY_KEY,
    "description": "Sent again with the same key and body, the request is answered with the "
    "first answer, the new session's keys included, and not applied again. Anyone may create "
    "a session, so the key must be a secret nobody can guess, of at least 128 random bits: a "
    "UUID or 32 hexadecimal digits (hyphens anywhere), or 22 characters of base64url (A-Z, "
    "a-z, 0-9, - and _; = padding at the end not counted), with at least 6 different "
    "characters; otherwise 422.",
}


_LANG = {
    "name": "lang",
    "in": "query",
    "required": False,
    "schema": {"type": "string"},
    "description": "de for German; English otherwise.",
}


def _id_param(name: str) -> dict[str, Any]:
    schema = {"session_id": _SESSION_ID, "group_id": _GROUP_ID}.get(name, _ID)
    return {"name": name, "in": "path", "required": True, "schema": schema}


OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "Treppenrommé scorekeeper",
        "version": "1",
        "description": "Record melds, layoffs and settlements of rummy sessions under the rule "
        "system a table chooses: Treppenrommé (the default) or Boathouse Rum, or German Rummy "
        "with jokers, a 40-point opening, joker swaps and minus points.",
    },
    "paths": {
        "/api/v1/openapi.json": {
            "get": {
                "summary": "This document",
                "responses": {
                    "200": _answer("The OpenAPI document of this API.", {"type": "object"})
                },
            }
        },
        "/api/v1/variants": {
            "get": {
                "summary": "The rule systems a session can be played by, with their house rules",
                "parameters": [_LANG],
                "responses": {
                    "200": _answer(
                        "The rule systems; title in the request's language (?lang=de).",
                        {"type": "array", "items": {"$ref": "#/components/schemas/Variant"}},
                    ),
                },
            }
        },
        "/api/v1/check": {
            "post": {
                "summary": "Check cards as a meld, or as a layoff onto a meld",
                "description": "German Rummy also checks a joker swap: onto (the meld lying), "
                "cards (the natural card or cards put in the joker's place) and new_meld (the "
                "new meld's cards, the joker taken written JKR). A joker in doubt (5♠ 6♠ JKR: 4♠ "
                "or 7♠) answers valid false with an error naming the choices and joker_choices.",
                "requestBody": _body(models.CheckCards.request_schema()),
                "responses": {
                    "200": _answer("The verdict.", {"$ref": "#/components/schemas/Check"}),
                    **_errors(400, 413, 415, 422),
                },
            }
        },
        "/api/v1/sessions": {
            "post": {
                "summary": "Start a session",
                "parameters": [_SECRET_IDEMPOTENCY_KEY],
                "requestBody": _body(models.NewSession.request_schema()),
                "responses": {
                    "201": _answer(
                        "The new session with its keys, handed out only here.",
                        {"$ref": "#/components/schemas/NewSession"},
                    ),
                    "404": _answer("No such group, or group_key is not its edit key.", _ERROR),
                    **_errors(400, 409, 413, 415, 422),
                },
            }
        },
        "/api/v1/sessions/{session_id}": {
            "parameters": [_id_param("session_id")],
            "get": {
                "security": _VIEW,
                "summary": "A session with its totals and games",
                "responses": {
                    "200": _answer("The session.", {"$ref": "#/components/schemas/Session"}),
                    **_errors(404),
                },
            },
            "patch": {
                "security": _EDIT,
                "summary": "Play the session to another end, between games",
                "description": "Only the end changes after the start: a target, a limit "
                "(German Rummy) or a number of games. 409 while a game is open, or when the "
                "totals have passed that end already; another house rule: 422.",
                "parameters": [_IDEMPOTENCY_KEY],
                "requestBody": _body(models.NewEnd.request_schema()),
                "responses": {
                    "200": _answer(
                        "The session with its new end.", {"$ref": "#/components/schemas/Session"}
                    ),
                    **_errors(400, 404, 409, 413, 415, 422),
                },
            },
        },
        "/api/v1/sessions/{session_id}/players/{player_id}": {
            "parameters": [_id_param("session_id"), _id_param("player_id")],
            "patch": {
                "security": _EDIT,
                "summary": "Give a player another name",
                "description": "The name is checked as at the start; the player's points stay.",
                "parameters": [_IDEMPOTENCY_KEY],
                "requestBody": _body(models.PlayerName.request_schema()),
                "responses": {
                    "200": _answer(
                        "The session with the player renamed.",
                        {"$ref": "#/components/schemas/Session"},
                    ),
                    **_errors(400, 404, 409, 413, 415, 422),
                },
            },
            "delete": {
                "security": _EDIT,
                "summary": "Let a player leave the table, between games",
                "description": "The player is not dealt in from the next game on and cannot win "
                "the session; their points stay in the totals and the games they played keep "
                "them. They move from players to left (one who played no game yet goes "
                "entirely). 409 while a game is open, when the session is finished, when the "
                "player left already, or when the seating would decide a tie at the top; 422 "
                "when the rule system's fewest players sit at the table.",
                "parameters": [_IDEMPOTENCY_KEY],
                "responses": {
                    "200": _answer(
                        "The session without the player at the table.",
                        {"$ref": "#/components/schemas/Session"},
                    ),
                    **_errors(404, 409, 415, 422),
                },
            },
        },
        "/api/v1/sessions/{session_id}/players": {
            "parameters": [_id_param("session_id")],
            "post": {
                "security": _EDIT,
                "summary": "Seat a new player, between games",
                "description": "The name is checked as at the start, and may not be the name of "
                "a player who left. The new player is dealt in from the next game; the games "
                "before keep their players, and the deal passes from the last dealer to the "
                "player after them in the new seating. 409 while a game is open, when the "
                "session is finished, or when the seating would decide a tie at the top; 422 "
                "for a bad name, a seat that does not exist, a player to sit after who is "
                "not at the table, a table that is full, or a name that the session's group "
                "merged with a player's of the session (one person).",
                "parameters": [_IDEMPOTENCY_KEY],
                "requestBody": _body(models.NewPlayer.request_schema()),
                "responses": {
                    "201": _answer(
                        "The session with the new player at the table.",
                        {"$ref": "#/components/schemas/Session"},
                    ),
                    **_errors(400, 404, 409, 413, 415, 422),
                },
            },
        },
        "/api/v1/sessions/{session_id}/games": {
            "parameters": [_id_param("session_id")],
            "post": {
                "security": _EDIT,
                "summary": "Start the next game (the deal passes to the left)",
                "parameters": [_IDEMPOTENCY_KEY],
                "responses": {
                    "201": _answer("The new game.", {"$ref": "#/components/schemas/Game"}),
                    **_errors(404, 409, 415, 422),
                },
            },
        },
        "/api/v1/sessions/{session_id}/sheet": {
            "parameters": [_id_param("session_id")],
            "get": {
                "security": _VIEW,
                "summary": "The score sheet: each game's points and the running totals",
                "description": "A row per game in order, the open game too (its points so far), "
                "with each player's points in it and their total after it; the last row's "
                "totals are the session's totals. 304 when the client's ETag is still true.",
                "responses": {
                    "200": _answer("The score sheet.", {"$ref": "#/components/schemas/Sheet"}),
                    **_errors(404),
                },
            },
        },
        "/api/v1/sessions/{session_id}/sheet.csv": {
            "parameters": [_id_param("session_id")],
            "get": {
                "security": _VIEW,
                "summary": "The score sheet as CSV (games × players)",
                "description": "UTF-8, comma-separated: a header row (Game, Dealer, Status, "
                "Winner, Rommé, then the players' names), a row per game with each player's "
                "points in it (empty for a player who sat it out), and a Total row. Names "
                "that a spreadsheet would take for a formula start with an apostrophe. "
                "With spreadsheet=1, as the page's download writes it for a spreadsheet in "
                "the language: a UTF-8 byte order mark first, and semicolons between the "
                "cells in German (lang=de).",
                "parameters": [
                    _LANG,
                    {
                        "name": "spreadsheet",
                        "in": "query",
                        "required": False,
                        "description": "1 (or true): a byte order mark, and semicolons in "
                        "German; anything else: UTF-8 without a byte order mark, commas.",
                        "schema": {"type": "string"},
                    },
                ],
                "responses": {
                    "200": {
                        "description": "The CSV file.",
                        "content": {"text/csv": {"schema": {"type": "string"}}},
                    },
                    **_errors(404),
                },
            },
        },
        "/api/v1/sessions/{session_id}/export": {
            "parameters": [_id_param("session_id")],
            "get": {
                "security": _VIEW,
                "summary": "The session as the document scorekeeper import reads",
                "description": "The export of scorekeeper export, with this session alone.",
                "responses": {
                    "200": _answer("The export document.", {"$ref": "#/components/schemas/Export"}),
                    **_errors(404),
                },
            },
        },
        "/api/v1/games/{game_id}": {
            "parameters": [_id_param("game_id")],
            "get": {
                "security": _VIEW,
                "summary": "A game with its melds as they lie, its entries and points",
                "description": "With its audit trail (audit): every correction, delete, undo "
                "and reopen, each with its time and in words in the request's language.",
                "responses": {
                    "200": _answer("The game.", {"$ref": "#/components/schemas/Game"}),
                    **_errors(404),
                },
            },
        },
        "/api/v1/games/{game_id}/melds": {
            "parameters": [_id_param("game_id")],
            "post": {
                "security": _EDIT,
                "summary": "Record a meld, or several melds put down at once as one entry",
                "description": "German Rummy: a player's first entry in a game is their opening "
                "(G3), its melds together worth at least the opening minimum; under it: 422 "
                "naming their value and the minimum. A joker in doubt is 422 (write JKR=7♠).",
                "parameters": [_IDEMPOTENCY_KEY],
                "requestBody": _body(models.NewMeld.request_schema()),
                "responses": {
                    "201": _answer(
                        "For cards: the meld, and entry, the id of the entry that recorded it "
                        "(the same id). For melds: the entry's id, each meld and their value.",
                        {
                            "oneOf": [
                                {
                                    "allOf": [
                                        {"$ref": "#/components/schemas/Meld"},
                                        {"type": "object", "properties": {"entry": _ID}},
                                    ]
                                },
                                {
                                    "type": "object",
                                    "required": ["entry", "melds", "value"],
                                    "properties": {
                                        "entry": _ID,
                                        "melds": {
                                            "type": "array",
                                            "items": {
                                                "type": "object",
                                                "required": ["id", "kind", "cards", "value"],
                                                "properties": {
                                                    "id": _ID,
                                                    "kind": {"enum": ["set", "sequence"]},
                                                    "cards": _CARDS_OUT,
                                                    "value": {"type": "integer"},
                                                    "jokers": _JOKERS,
                                                    "opening_value": _MELD_OPENING_VALUE,
                                                },
                                            },
                                        },
                                        "value": {"type": "integer"},
                                        "opening_value": _MELD_OPENING_VALUE,
                                    },
                                },
                            ]
                        },
                    ),
                    **_errors(400, 404, 409, 413, 415, 422),
                },
            },
        },
        "/api/v1/games/{game_id}/layoffs": {
            "parameters": [_id_param("game_id")],
            "post": {
                "security": _EDIT,
                "summary": "Record a layoff onto a meld on the table",
                "description": "German Rummy: no layoff before the player's opening (422), and a "
                "joker laid off in doubt is 422 (write JKR=7♠).",
                "parameters": [_IDEMPOTENCY_KEY],
                "requestBody": _body(models.NewLayoff.request_schema()),
                "responses": {
                    "201": _answer(
                        "The layoff, with the meld as it lies now.",
                        {
                            "type": "object",
                            "required": ["id", "value", "meld"],
                            "properties": {
                                "id": _ID,
                                "type": {"const": "layoff"},
                                "player": _ID,
                                "cards": _CARDS_OUT,
                                "values": {"type": "array", "items": {"type": "integer"}},
                                "value": {"type": "integer"},
                                "position": {"type": "integer"},
                                "created_at": {"type": "string", "format": "date-time"},
                                "meld": {"$ref": "#/components/schemas/Meld"},
                            },
                        },
                    ),
                    **_errors(400, 404, 409, 413, 415, 422),
                },
            },
        },
        "/api/v1/games/{game_id}/swaps": {
            "parameters": [_id_param("game_id")],
            "post": {
                "security": _EDIT,
                "summary": "Record a joker swap: a card into a joker's place, the joker into a "
                "new meld",
                "description": "German Rummy (G4): a player who has opened puts the natural card "
                "a joker stands for (in a set: a missing suit) into its place in a meld on the "
                "table, and melds the joker at once with cards from the hand. One entry of type "
                "swap, undone and deleted like the others. 422 before the player's opening, and "
                "for a swap against G4 (the wrong card; under the house rule that takes a joker "
                "from a set only for four natural cards, a set that does not become four).",
                "parameters": [_IDEMPOTENCY_KEY],
                "requestBody": _body(models.NewSwap.request_schema()),
                "responses": {
                    "201": _answer(
                        "The swap's entry, the meld as it lies now, and the new meld.",
                        {
                            "type": "object",
                            "required": ["entry", "meld", "new_meld"],
                            "properties": {
                                "entry": _ID,
                                "meld": {"$ref": "#/components/schemas/Meld"},
                                "new_meld": {
                                    "type": "object",
                                    "required": ["id", "kind", "cards", "value"],
                                    "properties": {
                                        "id": _ID,
                                        "kind": _KIND,
                                        "cards": _CARDS_OUT,
                                        "value": {"type": "integer"},
                                        "jokers": _JOKERS,
                                    },
                                },
                            },
                        },
                    ),
                    **_errors(400, 404, 409, 413, 415, 422),
                },
            },
        },
        "/api/v1/games/{game_id}/entries/{entry_id}": {
            "parameters": [_id_param("game_id"), _id_param("entry_id")],
            "delete": {
                "security": _EDIT,
                "summary": "Delete an entry nothing depends on",
                "responses": {"204": {"description": "Deleted."}, **_errors(404, 409, 415)},
            },
            "patch": {
                "security": _EDIT,
                "summary": "Correct an entry: its cards, whose it is, or a layoff's meld",
                "description": "The new cards are checked as the entry was: a meld must be a "
                "meld, a layoff must fit the meld it went onto. 409 when a later entry builds on "
                "the old cards or the game is over. A new player changes only whose points "
                "they are. A layoff's meld moves it onto another meld that lay on the table "
                "when it was recorded.",
                "parameters": [_IDEMPOTENCY_KEY],
                "requestBody": _body(models.Correction.request_schema()),
                "responses": {
                    "200": _answer(
                        "The entry as corrected, and the game after it.",
                        {
                            "allOf": [
                                {"$ref": "#/components/schemas/Entry"},
                                {
                                    "type": "object",
                                    "properties": {"game": {"$ref": "#/components/schemas/Game"}},
                                },
                            ]
                        },
                    ),
                    **_errors(400, 404, 409, 413, 415, 422),
                },
            },
        },
        "/api/v1/games/{game_id}/check": {
            "parameters": [_id_param("game_id"), _LANG],
            "post": {
                "security": _VIEW,
                "summary": "Check an entry against the game as it lies, recording nothing",
                "description": "What POST /api/v1/check says, asked in the game: it knows the "
                "table, the copies left and the player's opening. player and cards (or melds) "
                "check a new meld (or several put down together); onto, the id of a meld on the "
                "table, makes it a layoff, and new_meld a joker swap. valid is false, with the "
                "error recording would give, when recording would be refused: a card whose "
                "copies lie on the table, or an opening under the minimum (the cards' "
                "opening_value is answered beside it). Either key may ask.",
                "requestBody": _body(models.GameCheck.request_schema()),
                "responses": {
                    "200": _answer("The verdict.", {"$ref": "#/components/schemas/Check"}),
                    **_errors(400, 404, 409, 413, 415, 422),
                },
            },
        },
        "/api/v1/games/{game_id}/undo": {
            "parameters": [_id_param("game_id")],
            "post": {
                "security": _EDIT,
                "summary": "Delete the latest entry of the game",
                "parameters": [_IDEMPOTENCY_KEY],
                "requestBody": {
                    "required": False,
                    "content": {"application/json": {"schema": models.Undo.request_schema()}},
                },
                "responses": {
                    "200": _answer(
                        "The id of the undone entry and the game after it.",
                        {
                            "type": "object",
                            "properties": {
                                "undone": _ID,
                                "game": {"$ref": "#/components/schemas/Game"},
                            },
                        },
                    ),
                    **_errors(400, 404, 409, 413, 415, 422),
                },
            },
        },
        "/api/v1/games/{game_id}/finish": {
            "parameters": [_id_param("game_id")],
            "post": {
                "security": _EDIT,
                "summary": "Settle the game, or abandon it with winner null",
                "parameters": [_IDEMPOTENCY_KEY],
                "requestBody": _body({"$ref": "#/components/schemas/FinishRequest"}),
                "responses": {
                    "200": _answer("The settlement.", {"$ref": "#/components/schemas/Finish"}),
                    **_errors(400, 404, 409, 413, 415, 422),
                },
            },
        },
        "/api/v1/games/{game_id}/reopen": {
            "parameters": [_id_param("game_id")],
            "post": {
                "security": _EDIT,
                "summary": "Take back the booking of the session's last ended game",
                "description": "For a settlement entered wrong: what the game banked comes off "
                "the totals, the game is open again with its entries, and a session it had won "
                "plays on. A next game without entries is removed; one with entries: 409, and "
                "409 when the seating changed after the next game was dealt.",
                "parameters": [_IDEMPOTENCY_KEY],
                "responses": {
                    "200": _answer("The game, open again.", {"$ref": "#/components/schemas/Game"}),
                    **_errors(404, 409, 415, 422),
                },
            },
        },
        "/api/v1/games/{game_id}/settlement": {
            "parameters": [_id_param("game_id")],
            "post": {
                "security": _VIEW,
                "summary": "Preview the settlement without writing anything",
                "requestBody": _body({"$ref": "#/components/schemas/FinishRequest"}),
                "responses": {
                    "200": _answer("The settlement.", {"$ref": "#/components/schemas/Finish"}),
                    **_errors(400, 404, 409, 413, 415, 422),
                },
            },
        },
    },
    "components": {
        "securitySchemes": {
            "editKey": {
                "type": "http",
                "scheme": "bearer",
                "description": "The session's edit_key: reads and writes.",
            },
            "viewKey": {
                "type": "http",
                "scheme": "bearer",
                "description": "The session's view_key: reads only.",
            },
        },
        "schemas": {
            "Error": {
                "type": "object",
                "required": ["error"],
                "properties": {"error": {"type": "string"}},
            },
            "Check": {
                "type": "object",
                "required": ["valid"],
                "properties": {
                    "valid": {"type": "boolean"},
                    "kind": {"enum": ["set", "sequence"]},
                    "cards": _CARDS_OUT,
                    "added": _CARDS_OUT,
                    "values": {"type": "array", "items": {"type": "integer"}},
                    "value": {"type": "integer"},
                    "aces": {
                        "type": "array",
                        "description": "Where each scored ace lies and what it scores there.",
                        "items": {
                            "type": "object",
                            "required": ["card", "position", "value"],
                            "properties": {
                                "card": {"type": "string"},
                                "position": {"enum": ["set", "high", "corner", "low"]},
                                "value": {"type": "integer"},
                            },
                        },
                    },
                    "error": {"type": "string"},
                    "jokers": _JOKERS,
                    "joker_choices": {
                        **_CARDS_OUT,
                        "description": "German Rummy, valid false: the cards a joker in doubt "
                        "may stand for (G2); say which as JKR=<card>.",
                    },
                    "opening_value": _OPENING_VALUE,
                    "melds": {
                        "type": "array",
                        "description": "A game's check of several melds put down together: "
                        "each meld as a check of one answers it; value and opening_value add "
                        "them up.",
                        "items": {"type": "object"},
                    },
                    "meld": {
                        "type": "object",
                        "description": "A joker swap: the meld after the swap.",
                        "properties": {"kind": _KIND, "cards": _CARDS_OUT, "jokers": _JOKERS},
                    },
                    "new_meld": {
                        "type": "object",
                        "description": "A joker swap: the new meld with the joker taken.",
                        "properties": {
                            "kind": _KIND,
                            "cards": _CARDS_OUT,
                            "jokers": _JOKERS,
                            "opening_value": _OPENING_VALUE,
                        },
                    },
                },
            },
            "Variant": {
                "type": "object",
                "required": ["name", "title", "players", "rules"],
                "properties": {
                    "name": {"type": "string"},
                    "title": {"type": "string"},
                    "players": {"type": "array", "items": {"type": "integer"}},
                    "min_players": {"type": "integer"},
                    "max_players": {"type": "integer"},
                    "rules": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["name", "default", "allowed"],
                            "properties": {
                                "name": {"type": "string"},
                                "default": {},
                                "allowed": {"type": "array"},
                            },
                        },
                    },
                },
            },
            "Player": {
                "type": "object",
                "required": ["id", "name"],
                "properties": {"id": _ID, "name": {"type": "string"}},
            },
            "GameSummary": {
                "type": "object",
                "required": ["id", "number", "dealer", "status", "winner", "romme", "points"],
                "properties": {
                    "id": _ID,
                    "number": {"type": "integer"},
                    "dealer": _ID,
                    "status": {"enum": ["open", "finished", "abandoned"]},
                    "winner": {"type": ["integer", "null"]},
                    "romme": {"type": ["boolean", "null"]},
                    "points": _POINTS,
                },
            },
            "NewSession": {
                "allOf": [
                    {"$ref": "#/components/schemas/Session"},
                    {
                        "type": "object",
                        "required": ["edit_key", "view_key"],
                        "properties": {
                            "edit_key": {
                                "type": "string",
                                "description": "Send as Authorization: Bearer to read and write.",
                            },
                            "view_key": {
                                "type": "string",
                                "description": "Send as Authorization: Bearer to read only.",
                            },
                            "group": {
                                "type": ["string", "null"],
                                "description": "The id of the group the session belongs to.",
                            },
                        },
                    },
                ]
            },
            "Session": {
                "type": "object",
                "required": [
                    "id",
                    "status",
                    "target",
                    "variant",
                    "rules",
                    "players",
                    "winner",
                    "totals",
                    "games",
                ],
                "properties": {
                    "id": _SESSION_ID,
                    "status": {"enum": ["open", "finished"]},
                    "target": {
                        "type": ["integer", "null"],
                        "description": "The total the session is played to; null when it ends "
                        "after a number of games, or at a limit (German Rummy).",
                    },
                    "variant": {"type": "string"},
                    "rules": {
                        "type": "object",
                        "description": "Every house rule of the session, defaults included.",
                    },
                    "games_left": {
                        "type": "integer",
                        "description": "Only for a session of a fixed number of games.",
                    },
                    "players": {
                        "type": "array",
                        "items": {"$ref": "#/components/schemas/Player"},
                        "description": "The players at the table, in seating order (clockwise).",
                    },
                    "left": {
                        "type": "array",
                        "items": {"$ref": "#/components/schemas/Player"},
                        "description": "The players who left the table between games: their "
                        "points stay in totals and in the games they played; to_go is null.",
                    },
                    "winner": {
                        "type": ["integer", "null"],
                        "description": "The player with the highest total when the session "
                        "ended (in German Rummy: the fewest minus points), among the players at "
                        "the table.",
                    },
                    "totals": {
                        **_POINTS,
                        "description": "The sums of the games' points, of the players who "
                        "left too; German Rummy's are 0 or negative.",
                    },
                    "to_go": {
                        "type": "object",
                        "description": "Each player's distance to the target, or in German "
                        "Rummy to the limit (a total of -56 under a limit of -500 has 444 to go); "
                        "null when the session ends after a number of games.",
                        "additionalProperties": {"type": ["integer", "null"]},
                    },
                    "dealer": _ID,
                    "current_game": {"type": ["integer", "null"]},
                    "games": {
                        "type": "array",
                        "items": {"$ref": "#/components/schemas/GameSummary"},
                    },
                },
            },
            "Sheet": {
                "type": "object",
                "required": [
                    "session",
                    "variant",
                    "status",
                    "target",
                    "players",
                    "games",
                    "totals",
                ],
                "properties": {
                    "session": _SESSION_ID,
                    "variant": {"type": "string"},
                    "status": {"enum": ["open", "finished"]},
                    "target": {
                        "type": ["integer", "null"],
                        "description": "The total the session is played to, or null.",
                    },
                    "limit": {
                        "type": "integer",
                        "description": "German Rummy: the total that ends the session.",
                    },
                    "games_left": {
                        "type": "integer",
                        "description": "Only for a session of a fixed number of games.",
                    },
                    "players": {"type": "array", "items": {"$ref": "#/components/schemas/Player"}},
                    "games": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": [
                                "id",
                                "number",
                                "dealer",
                                "winner",
                                "romme",
                                "status",
                                "points",
                                "totals",
                            ],
                            "properties": {
                                "id": _ID,
                                "number": {"type": "integer"},
                                "dealer": _ID,
                                "winner": {"type": ["integer", "null"]},
                                "romme": {"type": ["boolean", "null"]},
                                "status": {"enum": ["open", "finished", "abandoned"]},
                                "points": {
                                    "type": "object",
                                    "description": "Each player's points in the game; null for "
                                    "a player who did not play it.",
                                    "additionalProperties": {"type": ["integer", "null"]},
                                },
                                "totals": {
                                    **_POINTS,
                                    "description": "Each player's total after the game.",
                                },
                            },
                        },
                    },
                    "totals": _POINTS,
                    "winner": {"type": ["integer", "null"]},
                },
            },
            "Export": {
                "type": "object",
                "required": ["format", "version", "sessions"],
                "properties": {
                    "format": {"const": transfer.FORMAT},
                    "version": {"type": "integer"},
                    "sessions": {"type": "array", "items": {"type": "object"}},
                },
            },
            "Meld": {
                "type": "object",
                "required": ["id", "player", "kind", "cards", "value"],
                "properties": {
                    "id": _ID,
                    "player": _ID,
                    "kind": {"enum": ["set", "sequence"]},
                    "cards": _CARDS_OUT,
                    "value": {"type": "integer"},
                    "jokers": _JOKERS,
                    "opening_value": _MELD_OPENING_VALUE,
                },
            },
            "Entry": {
                "type": "object",
                "required": ["id", "type", "player", "meld", "cards", "value"],
                "properties": {
                    "id": _ID,
                    "type": {
                        "enum": ["meld", "layoff", "swap"],
                        "description": "swap: a joker swap (German Rummy, G4).",
                    },
                    "player": _ID,
                    "meld": {
                        **_ID,
                        "description": "A layoff's meld; for a swap, the meld the joker left.",
                    },
                    "melds": {
                        "type": "array",
                        "items": _ID,
                        "description": "A meld entry's melds: one, or several put down at once; "
                        "for a swap, the new meld's id.",
                    },
                    "cards": {
                        **_CARDS_OUT,
                        "description": "The cards put down; for a swap, those put in the "
                        "joker's place and the new meld's.",
                    },
                    "values": {"type": "array", "items": {"type": "integer"}},
                    "value": {"type": "integer"},
                    "opening_value": _MELD_OPENING_VALUE,
                    "position": {"type": "integer"},
                    "created_at": {"type": "string", "format": "date-time"},
                },
            },
            "Game": {
                "type": "object",
                "required": [
                    "id",
                    "number",
                    "dealer",
                    "cards_dealt",
                    "first_player",
                    "status",
                    "melds",
                    "entries",
                    "points",
                    "audit",
                ],
                "properties": {
                    "id": _ID,
                    "session": _SESSION_ID,
                    "number": {"type": "integer"},
                    "dealer": _ID,
                    "cards_dealt": {"type": "integer", "description": "Cards dealt to each."},
                    "first_player": {**_ID, "description": "The player who plays first."},
                    "status": {"enum": ["open", "finished", "abandoned"]},
                    "winner": {"type": ["integer", "null"]},
                    "romme": {"type": ["boolean", "null"]},
                    "melds": {"type": "array", "items": {"$ref": "#/components/schemas/Meld"}},
                    "entries": {"type": "array", "items": {"$ref": "#/components/schemas/Entry"}},
                    "points": _POINTS,
                    "audit": {
                        "type": "array",
                        "items": {"$ref": "#/components/schemas/AuditLine"},
                        "description": "The audit trail: every correction, delete, undo and "
                        "reopen of the game, in time order. The points come from the entries "
                        "and the settlement as they stand, never from here.",
                    },
                },
            },
            "AuditLine": {
                "type": "object",
                "required": ["at", "action", "entry", "player", "before", "after", "text"],
                "properties": {
                    "at": {"type": "string", "format": "date-time"},
                    "action": {"enum": ["corrected", "deleted", "undone", "restored", "reopened"]},
                    "entry": {
                        "type": ["integer", "null"],
                        "minimum": 1,
                        "description": "The entry changed (of several melds, its first meld's "
                        "id); null for a reopen.",
                    },
                    "player": {
                        "type": ["integer", "null"],
                        "minimum": 1,
                        "description": "Whose entry it was (before a correction); for a reopen "
                        "the winner it had booked, null for an abandoned game.",
                    },
                    "before": {
                        "type": "object",
                        "description": "The entry as it stood (id, type, player, meld, melds, "
                        "cards, value as in entries; onto: the cards of the meld a layoff or "
                        "swap went onto, as recorded; meld_cards: the cards of each meld put "
                        "down, a swap's new meld), or for a reopen the result taken back "
                        "(status, winner, romme, hands, hand_points, factors, settlement, "
                        "points).",
                        "properties": {
                            "type": {"enum": ["meld", "layoff", "swap"]},
                            "player": _ID,
                            "cards": _CARDS_OUT,
                            "onto": _CARDS_OUT,
                            "meld_cards": {"type": "array", "items": _CARDS_OUT},
                            "value": {"type": "integer"},
                            "status": {"enum": ["finished", "abandoned"]},
                            "winner": {"type": ["integer", "null"]},
                            "romme": {"type": ["boolean", "null"]},
                            "hands": {"type": "object", "additionalProperties": _CARDS_OUT},
                            "hand_points": _POINTS,
                            "factors": _POINTS,
                            "settlement": _POINTS,
                            "points": _POINTS,
                        },
                    },
                    "after": {
                        "type": ["object", "null"],
                        "description": "A correction's entry as corrected, shaped as before; "
                        "null for a delete, an undo and a reopen.",
                    },
                    "text": {
                        "type": "string",
                        "description": "The line in words in the request's language (?lang=de), "
                        "e.g. corrected: 7♣ → 7♠, Bob → Ann; the time is in at.",
                    },
                },
            },
            "FinishRequest": models.Settlement.request_schema(),
            "Finish": {
                "type": "object",
                "required": [
                    "winner",
                    "romme",
                    "hand_points",
                    "paid",
                    "unmatched",
                    "matched",
                    "settlement",
                    "session",
                ],
                "properties": {
                    "game": _ID,
                    "status": {"type": "string"},
                    "winner": {"type": ["integer", "null"]},
                    "romme": {
                        "type": "boolean",
                        "description": "Whether the winner had a Rommé hand (German Rummy: a "
                        "Hand-Rommé, which doubles only by a house rule, GET /api/v1/variants).",
                    },
                    "romme_possible": {"type": "boolean"},
                    "romme_reason": {
                        "type": ["string", "null"],
                        "description": "In a preview: why the entries allow a Rommé hand or "
                        "not (the winner's entries after every other player's, with at least "
                        "the cards dealt), in the request's language; null when abandoning.",
                    },
                    "hand_points": {
                        **_POINTS,
                        "description": "What each loser's hand counts before doubling (Boathouse "
                        "Rum: its unmatched cards; German Rummy: all its cards, a joker 30 or as "
                        "the house rules say).",
                    },
                    "factors": _POINTS,
                    "settlement": {
                        **_POINTS,
                        "description": "Each player's points from the settlement. German Rummy: "
                        "0 for the winner, minus the hand for each loser, doubling included.",
                    },
                    "paid": {**_POINTS, "description": "What each loser pays, doubling included."},
                    "unmatched": {
                        "type": "object",
                        "description": "Boathouse Rum: each loser's cards paid for.",
                        "additionalProperties": _CARDS_OUT,
                    },
                    "matched": {
                        "type": "object",
                        "description": "Boathouse Rum: the melds found in each loser's hand.",
                        "additionalProperties": {"type": "array", "items": _CARDS_OUT},
                    },
                    "session": {"$ref": "#/components/schemas/Session"},
                },
            },
        },
    },
}


# --- groups: the people who play together, their sessions and statistics ------------------------

# A group's keys, sent as Authorization: Bearer, as a session's are for the session.
_GROUP_EDIT: list[dict[str, list[str]]] = [{"groupEditKey": []}]
_GROUP_VIEW: list[dict[str, list[str]]] = [{"groupEditKey": []}, {"groupViewKey": []}]


def _group_errors(*codes: int) -> dict[str, Any]:
    """Return the error answers of a request about a group: its 404 names the group."""
    answers = _errors(*(code for code in codes if code != 404))
    answers["404"] = _answer(
        "No such group, or the key is missing or wrong (the edit key is needed to write).", _ERROR
    )
    return answers


_MERGE: dict[str, Any] = {
    "type": "object",
    "required": ["name", "same_as"],
    "properties": {"name": {"type": "string"}, "same_as": {"type": "string"}},
}
_RECORDED = {
    "oneOf": [
        {
            "type": "object",
            "required": ["kind", "cards", "length", "value", "session", "game"],
            "properties": {
                "kind": _KIND,
                "cards": {**_CARDS_OUT, "description": "As put down at once; a joker as JKR."},
                "length": {"type": "integer", "minimum": 3},
                "value": {"type": "integer", "description": "What was written for it (R3)."},
                "session": _SESSION_ID,
                "game": {"type": "integer", "description": "The game's number."},
            },
        },
        {"type": "null"},
    ]
}

OPENAPI["paths"].update(
    {
        "/api/v1/groups": {
            "post": {
                "summary": "Start a group of people who play together (a Spielrunde)",
                "description": "Sessions join it with group and group_key on POST "
                "/api/v1/sessions; its statistics add them up per rule system.",
                "parameters": [_SECRET_IDEMPOTENCY_KEY],
                "requestBody": _body(models.NewGroup.request_schema()),
                "responses": {
                    "201": _answer(
                        "The new group with its keys, handed out only here.",
                        {"$ref": "#/components/schemas/NewGroup"},
                    ),
                    **_errors(400, 409, 413, 415, 422),
                },
            }
        },
        "/api/v1/groups/{group_id}": {
            "parameters": [_id_param("group_id")],
            "get": {
                "security": _GROUP_VIEW,
                "summary": "A group with its sessions, newest first, and its merged names",
                "responses": {
                    "200": _answer("The group.", {"$ref": "#/components/schemas/Group"}),
                    **_group_errors(404),
                },
            },
        },
        "/api/v1/groups/{group_id}/statistics": {
            "parameters": [_id_param("group_id"), _LANG],
            "get": {
                "security": _GROUP_VIEW,
                "summary": "What the group's sessions add up to, per rule system and person",
                "description": "A person is recognised by name, case and spaces ignored, and "
                "through merged names. Only games played to an end count (every player of "
                "an ended game, an abandoned one too).",
                "responses": {
                    "200": _answer(
                        "The statistics.", {"$ref": "#/components/schemas/GroupStatistics"}
                    ),
                    **_group_errors(404),
                },
            },
        },
        "/api/v1/groups/{group_id}/merges": {
            "parameters": [_id_param("group_id")],
            "post": {
                "security": _GROUP_EDIT,
                "summary": 'Count two names as one person ("Anni" is "Anna")',
                "description": "Both names must have played in the group (been dealt a "
                "game), not be one person already (case and spaces never count), and never "
                "have sat at the same session: else 422. The person keeps the name merged "
                "into; from then on the two names cannot both play in one session of the "
                "group (starting it, seating or renaming a player: 422).",
                "parameters": [_IDEMPOTENCY_KEY],
                "requestBody": _body(models.Merge.request_schema()),
                "responses": {
                    "201": _answer(
                        "The merge, and every merge of the group in the order made.",
                        {
                            **_MERGE,
                            "required": ["name", "same_as", "merges"],
                            "properties": {
                                **_MERGE["properties"],
                                "merges": {"type": "array", "items": _MERGE},
                            },
                        },
                    ),
                    **_group_errors(400, 404, 409, 413, 415, 422),
                },
            },
        },
    }
)
OPENAPI["components"]["securitySchemes"].update(
    {
        "groupEditKey": {
            "type": "http",
            "scheme": "bearer",
            "description": "A group's edit_key: reads the group, merges names, adds sessions.",
        },
        "groupViewKey": {
            "type": "http",
            "scheme": "bearer",
            "description": "A group's view_key: reads the group and its statistics only.",
        },
    }
)
OPENAPI["components"]["schemas"].update(
    {
        "Group": {
            "type": "object",
            "required": ["id", "name", "created_at", "merges", "sessions"],
            "properties": {
                "id": _GROUP_ID,
                "name": {"type": "string"},
                "created_at": {"type": "string", "format": "date-time"},
                "merges": {"type": "array", "items": _MERGE},
                "sessions": {
                    "type": "array",
                    "description": "Newest first.",
                    "items": {
                        "type": "object",
                        "required": [
                            "id",
                            "variant",
                            "status",
                            "created_at",
                            "games",
                            "players",
                            "totals",
                            "winner",
                        ],
                        "properties": {
                            "id": _SESSION_ID,
                            "variant": {"type": "string"},
                            "status": {"enum": ["open", "finished"]},
                            "created_at": {"type": "string", "format": "date-time"},
                            "games": {"type": "integer", "description": "Games ended."},
                            "players": {
                                "type": "array",
                                "items": {"$ref": "#/components/schemas/Player"},
                            },
                            "totals": {
                                **_POINTS,
                                "description": "As the session's totals (a game in play too).",
                            },
                            "winner": {"type": ["integer", "null"]},
                        },
                    },
                },
            },
        },
        "NewGroup": {
            "allOf": [
                {"$ref": "#/components/schemas/Group"},
                {
                    "type": "object",
                    "required": ["edit_key", "view_key"],
                    "properties": {
                        "edit_key": {
                            "type": "string",
                            "description": "Send as Authorization: Bearer to merge names, and "
                            "as group_key to add a session.",
                        },
                        "view_key": {
                            "type": "string",
                            "description": "Send as Authorization: Bearer to read only.",
                        },
                    },
                },
            ]
        },
        "GroupStatistics": {
            "type": "object",
            "required": ["id", "name", "merges", "rule_systems"],
            "properties": {
                "id": _GROUP_ID,
                "name": {"type": "string"},
                "merges": {"type": "array", "items": _MERGE},
                "rule_systems": {
                    "type": "array",
                    "description": "One for each rule system the group played, in the order "
                    "of GET /api/v1/variants: points of different systems do not add up.",
                    "items": {
                        "type": "object",
                        "required": [
                            "variant",
                            "title",
                            "sessions",
                            "games",
                            "people",
                            "last_results",
                        ],
                        "properties": {
                            "variant": {"type": "string"},
                            "title": {"type": "string"},
                            "sessions": {"type": "integer"},
                            "games": {"type": "integer", "description": "Games ended."},
                            "people": {
                                "type": "array",
                                "description": "Most sessions won first, then most games won.",
                                "items": {
                                    "type": "object",
                                    "required": [
                                        "name",
                                        "names",
                                        "sessions",
                                        "sessions_won",
                                        "games",
                                        "games_won",
                                        "points",
                                        "average",
                                        "romme",
                                        "best_meld",
                                        "longest_sequence",
                                    ],
                                    "properties": {
                                        "name": {
                                            "type": "string",
                                            "description": "The latest spelling of the "
                                            "person's own name, or the name merged into.",
                                        },
                                        "names": {
                                            "type": "array",
                                            "items": {"type": "string"},
                                            "description": "Every spelling played under.",
                                        },
                                        "sessions": {
                                            "type": "integer",
                                            "description": "Sessions with a game played to "
                                            "its end.",
                                        },
                                        "sessions_won": {"type": "integer"},
                                        "games": {
                                            "type": "integer",
                                            "description": "Games played to their end.",
                                        },
                                        "games_won": {"type": "integer"},
                                        "points": {
                                            "type": "integer",
                                            "description": "Over those games, as each game's "
                                            "points (the settlement included).",
                                        },
                                        "average": {
                                            "type": ["number", "null"],
                                            "description": "points / games; null before a "
                                            "game ended.",
                                        },
                                        "romme": {
                                            "type": "integer",
                                            "description": "Games won with a Rommé hand.",
                                        },
                                        "best_meld": {
                                            **_RECORDED,
                                            "description": "The highest value written, then "
                                            "the most cards (where melds score nothing: the "
                                            "most cards), then the first.",
                                        },
                                        "longest_sequence": {
                                            **_RECORDED,
                                            "description": "The sequence of the most cards "
                                            "put down at once, then the highest value.",
                                        },
                                    },
                                },
                            },
                            "last_results": {
                                "type": "array",
                                "description": "The latest sessions, newest first.",
                                "items": {
                                    "type": "object",
                                    "required": [
                                        "session",
                                        "created_at",
                                        "status",
                                        "games",
                                        "winner",
                                        "totals",
                                    ],
                                    "properties": {
                                        "session": _SESSION_ID,
                                        "created_at": {"type": "string", "format": "date-time"},
                                        "status": {"enum": ["open", "finished"]},
                                        "games": {"type": "integer"},
                                        "winner": {"type": ["string", "null"]},
                                        "totals": {
                                            "type": "array",
                                            "description": "In the order of the standing.",
                                            "items": {
                                                "type": "object",
                                                "required": ["name", "total"],
                                                "properties": {
                                                    "name": {"type": "string"},
                                                    "total": {"type": "integer"},
                                                },
                                            },
                                        },
                                    },
                                },
                            },
                        },
                    },
                },
            },
        },
    }
)
