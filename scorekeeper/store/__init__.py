"""The store: the only place that reads and writes the database (repository and unit of work).

A use case (``scorekeeper.services``) opens the request's unit of work, loads through its
repositories (``uow.games``, ``uow.sessions``, ``uow.groups``, ``uow.audit``), asks the rules,
saves through them and commits; the read side (``scorekeeper.queries``) reads through
``uow.reads`` and the same repositories. Above the store nobody writes SQL nor sees an ORM
object: what it hands out are the typed rows of ``store.rows``.
"""

from scorekeeper.store.audit import (
    booked_result,
    entry_as_it_stood,
    line_problem,
    recomputed_result,
    result_taken_back,
    stored_piece,
)
from scorekeeper.store.errors import (
    MESSAGES,
    ConflictError,
    InvalidRequestError,
    NotFoundError,
    ServiceError,
)
from scorekeeper.store.records import Pending, RecordRow, write_with_each_change
from scorekeeper.store.rows import (
    JOKER,
    LARGEST_ID,
    AuditRow,
    BookedLine,
    CardRow,
    Deal,
    EntryRow,
    GameState,
    GameSummary,
    GroupRow,
    MergeRow,
    PlayerRow,
    SessionRow,
    deal_of,
    dealer_of,
    entry_in,
    melds_as_they_lay,
    player_of,
    record_of,
    refuse_closed,
    rule_system,
    seating_of,
    table_entries,
    table_of,
    variant_of,
)
from scorekeeper.store.unit_of_work import UnitOfWork, rollback, unit_of_work, write_use_case

__all__ = [
    "JOKER",
    "LARGEST_ID",
    "MESSAGES",
    "AuditRow",
    "BookedLine",
    "CardRow",
    "ConflictError",
    "Deal",
    "EntryRow",
    "GameState",
    "GameSummary",
    "GroupRow",
    "InvalidRequestError",
    "MergeRow",
    "NotFoundError",
    "Pending",
    "PlayerRow",
    "RecordRow",
    "ServiceError",
    "SessionRow",
    "UnitOfWork",
    "booked_result",
    "deal_of",
    "dealer_of",
    "entry_as_it_stood",
    "entry_in",
    "line_problem",
    "melds_as_they_lay",
    "player_of",
    "recomputed_result",
    "record_of",
    "refuse_closed",
    "result_taken_back",
    "rollback",
    "rule_system",
    "seating_of",
    "stored_piece",
    "table_entries",
    "table_of",
    "unit_of_work",
    "variant_of",
    "write_use_case",
    "write_with_each_change",
]
