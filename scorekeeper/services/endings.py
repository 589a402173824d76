"""Use cases of the end of a game: settle it, abandon it, or take its booking back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import sqlalchemy as sa

from scorekeeper import rules
from scorekeeper.extensions import db
from scorekeeper.models import utcnow
from scorekeeper.services.audit import forget_lines, game_audit, result_taken_back, write_line
from scorekeeper.services.errors import ConflictError, InvalidRequestError, write_use_case
from scorekeeper.services.reads import SessionSummary, summary_after
from scorekeeper.services.rows import (
    ENTRIES,
    GAMES,
    PLAYERS,
    SESSIONS,
    SETTLEMENT_LINES,
    CheckedGame,
    GameState,
    PlayerRow,
    commit,
    game_state,
    open_state,
    player_of,
    seating_of,
    table_entries,
    table_of,
)

_END_GAME = (
    sa.update(GAMES)
    .where(GAMES.c.id == sa.bindparam("game"))
    .values(
        status=sa.bindparam("status"),
        winner_id=sa.bindparam("winner"),
        romme=sa.bindparam("romme"),
        ended_at=sa.bindparam("ended_at"),
    )
)


_INSERT_SETTLEMENT_LINES = sa.insert(SETTLEMENT_LINES)


_BANK = (
    sa.update(PLAYERS)
    .where(PLAYERS.c.id == sa.bindparam("player"))
    .values(banked=sa.bindparam("total"))
)


_END_SESSION = (
    sa.update(SESSIONS).where(SESSIONS.c.id == sa.bindparam("session")).values(status="finished")
)


@dataclass(frozen=True)
class Finish:
    """The settlement of a game as it is (or would be) booked."""

    game: GameState
    winner: PlayerRow | None
    romme: bool
    romme_possible: bool
    hands: dict[int, list[rules.Piece]]
    settlement: rules.GameSettlement[int]
    hand_points: dict[int, int] = field(default_factory=dict)
    # The session after the finish, read before its commit (None for a preview).
    session: SessionSummary | None = None
    # What each player's melds and layoffs of the game scored.
    table_points: dict[int, int] = field(default_factory=dict)

    @property
    def booked(self) -> dict[int, int]:
        """Return what the game books (or would book) for each player: table and settlement."""
        return rules.booked_points(self.table_points, self.settlement.gains)


def preview_finish(
    game_id: int,
    winner_id: int | None,
    hands: Mapping[int, str | int] | None,
    romme: bool | None = None,
    *,
    checked: CheckedGame | None = None,
) -> Finish:
    """Check and settle the end of a game without writing anything.

    A hand is the cards left in it as text, or the points the table counted (a whole number).
    ``hands=None`` gives no hands at all: with nobody out, the table gives the game up.
    ``checked`` is what the request's key check read of the game (``rows.game_state``).
    """
    game = open_state(db.session.connection(), game_id, checked)
    if winner_id is not None:
        player_of(game, winner_id)
    names = {player.id: player.name for player in game.players}
    parsed: dict[int, list[rules.Piece] | int] | None = None
    if hands is not None:
        parsed = {}
        for player_id, hand in game.variant.hands_settled(winner_id, hands).items():
            if player_id not in names:
                raise InvalidRequestError("hand_of_a_stranger")
            parsed[player_id] = hand if isinstance(hand, int) else game.variant.read_cards(hand)
    replayed = table_entries(game.entries)
    player_of_row = {entry.id: entry.player_id for entry in game.entries}
    settlement = game.variant.finish(
        names,
        winner_id,
        parsed,
        entry_players=[player_of_row[entry.key] for entry in replayed],
        entry_cards=[entry.from_hand for entry in replayed],
        on_table=table_of(game).lying() if winner_id is not None or parsed else (),
        romme=romme,
        dealer=game.dealer_id,
    )
    winner = player_of(game, winner_id) if winner_id is not None else None
    hand_cards = {key: cards for key, cards in (parsed or {}).items() if not isinstance(cards, int)}
    return Finish(
        game,
        winner,
        settlement.romme,
        settlement.romme_possible,
        hand_cards,
        settlement,
        settlement.hand_points,
        table_points=game.points(),  # while the game is open: its entries
    )


@write_use_case
def finish_game(
    game_id: int,
    winner_id: int | None,
    hands: Mapping[int, str | int] | None,
    romme: bool | None = None,
    *,
    checked: CheckedGame | None = None,
) -> Finish:
    """Settle and close a game and check the target (R7).

    ``winner_id=None`` abandons it without hands (R6), or settles a game nobody went out of
    with every hand where the rule system does (F5).
    """
    finish = preview_finish(game_id, winner_id, hands, romme, checked=checked)
    game = finish.game
    meld_points = finish.table_points
    ended = replace(
        game,
        status="abandoned" if finish.settlement.abandoned else "finished",
        winner_id=finish.winner.id if finish.winner else None,
        romme=finish.romme if finish.winner else None,
    )
    connection = db.session.connection()
    connection.execute(
        _END_GAME,
        {
            "game": game.id,
            "status": ended.status,
            "winner": ended.winner_id,
            "romme": ended.romme,
            "ended_at": utcnow(),
        },
    )
    gains = finish.settlement.gains
    connection.execute(
        _INSERT_SETTLEMENT_LINES,
        [
            {
                "game_id": game.id,
                "player_id": player.id,
                "hand": (
                    rules.cards_text(finish.hands[player.id]) if player.id in finish.hands else None
                ),
                "hand_points": finish.hand_points.get(player.id),
                "factor": finish.settlement.factors.get(player.id, 1),
                "gain": gains[player.id],
                "meld_points": meld_points[player.id],
            }
            for player in game.players
        ],
    )
    everyone = [*game.players, *game.others]
    booking = rules.book_game(
        game.variant,
        game.number,
        {player.id: player.banked for player in everyone},
        meld_points,
        gains,
        {player.id for player in everyone if player.seated},
    )
    players = [player._replace(banked=booking.totals[player.id]) for player in game.players]
    connection.execute(_BANK, [{"player": player.id, "total": player.banked} for player in players])
    # Games are numbered in order and only the latest can be open: all of them have ended now.
    session_status = game.session_status
    if booking.session_won:
        session_status = "finished"
        connection.execute(_END_SESSION, {"session": game.session_id})
    booked = booking.booked
    ended = replace(ended, session_status=session_status, players=players, booked=booked)
    # Read the session for the answer now: after the commit it would be a second transaction,
    # waiting in line behind every other writer again.
    summary = summary_after(connection, ended)
    commit(game.session_id)
    return replace(finish, game=ended, session=summary)


def abandon_game(game_id: int, *, checked: CheckedGame | None = None) -> Finish:
    """Abandon a game (R6): its melds stand, no hand cards are scored, nobody wins it."""
    return finish_game(game_id, None, None, None, checked=checked)


@write_use_case
def reopen_game(game_id: int, *, checked: CheckedGame | None = None) -> GameState:
    """Take back the booking of a session's last ended game, and play that game on.

    For a settlement entered wrong (the winner, a hand): what it banked comes off the totals,
    the game is open again with its entries, and a session it had won plays on. A next game
    that was dealt but has no entry yet goes; one with entries keeps this game closed.
    """
    connection = db.session.connection()
    game = game_state(connection, game_id, checked=checked)
    if game.status == "open":
        raise ConflictError("game_not_ended", number=game.number)
    # On PostgreSQL the session row and the later games are locked: a start of the next game,
    # or an entry into it, waits, and is then seen here.
    connection.execute(_LOCK_SESSION, {"session": game.session_id})
    later = connection.execute(
        _LATER_GAMES, {"session": game.session_id, "number": game.number}
    ).all()
    if later:
        # Read after the lock: a change of the seating waits for it (sessions.py).
        seating = seating_of(connection.execute(_STAYS, {"session": game.session_id}).all())
        refusal = seating.reopen_refusal(
            game.number,
            [
                rules.LaterGame(
                    number,
                    still_open=status == "open",
                    played=bool(connection.execute(_ENTRIES_IN, {"game": later_id}).scalar()),
                )
                for later_id, number, status in later
            ],
        )
        if refusal is not None and refusal.reason == "later_game_played":
            raise ConflictError(refusal.reason, number=refusal.later)
        if refusal is not None:
            raise ConflictError(refusal.reason, number=refusal.number, later=refusal.later)
    for later_id, _number, _status in later:
        # Its trail goes with it (entries recorded and undone there): the game is gone.
        forget_lines(connection, later_id)
        connection.execute(_DELETE_GAME, {"game": later_id})
    lines = connection.execute(_SETTLEMENT_OF, {"game": game.id}).all()
    write_line(connection, game.id, "reopened", result_taken_back(game, lines))
    booked = {line.player_id: line.meld_points + line.gain for line in lines}
    totals = rules.take_back({player.id: player.banked for player in game.players}, booked)
    players = [player._replace(banked=totals[player.id]) for player in game.players]
    connection.execute(_BANK, [{"player": player.id, "total": player.banked} for player in players])
    connection.execute(_DELETE_SETTLEMENT, {"game": game.id})
    connection.execute(
        _END_GAME,
        {"game": game.id, "status": "open", "winner": None, "romme": None, "ended_at": None},
    )
    connection.execute(_REOPEN_SESSION, {"session": game.session_id})
    # Read for the answer now: after the commit it would be a second transaction.
    audit = game_audit(connection, game.id)
    commit(game.session_id)
    return replace(
        game,
        status="open",
        winner_id=None,
        romme=None,
        session_status="open",
        players=players,
        booked=None,
        audit=audit,
    )


_LOCK_SESSION = (
    sa.select(SESSIONS.c.id).where(SESSIONS.c.id == sa.bindparam("session")).with_for_update()
)


_LATER_GAMES = (
    sa.select(GAMES.c.id, GAMES.c.number, GAMES.c.status)
    .where(GAMES.c.session_id == sa.bindparam("session"))
    .where(GAMES.c.number > sa.bindparam("number"))
    .order_by(GAMES.c.number)
    .with_for_update()
)


# When each player of a session joined and left, as the seating counts it.
_STAYS = sa.select(PLAYERS.c.joined_game, PLAYERS.c.left_game).where(
    PLAYERS.c.session_id == sa.bindparam("session")
)


_ENTRIES_IN = (
    sa.select(sa.func.count()).select_from(ENTRIES).where(ENTRIES.c.game_id == sa.bindparam("game"))
)


_DELETE_GAME = sa.delete(GAMES).where(GAMES.c.id == sa.bindparam("game"))


# What the settlement booked, and (for the audit trail) the hands it booked, in seat order.
_SETTLEMENT_OF = (
    sa.select(
        SETTLEMENT_LINES.c.player_id,
        SETTLEMENT_LINES.c.meld_points,
        SETTLEMENT_LINES.c.gain,
        SETTLEMENT_LINES.c.hand,
        SETTLEMENT_LINES.c.hand_points,
        SETTLEMENT_LINES.c.factor,
    )
    .where(SETTLEMENT_LINES.c.game_id == sa.bindparam("game"))
    .order_by(SETTLEMENT_LINES.c.id)
)


_DELETE_SETTLEMENT = sa.delete(SETTLEMENT_LINES).where(
    SETTLEMENT_LINES.c.game_id == sa.bindparam("game")
)


_REOPEN_SESSION = (
    sa.update(SESSIONS).where(SESSIONS.c.id == sa.bindparam("session")).values(status="open")
)
