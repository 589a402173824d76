"""The audit trail: every correction, delete, undo and reopen of a game, kept with its time.

And a game an import settled again by today's rules (``recomputed``), with both bookings.

The use cases write a line in the transaction of their change, from what they read already
(one INSERT); the line records what was and what it became, never a judgement, and no points
are read from it. A game's lines (the API) or a session's (the history) are read in one query
each; what a line holds is checked here too, for lines that come from an import. The read side
says a line in words (``queries.audit``).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from scorekeeper import rules
from scorekeeper.models import utcnow
from scorekeeper.store.rows import AuditRow, BookedLine, EntryRow, GameState
from scorekeeper.store.tables import AUDIT_LINES, GAMES

if TYPE_CHECKING:
    from scorekeeper.store.unit_of_work import UnitOfWork


class AuditTrail:
    """The audit trails of the games: written with each change, read for the answers."""

    def __init__(self, uow: UnitOfWork) -> None:
        self._uow = uow

    def write(
        self,
        game_id: int,
        action: str,
        before: Mapping[str, Any],
        after: Mapping[str, Any] | None = None,
    ) -> None:
        """Insert one line of a game's audit trail, in the transaction of the change it records.

        ``before`` (and ``after``) is an entry as ``entry_as_it_stood`` gives it, or for a
        reopen the result as ``result_taken_back`` gives it.
        """
        self._uow.write(
            _INSERT,
            {
                "game_id": game_id,
                "at": utcnow(),
                "action": action,
                "entry_id": before.get("id"),
                "player_id": before.get("player", before.get("winner")),
                "kind": before.get("type"),
                "before": json.dumps(before, ensure_ascii=False, sort_keys=True),
                "after": None
                if after is None
                else json.dumps(after, ensure_ascii=False, sort_keys=True),
            },
        )

    def forget(self, game_id: int) -> None:
        """Delete the lines of a game that is removed itself (a game dealt and not played)."""
        self._uow.write(_FORGET, {"game": game_id})

    def of_game(self, game_id: int) -> list[AuditRow]:
        """Return a game's audit trail in time order, in one query."""
        return [_row(row) for row in self._uow.read(_OF_GAME, {"game": game_id})]

    def of_session(
        self, session_id: int, numbers: tuple[int, int] | None = None
    ) -> dict[int, list[AuditRow]]:
        """Return the audit trail of a session's games by game, in one query.

        Of every game, or of those numbered ``numbers`` (first, last): a page of the history.
        """
        lines: dict[int, list[AuditRow]] = defaultdict(list)
        if numbers is None:
            rows = self._uow.read(_OF_SESSION, {"session": session_id})
        else:
            first, last = numbers
            parameters = {"session": session_id, "first": first, "last": last}
            rows = self._uow.read(_OF_SESSION_NUMBERS, parameters)
        for row in rows:
            line = _row(row)
            lines[line.game_id].append(line)
        return dict(lines)


_INSERT = sa.insert(AUDIT_LINES)
_FORGET = sa.delete(AUDIT_LINES).where(AUDIT_LINES.c.game_id == sa.bindparam("game"))


def entry_as_it_stood(entry: EntryRow, entries: Sequence[EntryRow]) -> dict[str, Any]:
    """Return an entry (all its rows) as it stood among a game's ``entries``, for a line.

    As the game's ``entries`` show it (its id, type, player, meld, melds, cards, value), and
    ``onto``: the cards of the meld a layoff or swap went onto, as that meld was recorded, and
    ``meld_cards``: the cards of each meld the entry put down (a swap's new meld). A joker is
    written with the card it stood for, where it stood for one (``JKR=7♠``).
    """
    rows = [row for row in entries if row.entry_id == entry.entry_id] or [entry]
    first = rows[0]
    stood: dict[str, Any] = {
        "id": first.id,
        "type": first.kind,
        "player": first.player_id,
        "meld": first.id if first.kind == "meld" else first.meld_id,
        "cards": [code for row in rows for code in _codes(row)],
        "value": sum(row.value for row in rows),
    }
    if first.kind != "layoff":
        melds = [row for row in rows if row.kind == "meld"]
        stood["melds"] = [row.id for row in melds]
        stood["meld_cards"] = [_codes(row) for row in melds]
    if first.kind != "meld":
        onto = next((row for row in entries if row.id == first.meld_id), None)
        stood["onto"] = _codes(onto) if onto is not None else []
    return stood


def result_taken_back(game: GameState, lines: Sequence[BookedLine]) -> dict[str, Any]:
    """Return what the end of a game booked, from its settlement lines, for a reopen's line.

    Keyed as the finish answers: the status, ``winner``, ``romme``, the ``hands`` given as
    cards, ``hand_points`` (before doubling), ``factors``, ``settlement`` (the points gained)
    and ``points`` (what the game booked, melds included).
    """
    return booked_result(
        game.status, game.winner_id, game.romme, [line._asdict() for line in lines]
    )


def booked_result(
    status: str, winner: int | None, romme: bool | None, lines: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """Return what the end of a game booked, from its settlement lines as mappings of columns."""
    return {
        "status": status,
        "winner": winner,
        "romme": romme,
        "hands": {str(line["player_id"]): line["hand"].split() for line in lines if line["hand"]},
        "hand_points": {
            str(line["player_id"]): line["hand_points"]
            for line in lines
            if line["hand_points"] is not None
        },
        "factors": {str(line["player_id"]): line["factor"] for line in lines},
        "settlement": {str(line["player_id"]): line["gain"] for line in lines},
        "points": {str(line["player_id"]): line["meld_points"] + line["gain"] for line in lines},
    }


def recomputed_result(after: Mapping[str, Any], ruling: rules.Message) -> dict[str, Any]:
    """Return a recomputed game's ``after``: today's booking and the ruling that changed it.

    The ruling is kept by its message id and params; the winner's name is said when the line
    is read, so that a later rename shows.
    """
    params = {key: value for key, value in ruling.params.items() if key != "name"}
    return {**after, "ruling": {"message": ruling.message_id, **params}}


def _codes(entry: EntryRow) -> list[str]:
    return [
        f"{card.card}={card.stands_for}" if card.stands_for else card.card for card in entry.cards
    ]


# --- reading -----------------------------------------------------------------------------------


_COLUMNS = (
    AUDIT_LINES.c.id,
    AUDIT_LINES.c.game_id,
    AUDIT_LINES.c.at,
    AUDIT_LINES.c.action,
    AUDIT_LINES.c.entry_id,
    AUDIT_LINES.c.player_id,
    AUDIT_LINES.c.kind,
    AUDIT_LINES.c.before,
    AUDIT_LINES.c.after,
)


_OF_GAME = (
    sa.select(*_COLUMNS)
    .where(AUDIT_LINES.c.game_id == sa.bindparam("game"))
    .order_by(AUDIT_LINES.c.at, AUDIT_LINES.c.id)
)


_OF_SESSION = (
    sa.select(*_COLUMNS)
    .select_from(AUDIT_LINES.join(GAMES, GAMES.c.id == AUDIT_LINES.c.game_id))
    .where(GAMES.c.session_id == sa.bindparam("session"))
    .order_by(AUDIT_LINES.c.at, AUDIT_LINES.c.id)
)
# The audit trail of a session's games numbered ``first`` to ``last`` (a page of the history).
_OF_SESSION_NUMBERS = _OF_SESSION.where(
    GAMES.c.number.between(sa.bindparam("first"), sa.bindparam("last"))
)


def _row(row: Sequence[Any]) -> AuditRow:
    line_id, game_id, at, action, entry_id, player_id, kind, before, after = row
    return AuditRow(
        line_id,
        game_id,
        at,
        action,
        entry_id,
        player_id,
        kind,
        before=json.loads(before),
        after=json.loads(after) if after is not None else None,
    )


# --- the shape of a line, for lines that come from elsewhere (an import) ---------------------


def line_problem(action: str, before: object, after: object) -> str | None:
    """Say what keeps a line from being read and said in words, or None when nothing does.

    A line's ``before`` and ``after`` are written by ``write_line`` alone; a line brought in
    by an import is held to the same shape: an entry as ``entry_as_it_stood`` gives it (a
    correction's ``after`` too), or for a reopen a result as ``result_taken_back`` gives it.
    """
    if action == "reopened":
        if after is not None:
            return "after: a reopen has no after (null)"
        return _result_problem(before)
    if action == "recomputed":
        problem = _result_problem(before)
        if problem is not None:
            return problem
        if not isinstance(after, dict):
            return "after: not a result (an object)"
        return _ruling_problem(after.get("ruling")) or _result_problem(
            {key: value for key, value in after.items() if key != "ruling"}, "after"
        )
    if action != "corrected" and after is not None:
        return f"after: a line of {action} has no after (null)"
    problem = _entry_problem(before)
    if problem is not None:
        return f"before: {problem}"
    if action == "corrected":
        problem = _entry_problem(after)
        if problem is not None:
            return f"after: {problem}"
    return None


_ENTRY_KEYS = {"id", "type", "player", "meld", "cards", "value", "melds", "meld_cards", "onto"}
_RESULT_KEYS = {"status", "winner", "romme", "hands", "hand_points", "factors", "settlement"}


def _entry_problem(stood: object) -> str | None:
    if not isinstance(stood, dict):
        return "not an entry (an object)"
    missing = sorted({"id", "type", "player", "cards", "value"} - stood.keys())
    if missing:
        return f"the entry has no {', '.join(map(repr, missing))}"
    unknown = sorted(stood.keys() - _ENTRY_KEYS)
    if unknown:
        return f"the entry has unknown {', '.join(map(repr, unknown))}"
    if stood["type"] not in ("meld", "layoff", "swap"):
        return f"type: {stood['type']!r} is not 'meld', 'layoff' or 'swap'"
    for key in ("id", "player", "value"):
        if not _whole(stood[key]):
            return f"{key}: {stood[key]!r} is not a whole number"
    if "meld" in stood and stood["meld"] is not None and not _whole(stood["meld"]):
        return f"meld: {stood['meld']!r} is not a whole number"
    if "melds" in stood and not (
        isinstance(stood["melds"], list) and all(map(_whole, stood["melds"]))
    ):
        return "melds: not a list of whole numbers"
    lists = [("cards", stood["cards"]), ("onto", stood.get("onto", []))]
    melds = stood.get("meld_cards", [])
    if not isinstance(melds, list):
        return "meld_cards: not a list"
    lists += [(f"meld_cards[{index}]", meld) for index, meld in enumerate(melds)]
    for key, codes in lists:
        problem = _codes_problem(codes)
        if problem is not None:
            return f"{key}: {problem}"
    return None


def _result_problem(result: object, side: str = "before") -> str | None:
    if not isinstance(result, dict):
        return f"{side}: not a result (an object)"
    missing = sorted((_RESULT_KEYS | {"points"}) - result.keys())
    if missing:
        return f"{side}: the result has no {', '.join(map(repr, missing))}"
    unknown = sorted(result.keys() - _RESULT_KEYS - {"points"})
    if unknown:
        return f"{side}: the result has unknown {', '.join(map(repr, unknown))}"
    if not isinstance(result["status"], str):
        return f"{side}.status: {result['status']!r} is not a text"
    if result["winner"] is not None and not _whole(result["winner"]):
        return f"{side}.winner: {result['winner']!r} is not a player's id"
    if result["romme"] is not None and not isinstance(result["romme"], bool):
        return f"{side}.romme: {result['romme']!r} is not true, false or null"
    for key in ("hands", "hand_points", "factors", "settlement", "points"):
        by_player = result[key]
        if not isinstance(by_player, dict) or not all(map(_player_key, by_player)):
            return f"{side}.{key}: not an object keyed by players' ids"
        for player, value in by_player.items():
            problem = _codes_problem(value) if key == "hands" else None
            if key != "hands" and not _whole(value):
                problem = f"{value!r} is not a whole number"
            if problem is not None:
                return f"{side}.{key}.{player}: {problem}"
    return None


# What the rules' message of each ruling made since takes besides the player's name.
_RULING_PARAMS = {
    "settlement.romme_too_few_cards": {"count", "dealt"},
    "settlement.romme_too_few_cards_first_turn": {"count", "least", "dealt"},
}


def _ruling_problem(ruling: object) -> str | None:
    if not isinstance(ruling, dict) or ruling.get("message") not in rules.RULINGS_SINCE:
        return "after.ruling: not a ruling made since (an object with its message)"
    params = _RULING_PARAMS[ruling["message"]]
    if ruling.keys() != params | {"message"} or not all(_whole(ruling[key]) for key in params):
        return f"after.ruling: {ruling['message']!r} takes the whole numbers {sorted(params)}"
    return None


def _codes_problem(codes: object) -> str | None:
    if not isinstance(codes, list):
        return "not a list of cards"
    for code in codes:
        try:
            if isinstance(code, str):
                stored_piece(code)
                continue
        except rules.RulesError:
            pass
        return f"{code!r} is not a card"
    return None


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _player_key(key: str) -> bool:
    return key.isascii() and key.isdigit()


def stored_piece(code: str) -> rules.Piece:
    """Return the card or joker (``JKR``, ``JKR=7♠``) a stored code names."""
    if code.upper().startswith("JKR"):
        return rules.Joker.from_code(code)
    return rules.Card.from_code(code)
