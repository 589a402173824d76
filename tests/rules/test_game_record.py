"""A game's recorded entries: which may go or be corrected, and the copy each card lies as."""

from __future__ import annotations

import pytest

from scorekeeper.rules import (
    CardAlreadyPlayedError,
    Correction,
    EntryRefusal,
    GameRecord,
    Layoff,
    OpeningError,
    RecordedEntry,
    Table,
    Variant,
    find_variant,
    next_copies,
    parse_pieces,
)

TREPPENROMME = find_variant("treppenromme")
GERMAN_RUMMY = find_variant("german_rummy")
NAMES = {1: "Ann", 2: "Bob"}


def recorded(variant: Variant, *plays: tuple[int, str, int | None, str | None]) -> GameRecord:
    """Record plays (player, cards, onto, new meld) as the service stores them, valued.

    Ids and positions count from 1; a swap is two rows, the swap and its new meld.
    """
    table: Table[int] = Table(variant)
    rows: list[RecordedEntry] = []
    for player, text, onto, new_meld in plays:
        key = len(rows) + 1
        cards = tuple(parse_pieces(text))
        if onto is None:
            meld = table.meld(key, cards)
            rows.append(RecordedEntry(key, key, "meld", player, None, meld.value, meld.cards))
        elif new_meld is None:
            layoff = table.lay_off(key, onto, cards)
            rows.append(RecordedEntry(key, key, "layoff", player, onto, layoff.value, cards))
        else:
            swap = table.swap(key + 1, onto, cards, parse_pieces(new_meld))
            put_in = Layoff(meld=swap.meld, cards=swap.cards, values=swap.values)
            rows.append(RecordedEntry(key, key, "swap", player, onto, put_in.value, swap.cards))
            new = swap.new_meld
            rows.append(
                RecordedEntry(key + 1, key + 1, "meld", player, None, new.value, new.cards, key)
            )
    return GameRecord(tuple(rows), variant, NAMES)


def with_group(game: GameRecord, *rows: RecordedEntry) -> GameRecord:
    """Return the game with more rows, e.g. a second meld recorded with the first."""
    return GameRecord((*game.entries, *rows), game.variant, game.names)


def test_the_latest_entry_can_always_go() -> None:
    game = recorded(TREPPENROMME, (1, "5♠ 6♠ 7♠", None, None), (2, "8♠", 1, None))
    assert game.delete_refusal(2) is None


def test_a_meld_with_a_layoff_on_it_cannot_go() -> None:
    game = recorded(TREPPENROMME, (1, "5♠ 6♠ 7♠", None, None), (2, "8♠", 1, None))
    assert game.delete_refusal(1) == EntryRefusal("meld_has_layoffs")


def test_a_layoff_another_layoff_lies_beside_cannot_go() -> None:
    game = recorded(
        TREPPENROMME,
        (1, "5♠ 6♠ 7♠", None, None),
        (2, "8♠", 1, None),
        (1, "9♠", 1, None),
    )
    assert game.delete_refusal(2) == EntryRefusal("later_layoff_builds_on_it")


def test_a_meld_a_joker_was_swapped_out_of_cannot_go_and_the_swap_is_named() -> None:
    game = recorded(
        GERMAN_RUMMY,
        (1, "10♣ J♣ Q♣ K♣", None, None),
        (1, "6♠ 6♥ JKR", None, None),
        (1, "6♣", 2, "8♥ JKR 10♥"),
    )
    assert game.delete_refusal(2) == EntryRefusal("later_entry_builds_on_it", 3)


def test_an_entry_whose_going_leaves_a_later_meld_as_a_players_opening_cannot_go() -> None:
    game = recorded(GERMAN_RUMMY, (1, "10♣ J♣ Q♣ K♣", None, None), (1, "3♦ 3♥ 3♠", None, None))
    assert game.delete_refusal(1) == EntryRefusal("opening_broken", 2, minimum=40)


def test_all_the_melds_of_an_entry_go_together() -> None:
    game = recorded(GERMAN_RUMMY, (1, "10♣ J♣ Q♣ K♣", None, None))
    second = RecordedEntry(2, 2, "meld", 1, None, 9, tuple(parse_pieces("3♦ 3♥ 3♠")), 1)
    game = with_group(game, second)
    # The second meld alone does not open: without the first it could not stay; with it, it goes.
    assert game.delete_refusal(2) is None
    assert [entry.id for entry in game.without(1).entries] == []


def test_a_correction_of_one_meld_of_several_recorded_together_is_refused() -> None:
    game = recorded(GERMAN_RUMMY, (1, "10♣ J♣ Q♣ K♣", None, None))
    second = RecordedEntry(2, 2, "meld", 1, None, 9, tuple(parse_pieces("3♦ 3♥ 3♠")), 1)
    game = with_group(game, second)
    assert game.correction(1, parse_pieces("10♥ J♥ Q♥ K♥")) == EntryRefusal("several_melds")
    assert game.correction(2, parse_pieces("4♦ 4♥ 4♠")) == EntryRefusal("several_melds")


def test_a_corrected_meld_is_valued_where_it_lies() -> None:
    game = recorded(TREPPENROMME, (1, "5♠ 6♠ 7♠", None, None), (2, "8♦ 9♦ 10♦", None, None))
    corrected = game.correction(1, parse_pieces("J♠ Q♠ K♠"))
    assert isinstance(corrected, Correction)
    assert (corrected.played.value, corrected.onto, corrected.meld_kind) == (30, None, "sequence")


def test_a_correction_that_changes_a_later_layoffs_value_is_refused_naming_it() -> None:
    game = recorded(TREPPENROMME, (1, "J♠ Q♠ K♠", None, None), (2, "A♠", 1, None))
    assert game.correction(1, parse_pieces("10♠ J♠ Q♠")) == EntryRefusal(
        "later_entry_builds_on_it", 2
    )


def test_a_correction_to_a_card_lying_elsewhere_is_refused_as_on_recording() -> None:
    game = recorded(TREPPENROMME, (1, "5♠ 6♠ 7♠", None, None), (2, "8♦ 9♦ 10♦", None, None))
    with pytest.raises(CardAlreadyPlayedError):
        game.correction(2, parse_pieces("5♠ 5♥ 5♦"))


def test_a_correction_may_repeat_the_entrys_own_cards() -> None:
    game = recorded(TREPPENROMME, (1, "5♠ 6♠ 7♠", None, None))
    corrected = game.correction(1, parse_pieces("4♠ 5♠ 6♠ 7♠"))
    assert isinstance(corrected, Correction)
    assert corrected.played.value == 22


@pytest.mark.parametrize(
    ("entry", "onto", "reason"),
    [
        (1, 1, "meld_is_no_layoff"),  # a meld lies on no meld
        (3, 9, "no_such_meld"),
        (3, 3, "no_such_meld"),  # a layoff is no meld to lie on
        (2, 4, "meld_recorded_later"),
    ],
)
def test_a_layoff_moves_only_onto_a_meld_that_lay_on_the_table_by_then(
    entry: int, onto: int, reason: str
) -> None:
    game = recorded(
        TREPPENROMME,
        (1, "5♠ 6♠ 7♠", None, None),
        (2, "8♠", 1, None),
        (1, "4♠", 1, None),
        (2, "8♦ 9♦ 10♦", None, None),
    )
    assert game.correction(entry, None, onto) == EntryRefusal(reason)


def test_a_layoff_moves_onto_an_earlier_meld_it_fits() -> None:
    game = recorded(
        TREPPENROMME,
        (1, "5♠ 6♠ 7♠", None, None),
        (2, "8♦ 9♦ 10♦", None, None),
        (1, "J♦", 2, None),
    )
    corrected = game.correction(3, parse_pieces("8♠"), 1)
    assert isinstance(corrected, Correction)
    assert (corrected.onto, corrected.played.value, corrected.meld_kind) == (1, 8, None)


def test_a_meld_given_to_a_player_who_has_not_opened_is_refused_with_the_openings_reason() -> None:
    game = recorded(GERMAN_RUMMY, (1, "10♣ J♣ Q♣ K♣", None, None), (1, "3♦ 3♥ 3♠", None, None))
    with pytest.raises(OpeningError, match="worth 9"):
        game.correction(2, None, None, player=2)


def test_a_correction_that_leaves_a_later_meld_as_an_opening_too_low_is_refused_naming_it() -> None:
    game = recorded(GERMAN_RUMMY, (1, "10♣ J♣ Q♣ K♣", None, None), (1, "3♦ 3♥ 3♠", None, None))
    assert game.correction(1, None, None, player=2) == EntryRefusal("opening_broken", 2, minimum=40)


def test_a_swap_replays_as_one_entry_under_its_new_meld_with_both_values_written() -> None:
    game = recorded(
        GERMAN_RUMMY,
        (1, "10♣ J♣ Q♣ K♣", None, None),
        (1, "6♠ 6♥ JKR", None, None),
        (1, "6♣", 2, "8♥ JKR 10♥"),
    )
    assert [entry.key for entry in game.table_entries()] == [1, 2, 4]
    assert [turn.kind for turn in game.turns() or []] == ["meld", "meld", "swap"]
    valued = GameRecord(
        [
            RecordedEntry(1, 1, "meld", 1, None, 18, tuple(parse_pieces("6♠ 6♥ JKR"))),
            RecordedEntry(2, 2, "swap", 1, 1, 6, tuple(parse_pieces("6♣"))),
            RecordedEntry(3, 3, "meld", 1, None, 27, tuple(parse_pieces("8♥ JKR 10♥")), 2),
        ]
    )
    assert valued.written() == {1: 18, 3: 6 + 27}


def test_each_card_lies_as_the_first_copy_not_lying_yet() -> None:
    assert next_copies(["7♥", "8♥", "7♥"], [("7♥", 0), ("8♥", 1)]) == [1, 0, 2]
    assert next_copies([], [("7♥", 0)]) == []


def test_a_players_first_entry_must_open_and_names_them() -> None:
    game = recorded(GERMAN_RUMMY, (1, "10♣ J♣ Q♣ K♣", None, None))
    with pytest.raises(OpeningError, match="Bob has not opened yet"):
        game.refuse_turn(2, "layoff")
    low = game.table().meld(-1, parse_pieces("3♦ 3♥ 3♠"))
    with pytest.raises(OpeningError, match="worth 9"):
        game.refuse_turn(2, "meld", [low])


def test_after_their_opening_a_player_lays_off_and_melds_what_they_like() -> None:
    game = recorded(GERMAN_RUMMY, (1, "10♣ J♣ Q♣ K♣", None, None))
    low = game.table().meld(-1, parse_pieces("3♦ 3♥ 3♠"))
    game.refuse_turn(1, "layoff")
    game.refuse_turn(1, "meld", [low])
