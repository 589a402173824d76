"""The end of a game: finish it (preview, then book), abandon it, reopen it, what it booked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import flash, g, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext

from scorekeeper import queries, services, store
from scorekeeper.web import playing_cards, view_models, words
from scorekeeper.web.blueprint import bp
from scorekeeper.web.forms import NOBODY, ButtonForm, FinishForm, finish_form
from scorekeeper.web.once import once_per_form
from scorekeeper.web.shared import (
    REFUSED,
    Answer,
    Page,
    check_button,
    in_place,
    names_of,
    open_game,
    refusal_in_place,
    still_open,
    to_session,
)

# The finish form's "Show the settlement" button: its GET previews; without it the hands in the
# address only fill the form in (a reopened game's hands as they were booked).
PREVIEW = "show"


@bp.route("/games/<int:game_id>/finish", methods=["GET", "POST"])
@once_per_form
def finish(game_id: int) -> Answer:
    """Preview the settlement of a game (a GET with the hands), then book it on Confirm."""
    game = queries.read_game(game_id)
    g.session_id = game.session_id
    ended = _booked_answer(game)
    if ended is not None:
        return ended
    game = still_open(game)
    players = game.players
    # Where the rule system settles a game nobody went out of, the form offers that (F5).
    nobody_out = game.variant.nobody_out_settles()
    if request.method == "GET":
        # The preview is a GET: back after booking asks the page again (no resubmission
        # prompt), and the page of a booked game shows what was booked.
        form = finish_form(
            players, nobody_out=nobody_out, formdata=request.args or None, meta={"csrf": False}
        )
        if PREVIEW not in request.args:
            if not request.args:
                form.winner.data = view_models.whose_entry(game)
            return _finish_page(game, form)
        if not form.validate():
            return _finish_page(game, form, status=422)
    else:
        form = finish_form(players, nobody_out=nobody_out)
        if not form.validate_on_submit():
            if in_place():
                return refusal_in_place(form)
            return _finish_page(game, form, status=422)
    # Only the Confirm button's POST books: a GET never does, whatever its address says.
    commit = request.method == "POST" and form.confirm.data == "1"
    number = game.number
    try:
        if commit:
            done = services.finish_game(
                game.id, form.winner_id(), form.hands(), form.romme_choice()
            )
        else:
            preview = services.preview_finish(
                game.id, form.winner_id(), form.hands(), form.romme_choice()
            )
    except REFUSED as error:
        store.rollback()
        if in_place():
            return jsonify(refused=True, error=str(playing_cards.suits(words.rules_message(error))))
        return _finish_page(game, form, status=422, problem=words.rules_message(error))
    if commit:
        # The rule system says the news: what the winner gains, or what the others book.
        names = names_of(players)
        news = words.message_text(game.variant.words.game_news(number, names, done.settlement))
        if in_place():
            # The outbox sent a finish recorded offline: the page that asked is long gone.
            return jsonify(said=news)
        flash(news, "success")
        return to_session()
    store.rollback()
    # ``game`` was read before the preview, which wrote nothing: it still shows the game.
    form.romme.data = "yes" if preview.romme else "no"
    confirm = finish_form(players, nobody_out=nobody_out, formdata=None, data=_resubmitted(form))
    return _finish_page(game, form, preview=preview, confirm=confirm)


def _booked_answer(game: queries.GameState) -> Answer | None:
    """Show what a finished game booked; a Confirm sent after another phone booked says so.

    None for a game still open (or abandoned): the finish page, or its refusal, follows.
    """
    if game.status != "finished":
        return None
    if request.method == "POST":
        if request.form.get("confirm") != "1":
            return None
        # A repeat from this phone carries the first send's token and never gets here.
        if in_place():
            # A finish that waited offline: named in the bar, never merged into the booking.
            return jsonify(refused=True, error=gettext("Already booked on another phone."))
        flash(gettext("Already booked on another phone."), "error")
        return redirect(url_for("web.finish", game_id=game.id), 303)
    return _booked_page(game)


def _booked_page(game: queries.GameState) -> Page:
    """Show the settlement a game booked, hand by hand, as the history keeps it."""
    lines = game.settlement_lines
    return render_template(
        "booked.html",
        game=game,
        lines={line.player_id: line for line in lines},
        groupings=queries.hand_groupings(game.variant, lines),
        names=names_of(game.players),
    )


@bp.route("/games/<int:game_id>/abandon", methods=["GET", "POST"])
@once_per_form
def abandon(game_id: int) -> Answer:
    """Ask, then abandon a game (R6): its melds stand and nobody wins it."""
    return _ask_then(
        open_game(game_id),
        "abandon.html",
        services.abandon_game,
        lambda number: gettext("Game %(number)s was abandoned: its melds stand.", number=number),
    )


@bp.route("/games/<int:game_id>/reopen", methods=["GET", "POST"])
@once_per_form
def reopen(game_id: int) -> Answer:
    """Ask, then take back the booking of the last ended game and play it on."""
    game = queries.read_game(game_id)
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


def _finish_as_booked(game: queries.GameState) -> str | None:
    """Return the finish page filled in with what a finished game booked: winner and hands.

    A game nobody went out of (F5) opens with "Nobody went out" and every hand.
    """
    if game.status != "finished":
        return None
    fields: dict[str, Any] = {"winner": NOBODY if game.winner_id is None else game.winner_id}
    for line in game.settlement_lines:
        if line.player_id == game.winner_id:
            continue
        if line.hand:
            fields[f"hand_{line.player_id}"] = line.hand
        elif line.hand_points is not None:
            fields[f"points_{line.player_id}"] = line.hand_points
    return url_for("web.finish", game_id=game.id, **fields)


def _ask_then(
    game: queries.GameState,
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
    check_button()
    act(game.id)
    flash(done(game.number))
    return redirect(then) if then is not None else to_session()


def _resubmitted(form: FinishForm) -> dict[str, Any]:
    """Return the values of a previewed form, marked to be booked when posted again."""
    # The confirming form gets a token of its own: the preview was not applied.
    data = {name: value for name, value in form.data.items() if name not in ("csrf_token", "once")}
    return {**data, "confirm": "1"}


def _finish_page(
    game: queries.GameState,
    form: FinishForm,
    *,
    status: int = 200,
    problem: str | None = None,
    preview: services.Finish | None = None,
    confirm: FinishForm | None = None,
) -> Page:
    table = queries.table_of(game)
    return render_template(
        "finish.html",
        game=game,
        form=form,
        problem=problem,
        preview=preview,
        confirm=confirm,
        names=names_of(game.players),
        variant=game.variant,
        picker=playing_cards.table_picker(table),
    ), status
