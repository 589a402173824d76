"""Cards typed in words as people say them, through the live check the pages use.

Every suit word with every rank word, German and English, laid off onto the set of the other
three suits: the check names the card it read (``"Herz As"`` is A♥, never A♠).
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.helpers import API, ok, refused

SUITS = {
    "♠": ("Pik", "spades"),
    "♥": ("Herz", "hearts"),
    "♦": ("Karo", "diamonds"),
    "♣": (
        "Kreuz",
        "clubs",
    ),
}
NUMBERS = range(2, 11)
GERMAN_NUMBERS = ["Zwei", "Drei", "Vier", "Fünf", "Sechs", "Sieben", "Acht", "Neun", "Zehn"]
ENGLISH_NUMBERS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
GERMAN_RANKS = {
    "A": ["As", "Ass", "A"],
    **{str(n): [str(n), word] for n, word in zip(NUMBERS, GERMAN_NUMBERS, strict=True)},
    "J": ["Bube", "B"],
    "Q": ["Dame", "D"],
    "K": ["König", "Koenig", "K"],
}
ENGLISH_RANKS = {
    "A": ["ace", "A"],
    **{str(n): [str(n), word] for n, word in zip(NUMBERS, ENGLISH_NUMBERS, strict=True)},
    "J": ["jack", "J"],
    "Q": ["queen", "Q"],
    "K": ["king", "K"],
}


def named(client: FlaskClient, rank: str, suit: str, typed: str) -> list[str]:
    """Return the cards the check reads from ``typed``, laid off onto the rank's other suits."""
    others = " ".join(rank + other for other in SUITS if other != suit)
    checked = ok(client.post(f"{API}/check", json={"cards": typed, "onto": others}))
    assert checked["valid"], (typed, checked)
    added: list[str] = checked["added"]
    return added


@pytest.mark.parametrize("rank", list(GERMAN_RANKS))
def test_every_german_suit_word_with_every_german_rank_word_names_its_card(
    client: FlaskClient, rank: str
) -> None:
    for suit, (german, _english) in SUITS.items():
        for word in GERMAN_RANKS[rank]:
            card = rank + suit
            for typed in (f"{german} {word}", f"{german}-{word}", f"{german.upper()} {word}"):
                assert named(client, rank, suit, typed) == [card], typed


@pytest.mark.parametrize("rank", list(ENGLISH_RANKS))
def test_every_english_suit_word_with_every_english_rank_word_names_its_card(
    client: FlaskClient, rank: str
) -> None:
    for suit, (_german, english) in SUITS.items():
        for word in ENGLISH_RANKS[rank]:
            card = rank + suit
            assert named(client, rank, suit, f"{english} {word}") == [card]
            if len(word) > 1:
                assert named(client, rank, suit, f"{word} of {english}") == [card]


def test_hearts_queen_king_ace_typed_in_german_are_read_as_hearts(client: FlaskClient) -> None:
    checked = ok(client.post(f"{API}/check", json={"cards": "Herz Dame, Herz König, Herz As"}))
    assert checked["cards"] == ["Q♥", "K♥", "A♥"]


@pytest.mark.parametrize(
    ("typed", "advice"),
    [
        ("Herz", "Herz-Dame, D♥ or dh"),
        ("Neun", "Herz-9, 9♥ or 9h"),
        ("nine", "9 of hearts, 9♥ or 9h"),
        ("Herz Elf", "“Elf” is no rank; write e.g. Herz-Dame, D♥ or dh"),
    ],
)
def test_a_word_alone_is_answered_with_how_to_write_the_card(
    client: FlaskClient, typed: str, advice: str
) -> None:
    error = refused(client.post(f"{API}/check", json={"cards": f"7♥ 8♥ {typed}"}), 422)
    assert advice in error
