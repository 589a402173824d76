"""What several page areas share: the game and session a key opened, the way back, entry forms."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask import abort, g, jsonify, redirect, request, url_for
from werkzeug.wrappers import Response as BaseResponse
from wtforms import SelectChoice

from scorekeeper import queries, rules, services
from scorekeeper.web import playing_cards, view_models
from scorekeeper.web.forms import (
    ButtonForm,
    CorrectForm,
    FinishForm,
    LayoffForm,
    MeldForm,
    SwapForm,
    player_choices,
)

Page = str | tuple[str, int]
Answer = Page | BaseResponse

REFUSED = (rules.RulesError, services.InvalidRequestError)


def in_place() -> bool:
    """Say whether the game page's script sent the form and asks for a small JSON answer.

    static/js/record.js sends the page's own form to the form's own address with ``Accept:
    application/json``: one view and one service per use case, the form's CSRF token and a
    one-time token of its own per tap (``once_per_form``), so a tap sent twice counts once.
    """
    return request.accept_mimetypes.best == "application/json"


def refusal_in_place(
    form: MeldForm | LayoffForm | SwapForm | ButtonForm | FinishForm | CorrectForm,
) -> BaseResponse:
    """Answer a refusal in place: the first reason the form or the rules gave.

    A refusal is an answer (200 with ``refused``), not a failure: the script shows it in the
    bar, and the browser logs no failed request for it.
    """
    reasons = [str(e) for errors in form.errors.values() for e in errors if isinstance(e, str)]
    return jsonify(refused=True, error=str(playing_cards.suits(reasons[0] if reasons else "")))


def open_game(game_id: int) -> queries.GameState:
    """Return a game still being played, or raise the reason it cannot change.

    Checked before the form is read, so that a finished game answers 409 whatever was sent;
    the services refuse the same with the same messages.
    """
    game = queries.read_game(game_id)
    g.session_id, g.game_id = game.session_id, game.id
    return still_open(game)


def still_open(game: queries.GameState) -> queries.GameState:
    """Return a game read already if it is still being played, or raise why it cannot change."""
    if game.session_status == "finished":
        raise services.ConflictError("session_over")
    services.refuse_closed(game)
    return game


def check_button() -> None:
    """Refuse (400) a button's form that does not carry this browser's CSRF token."""
    if not ButtonForm().validate_on_submit():
        abort(400)


def opened_session() -> queries.SessionRow:
    """Return the session the key opened (see ``access.let_in``)."""
    session: queries.SessionRow = g.game_session
    return session


def to_session(anchor: str = "game", **chosen: Any) -> BaseResponse:
    """Go back to the session page; its id is known from the key check, not read again.

    ``chosen`` starts the next entry (``player``, ``cards``), as ``_next_entry_form`` reads it.
    """
    given = {name: value for name, value in chosen.items() if value is not None}
    return redirect(url_for("web.session_page", public_id=g.public_id, _anchor=anchor, **given))


def session_of(game: queries.GameState) -> queries.SessionRow:
    """Return the session a game belongs to, for a page that shows the whole session."""
    return queries.get_session(game.session_id)


def names_of(players: Iterable[queries.PlayerRow]) -> dict[int, str]:
    """Return the players' names by id (of a session's players or a game's player rows)."""
    return {player.id: player.name for player in players}


def new_meld_form(game: queries.GameState, **kwargs: Any) -> MeldForm:
    form = MeldForm(**kwargs)
    form.player.choices = player_choices(game.players)
    if kwargs.get("formdata", True) is None:
        form.player.data = view_models.whose_entry(game)
    return form


def new_layoff_form(game: queries.GameState, **kwargs: Any) -> LayoffForm:
    form = LayoffForm(**kwargs)
    _onto_choices(game, form, preselect=kwargs.get("formdata", True) is None)
    return form


def new_swap_form(game: queries.GameState, **kwargs: Any) -> SwapForm:
    form = SwapForm(**kwargs)
    _onto_choices(game, form, preselect=kwargs.get("formdata", True) is None)
    return form


def _onto_choices(game: queries.GameState, form: LayoffForm | SwapForm, *, preselect: bool) -> None:
    """Offer the players and the melds on the table; preselect whose entry it likely is."""
    form.player.choices = player_choices(game.players)
    table = queries.table_of(game)
    names = names_of(game.players)
    form.meld.choices = [
        SelectChoice(
            entry.id, f"{names[entry.player_id]}: {rules.cards_text(table.melds[entry.id].cards)}"
        )
        for entry in game.entries
        if entry.kind == "meld"
    ]
    if preselect:
        form.player.data = view_models.whose_entry(game)
