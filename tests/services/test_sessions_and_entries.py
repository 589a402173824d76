"""The use cases of services.py against a real SQLite database built by the migrations."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper import rules, services
from scorekeeper.extensions import db
from scorekeeper.models import Entry, Game, GameSession
from tests.helpers import assert_refused, dump, first_game, ids, seated, unversioned

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    """Run the test inside an app context, as a request would."""
    with app.app_context():
        yield


# --- sessions and games ------------------------------------------------------------------------


@pytest.mark.usefixtures("ctx")
def test_create_session_seats_the_players_clockwise_and_opens_the_session() -> None:
    session = services.create_session([" Ann ", "Bob", "Cid"], 700)
    stored = db.session.get(GameSession, session.id)
    assert stored is not None
    assert [(player.seat, player.name) for player in stored.players] == [
        (0, "Ann"),
        (1, "Bob"),
        (2, "Cid"),
    ]
    assert (stored.target, stored.status, stored.variant) == (700, "open", "treppenromme")
    assert stored.games == []


@pytest.mark.usefixtures("ctx")
def test_create_session_can_deal_the_first_game_at_once() -> None:
    session = services.create_session(["Ann", "Bob"], first_dealer=1, start_first_game=True)
    names = {player.id: player.name for player in session.players}
    games = services.game_summaries(session)
    assert [(game.number, names[game.dealer_id]) for game in games] == [(1, "Bob")]


@pytest.mark.usefixtures("ctx")
def test_create_session_draws_the_first_dealer_by_lot_when_told() -> None:
    session = services.create_session(["Ann", "Bob", "Cid"], first_dealer=None)
    assert 0 <= session.first_dealer_seat < 3


@pytest.mark.usefixtures("ctx")
@pytest.mark.parametrize(
    ("names", "target", "dealer"),
    [
        (["Ann"], 500, 0),
        (["Ann", "Bob", "Cid", "Dan", "Eve"], 500, 0),
        (["Ann", ""], 500, 0),
        (["Ann", "ANN"], 500, 0),
        (["Ann", "Bob"], 0, 0),
        (["Ann", "Bob"], -1, 0),
        (["Ann", "Bob"], 2**63, 0),
        (["Ann", "Bob"], 500, 2),
        (["Ann", "Bob"], 500, -1),
    ],
)
def test_create_session_refuses_an_unplayable_session_and_writes_nothing(
    names: list[str], target: int, dealer: int
) -> None:
    assert_refused(rules.SeatingError, lambda: services.create_session(names, target, dealer))


@pytest.mark.usefixtures("ctx")
@pytest.mark.parametrize(
    ("players", "first_dealer", "seats"),
    [
        (3, 0, [0, 1, 2, 0, 1]),
        (3, 2, [2, 0, 1, 2, 0]),
        (4, 1, [1, 2, 3, 0, 1]),
        (2, 1, [1, 0, 1, 0, 1]),
    ],
)
def test_start_game_passes_the_deal_to_the_left_each_game(
    players: int, first_dealer: int, seats: list[int]
) -> None:
    names = ("Ann", "Bob", "Cid", "Dan")[:players]
    session = services.create_session(list(names), first_dealer=first_dealer)
    dealt = []
    for number in range(1, len(seats) + 1):
        assert services.next_dealer(session).seat == seats[number - 1]
        game = services.start_game(session.id)
        assert game.number == number
        assert services.next_dealer(session).seat == seats[number - 1]
        dealt.append(game.dealer.seat)
        services.abandon_game(game.id)
    assert dealt == seats


@pytest.mark.usefixtures("ctx")
def test_start_game_refuses_a_second_open_game() -> None:
    session = seated()
    services.start_game(session.id)
    session_id = session.id
    assert_refused(services.ConflictError, lambda: services.start_game(session_id))


@pytest.mark.usefixtures("ctx")
@pytest.mark.parametrize("session_id", [0, -1, 999, 2**63, 10**20])
def test_an_unknown_session_or_game_is_not_found(session_id: int) -> None:
    seated()
    assert_refused(services.NotFoundError, lambda: services.start_game(session_id))
    assert_refused(services.NotFoundError, lambda: services.get_game(session_id))


# --- melds and layoffs -------------------------------------------------------------------------


@pytest.mark.usefixtures("ctx")
def test_record_meld_writes_the_value_and_each_card_in_playing_order() -> None:
    game_id, (ann, _bob, _cid) = first_game()
    entry = services.record_meld(game_id, ann, "2♣ Q♣ A♣ 3♣ K♣")
    stored = db.session.get(Entry, entry.id)
    assert stored is not None
    assert (stored.kind, stored.meld_kind, stored.value, stored.position) == (
        "meld",
        "sequence",
        30,
        1,
    )
    assert [(card.card, card.value) for card in stored.cards] == [
        ("Q♣", 10),
        ("K♣", 10),
        ("A♣", 5),
        ("2♣", 2),
        ("3♣", 3),
    ]


@pytest.mark.usefixtures("ctx")
@pytest.mark.parametrize(
    ("cards", "value"),
    [("6♠ 6♥ 6♦ 6♣", 24), ("A♠ A♥ A♦", 45), ("Q♦ K♦ A♦", 30), ("A♦ 2♦ 3♦", 6)],
)
def test_record_meld_values_the_seed_examples(cards: str, value: int) -> None:
    game_id, (ann, _bob, _cid) = first_game()
    assert services.record_meld(game_id, ann, cards).value == value


@pytest.mark.usefixtures("ctx")
def test_layoffs_one_by_one_score_12_and_together_7_r3() -> None:
    game_id, (ann, bob, cid) = first_game()
    diamonds = services.record_meld(game_id, ann, "J♦ Q♦ K♦")
    assert services.record_layoff(game_id, bob, diamonds.id, "A♦").value == 10
    assert services.record_layoff(game_id, bob, diamonds.id, "2♦").value == 2
    spades = services.record_meld(game_id, ann, "J♠ Q♠ K♠")
    assert services.record_layoff(game_id, cid, spades.id, "2♠ A♠").value == 7
    game = services.read_game(game_id)
    assert services.game_points(game) == {ann: 60, bob: 12, cid: 7}
    assert [entry.value for entry in game.entries] == [30, 10, 2, 30, 7]
    assert str(services.table_of(game).melds[diamonds.id]) == "J♦ Q♦ K♦ A♦ 2♦"


@pytest.mark.usefixtures("ctx")
def test_bobs_turn_from_the_rules_scores_75() -> None:
    game_id, (ann, bob, _cid) = first_game()
    jack_run = services.record_meld(game_id, ann, "8♥ 9♥ 10♥")
    sevens = services.record_meld(game_id, ann, "7♠ 7♥ 7♦")
    tens = services.record_meld(game_id, ann, "9♣ 10♣ J♣")
    values = [
        services.record_meld(game_id, bob, "6♠ 6♥ 6♦").value,
        services.record_meld(game_id, bob, "D♠ K♠ A♠ 2♠ 3♠").value,
        services.record_layoff(game_id, bob, jack_run.id, "B♥").value,
        services.record_layoff(game_id, bob, sevens.id, "7♣").value,
        services.record_layoff(game_id, bob, tens.id, "Q♣").value,
    ]
    assert values == [18, 30, 10, 7, 10]
    assert services.game_points(services.read_game(game_id))[bob] == 75


@pytest.mark.usefixtures("ctx")
@pytest.mark.parametrize(
    ("cards", "error"),
    [
        ("6♠ 7♥ 8♦", rules.InvalidMeldError),
        ("6♠ 6♥", rules.TooFewCardsError),
        ("5♣ 6♣ 7♣", rules.CardAlreadyPlayedError),
        ("6X 6♥ 6♦", rules.CardNotationError),
    ],
)
def test_record_meld_refuses_what_the_rules_forbid_and_writes_nothing(
    cards: str, error: type[Exception]
) -> None:
    game_id, (ann, bob, _cid) = first_game()
    services.record_meld(game_id, ann, "5♣ 6♣ 7♣")
    assert_refused(error, lambda: services.record_meld(game_id, bob, cards))


@pytest.mark.usefixtures("ctx")
def test_record_meld_refuses_a_player_of_another_session() -> None:
    game_id, _players = first_game()
    _other_game, (dan, _eve, _flo) = first_game(("Dan", "Eve", "Flo"))
    assert_refused(
        services.InvalidRequestError, lambda: services.record_meld(game_id, dan, "9♥ 9♠ 9♦")
    )


@pytest.mark.usefixtures("ctx")
def test_record_layoff_refuses_a_meld_that_is_not_on_this_table() -> None:
    game_id, (ann, bob, _cid) = first_game()
    layoff_onto = services.record_meld(game_id, ann, "J♦ Q♦ K♦")
    layoff = services.record_layoff(game_id, bob, layoff_onto.id, "A♦")
    other_game, (dan, _eve, _flo) = first_game(("Dan", "Eve", "Flo"))
    theirs = services.record_meld(other_game, dan, "J♠ Q♠ K♠")
    for meld_id in (theirs.id, layoff.id, 999, 2**63):
        assert_refused(
            services.InvalidRequestError,
            lambda meld_id=meld_id: services.record_layoff(game_id, bob, meld_id, "A♠"),
        )
    assert_refused(
        rules.InvalidLayoffError,
        lambda: services.record_layoff(game_id, bob, layoff_onto.id, "9♦"),
    )


# --- corrections, deletions and undo -----------------------------------------------------------


@pytest.mark.usefixtures("ctx")
def test_correct_entry_replaces_the_cards_and_revalues_them() -> None:
    game_id, (ann, _bob, _cid) = first_game()
    entry = services.record_meld(game_id, ann, "6♠ 6♥ 6♦")
    corrected = services.correct_entry(game_id, entry.id, "6♠ 6♥ 6♦ 6♣").entry
    assert corrected.value == 24
    game = services.read_game(game_id)
    assert [card.card for card in game.entries[0].cards] == ["6♠", "6♥", "6♦", "6♣"]
    assert services.game_points(game)[ann] == 24


@pytest.mark.usefixtures("ctx")
def test_correct_entry_can_turn_a_set_into_a_sequence() -> None:
    game_id, (ann, _bob, _cid) = first_game()
    entry = services.record_meld(game_id, ann, "6♠ 6♥ 6♦")
    corrected = services.correct_entry(game_id, entry.id, "5♠ 6♠ 7♠").entry
    assert (corrected.meld_kind, corrected.value) == ("sequence", 18)


@pytest.mark.usefixtures("ctx")
def test_correct_entry_revalues_a_layoff_where_its_new_cards_lie() -> None:
    game_id, (ann, bob, cid) = first_game()
    meld = services.record_meld(game_id, ann, "J♦ Q♦ K♦")
    layoff = services.record_layoff(game_id, bob, meld.id, "9♦ 10♦")
    corrected = services.correct_entry(game_id, layoff.id, "A♦").entry
    assert (corrected.kind, corrected.meld_kind, corrected.value) == ("layoff", None, 10)
    assert [card.card for card in corrected.cards] == ["A♦"]
    game = services.read_game(game_id)
    assert [card.card for card in game.entries[1].cards] == ["A♦"]
    assert services.game_points(game) == {ann: 30, bob: 10, cid: 0}


@pytest.mark.usefixtures("ctx")
def test_correct_entry_refuses_when_a_later_entry_builds_on_it() -> None:
    game_id, (ann, bob, _cid) = first_game()
    meld = services.record_meld(game_id, ann, "5♥ 6♥ 7♥")
    services.record_layoff(game_id, bob, meld.id, "8♥")
    assert_refused(
        services.ConflictError,
        lambda: services.correct_entry(game_id, meld.id, "4♥ 5♥ 6♥"),
        match=r"Bob's 8♥ \(entry 2\)",
    )
    with pytest.raises(services.ConflictError) as refused:
        services.correct_entry(game_id, meld.id, "4♥ 5♥ 6♥")
    assert refused.value.message("de") == (
        "Ein späterer Eintrag baut auf diesen Karten auf: 8♥ von Bob (Eintrag 2). "
        "Erst diesen Eintrag berichtigen oder löschen."
    )


@pytest.mark.usefixtures("ctx")
def test_correct_entry_refuses_when_a_later_layoff_would_change_value() -> None:
    game_id, (ann, bob, _cid) = first_game()
    meld = services.record_meld(game_id, ann, "J♦ Q♦ K♦")
    first = services.record_layoff(game_id, bob, meld.id, "A♦")
    services.record_layoff(game_id, bob, meld.id, "2♦")
    assert_refused(services.ConflictError, lambda: services.correct_entry(game_id, first.id, "10♦"))


@pytest.mark.usefixtures("ctx")
def test_correct_entry_refuses_a_card_that_lies_elsewhere() -> None:
    game_id, (ann, bob, _cid) = first_game()
    services.record_meld(game_id, ann, "5♥ 6♥ 7♥")
    sixes = services.record_meld(game_id, bob, "6♠ 6♦ 6♣")
    assert_refused(
        rules.CardAlreadyPlayedError,
        lambda: services.correct_entry(game_id, sixes.id, "6♠ 6♦ 6♣ 6♥"),
    )
    assert_refused(
        rules.InvalidMeldError, lambda: services.correct_entry(game_id, sixes.id, "6♠ 6♦")
    )


@pytest.mark.usefixtures("ctx")
def test_correct_entry_gives_the_entry_to_another_player_with_its_points() -> None:
    game_id, (ann, bob, cid) = first_game()
    meld = services.record_meld(game_id, ann, "5♥ 6♥ 7♥")
    services.record_layoff(game_id, cid, meld.id, "8♥")
    # Same cards: the layoff on it stands, and only whose points they are changes.
    corrected = services.correct_entry(game_id, meld.id, None, player_id=bob)
    assert (corrected.entry.player_id, corrected.entry.value) == (bob, 18)
    assert services.game_points(corrected.game) == {ann: 0, bob: 18, cid: 8}
    game = services.get_game(game_id)
    assert game.entries[0].player_id == bob
    assert [card.card for card in game.entries[0].cards] == ["5♥", "6♥", "7♥"]
    assert services.game_points(services.read_game(game_id)) == {ann: 0, bob: 18, cid: 8}


@pytest.mark.usefixtures("ctx")
def test_correct_entry_moves_a_layoff_onto_the_meld_it_really_went_onto() -> None:
    game_id, (ann, bob, cid) = first_game()
    sequence = services.record_meld(game_id, ann, "J♦ Q♦ K♦")
    aces = services.record_meld(game_id, bob, "A♠ A♥ A♣")
    layoff = services.record_layoff(game_id, cid, sequence.id, "A♦")
    assert layoff.entry.value == 10  # the high ace of a sequence
    moved = services.correct_entry(game_id, layoff.id, None, meld_id=aces.id).entry
    assert (moved.meld_id, moved.value) == (aces.id, 15)  # an ace in a set
    table = services.table_of(services.read_game(game_id))
    assert [str(card) for card in table.melds[sequence.id].cards] == ["J♦", "Q♦", "K♦"]
    assert sorted(str(card) for card in table.melds[aces.id].cards) == ["A♠", "A♣", "A♥", "A♦"]
    assert services.game_points(services.read_game(game_id)) == {ann: 30, bob: 45, cid: 15}


@pytest.mark.usefixtures("ctx")
def test_correct_entry_refuses_to_move_a_layoff_where_it_cannot_lie() -> None:
    game_id, (ann, bob, cid) = first_game()
    hearts = services.record_meld(game_id, ann, "5♥ 6♥ 7♥")
    spades = services.record_meld(game_id, ann, "2♠ 3♠ 4♠")
    layoff = services.record_layoff(game_id, bob, hearts.id, "8♥")
    services.record_layoff(game_id, cid, hearts.id, "9♥")
    later = services.record_meld(game_id, cid, "8♠ 8♦ 8♣")
    # onto a meld recorded after the layoff: it was not on the table yet
    assert_refused(
        services.InvalidRequestError,
        lambda: services.correct_entry(game_id, layoff.id, None, meld_id=later.id),
        match="recorded after",
    )
    # the 9♥ laid off after it needs the 8♥ where it lies
    assert_refused(
        services.ConflictError,
        lambda: services.correct_entry(game_id, layoff.id, "5♠", meld_id=spades.id),
    )
    # a meld lies by itself, and a layoff is no meld to lay off onto
    assert_refused(
        services.InvalidRequestError,
        lambda: services.correct_entry(game_id, later.id, None, meld_id=hearts.id),
        match="lies on the table by itself",
    )
    assert_refused(
        services.InvalidRequestError,
        lambda: services.correct_entry(game_id, layoff.id, None, meld_id=layoff.id),
        match="not on the table",
    )


@pytest.mark.usefixtures("ctx")
def test_correct_entry_refuses_a_player_from_another_session() -> None:
    game_id, (ann, _bob, _cid) = first_game()
    _other_game, (stranger, *_rest) = first_game()
    meld = services.record_meld(game_id, ann, "5♥ 6♥ 7♥")
    assert_refused(
        services.InvalidRequestError,
        lambda: services.correct_entry(game_id, meld.id, "5♥ 6♥ 7♥", player_id=stranger),
    )
    assert services.get_game(game_id).entries[0].player_id == ann


@pytest.mark.usefixtures("ctx")
def test_delete_entry_removes_the_entry_and_frees_its_cards() -> None:
    game_id, (ann, bob, _cid) = first_game()
    first = services.record_meld(game_id, ann, "6♠ 6♥ 6♦")
    services.delete_entry(game_id, first.id)
    assert services.get_game(game_id).entries == []
    assert dump()["table_cards"] == []
    assert services.record_meld(game_id, bob, "6♠ 6♥ 6♦ 6♣").value == 24


@pytest.mark.usefixtures("ctx")
def test_delete_entry_refuses_a_meld_under_a_layoff_and_a_layoff_under_another() -> None:
    game_id, (ann, bob, cid) = first_game()
    meld = services.record_meld(game_id, ann, "5♥ 6♥ 7♥")
    eight = services.record_layoff(game_id, bob, meld.id, "8♥")
    services.record_layoff(game_id, cid, meld.id, "9♥")
    four = services.record_layoff(game_id, cid, meld.id, "4♥")
    assert_refused(services.ConflictError, lambda: services.delete_entry(game_id, meld.id))
    assert_refused(services.ConflictError, lambda: services.delete_entry(game_id, eight.id))
    services.delete_entry(game_id, four.id)
    assert services.game_points(services.read_game(game_id)) == {ann: 18, bob: 8, cid: 9}


@pytest.mark.usefixtures("ctx")
def test_delete_entry_refuses_an_entry_of_another_game() -> None:
    game_id, _players = first_game()
    other_game, (dan, _eve, _flo) = first_game(("Dan", "Eve", "Flo"))
    theirs = services.record_meld(other_game, dan, "5♥ 6♥ 7♥")
    assert_refused(services.NotFoundError, lambda: services.delete_entry(game_id, theirs.id))


@pytest.mark.usefixtures("ctx")
def test_undo_deletes_the_latest_entry_until_there_is_none() -> None:
    game_id, (ann, bob, _cid) = first_game()
    meld = services.record_meld(game_id, ann, "5♥ 6♥ 7♥")
    layoff = services.record_layoff(game_id, bob, meld.id, "8♥")
    assert services.undo_last_entry(game_id).id == layoff.id
    assert services.undo_last_entry(game_id).id == meld.id
    assert_refused(services.ConflictError, lambda: services.undo_last_entry(game_id))
    assert dump()["entries"] == []


# --- the end of a game and of the session ------------------------------------------------------


@pytest.mark.usefixtures("ctx")
def test_finish_game_books_the_hands_and_closes_the_game() -> None:
    game_id, (ann, bob, cid) = first_game()
    services.record_meld(game_id, ann, "6♠ 6♥ 6♦")
    services.record_meld(game_id, bob, "2♣ 3♣ 4♣")
    services.record_meld(game_id, ann, "J♥ Q♥ K♥")
    finish = services.finish_game(game_id, ann, {bob: "A♠ 7♥", cid: "K♣"})
    assert (finish.romme, finish.romme_possible) == (False, False)
    assert finish.hand_points == {bob: 22, cid: 10}
    game = services.get_game(game_id)
    assert (game.status, game.winner_id, game.romme) == ("finished", ann, False)
    assert db.session.get(Game, game_id).ended_at is not None
    assert services.game_points(services.read_game(game_id)) == {ann: 80, bob: 9, cid: 0}
    lines = {line.player_id: (line.hand, line.gain) for line in game.settlement_lines}
    assert lines == {ann: (None, 32), bob: ("A♠ 7♥", 0), cid: ("K♣", 0)}
    assert_refused(services.ConflictError, lambda: services.finish_game(game_id, None, {}))
    assert_refused(services.ConflictError, lambda: services.record_meld(game_id, bob, "9♥ 9♠ 9♦"))


@pytest.mark.usefixtures("ctx")
def test_finish_game_doubles_the_hands_of_a_romme_hand_but_not_the_winners_melds() -> None:
    game_id, (ann, bob, cid) = first_game()
    meld = services.record_meld(game_id, bob, "2♣ 3♣ 4♣")
    services.record_meld(game_id, ann, "6♠ 6♥ 6♦")
    services.record_meld(game_id, ann, "9♥ 10♥ J♥")
    services.record_layoff(game_id, ann, meld.id, "5♣")
    finish = services.finish_game(game_id, ann, {bob: "A♠", cid: "K♣"})
    assert finish.romme is True
    points = {ann: 18 + 29 + 5 + 50, bob: 9, cid: 0}
    assert services.game_points(services.read_game(game_id)) == points


@pytest.mark.usefixtures("ctx")
def test_abandon_game_keeps_the_melds_and_books_no_hands() -> None:
    game_id, (ann, bob, cid) = first_game()
    services.record_meld(game_id, ann, "6♠ 6♥ 6♦")
    services.abandon_game(game_id)
    game = services.get_game(game_id)
    assert (game.status, game.winner_id, game.romme) == ("abandoned", None, None)
    lines = {
        line.player_id: (line.hand, line.hand_points, line.gain) for line in game.settlement_lines
    }
    assert lines == {ann: (None, None, 0), bob: (None, None, 0), cid: (None, None, 0)}
    assert services.game_points(services.read_game(game_id)) == {ann: 18, bob: 0, cid: 0}


@pytest.mark.usefixtures("ctx")
@pytest.mark.parametrize(
    ("winner", "hands", "romme", "error"),
    [
        ("ann", {"bob": "A♠", "cid": "K♣"}, True, rules.SettlementError),
        ("cid", {"ann": "A♠", "bob": "K♣"}, None, rules.SettlementError),
        (None, {}, True, rules.SettlementError),
        ("ann", {"bob": "6♠", "cid": "K♣"}, None, rules.CardAlreadyPlayedError),
        ("ann", {"bob": "K♣", "cid": "K♣"}, None, rules.CardAlreadyPlayedError),
        ("ann", {"bob": "A♠"}, None, rules.SettlementError),
        ("ann", {"bob": "A♠", "cid": "K♣", "ann": "2♠"}, None, rules.SettlementError),
        ("ann", {"bob": "A♠", "cid": "K♣", "dan": "2♠"}, None, services.InvalidRequestError),
        ("dan", {"bob": "A♠", "cid": "K♣"}, None, services.InvalidRequestError),
    ],
)
def test_finish_game_refuses_an_impossible_end_and_writes_nothing(
    winner: str | None, hands: dict[str, str], romme: bool | None, error: type[Exception]
) -> None:
    game_id, (ann, bob, cid) = first_game()
    _other, (dan, _eve, _flo) = first_game(("Dan", "Eve", "Flo"))
    services.record_meld(game_id, ann, "6♠ 6♥ 6♦")
    services.record_meld(game_id, bob, "2♣ 3♣ 4♣")
    services.record_meld(game_id, ann, "J♥ Q♥ K♥")
    players = {"ann": ann, "bob": bob, "cid": cid, "dan": dan}
    winner_id = players[winner] if winner else None
    by_id = {players[name]: cards for name, cards in hands.items()}
    assert_refused(error, lambda: services.finish_game(game_id, winner_id, by_id, romme))
    assert_refused(error, lambda: services.preview_finish(game_id, winner_id, by_id, romme))


@pytest.mark.usefixtures("ctx")
def test_preview_finish_writes_nothing() -> None:
    game_id, (ann, bob, cid) = first_game()
    services.record_meld(game_id, ann, "6♠ 6♥ 6♦")
    before = dump()
    preview = services.preview_finish(game_id, ann, {bob: "A♠", cid: "K♣"})
    assert preview.settlement.gains == {ann: 25, bob: 0, cid: 0}
    db.session.rollback()
    assert dump() == before


def play_a_game(session_id: int, winner: int, loser_hands: dict[int, str], meld: str) -> None:
    game = services.start_game(session_id)
    services.record_meld(game.id, winner, meld)
    services.finish_game(game.id, winner, loser_hands, romme=False)


@pytest.mark.usefixtures("ctx")
def test_a_session_is_won_by_r7_and_then_starts_no_game() -> None:
    session = services.create_session(["Ann", "Bob"], target=40)
    ann, bob = ids(session)
    session_id = session.id
    play_a_game(session_id, ann, {bob: "2♣"}, "J♠ Q♠ K♠")
    assert services.get_session(session_id).status == "open"
    play_a_game(session_id, bob, {ann: "2♣"}, "A♥ A♦ A♣")
    stored = services.get_session(session_id)
    scores = services.session_scores(stored)
    assert scores.totals == {ann: 32, bob: 47}
    assert stored.status == "finished"
    assert scores.standing.winner == bob
    assert_refused(services.ConflictError, lambda: services.start_game(session_id))


@pytest.mark.usefixtures("ctx")
def test_a_tie_at_the_top_plays_on() -> None:
    session = services.create_session(["Ann", "Bob"], target=30)
    ann, bob = ids(session)
    session_id = session.id
    game = services.start_game(session_id)
    services.record_meld(game.id, bob, "J♠ Q♠ K♠")
    services.record_meld(game.id, ann, "10♥ 10♦ 10♣")
    services.abandon_game(game.id)
    stored = services.get_session(session_id)
    assert services.session_scores(stored).totals == {ann: 30, bob: 30}
    assert stored.status == "open"
    assert services.start_game(session_id).number == 2


@pytest.mark.usefixtures("ctx")
def test_session_scores_add_up_every_game() -> None:
    session = services.create_session(["Ann", "Bob"], target=1000)
    ann, bob = ids(session)
    session_id = session.id
    play_a_game(session_id, ann, {bob: "K♣ 2♦"}, "J♠ Q♠ K♠")
    play_a_game(session_id, bob, {ann: "A♣"}, "5♦ 6♦ 7♦")
    scores = services.session_scores(services.get_session(session_id))
    games = services.game_summaries(services.get_session(session_id))
    assert scores.game_points == {games[0].id: {ann: 42, bob: 0}, games[1].id: {ann: 0, bob: 33}}
    assert scores.totals == {ann: 42, bob: 33}
    assert db.session.get(Game, games[1].id) is not None


# --- reopening a booked game -------------------------------------------------------------------


@pytest.mark.usefixtures("ctx")
def test_reopening_the_last_game_takes_back_its_booking_and_keeps_its_entries() -> None:
    game_id, (ann, bob, cid) = first_game()
    services.record_meld(game_id, ann, "6♠ 6♥ 6♦")
    services.record_meld(game_id, bob, "2♣ 3♣ 4♣")
    before = dump()
    services.finish_game(game_id, ann, {bob: "A♠ 7♥", cid: "K♣"})
    session_id = services.get_game(game_id).session_id
    services.start_game(session_id)  # dealt, nothing recorded yet

    reopened = services.reopen_game(game_id)

    assert (reopened.status, reopened.winner_id, reopened.session_status) == ("open", None, "open")
    assert {player.id: player.banked for player in reopened.players} == {ann: 0, bob: 0, cid: 0}
    # The booking and the game dealt after it are gone; the session counted three changes;
    # the audit trail keeps the reopen.
    after = unversioned(dump())
    assert [line[3] for line in after["audit_lines"]] == ["reopened"]
    assert {**after, "audit_lines": []} == unversioned(before)
    services.finish_game(game_id, bob, {ann: "K♣", cid: "2♥"}, romme=False)  # settled anew
    totals = services.session_scores(services.get_session(session_id)).totals
    assert totals == {ann: 18 + 0, bob: 9 + 12, cid: 0}


@pytest.mark.usefixtures("ctx")
def test_reopening_a_game_that_won_the_session_lets_the_session_play_on() -> None:
    session = services.create_session(["Ann", "Bob"], target=40)
    ann, bob = ids(session)
    session_id = session.id
    game = services.start_game(session_id)
    services.record_meld(game.id, bob, "A♥ A♦ A♣")
    services.finish_game(game.id, bob, {ann: "2♣"})
    assert services.get_session(session_id).status == "finished"
    services.reopen_game(game.id)
    stored = services.get_session(session_id)
    assert stored.status == "open"
    assert services.session_scores(stored).totals == {ann: 0, bob: 45}  # the meld stands


@pytest.mark.usefixtures("ctx")
def test_reopening_is_refused_for_an_open_game_and_behind_a_game_with_entries() -> None:
    game_id, (ann, bob, cid) = first_game()
    services.record_meld(game_id, ann, "6♠ 6♥ 6♦")
    assert_refused(
        services.ConflictError, lambda: services.reopen_game(game_id), "still being played"
    )
    services.finish_game(game_id, ann, {bob: "K♣", cid: "2♥"})
    next_game = services.start_game(services.get_game(game_id).session_id)
    services.record_meld(next_game.id, bob, "9♣ 10♣ J♣")
    assert_refused(
        services.ConflictError, lambda: services.reopen_game(game_id), "Game 2 was played after it"
    )
    assert_refused(services.NotFoundError, lambda: services.reopen_game(999_999))


@pytest.mark.usefixtures("ctx")
def test_reopening_is_refused_behind_a_next_game_that_ended_even_without_entries() -> None:
    game_id, (ann, bob, cid) = first_game()
    services.record_meld(game_id, ann, "6♠ 6♥ 6♦")
    services.finish_game(game_id, ann, {bob: "K♣", cid: "2♥"})
    next_game = services.start_game(services.get_game(game_id).session_id)
    services.abandon_game(next_game.id)  # ended, with settlement lines and no entry
    assert_refused(
        services.ConflictError, lambda: services.reopen_game(game_id), "Game 2 was played after it"
    )
    assert services.reopen_game(next_game.id).status == "open"  # the last game itself: yes


# --- rule systems and house rules ---------------------------------------------------------------


@pytest.mark.usefixtures("ctx")
def test_create_session_keeps_the_rule_system_and_every_house_rule() -> None:
    session = seated(("Ann", "Bob", "Cid", "Dan", "Eve"), variant="boathouse_rum")
    assert session.variant == "boathouse_rum"
    assert services.variant_of(session).house_rules == {"end": {"target": 100}}
    assert session.target == 100
    by_games = seated(house_rules={"end": {"games": 4}, "romme_doubling": "loser"})
    assert by_games.target is None
    assert services.variant_of(by_games).house_rules == {
        "end": {"games": 4},
        "romme_doubling": "loser",
    }


@pytest.mark.usefixtures("ctx")
@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"variant": "skat"}, rules.HouseRuleError),
        (
            {"variant": "boathouse_rum", "house_rules": {"romme_doubling": "loser"}},
            rules.HouseRuleError,
        ),
        ({"house_rules": {"end": {"games": 0}}}, rules.HouseRuleError),
        ({"target": 300, "house_rules": {"end": {"target": 200}}}, rules.HouseRuleError),
        ({"target": 0}, rules.SeatingError),
    ],
)
def test_create_session_refuses_what_the_rule_system_does_not_allow_and_writes_nothing(
    kwargs: dict[str, Any], error: type[Exception]
) -> None:
    assert_refused(error, lambda: seated(**kwargs))


@pytest.mark.usefixtures("ctx")
def test_a_boathouse_game_is_settled_by_the_unmatched_cards_and_the_deal_follows_b5() -> None:
    session = seated(("Ann", "Bob"), variant="boathouse_rum", first_dealer=0)
    ann, bob = ids(session)
    game = services.start_game(session.id)
    assert (game.dealer_id, services.deal_of(game)) == (ann, services.Deal(10, bob))
    services.record_meld(game.id, bob, "K♠ A♠ 2♠")
    services.record_meld(game.id, ann, "4♣ 5♣ 6♣")
    services.record_meld(game.id, bob, "7♦ 8♦ 9♦")
    finished = services.finish_game(game.id, bob, {ann: "7♠ 7♥ 7♣ 10♦ J♦"})
    assert finished.settlement.unmatched == {ann: tuple(rules.parse_cards("10♦ J♦"))}
    assert finished.settlement.gains == {ann: 0, bob: 20}
    assert finished.session is not None and finished.session.dealer_id == bob
    assert services.start_game(session.id).dealer_id == bob


@pytest.mark.usefixtures("ctx")
def test_a_new_session_removes_the_day_old_sessions_that_never_got_a_game() -> None:
    left = seated(("Ann", "Bob"))
    played = seated(("Cid", "Dan"))
    services.start_game(played.id)
    young = seated(("Eve", "Flo"))
    day_ago = sa.func.now() - sa.text("INTERVAL '25 hours'")
    if db.engine.dialect.name == "sqlite":
        day_ago = sa.func.datetime("now", "-25 hours")
    db.session.execute(
        sa.update(GameSession)
        .where(GameSession.id.in_([left.id, played.id]))
        .values(created_at=day_ago)
    )
    db.session.commit()
    seated(("Gus", "Hal"))
    remaining = set(db.session.scalars(sa.select(GameSession.id)))
    assert left.id not in remaining
    assert {played.id, young.id} <= remaining
