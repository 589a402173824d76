"""The tables of a club evening: the size wanted, mixed with one smaller, never 1, 2 if allowed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    EVENING_PLAYERS,
    EveningPlayersError,
    TableSizeError,
    Treppenromme,
    find_variant,
    table_sizes,
    workable_table_sizes,
)

RELAXED = settings(deadline=None)
SYSTEMS = [
    find_variant("treppenromme"),
    find_variant("german_rummy"),
    find_variant("boathouse_rum"),
    find_variant("rummy_500"),
    find_variant("rummy_500", {"two_packs": True}),
]


class ThreeAtMost(Treppenromme):
    """A made-up rule system played by 2 or 3 players."""

    name = "three-at-most"
    title = "Three-at-most Rommé"
    max_players = 3


@pytest.mark.parametrize(
    ("players", "size", "tables"),
    [
        (12, 4, (4, 4, 4)),
        (60, 4, (4,) * 15),
        (6, 3, (3, 3)),
        (18, 6, (6, 6, 6)),
    ],
)
def test_tables_are_all_of_the_size_wanted_where_it_divides_the_players(players, size, tables):
    assert table_sizes(players, size, find_variant("german_rummy")) == tables


@pytest.mark.parametrize(
    ("players", "tables"),
    [
        (6, (3, 3)),
        (7, (4, 3)),
        (9, (3, 3, 3)),
        (10, (4, 3, 3)),
        (11, (4, 4, 3)),
        (13, (4, 3, 3, 3)),
        (59, (4,) * 14 + (3,)),
    ],
)
def test_tables_of_four_are_mixed_with_tables_of_three_the_smaller_ones_last(players, tables):
    seated = table_sizes(players, 4)
    assert sum(seated) == players
    assert seated == tables


def test_the_mix_is_the_size_wanted_and_one_smaller_at_any_size():
    assert table_sizes(17, 6, find_variant("german_rummy")) == (6, 6, 5)
    assert table_sizes(15, 8, find_variant("rummy_500", {"two_packs": True})) == (8, 7)


def test_seven_players_at_tables_of_three_need_the_organisers_consent_to_a_table_of_two():
    with pytest.raises(TableSizeError) as refused:
        table_sizes(7, 3)
    assert refused.value.message_id == "evening.table_of_two"
    assert str(refused.value) == (
        "7 players at tables of 3 would need a table of 2, which the organiser has not allowed: "
        "choose tables of 4, or allow tables of 2."
    )
    assert table_sizes(7, 3, small_tables=True) == (3, 2, 2)


def test_tables_of_two_are_seated_only_where_the_organiser_allows_them():
    with pytest.raises(TableSizeError) as refused:
        table_sizes(8, 2)
    assert refused.value.message_id == "evening.small_tables"
    assert table_sizes(8, 2, small_tables=True) == (2, 2, 2, 2)


def test_a_table_of_one_is_never_seated_even_where_tables_of_two_are_allowed():
    with pytest.raises(TableSizeError) as refused:
        table_sizes(7, 2, small_tables=True)
    assert refused.value.message_id == "evening.table_of_one"
    assert str(refused.value) == (
        "7 players at tables of 2 would leave one player alone, and nobody plays at a table "
        "of 1: choose tables of 3 or 4."
    )


def test_players_that_the_size_and_one_smaller_cannot_split_are_refused_with_sizes_that_can():
    with pytest.raises(TableSizeError) as refused:
        table_sizes(13, 6, find_variant("german_rummy"))
    assert refused.value.message_id == "evening.tables_split"
    assert str(refused.value) == (
        "13 players cannot be split into tables of 6 and 5: choose tables of 4 or 5."
    )


def test_a_table_size_outside_the_rule_systems_seats_is_refused_by_its_own_limits():
    with pytest.raises(TableSizeError) as refused:
        table_sizes(12, 6)
    assert str(refused.value) == (
        "Treppenrommé is played at tables of 2 to 4 players; a table of 6 is not possible."
    )
    assert table_sizes(12, 6, find_variant("german_rummy")) == (6, 6)


def test_two_packs_of_500_rum_seat_tables_of_eight():
    assert table_sizes(16, 8, find_variant("rummy_500", {"two_packs": True})) == (8, 8)
    with pytest.raises(TableSizeError):
        table_sizes(16, 8, find_variant("rummy_500"))


def test_a_rule_system_of_small_tables_that_cannot_seat_the_players_says_to_allow_tables_of_two():
    with pytest.raises(TableSizeError) as refused:
        table_sizes(7, 3, ThreeAtMost())
    assert refused.value.message_id == "evening.no_table_size"
    assert str(refused.value) == (
        "Three-at-most Rommé cannot seat 7 players at tables of 2 to 3 without a table of 2: "
        "allow tables of 2."
    )


@pytest.mark.parametrize("players", [0, 5, 61])
def test_an_evening_is_for_six_to_sixty_players(players):
    with pytest.raises(EveningPlayersError) as refused:
        table_sizes(players, 4)
    assert refused.value.params["count"] == players


def test_the_sizes_that_work_are_the_rule_systems_sizes_that_seat_the_players():
    assert workable_table_sizes(7) == (4,)
    assert workable_table_sizes(7, small_tables=True) == (3, 4)
    assert workable_table_sizes(12, find_variant("german_rummy")) == (3, 4, 5, 6)


@RELAXED
@given(
    players=st.integers(*EVENING_PLAYERS),
    system=st.sampled_from(SYSTEMS),
    small_tables=st.booleans(),
    data=st.data(),
)
def test_every_workable_size_seats_every_player_within_the_limits(
    players, system, small_tables, data
):
    workable = workable_table_sizes(players, system, small_tables=small_tables)
    assert workable, "some table size always seats 6 to 60 players"
    size = data.draw(st.sampled_from(workable))
    tables = table_sizes(players, size, system, small_tables=small_tables)
    assert sum(tables) == players
    assert tables[0] == size or set(tables) == {size - 1}
    assert set(tables) <= {size, size - 1}
    assert list(tables) == sorted(tables, reverse=True)  # the smaller tables last
    assert min(tables) >= (2 if small_tables else 3)
    assert max(tables) <= system.max_players


@RELAXED
@given(
    players=st.integers(*EVENING_PLAYERS),
    system=st.sampled_from(SYSTEMS),
    small_tables=st.booleans(),
    size=st.integers(1, 9),
)
def test_any_size_is_seated_or_refused_with_a_table_size_error(players, system, small_tables, size):
    try:
        tables = table_sizes(players, size, system, small_tables=small_tables)
    except TableSizeError:
        assert size not in workable_table_sizes(players, system, small_tables=small_tables)
    else:
        assert sum(tables) == players
        assert size in workable_table_sizes(players, system, small_tables=small_tables)
