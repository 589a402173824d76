"""Names merged into one person (``People``): who can be merged, and who can sit at one table."""

from __future__ import annotations

import pytest

from scorekeeper.rules.errors import GroupError
from scorekeeper.rules.groups import People, Seat

SEATS = [Seat("s1", "Anna"), Seat("s1", "Bob"), Seat("s2", "Anni"), Seat("s2", "Dora")]


def refusal(people: People, names: list[str]) -> GroupError:
    with pytest.raises(GroupError) as caught:
        people.check_players(names)
    return caught.value


@pytest.mark.parametrize(
    ("names", "same_as"),
    [
        (["Anna", "Anni"], "Anna"),
        (["Anni", "Bob", "ANNA"], "Anni"),
        (["Bob", "Anna", "Cid", "anni"], "Anna"),
    ],
)
def test_two_names_merged_into_one_person_cannot_both_play_in_a_session(
    names: list[str], same_as: str
) -> None:
    error = refusal(People([("Anni", "Anna")]), names)
    assert error.message_id == "group.merged_at_one_table"
    assert (error.params["name"], error.params["same_as"]) == (names[-1], same_as)
    assert error.params["seat"] == len(names) - 1


def test_the_refusal_names_the_merge_in_english_and_german() -> None:
    error = refusal(People([("Anni", "Anna")]), ["Anna", "Bob", "Anni"])
    assert str(error) == (
        "“Anni” and “Anna” count as one person in this group (the names were merged): "
        "one person cannot sit at the table twice."
    )
    assert error.message("de") == (
        "„Anni“ und „Anna“ zählen in dieser Spielrunde als eine Person (die Namen wurden "
        "zusammengeführt): Eine Person kann nicht zweimal am Tisch sitzen."
    )


def test_names_merged_through_a_third_are_one_person_at_the_table_too() -> None:
    people = People([("Anni", "Anna"), ("Anna", "Annegret")])
    assert refusal(people, ["Anni", "Bob", "Annegret"]).params["same_as"] == "Anni"


@pytest.mark.parametrize("names", [["Anna", "Bob"], ["Anni", "Bob", "Cid"], ["Dora", "Eve"], []])
def test_names_that_are_not_merged_sit_together_as_before(names: list[str]) -> None:
    People([("Anni", "Anna")]).check_players(names)
    People().check_players(["Anna", "Anni"])  # no merge: two people


def test_a_name_that_sat_only_where_no_game_was_dealt_cannot_be_merged() -> None:
    seats = [*SEATS, Seat("s3", "Ann", dealt=False), Seat("s3", "Zoe", dealt=False)]
    with pytest.raises(GroupError) as caught:
        People().check_merge("Ann", "Anna", seats)
    assert caught.value.message_id == "group.never_dealt"
    assert caught.value.message("de").startswith("„Ann“ saß an einem Tisch dieser Spielrunde")
    # Dealt in once, in any session, is enough.
    assert People().check_merge("Ann", "Anna", [*seats, Seat("s4", "Ann")]) == ("Ann", "Anna")


def test_names_that_sat_together_where_no_game_was_dealt_are_still_two_people() -> None:
    seats = [*SEATS, Seat("s3", "Anni", dealt=False), Seat("s3", "Anna", dealt=False)]
    with pytest.raises(GroupError) as caught:
        People().check_merge("Anni", "Anna", seats)
    assert caught.value.message_id == "group.played_together"


@pytest.mark.parametrize(
    "written", ["\uff21\uff4e\uff4e\uff49", "\uff41\uff4e\uff4e\uff49", "A n n i"]
)
def test_a_merged_name_written_in_full_width_is_the_same_person(written: str) -> None:
    people = People([("Anni", "Anna")])
    assert people.key(written) == people.key("Anna")
    error = refusal(people, ["Anna", "Bob", written])
    assert error.message_id == "group.merged_at_one_table"
    assert error.params["name"] == written


def test_a_merge_into_a_full_width_spelling_of_the_same_name_is_refused() -> None:
    with pytest.raises(GroupError) as caught:
        People().check_merge("\uff21\uff4e\uff4e\uff41", "Anna", SEATS)
    assert caught.value.message_id == "group.same_name"
