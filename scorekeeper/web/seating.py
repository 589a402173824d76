"""The seating between games: the change page, rename, the session's end, seat a player, leave."""

from __future__ import annotations

from flask import flash, g, render_template, request
from flask_babel import gettext

from scorekeeper import queries, services, store
from scorekeeper.web import words
from scorekeeper.web.blueprint import bp
from scorekeeper.web.forms import ButtonForm, EndForm, RenameForm, SeatForm, end_form, seat_form
from scorekeeper.web.once import once_per_form
from scorekeeper.web.shared import REFUSED, Answer, Page, check_button, opened_session, to_session


@bp.get("/sessions/<public_id>/change")
def change_session(public_id: str) -> Page:
    """Show the forms that rename a player and change how the session ends."""
    return _change_page(opened_session())


@bp.post("/sessions/<public_id>/players/<int:player_id>/name")
@once_per_form
def rename_player(public_id: str, player_id: int) -> Answer:
    """Give a player another name, checked as at the start."""
    session = opened_session()
    form = RenameForm()
    if form.validate_on_submit():
        try:
            services.rename_player(session.id, player_id, form.name.data or "")
        except REFUSED as error:
            store.rollback()
            form.name.errors = [words.rules_message(error)]
        else:
            flash(gettext("The name is changed."), "success")
            return to_session()
    return _change_page(session, status=422, renamed=(player_id, form))


@bp.post("/sessions/<public_id>/end")
@once_per_form
def change_end(public_id: str) -> Answer:
    """Play the session to another end, between games."""
    session = opened_session()
    form = end_form(queries.variant_of(session))
    if form.validate_on_submit():
        try:
            services.change_end(session.id, {form.end.data: form.number.data})
        except (*REFUSED, services.ConflictError) as error:
            store.rollback()
            form.number.errors = [words.rules_message(error)]
        else:
            flash(gettext("The session ends as changed."), "success")
            return to_session()
    return _change_page(session, status=422, end=form)


@bp.post("/sessions/<public_id>/players")
@once_per_form
def seat_player(public_id: str) -> Answer:
    """Seat a new player between games, at the place chosen."""
    session = opened_session()
    form = seat_form(session.seated)
    if form.validate_on_submit():
        try:
            services.seat_player(session.id, form.name.data or "", after=form.seat.data)
        except services.ConflictError as error:
            # A game started meanwhile (on another phone), or the session is over.
            store.rollback()
            return _change_page(session, status=409, problem=words.rules_message(error))
        except REFUSED as error:
            store.rollback()
            form.name.errors = [words.rules_message(error)]
        else:
            name = " ".join((form.name.data or "").split())
            flash(gettext("%(name)s sits at the table from the next game.", name=name))
            return to_session()
    return _change_page(session, status=422, seat=form)


@bp.route("/sessions/<public_id>/players/<int:player_id>/leave", methods=["GET", "POST"])
@once_per_form
def unseat_player(public_id: str, player_id: int) -> Answer:
    """Ask, then let a player leave the table between games; their points stay."""
    session = opened_session()
    g.session_id = session.id
    player = next((player for player in session.seated if player.id == player_id), None)
    if player is None:
        raise services.NotFoundError("no_such_player")
    form = ButtonForm()
    if request.method == "GET":
        return render_template("leave.html", session=session, player=player, form=form)
    check_button()
    name = player.name
    try:
        services.unseat_player(session.id, player_id)
    except REFUSED as error:
        store.rollback()
        return _change_page(session, status=422, problem=words.rules_message(error))
    flash(gettext("%(name)s has left the table; their points stay.", name=name))
    return to_session()


def _change_page(
    session: queries.SessionRow,
    *,
    status: int = 200,
    renamed: tuple[int, RenameForm] | None = None,
    end: EndForm | None = None,
    seat: SeatForm | None = None,
    problem: str | None = None,
) -> Page:
    variant = queries.variant_of(session)
    # Each player's form shows their name, or what was typed where a rename was refused.
    names = {player.id: RenameForm(formdata=None, name=player.name) for player in session.seated}
    if renamed is not None:
        names[renamed[0]] = renamed[1]
    in_play = any(game.status == "open" for game in queries.game_summaries(session, latest=1))
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
