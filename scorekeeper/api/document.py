"""The OpenAPI 3.1 document of /api/v1, served at /api/v1/openapi.json, assembled from the models.

Every schema of a body comes from a model: the requests' from the models that validate them
(``api.models``), the answers' from the models that describe them (``api.answers``). What
a model cannot say lives here, once: the paths, what each operation does, its parameters and
keys, its status codes and what each error answer means.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field, TypeAdapter

from scorekeeper.api import answers, models
from scorekeeper.api.idempotency import LONGEST_KEY

# The answer models the document names; their schemas (and those they hold) are its components.
ANSWERS: list[type[BaseModel]] = [answers.Error]
# Every request about a session, its games or entries sends one of the session's keys.
_EDIT: list[dict[str, list[str]]] = [{"editKey": []}]
_VIEW: list[dict[str, list[str]]] = [{"editKey": []}, {"viewKey": []}]


def _answer(description: str, model: type[BaseModel], *, whole: bool = False) -> dict[str, Any]:
    """Return an answer whose body the model describes (``whole``: written in place)."""
    if model not in ANSWERS:
        ANSWERS.append(model)
    schema = answers.inline(model) if whole else answers.ref(model)
    content = {"application/json": {"schema": schema}}
    return {"description": description, "content": content}


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
    return {str(code): _answer(meaning[code], answers.Error) for code in codes}


def _tagged(description: str, model: type[BaseModel]) -> dict[str, Any]:
    """Return a read's answer with its ETag, and the 304 the read answers while it holds."""
    return {
        "200": {**_answer(description, model), "headers": {"ETag": _ETAG}},
        "304": {
            "description": "Nothing changed since the ETag sent as If-None-Match: no body.",
            "headers": {"ETag": _ETAG},
        },
    }


def _too_many() -> dict[str, Any]:
    """Return the 429 of the requests that start a session (SESSION_LIMIT)."""
    answer = _answer(
        "Too many sessions started from this address (the server's SESSION_LIMIT, 30 a minute "
        "by default; the API and the start page together, a new group counting as a session).",
        answers.Error,
    )
    return {"429": {**answer, "headers": {"Retry-After": _RETRY_AFTER}}}


def _busy() -> dict[str, Any]:
    """Return the 429 of a long answer refused while others are prepared (long_reads)."""
    answer = _answer(
        "The server is preparing as many long answers as it prepares at once: two per session "
        "or group, one per client address, and a quarter of its threads in all. Nothing was "
        "read; ask again after Retry-After.",
        answers.Error,
    )
    return {"429": {**answer, "headers": {"Retry-After": _RETRY_SECONDS}}}


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
    "schema": TypeAdapter(
        Annotated[str, Field(min_length=1, max_length=LONGEST_KEY)]
    ).json_schema(),
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


_TEXT = TypeAdapter(str).json_schema()
_ETAG = {
    "description": "The version of what was read (the session's, for a game or the sheet); "
    "sent back as If-None-Match, it is answered 304 while nothing changed.",
    "schema": _TEXT,
}
_RETRY_AFTER = {
    "description": "The seconds to wait before another session can be started.",
    "schema": TypeAdapter(int).json_schema(),
}
_RETRY_SECONDS = {
    "description": "The seconds to wait before asking again.",
    "schema": TypeAdapter(int).json_schema(),
}
_IF_NONE_MATCH = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": "The ETag of an answer read before: 304 without a body while it still holds.",
    "schema": _TEXT,
}
_LANG = {
    "name": "lang",
    "in": "query",
    "required": False,
    "schema": _TEXT,
    "description": "de for German; English otherwise.",
}


def _id_param(name: str) -> dict[str, Any]:
    kind = {
        "session_id": answers.SessionId,
        "group_id": answers.GroupId,
        "evening_id": answers.EveningId,
    }.get(name, answers.Id)
    schema = TypeAdapter(kind).json_schema()
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
                    "200": _answer("The OpenAPI document of this API.", answers.Document)
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
                        answers.Variants,
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
                    "200": _answer("The verdict.", answers.Check),
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
                        answers.NewSession,
                    ),
                    "404": _answer(
                        "No such group, or group_key is not its edit key.", answers.Error
                    ),
                    **_errors(400, 409, 413, 415, 422),
                    **_too_many(),
                },
            }
        },
        "/api/v1/sessions/{session_id}": {
            "parameters": [_id_param("session_id")],
            "get": {
                "security": _VIEW,
                "summary": "A session with its totals and games",
                "parameters": [_IF_NONE_MATCH],
                "responses": {
                    **_tagged("The session.", answers.Session),
                    **_errors(404),
                    **_busy(),
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
                    "200": _answer("The session with its new end.", answers.Session),
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
                        answers.Session,
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
                        answers.Session,
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
                        answers.Session,
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
                    "201": _answer("The new game.", answers.Game),
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
                "parameters": [_IF_NONE_MATCH],
                "responses": {
                    **_tagged("The score sheet.", answers.Sheet),
                    **_errors(404),
                    **_busy(),
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
                        "schema": _TEXT,
                    },
                ],
                "responses": {
                    "200": {
                        "description": "The CSV file.",
                        "content": {"text/csv": {"schema": _TEXT}},
                    },
                    **_errors(404),
                    **_busy(),
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
                    "200": _answer("The export document.", answers.Export),
                    **_errors(404),
                    **_busy(),
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
                "parameters": [_IF_NONE_MATCH],
                "responses": {
                    **_tagged("The game.", answers.Game),
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
                        answers.MeldRecorded,
                        whole=True,
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
                    "201": _answer("The layoff, with the meld as it lies now.", answers.Layoff),
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
                        answers.Swap,
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
                        "The entry as corrected, and the game after it.", answers.Corrected
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
                    "200": _answer("The verdict.", answers.Check),
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
                        "The id of the undone entry and the game after it.", answers.Undone
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
                    "200": _answer("The settlement.", answers.Finish),
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
                    "200": _answer("The game, open again.", answers.Game),
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
                    "200": _answer("The settlement.", answers.Finish),
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
        "schemas": {"FinishRequest": models.Settlement.request_schema()},
    },
}


# --- groups: the people who play together, their sessions and statistics ------------------------

# A group's keys, sent as Authorization: Bearer, as a session's are for the session.
_GROUP_EDIT: list[dict[str, list[str]]] = [{"groupEditKey": []}]
_GROUP_VIEW: list[dict[str, list[str]]] = [{"groupEditKey": []}, {"groupViewKey": []}]


def _group_errors(*codes: int) -> dict[str, Any]:
    """Return the error answers of a request about a group: its 404 names the group."""
    refusals = _errors(*(code for code in codes if code != 404))
    refusals["404"] = _answer(
        "No such group, or the key is missing or wrong (the edit key is needed to write).",
        answers.Error,
    )
    return refusals


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
                        answers.NewGroup,
                    ),
                    **_errors(400, 409, 413, 415, 422),
                    **_too_many(),
                },
            }
        },
        "/api/v1/groups/{group_id}": {
            "parameters": [_id_param("group_id")],
            "get": {
                "security": _GROUP_VIEW,
                "summary": "A group with its sessions, newest first, and its merged names",
                "responses": {
                    "200": _answer("The group.", answers.Group),
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
                    "200": _answer("The statistics.", answers.GroupStatistics),
                    **_group_errors(404),
                    **_busy(),
                },
            },
        },
        "/api/v1/groups/{group_id}/season": {
            "parameters": [
                _id_param("group_id"),
                {
                    "name": "best",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "integer", "minimum": 1},
                    "description": "Count each person's best k evenings (e.g. 7); left out: all.",
                },
                {
                    "name": "evenings",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "integer", "minimum": 1},
                    "description": "The season's evenings (e.g. 12), no fewer than are held; "
                    "best may not exceed it. Left out: as many as are held.",
                },
            ],
            "get": {
                "security": _GROUP_VIEW,
                "summary": "The club's season: its evenings ranked by points for places",
                "description": "Each evening of the group gives each of its players the players "
                "ranked less their place plus 1; a person's season is the sum of their evenings, "
                "or of their best k (ties by the counted evenings, best first). Names merged "
                "are one person. An evening still being played counts as it stands. A best or "
                "evenings that cannot be: 422 (ruling E11).",
                "responses": {
                    "200": _answer("The season.", answers.Season),
                    **_group_errors(404, 422),
                    **_busy(),
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
                        answers.Merged,
                    ),
                    **_group_errors(400, 404, 409, 413, 415, 422),
                },
            },
        },
    }
)
# --- club evenings: several tables, series, one ranking -----------------------------------------

_EVENING_EDIT: list[dict[str, list[str]]] = [{"eveningEditKey": []}]
_EVENING_VIEW: list[dict[str, list[str]]] = [{"eveningEditKey": []}, {"eveningViewKey": []}]


def _evening_errors(*codes: int) -> dict[str, Any]:
    """Return the error answers of a request about an evening: its 404 and 409 name it."""
    refusals = _errors(*(code for code in codes if code not in (404, 409)))
    if 404 in codes:
        refusals["404"] = _answer(
            "No such evening, or the key is missing or wrong (the edit key is needed to write).",
            answers.Error,
        )
    if 409 in codes:
        refusals["409"] = _answer(
            "Not now: a table of the series is still playing, every series is seated, play "
            "has begun (no draw again), or the first request with this Idempotency-Key is "
            "still being answered.",
            answers.Error,
        )
    return refusals


OPENAPI["paths"].update(
    {
        "/api/v1/evenings": {
            "post": {
                "summary": "Start a club evening (a Spielabend): series 1 drawn, a session a table",
                "description": "One rule system for every table; 6 to 60 players; a series "
                "ends after games_per_series games or after minutes_per_series minutes (the "
                "game being played then is the last). Each table is a session with its own "
                "edit key (given with the evening's edit key). The rulings are E1-E12 of the "
                "rules page.",
                "parameters": [_SECRET_IDEMPOTENCY_KEY],
                "requestBody": _body(models.NewEvening.request_schema()),
                "responses": {
                    "201": _answer(
                        "The new evening with its keys, handed out only here.",
                        answers.NewEvening,
                    ),
                    **_errors(400, 409, 413, 415, 422),
                },
            }
        },
        "/api/v1/evenings/{evening_id}": {
            "parameters": [_id_param("evening_id")],
            "get": {
                "security": _EVENING_VIEW,
                "summary": "An evening's series with their tables, and its ranking",
                "description": "With the edit key each table carries its session's edit_key; "
                "with the view key it does not.",
                "responses": {
                    "200": _answer("The evening.", answers.Evening),
                    **_evening_errors(404),
                },
            },
        },
        "/api/v1/evenings/{evening_id}/series": {
            "parameters": [_id_param("evening_id")],
            "post": {
                "security": _EVENING_EDIT,
                "summary": "Seat the next series, once every table of the latest has ended",
                "description": "By the standing (places 1-4 at table 1, …) or drawn, as the "
                "evening's seating says; 409 while a table still plays.",
                "parameters": [_IDEMPOTENCY_KEY],
                "responses": {
                    "201": _answer("The evening with the new series.", answers.Evening),
                    **_evening_errors(404, 409, 415),
                },
            },
        },
        "/api/v1/evenings/{evening_id}/draw": {
            "parameters": [_id_param("evening_id")],
            "post": {
                "security": _EVENING_EDIT,
                "summary": "Draw the latest series again, before play begins at its tables",
                "description": "The tables keep their sessions and keys; other players sit "
                "there. 409 once an entry was recorded or a game ended at a table of it, or "
                "for a series seated by the standing.",
                "parameters": [_IDEMPOTENCY_KEY],
                "responses": {
                    "200": _answer("The evening as drawn again.", answers.Evening),
                    **_evening_errors(404, 409, 415),
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
        "eveningEditKey": {
            "type": "http",
            "scheme": "bearer",
            "description": "An evening's edit_key: seats its series, gives each table's key.",
        },
        "eveningViewKey": {
            "type": "http",
            "scheme": "bearer",
            "description": "An evening's view_key: reads its tables and ranking (the board).",
        },
    }
)
OPENAPI["components"]["schemas"].update(answers.schemas(ANSWERS))
