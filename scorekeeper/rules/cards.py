"""Cards and the card notation: rank then suit, e.g. ``Q♣``, ``10h``, ``DD`` (Dame of diamonds).

Cards may stand together (``Q♣K♣``, ``7s7h7d``), and may be written in German words, suit
first as Germans say them (``Herz-Dame``, ``Kreuz 7``, ``Herz Neun``, ``Herz B``) or rank first
(``Dame Herz``), or in English words (``queen of hearts``, ``nine of hearts``, ``hearts 9``).

Where a rule system plays with jokers (German Rummy, G8), ``JKR`` (or ``Joker``, any case) is a
joker and ``JKR=7♠`` a joker the recorder says stands for 7♠; a card or a joker is a *piece*.
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeAlias, TypeVar

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
_SUIT_LETTERS = {suit: letter for letter, suit in _SUIT_CHARACTERS.items() if letter.isascii()}
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

# Cards in words. German names the suit first (``Herz-Dame``, also glued: ``Herzdame``), or
# the rank first (``Dame Herz``); English says ``queen of hearts``. Keys are lower case.
_GERMAN_SUIT_NAMES = {
    Suit.CLUBS: "Kreuz",
    Suit.SPADES: "Pik",
    Suit.HEARTS: "Herz",
    Suit.DIAMONDS: "Karo",
}
_GERMAN_RANK_NAMES = {Rank.ACE: "As", Rank.JACK: "Bube", Rank.QUEEN: "Dame", Rank.KING: "König"}
_ENGLISH_SUIT_NAMES = {
    Suit.CLUBS: "clubs",
    Suit.SPADES: "spades",
    Suit.HEARTS: "hearts",
    Suit.DIAMONDS: "diamonds",
}
_ENGLISH_RANK_NAMES = {Rank.ACE: "ace", Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king"}
_NUMBER_WORDS = {str(n): Rank(n) for n in range(2, 11)}
# The numbers as people say them: "Herz Neun", "nine of hearts".
_GERMAN_NUMBERS = ("zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn")
_ENGLISH_NUMBERS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_GERMAN_SUIT_WORDS = {name.lower(): suit for suit, name in _GERMAN_SUIT_NAMES.items()}
# Ass is the spelling since 1996; a keyboard without umlauts gives Koenig or Konig (and Fuenf).
_GERMAN_RANK_WORDS = {
    **{name.lower(): rank for rank, name in _GERMAN_RANK_NAMES.items()},
    "ass": Rank.ACE,
    "koenig": Rank.KING,
    "konig": Rank.KING,
    **{word: Rank(n) for n, word in enumerate(_GERMAN_NUMBERS, start=2)},
    "fuenf": Rank.FIVE,
    "funf": Rank.FIVE,
    **_NUMBER_WORDS,
}
_ENGLISH_SUIT_WORDS = {
    **{name: suit for suit, name in _ENGLISH_SUIT_NAMES.items()},
    **{name[:-1]: suit for suit, name in _ENGLISH_SUIT_NAMES.items()},
}
_ENGLISH_RANK_WORDS = {
    **{name: rank for rank, name in _ENGLISH_RANK_NAMES.items()},
    **{word: Rank(n) for n, word in enumerate(_ENGLISH_NUMBERS, start=2)},
    **_NUMBER_WORDS,
}
# After a suit word and a space or hyphen, a rank may be its letter: "Herz B", "Herz D",
# "hearts Q". A letter alone is no rank word, and never glued to the suit ("Herzd").
_RANK_LETTERS = {"a": Rank.ACE, "b": Rank.JACK, "d": Rank.QUEEN, "k": Rank.KING}
_ENGLISH_RANK_LETTERS = {"a": Rank.ACE, "j": Rank.JACK, "q": Rank.QUEEN, "k": Rank.KING}


def _any_case(word: str) -> str:
    """Return a regex for a word in any case: ``[hH][eE][rR][zZ]``.

    Not ``re.IGNORECASE``, which also takes ``İ`` for ``i`` and the Kelvin sign for ``k``:
    ``str.lower`` turns what this matches back into the word.
    """
    return "".join(f"[{re.escape(letter.lower())}{re.escape(letter.upper())}]" for letter in word)


def _any_of(words: Iterable[str]) -> str:
    """Return a regex for any of the words in any case, longest first (``ass`` before ``as``)."""
    return "|".join(_any_case(word) for word in sorted(words, key=len, reverse=True))


# Word pairs are found in the whole text before it is split into cards, since the space or
# hyphen between the words would split it. A comma or a new line still separates: in
# "Dame, Herz 7" the Dame is not of hearts. A word stands whole: "Herz Dames" is no pair.
# Pairs are taken from the left, so "Dame Herz Bube Pik" is Q♥ J♠ (the same order throughout),
# but a hyphen binds closer than a space: "As Herz-Dame" is A♠ Q♥, the Herz not the As's.
_GERMAN_SUITS = _any_of(_GERMAN_SUIT_WORDS)
_GERMAN_RANKS = _any_of(_GERMAN_RANK_WORDS)
_GERMAN_LETTER = _any_of(_RANK_LETTERS)
_ENGLISH_SUITS = _any_of(_ENGLISH_SUIT_WORDS)
_ENGLISH_RANKS = _any_of(_ENGLISH_RANK_WORDS)
_JOIN = r"[ \t\u00a0\-–]"
_CARD_WORDS = re.compile(
    rf"(?<!\w)(?:"
    rf"(?P<suit>{_GERMAN_SUITS})(?:{_JOIN}*(?P<rank>{_GERMAN_RANKS})"
    rf"|{_JOIN}+(?P<letter>{_GERMAN_LETTER}))"
    rf"|(?P<rank_first>{_GERMAN_RANKS}){_JOIN}+(?P<suit_after>{_GERMAN_SUITS})"
    rf"(?!(?:[ \t\u00a0]*[-–]{_JOIN}*)?(?:{_GERMAN_RANKS})(?!\w)"
    rf"|[ \t\u00a0]*[-–]{_JOIN}*(?:{_GERMAN_LETTER})(?!\w))"
    rf"|(?P<english_rank>{_ENGLISH_RANKS})[ \t\u00a0]+{_any_case('of')}[ \t\u00a0]+"
    rf"(?P<english_suit>{_ENGLISH_SUITS})"
    rf"|(?P<english_suit_first>{_ENGLISH_SUITS}){_JOIN}+"
    rf"(?:(?P<english_rank_after>{_ENGLISH_RANKS})|(?P<english_letter>{_any_of(_ENGLISH_RANK_LETTERS)}))"
    rf")(?!\w)"
)


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

    def __hash__(self) -> int:
        # A game's table is replayed on every entry, hashing its cards again and again, and an
        # enum's hash is Python code: a card keeps its hash once worked out (from numbers, so
        # that it is the same in every process).
        known: int | None = self.__dict__.get("_hash")
        if known is None:
            known = hash((ord(self.suit.value), int(self.rank)))
            object.__setattr__(self, "_hash", known)
        return known

    @classmethod
    def from_code(cls, code: str) -> Card:
        """Read one card written rank then suit: ``Q♣``, ``qc``, ``Th``, ``BS`` (Bube of spades).

        A card in words is read too: ``Herz-Dame``, ``Dame Herz``, ``queen of hearts``.

        >>> Card.from_code("Herz-Dame"), Card.from_code("koenig karo")
        (Card.from_code('Q♥'), Card.from_code('K♦'))
        """
        known = _KNOWN.get(code)
        if known is not None:
            return known
        token = _IGNORED.sub("", code.strip())
        shown = _shown(token)
        if len(token) < 2:
            raise CardNotationError("notation.too_short", token=shown)
        suit = _SUIT_CHARACTERS.get(token[-1].upper())
        rank = _RANK_WORDS.get(token[:-1].upper())
        if suit is not None and rank is not None:
            return cls(suit=suit, rank=rank)
        in_words = _CARD_WORDS.fullmatch(token)
        if in_words is not None:
            return _card_in_words(in_words)
        _refuse_a_lone_word(token)
        if suit is None:
            raise CardNotationError("notation.no_suit", token=shown)
        shown_rank = token[:-1] if len(token) <= _LONGEST_TOKEN else shown[:-1]
        raise CardNotationError("notation.no_rank", token=shown, rank=shown_rank)

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

    Cards may also stand together, written with symbols or letters, and may be written in words
    (``Herz-Dame``). A joker is refused here: these are the cards of a rule system without
    jokers (see ``parse_pieces``).

    >>> parse_cards("Q♣, K♣ - ac")
    [Card.from_code('Q♣'), Card.from_code('K♣'), Card.from_code('A♣')]
    >>> parse_cards("10♥J♥Q♥")
    [Card.from_code('10♥'), Card.from_code('J♥'), Card.from_code('Q♥')]
    >>> parse_cards("7s7h7d")
    [Card.from_code('7♠'), Card.from_code('7♥'), Card.from_code('7♦')]
    >>> parse_cards("Herz-Dame, Kreuz 7")
    [Card.from_code('Q♥'), Card.from_code('7♣')]
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
    >>> parse_pieces("Pik Bube, Pik-Dame JKR")
    [Card.from_code('J♠'), Card.from_code('Q♠'), Joker.from_code('JKR')]
    """
    return [
        Joker.from_code(token) if is_joker_code(token) else Card.from_code(token)
        for token in _tokens(text)
    ]


def _tokens(text: str) -> list[str]:
    """Split the notation into one token per card or joker; cards in words become codes first."""
    coded = _CARD_WORDS.sub(lambda words: _card_in_words(words).code, text)
    _refuse_a_suit_with_another_word(coded)
    return [piece for token in _SEPARATORS.split(coded) if token for piece in _unglue(token)]


# A suit word and a word after it that is no rank: what is left once the cards in words are read.
_SUIT_AND_WORD = re.compile(
    rf"(?<!\w)(?P<suit>{_GERMAN_SUITS}|{_ENGLISH_SUITS}){_JOIN}+(?P<word>\w+)(?=[\s,;]|$)"
)


def _refuse_a_suit_with_another_word(text: str) -> None:
    """Refuse a suit word followed by a word that is no rank, saying how to write the card.

    >>> parse_cards("Herz Elf")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.CardNotationError: “Herz Elf” is not a card: “Elf” is no rank; \
write e.g. Herz-Dame, D♥ or dh.
    """
    for found in _SUIT_AND_WORD.finditer(text):
        word = found["word"]
        if word.lower() in _GERMAN_SUIT_WORDS or word.lower() in _ENGLISH_SUIT_WORDS:
            continue
        if is_joker_code(word) or _reads_as_cards(word):
            continue
        suit_word = found["suit"]
        german = suit_word.lower() in _GERMAN_SUIT_WORDS
        suit = _word(_GERMAN_SUIT_WORDS if german else _ENGLISH_SUIT_WORDS, suit_word)
        example = _ways_to_write(Card(suit=suit, rank=Rank.QUEEN), "de" if german else "en")
        raise CardNotationError(
            "notation.no_rank_word", token=_shown(found[0]), word=_shown(word), **example
        )


def _reads_as_cards(token: str) -> bool:
    """Tell whether a token reads as one card or several standing together."""
    try:
        for piece in _unglue(token):
            Card.from_code(piece)
    except CardNotationError:
        return False
    return True


def _shown(token: str) -> str:
    """Return a token as an error message may echo it: cut short if it is long."""
    return token if len(token) <= _LONGEST_TOKEN else token[:_LONGEST_TOKEN] + "…"


def _unglue(token: str) -> list[str]:
    """Split a token of cards standing together, like ``Q♣K♣`` or ``7s7h7d``, into cards."""
    return [card for piece in _unglue_symbols(token) for card in _unglue_letters(piece)]


def _unglue_symbols(token: str) -> list[str]:
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


def _unglue_letters(token: str) -> list[str]:
    """Split a token like ``7s7h7d`` into cards if it reads as cards throughout, else keep it.

    A card is a rank character (``10``: two) and a suit character, and no card is the start
    of another, so a token reads as cards in one way at most; a token that reads as one card
    (``10h``, ``dd``), a joker or nothing at all stays whole, to be read or refused as before.

    >>> _unglue_letters("10h10s10d"), _unglue_letters("dd"), _unglue_letters("qckx")
    (['10h', '10s', '10d'], ['dd'], ['qckx'])
    """
    written = _IGNORED.sub("", token)
    cards = []
    start = 0
    while start < len(written):
        end = start + (3 if written.startswith("10", start) else 2)
        card = written[start:end]
        if card[:-1].upper() not in _RANK_WORDS or card[-1:].upper() not in _SUIT_CHARACTERS:
            return [token]
        cards.append(card)
        start = end
    return cards if len(cards) > 1 else [token]


def _card_in_words(words: re.Match[str]) -> Card:
    """Return the card named by words that ``_CARD_WORDS`` found, e.g. ``Herz-Dame``."""
    if words["letter"] is not None:
        suit = _word(_GERMAN_SUIT_WORDS, words["suit"])
        rank = _word(_RANK_LETTERS, words["letter"])
    elif words["suit"] is not None:
        suit = _word(_GERMAN_SUIT_WORDS, words["suit"])
        rank = _word(_GERMAN_RANK_WORDS, words["rank"])
    elif words["english_suit_first"] is not None:
        suit = _word(_ENGLISH_SUIT_WORDS, words["english_suit_first"])
        if words["english_letter"] is not None:
            rank = _word(_ENGLISH_RANK_LETTERS, words["english_letter"])
        else:
            rank = _word(_ENGLISH_RANK_WORDS, words["english_rank_after"])
    elif words["rank_first"] is not None:
        suit = _word(_GERMAN_SUIT_WORDS, words["suit_after"])
        rank = _word(_GERMAN_RANK_WORDS, words["rank_first"])
    else:
        suit = _word(_ENGLISH_SUIT_WORDS, words["english_suit"])
        rank = _word(_ENGLISH_RANK_WORDS, words["english_rank"])
    return Card(suit=suit, rank=rank)


_Named = TypeVar("_Named", Suit, Rank)


def _word(words: dict[str, _Named], written: str) -> _Named:
    """Return the suit or rank a word names, written in any case."""
    return words[written.lower()]


def _refuse_a_lone_word(token: str) -> None:
    """Refuse a rank or a suit in words without the other, saying how to write the card."""
    word = token.lower()
    for language, suits, ranks in (
        ("de", _GERMAN_SUIT_WORDS, _GERMAN_RANK_WORDS),
        ("en", _ENGLISH_SUIT_WORDS, _ENGLISH_RANK_WORDS),
    ):
        rank = ranks.get(word) if word not in _NUMBER_WORDS else None
        if rank is not None:
            example = _ways_to_write(Card(suit=Suit.HEARTS, rank=rank), language)
            raise CardNotationError("notation.rank_needs_suit", token=_shown(token), **example)
        suit = suits.get(word)
        if suit is not None:
            example = _ways_to_write(Card(suit=suit, rank=Rank.QUEEN), language)
            raise CardNotationError("notation.suit_needs_rank", token=_shown(token), **example)


def _ways_to_write(card: Card, language: str) -> dict[str, str]:
    """Return a card as a language writes it: in words, with its symbol and in letters.

    >>> _ways_to_write(Card.from_code("J♥"), "de")
    {'words': 'Herz-Bube', 'card': 'B♥', 'letters': 'bh'}
    """
    if language == "de":
        rank_name = _GERMAN_RANK_NAMES.get(card.rank, str(int(card.rank)))
        words = f"{_GERMAN_SUIT_NAMES[card.suit]}-{rank_name}"
    else:
        rank_name = _ENGLISH_RANK_NAMES.get(card.rank, str(int(card.rank)))
        words = f"{rank_name} of {_ENGLISH_SUIT_NAMES[card.suit]}"
    letters = f"{card.rank.letter_in(language)}{_SUIT_LETTERS[card.suit]}".lower()
    return {"words": words, "card": card.label(language), "letters": letters}


def cards_text(cards: Iterable[Piece]) -> str:
    """Write cards (and jokers) in the canonical form, separated by spaces."""
    return " ".join(card.code for card in cards)


def full_pack() -> list[Card]:
    """Return the 52 cards of one French pack, suit by suit, ace to king."""
    return [Card(suit=suit, rank=rank) for suit in Suit for rank in Rank]


# The canonical codes (``Q♣``), as the database stores them: read back without parsing.
_KNOWN = {card.code: card for card in full_pack()}
