"""Boathouse Rum (seed 004): melds score nothing; the losers pay for their unmatched cards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from scorekeeper.rules.cards import Card, Piece
from scorekeeper.rules.grouping import Grouping, least_paying_grouping
from scorekeeper.rules.messages import Message
from scorekeeper.rules.settlement import GameSettlement
from scorekeeper.rules.variants.base import AcePosition, P, Variant
from scorekeeper.rules.variants.words import Words


class BoathouseRumWords(Words):
    """Boathouse Rum's words: a game's numbers are the payments won (a loser's is 0)."""

    points = Message("sheet.payments")


class BoathouseRum(Variant):
    """Boathouse Rum: 2 to 6 players, the corner allowed, play to 100 (B1-B5).

    >>> from scorekeeper.rules.cards import parse_cards
    >>> hands = {"Bob": parse_cards("7♠ 7♥ 7♦ 8♦ 9♦")}
    >>> settled = BoathouseRum().settle(["Ann", "Bob"], "Ann", hands)
    >>> settled.gains, settled.unmatched
    ({'Ann': 14, 'Bob': 0}, {'Bob': (Card.from_code('7♠'), Card.from_code('7♥'))})
    """

    name = "boathouse_rum"
    title = "Boathouse Rum"
    WORDS = BoathouseRumWords
    melds_score = False
    max_players = 6
    ace_in_hand = 11
    default_target = 100
    # A hand whose cards all match pays nothing.
    least_hand_points = 0

    def cards_dealt(self, player_count: int) -> int:
        """Return the cards each player is dealt: 10 for two, 7 for three or four, else 6."""
        if player_count <= 2:
            return 10
        return 7 if player_count <= 4 else 6

    def first_player_seat(self, dealer_seat: int, player_count: int) -> int:
        """Return the seat that plays first: the dealer's left neighbour (B5)."""
        return (dealer_seat + 1) % player_count

    def next_dealer_seat(self, dealer_seat: int, winner_seat: int | None, player_count: int) -> int:
        """Return the next dealer: with two players the winner, else the left neighbour (B5)."""
        if player_count == 2 and winner_seat is not None:
            return winner_seat
        return (dealer_seat + 1) % player_count

    def meld_value(self, card: Card, position: AcePosition | None) -> int:
        """Return what a card scores in a meld: nothing (B4)."""
        return 0

    def hand_grouping(self, hand: Sequence[Piece]) -> Grouping:
        """Return the grouping of a hand that leaves the least to pay (B1)."""
        # Played without jokers: read_cards never lets one into a hand.
        cards = [card for card in hand if isinstance(card, Card)]
        return least_paying_grouping(cards, self.hand_value, corner=self.ace_turns_corner)

    def hand_points(self, hand: Sequence[Card]) -> int:
        """Return what a loser pays before doubling: the value of the unmatched cards (B1)."""
        return sum(self.hand_value(card) for card in self.hand_grouping(hand).unmatched)

    def _settled(
        self,
        players: Sequence[P],
        winner: P,
        losers: Sequence[P],
        hands: Mapping[P, Sequence[Card] | int],
        romme: bool,
        never_melded: frozenset[P],
    ) -> GameSettlement[P]:
        groupings = {
            loser: self.hand_grouping(hand)
            for loser in losers
            if not isinstance(hand := hands[loser], int)
        }
        hand_points = {
            loser: hand
            if isinstance(hand := hands[loser], int)
            else sum(self.hand_value(card) for card in groupings[loser].unmatched)
            for loser in losers
        }
        booked = self._booked(players, winner, hand_points, romme, never_melded)
        return replace(
            booked,
            unmatched={loser: grouping.unmatched for loser, grouping in groupings.items()},
            matched={loser: grouping.matched for loser, grouping in groupings.items()},
        )
