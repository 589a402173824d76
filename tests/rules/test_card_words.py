"""Cards written in words, as Germans write them (Herz-Dame, Kreuz 7) and in English."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    Card,
    CardNotationError,
    Rank,
    Suit,
    cards_text,
    full_pack,
    parse_cards,
    parse_pieces,
)

GERMAN_SUITS = {Suit.CLUBS: "Kreuz", Suit.SPADES: "Pik", Suit.HEARTS: "Herz", Suit.DIAMONDS: "Karo"}
GERMAN_RANKS = {
    Rank.ACE: ["As", "Ass"],
    Rank.JACK: ["Bube"],
    Rank.QUEEN: ["Dame"],
    Rank.KING: ["König", "Koenig", "Konig"],
    **{
        Rank(n): [str(n), word]
        for n, word in enumerate(
            ["Zwei", "Drei", "Vier", "Fünf", "Sechs", "Sieben", "Acht", "Neun", "Zehn"], start=2
        )
    },
}


def test_german_words_read_as_the_cards_they_name():
    assert cards_text(parse_cards("Herz-Dame, Kreuz 7")) == "Q♥ 7♣"
    assert cards_text(parse_pieces("Herz-Dame, Kreuz 7")) == "Q♥ 7♣"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Herz-Dame", "Q♥"),
        ("Herz Dame", "Q♥"),
        ("Herz – Dame", "Q♥"),
        ("Herzdame", "Q♥"),
        ("HERZ-DAME", "Q♥"),
        ("herz dame", "Q♥"),
        ("Kreuz 7", "7♣"),
        ("Kreuz-10", "10♣"),
        ("Pik Bube", "J♠"),
        ("Karo As", "A♦"),
        ("Karo Ass", "A♦"),
        ("Karo-Ass", "A♦"),
        ("Pik König", "K♠"),
        ("PIK KÖNIG", "K♠"),
        ("Pik Koenig", "K♠"),
        ("Pik Konig", "K♠"),
        ("Dame Herz", "Q♥"),
        ("7 Kreuz", "7♣"),
        ("As-Karo", "A♦"),
        ("queen of hearts", "Q♥"),
        ("7 of clubs", "7♣"),
        ("Ace of Spades", "A♠"),
        ("jack of diamond", "J♦"),
    ],
)
def test_a_card_is_read_in_words(text, expected):
    assert cards_text(parse_cards(text)) == expected
    assert Card.from_code(text).code == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Herz 7 Herz 8 Herz 9", "7♥ 8♥ 9♥"),
        ("7 Herz 8 Herz 9 Herz", "7♥ 8♥ 9♥"),
        ("Dame Herz Bube Pik", "Q♥ J♠"),
        ("Dame Herz, Bube Pik", "Q♥ J♠"),
        ("Herz-Dame K♥ ah", "Q♥ K♥ A♥"),
        ("Herz-Dame,K♥", "Q♥ K♥"),
        ("Herz Dame\nKreuz Bube", "Q♥ J♣"),
    ],
)
def test_cards_in_words_mix_with_each_other_and_with_codes(text, expected):
    assert cards_text(parse_cards(text)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Herz Neun", "9♥"),
        ("Herz Zehn", "10♥"),
        ("Kreuz Sieben", "7♣"),
        ("Karo-Zwei", "2♦"),
        ("Pik Fünf", "5♠"),
        ("pik fuenf", "5♠"),
        ("PIK FUNF", "5♠"),
        ("Acht Karo", "8♦"),
        ("Herz B", "J♥"),
        ("Herz D", "Q♥"),
        ("Herz K", "K♥"),
        ("Herz A", "A♥"),
        ("Herz-D", "Q♥"),
        ("Herz As", "A♥"),
        ("Herz Bube", "J♥"),
        ("hearts 9", "9♥"),
        ("hearts nine", "9♥"),
        ("Spades Q", "Q♠"),
        ("club ten", "10♣"),
        ("nine of hearts", "9♥"),
        ("Ten of Diamonds", "10♦"),
        ("ace of spades", "A♠"),
        ("queen of hearts", "Q♥"),
    ],
)
def test_numbers_and_letters_are_read_as_people_say_them(text, expected):
    assert cards_text(parse_cards(text)) == expected
    assert Card.from_code(text).code == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Herz Dame, Herz König, Herz As", "Q♥ K♥ A♥"),
        ("Herz Neun Herz Zehn Herz B", "9♥ 10♥ J♥"),
        ("hearts 9 hearts 10, jack of hearts", "9♥ 10♥ J♥"),
        ("Dame Herz-B", None),
    ],
)
def test_number_and_letter_words_mix_with_the_others(text, expected):
    if expected is None:
        with pytest.raises(CardNotationError, match="“Dame” needs a suit"):
            parse_cards(text)
        return
    assert cards_text(parse_cards(text)) == expected


@pytest.mark.parametrize(
    ("text", "advice"),
    [
        ("Neun", "“Neun” needs a suit: write e.g. Herz-9, 9♥ or 9h."),
        ("nine", "“nine” needs a suit: write e.g. 9 of hearts, 9♥ or 9h."),
        ("Herzd", "“Herzd” is not a card"),
    ],
)
def test_a_number_word_alone_or_a_glued_letter_is_refused(text, advice):
    with pytest.raises(CardNotationError) as caught:
        parse_cards(f"7♥, {text}")
    assert str(caught.value).startswith(advice)


@pytest.mark.parametrize(
    ("text", "advice"),
    [
        ("Herz Elf", "“Herz Elf” is not a card: “Elf” is no rank; write e.g. Herz-Dame, D♥ or dh."),
        ("Pik Bub", "“Pik Bub” is not a card: “Bub” is no rank; write e.g. Pik-Dame, D♠ or ds."),
        ("Kreuz 11", "“Kreuz 11” is not a card: “11” is no rank; write e.g. Kreuz-Dame, D♣ or dc."),
        (
            "clubs one",
            "“clubs one” is not a card: “one” is no rank; write e.g. queen of clubs, Q♣ or qc.",
        ),
    ],
)
def test_a_suit_word_with_a_word_that_is_no_rank_says_how_to_write_the_card(text, advice):
    with pytest.raises(CardNotationError) as caught:
        parse_cards(f"7♥, {text}")
    assert str(caught.value) == advice


def test_a_suit_word_with_a_word_that_is_no_rank_is_refused_in_german():
    with pytest.raises(CardNotationError) as caught:
        parse_cards("Herz Elf")
    assert caught.value.message("de") == (
        "„Herz Elf“ ist keine Karte: „Elf“ ist kein Rang; z. B. Herz-Dame, D♥ oder dh schreiben."
    )


def test_a_joker_may_stand_for_a_card_in_words():
    assert cards_text(parse_pieces("Pik Bube, Pik-Dame, JKR=Pik König")) == "J♠ Q♠ JKR=K♠"


@pytest.mark.parametrize(
    ("text", "advice"),
    [
        ("Bube", "“Bube” needs a suit: write e.g. Herz-Bube, B♥ or bh."),
        ("Dame", "“Dame” needs a suit: write e.g. Herz-Dame, D♥ or dh."),
        ("könig", "“könig” needs a suit: write e.g. Herz-König, K♥ or kh."),
        ("Ass", "“Ass” needs a suit: write e.g. Herz-As, A♥ or ah."),
        ("Queen", "“Queen” needs a suit: write e.g. queen of hearts, Q♥ or qh."),
        ("Herz", "“Herz” needs a rank: write e.g. Herz-Dame, D♥ or dh."),
        ("Pik", "“Pik” needs a rank: write e.g. Pik-Dame, D♠ or ds."),
        ("KREUZ", "“KREUZ” needs a rank: write e.g. Kreuz-Dame, D♣ or dc."),
        ("hearts", "“hearts” needs a rank: write e.g. queen of hearts, Q♥ or qh."),
    ],
)
def test_a_rank_or_suit_word_alone_is_refused_saying_how_to_write_the_card(text, advice):
    with pytest.raises(CardNotationError) as caught:
        parse_cards(f"7♥, {text}")
    assert str(caught.value) == advice


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Dame, Herz 7", "“Dame” needs a suit"),
        ("Herz Dames", "“Dames” is no rank"),
        ("Dame Herz Bube", "“Bube” needs a suit"),
    ],
)
def test_a_comma_or_a_longer_word_keeps_words_apart(text, named):
    with pytest.raises(CardNotationError, match=named):
        parse_cards(text)


@pytest.mark.parametrize(("text", "expected"), [("As", "A♠"), ("as kc", "A♠ K♣"), ("DD", "Q♦")])
def test_letter_codes_that_look_like_words_read_as_before(text, expected):
    assert cards_text(parse_cards(text)) == expected


@pytest.mark.parametrize("text", ["7", "10", "1h"])
def test_a_number_alone_is_refused_as_before(text):
    with pytest.raises(CardNotationError, match="is not a card"):
        parse_cards(text)


@st.composite
def in_german_words(draw, card):
    """Write one card in German words: suit first or rank first, any joint, any case."""
    suit = GERMAN_SUITS[card.suit]
    rank = draw(st.sampled_from(GERMAN_RANKS[card.rank]))
    if draw(st.booleans()):
        words = suit + draw(st.sampled_from(["-", " ", "", " - "])) + rank
    else:
        words = rank + draw(st.sampled_from(["-", " ", "  "])) + suit
    return draw(st.sampled_from([words, words.lower(), words.upper()]))


@settings(deadline=None)
@given(st.data(), st.lists(st.sampled_from(full_pack()), max_size=10))
def test_cards_in_german_words_read_back_as_those_cards(data, cards):
    written = [data.draw(in_german_words(card)) for card in cards]
    separators = [data.draw(st.sampled_from([", ", "; ", ","])) for _ in written]
    assert parse_cards("".join(w + s for w, s in zip(written, separators, strict=True))) == cards


@pytest.mark.parametrize(
    ("text", "expected"),
    [("As Herz-Dame", "A♠ Q♥"), ("As Herzdame", "A♠ Q♥"), ("7 Herz 8 Herz", "7♥ 8♥")],
)
def test_a_hyphen_binds_words_closer_than_a_space(text, expected):
    assert cards_text(parse_cards(text)) == expected
