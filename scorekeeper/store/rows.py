"""The rows the store hands out, the one row model above it, and what the rules make of them.

A row is a typed value read by column name: the use cases, the read side, the pages and the
API see these and never an ORM object (``models.py`` declares the tables for the store and the
migrations). The functions below ask the rules about rows: the table a game's entries lay, who
deals, how a game is dealt.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from scorekeeper import rules
from scorekeeper.store.errors import ConflictError, InvalidRequestError, NotFoundError

# How a joker is stored in table_cards.card; what it stands for is in table_cards.stands_for.
JOKER = rules.Joker().code

# Ids beyond a 64-bit integer cannot exist; refuse them before the database overflows.
LARGEST_ID = 2**63 - 1


@functools.lru_cache(maxsize=256)
def rule_system(name: str, house_rules: str) -> rules.Variant:
    """Return a rule system with the house rules stored for a session (JSON text).

    Every read of a game builds its rule system: the same few stored texts come back.
    """
    return rules.find_variant(name, json.loads(house_rules))


def variant_of(session: SessionRow) -> rules.Variant:
    """Return the rule system a session is played by, with its house rules."""
    return rule_system(session.variant, session.house_rules)


class PlayerRow(NamedTuple):
    """A player of a session as stored, with the games they joined and left at."""

    id: int
    seat: int
    name: str
    banked: int
    joined_game: int = 1
    left_game: int | None = None

    @property
    def seated(self) -> bool:
        """Tell whether the player sits at the table now (has not left)."""
        return self.left_game is None

    def plays_in(self, number: int) -> bool:
        """Tell whether the player was dealt in the game of this number (the rules say)."""
        return rules.Stay(self.joined_game, self.left_game).plays_in(number)


@dataclass(frozen=True)
class SessionRow:
    """A session as stored, with everyone who played in it in seat order."""

    id: int
    public_id: str
    # The name the registry knows the rule system by; ``variant_of`` gives the rule system.
    variant: str
    # The house rules the table chose, as JSON text with every default filled in.
    house_rules: str
    first_dealer_seat: int
    status: str
    version: int
    created_at: datetime
    group_id: int | None
    edit_key_digest: str
    view_key_digest: str
    players: tuple[PlayerRow, ...]

    @property
    def seated(self) -> list[PlayerRow]:
        """Return the players at the table now, in seating order (clockwise)."""
        return [player for player in self.players if player.seated]

    @property
    def left(self) -> list[PlayerRow]:
        """Return the players who left the table between games, in the order they sat."""
        return [player for player in self.players if not player.seated]

    @property
    def target(self) -> int | None:
        """Return the total the session is played to, if its house rules end it at one."""
        target: int | None = json.loads(self.house_rules)["end"].get("target")
        return target


class GameSummary(NamedTuple):
    """What a list of games shows of each: read as plain rows, not as whole games."""

    id: int
    number: int
    dealer_id: int
    status: str
    winner_id: int | None
    romme: bool | None


class CardRow(NamedTuple):
    """A card or joker an entry put on the table, with the value written for it.

    ``copy`` tells the two copies of a card apart (G8); ``stands_for`` is what a joker stood
    for where it stood for one card.
    """

    id: int
    card: str
    value: int
    copy: int = 0
    stands_for: str | None = None

    @property
    def piece(self) -> rules.Piece:
        """Return the card, or the joker with the card it stands for."""
        if self.card == JOKER:
            stands_for = rules.Card.from_code(self.stands_for) if self.stands_for else None
            return rules.Joker(stands_for=stands_for)
        return rules.Card.from_code(self.card)


class EntryRow(NamedTuple):
    """An entry as stored, with its cards in order."""

    id: int
    position: int
    kind: str
    player_id: int
    meld_id: int | None
    meld_kind: str | None
    value: int
    created_at: datetime
    # The first meld of the entry this meld was recorded with, when that entry has several.
    group_id: int | None
    cards: list[CardRow]
    # When it was tapped on the phone, where the phone sent a time the server kept.
    tapped_at: datetime | None = None

    @property
    def entry_id(self) -> int:
        """Return the id of the entry this row belongs to: its own, or its first meld's."""
        return self.group_id if self.group_id is not None else self.id

    @property
    def pieces(self) -> tuple[rules.Piece, ...]:
        """Return the cards and jokers of the entry, a joker with what it stood for."""
        return tuple(card.piece for card in self.cards)


class BookedLine(NamedTuple):
    """What the settlement of an ended game booked for one player."""

    game_id: int
    player_id: int
    hand: str | None
    hand_points: int | None
    factor: int
    gain: int
    meld_points: int


class AuditRow(NamedTuple):
    """A line of a game's audit trail as stored: a change after the fact, with its time.

    ``before`` and ``after`` are the entry as it was and as it became (``after`` is empty
    for a delete, an undo and a reopen); for a reopen ``before`` is the result taken back.
    """

    id: int
    game_id: int
    at: datetime
    action: str
    entry_id: int | None
    player_id: int | None
    kind: str | None
    before: dict[str, Any]
    after: dict[str, Any] | None


class GroupRow(NamedTuple):
    """A group of people who play together, as stored."""

    id: int
    public_id: str
    name: str
    edit_key_digest: str
    view_key_digest: str
    created_at: datetime


class MergeRow(NamedTuple):
    """Two names of a group's players counted as one person ("Anni" is "Anna")."""

    id: int
    name: str
    same_as: str


@dataclass(frozen=True)
class GameState:
    """A game with its session's players and its entries, as the store reads it."""

    id: int
    session_id: int
    number: int
    dealer_id: int
    status: str
    winner_id: int | None
    romme: bool | None
    variant: rules.Variant
    session_status: str
    # The game's players: those at the table when it was dealt, in seating order.
    players: list[PlayerRow]
    entries: list[EntryRow]
    session_public_id: str
    first_dealer_seat: int
    # What the settlement booked for each player (melds and settlement), once the game ended.
    booked: dict[int, int] | None = None
    # The session's other players: who joined after the game was dealt, or left before.
    others: list[PlayerRow] = field(default_factory=list)
    # The game's audit trail in time order, where an answer shows it (None: not read).
    audit: list[AuditRow] | None = None
    # The settlement's lines, player by player, once the game ended (empty while it is open).
    settlement_lines: list[BookedLine] = field(default_factory=list)

    @property
    def everyone(self) -> list[PlayerRow]:
        """Return every player of the session in seat order, those who left included."""
        return sorted([*self.players, *self.others], key=lambda player: player.seat)

    @property
    def dealer(self) -> PlayerRow:
        """Return the player who dealt the game."""
        return next(player for player in self.players if player.id == self.dealer_id)

    def points(self) -> dict[int, int]:
        """Return each player's points: booked once the game ended, else from the entries."""
        if self.booked is not None:
            return dict(self.booked)
        points = dict.fromkeys((player.id for player in self.players), 0)
        for entry in self.entries:
            points[entry.player_id] += entry.value
        return points


# --- what the rules make of the rows -----------------------------------------------------------


def dealer_of(
    variant: rules.Variant,
    first_dealer_seat: int,
    players: Sequence[PlayerRow],
    last: GameSummary | None,
) -> int:
    """Return the id of who deals the game in progress, or the next game when none is open.

    ``players`` are everyone of the session in seat order, those who left included; the rules'
    seating decides (``rules.Seating.dealer``).
    """
    places = {player.id: place for place, player in enumerate(players)}
    seating = seating_of((player.joined_game, player.left_game) for player in players)
    dealt = None
    if last is not None:
        winner = places.get(last.winner_id) if last.winner_id is not None else None
        dealt = rules.DealtGame(
            last.number, places[last.dealer_id], winner, still_open=last.status == "open"
        )
    return players[seating.dealer(variant, first_dealer_seat, dealt)].id


def seating_of(stays: Iterable[tuple[int, int | None]]) -> rules.Seating:
    """Return the rules' seating of a session from its players' (joined, left) in seat order."""
    return rules.Seating(tuple(rules.Stay(joined, left) for joined, left in stays))


class Deal(NamedTuple):
    """How a game is dealt: the cards each player gets and who plays first."""

    cards_dealt: int
    first_player: int


def deal_of(game: GameState) -> Deal:
    """Ask the rule system how many cards a game deals and who plays first."""
    variant, seats = game.variant, [player.id for player in game.players]
    dealer_seat = seats.index(game.dealer_id)
    first = variant.first_player_seat(dealer_seat, len(seats))
    return Deal(variant.cards_dealt(len(seats)), seats[first])


def table_of(game: GameState, before: int | None = None) -> rules.Table[int]:
    """Rebuild the table of a game from its entries, keyed by meld entry id.

    ``before`` stops at the entry in that position: the table as it lay when it was recorded.
    """
    entries = game.entries
    if before is not None:
        entries = [entry for entry in entries if entry.position < before]
    return rules.replay(table_entries(entries), game.variant)


def table_entries(entries: Sequence[EntryRow]) -> list[rules.TableEntry[int]]:
    """Return the rows of a game as the rules replay them: a swap with its new meld as one."""
    return rules.GameRecord(entries).table_entries()


def record_of(game: GameState) -> rules.GameRecord:
    """Return the game's entries as the rules judge a delete or a correction of one."""
    names = {player.id: player.name for player in game.players}
    return rules.GameRecord(game.entries, game.variant, names)


def melds_as_they_lay(entries: Sequence[EntryRow], variant: rules.Variant) -> dict[int, rules.Meld]:
    """Return the meld each layoff or swap row went onto, as it lay when it went on."""
    lay = rules.melds_as_they_lay(table_entries(entries), variant)
    # A swap replays under its new meld's row; the swap's own row names the meld it went onto.
    swaps = {entry.id for entry in entries if entry.kind == "swap"}
    swap_of = {
        entry.id: entry.group_id
        for entry in entries
        if entry.group_id in swaps and entry.kind != "swap"
    }
    return {swap_of.get(key, key): meld for key, meld in lay.items()}


def player_of(game: GameState, player_id: int) -> PlayerRow:
    """Return a player of the game, or refuse one who does not play in it."""
    player = next((player for player in game.players if player.id == player_id), None)
    if player is None:
        raise InvalidRequestError("no_such_player")
    return player


def refuse_closed(game: GameState) -> None:
    """Refuse a change to a game that is over: its entries are final."""
    if game.status != "open":
        raise ConflictError("game_over", number=game.number)


def entry_in(entries: Sequence[EntryRow], entry_id: int) -> EntryRow:
    """Return the entry with this id among a game's entries, or raise NotFoundError."""
    entry = next((entry for entry in entries if entry.id == entry_id), None)
    if entry is None:
        raise NotFoundError("no_entry")
    return entry
