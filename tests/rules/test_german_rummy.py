"""German Rummy (Rommé, seed 002) and its rulings G1-G8, without a database."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import rules
from scorekeeper.rules import (
    VARIANTS,
    Card,
    CardAlreadyPlayedError,
    CardNotationError,
    CardTwiceError,
    CornerNotAllowedError,
    GapInSequenceError,
    GermanRummy,
    HouseRuleError,
    InvalidLayoffError,
    InvalidMeldError,
    Joker,
    JokerError,
    JokerInDoubtError,
    MeldKind,
    NaturalMeld,
    OpeningError,
    Rank,
    RulesError,
    SeatingError,
    SettlementError,
    Suit,
    SwapError,
    Table,
    TableEntry,
    Treppenromme,
    cards_text,
    classify,
    classify_pieces,
    find_variant,
    lay_off_pieces,
    opening_value,
    parse_cards,
    parse_pieces,
    refuse_opening,
    replay,
    seat_players,
    swap_joker,
)

GERMAN = GermanRummy()
FOUR = GermanRummy({"joker_swap_from_set": "four"})
PLAYERS = ["Ann", "Bob", "Cid"]
RELAXED = settings(deadline=None)


def meld(text, variant=GERMAN):
    return classify_pieces(parse_pieces(text), variant)


def shown(pieces):
    return cards_text(pieces)


# --- the rule system ---------------------------------------------------------------------------


def test_german_rummy_switches_are_as_the_rules_say():
    assert GERMAN.name == "german_rummy"
    assert GERMAN.title == "German Rummy"
    assert (GERMAN.packs, GERMAN.jokers) == (2, 6)
    assert (GERMAN.min_players, GERMAN.max_players) == (2, 6)
    assert GERMAN.cards_dealt(4) == 13
    assert GERMAN.ace_turns_corner is False
    assert GERMAN.melds_score is False
    assert GERMAN.house_rules == {
        "end": {"limit": -500},
        "opening": 40,
        "joker_in_hand": 30,
        "hand_romme_doubles": False,
        "joker_swap_from_set": "any",
    }


def test_the_dealer_plays_first_and_the_deal_passes_to_the_left():
    assert GERMAN.first_player_seat(2, 4) == 2
    assert GERMAN.next_dealer_seat(3, 1, 4) == 0


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_two_to_six_players_are_seated(count):
    names = [f"P{seat}" for seat in range(count)]
    assert seat_players(names, GERMAN) == names


def test_seven_players_are_refused():
    with pytest.raises(SeatingError, match="German Rummy is played by 2 to 6 players"):
        seat_players([f"P{seat}" for seat in range(7)], GERMAN)


def test_german_rummy_is_called_romme_in_german():
    assert GERMAN.label("en") == "German Rummy"
    assert GERMAN.label("de") == "Rommé"
    assert GERMAN.label("de-AT") == "Rommé"


def test_german_rummy_is_a_rule_system_a_table_can_choose():
    assert VARIANTS["german_rummy"] is GermanRummy
    assert find_variant("german_rummy", {"opening": 30}).opening_minimum() == 30


# --- G8: the notation of jokers --------------------------------------------------------------


@pytest.mark.parametrize("text", ["JKR", "jkr", "Joker", "JOKER", "joker"])
def test_a_joker_is_written_jkr_or_joker_in_any_case(text):
    assert parse_pieces(text) == [Joker()]


@pytest.mark.parametrize("text", ["JKR=7♠", "joker=7s", "Jkr=7S", "JOKER=7♤"])
def test_a_joker_said_to_stand_for_a_card_is_written_with_an_equals_sign(text):
    assert parse_pieces(text) == [Joker(stands_for=Card.from_code("7♠"))]


def test_jokers_and_cards_are_separated_by_spaces_or_commas():
    assert parse_pieces("J♣, Q♣ JKR - A♣") == [
        Card.from_code("J♣"),
        Card.from_code("Q♣"),
        Joker(),
        Card.from_code("A♣"),
    ]


@pytest.mark.parametrize("joker", [Joker(), Joker(stands_for=Card.from_code("Q♠"))])
def test_the_repr_of_a_joker_reads_back_as_the_same_joker(joker):
    assert eval(repr(joker), {"Joker": Joker}) == joker


def test_a_joker_is_shown_with_the_card_it_stands_for_in_the_language_s_letters():
    joker = Joker.from_code("jkr=qs")
    assert (joker.code, joker.label("en"), joker.label("de")) == ("JKR=Q♠", "JKR=Q♠", "JKR=D♠")
    assert str(Joker()) == Joker().label("de") == "JKR"


@pytest.mark.parametrize("text", ["JKR=", "JKR=Z♠", "JKR=7x", "JKR=JKR"])
def test_a_joker_said_to_stand_for_no_card_is_refused(text):
    with pytest.raises(CardNotationError, match="after JKR= write the card"):
        parse_pieces(text)


def test_reading_a_joker_from_something_else_is_refused():
    with pytest.raises(CardNotationError, match="is not a joker"):
        Joker.from_code("7♠")


@pytest.mark.parametrize("text", ["5♠ 6♠ JKR", "joker", "Q♣ JKR=K♣ A♣"])
def test_the_notation_of_a_rule_system_without_jokers_refuses_a_joker(text):
    with pytest.raises(CardNotationError) as refused:
        parse_cards(text)
    assert "played without jokers" in str(refused.value)
    assert "ohne Joker" in refused.value.message("de")


def test_the_notation_of_cards_is_read_as_before():
    assert parse_cards("Q♣, K♣ - ac") == parse_pieces("Q♣, K♣ - ac")


# --- G1, G2: melds with jokers (seed 002) ---------------------------------------------------


def test_the_joker_inside_a_sequence_is_the_card_its_place_needs():
    # Seed 002: ♣B–♣D–J–♣A
    sequence = meld("J♣ Q♣ JKR A♣")
    assert sequence.kind is MeldKind.SEQUENCE
    assert shown(sequence.cards) == "J♣ Q♣ JKR=K♣ A♣"
    assert [(place.index, shown(place.stands_for)) for place in sequence.jokers] == [(2, "K♣")]
    assert sequence.opening_values == (10, 10, 10, 11)
    assert sequence.opening_value == 41


def test_the_joker_in_a_set_stands_for_every_missing_suit():
    # Seed 002: ♠6–♥6–J
    group = meld("6♠ 6♥ JKR")
    assert group.kind is MeldKind.SET
    assert shown(group.cards) == "6♠ 6♥ JKR"
    assert [(place.index, shown(place.stands_for)) for place in group.jokers] == [(2, "6♦ 6♣")]
    assert group.opening_value == 18


def test_two_jokers_lie_side_by_side_in_a_sequence_of_four():
    # Seed 002: ♠3–J–J–♠6
    sequence = meld("3♠ JKR JKR 6♠")
    assert shown(sequence.cards) == "3♠ JKR=4♠ JKR=5♠ 6♠"
    assert sequence.opening_value == 18


def test_one_natural_card_with_two_jokers_is_refused():
    with pytest.raises(JokerError, match="at least as many natural cards as jokers"):
        meld("6♠ JKR JKR")


def test_two_equal_cards_never_lie_in_one_set():
    with pytest.raises(CardTwiceError) as refused:
        meld("K♥ K♥ K♣")
    assert str(refused.value) == "K♥ is entered twice: a meld never holds two equal cards."
    assert refused.value.message("de") == (
        "K♥ ist doppelt eingegeben: eine Kombination enthält nie zwei gleiche Karten."
    )


def test_two_equal_cards_never_lie_in_one_sequence():
    with pytest.raises(CardTwiceError, match="never holds two equal cards"):
        meld("5♠ 5♠ 6♠ 7♠")


def test_two_jokers_beside_two_natural_cards_are_a_set_of_four_worth_24():
    group = meld("6♠ 6♥ JKR JKR")
    assert group.kind is MeldKind.SET
    assert shown(group.cards) == "6♠ 6♥ JKR JKR"
    assert group.opening_value == 24
    assert sorted(card for place in group.jokers for card in place.stands_for[:1]) == [
        Card.from_code("6♦"),
        Card.from_code("6♣"),
    ]


def test_two_jokers_in_a_set_may_be_said_but_not_for_the_same_suit():
    assert meld("6♠ 6♥ JKR=6♣ JKR").opening_value == 24
    with pytest.raises(JokerError, match="cannot stand for 6♣; there it can stand for 6♦"):
        meld("6♠ 6♥ JKR=6♣ JKR=6♣")


def test_a_joker_said_in_a_set_of_two_jokers_keeps_its_card_and_the_other_takes_the_last_suit():
    group = meld("6♠ 6♥ JKR=6♦ JKR")
    assert shown(group.cards) == "6♠ 6♥ JKR=6♦ JKR=6♣"
    assert [place.stands_for for place in group.jokers] == [
        (Card.from_code("6♦"),),
        (Card.from_code("6♣"),),
    ]
    assert group.opening_value == 24
    assert shown(meld("6♠ 6♥ JKR JKR=6♦").cards) == "6♠ 6♥ JKR=6♣ JKR=6♦"


def test_a_joker_said_in_a_set_of_three_keeps_its_card_and_may_still_stand_for_the_other_suit():
    group = meld("6♠ 6♥ JKR=6♦")
    assert shown(group.cards) == "6♠ 6♥ JKR=6♦"
    assert group.jokers[0].stands_for == (Card.from_code("6♦"), Card.from_code("6♣"))
    swap = swap_joker(group.cards, parse_cards("6♣"), parse_pieces("8♥ JKR 10♥"), GERMAN)
    assert shown(swap.meld.cards) == "6♠ 6♥ 6♣"
    layoff = lay_off_pieces(group.cards, parse_pieces("6♦"), GERMAN)
    assert shown(layoff.meld.cards) == "6♠ 6♥ 6♦ JKR=6♣"


@pytest.mark.parametrize(
    ("put_in", "left"),
    [
        pytest.param("6♣", "6♠ 6♥ 6♣ JKR=6♦", id="the card of the joker not said"),
        pytest.param("6♦", "6♠ 6♥ 6♦ JKR=6♣", id="the card of the joker said"),
    ],
)
def test_a_swap_from_a_set_with_a_joker_said_takes_the_joker_of_the_card_put_in(put_in, left):
    swap = swap_joker(
        parse_pieces("6♠ 6♥ JKR=6♦ JKR"), parse_cards(put_in), parse_pieces("8♥ JKR 10♥"), GERMAN
    )
    assert shown(swap.meld.cards) == left


def test_a_swap_from_a_set_with_a_joker_said_needs_both_missing_cards_under_the_four_rule():
    said = parse_pieces("6♠ 6♥ JKR=6♦ JKR")
    with pytest.raises(SwapError, match="put in 6♦ 6♣"):
        swap_joker(said, parse_cards("6♣"), parse_pieces("8♥ JKR 10♥"), FOUR)
    swap = swap_joker(said, parse_cards("6♣ 6♦"), parse_pieces("8♥ JKR 10♥ JKR=J♥"), FOUR)
    assert shown(swap.meld.cards) == "6♠ 6♥ 6♦ 6♣"
    with pytest.raises(SwapError, match="6♥ cannot take a joker's place"):
        swap_joker(said, parse_cards("6♥"), parse_pieces("8♥ JKR 10♥"), GERMAN)


def test_a_set_with_two_jokers_still_needs_two_natural_cards_and_room():
    with pytest.raises(JokerError, match="at least as many natural cards as jokers"):
        meld("6♠ JKR JKR")
    with pytest.raises(InvalidMeldError, match="at most 4 cards"):
        meld("6♠ 6♥ 6♦ JKR JKR")


def test_a_second_joker_laid_off_onto_a_set_of_three_makes_it_four():
    layoff = lay_off_pieces(parse_pieces("6♠ 6♥ JKR"), parse_pieces("JKR"), GERMAN)
    assert shown(layoff.meld.cards) == "6♠ 6♥ JKR JKR"
    assert layoff.cards == (Joker(),)


def test_one_joker_of_two_in_a_set_is_swapped_for_one_missing_card():
    swap = swap_joker(
        parse_pieces("6♠ 6♥ JKR JKR"), parse_cards("6♣"), parse_pieces("8♥ JKR 10♥"), GERMAN
    )
    assert shown(swap.meld.cards) == "6♠ 6♥ 6♣ JKR=6♦"
    assert shown(swap.new_meld.cards) == "8♥ JKR=9♥ 10♥"


def test_both_jokers_of_a_set_are_swapped_for_both_missing_cards():
    for variant in (GERMAN, FOUR):
        swap = swap_joker(
            parse_pieces("6♠ 6♥ JKR JKR"),
            parse_cards("6♦ 6♣"),
            parse_pieces("8♥ JKR 10♥ JKR=J♥"),
            variant,
        )
        assert shown(swap.meld.cards) == "6♠ 6♥ 6♦ 6♣"
    with pytest.raises(SwapError, match="put in 6♦ 6♣"):
        swap_joker(
            parse_pieces("6♠ 6♥ JKR JKR"), parse_cards("6♣"), parse_pieces("8♥ JKR 10♥"), FOUR
        )


def test_a_table_counts_the_jokers_of_a_set_of_two_jokers():
    table = Table(GERMAN)
    table.meld(1, parse_pieces("6♠ 6♥ JKR JKR"))
    assert table.jokers == 2
    table.swap(2, 1, parse_cards("6♦"), parse_pieces("9♣ JKR J♣"))
    assert table.jokers == 2
    assert shown(table.melds[1].cards) == "6♠ 6♥ 6♦ JKR=6♣"


def test_three_jokers_never_lie_side_by_side():
    with pytest.raises(JokerError, match="three jokers never lie side by side"):
        meld("3♠ JKR JKR JKR 7♠ 8♠ 9♠")


def test_three_jokers_apart_lie_in_a_long_sequence():
    assert shown(meld("2♠ JKR 4♠ JKR 6♠ JKR 8♠").cards) == "2♠ JKR=3♠ 4♠ JKR=5♠ 6♠ JKR=7♠ 8♠"


def test_a_set_with_a_joker_has_at_most_four_cards():
    with pytest.raises(InvalidMeldError, match="at most 4 cards"):
        meld("6♠ 6♥ 6♦ 6♣ JKR")


def test_a_set_of_three_natural_cards_and_a_joker_names_the_one_missing_suit():
    group = meld("6♠ 6♥ 6♦ JKR")
    assert shown(group.cards) == "6♠ 6♥ 6♦ JKR=6♣"
    assert group.opening_value == 24


def test_a_set_of_aces_with_a_joker_counts_eleven_each():
    assert meld("A♠ A♥ JKR").opening_values == (11, 11, 11)


@pytest.mark.parametrize(
    ("cards", "joker", "value"),
    [
        ("A♠ 2♠ JKR", "3♠", 6),  # nothing lies below a low ace
        ("JKR 2♠ A♠", "3♠", 6),
        ("K♠ A♠ JKR", "Q♠", 31),  # nothing lies above a high ace: no corner
        ("Q♠ JKR A♠", "K♠", 31),
        ("5♠ JKR 7♠", "6♠", 18),
        ("2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ JKR", "A♥", 95),  # the ace highest, as R1
    ],
)
def test_a_joker_that_has_only_one_place_is_never_in_doubt(cards, joker, value):
    sequence = meld(cards)
    assert [shown(place.stands_for) for place in sequence.jokers] == [joker]
    assert sequence.opening_value == value


@pytest.mark.parametrize(
    ("cards", "choices"),
    [
        ("5♠ 6♠ JKR", ["4♠", "7♠"]),
        ("Q♠ K♠ JKR", ["J♠", "A♠"]),
        ("2♠ 3♠ JKR", ["A♠", "4♠"]),
        ("3♠ JKR 5♠ JKR", ["2♠", "6♠"]),  # the joker inside is 4♠ either way
    ],
)
def test_a_joker_at_an_end_that_could_be_either_neighbour_is_in_doubt(cards, choices):
    with pytest.raises(JokerInDoubtError) as doubt:
        meld(cards)
    assert [card.code for card in doubt.value.choices] == choices
    assert " or ".join(choices) in str(doubt.value)


def test_a_joker_in_doubt_says_the_choices_in_both_languages():
    with pytest.raises(JokerInDoubtError) as doubt:
        meld("5♠ 6♠ JKR")
    assert str(doubt.value) == (
        "In 5♠ 6♠ JKR a joker can stand for 4♠ or 7♠: say which, e.g. JKR=7♠."
    )
    assert doubt.value.message("de") == (
        "In 5♠ 6♠ JKR kann ein Joker für 4♠ oder 7♠ stehen: bitte angeben, wofür, z. B. JKR=7♠."
    )


@pytest.mark.parametrize(("said", "shown_as"), [("7♠", "5♠ 6♠ JKR=7♠"), ("4♠", "JKR=4♠ 5♠ 6♠")])
def test_the_recorder_settles_a_joker_in_doubt_by_saying_what_it_stands_for(said, shown_as):
    assert shown(meld(f"5♠ 6♠ JKR={said}").cards) == shown_as


def test_saying_one_of_two_jokers_in_doubt_leaves_the_other_in_doubt():
    with pytest.raises(JokerInDoubtError) as doubt:
        meld("5♠ 6♠ JKR=7♠ JKR")
    assert [card.code for card in doubt.value.choices] == ["4♠", "8♠"]
    assert shown(meld("5♠ 6♠ JKR=7♠ JKR=8♠").cards) == "5♠ 6♠ JKR=7♠ JKR=8♠"


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("5♠ 6♠ JKR=9♠", "a joker cannot stand for 9♠; there it can stand for 4♠ or 7♠"),
        ("5♠ 6♠ JKR=7♥", "a joker cannot stand for 7♥"),
        ("5♠ JKR=5♠ 7♠", "a joker cannot stand for 5♠"),
        ("J♣ Q♣ JKR=Q♣ A♣", "a joker cannot stand for Q♣; there it can stand for K♣"),
        ("5♠ 6♠ JKR=7♠ JKR=7♠", "a joker cannot stand for 7♠; there it can stand for 4♠ or 8♠"),
        ("6♠ 6♥ JKR=6♠", "a joker cannot stand for 6♠; there it can stand for 6♦ or 6♣"),
        ("6♠ 6♥ JKR=7♦", "a joker cannot stand for 7♦"),
    ],
)
def test_a_joker_said_to_be_a_card_its_place_cannot_need_is_refused(cards, message):
    with pytest.raises(JokerError, match=message):
        meld(cards)


def test_a_set_joker_said_to_be_a_missing_suit_is_the_same_set_and_keeps_what_was_said():
    said, unsaid = meld("6♠ 6♥ JKR=6♣"), meld("6♠ 6♥ JKR")
    assert (said.kind, said.values, said.opening_values) == (
        unsaid.kind,
        unsaid.values,
        unsaid.opening_values,
    )
    assert set(said.jokers[0].stands_for) == set(unsaid.jokers[0].stands_for)
    assert (shown(said.cards), shown(unsaid.cards)) == ("6♠ 6♥ JKR=6♣", "6♠ 6♥ JKR")


def test_a_meld_written_as_it_lies_reads_back_as_the_same_meld():
    lying = meld("J♣ Q♣ JKR A♣")
    assert meld(cards_text(lying.cards)) == lying


def test_a_sequence_with_a_joker_never_turns_the_corner():
    with pytest.raises(CornerNotAllowedError, match="may not turn the corner"):
        meld("K♠ JKR 2♠")
    with pytest.raises(CornerNotAllowedError):
        meld("K♠ A♠ 2♠")


def test_a_gap_wider_than_the_jokers_is_named():
    with pytest.raises(GapInSequenceError) as refused:
        meld("5♠ JKR 9♠")
    assert str(refused.value) == (
        "5♠ JKR 9♠ is not a sequence: 6♠ 7♠ 8♠ are missing, and 1 joker cannot stand for them all."
    )
    assert refused.value.message("de") == (
        "5♠ JKR 9♠ ist keine Folge: 6♠ 7♠ 8♠ fehlen, und 1 Joker kann nicht für alle stehen."
    )


def test_a_sequence_longer_than_a_suit_with_both_aces_is_refused_with_the_14_cards_it_may_hold():
    with pytest.raises(InvalidMeldError) as refused:
        meld("A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ JKR JKR")
    assert str(refused.value).endswith(
        "is not a sequence: a sequence holds at most 14 cards: every rank once, and an ace at "
        "each end."
    )
    assert refused.value.message("de").endswith(
        "ist keine Folge: eine Folge hat höchstens 14 Karten: jeden Rang einmal und an jedem "
        "Ende ein Ass."
    )
    with pytest.raises(InvalidMeldError, match="a sequence holds at most 14 cards"):
        meld("A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠ JKR")


def test_a_joker_with_cards_of_several_ranks_and_suits_is_no_meld():
    with pytest.raises(InvalidMeldError, match="is neither a set"):
        meld("JKR 5♠ 6♥")


def test_a_joker_needs_two_more_cards():
    with pytest.raises(InvalidMeldError, match="at least 3 cards"):
        meld("6♠ JKR")


def test_a_meld_without_jokers_is_classified_as_before():
    assert meld("Q♣ K♣ A♣") == classify(parse_cards("Q♣ K♣ A♣"), GERMAN)
    assert isinstance(meld("Q♣ K♣ A♣"), NaturalMeld)


def test_a_rule_system_without_jokers_refuses_a_meld_with_one():
    with pytest.raises(InvalidMeldError) as refused:
        meld("5♠ 6♠ JKR=7♠", Treppenromme())
    assert str(refused.value) == "Treppenrommé is played without jokers."


def test_melds_score_nothing_in_german_rummy():
    assert meld("J♣ Q♣ JKR A♣").value == 0
    assert meld("A♠ A♥ A♦").value == 0


# --- G3: values for the opening, and the opening ----------------------------------------------


@pytest.mark.parametrize(
    ("cards", "values"),
    [
        ("Q♣ K♣ A♣", (10, 10, 11)),
        ("A♣ 2♣ 3♣", (1, 2, 3)),
        ("A♠ A♥ A♦", (11, 11, 11)),
        ("9♦ 10♦ J♦ Q♦", (9, 10, 10, 10)),
    ],
)
def test_the_ace_counts_eleven_after_the_king_or_in_a_set_and_one_before_the_two(cards, values):
    assert meld(cards).opening_values == values


def test_an_opening_of_thirty_one_alone_is_refused_naming_its_value_and_the_minimum():
    with pytest.raises(OpeningError) as refused:
        refuse_opening([meld("Q♣ K♣ A♣")], GERMAN.opening_minimum())
    assert str(refused.value) == "Q♣ K♣ A♣ is worth 31; an opening needs at least 40."
    assert refused.value.message("de") == (
        "D♣ K♣ A♣ zählt 31; das erste Auslegen braucht mindestens 40."
    )


def test_two_melds_together_open_with_forty():
    melds = [meld("Q♣ K♣ A♣"), meld("3♦ 3♥ 3♠")]
    assert opening_value(melds) == 40
    refuse_opening(melds, GERMAN.opening_minimum())


def test_two_melds_under_the_minimum_are_named_together():
    with pytest.raises(OpeningError) as refused:
        refuse_opening([meld("Q♣ K♣ A♣"), meld("2♦ 2♥ 2♠")], 40)
    assert str(refused.value) == (
        "Q♣ K♣ A♣ and 2♠ 2♥ 2♦ are worth 37 together; an opening needs at least 40."
    )
    assert refused.value.message("de") == (
        "D♣ K♣ A♣ und 2♠ 2♥ 2♦ zählen zusammen 37; das erste Auslegen braucht mindestens 40."
    )


def test_an_opening_with_a_joker_counts_the_card_it_stands_for():
    refuse_opening([meld("J♣ Q♣ JKR A♣")], 40)


@pytest.mark.parametrize(("minimum", "opens"), [(0, True), (31, True), (32, False)])
def test_the_opening_minimum_is_a_house_rule(minimum, opens):
    variant = GermanRummy({"opening": minimum})
    assert variant.opening_minimum() == minimum
    if opens:
        refuse_opening([meld("Q♣ K♣ A♣", variant)], variant.opening_minimum())
    else:
        with pytest.raises(OpeningError):
            refuse_opening([meld("Q♣ K♣ A♣", variant)], variant.opening_minimum())


def test_laid_off_cards_never_count_towards_the_opening():
    # Seed 002: on the table is ♥2-♥3-♥4; ♥A and ♥5 are laid off onto it.
    table = Table(GERMAN)
    table.meld(1, parse_pieces("2♥ 3♥ 4♥"))
    layoff = table.lay_off(2, 1, parse_pieces("A♥ 5♥"))
    assert str(layoff.meld) == "A♥ 2♥ 3♥ 4♥ 5♥"
    assert layoff.values == (0, 0)
    assert layoff.value == 0
    with pytest.raises(OpeningError) as refused:
        GERMAN.refuse_before_opening("layoff", [], "Bob")
    assert str(refused.value) == "Bob has not opened yet: there is no layoff before the opening."
    assert refused.value.message("de") == (
        "Bob hat noch nicht ausgelegt: vor dem ersten Auslegen wird nicht angelegt."
    )


def test_a_joker_swap_before_the_opening_is_refused():
    with pytest.raises(OpeningError, match="no joker swap before the opening"):
        GERMAN.refuse_before_opening("swap", [], "Bob")


@pytest.mark.parametrize(
    ("kind", "earlier"),
    [("meld", []), ("meld", ["meld"]), ("layoff", ["meld"]), ("swap", ["meld", "layoff"])],
)
def test_after_the_opening_a_player_may_meld_lay_off_and_swap(kind, earlier):
    GERMAN.refuse_before_opening(kind, earlier, "Bob")


def test_treppenromme_lets_a_player_lay_off_before_melding():
    Treppenromme().refuse_before_opening("layoff", [], "Bob")
    assert Treppenromme().opening_minimum() == 0


# --- layoffs with jokers ---------------------------------------------------------------------


def test_a_joker_laid_off_where_only_one_place_is_free_is_not_in_doubt():
    layoff = lay_off_pieces(parse_pieces("A♠ 2♠ 3♠"), parse_pieces("JKR"), GERMAN)
    assert str(layoff.meld) == "A♠ 2♠ 3♠ JKR=4♠"
    assert layoff.cards == (Joker(stands_for=Card.from_code("4♠")),)


def test_a_joker_laid_off_at_either_end_is_in_doubt_until_said():
    with pytest.raises(JokerInDoubtError) as doubt:
        lay_off_pieces(parse_pieces("5♠ 6♠ 7♠"), parse_pieces("JKR"), GERMAN)
    assert [card.code for card in doubt.value.choices] == ["4♠", "8♠"]
    layoff = lay_off_pieces(parse_pieces("5♠ 6♠ 7♠"), parse_pieces("JKR=8♠"), GERMAN)
    assert str(layoff.meld) == "5♠ 6♠ 7♠ JKR=8♠"


def test_a_joker_on_the_table_keeps_standing_for_its_card_when_cards_are_laid_off():
    layoff = lay_off_pieces(parse_pieces("JKR=4♠ 5♠ 6♠"), parse_pieces("7♠"), GERMAN)
    assert str(layoff.meld) == "JKR=4♠ 5♠ 6♠ 7♠"
    assert layoff.cards == (Card.from_code("7♠"),)


def test_a_card_laid_off_onto_a_set_with_a_joker_leaves_the_joker_one_suit():
    layoff = lay_off_pieces(parse_pieces("6♠ 6♥ JKR"), parse_pieces("6♦"), GERMAN)
    assert str(layoff.meld) == "6♠ 6♥ 6♦ JKR=6♣"
    assert layoff.cards == (Card.from_code("6♦"),)


def test_a_joker_laid_off_onto_a_set_stands_for_its_missing_suit():
    layoff = lay_off_pieces(parse_pieces("6♠ 6♥ 6♦"), parse_pieces("JKR"), GERMAN)
    assert layoff.cards == (Joker(stands_for=Card.from_code("6♣")),)


def test_the_card_a_joker_stands_for_is_swapped_in_not_laid_off():
    with pytest.raises(InvalidLayoffError, match="is a joker swap, not a layoff"):
        lay_off_pieces(parse_pieces("5♠ 6♠ JKR=7♠"), parse_pieces("7♠"), GERMAN)


def test_a_third_joker_on_a_set_is_refused():
    with pytest.raises(InvalidLayoffError, match="room for only 1 more card"):
        lay_off_pieces(parse_pieces("6♠ 6♥ JKR"), parse_pieces("JKR JKR"), GERMAN)


def test_a_layoff_that_leaves_a_gap_says_what_is_missing():
    with pytest.raises(InvalidLayoffError, match="7♠ 8♠ are missing"):
        lay_off_pieces(parse_pieces("5♠ 6♠ JKR=7♠"), parse_pieces("9♠"), GERMAN)


def test_a_layoff_of_natural_cards_onto_natural_cards_is_laid_off_as_before():
    layoff = lay_off_pieces(parse_pieces("2♥ 3♥ 4♥"), parse_pieces("A♥ 5♥"), GERMAN)
    assert shown(layoff.cards) == "A♥ 5♥"


# --- G4: the joker swap ----------------------------------------------------------------------


def test_a_joker_in_a_set_is_swapped_for_a_missing_suit_into_a_new_meld():
    swap = swap_joker(
        parse_pieces("6♠ 6♥ JKR"), parse_pieces("6♣"), parse_pieces("8♥ JKR 10♥"), GERMAN
    )
    assert str(swap.meld) == "6♠ 6♥ 6♣"
    assert shown(swap.cards) == "6♣"
    assert str(swap.new_meld) == "8♥ JKR=9♥ 10♥"
    assert swap.value == 0


def test_a_joker_in_a_sequence_is_swapped_for_the_card_it_stands_for():
    swap = swap_joker(
        parse_pieces("J♣ Q♣ JKR A♣"), parse_pieces("K♣"), parse_pieces("7♦ 7♥ JKR"), GERMAN
    )
    assert str(swap.meld) == "J♣ Q♣ K♣ A♣"
    assert str(swap.new_meld) == "7♥ 7♦ JKR"


@pytest.mark.parametrize(
    ("meld_cards", "put_in", "message"),
    [
        ("6♠ 6♥ JKR", "6♠", "6♠ cannot take a joker's place in 6♠ 6♥ JKR: "),
        ("6♠ 6♥ JKR", "7♣", "the joker there stands for 6♦ or 6♣"),
        ("5♠ JKR 7♠", "8♠", "the joker there stands for 6♠"),
    ],
)
def test_only_the_card_a_joker_stands_for_takes_its_place(meld_cards, put_in, message):
    with pytest.raises(SwapError, match=message):
        swap_joker(
            parse_pieces(meld_cards), parse_pieces(put_in), parse_pieces("8♥ JKR 10♥"), GERMAN
        )


def test_a_meld_without_a_joker_has_no_joker_to_swap():
    with pytest.raises(SwapError, match="holds no joker to swap"):
        swap_joker(parse_pieces("6♠ 6♥ 6♦"), parse_pieces("6♣"), parse_pieces("8♥ JKR 10♥"), GERMAN)


def test_the_joker_taken_must_go_at_once_into_the_new_meld():
    with pytest.raises(SwapError) as refused:
        swap_joker(parse_pieces("5♠ JKR 7♠"), parse_pieces("6♠"), parse_pieces("8♥ 9♥ 10♥"), GERMAN)
    assert str(refused.value) == (
        "Each joker taken must go at once into the new meld: write it there as JKR."
    )


def test_the_new_meld_of_a_swap_must_be_a_meld():
    with pytest.raises(JokerInDoubtError):
        swap_joker(parse_pieces("5♠ JKR 7♠"), parse_pieces("6♠"), parse_pieces("8♥ 9♥ JKR"), GERMAN)


def test_by_default_a_joker_leaves_a_set_for_one_card():
    with pytest.raises(SwapError, match="is swapped for one card: 6♦ or 6♣"):
        swap_joker(
            parse_pieces("6♠ 6♥ JKR"), parse_pieces("6♦ 6♣"), parse_pieces("8♥ JKR 10♥"), GERMAN
        )


def test_by_the_house_rule_four_a_joker_leaves_a_set_only_when_it_becomes_four_natural_cards():
    with pytest.raises(SwapError) as refused:
        swap_joker(parse_pieces("6♠ 6♥ JKR"), parse_pieces("6♣"), parse_pieces("8♥ JKR 10♥"), FOUR)
    assert str(refused.value) == (
        "By this table's house rule a joker leaves a set only when the set becomes four natural "
        "cards: put in 6♦ 6♣."
    )
    swap = swap_joker(
        parse_pieces("6♠ 6♥ JKR"), parse_pieces("6♦ 6♣"), parse_pieces("8♥ JKR 10♥"), FOUR
    )
    assert str(swap.meld) == "6♠ 6♥ 6♦ 6♣"


@pytest.mark.parametrize("variant", [GERMAN, FOUR])
def test_a_set_of_three_and_a_joker_gives_the_joker_up_for_its_one_missing_card(variant):
    swap = swap_joker(
        parse_pieces("6♠ 6♥ 6♦ JKR"), parse_pieces("6♣"), parse_pieces("8♥ JKR 10♥"), variant
    )
    assert str(swap.meld) == "6♠ 6♥ 6♦ 6♣"


@pytest.mark.parametrize("variant", [GERMAN, FOUR])
def test_the_house_rule_four_does_not_touch_a_sequence(variant):
    swap = swap_joker(
        parse_pieces("5♠ JKR 7♠"), parse_pieces("6♠"), parse_pieces("8♥ JKR 10♥"), variant
    )
    assert str(swap.meld) == "5♠ 6♠ 7♠"


def test_a_swap_on_the_table_moves_the_joker_into_the_new_meld():
    table = Table(GERMAN)
    table.meld(1, parse_pieces("6♠ 6♥ JKR"))
    table.swap(2, 1, parse_pieces("6♣"), parse_pieces("8♥ JKR 10♥"))
    assert str(table.melds[1]) == "6♠ 6♥ 6♣"
    assert str(table.melds[2]) == "8♥ JKR=9♥ 10♥"
    assert table.jokers == 1
    assert table.copies[Card.from_code("6♣")] == 1


def test_a_swap_is_replayed_from_its_entry():
    entries = [
        TableEntry(1, tuple(parse_pieces("5♠ JKR 7♠"))),
        TableEntry(2, tuple(parse_pieces("6♠")), onto=1, new_meld=tuple(parse_pieces("Q♦ Q♥ JKR"))),
        TableEntry(3, tuple(parse_pieces("8♠")), onto=1),
    ]
    table = replay(entries, GERMAN)
    assert str(table.melds[1]) == "5♠ 6♠ 7♠ 8♠"
    assert str(table.melds[2]) == "Q♥ Q♦ JKR"
    assert table.jokers == 1


def test_a_swap_into_a_meld_not_on_the_table_is_refused():
    with pytest.raises(InvalidLayoffError, match="not on the table"):
        Table(GERMAN).swap(2, 1, parse_pieces("6♣"), parse_pieces("8♥ JKR 10♥"))


def test_a_joker_cannot_take_a_joker_s_place():
    with pytest.raises(SwapError, match="Only a natural card"):
        swap_joker(
            parse_pieces("5♠ JKR 7♠"), parse_pieces("JKR"), parse_pieces("8♥ JKR 10♥"), GERMAN
        )


# --- G8: two packs and six jokers on the table -----------------------------------------------


def test_every_card_lies_on_the_table_twice_at_most():
    table = Table(GERMAN)
    table.meld(1, parse_pieces("7♥ 7♠ 7♦"))
    table.meld(2, parse_pieces("6♥ 7♥ 8♥"))
    assert table.copies[Card.from_code("7♥")] == 2
    assert Card.from_code("7♥") in table.cards
    with pytest.raises(CardAlreadyPlayedError) as refused:
        table.meld(3, parse_pieces("7♥ 7♣ 7♦"))
    assert str(refused.value) == "7♥ is not in the packs any more: all 2 copies lie on the table."
    assert refused.value.message("de") == (
        "7♥ ist in den Blättern nicht mehr übrig: alle 2 liegen auf dem Tisch."
    )


def test_a_third_copy_is_refused_as_a_layoff_too():
    table = Table(GERMAN)
    table.meld(1, parse_pieces("7♥ 7♠ 7♦"))
    table.meld(2, parse_pieces("7♥ 7♠ 7♣"))
    table.meld(3, parse_pieces("8♥ 9♥ 10♥"))
    with pytest.raises(CardAlreadyPlayedError, match="not in the packs any more"):
        table.lay_off(4, 3, parse_pieces("7♥"))


def test_the_seventh_joker_is_refused():
    table = Table(GERMAN)
    for key, rank in enumerate(["2", "3", "4", "5", "6", "7"]):
        table.meld(key, parse_pieces(f"{rank}♠ {rank}♥ JKR"))
    assert table.jokers == 6
    with pytest.raises(CardAlreadyPlayedError) as refused:
        table.meld(9, parse_pieces("8♠ 8♥ JKR"))
    assert str(refused.value) == "All 6 jokers already lie on the table."
    assert refused.value.message("de") == "Alle 6 Joker liegen schon auf dem Tisch."


def test_treppenromme_still_refuses_a_card_already_on_the_table():
    table = Table()
    table.meld(1, parse_cards("7♥ 7♠ 7♦"))
    with pytest.raises(CardAlreadyPlayedError) as refused:
        table.meld(2, parse_cards("6♥ 7♥ 8♥"))
    assert str(refused.value) == "7♥ is already on the table."


def test_the_table_lists_every_copy_and_joker_lying():
    table = Table(GERMAN)
    table.meld(1, parse_pieces("7♥ 7♠ JKR"))
    table.meld(2, parse_pieces("6♥ 7♥ 8♥"))
    assert shown(table.lying()) == "7♠ 6♥ 7♥ 7♥ 8♥ JKR"


# --- G5, G6: settlement ----------------------------------------------------------------------


def test_the_winner_books_nothing_and_every_loser_minus_their_hand():
    hands = {"Bob": parse_pieces("A♠ K♥ 7♦"), "Cid": parse_pieces("2♣")}
    settled = GERMAN.settle(PLAYERS, "Ann", hands)
    assert settled.gains == {"Ann": 0, "Bob": -28, "Cid": -2}
    assert settled.hand_points == {"Bob": 28, "Cid": 2}


@pytest.mark.parametrize(("joker", "points"), [(None, 30), (30, 30), (25, 25), (20, 20)])
def test_a_joker_left_in_a_hand_costs_what_the_house_rule_says(joker, points):
    variant = GERMAN if joker is None else GermanRummy({"joker_in_hand": joker})
    settled = variant.settle(["Ann", "Bob"], "Ann", {"Bob": parse_pieces("JKR 5♦")})
    assert settled.gains == {"Ann": 0, "Bob": -(points + 5)}


def test_a_hand_given_as_points_is_booked_as_minus_points():
    assert GERMAN.settle(["Ann", "Bob"], "Ann", {"Bob": 37}).gains == {"Ann": 0, "Bob": -37}


def test_a_hand_rommé_changes_nothing_by_default():
    settled = GERMAN.settle(PLAYERS, "Ann", {"Bob": 10, "Cid": 4}, romme=True)
    assert settled.romme
    assert settled.gains == {"Ann": 0, "Bob": -10, "Cid": -4}


def test_a_hand_rommé_doubles_every_loser_by_the_house_rule():
    variant = GermanRummy({"hand_romme_doubles": True})
    assert variant.settle(PLAYERS, "Ann", {"Bob": 10, "Cid": 4}, romme=True).gains == {
        "Ann": 0,
        "Bob": -20,
        "Cid": -8,
    }
    assert variant.settle(PLAYERS, "Ann", {"Bob": 10, "Cid": 4}).gains == {
        "Ann": 0,
        "Bob": -10,
        "Cid": -4,
    }


def test_the_entries_decide_a_hand_rommé():
    variant = GermanRummy({"hand_romme_doubles": True})
    names = {1: "Ann", 2: "Bob"}
    hands = {2: parse_pieces("9♣")}
    assert variant.finish(names, 1, hands, entry_players=[2, 1, 1]).gains == {1: 0, 2: -18}
    assert variant.finish(names, 1, hands, entry_players=[1, 2, 1]).gains == {1: 0, 2: -9}


NAMES = {1: "Ann", 2: "Bob", 3: "Cid"}
HANDS = {2: parse_pieces("9♣"), 3: parse_pieces("4♦")}


def dealer_goes_out(entry_cards, dealer=1, entry_players=(1, 1)):
    """Return the settlement of a game Ann (1) wins, Bob's and Cid's hands left."""
    return GERMAN.finish(
        NAMES,
        1,
        HANDS,
        entry_players=list(entry_players),
        entry_cards=entry_cards,
        dealer=dealer,
    )


def test_the_dealer_who_goes_out_at_once_with_twelve_cards_may_have_a_hand_rommé():
    settled = dealer_goes_out([7, 5])
    assert settled.romme_possible
    assert settled.romme
    assert GERMAN.first_player(list(NAMES), 1) == 1


def test_the_dealer_who_goes_out_at_once_with_eleven_cards_has_no_hand_rommé():
    settled = dealer_goes_out([6, 5])
    assert not settled.romme_possible
    assert settled.romme_why is not None
    assert settled.romme_why.render("en") == (
        "Ann played first and put down 11 cards; a Rommé hand in the game's first turn, without "
        "a card drawn, puts down at least 12 of the 13 cards dealt, so this is no Rommé hand."
    )
    with pytest.raises(SettlementError, match="at least 12 of the 13 cards dealt"):
        GERMAN.finish(NAMES, 1, HANDS, entry_players=[1], entry_cards=[11], dealer=1, romme=True)


@pytest.mark.parametrize(
    ("dealer", "entry_players"),
    [
        pytest.param(3, (1, 1), id="another player dealt and played first"),
        pytest.param(1, (2, 1), id="another player has an entry before"),
    ],
)
def test_twelve_cards_are_too_few_for_a_hand_rommé_after_a_drawn_card(dealer, entry_players):
    settled = dealer_goes_out([7, 5], dealer=dealer, entry_players=entry_players)
    assert not settled.romme_possible
    assert not settled.romme


def test_romme_possible_knows_the_dealers_hand_rommé_when_told_who_played_first():
    first = GERMAN.first_player(list(NAMES), 1)
    assert GERMAN.romme_possible([1, 1], 1, [7, 5], 3, first_player=first) is True
    assert GERMAN.romme_possible([1, 1], 1, [7, 5], 3, first_player=2) is False
    assert GERMAN.romme_possible([1, 1], 1, [7, 5], 3) is False
    assert GERMAN.romme_possible([2, 1], 1, [3, 12], 3, first_player=1) is False


def test_twelve_cards_make_no_rommé_hand_in_a_rule_system_whose_first_player_draws():
    names = {1: "Ann", 2: "Bob", 3: "Cid"}
    hands = {2: parse_cards("9♣"), 3: parse_cards("4♦")}
    settled = Treppenromme().finish(names, 1, hands, entry_players=[1], entry_cards=[6], dealer=1)
    assert not settled.romme_possible
    assert Treppenromme().romme_least_cards(3, first_turn=True) == 7
    assert GERMAN.romme_least_cards(3, first_turn=True) == 12
    assert GERMAN.romme_least_cards(3, first_turn=False) == 13


def test_a_card_held_while_one_copy_lies_on_the_table_is_settled():
    names = {1: "Ann", 2: "Bob"}
    settled = GERMAN.finish(
        names,
        1,
        {2: parse_pieces("7♥ JKR")},
        entry_players=[2, 1],
        on_table=parse_pieces("6♥ 7♥ 8♥ JKR"),
    )
    assert settled.gains == {1: 0, 2: -37}


def test_a_card_whose_copies_both_lie_on_the_table_is_in_no_hand():
    names = {1: "Ann", 2: "Bob"}
    with pytest.raises(CardAlreadyPlayedError, match="7♥ is on the table, so is not in Bob's hand"):
        GERMAN.finish(
            names,
            1,
            {2: parse_pieces("7♥")},
            entry_players=[2, 1],
            on_table=parse_pieces("6♥ 7♥ 8♥ 7♥ 7♠ 7♦"),
        )


def test_a_third_copy_across_the_table_and_the_hands_is_refused():
    names = {1: "Ann", 2: "Bob", 3: "Cid"}
    with pytest.raises(CardAlreadyPlayedError, match="more often than the packs hold"):
        GERMAN.finish(
            names,
            1,
            {2: parse_pieces("7♥"), 3: parse_pieces("7♥")},
            entry_players=[2, 3, 1],
            on_table=parse_pieces("6♥ 7♥ 8♥"),
        )


def test_a_seventh_joker_in_the_hands_is_refused():
    hands = {"Bob": parse_pieces("JKR JKR JKR JKR"), "Cid": parse_pieces("JKR JKR JKR")}
    with pytest.raises(CardAlreadyPlayedError) as refused:
        GERMAN.settle(PLAYERS, "Ann", hands)
    assert str(refused.value) == "7 jokers are entered, but the packs hold only 6."


def test_a_hand_without_cards_is_still_refused():
    with pytest.raises(SettlementError, match="Only the player who went out"):
        GERMAN.settle(["Ann", "Bob"], "Ann", {"Bob": []})


def test_a_hand_given_as_points_counts_at_most_every_card_and_joker():
    assert GERMAN.hand_points_range() == (2, 2 * 4 * 95 + 6 * 30)
    assert GermanRummy({"joker_in_hand": 20}).hand_points_range() == (2, 2 * 4 * 95 + 6 * 20)


# --- G7: the session -------------------------------------------------------------------------


def test_the_session_ends_when_a_total_falls_to_the_limit_and_the_highest_wins():
    standing = GERMAN.standing({"Ann": -120, "Bob": -500, "Cid": -300}, 6)
    assert standing.over
    assert standing.winner == "Ann"
    assert standing.limit == -500
    assert standing.target is None
    assert standing.to_go("Cid") == 200


def test_the_session_goes_on_while_every_total_is_above_the_limit():
    standing = GERMAN.standing({"Ann": -120, "Bob": -499}, 6)
    assert not standing.over
    assert standing.winner is None


def test_a_tie_at_the_top_plays_on():
    standing = GERMAN.standing({"Ann": -100, "Bob": -100, "Cid": -600}, 6)
    assert standing.tie_at_top
    assert standing.winner is None


def test_the_limit_is_checked_only_between_games():
    assert GERMAN.standing({"Ann": -10, "Bob": -700}, 3, game_in_progress=True).winner is None


def test_another_limit_or_a_number_of_games_is_a_house_rule():
    assert (
        GermanRummy({"end": {"limit": -1000}}).standing({"Ann": -10, "Bob": -700}, 3).winner is None
    )
    by_games = GermanRummy({"end": {"games": 4}})
    assert by_games.standing({"Ann": -10, "Bob": -70}, 4).winner == "Ann"
    assert by_games.standing({"Ann": -10, "Bob": -70}, 3).winner is None


# --- house rules -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [
        {"end": {"limit": 0}},
        {"end": {"limit": 500}},
        {"end": {"target": 500}},
        {"end": {"games": 0}},
        {"opening": -1},
        {"opening": True},
        {"opening": 40.5},
        {"joker_in_hand": 22},
        {"joker_in_hand": 25.0},
        {"joker_in_hand": "25"},
        {"hand_romme_doubles": 1},
        {"hand_romme_doubles": "yes"},
        {"joker_swap_from_set": "three"},
        {"romme_doubling": "loser"},
    ],
)
def test_house_rules_it_does_not_have_or_values_it_does_not_allow_are_refused(rules):
    with pytest.raises(HouseRuleError):
        GermanRummy(rules)


def test_a_refused_house_rule_names_what_it_allows():
    with pytest.raises(HouseRuleError) as refused:
        GermanRummy({"joker_in_hand": 22})
    assert str(refused.value) == "The house rule “joker_in_hand” allows 20 | 25 | 30."
    with pytest.raises(HouseRuleError) as refused:
        GermanRummy({"hand_romme_doubles": 1})
    assert str(refused.value) == "The house rule “hand_romme_doubles” allows false | true."


def test_the_house_rules_that_are_allowed_are_kept():
    variant = GermanRummy(
        {
            "opening": 0,
            "joker_in_hand": 20,
            "hand_romme_doubles": True,
            "joker_swap_from_set": "four",
            "end": {"limit": -1},
        }
    )
    assert variant.house_rules["opening"] == 0
    assert variant.swap_needs_full_set()
    assert variant.joker_hand_value() == 20


def test_the_rule_system_describes_its_house_rules():
    described = GERMAN.describe()
    assert described["name"] == "german_rummy"
    assert described["players"] == [2, 3, 4, 5, 6]
    assert described["rules"] == [
        {
            "name": "end",
            "default": {"limit": -500},
            "allowed": [
                {"limit": {"min": -(2**31 - 1), "max": -1}},
                {"games": {"min": 1, "max": 1000}},
            ],
        },
        {"name": "opening", "default": 40, "allowed": [{"min": 0, "max": 2**31 - 1}]},
        {"name": "joker_in_hand", "default": 30, "allowed": [20, 25, 30]},
        {"name": "hand_romme_doubles", "default": False, "allowed": [False, True]},
        {"name": "joker_swap_from_set", "default": "any", "allowed": ["any", "four"]},
    ]


def test_two_instances_with_the_same_house_rules_are_the_same_rule_system():
    assert GermanRummy() == GERMAN
    assert hash(GermanRummy()) == hash(GERMAN)
    assert FOUR != GERMAN


# --- properties ------------------------------------------------------------------------------

suits = st.sampled_from(list(Suit))
ranks = st.sampled_from(list(Rank))


@st.composite
def melds_with_jokers(draw: st.DrawFn) -> list:
    """Draw a set or a run of natural cards with some of its cards replaced by jokers."""
    if draw(st.booleans()):
        rank = draw(ranks)
        chosen = draw(st.lists(suits, min_size=3, max_size=4, unique=True))
        cards = [Card(suit=suit, rank=rank) for suit in chosen]
    else:
        suit = draw(suits)
        length = draw(st.integers(3, 13))
        start = draw(st.integers(1, 14 - length + 1))
        cards = [Card(suit=suit, rank=Rank((start + step - 1) % 13 + 1)) for step in range(length)]
    jokers = draw(st.sets(st.integers(0, len(cards) - 1), min_size=1, max_size=len(cards) // 2))
    # A joker is written JKR, or JKR=<the card it replaced>, which settles any doubt.
    said = draw(st.lists(st.booleans(), min_size=len(cards), max_size=len(cards)))
    pieces = [
        (Joker(stands_for=card) if said[at] else Joker()) if at in jokers else card
        for at, card in enumerate(cards)
    ]
    return draw(st.permutations(pieces))


@RELAXED
@given(melds_with_jokers())
def test_what_a_joker_stands_for_is_always_a_card_not_otherwise_in_the_meld(pieces):
    try:
        lying = classify_pieces(pieces, GERMAN)
    except RulesError:
        return
    naturals = [piece for piece in lying.cards if isinstance(piece, Card)]
    assert len(naturals) >= len(lying.jokers)
    for place in lying.jokers:
        assert isinstance(lying.cards[place.index], Joker)
        assert place.stands_for
        for card in place.stands_for:
            assert card not in naturals
    standing = [place.stands_for[0] for place in lying.jokers]
    assert len(set(standing)) == len(standing)
    assert sorted({*naturals, *standing}) == sorted(lying.as_cards)
    # A joker the recorder said stands for a card stands for it.
    possible = {card for place in lying.jokers for card in place.stands_for}
    for piece in pieces:
        if isinstance(piece, Joker) and piece.stands_for is not None:
            assert piece.stands_for in possible


@RELAXED
@given(melds_with_jokers())
def test_a_meld_with_jokers_reads_back_from_how_it_lies(pieces):
    try:
        lying = classify_pieces(pieces, GERMAN)
    except RulesError:
        return
    assert classify_pieces(lying.cards, GERMAN) == lying


@RELAXED
@given(
    st.lists(
        st.tuples(ranks, st.lists(suits, min_size=3, max_size=3, unique=True), st.booleans()),
        max_size=12,
    )
)
def test_no_card_beyond_its_two_copies_and_no_seventh_joker_is_accepted_by_a_table(plays):
    table = Table(GERMAN)
    for key, (rank, chosen, with_joker) in enumerate(plays):
        cards = [Card(suit=suit, rank=rank) for suit in chosen]
        pieces = [*cards[:2], Joker()] if with_joker else cards
        natural = [piece for piece in pieces if isinstance(piece, Card)]
        fits = all(table.copies[card] < 2 for card in natural) and (
            not with_joker or table.jokers < 6
        )
        before = (Counter(table.copies), table.jokers)
        if fits:
            table.meld(key, pieces)
        else:
            with pytest.raises(CardAlreadyPlayedError):
                table.meld(key, pieces)
            assert (table.copies, table.jokers) == before
        assert all(count <= 2 for count in table.copies.values())
        assert table.jokers <= 6


# --- G3 over a whole game: what a delete or a correction leaves ------------------------------


def opening_turn(key, player, *melds, kind="meld"):
    return rules.Turn(
        key, player, kind, tuple(classify_pieces(parse_pieces(m), GERMAN) for m in melds)
    )


def test_every_player_s_first_turn_must_open_and_later_turns_need_not():
    turns = [
        opening_turn(1, "Ann", "Q♣ K♣ A♣", "3♦ 3♥ 3♠"),
        opening_turn(2, "Bob", "10♠ J♠ Q♠ K♠"),
        opening_turn(3, "Ann", "2♥ 3♥ 4♥"),
        rules.Turn(4, "Bob", "layoff"),
        rules.Turn(5, "Ann", "swap", ()),
    ]
    assert rules.first_broken_turn(turns, GERMAN) is None


def test_without_the_opening_the_player_s_next_turn_is_named():
    turns = [
        opening_turn(2, "Bob", "10♠ J♠ Q♠ K♠"),
        rules.Turn(4, "Ann", "layoff"),
        opening_turn(5, "Ann", "Q♣ K♣ A♣", "3♦ 3♥ 3♠"),
    ]
    assert rules.first_broken_turn(turns, GERMAN).key == 4


def test_a_first_meld_under_the_minimum_is_named():
    turns = [opening_turn(7, "Ann", "Q♣ K♣ A♣"), opening_turn(8, "Ann", "3♦ 3♥ 3♠")]
    assert rules.first_broken_turn(turns, GERMAN).key == 7
    assert rules.first_broken_turn(turns, GermanRummy({"opening": 31})) is None


def test_treppenromme_has_no_opening_to_break():
    turns = [rules.Turn(1, "Ann", "layoff"), opening_turn(2, "Bob", "2♥ 3♥ 4♥")]
    assert rules.first_broken_turn(turns, Treppenromme()) is None


def test_a_correction_checks_copies_beside_the_other_entries():
    lying = parse_pieces("7♥ 8♥ 9♥ 7♥ JKR")
    rules.refuse_copies_beside(lying[:3], parse_pieces("7♥ 8♥ 9♥"), GERMAN)
    with pytest.raises(CardAlreadyPlayedError, match="7♥"):
        rules.refuse_copies_beside(lying, parse_pieces("6♥ 7♥ 8♥"), GERMAN)


def test_each_rule_system_reads_jokers_only_if_it_has_them():
    assert GERMAN.read_cards("joker 7h") == [Joker(), Card.from_code("7♥")]
    with pytest.raises(CardNotationError, match="without jokers"):
        Treppenromme().read_cards("JKR 7♥")


# --- G9: both aces of a suit in one sequence ---------------------------------------------------

SPADES_2_TO_K = "2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠"
BOTH_ACES = f"A♠ {SPADES_2_TO_K} A♠"


def test_a_sequence_of_both_aces_is_worth_96_towards_the_opening_and_turns_no_corner():
    run = meld(BOTH_ACES)
    assert run.kind is MeldKind.SEQUENCE
    assert shown(run.cards) == BOTH_ACES
    assert run.opening_value == 96
    assert run.opening_values[0] == 1
    assert run.opening_values[-1] == 11
    assert rules.AcePosition.CORNER not in run.ace_positions
    assert shown(meld(f"A♠ A♠ {SPADES_2_TO_K}").cards) == BOTH_ACES


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        pytest.param("A♠ A♠ 2♠", "A♠ is entered twice", id="both aces in a short sequence"),
        pytest.param(f"{BOTH_ACES} 2♠", "2♠ is entered twice", id="fifteen cards"),
        pytest.param(
            f"A♠ {SPADES_2_TO_K} 2♠", "2♠ is entered twice", id="another card twice in fourteen"
        ),
    ],
)
def test_every_other_card_stays_once_in_a_sequence(cards, message):
    with pytest.raises(CardTwiceError, match=message):
        meld(cards)


def test_treppenromme_plays_one_pack_and_refuses_both_aces():
    with pytest.raises(CardTwiceError, match="every card exists once"):
        classify(parse_cards(BOTH_ACES))


@pytest.mark.parametrize(
    ("steps"),
    [
        pytest.param(["A♠", "A♠"], id="one ace after the other"),
        pytest.param(["A♠ A♠"], id="both aces at once"),
    ],
)
def test_an_ace_laid_off_at_each_end_of_two_to_king_makes_both_aces(steps):
    table = Table(GERMAN)
    table.meld(1, parse_cards(SPADES_2_TO_K))
    for key, cards in enumerate(steps, start=2):
        layoff = table.lay_off(key, 1, parse_pieces(cards))
        assert layoff.cards == tuple(parse_cards(cards))
    assert shown(table.melds[1].cards) == BOTH_ACES
    assert table.copies[Card.from_code("A♠")] == 2


def test_the_second_ace_laid_off_goes_to_the_free_end():
    whole = f"{SPADES_2_TO_K} A♠"
    for meld_cards in (whole, f"A♠ {SPADES_2_TO_K}"):
        layoff = lay_off_pieces(parse_cards(meld_cards), parse_cards("A♠"), GERMAN)
        assert shown(layoff.meld.cards) == BOTH_ACES
        assert layoff.cards == (Card.from_code("A♠"),)


def test_nothing_is_laid_off_onto_a_sequence_of_both_aces():
    with pytest.raises(InvalidLayoffError, match="A♠ already lies"):
        lay_off_pieces(parse_cards(BOTH_ACES), parse_cards("A♠"), GERMAN)
    with pytest.raises(InvalidLayoffError, match="with an ace at each end"):
        lay_off_pieces(parse_cards(BOTH_ACES), parse_pieces("JKR"), GERMAN)


def test_a_joker_for_the_second_ace_is_never_in_doubt_and_is_swapped_for_it():
    run = meld(f"A♠ {SPADES_2_TO_K} JKR")
    assert shown(run.cards) == f"A♠ {SPADES_2_TO_K} JKR=A♠"
    assert run.opening_value == 96
    layoff = lay_off_pieces(parse_cards(f"{SPADES_2_TO_K} A♠"), parse_pieces("JKR"), GERMAN)
    assert shown(layoff.meld.cards) == f"A♠ {SPADES_2_TO_K} JKR=A♠"
    assert layoff.cards == (Joker(stands_for=Card.from_code("A♠")),)
    swap = swap_joker(run.cards, parse_cards("A♠"), parse_pieces("5♥ JKR 7♥"), GERMAN)
    assert shown(swap.meld.cards) == BOTH_ACES


def test_an_ace_laid_off_where_a_joker_stands_for_the_other_ace_is_a_layoff_not_a_swap():
    layoff = lay_off_pieces(parse_pieces(f"{SPADES_2_TO_K} JKR"), parse_cards("A♠"), GERMAN)
    assert shown(layoff.meld.cards) == f"A♠ {SPADES_2_TO_K} JKR=A♠"
    assert layoff.cards == (Card.from_code("A♠"),)


def test_two_jokers_for_both_aces_are_swapped_one_or_both():
    run = meld(f"JKR {SPADES_2_TO_K} JKR")
    assert shown(run.cards) == f"JKR=A♠ {SPADES_2_TO_K} JKR=A♠"
    one = swap_joker(run.cards, parse_cards("A♠"), parse_pieces("5♥ JKR 7♥"), GERMAN)
    assert shown(one.meld.cards) == f"A♠ {SPADES_2_TO_K} JKR=A♠"
    both = swap_joker(run.cards, parse_cards("A♠ A♠"), parse_pieces("5♥ JKR 7♥ JKR=8♥"), GERMAN)
    assert shown(both.meld.cards) == BOTH_ACES
    table = Table(GERMAN)
    table.meld(1, run.cards)
    table.swap(2, 1, parse_cards("A♠ A♠"), parse_pieces("5♥ JKR 7♥ JKR=8♥"))
    assert (table.jokers, table.copies[Card.from_code("A♠")]) == (2, 2)
