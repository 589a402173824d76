"""Cards and the card notation: rank then suit, e.g. ``Q♣``, ``10h``, ``DD`` (Dame of diamonds).

Where a rule system plays with jokers (German Rummy, G8), ``JKR`` (or ``Joker``, any case) is a
joker and ``JKR=7♠`` a joker the recorder says stands for 7♠; a card or a joker is a *piece*.
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeAlias

from scorekeeper.rules.errors import CardNotationError


@functools.total_ordering
class Suit(enum.Enum):
    """The four French suits, in the order the card picker shows them (which sorts them)."""

    SPADES = "♠"
    HEARTS = "♥"
    DIAMONDS = "♦"
    CLUBS = "♣"

    @property
    def symbol(self) -> str:
        """Return the suit symbol, e.g. ``♠``."""
        return self.value

    def label(self, language: str = "en") -> str:
        """Return the suit as shown in any language: its symbol."""
        return self.symbol

    @property
    def is_red(self) -> bool:
        """Tell whether the suit is printed in red."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    def __lt__(self, other: object) -> bool:
        """Order suits as they are declared, so that cards (suit, then rank) can be sorted."""
        if not isinstance(other, Suit):
            return NotImplemented
        order = list(Suit)
        return order.index(self) < order.index(other)


class Rank(enum.IntEnum):
    """Ranks numbered from ace (1) to king (13); the ace's place in a sequence is decided there."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        """Return the English rank letter: ``A``, ``2`` ... ``10``, ``J``, ``Q``, ``K``."""
        return _ENGLISH_LETTERS.get(self, str(int(self)))

    def letter_in(self, language: str) -> str:
        """Return the rank letter in a language: German uses B (Bube) and D (Dame)."""
        if language.startswith("de"):
            return _GERMAN_LETTERS.get(self, str(int(self)))
        return self.letter

    def label(self, language: str = "en") -> str:
        """Return the rank letter in a language, e.g. ``D`` for the queen in German."""
        return self.letter_in(language)


_ENGLISH_LETTERS = {Rank.ACE: "A", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K"}
_GERMAN_LETTERS = {Rank.ACE: "A", Rank.JACK: "B", Rank.QUEEN: "D", Rank.KING: "K"}

_RANK_WORDS: dict[str, Rank] = {
    "A": Rank.ACE,
    "T": Rank.TEN,
    "J": Rank.JACK,
    "B": Rank.JACK,
    "Q": Rank.QUEEN,
    "D": Rank.QUEEN,
    "K": Rank.KING,
    **{str(n): Rank(n) for n in range(2, 11)},
}
_SUIT_CHARACTERS: dict[str, Suit] = {
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
    "S": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "H": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "D": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
    "C": Suit.CLUBS,
}
# Emoji suits may carry a variation selector (U+FE0F); it is not part of the card.
_IGNORED = re.compile("[\ufe0e\ufe0f]")
_SEPARATORS = re.compile(r"[\s,;\-–]+")
_SYMBOLS = "♠♤♥♡♦♢♣♧"
# The end of a glued card: its suit symbol and a variation selector, if one follows. Found
# with finditer, so a long tail without a symbol is read once (``[^♠]*♠`` would rescan it from
# every position: quadratic time on a 64 KiB token).
_SUIT_END = re.compile(f"[{_SYMBOLS}][\ufe0e\ufe0f]?")
# A token longer than this cannot be a card; do not echo megabytes back in the error.
_LONGEST_TOKEN = 12
# A joker: ``JKR`` or ``Joker`` in any case, then ``=`` and the card it stands for, if said.
_JOKER = re.compile(r"(?:jkr|joker)(?:=(?P<card>.*))?", re.IGNORECASE | re.DOTALL)
_JOKER_CODE = "JKR"


@dataclass(frozen=True, order=True)
class Card:
    """One playing card.

    >>> Card.from_code("dd")
    Card.from_code('Q♦')
    >>> str(Card.from_code("10h"))
    '10♥'
    """

    suit: Suit
    rank: Rank

    @classmethod
    def from_code(cls, code: str) -> Card:
        """Read one card written rank then suit: ``Q♣``, ``qc``, ``Th``, ``BS`` (Bube of spades)."""
        known = _KNOWN.get(code)
        if known is not None:
            return known
        token = _IGNORED.sub("", code.strip())
        shown = token if len(token) <= _LONGEST_TOKEN else token[:_LONGEST_TOKEN] + "…"
        if len(token) < 2:
            raise CardNotationError("notation.too_short", token=shown)
        suit = _SUIT_CHARACTERS.get(token[-1].upper())
        if suit is None:
            raise CardNotationError("notation.no_suit", token=shown)
        rank = _RANK_WORDS.get(token[:-1].upper())
        shown_rank = token[:-1] if len(token) <= _LONGEST_TOKEN else shown[:-1]
        if rank is None:
            raise CardNotationError("notation.no_rank", token=shown, rank=shown_rank)
        return cls(suit=suit, rank=rank)

    @property
    def code(self) -> str:
        """Return the canonical text form, e.g. ``Q♣``."""
        return f"{self.rank.letter}{self.suit.symbol}"

    def label(self, language: str = "en") -> str:
        """Return the card in a language's own letters, e.g. ``D♣`` in German."""
        return f"{self.rank.letter_in(language)}{self.suit.symbol}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.from_code({self.code!r})"


@dataclass(frozen=True)
class Joker:
    """A joker (G8), and the card the recorder says it stands for, if they said.

    >>> Joker.from_code("joker=7s")
    Joker.from_code('JKR=7♠')
    >>> Joker.from_code("JKR=dd").label("de"), str(Joker())
    ('JKR=D♦', 'JKR')
    """

    stands_for: Card | None = None

    @classmethod
    def from_code(cls, code: str) -> Joker:
        """Read a joker: ``JKR`` or ``Joker`` (any case), or ``JKR=7♠`` for the card it is."""
        token = _IGNORED.sub("", code.strip())
        shown = _shown(token)
        match = _JOKER.fullmatch(token)
        if match is None:
            raise CardNotationError("notation.not_a_joker", token=shown)
        said = match.group("card")
        if said is None:
            return cls()
        try:
            return cls(stands_for=Card.from_code(said))
        except CardNotationError:
            raise CardNotationError("notation.joker_card", token=shown) from None

    @property
    def code(self) -> str:
        """Return the canonical text form: ``JKR``, or ``JKR=7♠`` for a joker said to be 7♠."""
        if self.stands_for is None:
            return _JOKER_CODE
        return f"{_JOKER_CODE}={self.stands_for.code}"

    def label(self, language: str = "en") -> str:
        """Return the joker as written in a language: ``JKR``, or ``JKR=D♠`` in German."""
        if self.stands_for is None:
            return _JOKER_CODE
        return f"{_JOKER_CODE}={self.stands_for.label(language)}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Joker.from_code({self.code!r})"


# What a meld, a layoff or a hand is made of where jokers are played.
Piece: TypeAlias = Card | Joker


def is_joker_code(code: str) -> bool:
    """Tell whether a token is written as a joker (``JKR``, ``Joker``, ``JKR=7♠``).

    >>> is_joker_code("joker"), is_joker_code("JKR=7♠"), is_joker_code("J♠")
    (True, True, False)
    """
    return _JOKER.fullmatch(_IGNORED.sub("", code.strip())) is not None


def parse_cards(text: str) -> list[Card]:
    """Read cards separated by spaces, commas or hyphens, in any order.

    Suit symbols end a card, so cards written with symbols may also stand together. A joker is
    refused here: these are the cards of a rule system without jokers (see ``parse_pieces``).

    >>> parse_cards("Q♣, K♣ - ac")
    [Card.from_code('Q♣'), Card.from_code('K♣'), Card.from_code('A♣')]
    >>> parse_cards("10♥J♥Q♥")
    [Card.from_code('10♥'), Card.from_code('J♥'), Card.from_code('Q♥')]
    """
    cards = []
    for token in _tokens(text):
        if is_joker_code(token):
            raise CardNotationError("notation.no_jokers", token=_shown(token))
        cards.append(Card.from_code(token))
    return cards


def parse_pieces(text: str) -> list[Piece]:
    """Read cards and jokers separated by spaces, commas or hyphens, in any order (G8).

    >>> parse_pieces("J♣, Q♣ JKR A♣")
    [Card.from_code('J♣'), Card.from_code('Q♣'), Joker.from_code('JKR'), Card.from_code('A♣')]
    >>> parse_pieces("5♠ 6♠ joker=7s")
    [Card.from_code('5♠'), Card.from_code('6♠'), Joker.from_code('JKR=7♠')]
    """
    return [
        Joker.from_code(token) if is_joker_code(token) else Card.from_code(token)
        for token in _tokens(text)
    ]


def _tokens(text: str) -> list[str]:
    """Split the notation into one token per card or joker."""
    return [piece for token in _SEPARATORS.split(text) if token for piece in _unglue(token)]


def _shown(token: str) -> str:
    """Return a token as an error message may echo it: cut short if it is long."""
    return token if len(token) <= _LONGEST_TOKEN else token[:_LONGEST_TOKEN] + "…"


def _unglue(token: str) -> list[str]:
    """Split a token like ``Q♣K♣`` after each suit symbol; letters stay as they are."""
    if sum(character in _SYMBOLS for character in token) < 2:
        return [token]
    pieces = []
    start = 0
    for end in _SUIT_END.finditer(token):
        pieces.append(token[start : end.end()])
        start = end.end()
    rest = token[start:]
    return [*pieces, rest] if rest else pieces


def cards_text(cards: Iterable[Piece]) -> str:
    """Write cards (and jokers) in the canonical form, separated by spaces."""
    return " ".join(card.code for card in cards)


def full_pack() -> list[Card]:
    """Return the 52 cards of one French pack, suit by suit, ace to king."""
    return [Card(suit=suit, rank=rank) for suit in Suit for rank in Rank]


# The canonical codes (``Q♣``), as the database stores them: read back without parsing.
_KNOWN = {card.code: card for card in full_pack()}
