"""Pages: each validates its form, calls one service, and redirects or shows why not."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    get_template_attribute,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import format_date, format_decimal, get_locale, gettext
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError, generate_csrf
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response as BaseResponse
from wtforms import SelectChoice

from scorekeeper import rules, services, transfer
from scorekeeper.api import serialize
from scorekeeper.extensions import db
from scorekeeper.i18n import LANGUAGE_COOKIE, LANGUAGES
from scorekeeper.keys import Access, SessionKeys
from scorekeeper.models import GameSession, Group
from scorekeeper.web import access, helpers
from scorekeeper.web.chart import chart_of
from scorekeeper.web.forms import (
    NEW_GROUP,
    ButtonForm,
    CorrectForm,
    EndForm,
    FinishForm,
    LayoffForm,
    MeldForm,
    MergeForm,
    RenameForm,
    Seated,
    SeatForm,
    SessionForm,
    SwapForm,
    end_form,
    finish_form,
    hidden_fields,
    player_choices,
    seat_form,
)
from scorekeeper.web.once import new_token, once_per_form

bp = Blueprint("web", __name__)

Page = str | tuple[str, int]
# The parts several pages draw alike (an entry's line, the head): macros of this template.
PARTS = "_parts.html"
Answer = Page | BaseResponse

REFUSED = (rules.RulesError, services.InvalidRequestError)
ONE_YEAR = 365 * 24 * 60 * 60
# The session page shows this many of the latest games; the history page a page of them at a
# time (services.HISTORY_GAMES), its ``?before=`` a game number of at most this.
RECENT_GAMES = 5
LARGEST_GAME_NUMBER = 2**31 - 1
# The session page's chart draws the running totals of this many latest games at most.
CHART_GAMES = 30
# The finish form's "Show the settlement" button: its GET previews; without it the hands in the
# address only fill the form in (a reopened game's hands as they were booked).
PREVIEW = "show"
MELD_CHOSEN = _l(
    "A meld on the table is chosen: tap “Record layoff” to lay these cards off onto it, or "
    "choose “New meld” to record them as a meld of their own."
)
# The cards an address may put into the entry form: a meld's worth, typed loosely.
MOST_TYPED = 200
# Every phone on an open session page asks this often whether another phone changed anything,
# while the page is on screen: a change shows within this and a round trip, and an unchanged
# answer is a 304 from one read of the session's row.
LIVE_SECONDS = 2
# The service worker's code, in the static folder; /sw.js serves it with the app's files.
SERVICE_WORKER = "sw.js"
# The pages a phone keeps to open without a network, by path under the site's root: the start
# page, a session's page and its history, and a game's finish page (kept from its session page,
# so that a game ends offline too; the start page drops them again). One list for the worker
# (sw.js, given it in its first lines) and the page's script (offline.js, on its script tag).
KEPT_PAGES = r"^/(sessions/[^/]+(/history)?|games/\d+/finish)?$"


bp.before_request(access.let_in)
bp.before_request(access.let_into_group)


@bp.after_request
def _keys_stay_out_of_caches(response: BaseResponse) -> BaseResponse:
    """Keep out of caches every page that was read with a key or may show one.

    A key in the address, a page a key opened, and any page of a browser whose cookie holds
    keys (its start page lists their sessions; an error page may answer a keyed address).
    """
    if (
        g.get("no_store")
        or g.get("access") is not None
        or "key" in request.args
        or access.held_keys()
        or access.held_keys(access.GROUP_KEYS)
    ):
        response.headers["Cache-Control"] = "no-store"
    return response


@bp.app_template_filter("suits")
def _suits(text: object) -> Any:
    return helpers.suits(text)


bp.add_app_template_filter(access.qr_code, "qr_code")
bp.add_app_template_global(new_token, "once_token")  # a global: imported macros see it
bp.add_app_template_global(hidden_fields, "hidden_fields")
bp.add_app_template_global(helpers.rank_letters, "rank_letters")  # for the imported parts too
bp.add_app_template_filter(helpers.hhmm, "hhmm")
bp.add_app_template_filter(helpers.day_and_time, "day_and_time")
bp.add_app_template_filter(helpers.points, "points")
bp.add_app_template_filter(helpers.signed, "signed")
bp.add_app_template_filter(helpers.session_limit, "session_limit")
bp.add_app_template_filter(helpers.meld_kind, "meld_kind")
bp.add_app_template_filter(helpers.entry_cards, "entry_cards")
bp.add_app_template_filter(helpers.entry_cards_label, "entry_cards_label")
bp.add_app_template_filter(helpers.cards_label, "cards_label")
bp.add_app_template_filter(helpers.bdi, "bdi")
bp.add_app_template_filter(helpers.message_text, "message_text")
bp.add_app_template_filter(helpers.message_html, "message_html")
bp.record_once(lambda state: state.app.jinja_env.globals.update(kept_pages=KEPT_PAGES))


@bp.app_context_processor
def _layout() -> dict[str, Any]:
    return {
        "current_language": str(get_locale() or "en"),
        "here": _here(),
        "can_edit": access.can_edit(),
    }


def _here() -> str:
    """Return the page to come back to after switching the language."""
    if request.method == "GET":
        query = request.query_string.decode()
        return request.path + (f"?{query}" if query else "")
    if g.get("public_id") is not None:
        return url_for("web.session_page", public_id=g.public_id)
    if g.get("group") is not None:
        return url_for("web.group_page", group_id=g.group.public_id)
    return url_for("web.home")


# --- errors ----------------------------------------------------------------------------------


@bp.errorhandler(services.NotFoundError)
@bp.errorhandler(NotFound)
def _not_found(error: Exception) -> Answer:
    db.session.rollback()
    missing = getattr(error, "message_id", None)
    if missing == "no_entry" and g.get("public_id") is not None:
        # Deleted or undone since the page was drawn (another phone, or back after a delete).
        flash(gettext("That entry is not in the game (any more): it was deleted or undone."))
        return _to_session()
    message = gettext("This page does not exist: %(reason)s", reason=_reason(error))
    return render_template("message.html", title=gettext("Not found"), message=message), 404


@bp.errorhandler(services.ConflictError)
def _conflict(error: Exception) -> Answer:
    """Show why the action cannot be done now, on the session page when there is one."""
    db.session.rollback()
    session_id = g.get("session_id")
    if _in_place():
        return _said_in_place(helpers.rules_message(error), 409)
    if session_id is not None:
        problem = helpers.rules_message(error)
        return _session_page(services.get_session(session_id), status=409, problem=problem)
    message = helpers.rules_message(error)
    return render_template("message.html", title=gettext("Not possible"), message=message), 409


@bp.errorhandler(CSRFError)
def _form_not_ours(_error: CSRFError) -> Answer:
    """Refuse a form without this browser's CSRF token on the app's own page, in its language."""
    db.session.rollback()
    message = gettext(
        "This form was open too long or came from elsewhere: open the page again and repeat."
    )
    if _in_place():
        return _said_in_place(message, 400)
    return render_template("message.html", title=gettext("Not possible"), message=message), 400


def _said_in_place(message: str, status: int) -> BaseResponse:
    """Answer the script's in-place request with why nothing was recorded."""
    response = jsonify(error=str(helpers.suits(message)))
    response.status_code = status
    return response


def _reason(error: Exception) -> str:
    if isinstance(error, NotFound):
        return str(gettext("there is nothing at this address."))
    return helpers.rules_message(error)


# --- language --------------------------------------------------------------------------------


@bp.get("/language/<code>")
def language(code: str) -> BaseResponse:
    """Remember the chosen language in a cookie and go back to the page."""
    if code not in LANGUAGES:
        abort(404)
    response = redirect(helpers.safe_next(request.args.get("next")))
    response.set_cookie(LANGUAGE_COOKIE, code, max_age=ONE_YEAR, samesite="Lax", httponly=True)
    return response


# --- sessions --------------------------------------------------------------------------------


@bp.get("/")
def home() -> Page:
    """Show the form that starts a session, and the sessions this phone can open."""
    mine = services.sessions_opened_by(access.held_keys())
    groups = services.groups_opened_by(access.held_keys(access.GROUP_KEYS))
    form = SessionForm()
    # "Play again" from a finished session: the same players and target, for a phone that
    # holds that session's key (nobody else learns its names).
    again = next((played for played in mine if played.public_id == request.args.get("again")), None)
    if again is not None:
        variant = services.variant_of(again)
        end = variant.house_rules["end"]
        form = SessionForm(
            data={
                "names": [player.name for player in again.seated],
                "variant": variant.name,
                **variant.house_rules,
                "end": next(iter(end)),
                **end,
                # The deal goes on where the session left it: whoever would have dealt next.
                "dealer": str(again.seated.index(services.next_dealer(again))),
                # The same people play again: the session stays in their group.
                "group": _group_id_of(again, groups),
            }
        )
    elif request.args.get("group"):
        # "Start a session in this group" from a group's page.
        chosen = request.args["group"]
        if any(group.public_id == chosen and granted == Access.EDIT for group, granted in groups):
            form.group.data = chosen
    return _home_page(form, mine, groups)


def _group_id_of(session: GameSession, groups: list[tuple[Group, Access]]) -> str:
    """Return the id of a session's group if this phone may add sessions to it, else ""."""
    return next(
        (
            group.public_id
            for group, granted in groups
            if group.id == session.group_id and granted == Access.EDIT
        ),
        "",
    )


def _home_page(
    form: SessionForm,
    mine: list[GameSession],
    groups: list[tuple[Group, Access]],
    status: int = 200,
) -> Page:
    """Show the start page: the new-session form with this phone's groups, and its sessions."""
    form.offer_groups(
        [(group.public_id, group.name) for group, granted in groups if granted == Access.EDIT]
    )
    return render_template(
        "home.html",
        form=form,
        mine=mine,
        groups=[group for group, _granted in groups],
        # Behind a tap on a phone that has sessions, unless it is sent back or filled in.
        form_open=status != 200 or bool(request.args.get("again") or request.args.get("group")),
        **_session_choices(),
    ), status


def _session_choices() -> dict[str, Any]:
    """Return what the new-session form says of each rule system: players, usual target."""
    variants = [variant() for variant in rules.VARIANTS.values()]
    return {
        # The start page's buttons that take a session off this phone's list.
        "button_form": ButtonForm(formdata=None),
        "players_allowed": [
            gettext(
                "%(title)s %(low)s to %(high)s",
                title=variant.label(helpers.language()),
                low=variant.min_players,
                high=variant.max_players,
            )
            for variant in variants
        ],
        "target_defaults": {variant.name: variant.default_target for variant in variants},
        # The ways each rule system's session can end: the page offers only those.
        "variant_ends": {variant.name: list(variant.end_rule().ends) for variant in variants},
        "usual_targets": [
            f"{variant.label(helpers.language())} {variant.default_target}" for variant in variants
        ],
    }


@bp.get("/sessions")
def back_to_the_start() -> BaseResponse:
    """Send a reload of the address a refused new session was shown at back to the start."""
    return redirect(url_for("web.home"))


@bp.post("/sessions")
@once_per_form
def create_session() -> Answer:
    """Seat the players, open the session and deal its first game."""
    form = SessionForm()
    groups = services.groups_opened_by(access.held_keys(access.GROUP_KEYS))
    if form.validate_on_submit():
        keys = SessionKeys.new()
        try:
            group = _group_chosen(form, groups)
            session = services.create_session(
                form.player_names(),
                None,
                form.first_dealer(),
                variant=form.variant.data,
                house_rules=form.house_rules(),
                start_first_game=True,
                keys=keys,
                group=group,
            )
        except (*REFUSED, services.NotFoundError) as error:
            db.session.rollback()
            # Beside the name it is about (two names merged into one person), else above.
            seat = getattr(error, "params", {}).get("seat")
            if isinstance(seat, int) and seat < len(form.names.entries):
                form.names.entries[seat].errors.append(helpers.rules_message(error))
            else:
                form.form_errors.append(helpers.rules_message(error))
        else:
            # This browser started the session: it keeps the edit key, and a new group's.
            access.keep_key(session.public_id, keys.edit)
            if isinstance(group, services.NewGroup):
                access.keep_key(group.public_id, group.keys.edit, where=access.GROUP_KEYS)
            return redirect(url_for("web.session_page", public_id=session.public_id))
    mine = services.sessions_opened_by(access.held_keys())
    return _home_page(form, mine, groups, 422)


def _group_chosen(
    form: SessionForm, groups: list[tuple[Group, Access]]
) -> int | services.NewGroup | None:
    """Return the group the new session joins: one whose edit key this phone holds, or new."""
    chosen = str(form.group.data or "")
    if not chosen:
        return None
    if chosen == NEW_GROUP:
        return services.NewGroup(str(form.group_name.data or ""), SessionKeys.new())
    for group, granted in groups:
        if group.public_id == chosen and granted == Access.EDIT:
            return int(group.id)
    raise services.NotFoundError("no_group")


@bp.get("/sessions/<public_id>")
def session_page(public_id: str) -> Page:
    """Show the totals, whose deal it is, the current game and the games played."""
    return _session_page(_session())


@bp.post("/sessions/<public_id>/keep")
def keep_session(public_id: str) -> BaseResponse:
    """Keep a link's key on this phone on purpose: no link opened later pushes it out.

    The key comes with the form (``access.let_in`` leaves this address alone), since a link's
    key that found no room in the cookie is not there; the CSRF token shows that the person
    tapped the button on this site.
    """
    _check_button()
    key = request.form.get("key", "")
    services.access_to_session(public_id, lambda _public_id: key or None, Access.VIEW)
    access.keep_on_purpose(public_id, key)
    flash(gettext("This session is kept on this phone."), "success")
    return redirect(url_for("web.session_page", public_id=public_id))


@bp.post("/sessions/<public_id>/forget")
def forget_session(public_id: str) -> BaseResponse:
    """Take a session off this phone's list; it stays for every other phone with its key."""
    _check_button()
    access.forget_key(public_id)
    flash(
        gettext(
            "The session is off this phone's list. It stays for every phone that has its link."
        ),
        "success",
    )
    return redirect(url_for("web.home"))


@bp.post("/sessions/<public_id>/games")
@once_per_form
def start_game(public_id: str) -> Answer:
    """Deal the next game; the deal passes to the left."""
    g.session_id = _session().id
    _check_button()
    game = services.start_game(g.session_id)
    flash(
        gettext("Game %(number)s: %(dealer)s deals.", number=game.number, dealer=game.dealer.name)
    )
    return _to_session()


@bp.get("/sessions/<public_id>/history")
def history(public_id: str) -> Page:
    """Show the latest games, or those before ``?before=``: points, entries and settlement."""
    session = _session()
    variant = services.variant_of(session)
    names = _names(session.players)
    before = request.args.get("before", type=int)
    if before is not None and not 1 < before <= LARGEST_GAME_NUMBER:
        before = None  # no game is numbered below it, or none so high: the latest games
    page = services.history_page(session, before)
    played = page.games
    # The audit trail of the games shown, in one query.
    numbers = (played[0].game.number, played[-1].game.number) if played else None
    audit = services.session_audit(session.id, numbers) if numbers else {}
    games = [
        {
            "game": item.game,
            # Each game's own players: who sat at the table when it was dealt.
            "points": services.history_points(
                item,
                [player.id for player in session.players if player.plays_in(item.game.number)],
            ),
            "entries": item.entries,
            "lines": {line.player_id: line for line in item.lines},
            "groupings": services.hand_groupings(variant, item.lines),
            # The entries with the corrections, deletes, undos and reopens between them.
            "timeline": helpers.history_timeline(
                helpers.entries_shown(item.entries, names, item.game.id, variant),
                audit.get(item.game.id, []),
                names,
                variant,
            ),
        }
        for item in played
    ]
    scores = page.scores
    return render_template(
        "history.html",
        session=session,
        standing_order=helpers.standing_order(variant, session.seated, scores.totals)
        + session.left,
        scores=scores,
        games=games,
        page=page,
        names=names,
        house_rules=helpers.house_rules_in_words(variant),
        doubles_never_melded=variant.doubles_never_melded(),
    )


# --- entries ---------------------------------------------------------------------------------


@bp.get("/games/<int:game_id>/melds")
@bp.get("/games/<int:game_id>/layoffs")
@bp.get("/games/<int:game_id>/swaps")
@bp.get("/games/<int:game_id>/undo")
@bp.get("/games/<int:game_id>/entries/<int:entry_id>/delete")
@bp.get("/sessions/<public_id>/games")
def back_to_the_game(**_address: object) -> BaseResponse:
    """Send a reload of the address a refused action was shown at back to its game."""
    return _to_session()


@bp.post("/games/<int:game_id>/melds")
@once_per_form
def record_meld(game_id: int) -> Answer:
    """Record a meld and show what it scored."""
    game = _open_game(game_id)
    if request.form.get("meld"):
        # Without the script a meld tapped on the table stays chosen whichever button is
        # tapped: say which button lays the cards off, with the cards and the meld kept.
        onto = _layoff_form(game)
        onto.validate_on_submit()
        onto.cards.errors = [*onto.cards.errors, str(MELD_CHOSEN)]
        return _session_page(_session_of(game), status=422, layoff_form=onto)
    form = _meld_form(game)

    def record() -> str:
        names = _names(game.players)
        melds = form.meld_lines()
        if len(melds) == 1:
            return helpers.describe_recorded(
                services.record_meld(game.id, form.player.data, melds[0], form.restores.data),
                names,
            )
        recorded = services.record_melds(game.id, form.player.data, melds, form.restores.data)
        return helpers.describe_recorded_melds(recorded, names)

    recorded = _record_entry(form, record)
    return recorded or _session_page(_session_of(game), status=422, meld_form=form)


@bp.post("/games/<int:game_id>/layoffs")
@once_per_form
def record_layoff(game_id: int) -> Answer:
    """Record cards laid off onto a chosen meld and show what they scored."""
    game = _open_game(game_id)
    form = _layoff_form(game)

    def record() -> str:
        recorded = services.record_layoff(
            game.id, form.player.data, form.meld.data, form.cards.data, form.restores.data
        )
        return helpers.describe_recorded(recorded, _names(game.players))

    recorded = _record_entry(form, record)
    return recorded or _session_page(_session_of(game), status=422, layoff_form=form)


@bp.post("/games/<int:game_id>/swaps")
@once_per_form
def record_swap(game_id: int) -> Answer:
    """Record a joker swap: cards put in the joker's place, the joker in a new meld (G4)."""
    game = _open_game(game_id)
    form = _swap_form(game)

    def record() -> str:
        services.record_swap(
            game.id,
            form.player.data,
            form.meld.data,
            form.cards.data,
            form.new_meld.data,
            form.restores.data,
        )
        # Said as the game lies after the swap: the meld the joker left, and its new meld.
        after = services.read_game(game.id)
        last = after.entries[-1]
        names = _names(after.players)
        return helpers.describe(last, after.entries, names, services.table_of(after))

    recorded = _record_entry(form, record)
    return recorded or _session_page(_session_of(game), status=422, swap_form=form)


def _record_entry(
    form: MeldForm | LayoffForm | SwapForm, record: Callable[[], str]
) -> BaseResponse | None:
    """Run the recording service; say what the entry scored, or put the refusal on the form."""
    if not form.validate_on_submit():
        return _refused(form) if _in_place() else None
    try:
        sentence = record()
    except REFUSED as error:
        db.session.rollback()
        form.cards.errors = [helpers.rules_message(error)]
        return _refused(form) if _in_place() else None
    if _in_place():
        return _answered_in_place(sentence, g.game_id)
    flash(sentence, "success")
    # The page opens where the next entry starts: the player chips, then the picker.
    return _to_session(anchor="entry")


def _in_place() -> bool:
    """Say whether the game page's script sent the form and asks for a small JSON answer.

    picker.js sends the page's own form to the form's own address with ``Accept:
    application/json``: one view and one service per use case, the form's CSRF token and a
    one-time token of its own per tap (``once_per_form``), so a tap sent twice counts once.
    """
    return request.accept_mimetypes.best == "application/json"


def _answered_in_place(sentence: str, game_id: int) -> BaseResponse:
    """Answer an entry recorded in place: the server's words and its line as the page draws it.

    The rest of the page (table, standing, picker) the script reads again, as the live table
    does when another phone records.
    """
    after = services.read_game(game_id)
    shown = helpers.entries_shown(after.entries, _names(after.players), after.id, after.variant)
    line = get_template_attribute(PARTS, "entry")(shown[-1], True) if shown else ""
    return jsonify(
        said=str(helpers.suits(sentence)), entry=shown[-1].id if shown else None, line=line
    )


def _refused(form: MeldForm | LayoffForm | SwapForm | ButtonForm | FinishForm) -> BaseResponse:
    """Answer a refusal in place: the first reason the form or the rules gave.

    A refusal is an answer (200 with ``refused``), not a failure: the script shows it in the
    bar, and the browser logs no failed request for it.
    """
    reasons = [str(e) for errors in form.errors.values() for e in errors if isinstance(e, str)]
    return jsonify(refused=True, error=str(helpers.suits(reasons[0] if reasons else "")))


@bp.post("/games/<int:game_id>/check")
def check_entry(game_id: int) -> BaseResponse | tuple[BaseResponse, int]:
    """Check the entry begun on the game page against the table, as recording it would.

    The live check of picker.js: JSON in (``player``, ``cards`` or ``melds``, ``onto``,
    ``new_meld``), the API's answer out (``serialize.game_check``), in the page's language;
    cards it cannot read are ``valid: false`` too (the API answers 422).
    """
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        abort(400)
    fields: dict[str, Any] = {}
    onto = body.get("onto") or None
    melds = [text for text in body.get("melds") or [] if isinstance(text, str) and text.strip()]
    cards = body["cards"] if isinstance(body.get("cards"), str) else ""
    if onto is None:
        fields["melds"] = [*melds, cards] if cards.strip() else melds
    else:
        fields.update(onto=_whole(onto), cards=cards)
        if isinstance(body.get("new_meld"), str):
            fields["new_meld"] = body["new_meld"]
    player = _whole(body["player"]) if body.get("player") else None
    lang = str(get_locale())
    try:
        return jsonify(serialize.game_check(game_id, player, fields, lang))
    except REFUSED as error:
        # Cards the server cannot read are said as a check that fails, as the rules' refusals.
        db.session.rollback()
        return jsonify(valid=False, error=helpers.rules_message(error))
    finally:
        db.session.rollback()


@bp.post("/games/<int:game_id>/read")
def read_cards(game_id: int) -> BaseResponse:
    """Answer the cards a typed text names, as the game's rule system reads them.

    The finish and correction pages ask it for what a hand or an entry typed in words means
    ("Herz As" is A♥) and show that answer: picker.js reads no words. JSON in (``cards``, a
    text), out ``cards`` (codes), or ``error`` in the page's language; it writes nothing, so
    it needs no form token (the finish page is a GET form without one; see create_app).
    """
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or not isinstance(body.get("cards"), str):
        abort(400)
    try:
        pieces = services.read_cards(game_id, body["cards"])
    except REFUSED as error:
        return jsonify(cards=[], error=helpers.rules_message(error))
    finally:
        db.session.rollback()
    return jsonify(cards=[piece.code for piece in pieces])


def _whole(value: object) -> int:
    """Return a whole number sent as JSON (a number or digits), or answer 400."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isdigit() and len(value) < 12:
        return int(value)
    abort(400)


@bp.post("/games/<int:game_id>/undo")
@once_per_form
def undo(game_id: int) -> Answer:
    """Take back the latest entry of the game."""
    game = _open_game(game_id)
    _check_button()
    sentence = ""
    player: int | None = None
    restore = _restore_of(game)
    if game.entries:
        table = services.table_of(game)
        sentence = helpers.describe(game.entries[-1], game.entries, _names(game.players), table)
        # An entry is undone to be entered again, mostly by the same player: chosen at once.
        player = game.entries[-1].player_id
    # The page names the entry it showed last, so a double tap cannot undo two entries.
    services.undo_last_entry(game.id, request.args.get("entry", type=int))
    if _in_place():
        undone = str(helpers.suits(gettext("Undone: %(entry)s", entry=sentence)))
        return jsonify(said=undone, player=player, restore=restore)
    flash(gettext("Undone: %(entry)s", entry=sentence))
    return _to_session(anchor="entry", player=player)


def _restore_of(game: services.GameState, entry_id: int | None = None) -> dict[str, Any] | None:
    """Return the form that records an entry again (the latest one unless named), for "Restore".

    After an undo, or a delete on the entry's page. The address and fields of the form that
    recorded it: sent again it is a new entry, with a one-time token of its own, checked again
    against the table as it lies then (and so the latest entry then).
    """
    if not game.entries:
        return None
    last = game.entries[-1] if entry_id is None else services.entry_in(game.entries, entry_id)
    group = last.group_id if last.group_id is not None else last.id
    rows = [entry for entry in game.entries if group in (entry.id, entry.group_id)]
    first = rows[0]
    fields: dict[str, Any] = {"player": first.player_id, "restores": first.id}
    if first.kind == "swap":
        fields.update(meld=first.meld_id, cards=helpers.entry_cards(first))
        fields["new_meld"] = helpers.entry_cards(rows[-1])
        address = url_for("web.record_swap", game_id=game.id)
    elif first.kind == "layoff":
        fields.update(meld=first.meld_id, cards=helpers.entry_cards(first))
        address = url_for("web.record_layoff", game_id=game.id)
    else:
        melds = [helpers.entry_cards(row) for row in rows]
        fields.update(melds="\n".join(melds[:-1]), cards=melds[-1])
        address = url_for("web.record_meld", game_id=game.id)
    return {"url": address, "fields": fields}


@bp.post("/games/<int:game_id>/entries/<int:entry_id>/delete")
@once_per_form
def delete_entry(game_id: int, entry_id: int) -> Answer:
    """Delete an entry that nothing on the table builds on."""
    game = _open_game(game_id)
    entry = services.entry_in(game.entries, entry_id)
    _check_button()
    sentence = helpers.describe(entry, game.entries, _names(game.players), services.table_of(game))
    restore = _restore_of(game, entry.id)
    try:
        services.delete_entry(game.id, entry.id)
    except services.ConflictError as error:
        # Said under the button it was tapped on, on the entry's page.
        db.session.rollback()
        if _in_place():
            return jsonify(refused=True, error=str(helpers.suits(helpers.rules_message(error))))
        form = _correct_form(game, entry, formdata=None)
        return _entry_page(game, entry_id, form, 409, helpers.rules_message(error))
    if _in_place():
        # The script goes back to the game page where it was left, says this and offers
        # "Restore" there, as after an undo.
        deleted = str(helpers.suits(gettext("Deleted: %(entry)s", entry=sentence)))
        back = url_for("web.session_page", public_id=g.public_id, _anchor="game")
        return jsonify(said=deleted, restore=restore, back=back)
    flash(gettext("Deleted: %(entry)s", entry=sentence))
    return _to_session()


@bp.route("/games/<int:game_id>/entries/<int:entry_id>/edit", methods=["GET", "POST"])
@once_per_form
def correct_entry(game_id: int, entry_id: int) -> Answer:
    """Show an entry's cards to correct, and record the correction."""
    game = _open_game(game_id)
    entry = services.entry_in(game.entries, entry_id)
    form = _correct_form(game, entry)
    status = 422 if request.method == "POST" else 200
    if form.validate_on_submit():
        onto = form.meld.data if "meld" in form else None
        try:
            done = services.correct_entry(
                game.id, entry.id, form.cards.data, form.player.data, onto
            )
        except (*REFUSED, services.ConflictError) as error:
            # Said beside the field, so that what was typed stays to be mended.
            db.session.rollback()
            form.cards.errors = [helpers.rules_message(error)]
            if isinstance(error, services.ConflictError):
                status = 409
        else:
            # Said as the game is after the correction, which the service returns.
            after = done.game
            corrected = services.entry_in(after.entries, entry_id)
            table = services.table_of(after)
            sentence = helpers.describe(corrected, after.entries, _names(after.players), table)
            flash(gettext("Corrected: %(entry)s", entry=sentence), "success")
            return _to_session()
    return _entry_page(game, entry_id, form, status)


def _entry_page(
    game: services.GameState,
    entry_id: int,
    form: CorrectForm,
    status: int,
    delete_problem: str | None = None,
) -> Page:
    """Show an entry to correct or delete, with why a correction or a delete was refused."""
    entry = services.entry_in(game.entries, entry_id)
    # The entry's own cards are the ones being corrected: they stay free to tap.
    own = [card.card for card in entry.cards]
    picker = helpers.table_picker(services.table_of(game), free=own)
    # Going back to this page after a delete or a correction asks again: no stale entry.
    g.no_store = True
    # The live check of a layoff needs each meld it could go onto as it lay then.
    onto: dict[int, str] = {}
    if entry.kind == "layoff":
        before = services.table_of(game, before=entry.position)
        onto = {meld: " ".join(map(str, lying.cards)) for meld, lying in before.melds.items()}
    return render_template(
        "entry_edit.html",
        game=game,
        entry=entry,
        onto=onto,
        names=_names(game.players),
        form=form,
        button_form=ButtonForm(formdata=None),
        picker=picker,
        line=helpers.line_of(game.entries, entry_id),
        delete_problem=delete_problem,
    ), status


def _correct_form(game: services.GameState, entry: services.EntryRow, **kwargs: Any) -> CorrectForm:
    """Return the correction form of an entry; a layoff's names the melds it could lie on."""
    form = CorrectForm(
        **kwargs,
        data={
            "cards": helpers.entry_cards_label(entry),
            "player": entry.player_id,
            "meld": entry.meld_id,
        },
    )
    form.player.choices = player_choices(game.players)
    if entry.kind != "layoff":
        del form.meld
        return form
    # The melds as they lay when the cards were laid off: those the cards could have gone onto.
    table = services.table_of(game, before=entry.position)
    names = _names(game.players)
    form.meld.choices = [
        SelectChoice(
            meld.id, f"{names[meld.player_id]}: {helpers.cards_label(table.melds[meld.id].cards)}"
        )
        for meld in game.entries
        if meld.id in table.melds
    ]
    return form


# --- the end of a game -----------------------------------------------------------------------


@bp.route("/games/<int:game_id>/finish", methods=["GET", "POST"])
@once_per_form
def finish(game_id: int) -> Answer:
    """Preview the settlement of a game (a GET with the hands), then book it on Confirm."""
    game = services.read_game(game_id, g.get("checked_game"))
    g.session_id = game.session_id
    ended = _booked_answer(game)
    if ended is not None:
        return ended
    game = _still_open(game)
    players = game.players
    if request.method == "GET":
        # The preview is a GET: back after booking asks the page again (no resubmission
        # prompt), and the page of a booked game shows what was booked.
        form = finish_form(players, formdata=request.args or None, meta={"csrf": False})
        if PREVIEW not in request.args:
            if not request.args:
                form.winner.data = helpers.whose_entry(game)
            return _finish_page(game, form)
        if not form.validate():
            return _finish_page(game, form, status=422)
    else:
        form = finish_form(players)
        if not form.validate_on_submit():
            if _in_place():
                return _refused(form)
            return _finish_page(game, form, status=422)
    # Only the Confirm button's POST books: a GET never does, whatever its address says.
    commit = request.method == "POST" and form.confirm.data == "1"
    number = game.number
    try:
        if commit:
            done = services.finish_game(
                game.id, form.winner.data, form.hands(), form.romme_choice()
            )
        else:
            preview = services.preview_finish(
                game.id, form.winner.data, form.hands(), form.romme_choice()
            )
    except REFUSED as error:
        db.session.rollback()
        if _in_place():
            return jsonify(refused=True, error=str(helpers.suits(helpers.rules_message(error))))
        return _finish_page(game, form, status=422, problem=helpers.rules_message(error))
    if commit:
        assert done.winner is not None
        # The rule system says the news: what the winner gains, or what the losers book.
        names = _names(players)
        news = helpers.message_text(game.variant.game_news(number, names, done.settlement))
        if _in_place():
            # The outbox sent a finish recorded offline: the page that asked is long gone.
            return jsonify(said=news)
        flash(news, "success")
        return _to_session()
    db.session.rollback()
    # ``game`` was read before the preview, which wrote nothing: it still shows the game.
    form.romme.data = "yes" if preview.romme else "no"
    confirm = finish_form(players, formdata=None, data=_resubmitted(form))
    return _finish_page(game, form, preview=preview, confirm=confirm)


def _booked_answer(game: services.GameState) -> Answer | None:
    """Show what a finished game booked; a Confirm sent after another phone booked says so.

    None for a game still open (or abandoned): the finish page, or its refusal, follows.
    """
    if game.status != "finished":
        return None
    if request.method == "POST":
        if request.form.get("confirm") != "1":
            return None
        # A repeat from this phone carries the first send's token and never gets here.
        if _in_place():
            # A finish that waited offline: named in the bar, never merged into the booking.
            return jsonify(refused=True, error=gettext("Already booked on another phone."))
        flash(gettext("Already booked on another phone."), "error")
        return redirect(url_for("web.finish", game_id=game.id), 303)
    return _booked_page(game)


def _booked_page(game: services.GameState) -> Page:
    """Show the settlement a game booked, hand by hand, as the history keeps it."""
    lines = services.get_game(game.id).settlement_lines
    return render_template(
        "booked.html",
        game=game,
        lines={line.player_id: line for line in lines},
        groupings=services.hand_groupings(game.variant, lines),
        names=_names(game.players),
    )


@bp.route("/games/<int:game_id>/abandon", methods=["GET", "POST"])
@once_per_form
def abandon(game_id: int) -> Answer:
    """Ask, then abandon a game (R6): its melds stand and nobody wins it."""
    return _ask_then(
        _open_game(game_id),
        "abandon.html",
        services.abandon_game,
        lambda number: gettext("Game %(number)s was abandoned: its melds stand.", number=number),
    )


@bp.route("/games/<int:game_id>/reopen", methods=["GET", "POST"])
@once_per_form
def reopen(game_id: int) -> Answer:
    """Ask, then take back the booking of the last ended game and play it on."""
    game = services.read_game(game_id, g.get("checked_game"))
    g.session_id = game.session_id
    # Read before the booking is taken back: the finish page opens with the hands as booked,
    # so that only the wrong one is changed.
    then = _finish_as_booked(game) if request.method == "POST" else None
    return _ask_then(
        game,
        "reopen.html",
        services.reopen_game,
        lambda number: gettext("Game %(number)s is open again: finish it anew.", number=number),
        then=then,
    )


def _finish_as_booked(game: services.GameState) -> str | None:
    """Return the finish page filled in with what a finished game booked: winner and hands."""
    if game.status != "finished" or game.winner_id is None:
        return None
    fields: dict[str, Any] = {"winner": game.winner_id}
    for line in services.get_game(game.id).settlement_lines:
        if line.player_id == game.winner_id:
            continue
        if line.hand:
            fields[f"hand_{line.player_id}"] = line.hand
        elif line.hand_points is not None:
            fields[f"points_{line.player_id}"] = line.hand_points
    return url_for("web.finish", game_id=game.id, **fields)


def _ask_then(
    game: services.GameState,
    question: str,
    act: Callable[[int], object],
    done: Callable[[int], str],
    *,
    then: str | None = None,
) -> Answer:
    """Show the question page (GET); on its button, act on the game and say so on the session.

    ``then`` is the page to go on to instead of the session.
    """
    form = ButtonForm()
    if request.method == "GET":
        return render_template(question, game=game, form=form)
    _check_button()
    act(game.id)
    flash(done(game.number))
    return redirect(then) if then is not None else _to_session()


# --- helpers ---------------------------------------------------------------------------------


def _open_game(game_id: int) -> services.GameState:
    """Return a game still being played, or raise the reason it cannot change.

    Checked before the form is read, so that a finished game answers 409 whatever was sent;
    the services refuse the same with the same messages.
    """
    game = services.read_game(game_id, g.get("checked_game"))
    g.session_id, g.game_id = game.session_id, game.id
    return _still_open(game)


def _still_open(game: services.GameState) -> services.GameState:
    """Return a game read already if it is still being played, or raise why it cannot change."""
    if game.session_status == "finished":
        raise services.ConflictError("session_over")
    services.refuse_closed(game)
    return game


def _check_button() -> None:
    if not ButtonForm().validate_on_submit():
        abort(400)


def _session() -> GameSession:
    """Return the session the key opened (see ``access.let_in``)."""
    session: GameSession = g.game_session
    return session


def _to_session(anchor: str = "game", **chosen: Any) -> BaseResponse:
    """Go back to the session page; its id is known from the key check, not read again.

    ``chosen`` starts the next entry (``player``, ``cards``), as ``_next_entry_form`` reads it.
    """
    given = {name: value for name, value in chosen.items() if value is not None}
    return redirect(url_for("web.session_page", public_id=g.public_id, _anchor=anchor, **given))


def _session_of(game: services.GameState) -> GameSession:
    """Return the session a game belongs to, for a page that shows the whole session."""
    return services.get_session(game.session_id)


def _names(players: Iterable[Seated]) -> dict[int, str]:
    """Return the players' names by id (of a session's players or a game's player rows)."""
    return {player.id: player.name for player in players}


def _meld_form(game: services.GameState, **kwargs: Any) -> MeldForm:
    form = MeldForm(**kwargs)
    form.player.choices = player_choices(game.players)
    if kwargs.get("formdata", True) is None:
        form.player.data = helpers.whose_entry(game)
    return form


def _next_entry_form(game: services.GameState) -> MeldForm:
    """Return the form of the next entry; the address may choose its player and cards.

    After an undo the undone entry's player is chosen, and switching the language keeps the
    player and the cards picked so far (picker.js puts them into the language links).
    """
    form = _meld_form(game, formdata=None)
    if request.method != "GET":
        return form
    wanted = request.args.get("player", type=int)
    if wanted in {player.id for player in game.players}:
        form.player.data = wanted
    cards = request.args.get("cards", "").strip()
    if cards and len(cards) <= MOST_TYPED:
        form.cards.data = cards
    melds = request.args.get("melds", "").strip()
    if melds and len(melds) <= MOST_TYPED * 4:
        form.melds.data = melds
    return form


def _entry_begun(melds: Iterable[services.EntryRow]) -> dict[str, Any]:
    """Return the meld chosen, the mode and the joker's new meld the address carries.

    The language links of the game page carry them, so switching DE / EN keeps them.
    """
    if request.method != "GET":
        return {}
    chosen = request.args.get("meld", type=int)
    if chosen not in {entry.id for entry in melds}:
        return {}
    new_meld = request.args.get("new_meld", "").strip()
    return {
        "chosen_meld": chosen,
        "swap_chosen": request.args.get("action") == "swap",
        "new_meld_typed": new_meld if len(new_meld) <= MOST_TYPED else "",
    }


def _layoff_form(game: services.GameState, **kwargs: Any) -> LayoffForm:
    form = LayoffForm(**kwargs)
    _onto_choices(game, form, preselect=kwargs.get("formdata", True) is None)
    return form


def _swap_form(game: services.GameState, **kwargs: Any) -> SwapForm:
    form = SwapForm(**kwargs)
    _onto_choices(game, form, preselect=kwargs.get("formdata", True) is None)
    return form


def _onto_choices(
    game: services.GameState, form: LayoffForm | SwapForm, *, preselect: bool
) -> None:
    """Offer the players and the melds on the table; preselect whose entry it likely is."""
    form.player.choices = player_choices(game.players)
    table = services.table_of(game)
    names = _names(game.players)
    form.meld.choices = [
        SelectChoice(
            entry.id, f"{names[entry.player_id]}: {rules.cards_text(table.melds[entry.id].cards)}"
        )
        for entry in game.entries
        if entry.kind == "meld"
    ]
    if preselect:
        form.player.data = helpers.whose_entry(game)


def _session_page(
    session: GameSession,
    *,
    status: int = 200,
    meld_form: MeldForm | None = None,
    layoff_form: LayoffForm | None = None,
    swap_form: SwapForm | None = None,
    problem: str | None = None,
) -> Page:
    """Render the session page, with the forms of the current game while it is open."""
    # Only the latest games, read once for the list and the chart: a session of a thousand
    # games must not slow the page down (the sheet draws them all).
    scores, game = services.scores_with_game(session, latest=CHART_GAMES)
    dealt = scores.games[-1].number if scores.games else 0
    variant = services.variant_of(session)
    names = _names(session.players)
    dealer = services.next_dealer(session, scores.games)
    past = [past for past in scores.games if past.status != "open"][-RECENT_GAMES:]
    context: dict[str, Any] = {
        "session": session,
        "variant": variant,
        "scores": scores,
        "standing": scores.standing,
        "names": names,
        "dealer": dealer,
        "standing_rows": helpers.standing_shown(session, variant, scores, dealer.id),
        "deal": services.deal_of(game) if game is not None else None,
        "house_rules": helpers.house_rules_in_words(variant),
        "game": game,
        "past": past,
        "past_shown": helpers.past_shown(past, scores.game_points, names),
        # The last ended game is offered to reopen while the game dealt after it can go.
        "reopen_offered": services.reopen_possible(session, game),
        "games_played": dealt - (1 if game is not None else 0),
        "problem": problem,
        "button_form": ButtonForm(formdata=None),
        "winner": _winner(session, scores),
        "share": access.share_links(session.public_id),
        "key_to_keep": access.key_to_keep(session.public_id),
        "not_kept": access.not_kept_notice(),
        "live_seconds": LIVE_SECONDS,
        **_looking_back(services.read_sheet(session, scores), in_play=game is not None),
        "group": _group_held(session),
    }
    # A page with keys in its links is kept in no cache.
    g.no_store = bool(context["share"])
    if game is not None and session.status == "open":
        table = services.table_of(game)
        melds = [entry for entry in game.entries if entry.kind == "meld"]
        context.update(
            table=table,
            melds=melds,
            entries_shown=helpers.entries_shown(game.entries, names, game.id, game.variant),
            game_points=services.game_points(game),
        )
        if access.can_edit():
            entry_form: MeldForm | LayoffForm | SwapForm = (
                swap_form or layoff_form or meld_form or _next_entry_form(game)
            )
            onto = swap_form or layoff_form
            jokers = {entry.id: helpers.joker_places(table.melds[entry.id]) for entry in melds}
            context.update(
                entry_form=entry_form,
                chosen_meld=onto.meld.data if onto is not None else None,
                melds_shown=helpers.melds_shown(melds, table, jokers, names),
                picker=helpers.table_picker(table),
                joker_places={meld: places for meld, places in jokers.items() if places},
                # Whose first entry is still to come: it is their opening (G3).
                opened=sorted(variant.opened(entry.player_id for entry in game.entries)),
                opening_minimum=variant.opening_minimum(),
                melds_typed=entry_form.melds.data if isinstance(entry_form, MeldForm) else "",
                new_meld=swap_form.new_meld if swap_form is not None else None,
            )
            if onto is None:
                context.update(_entry_begun(melds))
    return render_template("session.html", **context), status


def _winner(session: GameSession, scores: services.SessionScores) -> str | None:
    if session.status != "finished" or scores.standing.winner is None:
        return None
    return _names(session.players)[scores.standing.winner]


def _resubmitted(form: FinishForm) -> dict[str, Any]:
    """Return the values of a previewed form, marked to be booked when posted again."""
    # The confirming form gets a token of its own: the preview was not applied.
    data = {name: value for name, value in form.data.items() if name not in ("csrf_token", "once")}
    return {**data, "confirm": "1"}


def _finish_page(
    game: services.GameState,
    form: FinishForm,
    *,
    status: int = 200,
    problem: str | None = None,
    preview: services.Finish | None = None,
    confirm: FinishForm | None = None,
) -> Page:
    table = services.table_of(game)
    return render_template(
        "finish.html",
        game=game,
        form=form,
        problem=problem,
        preview=preview,
        confirm=confirm,
        names=_names(game.players),
        variant=game.variant,
        picker=helpers.table_picker(table),
    ), status


@bp.get("/sessions/<public_id>/version")
def session_version(public_id: str) -> BaseResponse:
    """Tell a phone on the session page whether anything changed: 304, or the new version.

    Every change counts the session's version up in its own transaction, so one read of the
    session's row answers, whichever process served the change.
    """
    etag = f"v{g.session_version}"
    answer = BaseResponse(status=304)
    if etag not in request.if_none_match:
        answer = jsonify(version=g.session_version)
    answer.set_etag(etag)
    answer.headers["Cache-Control"] = "no-cache"
    return answer


@bp.get("/sw.js")
def service_worker() -> BaseResponse:
    """Serve the service worker from the site's root, so that it may keep the session pages.

    Its first line lists the app's files with their fingerprints: a changed file changes the
    worker's bytes, so phones install the new worker, which fetches the new files and drops the
    old ones.
    """
    folder = Path(current_app.static_folder or "")
    files = sorted(
        path.name for path in folder.iterdir() if path.is_file() and path.name != SERVICE_WORKER
    )
    assets = [url_for("static", filename=name) for name in files]
    worker = (folder / SERVICE_WORKER).read_text(encoding="utf-8")
    answer = current_app.response_class(
        f"var ASSETS = {json.dumps(assets)};\n"
        f"var KEPT_PAGES = new RegExp({json.dumps(KEPT_PAGES)});\n{worker}",
        mimetype="text/javascript",
    )
    answer.headers["Cache-Control"] = "no-cache"
    return answer


@bp.get("/csrf-token")
def csrf_token() -> BaseResponse:
    """Give a page's script a fresh CSRF token: the outbox sends waiting forms with it.

    A token lasts an hour (``WTF_CSRF_TIME_LIMIT``); a page kept offline longer holds an
    expired one.
    """
    answer = jsonify(csrf_token=generate_csrf())
    answer.headers["Cache-Control"] = "no-store"
    return answer


@bp.get("/sessions/<public_id>/change")
def change_session(public_id: str) -> Page:
    """Show the forms that rename a player and change how the session ends."""
    return _change_page(_session())


@bp.post("/sessions/<public_id>/players/<int:player_id>/name")
@once_per_form
def rename_player(public_id: str, player_id: int) -> Answer:
    """Give a player another name, checked as at the start."""
    session = _session()
    form = RenameForm()
    if form.validate_on_submit():
        try:
            services.rename_player(session.id, player_id, form.name.data or "")
        except REFUSED as error:
            db.session.rollback()
            form.name.errors = [helpers.rules_message(error)]
        else:
            flash(gettext("The name is changed."), "success")
            return _to_session()
    return _change_page(session, status=422, renamed=(player_id, form))


@bp.post("/sessions/<public_id>/end")
@once_per_form
def change_end(public_id: str) -> Answer:
    """Play the session to another end, between games."""
    session = _session()
    form = end_form(services.variant_of(session))
    if form.validate_on_submit():
        try:
            services.change_end(session.id, {form.end.data: form.number.data})
        except (*REFUSED, services.ConflictError) as error:
            db.session.rollback()
            form.number.errors = [helpers.rules_message(error)]
        else:
            flash(gettext("The session ends as changed."), "success")
            return _to_session()
    return _change_page(session, status=422, end=form)


@bp.post("/sessions/<public_id>/players")
@once_per_form
def seat_player(public_id: str) -> Answer:
    """Seat a new player between games, at the place chosen."""
    session = _session()
    form = seat_form(session.seated)
    if form.validate_on_submit():
        try:
            services.seat_player(session.id, form.name.data or "", after=form.seat.data)
        except services.ConflictError as error:
            # A game started meanwhile (on another phone), or the session is over.
            db.session.rollback()
            return _change_page(session, status=409, problem=helpers.rules_message(error))
        except REFUSED as error:
            db.session.rollback()
            form.name.errors = [helpers.rules_message(error)]
        else:
            name = " ".join((form.name.data or "").split())
            flash(gettext("%(name)s sits at the table from the next game.", name=name))
            return _to_session()
    return _change_page(session, status=422, seat=form)


@bp.route("/sessions/<public_id>/players/<int:player_id>/leave", methods=["GET", "POST"])
@once_per_form
def unseat_player(public_id: str, player_id: int) -> Answer:
    """Ask, then let a player leave the table between games; their points stay."""
    session = _session()
    g.session_id = session.id
    player = next((player for player in session.seated if player.id == player_id), None)
    if player is None:
        raise services.NotFoundError("no_such_player")
    form = ButtonForm()
    if request.method == "GET":
        return render_template("leave.html", session=session, player=player, form=form)
    _check_button()
    name = player.name
    try:
        services.unseat_player(session.id, player_id)
    except REFUSED as error:
        db.session.rollback()
        return _change_page(session, status=422, problem=helpers.rules_message(error))
    flash(gettext("%(name)s has left the table; their points stay.", name=name))
    return _to_session()


def _change_page(
    session: GameSession,
    *,
    status: int = 200,
    renamed: tuple[int, RenameForm] | None = None,
    end: EndForm | None = None,
    seat: SeatForm | None = None,
    problem: str | None = None,
) -> Page:
    variant = services.variant_of(session)
    # Each player's form shows their name, or what was typed where a rename was refused.
    names = {player.id: RenameForm(formdata=None, name=player.name) for player in session.seated}
    if renamed is not None:
        names[renamed[0]] = renamed[1]
    in_play = any(game.status == "open" for game in services.game_summaries(session, latest=1))
    return render_template(
        "change.html",
        session=session,
        names=names,
        end=end or end_form(variant, formdata=None),
        seat=seat or seat_form(session.seated, formdata=None),
        variant=variant,
        problem=problem,
        in_play=in_play,
        over=session.status != "open",
    ), status


# --- the score sheet, the chart of the totals and the result to share --------------------------


@bp.get("/sessions/<public_id>/sheet")
def sheet(public_id: str) -> Page:
    """Show the score sheet: a row per game, a column per player, the chart of the totals."""
    session = _session()
    sheet = services.read_sheet(session)
    variant = sheet.rule_system
    return render_template(
        "sheet.html",
        sheet=sheet,
        names=sheet.names,
        chart=chart_of(sheet) if sheet.games_ended else None,
        day=_day(sheet),
        house_rules=helpers.house_rules_in_words(variant),
        points_name=variant.points_name(helpers.language()),
        end=sheet.end.render(helpers.language()),
    )


@bp.get("/sessions/<public_id>/chart.svg")
def chart_svg(public_id: str) -> BaseResponse:
    """Draw the chart of the totals alone, as an SVG file."""
    chart = chart_of(services.read_sheet(_session()))
    svg = render_template("_chart.html", chart=chart) if chart is not None else _NO_CHART
    return BaseResponse(svg, mimetype="image/svg+xml")


# A session without a game has nothing to draw yet: an empty picture, not an error.
_NO_CHART = '<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 360 220"/>'


@bp.get("/sessions/<public_id>/sheet.csv")
def sheet_csv(public_id: str) -> BaseResponse:
    """Download the sheet as CSV for a spreadsheet in the page's language, named in it too.

    A byte order mark tells a spreadsheet the file is UTF-8; the separator is the one a
    spreadsheet of the language reads (``;`` where the decimal mark is a comma).
    """
    sheet = services.read_sheet(_session())
    text = services.sheet_csv(sheet, helpers.language(), spreadsheet=True)
    answer = BaseResponse(text, mimetype="text/csv")
    title = sheet.rule_system.label(helpers.language())
    answer.headers["Content-Disposition"] = helpers.attachment(
        f"{helpers.file_name(title, sheet.created_at)}.csv"
    )
    return answer


@bp.get("/sessions/<public_id>/export.json")
def export_session(public_id: str) -> BaseResponse:
    """Download the session as the JSON document that ``scorekeeper import`` reads."""
    session = _session()
    session_id, name = session.id, _file_name(session)
    # The export reads in a transaction of its own: one snapshot on PostgreSQL.
    db.session.rollback()
    document = transfer.export_sessions(session_id)
    return _download(transfer.dumps(document), "application/json", f"{name}.json")


def _looking_back(sheet: services.Sheet, *, in_play: bool) -> dict[str, Any]:
    """Return the session page's chart and, between games, the result to share.

    The sharing script is left off while a game is open: the game page stays as light.
    """
    result = None
    if not in_play and sheet.games_ended:
        result = services.result_text(sheet, helpers.language(), _day(sheet))
    return {"chart": chart_of(sheet) if sheet.games_ended else None, "result_text": result}


def _day(sheet: services.Sheet) -> str:
    """Return the day a session started, in the page's language (``24.11.2026``)."""
    return str(format_date(sheet.created_at, "medium"))


def _file_name(session: GameSession) -> str:
    """Return a download's name without its ending: the rule system and the day it started."""
    return f"{session.variant}-{format_date(session.created_at, 'yyyy-MM-dd')}"


def _download(text: str, mimetype: str, name: str) -> BaseResponse:
    """Answer a file to save, in UTF-8."""
    answer = BaseResponse(text, mimetype=mimetype)
    answer.headers.set("Content-Disposition", "attachment", filename=name)
    return answer


# --- groups ----------------------------------------------------------------------------------


@bp.get("/groups/<group_id>")
def group_page(group_id: str) -> Page:
    """Show a group's statistics per rule system and its sessions (its key opened it)."""
    return _group_page(g.group)


@bp.post("/groups/<group_id>/merges")
@once_per_form
def merge_names(group_id: str) -> Answer:
    """Count two names of the group as one person ("Anni" is "Anna")."""
    group: Group = g.group
    form = MergeForm()
    if form.validate_on_submit():
        try:
            services.merge_names(group.id, form.name.data or "", form.same_as.data or "")
        except REFUSED as error:
            db.session.rollback()
            form.same_as.errors = [helpers.rules_message(error)]
        else:
            sentence = gettext(
                "“%(name)s” counts as “%(same_as)s” now.",
                name=" ".join((form.name.data or "").split()),
                same_as=" ".join((form.same_as.data or "").split()),
            )
            flash(sentence, "success")
            return redirect(url_for("web.group_page", group_id=group.public_id))
    return _group_page(group, merge_form=form, status=422)


@bp.post("/groups/<group_id>/keep")
def keep_group(group_id: str) -> BaseResponse:
    """Keep a group link's key on this phone on purpose, as a session's (``keep_session``)."""
    _check_button()
    key = request.form.get("key", "")
    services.access_to_group(group_id, key or None, Access.VIEW)
    access.keep_on_purpose(group_id, key, access.GROUP_KEYS)
    flash(gettext("This group is kept on this phone."), "success")
    return redirect(url_for("web.group_page", group_id=group_id))


@bp.post("/groups/<group_id>/forget")
def forget_group(group_id: str) -> BaseResponse:
    """Take a group off this phone's list; it stays for every other phone with its key."""
    _check_button()
    access.forget_key(group_id, access.GROUP_KEYS)
    flash(
        gettext("The group is off this phone's list. It stays for every phone that has its link."),
        "success",
    )
    return redirect(url_for("web.home"))


def _group_page(group: Group, *, merge_form: MergeForm | None = None, status: int = 200) -> Page:
    statistics = services.read_statistics(group)
    share = access.share_links(group.public_id, access.GROUP_KEYS)
    # A page with keys in its links is kept in no cache.
    g.no_store = bool(share)
    names = sorted(
        {player.name for session in statistics.sessions.sessions for player in session.players},
        key=lambda name: (name.casefold(), name),
    )
    return render_template(
        "group.html",
        group=group,
        statistics=statistics,
        merge_form=merge_form or MergeForm(formdata=None),
        names=names,
        share=share,
        key_to_keep=access.key_to_keep(group.public_id, access.GROUP_KEYS),
        not_kept=access.not_kept_notice(),
        button_form=ButtonForm(formdata=None),
    ), status


def _average(value: float | None) -> str:
    """Return points per game with one decimal in the page's language (``40,5`` in German)."""
    if value is None:
        return "–"
    return str(format_decimal(value, "#,##0.0"))


bp.add_app_template_filter(_average, "average")


def _group_held(session: GameSession) -> Group | None:
    """Return a session's group when this phone holds its key (the session page links it)."""
    held = access.held_keys(access.GROUP_KEYS)
    if session.group_id is None or not held:
        return None
    groups = services.groups_opened_by(held)
    return next((group for group, _granted in groups if group.id == session.group_id), None)
