"""Rule systems as classes with class-level switches, found by name."""

import pytest

from scorekeeper.rules import (
    TREPPENROMME,
    VARIANTS,
    AcePosition,
    CornerNotAllowedError,
    InvalidLayoffError,
    Table,
    Treppenromme,
    cards_text,
    classify,
    find_variant,
    lay_off,
    parse_cards,
)


class NoCorner(Treppenromme):
    """A made-up rule system in which the ace may not turn the corner."""

    name = "no-corner"
    title = "No-Corner Rommé"
    ace_turns_corner = False


@pytest.mark.parametrize("cards", ["K♠ A♠ 2♠", "Q♠ K♠ A♠ 2♠", "2♥ A♥ K♥ Q♥ 3♥"])
def test_a_rule_system_without_the_corner_refuses_king_ace_two(cards):
    with pytest.raises(CornerNotAllowedError, match="may not turn the corner") as caught:
        classify(parse_cards(cards), NoCorner())
    assert "No-Corner Rommé" in str(caught.value)


@pytest.mark.parametrize(
    ("cards", "value"),
    [("Q♠ K♠ A♠", 30), ("A♠ 2♠ 3♠", 6), ("5♠ 6♠ 7♠", 18), ("A♠ A♥ A♦", 45)],
)
def test_a_rule_system_without_the_corner_accepts_the_ace_high_or_low(cards, value):
    assert classify(parse_cards(cards), NoCorner()).value == value


def test_a_rule_system_without_the_corner_still_accepts_the_whole_suit():
    meld = classify(parse_cards("K♠ A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠"), NoCorner())
    assert meld.ace_positions[-1] is AcePosition.HIGH


def test_a_rule_system_without_the_corner_refuses_a_layoff_across_it():
    with pytest.raises(InvalidLayoffError, match="may not turn the corner"):
        lay_off(parse_cards("Q♠ K♠ A♠"), parse_cards("2♠"), NoCorner())


def test_treppenromme_lets_the_ace_turn_the_corner():
    assert cards_text(classify(parse_cards("2♠ K♠ A♠")).cards) == "K♠ A♠ 2♠"


def test_treppenromme_is_found_by_name():
    variant = find_variant("treppenromme")
    assert isinstance(variant, Treppenromme)
    assert variant.title == "Treppenrommé"
    assert "treppenromme" in VARIANTS


def test_treppenromme_is_the_default_rule_system():
    assert isinstance(find_variant(), Treppenromme)
    assert isinstance(TREPPENROMME, Treppenromme)


def test_an_unknown_rule_system_is_refused():
    with pytest.raises(ValueError, match="skat"):
        find_variant("skat")


def test_two_instances_of_a_rule_system_are_the_same_rule_system():
    assert find_variant() == find_variant() == TREPPENROMME
    assert hash(find_variant()) == hash(TREPPENROMME)
    assert NoCorner() == NoCorner()
    assert NoCorner() != TREPPENROMME
    assert TREPPENROMME != "treppenromme"


def test_a_table_values_the_same_cards_by_its_own_rule_system_each_time():
    # The table keeps recent meld values: the rule system is part of what it remembers.
    for _ in range(2):
        assert Table(find_variant()).meld(1, parse_cards("K♠ A♠ 2♠")).value == 17
        with pytest.raises(CornerNotAllowedError):
            Table(NoCorner()).meld(1, parse_cards("K♠ A♠ 2♠"))
        for variant, turns in ((find_variant(), True), (NoCorner(), False)):
            table = Table(variant)
            table.meld(1, parse_cards("J♠ Q♠ K♠"))
            if turns:
                assert table.lay_off(2, 1, parse_cards("A♠ 2♠")).values == (5, 2)
            else:
                with pytest.raises(InvalidLayoffError, match="may not turn the corner"):
                    table.lay_off(2, 1, parse_cards("A♠ 2♠"))


def test_the_repr_of_a_rule_system_finds_it_again():
    variant = eval(repr(TREPPENROMME), {"find_variant": find_variant})
    assert type(variant) is Treppenromme


def test_treppenromme_switches_are_as_the_rules_say():
    variant = find_variant("treppenromme")
    assert variant.packs == 1
    assert variant.jokers == 0
    assert variant.cards_dealt(4) == 7
    assert (variant.min_players, variant.max_players) == (2, 4)
    assert variant.set_sizes == (3, 4)
    assert variant.min_sequence == 3
    assert variant.ace_turns_corner is True
    assert variant.ace_in_meld == {
        AcePosition.IN_SET: 15,
        AcePosition.HIGH: 10,
        AcePosition.CORNER: 5,
        AcePosition.LOW: 1,
    }
    assert variant.ace_in_hand == 15
    assert variant.first_meld_minimum == 0
    assert variant.house_rules == {"end": {"target": 500}, "romme_doubling": "winner"}
    assert variant.romme_factor == 2


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_rule_system_shows_its_standing_best_total_first_then_by_seat(name):
    variant = find_variant(name)
    totals = {"Ann": -7, "Bob": 12, "Cid": 12, "Dan": 0}

    assert variant.standing_order(["Ann", "Bob", "Cid", "Dan"], totals) == [
        "Bob",
        "Cid",
        "Dan",
        "Ann",
    ]
    assert variant.standing_order(["Cid", "Dan", "Ann", "Bob"], totals)[:2] == ["Cid", "Bob"]


@pytest.mark.parametrize(
    ("name", "end", "english", "german"),
    [
        ("treppenromme", {"target": 500}, "To go", "Fehlen"),
        ("boathouse_rum", {"games": 5}, "To go", "Fehlen"),
        ("german_rummy", {"limit": -500}, "To -500", "Bis -500"),
        ("german_rummy", {"limit": -300}, "To -300", "Bis -300"),
    ],
)
def test_a_rule_system_says_what_the_distance_to_its_end_is(name, end, english, german):
    message = find_variant(name, {"end": end}).to_go_message()

    assert (message.render("en"), message.render("de")) == (english, german)
