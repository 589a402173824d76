"""Endpoints of /api/v1: each reads the JSON body, calls one service, and answers."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import Blueprint, Flask, Response, current_app, g, jsonify, render_template, request
from flask_babel import force_locale, gettext
from flask_babel import lazy_gettext as _l
from pydantic import ValidationError
from spectree import SpecTree
from spectree.plugins.base import Context
from spectree.plugins.flask_plugin import FlaskPlugin
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from scorekeeper import queries, rules, services, store, transfer
from scorekeeper.api import answers, models
from scorekeeper.api.body import NotUnicodeError, json_body, require_json
from scorekeeper.api.document import OPENAPI
from scorekeeper.api.idempotency import (
    AnswerLost,
    IdempotencyError,
    StillAnswering,
    idempotent,
    scope_to_caller,
)
from scorekeeper.api.models import BadBody
from scorekeeper.http.arguments import whole_argument
from scorekeeper.keys import Access, SessionKeys, digest
from scorekeeper.long_reads import RETRY_SECONDS, LongReadsBusy, long_read

bp = Blueprint("api", __name__, url_prefix="/api/v1")


class _Validation(FlaskPlugin):
    """Spectree's Flask plugin, lighter: it validates only the body, parsed once, by its model.

    The body is read as ``api.body`` reads it (once per request, refused before this when it
    is not a JSON object); no query, header or cookie model is declared, and no answer model,
    so the answer goes out as the view made it.
    """

    def request_validation(
        self, request: Any, query: Any, json: Any, form: Any, headers: Any, cookies: Any
    ) -> None:
        body = json_body() if request.get_data() else {}
        request.context = Context(
            None, self.model_adapter.validate_obj(json, body), None, None, None
        )

    def validate_response(
        self, resp: Any, resp_model: Any, skip_validation: bool, force_resp_serialize: bool
    ) -> tuple[Any, None]:
        return resp, None


# The views that take a body declare its model (``takes``); spectree validates with it.
spec = SpecTree("flask", backend=_Validation, annotations=False)
Model = TypeVar("Model", bound=models.Body)
View = TypeVar("View", bound=Callable[..., Any])


def _language() -> str:
    """Return the language of error messages: ``?lang=de`` for German, English otherwise."""
    # Any other value (``?lang=xx``) is English: a locale the app does not know must not fail.
    return rules.language_of(request.args.get("lang", "en"))


def _text(error: Exception) -> str:
    if isinstance(error, rules.RulesError | services.ServiceError):
        return error.message(_language())
    return _in_request_language(error)


def _in_request_language(message: object) -> str:
    """Return a message (or an error holding one) in the language the request asked for."""
    with force_locale(_language()):
        return str(message)


@bp.errorhandler(rules.RulesError)
@bp.errorhandler(services.InvalidRequestError)
@bp.errorhandler(BadBody)
def _unprocessable(error: ValueError) -> tuple[Response, int]:
    store.rollback()
    return jsonify(error=_text(error)), 422


@bp.errorhandler(IdempotencyError)
def _bad_key(error: IdempotencyError) -> tuple[Response, int]:
    store.rollback()
    return jsonify(error=_in_request_language(error)), 422


# What a repeat is told when the first request with its key has no answer to give (409).
_NOT_ANSWERED = {
    AnswerLost: _l(
        "The first request with this Idempotency-Key was applied, but its answer was "
        "lost: read the game or the session to see where things stand."
    ),
    StillAnswering: _l(
        "The first request with this Idempotency-Key is still being answered: "
        "send it again in a moment."
    ),
}


@bp.errorhandler(StillAnswering)  # and AnswerLost, a kind of it
def _not_answered(error: StillAnswering) -> tuple[Response, int]:
    store.rollback()
    return jsonify(error=_in_request_language(_NOT_ANSWERED[type(error)])), 409


@bp.errorhandler(services.NotFoundError)
def _not_found(error: LookupError) -> tuple[Response, int]:
    store.rollback()
    return jsonify(error=_text(error)), 404


@bp.errorhandler(services.ConflictError)
@bp.errorhandler(rules.NextSeriesError)
@bp.errorhandler(rules.RedrawError)
def _conflict(error: services.ConflictError | rules.RulesError) -> tuple[Response, int]:
    store.rollback()
    return jsonify(error=_text(error)), 409


@bp.errorhandler(LongReadsBusy)
def _long_reads_busy(_error: LongReadsBusy) -> tuple[Response, int]:
    store.rollback()
    response = jsonify(error=_in_request_language(LONG_READS_BUSY))
    response.headers["Retry-After"] = str(RETRY_SECONDS)
    return response, 429


@bp.errorhandler(HTTPException)
def _http_error(error: HTTPException) -> tuple[Response, int]:
    store.rollback()
    if error.code == 413:
        largest = (current_app.config["MAX_CONTENT_LENGTH"] or 0) // 1024
        message = _l(
            "The body is too large: an API request may have at most %(size)s KB.", size=largest
        )
    else:
        message = _HTTP_ERRORS.get(error.code or 0, error.description or error.name)
    response = jsonify(error=_in_request_language(message))
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        # HTTP asks a 405 to say which methods the address takes.
        response.headers["Allow"] = ", ".join(sorted(error.valid_methods))
    return response, (error.code or 500)


SERVER_ERROR = _l("Something went wrong on the server; nothing was saved.")
LONG_READS_BUSY = _l(
    "The server is preparing other long answers (score sheets, charts, files, statistics) right "
    "now. Try again in a moment."
)

# Werkzeug's own texts speak of URLs and servers; these say what a client can do about it.
_HTTP_ERRORS = {
    404: _l("There is no such address in the API: see /api/v1/openapi.json."),
    405: _l("This address does not take this method: see /api/v1/openapi.json."),
    415: _l("The API takes JSON only: send the body with Content-Type: application/json."),
}


def register_error_pages(app: Flask) -> None:
    """Answer errors under /api/ in JSON, also those raised before a view is found."""

    @app.errorhandler(HTTPException)
    def _api_http_error(error: HTTPException) -> Any:
        if not request.path.startswith(bp.url_prefix or "/api"):
            return error
        return _http_error(error)

    @app.errorhandler(Exception)
    def _api_server_error(error: Exception) -> Any:
        if isinstance(error, HTTPException):
            return _api_http_error(error)
        app.logger.exception("Unhandled error on %s", request.path)
        store.rollback()
        if request.path.startswith(bp.url_prefix or "/api"):
            return jsonify(error=_in_request_language(SERVER_ERROR)), 500
        try:
            page = render_template(
                "message.html", title=gettext("Something went wrong"), message=str(SERVER_ERROR)
            )
        except Exception:  # the page may be what is broken; the words still reach the phone
            page = "Something went wrong on the server; nothing was saved."
        return page, 500


# Requests that read, whichever key they carry; every other request about a session writes.
_READS = {"api.get_session", "api.get_game", "api.preview_settlement"}
# The score sheet and the session's files: read with either key, as the session is.
_READS |= {"api.get_sheet", "api.get_sheet_csv", "api.export_session"}
# A group's sessions, statistics and season: read with either of the group's keys.
_READS |= {"api.get_group", "api.group_statistics", "api.group_season"}
# Checking an entry in a game writes nothing: a watching phone may ask too.
_READS |= {"api.check_in_game"}
# An evening's series, tables and ranking: read with either of the evening's keys.
_READS |= {"api.get_evening"}
_WRITES = {"POST", "PUT", "PATCH", "DELETE"}


# The order of these two matters: Flask runs a blueprint's before_request functions in order.
@bp.before_request
def _require_json() -> None:
    """Refuse a write whose body is not declared JSON (415), before anything else happens.

    A web page of another site can send ``text/plain``, a form or a multipart upload to any
    address without asking the browser's leave (with ``fetch(…, {mode: "no-cors"})``), but
    not ``application/json``. The answer depends on the request alone, so it tells a stranger
    nothing about any session. A write without a body needs no Content-Type (``require_json``).
    """
    if request.method in _WRITES:
        require_json()


@bp.before_request
def _require_key() -> None:
    """Let a request about a session in only with its key: the edit key to write.

    Runs before anything else but the content type's check, an ``Idempotency-Key`` replay
    included, so a stranger learns nothing, not even whether the session exists. The key that
    let the request in scopes its ``Idempotency-Key``; a request about no session has none.
    """
    arguments = request.view_args or {}
    need = Access.VIEW if request.endpoint in _READS else Access.EDIT
    reads = request.method == "GET"  # asks for no write lock (see services.access)
    caller = None
    if "session_id" in arguments:
        session_id = arguments["session_id"]
        opened = services.access_to_session_id(session_id, _bearer, need, reads_only=reads)
        g.api_session_id, g.api_session_version = opened.session_id, opened.version
        caller = digest(_bearer(arguments["session_id"]) or "")
    elif "game_id" in arguments:
        opened = services.access_to_game(arguments["game_id"], _bearer, need, reads_only=reads)
        g.api_session_version = opened.version
        caller = digest(_bearer("") or "")
    elif "group_id" in arguments:
        g.api_group, _granted = services.access_to_group(
            arguments["group_id"], _bearer(""), need, reads_only=reads
        )
        caller = digest(_bearer("") or "")
    elif "evening_id" in arguments:
        g.api_evening, g.api_evening_access = services.access_to_evening(
            arguments["evening_id"], _bearer(""), need, reads_only=reads
        )
        caller = digest(_bearer("") or "")
    scope_to_caller(caller)


def _bearer(_public_id: str) -> str | None:
    """Return the key of ``Authorization: Bearer <key>``, if the request carries one."""
    scheme, _, key = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return key.strip() or None


def _session_id() -> int:
    """Return the id of the session the key opened (see ``_require_key``)."""
    session_id: int = g.api_session_id
    return session_id


# --- reading the body ------------------------------------------------------------------------


def _body() -> dict[str, Any]:
    try:
        data = json_body()
    except NotUnicodeError:
        raise BadBody(
            _l("The body holds text that is not Unicode (half a character, such as \\ud800).")
        ) from None
    except ValueError:
        return _malformed()
    if not isinstance(data, dict):
        raise BadBody(_l("The body must be a JSON object."))
    return data


def _malformed() -> dict[str, Any]:
    from werkzeug.exceptions import BadRequest

    raise BadRequest(_l("The body is not valid JSON."))


def takes(model: type[models.Body]) -> Callable[[View], View]:
    """Declare the model of a view's JSON body: spectree validates the body with it.

    The view reads the body as the model (``_sent``). A body that is not a JSON object is
    refused first, as before (400, 422); one the model refuses is answered with the model's
    sentence for the field (``models.Body.refusal``), never with the library's list of errors.
    """

    def refuse(
        _request: Any, _response: Any, error: Exception | None, _instance: Any, _adapter: Any
    ) -> None:
        if isinstance(error, ValidationError):
            raise model.refusal(error)

    validate = spec.validate(json=model, before=refuse)

    def declare(view: View) -> View:
        validated = validate(view)

        @functools.wraps(view)
        def read_first(*args: Any, **kwargs: Any) -> Any:
            if not (model.optional and not request.get_data()):
                _body()
            return validated(*args, **kwargs)

        return cast(View, read_first)

    return declare


def _sent(model: type[Model]) -> Model:
    """Return the body of the request, as the model of the view (``takes``) read it."""
    body = request.context.json  # type: ignore[attr-defined]
    assert isinstance(body, model)
    return body


def _answer(answer: answers.Answer | answers.Variants) -> Response:
    """Answer with an answer model's JSON (``json_text``), as ``jsonify`` answers a dict."""
    text = answer.json_text() + "\n"
    return current_app.response_class(text, mimetype="application/json")


@bp.get("/openapi.json")
def openapi() -> Response:
    """Serve the OpenAPI document of this API."""
    return jsonify(OPENAPI)


@bp.get("/variants")
def variants() -> Response:
    """List the rule systems a session can be played by, with their house rules."""
    listed = (rules.find_variant(name) for name in rules.VARIANTS)
    return _answer(answers.Variants.of(listed, _language()))


@bp.post("/check")
@takes(models.CheckCards)
def check() -> Response:
    """Check cards as a meld, as a layoff ``onto`` a meld, or as a joker swap, recording nothing.

    A joker in doubt (G2) is no meld yet: the answer names the cards it may stand for.
    """
    body = _sent(models.CheckCards)
    variant = rules.find_variant(body.variant, body.rules)
    read = variant.read_cards
    cards = read(body.cards)
    try:
        if body.sent("new_meld"):
            swap = rules.swap_joker(read(body.onto or ""), cards, read(body.new_meld), variant)
            answer = answers.Check.of_swap(swap, variant)
        elif body.onto is None:
            answer = answers.Check.of_meld(rules.classify_pieces(cards, variant), variant)
        else:
            layoff = rules.lay_off_pieces(read(body.onto), cards, variant)
            answer = answers.Check.of_layoff(layoff, variant)
    except rules.CardNotationError:
        raise
    except rules.RulesError as error:
        answer = answers.Check.refused(error, _language())
    return _answer(answer)


@bp.post("/games/<int:game_id>/check")
@takes(models.GameCheck)
def check_in_game(game_id: int) -> Response:
    """Check an entry against the game as it lies (the table, the copies left, the opening).

    Recording nothing: ``player`` and ``cards`` (or ``melds``) for a meld, with ``onto`` (a
    meld's id) for a layoff, and ``new_meld`` too for a joker swap. Answers as ``/check`` does;
    ``valid`` is false, with the ``error`` recording would give, when the record would be
    refused.
    """
    body = _sent(models.GameCheck)
    player = body.player if body.sent("player") else None
    return _answer(answers.game_check(game_id, player, body.fields(), _language()))


@bp.post("/sessions")
@idempotent
@takes(models.NewSession)
def create_session() -> tuple[Response, int]:
    """Seat the players and open a session."""
    body = _sent(models.NewSession)
    group = _group_of(body)
    keys = SessionKeys.new()
    session = services.create_session(
        body.players,
        body.target,
        body.first_dealer(),
        variant=body.variant,
        house_rules=body.rules,
        keys=keys,
        group=group.id if group is not None else None,
    )
    summary = queries.summarize_session(session)
    group_id = group.public_id if group is not None else None
    return _answer(answers.NewSession.of_new(summary, keys, group_id)), 201


def _group_of(body: models.NewSession | models.NewEvening) -> queries.GroupRow | None:
    """Return the group a new session joins: ``group``, opened by its edit key ``group_key``."""
    if body.group is None:
        return None
    group, _granted = services.access_to_group(body.group, body.group_key, Access.EDIT)
    return group


@bp.get("/sessions/<session_id>")
def get_session(session_id: str) -> Response:
    """Return a session with its totals and games; 304 when the client's ETag is still true."""
    unchanged = _not_modified()
    if unchanged is not None:
        return unchanged
    with long_read("session", session_id):
        session = queries.get_session(_session_id())
        return _tagged(_answer(answers.Session.of(queries.summarize_session(session))))


@bp.patch("/sessions/<session_id>")
@idempotent
@takes(models.NewEnd)
def change_session(session_id: str) -> Response:
    """Play the session to another end between games: ``rules.end``, or ``target`` for short."""
    body = _sent(models.NewEnd)
    if set(body.rules) - {"end"}:
        raise services.InvalidRequestError("only_the_end_changes")
    end = body.rules.get("end")
    if body.sent("target"):
        # ``target`` is short for the end at that target.
        if end is not None and end != rules.TARGET.of(body.target):
            raise BadBody(_l("Send the target or the end, not both."))
        end = rules.TARGET.of(body.target)
    if not isinstance(end, dict):
        raise BadBody(_l('Send the new end, e.g. {"rules": {"end": {"target": 1000}}}.'))
    session = services.change_end(_session_id(), end)
    return _answer(answers.Session.of(queries.summarize_session(session)))


@bp.patch("/sessions/<session_id>/players/<int:player_id>")
@idempotent
@takes(models.PlayerName)
def rename_player(session_id: str, player_id: int) -> Response:
    """Give a player another name: ``{"name": "Anna"}``."""
    session = services.rename_player(_session_id(), player_id, _sent(models.PlayerName).name)
    return _answer(answers.Session.of(queries.summarize_session(session)))


@bp.post("/sessions/<session_id>/players")
@idempotent
@takes(models.NewPlayer)
def seat_player(session_id: str) -> tuple[Response, int]:
    """Seat a new player between games: ``{"name": "Dan", "seat": 2}`` or ``"after": <id>``.

    ``after`` (the id of the player to sit after, 0 for first) stays right when another client
    changes the seating at the same moment; ``seat`` is a number in the seating as it is then.
    """
    body = _sent(models.NewPlayer)
    session = services.seat_player(_session_id(), body.name, body.seat, after=body.after)
    return _answer(answers.Session.of(queries.summarize_session(session))), 201


@bp.delete("/sessions/<session_id>/players/<int:player_id>")
@idempotent
def unseat_player(session_id: str, player_id: int) -> Response:
    """Let a player leave the table between games; their points stay in the totals."""
    session = services.unseat_player(_session_id(), player_id)
    return _answer(answers.Session.of(queries.summarize_session(session)))


@bp.post("/sessions/<session_id>/games")
@idempotent
def start_game(session_id: str) -> tuple[Response, int]:
    """Start the session's next game."""
    game = services.start_game(_session_id())
    return _answer(answers.Game.of(game)), 201


@bp.get("/games/<int:game_id>")
def get_game(game_id: int) -> Response:
    """Return a game with its melds, entries and points; 304 when the client's ETag is true."""
    unchanged = _not_modified()
    if unchanged is not None:
        return unchanged
    game = queries.with_audit(queries.read_game(game_id))
    return _tagged(_answer(answers.Game.of(game, _language())))


def _etag() -> str:
    """Return the version of the session the key opened, as an ETag's value.

    Every change to a session or its games counts its version up in the change's transaction,
    so an ETag read when the key was checked says whether an answer read before still holds.
    """
    return f"v{g.api_session_version}"


def _not_modified() -> Response | None:
    """Answer 304 with no body when the client already has this version (If-None-Match)."""
    if _etag() not in request.if_none_match:
        return None
    response = Response(status=304)
    response.set_etag(_etag())
    return response


def _tagged(response: Response) -> Response:
    response.set_etag(_etag())
    return response


@bp.post("/games/<int:game_id>/melds")
@idempotent
@takes(models.NewMeld)
def record_meld(game_id: int) -> tuple[Response, int]:
    """Record a new meld (``cards``), or several put down at once as one entry (``melds``)."""
    body = _sent(models.NewMeld)
    if body.sent("melds"):
        several = services.record_melds(game_id, body.player, body.melds, tapped_at=body.tap_time)
        return _answer(answers.SeveralMelds.of(several)), 201
    recorded = services.record_meld(game_id, body.player, body.cards, tapped_at=body.tap_time)
    return _answer(answers.MeldWithEntry.of_recorded(recorded)), 201


@bp.post("/games/<int:game_id>/swaps")
@idempotent
@takes(models.NewSwap)
def record_swap(game_id: int) -> tuple[Response, int]:
    """Record a joker swap (G4): ``cards`` put in the joker's place in ``meld``, ``new_meld``."""
    body = _sent(models.NewSwap)
    swap = services.record_swap(
        game_id, body.player, body.meld, body.cards, body.new_meld, tapped_at=body.tap_time
    )
    return _answer(answers.Swap.of(swap)), 201


@bp.post("/games/<int:game_id>/layoffs")
@idempotent
@takes(models.NewLayoff)
def record_layoff(game_id: int) -> tuple[Response, int]:
    """Record cards laid off onto a meld on the table."""
    body = _sent(models.NewLayoff)
    recorded = services.record_layoff(
        game_id, body.player, body.meld, body.cards, tapped_at=body.tap_time
    )
    return _answer(answers.Layoff.of(recorded)), 201


@bp.delete("/games/<int:game_id>/entries/<int:entry_id>")
def delete_entry(game_id: int, entry_id: int) -> tuple[str, int]:
    """Delete an entry that nothing on the table depends on."""
    services.delete_entry(game_id, entry_id)
    return "", 204


@bp.patch("/games/<int:game_id>/entries/<int:entry_id>")
@idempotent
@takes(models.Correction)
def correct_entry(game_id: int, entry_id: int) -> Response:
    """Correct an entry: new ``cards``, the ``player`` who played it, a layoff's ``meld``."""
    body = _sent(models.Correction)
    corrected = services.correct_entry(game_id, entry_id, body.cards, body.player, body.meld)
    return _answer(answers.Corrected.of(corrected, _language()))


@bp.post("/games/<int:game_id>/undo")
@idempotent
@takes(models.Undo)
def undo(game_id: int) -> Response:
    """Delete the latest entry of the game and return it.

    An optional body ``{"entry": id}`` names the entry the client saw last: when that is no
    longer the latest, nothing is undone (409), so a repeated undo cannot take back two.
    """
    body = _sent(models.Undo)
    undone = services.undo_last_entry(game_id, body.entry if body.sent("entry") else None)
    return _answer(answers.Undone.of(undone, _language()))


@bp.post("/games/<int:game_id>/reopen")
@idempotent
def reopen(game_id: int) -> Response:
    """Take back the booking of the session's last ended game and play it on."""
    game = services.reopen_game(game_id)
    return _answer(answers.Game.of(game, _language()))


@bp.post("/games/<int:game_id>/finish")
@idempotent
@takes(models.Settlement)
def finish(game_id: int) -> Response:
    """Settle the game (``winner``) or abandon it (``winner: null``)."""
    body = _sent(models.Settlement)
    finish = services.finish_game(game_id, body.winner, body.hands_by_player(), body.romme)
    return _answer(answers.Finish.of(finish))


@bp.post("/games/<int:game_id>/settlement")
@takes(models.Settlement)
def preview_settlement(game_id: int) -> Response:
    """Show what finishing the game would book, without writing anything."""
    body = _sent(models.Settlement)
    finish = services.preview_finish(game_id, body.winner, body.hands_by_player(), body.romme)
    answer = answers.Finish.preview(finish, _language())
    store.rollback()
    return _answer(answer)


# --- the score sheet and the session's files ---------------------------------------------------


@bp.get("/sessions/<session_id>/sheet")
def get_sheet(session_id: str) -> Response:
    """Return the score sheet: each game's points and the running totals after it."""
    unchanged = _not_modified()
    if unchanged is not None:
        return unchanged
    with long_read("session", session_id):
        sheet = queries.read_sheet(queries.get_session(_session_id()))
        return _tagged(_answer(answers.Sheet.of(sheet)))


@bp.get("/sessions/<session_id>/sheet.csv")
def get_sheet_csv(session_id: str) -> Response:
    """Return the score sheet as CSV, its header row in English or (``?lang=de``) German.

    ``?spreadsheet=1`` writes it as the page's download does, for a spreadsheet in that
    language: a byte order mark, and ``;`` between the cells in German.
    """
    with long_read("session", session_id):
        sheet = queries.read_sheet(queries.get_session(_session_id()))
        spreadsheet = request.args.get("spreadsheet", "") in ("1", "true")
        text = queries.sheet_csv(sheet, _language(), spreadsheet=spreadsheet)
    answer = Response(text, mimetype="text/csv")
    day = sheet.created_at.date().isoformat()
    answer.headers.set("Content-Disposition", "attachment", filename=f"{sheet.variant}-{day}.csv")
    return answer


@bp.get("/sessions/<session_id>/export")
def export_session(session_id: str) -> Response:
    """Return the session as the JSON document that ``scorekeeper import`` reads."""
    number = _session_id()
    # The export reads in a transaction of its own: one snapshot on PostgreSQL.
    store.rollback()
    with long_read("session", session_id):
        return jsonify(transfer.export_sessions(number))


# --- groups ------------------------------------------------------------------------------------


@bp.post("/groups")
@idempotent
@takes(models.NewGroup)
def create_group() -> tuple[Response, int]:
    """Start a group of people who play together: ``{"name": "Donnerstagsrunde"}``."""
    keys = SessionKeys.new()
    group = services.create_group(_sent(models.NewGroup).name, keys)
    read = queries.group_sessions(group)
    return _answer(answers.NewGroup.of(read, edit_key=keys.edit, view_key=keys.view)), 201


@bp.get("/groups/<group_id>")
def get_group(group_id: str) -> Response:
    """Return a group with its sessions, newest first, and its merged names."""
    return _answer(answers.Group.of(queries.group_sessions(_group())))


@bp.get("/groups/<group_id>/statistics")
def group_statistics(group_id: str) -> Response:
    """Return what the group's sessions add up to, per rule system and person."""
    with long_read("group", group_id):
        statistics = queries.read_statistics(_group())
        return _answer(answers.GroupStatistics.of(statistics, _language()))


@bp.get("/groups/<group_id>/season")
def group_season(group_id: str) -> Response:
    """Rank the group's evenings over its season: ``?best=7`` counts each one's best 7."""
    with long_read("group", group_id):
        season = queries.read_season(
            _group(), best=whole_argument("best"), evenings=whole_argument("evenings")
        )
        return _answer(answers.Season.of(season))


@bp.post("/groups/<group_id>/merges")
@idempotent
@takes(models.Merge)
def merge_names(group_id: str) -> tuple[Response, int]:
    """Count two names as one person: ``{"name": "Anni", "same_as": "Anna"}``."""
    body = _sent(models.Merge)
    merges = services.merge_names(_group().id, body.name, body.same_as)
    return _answer(answers.Merged.of(merges)), 201


def _group() -> queries.GroupRow:
    """Return the group the key opened (see ``_require_key``)."""
    group: queries.GroupRow = g.api_group
    return group


# --- club evenings -----------------------------------------------------------------------------


@bp.post("/evenings")
@idempotent
@takes(models.NewEvening)
def create_evening() -> tuple[Response, int]:
    """Start a club evening: series 1 drawn, a session at each of its tables."""
    body = _sent(models.NewEvening)
    group = _group_of(body)
    keys = SessionKeys.new()
    view = services.start_evening(
        body.name,
        variant=body.variant,
        house_rules=body.house_rules,
        players=body.players,
        series=body.series,
        games_per_series=body.games_per_series,
        minutes_per_series=body.minutes_per_series,
        table_size=body.table_size,
        seating=body.seating,
        small_tables=body.small_tables,
        keys=keys,
        group=group.id if group is not None else None,
    )
    answer = {**answers.Evening.of(view, keys), "edit_key": keys.edit, "view_key": keys.view}
    return jsonify(answer), 201


@bp.get("/evenings/<evening_id>")
def get_evening(evening_id: str) -> Response:
    """Return an evening's series with their tables (their keys for the edit key), and ranking."""
    view = queries.read_evening(_evening())
    return jsonify(answers.Evening.of(view, _evening_keys()))


@bp.post("/evenings/<evening_id>/series")
@idempotent
def seat_next_series(evening_id: str) -> tuple[Response, int]:
    """Seat the next series once every table of the latest one has ended (409 before)."""
    keys = _evening_keys()
    assert keys is not None
    view = services.seat_next_series(_evening().id, keys)
    return jsonify(answers.Evening.of(view, keys)), 201


@bp.post("/evenings/<evening_id>/draw")
@idempotent
def draw_again(evening_id: str) -> Response:
    """Draw the latest series again, before play begins at its tables (409 after)."""
    view = services.redraw_series(_evening().id)
    return jsonify(answers.Evening.of(view, _evening_keys()))


def _evening() -> queries.EveningRow:
    """Return the evening the key opened (see ``_require_key``)."""
    evening: queries.EveningRow = g.api_evening
    return evening


def _evening_keys() -> SessionKeys | None:
    """Return the evening's keys where the request holds its edit key (for the tables' keys)."""
    if g.api_evening_access < Access.EDIT:
        return None
    key = _bearer("")
    assert key is not None
    return SessionKeys.from_edit_key(key)
