"""What every rule system decides, with the common answers; a rule system overrides them.

A rule system is a class with class-level constants (the pack, the players, the meld rules) and
methods that decide (what a card is worth, how a game is settled, who deals next, when a session
ends). An instance carries the house rules a session chose, checked and with defaults filled in.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from scorekeeper.rules.cards import Card, Joker, Piece, Rank, Suit, parse_cards, parse_pieces
from scorekeeper.rules.ends import ENDS, GAMES, LARGEST_NUMBER, MOST_GAMES, TARGET, End
from scorekeeper.rules.errors import CardAlreadyPlayedError, HouseRuleError, SettlementError
from scorekeeper.rules.grouping import Grouping
from scorekeeper.rules.house_rules import HouseRule, HouseRules
from scorekeeper.rules.messages import Message
from scorekeeper.rules.settlement import GameSettlement, SessionStanding
from scorekeeper.rules.variants.words import END_DESCRIPTION, END_LABEL, Words

P = TypeVar("P", bound=Hashable)
# A hand as the caller has it: cards, their text, or the points counted.
H = TypeVar("H")

if TYPE_CHECKING:
    from scorekeeper.rules.melds import JokerPlace, Meld

__all__ = ["LARGEST_NUMBER", "MOST_GAMES", "GameEnd", "MinusHands", "Variant"]


class AcePosition(enum.Enum):
    """Where an ace lies in a meld, which decides what it is worth."""

    IN_SET = "set"
    HIGH = "high"
    CORNER = "corner"
    LOW = "low"


def repeated_cards(groups: Iterable[Iterable[Card]], packs: int = 1) -> list[Card]:
    """Name every card that appears more often than the packs hold, across all groups.

    >>> from scorekeeper.rules.cards import parse_cards
    >>> repeated_cards([parse_cards("6♠ 6♥ 6♦"), parse_cards("5♠ 6♠ 7♠")])
    [Card.from_code('6♠')]
    """
    counts = Counter(card for group in groups for card in group)
    return sorted(card for card, count in counts.items() if count > packs)


def refuse_repeated_cards(groups: Iterable[Iterable[Card]], packs: int = 1) -> None:
    """Raise if any card appears more often than the packs hold."""
    repeated = repeated_cards(groups, packs)
    if repeated:
        raise CardAlreadyPlayedError(
            "cards.entered_twice" if packs == 1 else "cards.more_than_packs",
            cards=repeated,
            count=len(repeated),
        )


@dataclass(frozen=True)
class GameEnd(Generic[P]):
    """The end of a game as it was played, to settle (``Variant.settle_end``).

    ``names`` are the players in seating order; ``winner`` who went out (None: nobody);
    ``hands`` the cards or points left in the hands (None: none given at all, so with nobody
    out the table gives the game up, R6); ``entry_players`` who made each entry of the game in
    order, ``entry_cards`` how many cards each took from the hand, ``on_table`` the cards lying
    there, each copy once; ``romme`` the recorder's word on a Rommé hand (None: the entries
    decide); ``dealer`` who dealt (the rule system says who played first).
    """

    names: Mapping[P, str]
    winner: P | None
    hands: Mapping[P, Sequence[Piece] | int] | None
    entry_players: tuple[P, ...] = ()
    entry_cards: tuple[int, ...] | None = None
    on_table: tuple[Piece, ...] = field(default=())
    romme: bool | None = None
    dealer: P | None = None


class Variant:
    """A rule system; subclass it, override where the rules differ, and register the subclass.

    >>> from scorekeeper.rules.variants import find_variant
    >>> find_variant("treppenromme", {"end": {"games": 5}}).house_rules
    {'end': {'games': 5}, 'romme_doubling': 'winner'}
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    # What the rule system says (its name, its rules, the settlement explained): ``words``.
    WORDS: ClassVar[type[Words]] = Words
    # The packs, the jokers and the seats: a rule system's house rules may change them (F6, F7),
    # so an instance may carry its own.
    packs: int = 1
    jokers: int = 0
    min_players: ClassVar[int] = 2
    max_players: int = 4
    set_sizes: ClassVar[tuple[int, int]] = (3, 4)
    min_sequence: ClassVar[int] = 3
    ace_turns_corner: ClassVar[bool] = True
    # Whether a sequence may hold both aces of its suit, one at each end (G9: two packs).
    both_aces_in_sequence: ClassVar[bool] = False
    ace_in_meld: ClassVar[dict[AcePosition, int]] = {}
    court_value: ClassVar[int] = 10
    ace_in_hand: ClassVar[int] = 15
    joker_in_hand: ClassVar[int] = 0
    first_meld_minimum: ClassVar[int] = 0
    romme_factor: ClassVar[int] = 2
    # Whether the first player of a game draws before putting cards down (G6: not in Rommé).
    first_turn_draws: ClassVar[bool] = True
    # Whether melds and layoffs score points (in Boathouse Rum they only show who melded).
    melds_score: ClassVar[bool] = True
    # The ways a session may end, the usual one first, at the usual target or limit.
    ENDS: ClassVar[tuple[End, ...]] = (TARGET, GAMES)
    default_target: ClassVar[int] = 500
    default_limit: ClassVar[int] = -500
    # What a hand given as points may count at the least: every hand holds a card.
    least_hand_points: ClassVar[int] = 2

    HOUSE_RULES: ClassVar[tuple[HouseRule, ...]] = ()

    def __init__(self, house_rules: Mapping[str, object] | None = None) -> None:
        # Checked and frozen once: instances are shared (cached) and hashed by their rules.
        self._house = HouseRules(self.check_house_rules(house_rules or {}))
        self.words = self.WORDS(self)

    @property
    def house(self) -> HouseRules:
        """Return the session's house rules, every default filled in, frozen."""
        return self._house

    @property
    def house_rules(self) -> dict[str, Any]:
        """Return the session's house rules, every default filled in, as a plain dict (a copy)."""
        return self._house.as_dict()

    @classmethod
    def end_rule(cls) -> HouseRule:
        """Return the house rule of how a session ends: one of its ``ENDS``, the first usually.

        >>> Variant.end_rule().default, Variant.end_rule().ends["games"]
        ({'target': 500}, (1, 1000))
        """
        usual = cls.ENDS[0]
        return HouseRule(
            "end",
            {usual.key: cls.usual_number(usual)},
            ends={end.key: end.bounds for end in cls.ENDS},
            label=END_LABEL,
            description=END_DESCRIPTION,
        )

    @classmethod
    def usual_number(cls, end: End) -> int | None:
        """Return the number a session ends at when the table gives none: the target or limit.

        >>> Variant.usual_number(TARGET), Variant.usual_number(GAMES)
        (500, None)
        """
        return end.usual(cls)

    def end(self) -> tuple[End, int]:
        """Return how the session ends, and at what number: ``(TARGET, 500)``."""
        ((kind, number),) = self.house["end"].items()
        return ENDS[kind], number

    @classmethod
    def all_house_rules(cls) -> tuple[HouseRule, ...]:
        """Return every house rule of the rule system, how the session ends first."""
        return (cls.end_rule(), *cls.HOUSE_RULES)

    @classmethod
    def check_house_rules(cls, chosen: Mapping[str, object]) -> dict[str, Any]:
        """Return the house rules with every default filled in, or raise what is not allowed."""
        known = {rule.name: rule for rule in cls.all_house_rules()}
        strangers = sorted(str(name) for name in chosen if name not in known)
        if strangers:
            raise HouseRuleError(
                "rules.unknown",
                variant=cls.title,
                rule=strangers[0],
                allowed=", ".join(known),
            )
        return {
            name: rule.check(chosen[name]) if name in chosen else rule.default
            for name, rule in known.items()
        }

    @classmethod
    def most_players(cls) -> int:
        """Return the most players the rule system seats under any of its house rules."""
        return cls.max_players

    def with_end(self, end: Mapping[str, int]) -> Variant:
        """Return the same rule system with another end of the session, e.g. ``{"games": 5}``."""
        return type(self)({**self.house, "end": end})

    # --- the table ---------------------------------------------------------------------------

    def players_allowed(self) -> range:
        """Return the numbers of players the rule system is played by."""
        return range(self.min_players, self.max_players + 1)

    def cards_dealt(self, player_count: int) -> int:
        """Return how many cards each player is dealt."""
        return 7

    def first_player_seat(self, dealer_seat: int, player_count: int) -> int:
        """Return the seat that plays first in a game: the dealer."""
        return dealer_seat

    def next_dealer_seat(self, dealer_seat: int, winner_seat: int | None, player_count: int) -> int:
        """Return the seat that deals the next game: the dealer's left neighbour."""
        return (dealer_seat + 1) % player_count

    def dealer_seat(
        self,
        first_dealer_seat: int,
        last_game: tuple[int, int | None, bool] | None,
        player_count: int,
    ) -> int:
        """Return the seat dealing the game in progress, or the next game when none is open.

        ``last_game`` is the latest game's dealer seat, winner seat and whether it is open.

        >>> Variant().dealer_seat(2, None, 3), Variant().dealer_seat(2, (2, 0, False), 3)
        (2, 0)
        """
        if last_game is None:
            return first_dealer_seat
        dealer, winner, still_open = last_game
        if still_open:
            return dealer
        return self.next_dealer_seat(dealer, winner, player_count)

    # --- values ------------------------------------------------------------------------------

    def pip_value(self, card: Card) -> int:
        """Return a non-ace card's value: its number, or the court value for J, Q, K."""
        if card.rank >= Rank.JACK:
            return self.court_value
        return int(card.rank)

    def meld_value(self, card: Card, position: AcePosition | None) -> int:
        """Return what a card scores where it lies in a meld (the position matters for aces)."""
        if card.rank == Rank.ACE:
            if position is None:
                raise ValueError("an ace in a meld needs its position")
            return self.ace_in_meld[position]
        return self.pip_value(card)

    def joker_meld_value(self, card: Card, position: AcePosition | None) -> int:
        """Return what a joker scores in a meld standing for ``card``: what the card scores."""
        return self.meld_value(card, position)

    def opening_card_value(self, card: Card, position: AcePosition | None) -> int:
        """Return what a card counts towards an opening (G3): what it scores in the meld."""
        return self.meld_value(card, position)

    def hand_value(self, card: Piece) -> int:
        """Return what a card or joker left in a hand is worth at the end of a game."""
        if isinstance(card, Joker):
            return self.joker_hand_value()
        if card.rank == Rank.ACE:
            return self.ace_in_hand
        return self.pip_value(card)

    def joker_hand_value(self) -> int:
        """Return what a joker left in a hand is worth at the end of a game."""
        return self.joker_in_hand

    def hand_points_range(self) -> tuple[int, int]:
        """Return the least and the most that a hand given as points can count."""
        pack = [Card(suit=suit, rank=rank) for suit in Suit for rank in Rank] * self.packs
        values = [self.hand_value(card) for card in pack]
        return self.least_hand_points, sum(values) + self.jokers * self.joker_hand_value()

    def read_cards(self, text: str) -> list[Piece]:
        """Read cards as this rule system plays them: jokers only where it has them (G8).

        >>> Variant().read_cards("7♥, 8h")
        [Card.from_code('7♥'), Card.from_code('8♥')]
        """
        if self.jokers:
            return parse_pieces(text)
        return list[Piece](parse_cards(text))

    # --- the opening and the joker swap ------------------------------------------------------

    def has_opening(self) -> bool:
        """Tell whether the rule system has an opening with a minimum (G3), whatever its value."""
        return type(self).first_meld_minimum > 0

    def opening_minimum(self) -> int:
        """Return what a player's first entry in a game must be worth at the least (G3)."""
        return self.first_meld_minimum

    def opening_counted(self, melds: Iterable[Meld]) -> int | None:
        """Return what melds put down together count towards an opening; None without one.

        >>> from scorekeeper.rules.cards import parse_cards
        >>> from scorekeeper.rules.melds import classify
        >>> from scorekeeper.rules.variants import find_variant
        >>> german = find_variant("german_rummy")
        >>> german.opening_counted([classify(parse_cards("Q♣ K♣ A♣"), german)])
        31
        >>> Variant().opening_counted([]) is None
        True
        """
        if not self.has_opening():
            return None
        return sum(meld.opening_value for meld in melds)

    def joker_places(self, meld: Meld) -> tuple[JokerPlace, ...] | None:
        """Return where a meld's jokers lie and what they stand for; None where none are played."""
        return meld.jokers if self.jokers else None

    def refuse_before_opening(self, kind: str, earlier: Sequence[str], name: str = "") -> None:
        """Refuse an entry a player may not make before their opening: here none is refused.

        ``kind`` is the entry's kind (``"meld"``, ``"layoff"`` or ``"swap"``), ``earlier`` the
        kinds of the player's earlier entries in this game, ``name`` the player's name.
        """

    def swap_needs_full_set(self) -> bool:
        """Tell whether a joker leaves a set only when the set becomes four natural cards."""
        return False

    def swaps_jokers(self) -> bool:
        """Tell whether a joker may be taken from the table for its natural card (G4).

        >>> from scorekeeper.rules.variants import find_variant
        >>> find_variant("german_rummy").swaps_jokers(), find_variant().swaps_jokers()
        (True, False)
        """
        return self.jokers > 0

    # --- the end of a game -------------------------------------------------------------------

    def first_player(self, players: Sequence[P], dealer: P) -> P:
        """Return who plays first in a game: ``players`` in seating order, and the dealer.

        >>> Variant().first_player(["Ann", "Bob", "Cid"], "Bob")
        'Bob'
        """
        seat = self.first_player_seat(list(players).index(dealer), len(players))
        return players[seat]

    def romme_least_cards(self, player_count: int, first_turn: bool) -> int:
        """Return how many cards a turn that goes out with a Rommé hand puts down at the least.

        A player dealt 13 draws one and may discard one, so 13 go down; a first player who
        plays without drawing (G6) puts down 12 in the game's first turn.

        >>> from scorekeeper.rules.variants.german_rummy import GermanRummy
        >>> GermanRummy().romme_least_cards(3, True), Variant().romme_least_cards(3, True)
        (12, 7)
        """
        dealt = self.cards_dealt(player_count)
        return dealt if self.first_turn_draws or not first_turn else dealt - 1

    def romme_possible(
        self,
        entry_players: Sequence[P],
        winner: P,
        entry_cards: Sequence[int] | None = None,
        player_count: int = 2,
        *,
        first_player: P | None = None,
    ) -> bool:
        """Tell whether the winner can have put every card down in one turn.

        ``entry_cards`` are the cards each entry took from the hand, ``first_player`` who
        played first in the game (``first_player(players, dealer)``): without it the dealer's
        first turn, which draws no card in German Rummy (G6), is not known (see ``why_romme``).

        >>> Variant().romme_possible(["Bob", "Cid", "Ann", "Ann"], "Ann")
        True
        >>> Variant().romme_possible(["Ann", "Bob", "Ann"], "Ann")
        False
        >>> Variant().romme_possible(["Bob", "Ann"], "Ann", entry_cards=[3, 4])
        False
        """
        why = self.why_romme(
            entry_players, winner, entry_cards, player_count, name="", first_player=first_player
        )
        return why.message_id == "settlement.romme_proposed"

    def why_romme(
        self,
        entry_players: Sequence[P],
        winner: P,
        entry_cards: Sequence[int] | None,
        player_count: int,
        *,
        name: str,
        first_player: P | None = None,
    ) -> Message:
        """Say whether the entries let the winner have had a Rommé hand, and why.

        The scorekeeper records entries, not turns: an entry of another player after one of
        the winner's proves the winner put cards down in an earlier turn. A turn that goes out
        with a Rommé hand puts down at least the cards dealt (they drew one and may discard
        it), so fewer cards after the others' last entry prove an earlier turn too. Where
        ``entry_cards`` is not known only the order is asked. ``first_player`` is who played
        first in the game: when that is the winner and nobody else has an entry, the winner may
        have gone out in the game's first turn, with one card less where it draws none (G6).

        >>> Variant().why_romme(["Bob", "Ann"], "Ann", [3, 7], 2, name="Ann").message_id
        'settlement.romme_proposed'
        >>> Variant().why_romme(["Bob", "Ann"], "Ann", [3, 4], 2, name="Ann").params["count"]
        4
        """
        first = next((at for at, player in enumerate(entry_players) if player == winner), None)
        if first is None or any(player != winner for player in entry_players[first:]):
            return Message("settlement.no_romme_hand", {"name": name})
        count = sum(entry_cards[first:]) if entry_cards is not None else None
        dealt = self.cards_dealt(player_count)
        first_turn = first == 0 and first_player == winner
        least = self.romme_least_cards(player_count, first_turn)
        if count is not None and count < least:
            if least < dealt:
                return Message(
                    "settlement.romme_too_few_cards_first_turn",
                    {"name": name, "count": count, "least": least, "dealt": dealt},
                )
            return Message(
                "settlement.romme_too_few_cards", {"name": name, "count": count, "dealt": dealt}
            )
        return Message(
            "settlement.romme_proposed", {"name": name, "count": count or 0, "dealt": dealt}
        )

    def nobody_out_settles(self) -> bool:
        """Tell whether a game nobody went out of is settled with every hand (F5), not abandoned.

        >>> from scorekeeper.rules.variants import find_variant
        >>> find_variant("rummy_500").nobody_out_settles(), find_variant().nobody_out_settles()
        (True, False)
        """
        return False

    def hands_settled(self, winner: P | None, hands: Mapping[P, H]) -> dict[P, H]:
        """Return the hands a finish settles: none when nobody went out, unless that settles.

        >>> Variant().hands_settled(None, {2: "K♣"}), Variant().hands_settled(1, {2: "K♣"})
        ({}, {2: 'K♣'})
        """
        return dict(hands) if winner is not None or self.nobody_out_settles() else {}

    def refuse_winner(self, entry_players: Sequence[P], winner: P, name: str) -> None:
        """Refuse a winner who put nothing down in the game: they cannot have gone out."""
        if winner not in entry_players:
            raise SettlementError("settlement.winner_without_entries", name=name)

    def finish(
        self,
        names: Mapping[P, str],
        winner: P | None,
        hands: Mapping[P, Sequence[Piece] | int] | None,
        *,
        entry_players: Sequence[P],
        entry_cards: Sequence[int] | None = None,
        on_table: Iterable[Piece] = (),
        romme: bool | None = None,
        dealer: P | None = None,
    ) -> GameSettlement[P]:
        """Settle the end of a game from its parts: ``settle_end`` of the ``GameEnd`` they make.

        >>> from scorekeeper.rules.cards import parse_cards
        >>> names = {1: "Ann", 2: "Bob"}
        >>> Variant().finish(names, 1, {2: parse_cards("K♣")}, entry_players=[2, 1]).gains
        {1: 20, 2: 0}
        """
        return self.settle_end(
            GameEnd(
                names,
                winner,
                hands,
                entry_players=tuple(entry_players),
                entry_cards=None if entry_cards is None else tuple(entry_cards),
                on_table=tuple(on_table),
                romme=romme,
                dealer=dealer,
            )
        )

    def settle_end(self, end: GameEnd[P]) -> GameSettlement[P]:
        """Settle the end of a game as it was played; no winner abandons it (R6).

        ``romme=None`` lets the entries decide whether the winner had a Rommé hand;
        ``romme_why`` in the answer says why. A rule system that settles an end otherwise
        overrides this, and hands the rest back to it.

        >>> from scorekeeper.rules.cards import parse_cards
        >>> end = GameEnd({1: "Ann", 2: "Bob"}, 1, {2: parse_cards("K♣")}, entry_players=(2, 1))
        >>> Variant().settle_end(end).gains
        {1: 20, 2: 0}
        """
        names, winner = end.names, end.winner
        players = list(names)
        if winner is None:
            return self.settle(players, None, {}, romme=bool(end.romme))
        hands = end.hands or {}
        if winner not in names:
            raise SettlementError("settlement.winner_not_playing")
        self.refuse_winner(end.entry_players, winner, names[winner])
        first_player = self.first_player(players, end.dealer) if end.dealer in names else None
        why = self.why_romme(
            end.entry_players,
            winner,
            end.entry_cards,
            len(players),
            name=names[winner],
            first_player=first_player,
        )
        possible = why.message_id == "settlement.romme_proposed"
        if end.romme and not possible:
            raise SettlementError.saying(why)
        self.refuse_lying_in_hands(names, hands, list(end.on_table))
        never_melded = [player for player in players if player not in end.entry_players]
        settled = self.settle(
            players,
            winner,
            hands,
            romme=possible if end.romme is None else end.romme,
            never_melded=never_melded,
        )
        return replace(settled, romme_possible=possible, romme_why=why)

    def refuse_lying_in_hands(
        self,
        names: Mapping[P, str],
        hands: Mapping[P, Sequence[Piece] | int],
        lying: Sequence[Piece],
    ) -> None:
        """Refuse a card in a hand whose every copy lies on the table, or a copy too many (G8).

        With one pack a card on the table cannot be in a hand; with two, a third copy cannot.

        >>> from scorekeeper.rules.cards import parse_cards
        >>> Variant().refuse_lying_in_hands({1: "Ann"}, {1: parse_cards("7♥")}, parse_cards("7♥"))
        Traceback (most recent call last):
        ...
        scorekeeper.rules.errors.CardAlreadyPlayedError: 7♥ is on the table, so is not in \
Ann's hand.
        """
        copies = Counter(piece for piece in lying if isinstance(piece, Card))
        jokers = sum(isinstance(piece, Joker) for piece in lying)
        for player, hand in hands.items():
            if isinstance(hand, int):
                continue
            taken: list[Piece] = [
                card for card in hand if isinstance(card, Card) and copies[card] >= self.packs
            ]
            if jokers >= self.jokers:
                taken += [piece for piece in hand if isinstance(piece, Joker)][:1]
            if taken:
                raise CardAlreadyPlayedError(
                    "cards.on_table_not_in_hand",
                    cards=taken,
                    name=names.get(player, ""),
                    count=len(taken),
                )
        self.refuse_copies([lying, *(hand for hand in hands.values() if not isinstance(hand, int))])

    def refuse_copies(self, groups: Iterable[Iterable[Piece]]) -> None:
        """Raise if cards or jokers appear more often than the packs hold (G8)."""
        pieces = [piece for group in groups for piece in group]
        refuse_repeated_cards([[piece for piece in pieces if isinstance(piece, Card)]], self.packs)
        jokers = sum(isinstance(piece, Joker) for piece in pieces)
        if jokers > self.jokers:
            raise CardAlreadyPlayedError("cards.too_many_jokers", count=jokers, jokers=self.jokers)

    def counted_hands(
        self, hands: Mapping[P, Sequence[Piece] | int]
    ) -> dict[P, Sequence[Card] | int]:
        """Return the hands to settle: a hand that holds a joker as the points it counts.

        >>> from scorekeeper.rules.cards import parse_pieces
        >>> from scorekeeper.rules.variants import find_variant
        >>> find_variant("german_rummy").counted_hands({1: parse_pieces("7♥ JKR"), 2: 12})
        {1: 37, 2: 12}
        """
        return {
            player: hand
            if isinstance(hand, int)
            else self.pieces_points(hand)
            if any(isinstance(piece, Joker) for piece in hand)
            else [piece for piece in hand if isinstance(piece, Card)]
            for player, hand in hands.items()
        }

    def pieces_points(self, hand: Sequence[Piece]) -> int:
        """Return what the cards and jokers left in a hand count, each by ``hand_value``."""
        return sum(self.hand_value(piece) for piece in hand)

    def hand_grouping(self, hand: Sequence[Piece]) -> Grouping | None:
        """Return how a hand splits into matched and paid-for cards, where that matters."""
        return None

    def hand_points(self, hand: Sequence[Card]) -> int:
        """Return what a loser's hand counts before any doubling: all its cards."""
        return sum(self.hand_value(card) for card in hand)

    def factor(self, loser: P, romme: bool, never_melded: frozenset[P]) -> int:
        """Return how many times a loser's hand counts: double for a Rommé hand."""
        return self.romme_factor if romme else 1

    def book(self, winner: P, owed: Mapping[P, int], players: Sequence[P]) -> dict[P, int]:
        """Return each player's gain from what each loser owes: the winner collects it all."""
        gains = dict.fromkeys(players, 0)
        gains[winner] = sum(owed.values())
        return gains

    def settle(
        self,
        players: Sequence[P],
        winner: P | None,
        hands: Mapping[P, Sequence[Piece] | int],
        *,
        romme: bool = False,
        never_melded: Iterable[P] = (),
    ) -> GameSettlement[P]:
        """Settle the cards left in the losers' hands; ``winner=None`` abandons the game (R6).

        A hand is its cards (and jokers, where they are played), or the points the table
        counted for it (a whole number).
        """
        if len(set(players)) != len(players):
            raise SettlementError("settlement.player_twice")
        if winner is None:
            if romme:
                raise SettlementError("settlement.abandoned_romme")
            return GameSettlement(None, False, {}, dict.fromkeys(players, 0), {})
        if winner not in players:
            raise SettlementError("settlement.winner_not_playing")
        if any(player not in players for player in hands):
            raise SettlementError("settlement.stranger_hand")
        if winner in hands:
            raise SettlementError("settlement.winner_has_hand")
        losers = [player for player in players if player != winner]
        lowest, highest = self.hand_points_range()
        for loser in losers:
            if loser not in hands:
                raise SettlementError("settlement.hand_missing")
            hand = hands[loser]
            if isinstance(hand, int) and not lowest <= hand <= highest:
                raise SettlementError(
                    "settlement.hand_points", lowest=lowest, highest=highest, points=hand
                )
            if not isinstance(hand, int) and not hand:
                raise SettlementError("settlement.empty_hand")
        self.refuse_copies(hand for hand in hands.values() if not isinstance(hand, int))
        counted = self.counted_hands(hands)
        return self._settled(players, winner, losers, counted, romme, frozenset(never_melded))

    def _settled(
        self,
        players: Sequence[P],
        winner: P,
        losers: Sequence[P],
        hands: Mapping[P, Sequence[Card] | int],
        romme: bool,
        never_melded: frozenset[P],
    ) -> GameSettlement[P]:
        hand_points = {
            loser: hand if isinstance(hand, int) else self.hand_points(hand)
            for loser, hand in ((loser, hands[loser]) for loser in losers)
        }
        return self._booked(players, winner, hand_points, romme, never_melded)

    def _booked(
        self,
        players: Sequence[P],
        winner: P,
        hand_points: dict[P, int],
        romme: bool,
        never_melded: frozenset[P],
    ) -> GameSettlement[P]:
        factors = {loser: self.factor(loser, romme, never_melded) for loser in hand_points}
        owed = {loser: points * factors[loser] for loser, points in hand_points.items()}
        gains = self.book(winner, owed, players)
        return GameSettlement(winner, romme, hand_points, gains, factors, paid=owed)

    # --- the session -------------------------------------------------------------------------

    def ranking_value(self, total: int) -> int:
        """Return what ranks a total: the greater this value, the better the total.

        Every rule system's best total is its highest (German Rummy: the fewest minus points,
        -12 before -40); a rule system whose lowest total were best would return ``-total``.
        A standing, an evening's ranking and its best series are ordered by it.

        >>> from scorekeeper.rules.variants import find_variant
        >>> find_variant("german_rummy").ranking_value(-12) > find_variant().ranking_value(-40)
        True
        """
        return total

    def standing_order(self, seating: Sequence[P], totals: Mapping[P, int]) -> list[P]:
        """Return the players in the order a standing shows them: the best total first.

        Every rule system's best total is its highest (German Rummy: the fewest minus points);
        players with the same total keep their seating order.

        >>> from scorekeeper.rules.variants import find_variant
        >>> find_variant().standing_order(["Ann", "Bob", "Cid"], {"Ann": 56, "Bob": 70, "Cid": 56})
        ['Bob', 'Ann', 'Cid']
        """
        return sorted(seating, key=lambda player: -self.ranking_value(totals[player]))

    def standing(
        self, totals: Mapping[P, int], games_ended: int, *, game_in_progress: bool = False
    ) -> SessionStanding[P]:
        """Decide the session, checked only between games; a tie at the top plays on (R7).

        >>> from scorekeeper.rules.variants import find_variant
        >>> find_variant().standing({"Ann": 510, "Bob": 530}, 3).winner
        'Bob'
        >>> find_variant("treppenromme", {"end": {"games": 4}}).standing({"Ann": 5}, 4).winner
        'Ann'
        """
        totals = dict(totals)
        top = max(totals.values(), default=0)
        leaders = tuple(player for player, total in totals.items() if total == top)
        ((kind, number),) = self.house["end"].items()
        over = self._over(kind, number, totals, games_ended)
        winner = None
        if over and not game_in_progress and len(leaders) == 1:
            winner = leaders[0]
        return SessionStanding(
            totals,
            number if kind == "target" else None,
            winner,
            leaders,
            limit=number if kind == "limit" else None,
            games=number if kind == "games" else None,
            games_ended=games_ended,
            over=over,
        )

    def _over(self, kind: str, number: int, totals: Mapping[P, int], games_ended: int) -> bool:
        """Tell whether the session's end is reached: the target, the limit, or the games."""
        if kind not in self.end_rule().ends:
            raise ValueError(f"{self.title} does not end at a {kind}")
        return ENDS[kind].reached(number, totals, games_ended)

    # --- words: said by the rule system's words part (``words``) ------------------------------

    def label(self, language: str = "en") -> str:
        """Return the rule system's name as shown to the players, e.g. ``Treppenrommé``."""
        return self.words.label(language)

    def rules_said(self, language: str = "en") -> tuple[str, ...]:
        """Say the rules of a session: the rule system, how it ends, each house rule chosen."""
        return self.words.rules_said(language)

    def to_go_message(self) -> Message:
        """Say what a player's distance to the session's end is: to the target, or the limit."""
        return self.words.to_go_message()

    def game_news(self, number: int, names: Mapping[P, str], settled: GameSettlement[P]) -> Message:
        """Say the news of a game just booked: what the winner gains, or what the losers book."""
        return self.words.game_news(number, names, settled)

    def settlement_explained(self, settled: GameSettlement[P], name: str) -> tuple[Message, ...]:
        """Explain a settlement before it is booked; ``name`` is the winner's ("" for nobody)."""
        return self.words.settlement_explained(settled, name)

    def minus_explained(self, name: str) -> Message:
        """Explain minus points: what the winner and every other player book."""
        return self.words.minus_explained(name)

    def describe(self) -> dict[str, Any]:
        """Return the rule system as the API lists it (the title in English)."""
        return {
            "name": self.name,
            "title": self.title,
            "players": list(self.players_allowed()),
            "min_players": self.min_players,
            "max_players": self.max_players,
            "rules": [rule.describe() for rule in self.all_house_rules()],
        }

    def shows_game_net(self) -> bool:
        """Tell whether a settlement shows each player's game as table minus hand (F2).

        Where every player books their melds and layoffs minus their hand, the hand alone
        is not what a player's game comes to.
        """
        return False

    def has_romme_hand(self) -> bool:
        """Tell whether going out at once can be a Rommé hand that counts for more (not F3).

        >>> from scorekeeper.rules.variants import find_variant
        >>> find_variant("rummy_500").has_romme_hand(), find_variant().has_romme_hand()
        (False, True)
        """
        return self.romme_factor > 1

    def doubles_never_melded(self) -> bool:
        """Tell whether a hand counts double because its player never melded (not a Rommé)."""
        return False

    def opened(self, entry_players: Iterable[P]) -> set[P]:
        """Return who has opened in a game (G3): every player with an entry."""
        return set(entry_players)

    def __repr__(self) -> str:
        if self.house == type(self)().house:
            return f"find_variant({self.name!r})"
        return f"find_variant({self.name!r}, {self.house_rules!r})"

    # Two instances with the same house rules are the same rule system (meld values are cached
    # by it).
    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._house == self._house

    def __hash__(self) -> int:
        return hash((type(self), self._house))


class MinusHands(Variant):
    """The settlement where the winner books 0 and every other player minus their hand.

    German Rummy (G5) and 500 Rum (F2) settle so; a rule system that does mixes this in.

    >>> class Minus(MinusHands):
    ...     name = "minus"
    >>> Minus().book("Ann", {"Bob": 12, "Cid": 3}, ["Ann", "Bob", "Cid"])
    {'Ann': 0, 'Bob': -12, 'Cid': -3}
    """

    def book(self, winner: P, owed: Mapping[P, int], players: Sequence[P]) -> dict[P, int]:
        """Return each player's gain: 0 for the winner, minus their hand for every other."""
        gains = dict.fromkeys(players, 0)
        for loser, points in owed.items():
            gains[loser] = -points
        return gains
