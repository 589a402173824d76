"""A club evening's pages: start it, the organiser's page, the board for a TV, the results list."""

from __future__ import annotations

from typing import Any

from flask import flash, g, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import queries, rules, services, store
from scorekeeper.keys import SessionKeys
from scorekeeper.web import access, words
from scorekeeper.web.blueprint import bp
from scorekeeper.web.forms import ButtonForm, new_evening_form
from scorekeeper.web.once import once_per_form
from scorekeeper.web.shared import REFUSED, Answer, Page, check_button

# How often the board and the phones following it ask whether anything changed, in seconds.
BOARD_SECONDS = 3
# Where each field's refusal shows: the rules core's problems by field, on the form's fields.
_FIELDS = {
    "variant": "variant",
    "players": "players",
    "table_size": "table_size",
    "series": "series",
    "series_end": "length",
    "seating": "seating",
}


@bp.get("/evenings/new")
def new_evening() -> Page:
    """Show the form that starts a club evening."""
    return render_template("evening_new.html", form=new_evening_form(formdata=None))


@bp.post("/evenings/new")
@once_per_form
def start_evening() -> Answer:
    """Start a club evening: series 1 drawn, a session at each table; keep its edit key here."""
    form = new_evening_form()
    if not form.validate_on_submit():
        return render_template("evening_new.html", form=form), 422
    length = form.length.data
    chosen: dict[str, Any] = {
        "variant": form.variant.data,
        "house_rules": form.house_rules(),
        "players": form.names(),
        "series": form.series.data,
        "games_per_series": length if form.end.data == "games" else None,
        "minutes_per_series": length if form.end.data == "minutes" else None,
        "table_size": form.table_size.data,
        "seating": form.seating.data,
        "small_tables": bool(form.small_tables.data),
    }
    problems = rules.evening_problems(**chosen)
    if problems:
        for where, error in problems.items():
            getattr(form, _FIELDS[where]).errors = [words.rules_message(error)]
        return render_template("evening_new.html", form=form), 422
    keys = SessionKeys.new()
    try:
        view = services.start_evening(form.name.data or "", keys=keys, **chosen)
    except REFUSED as error:
        store.rollback()
        form.name.errors = [words.rules_message(error)]
        return render_template("evening_new.html", form=form), 422
    public_id = view.evening.public_id
    access.keep_key(public_id, keys.edit, where=access.EVENING_KEYS)
    return redirect(url_for("web.evening_page", evening_id=public_id))


@bp.get("/evenings/<evening_id>")
def evening_page(evening_id: str) -> Page:
    """Show the organiser's page: each table's QR code, the draw, the next series."""
    view = queries.read_evening(g.evening)
    keys = access.evening_keys(evening_id)
    g.no_store = True  # its links hold keys
    tables = []
    for table in view.latest.tables:
        link = None
        if keys is not None:
            link = access.table_link(
                table.session_public_id, keys.table(view.latest.number, table.number).edit
            )
        tables.append((table, link))
    board = None
    if keys is not None:
        board = access.evening_link("web.evening_board", evening_id, keys.view)
    return render_template(
        "evening.html",
        view=view,
        tables=tables,
        progress={each.table.number: each for each in view.progress},
        can_edit=keys is not None,
        board=board,
        button_form=ButtonForm(formdata=None),
    )


@bp.post("/evenings/<evening_id>/draw")
def draw_again(evening_id: str) -> BaseResponse:
    """Draw the latest series again, before play begins at its tables."""
    check_button()
    try:
        services.redraw_series(g.evening.id)
    except (*REFUSED, services.ConflictError) as error:
        store.rollback()
        flash(words.rules_message(error), "error")
    else:
        flash(gettext("The series is drawn again: the tables' QR codes stay the same."), "success")
    return redirect(url_for("web.evening_page", evening_id=evening_id))


@bp.post("/evenings/<evening_id>/series")
def next_series(evening_id: str) -> BaseResponse:
    """Seat the next series once every table of the latest one has ended."""
    check_button()
    keys = access.evening_keys(evening_id)
    assert keys is not None  # a POST needs the edit key (access.let_into_evening)
    try:
        view = services.seat_next_series(g.evening.id, keys)
    except (*REFUSED, services.ConflictError) as error:
        store.rollback()
        flash(words.rules_message(error), "error")
    else:
        flash(gettext("Series %(number)s is seated.", number=view.latest.number), "success")
    return redirect(url_for("web.evening_page", evening_id=evening_id))


@bp.get("/evenings/<evening_id>/board")
def evening_board(evening_id: str) -> Page:
    """Show the board for a TV: each table's progress and the ranking, updated in place."""
    view = queries.read_evening(g.evening)
    key = access.held_key(evening_id, access.EVENING_KEYS) or ""
    if access.can_edit():
        key = SessionKeys.from_edit_key(key).view
    follow = access.evening_link("web.evening_board", evening_id, key) if key else None
    g.no_store = True
    return render_template(
        "evening_board.html",
        view=view,
        follow=follow,
        live_seconds=BOARD_SECONDS,
    )


@bp.get("/evenings/<evening_id>/version")
def evening_version(evening_id: str) -> BaseResponse:
    """Tell the board whether anything changed: 304, or the new version (as a session's)."""
    version = queries.evening_version(g.evening)
    etag = f"v{version}"
    answer = BaseResponse(status=304)
    if etag not in request.if_none_match:
        answer = jsonify(version=version)
    answer.set_etag(etag)
    answer.headers["Cache-Control"] = "no-cache"
    return answer


@bp.get("/evenings/<evening_id>/results")
def evening_results(evening_id: str) -> Page:
    """Show the results list to print (A4): the ranking with every series' totals."""
    view = queries.read_evening(g.evening)
    return render_template("evening_results.html", view=view)
