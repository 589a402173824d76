"""The grouping of a hand into sets and sequences that leaves the least to pay (Boathouse Rum B1).

Only the sets need choosing. Once it is known which cards go into sets, the other cards of a
suit fall into blocks of consecutive ranks, and the best is to match every block of three or
more cards whole as one sequence (without the corner, a block with the ace inside is split at
the ace, on whichever side costs less). So the search goes round the ranks once, choosing at
each rank which cards (if any) make a set, and remembers for each suit only how its blocks
stand, which keeps the work bounded even for the whole pack.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scorekeeper.rules.cards import Card, Rank, Suit
from scorekeeper.rules.errors import CardAlreadyPlayedError

RANKS_IN_SUIT = len(Rank)
SUITS = tuple(Suit)
# A suit's state in the search: the length of the block the suit began with (``OPEN`` while
# every card since the first rank is free of sets) and the length of the block that is running.
OPEN = -1
# The fewest cards of a sequence, and of a set.
SHORTEST = 3
# Lengths are counted up to three, enough to tell a sequence. Without the corner the ace
# comes last, and a block ending in it is counted up to four: it must know whether it still
# makes a sequence when the ace goes to the other side.
COUNTED = SHORTEST

# The search state: one code per suit, (head + 1) * 8 + running block.
_State = tuple[int, int, int, int]


@dataclass(frozen=True)
class Grouping:
    """A hand split into the melds the scorekeeper matched and the cards paid for."""

    matched: tuple[tuple[Card, ...], ...]
    unmatched: tuple[Card, ...]


def least_paying_grouping(
    hand: Sequence[Card], value: Callable[[Card], int], *, corner: bool = True
) -> Grouping:
    """Return the grouping of a hand that leaves the least to pay, the same for any card order.

    >>> from scorekeeper.rules.cards import cards_text, parse_cards
    >>> def pip(card: Card) -> int:
    ...     return 11 if card.rank == Rank.ACE else min(int(card.rank), 10)
    >>> grouping = least_paying_grouping(parse_cards("7♠ 7♥ 7♦ 8♦ 9♦"), pip)
    >>> [cards_text(meld) for meld in grouping.matched], cards_text(grouping.unmatched)
    (['7♦ 8♦ 9♦'], '7♠ 7♥')
    >>> sum(pip(card) for card in grouping.unmatched)
    14
    """
    held = set(hand)
    if len(held) != len(hand):
        twice = sorted(card for card, count in Counter(hand).items() if count > 1)
        raise CardAlreadyPlayedError("cards.entered_twice", cards=twice, count=len(twice))
    values = {card: value(card) for card in held}
    negative = sorted(card for card, worth in values.items() if worth < 0)
    if negative:
        # Matching a card could then cost more than paying for it; no rule system wants that.
        raise ValueError(f"a card cannot be worth less than nothing: {negative[0]}")
    search = _Search(held, values, corner)
    free = search.cheapest()
    matched: list[tuple[Card, ...]] = []
    for position, rank in enumerate(search.ranks):
        in_set = search.present[position] & ~free[position]
        if in_set:
            matched.append(tuple(Card(suit, Rank(rank)) for suit in _suits_of(in_set)))
    for index, suit in enumerate(SUITS):
        ranks = {rank for rank, cards in zip(search.ranks, free, strict=True) if cards >> index & 1}
        costs = {card.rank: worth for card, worth in values.items() if card.suit == suit}
        for run in _sequences(ranks, costs, corner):
            matched.append(tuple(Card(suit, Rank(rank)) for rank in run))
    in_melds = {card for meld in matched for card in meld}
    return Grouping(
        matched=tuple(sorted(matched, key=lambda meld: sorted(meld))),
        unmatched=tuple(sorted(held - in_melds)),
    )


class _Search:
    """Choose the sets of a hand rank by rank, round the suits' circle from a cut.

    Each suit keeps the length of its first block (it may join the last one round the
    corner) and of the block now running; a block that ends short is charged then. A branch
    that cannot beat the cheapest grouping found so far is cut short (branch and bound), and
    what each state costs is remembered, so no state is searched twice in full.
    """

    def __init__(self, held: set[Card], values: dict[Card, int], corner: bool) -> None:
        self.corner = corner
        self.counted = [COUNTED] * (RANKS_IN_SUIT - 1) + [COUNTED if corner else COUNTED + 1]
        on = [[False] * (RANKS_IN_SUIT + 1) for _ in SUITS]
        for card in held:
            on[SUITS.index(card.suit)][card.rank] = True
        # Without the corner the ace comes last: a block never runs on from it into the 2.
        cut = _cut(on) if corner else 2
        self.ranks = [(cut - 1 + step) % RANKS_IN_SUIT + 1 for step in range(RANKS_IN_SUIT)]
        self.present = [
            sum(1 << suit for suit in range(4) if on[suit][rank]) for rank in self.ranks
        ]
        self.costs = [
            [values[Card(suit, Rank(rank))] if on[index][rank] else 0 for rank in self.ranks]
            for index, suit in enumerate(SUITS)
        ]
        last = self.ranks[-1]
        self.crossing = [on[suit][cut] and on[suit][last] for suit in range(4)]
        # What each rank can leave free of sets: all its cards, none (a set of all of them),
        # or, of four, the one a set of three leaves.
        self.choices: list[list[int]] = []
        for cards in self.present:
            count = bin(cards).count("1")
            choices = [cards]
            if count >= SHORTEST:
                choices.append(0)
            if count == 4:
                choices.extend(1 << suit for suit in range(4))
            self.choices.append(choices)
        self.steps: list[list[dict[int, tuple[int, int]]]] = [
            [{} for _ in SUITS] for _ in self.ranks
        ]
        self.exact: dict[tuple[int, _State], int] = {}
        self.lower: dict[tuple[int, _State], int] = {}

    def cheapest(self) -> list[int]:
        """Return, rank by rank, the cards left free of sets by a grouping that pays least."""
        start: _State = (0, 0, 0, 0)  # every suit's head block open, nothing running
        target = self.least(0, start, _NO_BUDGET)
        # Follow, rank by rank, the first choice that still reaches the least cost.
        free = []
        state = start
        for position in range(RANKS_IN_SUIT):
            for cost, choice, after in self._moves(position, state):
                if cost + self.least(position + 1, after, target - cost + 1) == target:
                    free.append(choice)
                    state = after
                    target -= cost
                    break
        return free

    def least(self, position: int, state: _State, budget: int) -> int:
        """Return the least the rest can cost if below ``budget``, else a lower bound of it."""
        if position == RANKS_IN_SUIT:
            return sum(self._final(suit, code) for suit, code in enumerate(state))
        key = (position, state)
        known = self.exact.get(key)
        if known is not None:
            return known
        # What a state costs at least, learnt when an earlier search of it ran out of budget.
        floor = self.lower.get(key, 0)
        if floor >= budget:
            return floor
        ceiling = budget
        best: int | None = None
        for cost, _, after in self._moves(position, state):
            if cost >= ceiling:
                # The moves come cheapest first: none of the rest can do better.
                best = cost if best is None else min(best, cost)
                break
            found = cost + self.least(position + 1, after, ceiling - cost)
            if best is None or found < best:
                best = found
                ceiling = min(ceiling, found)
                if best <= floor:
                    break
        assert best is not None
        if best < budget:
            self.exact[key] = best
        else:
            self.lower[key] = best
        return best

    def _moves(self, position: int, state: _State) -> list[tuple[int, int, _State]]:
        """Return each choice of sets at a rank with what it charges now and the state after."""
        steps = self.steps[position]
        moves = []
        for choice in self.choices[position]:
            charged = 0
            after = []
            for suit, code in enumerate(state):
                key = code * 2 + (choice >> suit & 1)
                step = steps[suit].get(key)
                if step is None:
                    # A suit's step depends on little, so it is worked out once and looked up.
                    step = self._advance(position, suit, code, bool(key & 1))
                    steps[suit][key] = step
                charged += step[1]
                after.append(step[0])
            moves.append((charged, choice, (after[0], after[1], after[2], after[3])))
        moves.sort(key=lambda move: move[0])
        return moves

    def _advance(self, position: int, suit: int, code: int, free: bool) -> tuple[int, int]:
        """Return a suit's state after one more rank, and what a block that ended short costs."""
        head, running = code // 8 - 1, code % 8
        if free:
            return code - running + min(running + 1, self.counted[position]), 0
        if head == OPEN:
            if self.crossing[suit]:
                # The first block may still join the last one round the corner: charged at the end.
                return (min(running, COUNTED) + 1) * 8, 0
            return 8, self._short(suit, position - running, running)
        return (head + 1) * 8, self._short(suit, position - running, running)

    def _final(self, suit: int, code: int) -> int:
        """Return what a suit's first and last blocks cost once every rank is decided."""
        head, tail = code // 8 - 1, code % 8
        if head == OPEN:
            return 0  # every card of the suit is free: one sequence of the whole suit
        first = self._short(suit, 0, head)
        last = self._short(suit, RANKS_IN_SUIT - tail, tail)
        if self.corner:
            if head and tail and head + tail >= SHORTEST:
                return 0  # one block round the corner
            return first + last
        if not tail:
            return first + last
        # The ace, last, ends the last block (Q-K-A) or begins the first (A-2-3).
        ace = self.costs[suit][-1]
        low = self._short(suit, RANKS_IN_SUIT - tail, tail - 1)
        low += first + ace if head + 1 < SHORTEST else 0
        return min(first + last, low)

    def _short(self, suit: int, start: int, length: int) -> int:
        """Return what a block of one or two cards costs, and nothing for a longer one."""
        if not 0 < length < SHORTEST:
            return 0
        return sum(self.costs[suit][start : start + length])


# A budget no grouping reaches: every card's value is finite.
_NO_BUDGET = 1 << 62


def _cut(on: list[list[bool]]) -> int:
    """Return the rank to start from: where the fewest suits hold it and the rank below it.

    A block that runs on from the last rank into the first has to be remembered all the way
    round, so the fewer suits can do that, the fewer states the search meets.
    """

    def crossing(rank: int) -> tuple[int, int]:
        below = (rank - 2) % RANKS_IN_SUIT + 1
        return sum(on[suit][rank] and on[suit][below] for suit in range(4)), rank

    return min(crossing(rank) for rank in range(1, RANKS_IN_SUIT + 1))[1]


def _suits_of(mask: int) -> list[Suit]:
    """Return the suits whose bits are set in a mask, in suit order."""
    return [suit for index, suit in enumerate(SUITS) if mask >> index & 1]


def _sequences(ranks: set[int], costs: dict[Rank, int], corner: bool) -> list[list[int]]:
    """Return the free cards of a suit as sequences: every block of three or more, whole."""
    if len(ranks) == RANKS_IN_SUIT:
        # R1: the whole suit lies with its ace as the highest card.
        return [[*range(2, RANKS_IN_SUIT + 1), 1]]
    blocks = []
    for start in sorted(ranks):
        if (start - 2) % RANKS_IN_SUIT + 1 in ranks:
            continue
        block = [start]
        while block[-1] % RANKS_IN_SUIT + 1 in ranks:
            block.append(block[-1] % RANKS_IN_SUIT + 1)
        blocks.append(block)
    if not corner:
        split = []
        for block in blocks:
            if 1 not in block[1:-1]:
                split.append(block)
                continue
            ace = block.index(1)
            high = [block[: ace + 1], block[ace + 1 :]]
            low = [block[:ace], block[ace:]]
            split.extend(low if _paid(low, costs) < _paid(high, costs) else high)
        blocks = split
    return [block for block in blocks if len(block) >= SHORTEST]


def _paid(blocks: list[list[int]], costs: dict[Rank, int]) -> int:
    """Return what the cards of blocks too short for a sequence cost."""
    return sum(costs[Rank(rank)] for block in blocks if len(block) < SHORTEST for rank in block)
