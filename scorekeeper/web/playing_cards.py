"""Cards as a page shows them: labels and names in its language, suit colours, the picker."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from flask import current_app, get_template_attribute
from flask_babel import gettext, lazy_gettext
from markupsafe import Markup, escape

from scorekeeper import rules
from scorekeeper.web.words import language

# A card as a code (``Q♦``) or already in German letters (``D♦``, ``B♦``), not inside a word.
_CARD = re.compile(r"(?<![^\W\d_])(10|[2-9AJQKBD])([♠♥♦♣])")

RANK_NAMES = {
    rules.Rank.ACE: lazy_gettext("Ace"),
    rules.Rank.TWO: lazy_gettext("Two"),
    rules.Rank.THREE: lazy_gettext("Three"),
    rules.Rank.FOUR: lazy_gettext("Four"),
    rules.Rank.FIVE: lazy_gettext("Five"),
    rules.Rank.SIX: lazy_gettext("Six"),
    rules.Rank.SEVEN: lazy_gettext("Seven"),
    rules.Rank.EIGHT: lazy_gettext("Eight"),
    rules.Rank.NINE: lazy_gettext("Nine"),
    rules.Rank.TEN: lazy_gettext("Ten"),
    rules.Rank.JACK: lazy_gettext("Jack"),
    rules.Rank.QUEEN: lazy_gettext("Queen"),
    rules.Rank.KING: lazy_gettext("King"),
}
SUIT_NAMES = {
    rules.Suit.SPADES: lazy_gettext("spades"),
    rules.Suit.HEARTS: lazy_gettext("hearts"),
    rules.Suit.DIAMONDS: lazy_gettext("diamonds"),
    rules.Suit.CLUBS: lazy_gettext("clubs"),
}


def card_label(code: str, lang: str | None = None) -> str:
    """Return a card or joker in the page's language, e.g. ``D♣`` for ``Q♣`` in German."""
    return piece_of(code).label(lang or language())


def piece_of(code: str) -> rules.Piece:
    """Return the card or the joker (``JKR``, ``JKR=7♠``) a stored code names."""
    if code.upper().startswith(("JKR", "JOKER")):
        return rules.Joker.from_code(code)
    return rules.Card.from_code(code)


def cards_label(codes: str | Iterable[object]) -> str:
    """Return cards (codes separated by spaces, or a list) in the page's language."""
    items = codes.split() if isinstance(codes, str) else [str(code) for code in codes]
    lang = language()
    return " ".join(card_label(code, lang) for code in items)


def card_name(card: rules.Card) -> str:
    """Return a card's name for a screen reader, e.g. ``Queen of clubs`` / ``Dame Kreuz``."""
    return str(
        gettext("%(rank)s of %(suit)s", rank=RANK_NAMES[card.rank], suit=SUIT_NAMES[card.suit])
    )


def suits(text: object) -> Markup:
    """Escape text and show each card in the page's language, with its suit's color.

    Every card a page shows goes through here, as a code or already in the page's letters
    (a refusal of the rules is said in German letters): each is marked up alike.
    """
    return Markup(_suited(str(escape(text)), language()))


# Every page of a game shows its melds again: each text is marked up once per language.
@functools.lru_cache(maxsize=4096)
def _suited(escaped: str, lang: str) -> str:
    """Return escaped text with each card code in a language's letters, in its suit's color."""

    def card(match: re.Match[str]) -> str:
        color = "red" if match.group(2) in "♥♦" else "black"
        label = rules.Card.from_code(match.group(0)).label(lang)
        return f'<span class="card {color}">{label}</span>'

    return _CARD.sub(card, escaped)


@dataclass(frozen=True)
class PickerCard:
    """One card of the picker: its code, what it shows, its name, and how many copies are left.

    ``packs`` is how many copies the packs hold: with two packs the button shows what is left.
    """

    code: str
    label: str
    name: str
    red: bool
    taken: bool
    left: int = 1
    packs: int = 1


def picker_rows(taken: Iterable[object] = (), packs: int = 1) -> list[tuple[str, Markup]]:
    """Return the pack for the card picker: per suit its name and its buttons, ace to king.

    ``taken`` names each copy lying on the table (a card twice when both of two packs lie).
    """
    lying = Counter(str(card) for card in taken)
    return [
        (suit_name, Markup("".join(drawn[min(lying[code], packs)] for code, drawn in cards)))
        for suit_name, cards in picker_buttons(language(), packs)
    ]


# Where an app keeps the picker's buttons, drawn once per language and number of packs.
PICKER_BUTTONS = "scorekeeper.picker_buttons"
Buttons = list[tuple[str, list[tuple[str, tuple[str, ...]]]]]


def picker_buttons(lang: str, packs: int) -> Buttons:
    """Return per suit its name, and per card its code and its button for each count lying.

    A card's button differs only by how many of its copies lie on the table (0 to ``packs``):
    each is drawn once, so that a page picks buttons instead of drawing 52 or more (the picker
    was most of the game page's time). Two requests drawing at once draw the same buttons.
    """
    drawn: dict[tuple[str, int], Buttons] = current_app.extensions.setdefault(PICKER_BUTTONS, {})
    if (lang, packs) not in drawn:
        drawn[lang, packs] = _draw_buttons(lang, packs)
    return drawn[lang, packs]


def _draw_buttons(lang: str, packs: int) -> Buttons:
    """Draw every button of the picker with the template's ``pick_button``, for each count lying."""
    button = get_template_attribute("_macros.html", "pick_button")

    def drawn(code: str, label: str, name: str, red: bool) -> tuple[str, ...]:
        return tuple(
            str(button(PickerCard(code, label, name, red, lying >= packs, packs - lying, packs)))
            for lying in range(packs + 1)
        )

    return [
        (suit_name, [(card[0], drawn(*card)) for card in cards])
        for _symbol, suit_name, cards in _pack_words(lang)
    ]


# What the picker says of each card never changes within a language: said once per language,
# not once per card on every request (it was most of the game page's time).
@functools.cache
def _pack_words(lang: str) -> list[tuple[str, str, list[tuple[str, str, str, bool]]]]:
    """Return per suit its symbol, name and cards (code, label, name, red), in a language."""
    return [
        (
            suit.symbol,
            str(SUIT_NAMES[suit]),
            [
                (card.code, card.label(lang), card_name(card), suit.is_red)
                for card in (rules.Card(suit=suit, rank=rank) for rank in rules.Rank)
            ],
        )
        for suit in rules.Suit
    ]


@dataclass(frozen=True)
class CardPicker:
    """The picker of a table: per suit its name and buttons as the table lies, the jokers left."""

    rows: list[tuple[str, Markup]]
    jokers_left: int | None = None


def table_picker(table: rules.Table[int], free: Iterable[str] = ()) -> CardPicker:
    """Return the picker for a game's table; ``free`` are codes lying that may be tapped again.

    A correction taps its entry's own cards again, so they count as not lying.
    """
    variant = table.variant
    lying: Counter[str] = Counter(card.code for card in table.copies.elements())
    lying.subtract(code for code in free if not code.upper().startswith("JKR"))
    jokers = table.jokers - sum(code.upper().startswith("JKR") for code in free)
    rows = picker_rows(lying.elements(), variant.packs)
    if not variant.jokers:
        return CardPicker(rows)
    return CardPicker(rows, max(0, variant.jokers - jokers))


def joker_places(meld: rules.Meld) -> list[str]:
    """Return the cards a meld's jokers stand for, each once: what may be put in their place."""
    codes: list[str] = []
    for place in meld.jokers:
        codes += [card.code for card in place.stands_for if card.code not in codes]
    return codes


def rank_letters() -> str:
    """Return the rank letters of the page's language, ace to king, for the picker script."""
    lang = language()
    return " ".join(rank.letter_in(lang) for rank in rules.Rank)
