"""Use cases of the end of a game: settle it, abandon it, or take its booking back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from scorekeeper import rules
from scorekeeper.queries import SessionSummary, summary_after
from scorekeeper.services.evenings import evening_table_of, series_over_at_table
from scorekeeper.store import (
    BookedLine,
    ConflictError,
    GameState,
    InvalidRequestError,
    PlayerRow,
    UnitOfWork,
    player_of,
    refuse_closed,
    result_taken_back,
    seating_of,
    table_entries,
    table_of,
    unit_of_work,
    write_use_case,
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
) -> Finish:
    """Check and settle the end of a game without writing anything.

    A hand is the cards left in it as text, or the points the table counted (a whole number).
    ``hands=None`` gives no hands at all: with nobody out, the table gives the game up.
    """
    with unit_of_work() as uow:
        return _settle(uow, game_id, winner_id, hands, romme)


def _settle(
    uow: UnitOfWork,
    game_id: int,
    winner_id: int | None,
    hands: Mapping[int, str | int] | None,
    romme: bool | None,
) -> Finish:
    """Load an open game for its end and ask the rule system to settle it."""
    game = uow.games.get(game_id)
    refuse_closed(game)
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
) -> Finish:
    """Settle and close a game and check the target (R7).

    ``winner_id=None`` abandons it without hands (R6), or settles a game nobody went out of
    with every hand where the rule system does (F5).
    """
    with unit_of_work() as uow:
        finish = _settle(uow, game_id, winner_id, hands, romme)
        game = finish.game
        meld_points = finish.table_points
        ended = replace(
            game,
            status="abandoned" if finish.settlement.abandoned else "finished",
            winner_id=finish.winner.id if finish.winner else None,
            romme=finish.romme if finish.winner else None,
        )
        uow.games.end(game.id, ended.status, ended.winner_id, ended.romme)
        gains = finish.settlement.gains
        lines = [
            BookedLine(
                game_id=game.id,
                player_id=player.id,
                hand=(
                    rules.cards_text(finish.hands[player.id]) if player.id in finish.hands else None
                ),
                hand_points=finish.hand_points.get(player.id),
                factor=finish.settlement.factors.get(player.id, 1),
                gain=gains[player.id],
                meld_points=meld_points[player.id],
            )
            for player in game.players
        ]
        uow.games.settle(lines)
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
        uow.sessions.bank({player.id: player.banked for player in players})
        # Games are numbered in order and only the latest can be open: all of them have ended.
        session_status = game.session_status
        table = evening_table_of(uow, game.session_id)
        # A table of an evening ends with its series, a tie at its top included (E8).
        over = (
            booking.session_won if table is None else series_over_at_table(uow, table, game.number)
        )
        if over:
            session_status = "finished"
            uow.sessions.set_status(game.session_id, "finished")
        ended = replace(
            ended,
            session_status=session_status,
            players=players,
            booked=booking.booked,
            settlement_lines=lines,
        )
        # Read the session for the answer now: after the commit it would be a second
        # transaction, waiting in line behind every other writer again.
        summary = summary_after(ended)
        uow.commit(game.session_id)
    return replace(finish, game=ended, session=summary)


def abandon_game(game_id: int) -> Finish:
    """Abandon a game (R6): its melds stand, no hand cards are scored, nobody wins it."""
    return finish_game(game_id, None, None, None)


@write_use_case
def reopen_game(game_id: int) -> GameState:
    """Take back the booking of a session's last ended game, and play that game on.

    For a settlement entered wrong (the winner, a hand): what it banked comes off the totals,
    the game is open again with its entries, and a session it had won plays on. A next game
    that was dealt but has no entry yet goes; one with entries keeps this game closed.
    """
    with unit_of_work() as uow:
        game = uow.games.get(game_id)
        if game.status == "open":
            raise ConflictError("game_not_ended", number=game.number)
        # On PostgreSQL the session row and the later games are locked: a start of the next
        # game, or an entry into it, waits, and is then seen here.
        uow.sessions.lock(game.session_id)
        table = evening_table_of(uow, game.session_id)
        if table is not None and table.series < table.latest_series:
            # The next series was seated by the standing this game is part of.
            raise ConflictError("series_closed", number=table.series)
        later = uow.games.later(game.session_id, game.number)
        if later:
            # Read after the lock: a change of the seating waits for it (sessions.py).
            seating = seating_of(uow.sessions.stays(game.session_id))
            refusal = seating.reopen_refusal(
                game.number,
                [
                    rules.LaterGame(
                        next_game.number,
                        still_open=next_game.status == "open",
                        played=uow.games.played(next_game.id),
                    )
                    for next_game in later
                ],
            )
            if refusal is not None and refusal.reason == "later_game_played":
                raise ConflictError(refusal.reason, number=refusal.later)
            if refusal is not None:
                raise ConflictError(refusal.reason, number=refusal.number, later=refusal.later)
        for next_game in later:
            # Its trail goes with it (entries recorded and undone there): the game is gone.
            uow.games.delete(next_game.id)
        lines = game.settlement_lines
        uow.audit.write(game.id, "reopened", result_taken_back(game, lines))
        booked = {line.player_id: line.meld_points + line.gain for line in lines}
        totals = rules.take_back({player.id: player.banked for player in game.players}, booked)
        players = [player._replace(banked=totals[player.id]) for player in game.players]
        uow.sessions.bank({player.id: player.banked for player in players})
        uow.games.unsettle(game.id)
        uow.games.end(game.id, "open", None, None)
        uow.sessions.set_status(game.session_id, "open")
        # Read for the answer now: after the commit it would be a second transaction.
        audit = uow.audit.of_game(game.id)
        uow.commit(game.session_id)
    return replace(
        game,
        status="open",
        winner_id=None,
        romme=None,
        session_status="open",
        players=players,
        booked=None,
        audit=audit,
        settlement_lines=[],
    )
