"""A game's entries: record a meld, layoff or swap, check and read cards, undo, delete, correct."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import (
    abort,
    flash,
    g,
    get_template_attribute,
    jsonify,
    render_template,
    request,
    url_for,
)
from flask_babel import get_locale, gettext
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response as BaseResponse
from wtforms import SelectChoice

from scorekeeper import queries, services, store
from scorekeeper.http import checks
from scorekeeper.web import playing_cards, read_back, view_models, words
from scorekeeper.web.blueprint import bp
from scorekeeper.web.forms import (
    ButtonForm,
    CorrectForm,
    LayoffForm,
    MeldForm,
    SwapForm,
    player_choices,
)
from scorekeeper.web.once import once_per_form
from scorekeeper.web.session_page import render_session_page
from scorekeeper.web.shared import (
    REFUSED,
    Answer,
    Page,
    check_button,
    in_place,
    names_of,
    new_layoff_form,
    new_meld_form,
    new_swap_form,
    open_game,
    refusal_in_place,
    session_of,
    to_session,
)

# The parts several pages draw alike (an entry's line, the head): macros of this template.
PARTS = "_parts.html"
MELD_CHOSEN = _l(
    "A meld on the table is chosen: tap “Record layoff” to lay these cards off onto it, or "
    "choose “New meld” to record them as a meld of their own."
)


@bp.get("/games/<int:game_id>/melds")
@bp.get("/games/<int:game_id>/layoffs")
@bp.get("/games/<int:game_id>/swaps")
@bp.get("/games/<int:game_id>/undo")
@bp.get("/games/<int:game_id>/entries/<int:entry_id>/delete")
@bp.get("/sessions/<public_id>/games")
def back_to_the_game(**_address: object) -> BaseResponse:
    """Send a reload of the address a refused action was shown at back to its game."""
    return to_session()


@bp.post("/games/<int:game_id>/melds")
@once_per_form
def record_meld(game_id: int) -> Answer:
    """Record a meld and show what it scored."""
    game = open_game(game_id)
    if request.form.get("meld"):
        # Without the script a meld tapped on the table stays chosen whichever button is
        # tapped: say which button lays the cards off, with the cards and the meld kept.
        onto = new_layoff_form(game)
        onto.validate_on_submit()
        onto.cards.errors = [*onto.cards.errors, str(MELD_CHOSEN)]
        return render_session_page(session_of(game), status=422, layoff_form=onto)
    form = new_meld_form(game)

    def record() -> str:
        names = names_of(game.players)
        melds = form.meld_lines()
        if len(melds) == 1:
            return read_back.describe_recorded(
                services.record_meld(
                    game.id,
                    form.player.data,
                    melds[0],
                    form.restores.data,
                    tapped_at=form.tap_time,
                ),
                names,
            )
        recorded = services.record_melds(
            game.id, form.player.data, melds, form.restores.data, tapped_at=form.tap_time
        )
        return read_back.describe_recorded_melds(recorded, names)

    recorded = _record_entry(form, record)
    return recorded or render_session_page(session_of(game), status=422, meld_form=form)


@bp.post("/games/<int:game_id>/layoffs")
@once_per_form
def record_layoff(game_id: int) -> Answer:
    """Record cards laid off onto a chosen meld and show what they scored."""
    game = open_game(game_id)
    form = new_layoff_form(game)

    def record() -> str:
        recorded = services.record_layoff(
            game.id,
            form.player.data,
            form.meld.data,
            form.cards.data,
            form.restores.data,
            tapped_at=form.tap_time,
        )
        return read_back.describe_recorded(recorded, names_of(game.players))

    recorded = _record_entry(form, record)
    return recorded or render_session_page(session_of(game), status=422, layoff_form=form)


@bp.post("/games/<int:game_id>/swaps")
@once_per_form
def record_swap(game_id: int) -> Answer:
    """Record a joker swap: cards put in the joker's place, the joker in a new meld (G4)."""
    game = open_game(game_id)
    form = new_swap_form(game)

    def record() -> str:
        services.record_swap(
            game.id,
            form.player.data,
            form.meld.data,
            form.cards.data,
            form.new_meld.data,
            form.restores.data,
            tapped_at=form.tap_time,
        )
        # Said as the game lies after the swap: the meld the joker left, and its new meld.
        after = queries.read_game(game.id)
        last = after.entries[-1]
        names = names_of(after.players)
        return read_back.describe(last, after.entries, names, queries.table_of(after))

    recorded = _record_entry(form, record)
    return recorded or render_session_page(session_of(game), status=422, swap_form=form)


def _record_entry(
    form: MeldForm | LayoffForm | SwapForm, record: Callable[[], str]
) -> BaseResponse | None:
    """Run the recording service; say what the entry scored, or put the refusal on the form."""
    if not form.validate_on_submit():
        return refusal_in_place(form) if in_place() else None
    try:
        sentence = record()
    except REFUSED as error:
        store.rollback()
        form.cards.errors = [words.rules_message(error)]
        return refusal_in_place(form) if in_place() else None
    if in_place():
        return _answered_in_place(sentence, g.game_id)
    flash(sentence, "success")
    # The page opens where the next entry starts: the player chips, then the picker.
    return to_session(anchor="entry")


def _answered_in_place(sentence: str, game_id: int) -> BaseResponse:
    """Answer an entry recorded in place: the server's words and its line as the page draws it.

    The rest of the page (table, standing, picker) the script reads again, as the live table
    does when another phone records.
    """
    after = queries.read_game(game_id)
    shown = view_models.entries_shown(
        after.entries, names_of(after.players), after.id, after.variant
    )
    line = get_template_attribute(PARTS, "entry")(shown[-1], True) if shown else ""
    # The melds it put down, in the order typed: a layoff tapped onto one of them before this
    # answer came waits in the outbox for its id (static/js/outbox.js: done).
    last = view_models.entry_lines(after.entries)[-1] if after.entries else None
    melds = [row.id for row in last.rows] if last and last.kind in ("meld", "melds") else []
    return jsonify(
        said=str(playing_cards.suits(sentence)),
        entry=shown[-1].id if shown else None,
        line=line,
        melds=melds,
    )


@bp.post("/games/<int:game_id>/check")
def check_entry(game_id: int) -> BaseResponse | tuple[BaseResponse, int]:
    """Check the entry begun on the game page against the table, as recording it would.

    The live check of static/js/entry.js: JSON in (``player``, ``cards`` or ``melds``, ``onto``,
    ``new_meld``), the API's answer out (``http.checks.game_check``), in the page's language;
    cards it cannot read are ``valid: false`` too (the API answers 422).
    """
    body = request.get_json(silent=True)
    try:
        player, fields = _check_fields(body)
    except _WrongKind as wrong:
        store.rollback()
        return jsonify(error=str(wrong.sentence)), 422
    lang = str(get_locale())
    try:
        return jsonify(checks.game_check(game_id, player, fields, lang).sent())
    except REFUSED as error:
        # Cards the server cannot read are said as a check that fails, as the rules' refusals.
        store.rollback()
        return jsonify(valid=False, error=words.rules_message(error))
    finally:
        store.rollback()


@bp.post("/games/<int:game_id>/entries/<int:entry_id>/check")
def check_correction(game_id: int, entry_id: int) -> BaseResponse | tuple[BaseResponse, int]:
    """Check a correction begun on an entry's page as saving it would, and write nothing.

    The live check of static/js/correct.js: JSON in (``cards``, ``player``, ``meld``), the
    answer of ``/check`` out (``http.checks.correction_check``), in the page's language: ✓
    only for what "Save the correction" would accept.
    """
    body = request.get_json(silent=True)
    try:
        if not isinstance(body, dict):
            raise _WrongKind(_l("The body must be a JSON object."))
        fields = {
            "cards": _text_field(body, "cards"),
            "player_id": _id_field(body, "player"),
            "meld_id": _id_field(body, "meld"),
        }
    except _WrongKind as wrong:
        store.rollback()
        return jsonify(error=str(wrong.sentence)), 422
    try:
        return jsonify(checks.correction_check(game_id, entry_id, fields, str(get_locale())).sent())
    except REFUSED as error:
        # Cards the server cannot read, an entry or game gone: a check that fails, in words.
        store.rollback()
        return jsonify(valid=False, error=words.rules_message(error))
    finally:
        store.rollback()


@bp.post("/games/<int:game_id>/read")
def read_cards(game_id: int) -> BaseResponse:
    """Answer the cards a typed text names, as the game's rule system reads them.

    The finish and correction pages ask it for what a hand or an entry typed in words means
    ("Herz As" is A♥) and show that answer: the script reads no words (static/js/check.js).
    JSON in (``cards``, a text), out ``cards`` (codes), or ``error`` in the page's language;
    it writes nothing, so it needs no form token (the finish page is a GET form without one;
    see create_app).
    """
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or not isinstance(body.get("cards"), str):
        abort(400)
    try:
        pieces = services.read_cards(game_id, body["cards"])
    except REFUSED as error:
        return jsonify(cards=[], error=words.rules_message(error))
    finally:
        store.rollback()
    return jsonify(cards=[piece.code for piece in pieces])


class _WrongKind(Exception):
    """A field of the live check's body that is not of the kind the page sends (422)."""

    def __init__(self, sentence: Any) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence


# The largest id a database column holds (a signed 64-bit integer).
_LARGEST_ID = 2**63 - 1


def _check_fields(body: object) -> tuple[int | None, dict[str, Any]]:
    """Return the player and the entry the live check's JSON names; raise ``_WrongKind``.

    The page sends ids as digits and cards as text; anything else (a float, a boolean, digits
    ``int`` cannot read such as "²", melds that are no list of texts) is refused in words.
    """
    if not isinstance(body, dict):
        raise _WrongKind(_l("The body must be a JSON object."))
    onto = _id_field(body, "onto")
    melds = body.get("melds")
    if melds is None:
        melds = []
    if not isinstance(melds, list) or not all(isinstance(text, str) for text in melds):
        raise _WrongKind(_l('melds must be a list of melds, e.g. ["Q♣ K♣ A♣", "3♦ 3♥ 3♠"].'))
    cards = _text_field(body, "cards") or ""
    fields: dict[str, Any] = {}
    if onto is None:
        melds = [text for text in melds if text.strip()]
        fields["melds"] = [*melds, cards] if cards.strip() else melds
    else:
        fields.update(onto=onto, cards=cards)
        new_meld = _text_field(body, "new_meld")
        if new_meld is not None:
            fields["new_meld"] = new_meld
    return _id_field(body, "player"), fields


def _id_field(body: dict[str, Any], field: str) -> int | None:
    """Return an id sent as a number or as ASCII digits, None when left out or empty."""
    value = body.get(field)
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 20:
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= _LARGEST_ID:
        return value
    raise _WrongKind(_l("%(field)s must be an id (a whole number).", field=field))


def _text_field(body: dict[str, Any], field: str) -> str | None:
    """Return cards sent as text, None when left out."""
    value = body.get(field)
    if value is None or isinstance(value, str):
        return value
    raise _WrongKind(_l('%(field)s must be cards as text, e.g. "Q♣ K♣ A♣".', field=field))


@bp.post("/games/<int:game_id>/undo")
@once_per_form
def undo(game_id: int) -> Answer:
    """Take back the latest entry of the game."""
    game = open_game(game_id)
    check_button()
    sentence = ""
    player: int | None = None
    restore = _restore_of(game)
    if game.entries:
        table = queries.table_of(game)
        sentence = read_back.describe(game.entries[-1], game.entries, names_of(game.players), table)
        # An entry is undone to be entered again, mostly by the same player: chosen at once.
        player = game.entries[-1].player_id
    # The page names the entry it showed last, so a double tap cannot undo two entries.
    services.undo_last_entry(game.id, request.args.get("entry", type=int))
    if in_place():
        undone = str(playing_cards.suits(gettext("Undone: %(entry)s", entry=sentence)))
        return jsonify(said=undone, player=player, restore=restore)
    flash(gettext("Undone: %(entry)s", entry=sentence))
    return to_session(anchor="entry", player=player)


def _restore_of(game: queries.GameState, entry_id: int | None = None) -> dict[str, Any] | None:
    """Return the form that records an entry again (the latest one unless named), for "Restore".

    After an undo, or a delete on the entry's page. The address and fields of the form that
    recorded it: sent again it is a new entry, with a one-time token of its own, checked again
    against the table as it lies then (and so the latest entry then).
    """
    if not game.entries:
        return None
    last = game.entries[-1] if entry_id is None else queries.entry_in(game.entries, entry_id)
    group = last.group_id if last.group_id is not None else last.id
    rows = [entry for entry in game.entries if group in (entry.id, entry.group_id)]
    first = rows[0]
    fields: dict[str, Any] = {"player": first.player_id, "restores": first.id}
    if first.kind == "swap":
        fields.update(meld=first.meld_id, cards=view_models.entry_cards(first))
        fields["new_meld"] = view_models.entry_cards(rows[-1])
        address = url_for("web.record_swap", game_id=game.id)
    elif first.kind == "layoff":
        fields.update(meld=first.meld_id, cards=view_models.entry_cards(first))
        address = url_for("web.record_layoff", game_id=game.id)
    else:
        melds = [view_models.entry_cards(row) for row in rows]
        fields.update(melds="\n".join(melds[:-1]), cards=melds[-1])
        address = url_for("web.record_meld", game_id=game.id)
    return {"url": address, "fields": fields}


@bp.post("/games/<int:game_id>/entries/<int:entry_id>/delete")
@once_per_form
def delete_entry(game_id: int, entry_id: int) -> Answer:
    """Delete an entry that nothing on the table builds on."""
    game = open_game(game_id)
    entry = queries.entry_in(game.entries, entry_id)
    check_button()
    sentence = read_back.describe(
        entry, game.entries, names_of(game.players), queries.table_of(game)
    )
    restore = _restore_of(game, entry.id)
    try:
        services.delete_entry(game.id, entry.id)
    except services.ConflictError as error:
        # Said under the button it was tapped on, on the entry's page.
        store.rollback()
        if in_place():
            return jsonify(refused=True, error=str(playing_cards.suits(words.rules_message(error))))
        form = _correct_form(game, entry, formdata=None)
        return _entry_page(game, entry_id, form, 409, words.rules_message(error))
    if in_place():
        # The script goes back to the game page where it was left, says this and offers
        # "Restore" there, as after an undo.
        deleted = str(playing_cards.suits(gettext("Deleted: %(entry)s", entry=sentence)))
        back = url_for("web.session_page", public_id=g.public_id, _anchor="game")
        return jsonify(said=deleted, restore=restore, back=back)
    flash(gettext("Deleted: %(entry)s", entry=sentence))
    return to_session()


@bp.route("/games/<int:game_id>/entries/<int:entry_id>/edit", methods=["GET", "POST"])
@once_per_form
def correct_entry(game_id: int, entry_id: int) -> Answer:
    """Show an entry's cards to correct, and record the correction."""
    game = open_game(game_id)
    entry = queries.entry_in(game.entries, entry_id)
    form = _correct_form(game, entry)
    status = 422 if request.method == "POST" else 200
    if request.method == "POST" and in_place() and not form.validate_on_submit():
        return refusal_in_place(form)
    if form.validate_on_submit():
        onto = form.meld.data if "meld" in form else None
        try:
            done = services.correct_entry(
                game.id, entry.id, form.cards.data, form.player.data, onto
            )
        except (*REFUSED, services.ConflictError) as error:
            # Said beside the field, so that what was typed stays to be mended.
            store.rollback()
            form.cards.errors = [words.rules_message(error)]
            if in_place():
                # Said in the bar under the picker, where the thumb is, like the game page.
                return refusal_in_place(form)
            if isinstance(error, services.ConflictError):
                status = 409
        else:
            # Said as the game is after the correction, which the service returns.
            after = done.game
            corrected = queries.entry_in(after.entries, entry_id)
            table = queries.table_of(after)
            sentence = read_back.describe(corrected, after.entries, names_of(after.players), table)
            flash(gettext("Corrected: %(entry)s", entry=sentence), "success")
            if in_place():
                return jsonify(to=to_session().location)
            return to_session()
    return _entry_page(game, entry_id, form, status)


def _entry_page(
    game: queries.GameState,
    entry_id: int,
    form: CorrectForm,
    status: int,
    delete_problem: str | None = None,
) -> Page:
    """Show an entry to correct or delete, with why a correction or a delete was refused."""
    entry = queries.entry_in(game.entries, entry_id)
    # The entry's own cards are the ones being corrected: they stay free to tap.
    own = [card.card for card in entry.cards]
    picker = playing_cards.table_picker(queries.table_of(game), free=own)
    # Going back to this page after a delete or a correction asks again: no stale entry.
    g.no_store = True
    # The live check of a layoff needs each meld it could go onto as it lay then.
    onto: dict[int, str] = {}
    if entry.kind == "layoff":
        before = queries.table_of(game, before=entry.position)
        onto = {meld: " ".join(map(str, lying.cards)) for meld, lying in before.melds.items()}
    return render_template(
        "entry_edit.html",
        game=game,
        entry=entry,
        onto=onto,
        names=names_of(game.players),
        form=form,
        button_form=ButtonForm(formdata=None),
        picker=picker,
        line=view_models.line_of(game.entries, entry_id),
        delete_problem=delete_problem,
    ), status


def _correct_form(game: queries.GameState, entry: queries.EntryRow, **kwargs: Any) -> CorrectForm:
    """Return the correction form of an entry; a layoff's names the melds it could lie on."""
    form = CorrectForm(
        **kwargs,
        data={
            "cards": view_models.entry_cards_label(entry),
            "player": entry.player_id,
            "meld": entry.meld_id,
        },
    )
    form.player.choices = player_choices(game.players)
    if entry.kind != "layoff":
        del form.meld
        return form
    # The melds as they lay when the cards were laid off: those the cards could have gone onto.
    table = queries.table_of(game, before=entry.position)
    names = names_of(game.players)
    form.meld.choices = [
        SelectChoice(
            meld.id,
            f"{names[meld.player_id]}: {playing_cards.cards_label(table.melds[meld.id].cards)}",
        )
        for meld in game.entries
        if meld.id in table.melds
    ]
    return form
