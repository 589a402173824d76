"""What the templates draw: entries line by line, the melds, the latest games, the standing."""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from scorekeeper import queries, rules
from scorekeeper.web.playing_cards import card_label
from scorekeeper.web.words import language


def whose_entry(game: queries.GameState) -> int:
    """Return the id of the player to preselect: whoever recorded last, else who plays first.

    The rule system says who plays first (the dealer, or the dealer's left neighbour).
    """
    if game.entries:
        return game.entries[-1].player_id
    return queries.deal_of(game).first_player


@dataclass(frozen=True)
class EntryLine:
    """One entry as the recorder made it: a meld, melds put down together, a layoff or a swap.

    A joker swap is stored as the swap row and the new meld's row after it (grouped under the
    swap); melds put down together as one row each, grouped under the first.
    """

    rows: list[queries.EntryRow] = field(default_factory=list)

    @property
    def first(self) -> queries.EntryRow:
        """Return the entry's first row, whose id is the entry's id."""
        return self.rows[0]

    @property
    def kind(self) -> str:
        """Return ``meld``, ``melds`` (several at once), ``layoff`` or ``swap``."""
        if self.first.kind == "meld" and len(self.rows) > 1:
            return "melds"
        return self.first.kind

    @property
    def grouped(self) -> bool:
        """Tell whether the entry is more than one row (only deleted whole, never corrected)."""
        return len(self.rows) > 1

    @property
    def melds(self) -> list[queries.EntryRow]:
        """Return the melds the entry put down (a swap's new meld)."""
        return [row for row in self.rows if row.kind == "meld"]

    @property
    def value(self) -> int:
        """Return the value written for the entry, all its rows together."""
        return sum(row.value for row in self.rows)


def entry_lines(entries: Iterable[queries.EntryRow]) -> list[EntryLine]:
    """Return a game's entries one line per entry, grouped rows together, in recorded order."""
    lines: dict[int, EntryLine] = {}
    for entry in entries:
        key = entry.group_id if entry.group_id is not None else entry.id
        lines.setdefault(key, EntryLine()).rows.append(entry)
    return list(lines.values())


def entry_cards(entry: queries.EntryRow) -> str:
    """Return the cards an entry put down, in canonical form.

    A joker is shown with the card it stood for when it was put down, e.g. ``JKR=K♥``.
    """
    return " ".join(_stored_code(card) for card in entry.cards)


def entry_cards_label(entry: queries.EntryRow) -> str:
    """Return the cards an entry put down, in the page's language."""
    lang = language()
    return " ".join(card_label(_stored_code(card), lang) for card in entry.cards)


def _stored_code(card: queries.CardRow) -> str:
    """Return a stored card's code; a joker's with what it stood for, when it stood for one."""
    return f"{card.card}={card.stands_for}" if card.stands_for else card.card


def line_of(entries: Sequence[queries.EntryRow], entry_id: int) -> EntryLine:
    """Return the line of the entry a row belongs to."""
    return next(line for line in entry_lines(entries) if entry_id in {r.id for r in line.rows})


@dataclass(frozen=True)
class EntryShown:
    """All a page shows of one entry, as the ``entry`` macro of ``_parts.html`` draws it.

    The cards are stored codes (``JKR=K♥`` for a joker): ``melds`` holds each meld the entry
    put down together, ``onto`` the meld laid off onto or swapped from, ``joker_to`` the meld a
    swapped joker went into.
    """

    game_id: int
    id: int
    at: datetime
    name: str
    kind: str
    meld_kind: str | None
    cards: str
    melds: tuple[str, ...]
    onto: str
    joker_to: str
    value: int
    # When it was tapped on the phone, where that was more than a minute before it arrived
    # (``at``): sent from a phone that was offline. None where the two say the same.
    played: datetime | None = None


# Closer than this, the tap and the arrival are one moment to the people at the table.
_SAME_MOMENT = timedelta(minutes=1)


def played_apart(tapped: datetime | None, arrived: datetime) -> datetime | None:
    """Return the time an entry was tapped, where it differs from its arrival by over a minute."""
    if tapped is None:
        return None
    tapped, arrived = _utc_time(tapped), _utc_time(arrived)
    return tapped if abs(arrived - tapped) > _SAME_MOMENT else None


def entries_shown(
    rows: Sequence[queries.EntryRow],
    names: Mapping[int, str],
    game_id: int,
    variant: rules.Variant,
) -> list[EntryShown]:
    """Return what the pages show of each entry of a game (``entry_lines``), in order.

    A layoff or a swap shows its meld as it lay when the entry went on (a joker swapped out
    of it before has left it); a meld that no longer replays shows as it was recorded.
    """
    cards = {row.id: entry_cards(row) for row in rows}
    lay = {key: str(meld) for key, meld in queries.melds_as_they_lay(rows, variant).items()}
    shown = []
    for line in entry_lines(rows):
        first = line.first
        new_melds = line.melds
        shown.append(
            EntryShown(
                game_id=game_id,
                id=first.id,
                at=first.created_at,
                name=names[first.player_id],
                kind=line.kind,
                meld_kind=first.meld_kind,
                cards=cards[first.id],
                melds=tuple(cards[meld.id] for meld in line.rows) if line.kind == "melds" else (),
                onto=lay.get(first.id) or cards.get(first.meld_id or 0, ""),
                joker_to=cards[new_melds[0].id] if line.kind == "swap" and new_melds else "",
                value=line.value,
                played=played_apart(first.tapped_at, first.created_at),
            )
        )
    return shown


@dataclass(frozen=True)
class MeldShown:
    """A meld on the table as the entry form offers it: whose, its kind, its cards (codes)."""

    id: int
    name: str
    kind: str | None
    cards: str
    # The cards its jokers stand for, which may be put in their place ('' for no joker).
    places: str


def melds_shown(
    melds: Sequence[queries.EntryRow],
    table: rules.Table[int],
    jokers: Mapping[int, Sequence[str]],
    names: Mapping[int, str],
) -> list[MeldShown]:
    """Return the melds on the table as the entry form offers them, in the order recorded."""
    return [
        MeldShown(
            entry.id,
            names[entry.player_id],
            entry.meld_kind,
            " ".join(str(card) for card in table.melds[entry.id].cards),
            " ".join(jokers[entry.id]),
        )
        for entry in melds
    ]


@dataclass(frozen=True)
class PastShown:
    """An ended game in the session's latest games: who went out, everyone's points."""

    id: int
    number: int
    status: str
    romme: bool
    winner: str | None
    points: tuple[tuple[str, int], ...]


def past_shown(
    games: Iterable[queries.GameSummary],
    game_points: Mapping[int, Mapping[int, int]],
    names: Mapping[int, str],
) -> list[PastShown]:
    """Return what the session page shows of each ended game, in the games' order."""
    return [
        PastShown(
            game.id,
            game.number,
            game.status,
            bool(game.romme),
            names[game.winner_id] if game.winner_id is not None else None,
            tuple((names[player], points) for player, points in game_points[game.id].items()),
        )
        for game in games
    ]


@dataclass(frozen=True)
class StandingShown:
    """A player's row of the standing: the total, what is left to go, and the row's tags."""

    name: str
    total: int
    to_go: int | None
    leads: bool
    deals: bool
    left: bool


def standing_order(
    variant: rules.Variant, players: Sequence[queries.PlayerRow], totals: Mapping[int, int]
) -> list[queries.PlayerRow]:
    """Return the players in the order the rule system shows its standing (G7: fewest minus)."""
    by_id = {player.id: player for player in players}
    return [by_id[player] for player in variant.standing_order(list(by_id), totals)]


def standing_shown(
    session: queries.SessionRow,
    variant: rules.Variant,
    scores: queries.SessionScores,
    dealer_id: int,
) -> list[StandingShown]:
    """Return the standing's rows: the seated players in order, then those who left the table."""
    standing = scores.standing
    finished = session.status == "finished" and standing.winner is not None
    return [
        StandingShown(
            player.name,
            scores.totals[player.id],
            standing.to_go(player.id) if player.seated else None,
            finished and standing.winner == player.id,
            session.status == "open" and dealer_id == player.id,
            not player.seated,
        )
        for player in standing_order(variant, session.seated, scores.totals) + session.left
    ]


@dataclass(frozen=True)
class AuditShown:
    """A line of a game's audit trail as the history shows it: its time and its words."""

    at: datetime
    text: str
    kind: str = "audit"


def history_timeline(
    entries: Sequence[EntryShown],
    audit: Sequence[queries.AuditRow],
    names: Mapping[int, str],
    variant: rules.Variant,
) -> list[EntryShown | AuditShown]:
    """Return a game's entries and its audit lines in time order, in the page's language.

    An entry and a line of the same moment: the entry first. The cards stay codes, for the
    page's ``suits`` to show in its letters and colours.
    """
    shown = [
        AuditShown(line.at, queries.audit_text(line, names, variant, language(), codes=True))
        for line in audit
    ]
    merged: list[EntryShown | AuditShown] = []
    merged.extend(heapq.merge(entries, shown, key=lambda item: _utc_time(item.at)))
    return merged


def _utc_time(moment: datetime) -> datetime:
    # SQLite gives back the UTC times it stored without their zone.
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


@dataclass(frozen=True)
class KeptShown:
    """A session in the start page's list: its rule system, games ended, leaders or winner."""

    session: queries.SessionRow
    rule_system: str
    games_ended: int
    leaders: list[str]
    winner: str | None


def kept_shown(sessions: Sequence[queries.SessionRow]) -> list[KeptShown]:
    """Return the start page's rows of a phone's sessions, told apart by more than the time."""
    standings = queries.standings_of(sessions)
    shown = []
    for session in sessions:
        standing = standings[session.id]
        names = {player.id: player.name for player in session.players}
        ended = standing.games_ended
        shown.append(
            KeptShown(
                session,
                queries.variant_of(session).label(language()),
                ended,
                # Before the first game ends everyone leads: nobody is named.
                [names[player] for player in standing.leaders] if ended else [],
                names[standing.winner] if standing.winner is not None else None,
            )
        )
    return shown
