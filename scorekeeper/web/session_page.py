"""The session page: the totals, the current game and its forms, the next game, the live version."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from flask import flash, g, jsonify, render_template, request
from flask_babel import gettext
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import queries, services
from scorekeeper.web import access, playing_cards, view_models, words
from scorekeeper.web.blueprint import bp
from scorekeeper.web.forms import ButtonForm, LayoffForm, MeldForm, SwapForm
from scorekeeper.web.groups import group_held
from scorekeeper.web.looking_back import looking_back_parts
from scorekeeper.web.once import once_per_form
from scorekeeper.web.shared import (
    Answer,
    Page,
    check_button,
    names_of,
    new_meld_form,
    opened_session,
    to_session,
)

# The session page shows this many of the latest games (the history a page of them at a time).
RECENT_GAMES = 5
# The session page's chart draws the running totals of this many latest games at most.
CHART_GAMES = 30
# The cards an address may put into the entry form: a meld's worth, typed loosely.
MOST_TYPED = 200
# Every phone on an open session page asks this often whether another phone changed anything,
# while the page is on screen: a change shows within this and a round trip, and an unchanged
# answer is a 304 from one read of the session's row.
LIVE_SECONDS = 2


@bp.get("/sessions/<public_id>")
def session_page(public_id: str) -> Page:
    """Show the totals, whose deal it is, the current game and the games played."""
    return render_session_page(opened_session())


@bp.post("/sessions/<public_id>/games")
@once_per_form
def start_game(public_id: str) -> Answer:
    """Deal the next game; the deal passes to the left."""
    g.session_id = opened_session().id
    check_button()
    game = services.start_game(g.session_id)
    flash(
        gettext("Game %(number)s: %(dealer)s deals.", number=game.number, dealer=game.dealer.name)
    )
    return to_session()


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


def render_session_page(
    session: queries.SessionRow,
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
    scores, game = queries.scores_with_game(session, latest=CHART_GAMES)
    dealt = scores.games[-1].number if scores.games else 0
    variant = queries.variant_of(session)
    names = names_of(session.players)
    dealer = queries.next_dealer(session, scores.games)
    past = [past for past in scores.games if past.status != "open"][-RECENT_GAMES:]
    # A table of a club evening: its end is the series' (a series of minutes counts no games).
    evening_table = queries.evening_table(session.id)
    context: dict[str, Any] = {
        "session": session,
        "variant": variant,
        "scores": scores,
        "standing": scores.standing,
        "names": names,
        "dealer": dealer,
        "standing_rows": view_models.standing_shown(session, variant, scores, dealer.id),
        "deal": queries.deal_of(game) if game is not None else None,
        "house_rules": words.house_rules_in_words(variant),
        "evening_table": evening_table,
        "game": game,
        "past": past,
        "past_shown": view_models.past_shown(past, scores.game_points, names),
        # The last ended game is offered to reopen while the game dealt after it can go.
        "reopen_offered": queries.reopen_possible(session, game),
        "games_played": dealt - (1 if game is not None else 0),
        "problem": problem,
        "button_form": ButtonForm(formdata=None),
        "winner": _winner(session, scores),
        "share": access.share_links(session.public_id),
        "key_to_keep": access.key_to_keep(session.public_id),
        "not_kept": access.not_kept_notice(),
        "live_seconds": LIVE_SECONDS,
        **looking_back_parts(queries.read_sheet(session, scores), in_play=game is not None),
        "group": group_held(session),
    }
    # The games left are said where the end counts games (a series of minutes counts none).
    context["games_left_said"] = evening_table is None or evening_table.end.games is not None
    if evening_table is not None:
        context["house_rules"] = evening_table.end.table_rules_said(variant, words.language())
    # A page with keys in its links is kept in no cache.
    g.no_store = bool(context["share"])
    if game is not None and session.status == "open":
        table = queries.table_of(game)
        melds = [entry for entry in game.entries if entry.kind == "meld"]
        context.update(
            table=table,
            melds=melds,
            entries_shown=view_models.entries_shown(game.entries, names, game.id, game.variant),
            game_points=queries.game_points(game),
        )
        if access.can_edit():
            entry_form: MeldForm | LayoffForm | SwapForm = (
                swap_form or layoff_form or meld_form or _next_entry_form(game)
            )
            onto = swap_form or layoff_form
            # What may be put in a joker's place, where the rule system swaps jokers (G4).
            swaps = variant.swaps_jokers()
            jokers = {
                entry.id: playing_cards.joker_places(table.melds[entry.id]) if swaps else []
                for entry in melds
            }
            context.update(
                entry_form=entry_form,
                chosen_meld=onto.meld.data if onto is not None else None,
                melds_shown=view_models.melds_shown(melds, table, jokers, names),
                picker=playing_cards.table_picker(table),
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


def _winner(session: queries.SessionRow, scores: queries.SessionScores) -> str | None:
    if session.status != "finished" or scores.standing.winner is None:
        return None
    return names_of(session.players)[scores.standing.winner]


@dataclass(frozen=True)
class EntryBegun:
    """The entry begun on the game page, as its text form says it.

    The text form is the query ``static/js/draft.js`` writes, in the entry form's own field
    names: ``player=3&meld=12&onto_action=swap&cards=8♥&melds=…&new_meld=…``. The language
    links carry it (switching DE / EN keeps the entry begun); the live redraw keeps the same
    state; and this reads it back into the form the page draws.
    """

    player: int | None = None
    meld: int | None = None
    swap: bool = False
    cards: str = ""
    melds: str = ""
    new_meld: str = ""

    @classmethod
    def from_query(cls, args: Mapping[str, str]) -> EntryBegun:
        """Read the text form; a part too long or not a number is left out."""

        def typed(name: str, most: int) -> str:
            value = args.get(name, "").strip()
            return value if len(value) <= most else ""

        def number(name: str) -> int | None:
            value = args.get(name, "")
            return int(value) if value.isascii() and value.isdecimal() else None

        return cls(
            player=number("player"),
            meld=number("meld"),
            swap=args.get("onto_action") == "swap",
            cards=typed("cards", MOST_TYPED),
            melds=typed("melds", MOST_TYPED * 4),
            new_meld=typed("new_meld", MOST_TYPED),
        )


def _next_entry_form(game: queries.GameState) -> MeldForm:
    """Return the form of the next entry; the address may choose its player and cards.

    After an undo the undone entry's player is chosen, and switching the language keeps the
    entry begun (its text form, ``EntryBegun``).
    """
    form = new_meld_form(game, formdata=None)
    if request.method != "GET":
        return form
    begun = EntryBegun.from_query(request.args)
    if begun.player in {player.id for player in game.players}:
        form.player.data = begun.player
    if begun.cards:
        form.cards.data = begun.cards
    if begun.melds:
        form.melds.data = begun.melds
    return form


def _entry_begun(melds: Iterable[queries.EntryRow]) -> dict[str, Any]:
    """Return the meld chosen, the mode and the joker's new meld of the entry begun.

    The language links of the game page carry them (``EntryBegun``), so switching DE / EN
    keeps them.
    """
    if request.method != "GET":
        return {}
    begun = EntryBegun.from_query(request.args)
    if begun.meld not in {entry.id for entry in melds}:
        return {}
    return {"chosen_meld": begun.meld, "swap_chosen": begun.swap, "new_meld_typed": begun.new_meld}
