"""German Rummy's use cases against a real database: copies, jokers, openings and swaps."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from scorekeeper import rules, services
from tests.helpers import assert_refused

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = [
    pytest.mark.parametrize("backend", ["sqlite", "postgresql"]),
    pytest.mark.usefixtures("ctx"),
]


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


def german_game(**house_rules: Any) -> tuple[int, list[int]]:
    session = services.create_session(
        ["Ann", "Bob", "Cid"], variant="german_rummy", house_rules=house_rules
    )
    game = services.start_game(session.id)
    return game.id, [player.id for player in game.players]


def stored(game_id: int) -> list[tuple[str, int, str | None]]:
    """Return every card row of a game as (card, copy, what a joker stands for)."""
    game = services.read_game(game_id)
    return [
        (card.card, card.copy, card.stands_for) for entry in game.entries for card in entry.cards
    ]


def test_the_second_copy_of_a_card_is_stored_as_copy_one() -> None:
    game, (ann, bob, _cid) = german_game(opening=0)
    services.record_meld(game, ann, "7♥ 8♥ 9♥")
    services.record_meld(game, bob, "7♥ JKR=8♥ 9♥")
    assert stored(game) == [
        ("7♥", 0, None),
        ("8♥", 0, None),
        ("9♥", 0, None),
        ("7♥", 1, None),
        ("JKR", 0, "8♥"),
        ("9♥", 1, None),
    ]


def test_a_copy_undone_is_given_again_to_the_next_card() -> None:
    game, (ann, bob, cid) = german_game(opening=0)
    services.record_meld(game, ann, "7♥ 8♥ 9♥")
    services.record_meld(game, bob, "7♥ 8♥ 9♥")
    first = services.read_game(game).entries[0].id
    services.delete_entry(game, first)
    services.record_meld(game, cid, "6♥ 7♥ 8♥")
    assert sorted(stored(game)) == sorted(
        [
            ("7♥", 1, None),
            ("8♥", 1, None),
            ("9♥", 1, None),
            ("6♥", 0, None),
            ("7♥", 0, None),
            ("8♥", 0, None),
        ]
    )


def test_a_third_copy_changes_nothing() -> None:
    game, (ann, bob, cid) = german_game(opening=0)
    services.record_meld(game, ann, "7♥ 8♥ 9♥")
    services.record_meld(game, bob, "7♥ 8♥ 9♥")
    assert_refused(
        rules.CardAlreadyPlayedError,
        lambda: services.record_meld(game, cid, "7♥ 7♠ 7♦"),
        "7♥",
    )


def test_an_opening_under_the_minimum_changes_nothing() -> None:
    game, (ann, _bob, _cid) = german_game()
    assert_refused(
        rules.OpeningError,
        lambda: services.record_melds(game, ann, ["Q♣ K♣ A♣", "A♦ 2♦ 3♦"]),
        "37",
    )


def test_giving_an_opening_to_a_player_whose_layoff_comes_first_is_refused() -> None:
    game, (ann, bob, _cid) = german_game()
    opening = services.record_melds(game, ann, ["10♠ J♠ Q♠ K♠"])
    services.record_melds(game, bob, ["Q♣ K♣ A♣", "3♦ 3♥ 3♠"])
    services.record_layoff(game, ann, opening.id, "9♠")
    # Bob's opening given to Ann: Ann's opening was already there, so Bob has none left.
    later = services.read_game(game).entries[-1]
    assert later.kind == "layoff"
    assert_refused(
        services.ConflictError,
        lambda: services.correct_entry(game, opening.id, None, player_id=bob),
    )


def test_deleting_an_opening_is_fine_when_the_player_s_next_entry_opens() -> None:
    game, (ann, _bob, _cid) = german_game()
    first = services.record_melds(game, ann, ["Q♣ K♣ A♣", "3♦ 3♥ 3♠"])
    services.record_melds(game, ann, ["10♠ J♠ Q♠ K♠"])
    services.delete_entry(game, first.id)
    assert [entry.player_id for entry in services.read_game(game).entries] == [ann]


def test_a_swap_moves_the_joker_and_keeps_the_rows_of_the_meld_it_left() -> None:
    game, (ann, bob, _cid) = german_game()
    opening = services.record_melds(game, ann, ["6♠ 6♥ JKR", "J♦ Q♦ K♦ A♦"])
    services.record_melds(game, bob, ["10♠ J♠ Q♠ K♠"])
    sixes = opening.melds[0][0].id
    swap = services.record_swap(game, bob, sixes, "6♣", "8♥ JKR 10♥")
    assert rules.cards_text(swap.meld.cards) in ("6♠ 6♥ 6♣", "6♠ 6♣ 6♥")
    assert rules.cards_text(swap.new_meld.cards) == "8♥ JKR=9♥ 10♥"
    state = services.read_game(game)
    assert [entry.kind for entry in state.entries][-2:] == ["swap", "meld"]
    assert state.entries[-1].group_id == swap.id
    # The joker lies once on the table although its rows are two.
    table = services.table_of(state)
    assert table.jokers == 1
    assert stored(game).count(("JKR", 0, None)) == 1
    assert ("JKR", 1, "9♥") in stored(game)
    undone = services.undo_last_entry(game)
    assert undone.id == swap.id
    assert services.table_of(undone.game).melds[sixes].jokers
