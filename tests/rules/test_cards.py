"""Cards and the card notation: rank then suit, symbols or letters, German B and D."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    Card,
    CardNotationError,
    Rank,
    RulesError,
    Suit,
    cards_text,
    full_pack,
    parse_cards,
    parse_pieces,
)


@pytest.mark.parametrize(
    ("code", "canonical"),
    [
        ("Q♣", "Q♣"),
        ("qc", "Q♣"),
        ("QC", "Q♣"),
        ("qC", "Q♣"),
        ("Qc", "Q♣"),
        ("D♣", "Q♣"),
        ("dc", "Q♣"),
        ("DD", "Q♦"),
        ("dd", "Q♦"),
        ("Q♦", "Q♦"),
        ("10h", "10♥"),
        ("10H", "10♥"),
        ("10♥", "10♥"),
        ("Th", "10♥"),
        ("tH", "10♥"),
        ("B♠", "J♠"),
        ("bs", "J♠"),
        ("J♠", "J♠"),
        ("js", "J♠"),
        ("K♥", "K♥"),
        ("kh", "K♥"),
        ("A♠", "A♠"),
        ("as", "A♠"),
        ("2♦", "2♦"),
        ("2d", "2♦"),
        ("9c", "9♣"),
        ("A♤", "A♠"),
        ("K♡", "K♥"),
        ("3♢", "3♦"),
        ("4♧", "4♣"),
        ("K♥\ufe0f", "K♥"),
        ("  7s  ", "7♠"),
    ],
)
def test_a_card_is_read_in_any_accepted_notation(code, canonical):
    assert Card.from_code(code).code == canonical


def test_german_dame_of_diamonds_is_the_queen_of_diamonds():
    assert Card.from_code("DD") == Card(suit=Suit.DIAMONDS, rank=Rank.QUEEN)


def test_equal_cards_count_as_one_however_they_were_made():
    made = [Card(suit=card.suit, rank=card.rank) for card in full_pack()]
    read = [Card.from_code(card.code) for card in full_pack()]
    assert all(hash(a) == hash(b) for a, b in zip(made, read, strict=True))
    assert len({*made, *read}) == 52
    assert Card.from_code("7♥") in {Card(suit=Suit.HEARTS, rank=Rank.SEVEN)}


def test_the_last_character_is_the_suit_and_the_rest_the_rank():
    assert Card.from_code("10h") == Card(suit=Suit.HEARTS, rank=Rank.TEN)


def test_a_card_is_shown_in_its_canonical_form():
    card = Card(suit=Suit.CLUBS, rank=Rank.QUEEN)
    assert str(card) == "Q♣"
    assert card.code == "Q♣"
    assert str(Card(suit=Suit.HEARTS, rank=Rank.TEN)) == "10♥"


@pytest.mark.parametrize(
    "text",
    [
        "Q♣ K♣ A♣",
        "Q♣,K♣,A♣",
        "Q♣-K♣-A♣",
        "Q♣, K♣ - A♣",
        "  Q♣   K♣\tA♣  ",
        "qc kc ac",
        "D♣ K♣ A♣",
        "dc, kc, ac",
        "Q♣;K♣;A♣",
    ],
)
def test_cards_are_separated_by_spaces_commas_or_hyphens(text):
    assert cards_text(parse_cards(text)) == "Q♣ K♣ A♣"


def test_cards_are_returned_in_the_order_they_were_written():
    assert parse_cards("3♥ A♥ 2♥") == [
        Card.from_code("3♥"),
        Card.from_code("A♥"),
        Card.from_code("2♥"),
    ]


@pytest.mark.parametrize("text", ["", "   ", ", - ,"])
def test_empty_notation_reads_as_no_cards(text):
    assert parse_cards(text) == []


def test_repr_of_a_card_can_be_pasted_back():
    card = Card.from_code("qc")
    assert repr(card) == "Card.from_code('Q♣')"
    assert eval(repr(card)) == card


@pytest.mark.parametrize("card", full_pack(), ids=str)
def test_every_card_round_trips_through_its_repr(card):
    assert eval(repr(card), {"Card": Card}) == card


@pytest.mark.parametrize("card", full_pack(), ids=str)
def test_every_card_round_trips_through_its_canonical_code(card):
    assert Card.from_code(card.code) == card


@pytest.mark.parametrize(
    ("code", "english", "german"),
    [
        ("J♥", "J♥", "B♥"),
        ("Q♣", "Q♣", "D♣"),
        ("K♠", "K♠", "K♠"),
        ("A♦", "A♦", "A♦"),
        ("10♥", "10♥", "10♥"),
        ("7♣", "7♣", "7♣"),
    ],
)
def test_a_card_is_labelled_with_german_letters_in_german(code, english, german):
    card = Card.from_code(code)
    assert card.label() == english
    assert card.label("en") == english
    assert card.label("de") == german
    assert card.label("de-AT") == german


@pytest.mark.parametrize("card", full_pack(), ids=str)
def test_the_german_label_reads_back_as_the_same_card(card):
    assert Card.from_code(card.label("de")) == card


@pytest.mark.parametrize(
    ("code", "named"),
    [
        ("1h", "“1h”"),
        ("11s", "“11s”"),
        ("Xs", "“Xs”"),
        ("QX", "“QX”"),
        ("Q", "“Q”"),
        ("10", "“10”"),
        ("♠Q", "“♠Q”"),
        ("ZZ", "“ZZ”"),
    ],
)
def test_a_token_not_understood_is_named_in_the_error(code, named):
    with pytest.raises(CardNotationError) as caught:
        Card.from_code(code)
    assert named in str(caught.value)


def test_parsing_several_cards_names_the_one_token_not_understood():
    with pytest.raises(CardNotationError, match="“Zx”"):
        parse_cards("Q♣, K♣, Zx, A♣")


def test_a_single_character_is_explained_as_rank_then_suit():
    with pytest.raises(CardNotationError, match="write the rank, then the suit"):
        Card.from_code("Q")


def test_a_missing_suit_is_explained():
    with pytest.raises(CardNotationError, match="the last character must be the suit"):
        Card.from_code("QX")


def test_an_unknown_rank_is_explained():
    with pytest.raises(CardNotationError, match="“1” is not a rank"):
        Card.from_code("1h")


def test_a_huge_token_is_not_echoed_back_whole():
    with pytest.raises(CardNotationError) as caught:
        Card.from_code("x" * 10_000 + "s")
    assert len(str(caught.value)) < 200


def test_a_notation_error_is_a_rules_error_and_a_value_error():
    assert issubclass(CardNotationError, RulesError)
    assert issubclass(CardNotationError, ValueError)


def test_a_pack_has_fifty_two_different_cards():
    pack = full_pack()
    assert len(pack) == 52
    assert len(set(pack)) == 52


def test_a_pack_is_ordered_suit_by_suit_from_ace_to_king():
    pack = full_pack()
    assert cards_text(pack[:13]) == "A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠"
    assert [card.suit for card in pack[::13]] == [
        Suit.SPADES,
        Suit.HEARTS,
        Suit.DIAMONDS,
        Suit.CLUBS,
    ]


def test_cards_of_different_suits_can_be_sorted():
    assert cards_text(sorted(parse_cards("2♣ K♥ A♠ 3♥"))) == "A♠ 3♥ K♥ 2♣"


def test_hearts_and_diamonds_are_red():
    assert [suit for suit in Suit if suit.is_red] == [Suit.HEARTS, Suit.DIAMONDS]


def test_cards_are_values_that_compare_equal_and_hash_alike():
    assert Card.from_code("qc") == Card.from_code("D♣")
    assert len({Card.from_code("qc"), Card.from_code("D♣"), Card.from_code("Q♣")}) == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Q♣K♣A♣", ["Q♣", "K♣", "A♣"]),
        ("10♥J♥ Q♥", ["10♥", "J♥", "Q♥"]),
        ("6♠️6♥️6♦️", ["6♠", "6♥", "6♦"]),
    ],
)
def test_cards_written_with_symbols_may_stand_together(text: str, expected: list[str]) -> None:
    assert [card.code for card in parse_cards(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7s7h7d", ["7♠", "7♥", "7♦"]),
        ("qckcac", ["Q♣", "K♣", "A♣"]),
        ("10h10s10d", ["10♥", "10♠", "10♦"]),
        ("BhDhKh", ["J♥", "Q♥", "K♥"]),
        ("ThJhQh", ["10♥", "J♥", "Q♥"]),
        ("dddh", ["Q♦", "Q♥"]),
        ("asas", ["A♠", "A♠"]),
        ("Q♣kcac", ["Q♣", "K♣", "A♣"]),
        ("qcK♣A♣", ["Q♣", "K♣", "A♣"]),
        ("5s6s, 7s8s", ["5♠", "6♠", "7♠", "8♠"]),
    ],
)
def test_cards_written_with_letters_may_stand_together(text: str, expected: list[str]) -> None:
    assert [card.code for card in parse_cards(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("10h", "10♥"), ("Th", "10♥"), ("qc", "Q♣"), ("BS", "J♠"), ("dd", "Q♦"), ("As", "A♠")],
)
def test_a_single_letter_card_is_not_split(text: str, expected: str) -> None:
    assert [card.code for card in parse_cards(text)] == [expected]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("JKR", "JKR"), ("joker", "JKR"), ("JKR=7s", "JKR=7♠"), ("jkr=dd", "JKR=Q♦")],
)
def test_a_joker_is_not_split(text: str, expected: str) -> None:
    assert cards_text(parse_pieces(text)) == expected


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("qckx", "“qckx”"),
        ("qckcx", "“qckcx”"),
        ("ddd", "“ddd”"),
        ("7s7", "“7s7”"),
        ("1h1s", "“1h1s”"),
        ("JKR7s", "“JKR7s”"),
    ],
)
def test_glued_letters_that_do_not_read_as_cards_are_refused_whole(text: str, named: str) -> None:
    with pytest.raises(CardNotationError) as caught:
        parse_pieces(text)
    assert named in str(caught.value)


def test_glued_letters_that_do_not_read_as_cards_keep_the_message_of_one_token() -> None:
    with pytest.raises(CardNotationError) as glued:
        parse_cards("ddd")
    with pytest.raises(CardNotationError) as alone:
        Card.from_code("ddd")
    assert str(glued.value) == str(alone.value)


def written_in_letters(card: Card) -> st.SearchStrategy[str]:
    """Write one card in letters: English or German rank letter (or T), suit letter, any case."""
    ranks = [card.rank.letter, card.rank.letter_in("de"), *(["T"] if card.rank == Rank.TEN else [])]
    suit = {Suit.SPADES: "S", Suit.HEARTS: "H", Suit.DIAMONDS: "D", Suit.CLUBS: "C"}[card.suit]
    return st.sampled_from(ranks).flatmap(
        lambda rank: st.sampled_from([rank + suit, (rank + suit).lower(), rank + suit.lower()])
    )


@settings(deadline=None)
@given(st.sampled_from(full_pack()), st.integers(1, 8))
def test_every_card_glued_to_itself_reads_back_as_that_many_cards(card: Card, times: int) -> None:
    assert parse_cards(card.code * times) == [card] * times
    assert parse_cards(card.label("de") * times) == [card] * times


@settings(deadline=None)
@given(st.data(), st.lists(st.sampled_from(full_pack()), min_size=1, max_size=12))
def test_cards_glued_in_letters_read_back_as_those_cards(
    data: st.DataObject, cards: list[Card]
) -> None:
    text = "".join(data.draw(written_in_letters(card)) for card in cards)
    assert parse_cards(text) == cards
