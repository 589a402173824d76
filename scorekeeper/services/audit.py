"""The audit trail: every correction, delete, undo and reopen of a game, kept with its time.

And a game an import settled again by today's rules (``recomputed``), with both bookings.

The use cases write a line in the transaction of their change, from what they read already
(one INSERT); the line records what was and what it became, never a judgement, and no points
are read from it. The read side gives a game's lines (the API) or a session's (the history) in
one query each, and says a line in words in a language.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import sqlalchemy as sa

from scorekeeper import rules
from scorekeeper.extensions import db
from scorekeeper.models import AuditLine, utcnow
from scorekeeper.services.rows import GAMES, AuditRow, EntryRow, GameState

AUDIT_LINES = AuditLine.__table__

# What a line says, by action and by the kind of entry it names (gettext msgids).
WORDINGS: dict[str, rules.Wording] = {
    "corrected": rules.wording("corrected: %(changes)s"),
    "deleted": rules.wording("deleted: %(entry)s"),
    "undone": rules.wording("undone: %(entry)s"),
    "restored": rules.wording("restored: %(entry)s"),
    "moved": rules.wording("onto %(before)s → %(after)s"),
    "meld": rules.wording("%(name)s's meld %(cards)s"),
    "melds": rules.wording("%(name)s's melds %(cards)s"),
    "layoff": rules.wording("%(name)s's layoff %(cards)s onto %(meld)s"),
    "swap": rules.wording(
        "%(name)s's joker swap: %(cards)s for the joker in %(meld)s, the joker into %(new_meld)s"
    ),
    "reopened": rules.wording("reopened: %(name)s had won; hands: %(hands)s; points: %(points)s"),
    "reopened_romme": rules.wording(
        "reopened: %(name)s had won with a Rommé hand; hands: %(hands)s; points: %(points)s"
    ),
    "reopened_abandoned": rules.wording(
        "reopened: the game had been abandoned; points: %(points)s"
    ),
    "reopened_nobody_out": rules.wording(
        "reopened: nobody had gone out; hands: %(hands)s; points: %(points)s"
    ),
    "recomputed": rules.wording("recomputed when imported: %(reason)s Points: %(points)s"),
}


# --- writing -----------------------------------------------------------------------------------


_INSERT = sa.insert(AUDIT_LINES)


def write_line(
    connection: sa.Connection,
    game_id: int,
    action: str,
    before: Mapping[str, Any],
    after: Mapping[str, Any] | None = None,
) -> None:
    """Insert one line of a game's audit trail, in the transaction of the change it records.

    ``before`` (and ``after``) is an entry as ``entry_as_it_stood`` gives it, or for a reopen
    the result as ``result_taken_back`` gives it.
    """
    connection.execute(
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


_FORGET = sa.delete(AUDIT_LINES).where(AUDIT_LINES.c.game_id == sa.bindparam("game"))


def forget_lines(connection: sa.Connection, game_id: int) -> None:
    """Delete the lines of a game that is removed itself (a game dealt and not played)."""
    connection.execute(_FORGET, {"game": game_id})


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


def result_taken_back(game: GameState, lines: Sequence[Any]) -> dict[str, Any]:
    """Return what the end of a game booked, from its settlement lines, for a reopen's line.

    Keyed as the finish answers: the status, ``winner``, ``romme``, the ``hands`` given as
    cards, ``hand_points`` (before doubling), ``factors``, ``settlement`` (the points gained)
    and ``points`` (what the game booked, melds included).
    """
    return booked_result(game.status, game.winner_id, game.romme, [line._mapping for line in lines])


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


def game_audit(connection: sa.Connection, game_id: int) -> list[AuditRow]:
    """Return a game's audit trail in time order, in one query."""
    return [_row(row) for row in connection.execute(_OF_GAME, {"game": game_id})]


def session_audit(
    session_id: int, numbers: tuple[int, int] | None = None
) -> dict[int, list[AuditRow]]:
    """Return the audit trail of a session's games by game, in one query.

    Of every game, or of those numbered ``numbers`` (first, last): a page of the history.
    """
    lines: dict[int, list[AuditRow]] = defaultdict(list)
    if numbers is None:
        rows = db.session.connection().execute(_OF_SESSION, {"session": session_id})
    else:
        first, last = numbers
        parameters = {"session": session_id, "first": first, "last": last}
        rows = db.session.connection().execute(_OF_SESSION_NUMBERS, parameters)
    for row in rows:
        line = _row(row)
        lines[line.game_id].append(line)
    return dict(lines)


def with_audit(game: GameState) -> GameState:
    """Return a game read by ``read_game`` with its audit trail (one more query)."""
    return replace(game, audit=game_audit(db.session.connection(), game.id))


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
                _piece(code)
                continue
        except rules.RulesError:
            pass
        return f"{code!r} is not a card"
    return None


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _player_key(key: str) -> bool:
    return key.isascii() and key.isdigit()


# --- in words ----------------------------------------------------------------------------------


def audit_text(
    line: AuditRow,
    names: Mapping[int, str],
    variant: rules.Variant,
    language: str = "en",
    *,
    codes: bool = False,
) -> str:
    """Return a line in words in a language, e.g. ``corrected: 7♣ → 7♠, Bob → Ann``.

    ``names`` are the players' names by id. Cards are in the language's letters, or, with
    ``codes``, in their codes (a page shows those in its own letters and colours). A
    correction names only what changed; a delete or undo the entry, with its value where the
    rule system scores melds.
    """
    lang = rules.language_of(language)

    def cards(items: Sequence[str]) -> str:
        if codes:
            return " ".join(items)
        return " ".join(_piece(code).label(lang) for code in items)

    def name(player: object) -> str:
        return names.get(int(str(player)), "") if player is not None else ""

    before, after = line.before, line.after or {}
    if line.action == "corrected":
        changes = []
        if before["cards"] != after.get("cards", before["cards"]):
            changes.append(f"{cards(before['cards'])} → {cards(after['cards'])}")
        if before["player"] != after.get("player", before["player"]):
            changes.append(f"{name(before['player'])} → {name(after['player'])}")
        if before.get("onto", []) != after.get("onto", before.get("onto", [])):
            changes.append(
                WORDINGS["moved"].render(
                    lang, before=cards(before["onto"]), after=cards(after["onto"])
                )
            )
        return WORDINGS["corrected"].render(lang, changes=", ".join(changes))
    if line.action in ("deleted", "undone", "restored"):
        words = _entry_in_words(before, name(before["player"]), cards, lang)
        if variant.words.meld_values_shown():
            words += f" ({before['value']})"
        return WORDINGS[line.action].render(lang, entry=words)
    if line.action == "recomputed":
        ruling = dict(after["ruling"])
        reason = rules.ruling_since(ruling.pop("message"), name=name(after["winner"]), **ruling)
        changed = []
        for player, value in after["points"].items():
            was = before["points"].get(player, value)
            change = f"{was:+d} → {value:+d}" if was != value else f"{value:+d}"
            changed.append(f"{name(player)} {change}")
        return WORDINGS["recomputed"].render(
            lang, reason=reason.render(lang), points=", ".join(changed)
        )
    points = ", ".join(f"{name(player)} {value:+d}" for player, value in before["points"].items())
    if before["winner"] is None and not before["hand_points"]:
        return WORDINGS["reopened_abandoned"].render(lang, points=points)
    hands = []
    for player, hand_points in before["hand_points"].items():
        factor = before["factors"].get(player, 1)
        counted = f"{hand_points} × {factor}" if factor != 1 else str(hand_points)
        hand = before["hands"].get(player)
        shown = f"{cards(hand)} ({counted})" if hand else f"({counted})"
        hands.append(f"{name(player)} {shown}")
    if before["winner"] is None:  # a game nobody went out of, every hand counted (F5)
        return WORDINGS["reopened_nobody_out"].render(lang, hands=", ".join(hands), points=points)
    wording = WORDINGS["reopened_romme" if before["romme"] else "reopened"]
    return wording.render(lang, name=name(before["winner"]), hands=", ".join(hands), points=points)


def _entry_in_words(
    entry: Mapping[str, Any], player: str, cards: Callable[[Sequence[str]], str], lang: str
) -> str:
    """Return an entry as a line names it: whose, its kind, its cards, where they went."""
    melds = entry.get("meld_cards", [])
    if entry["type"] == "meld":
        kind = "melds" if len(melds) > 1 else "meld"
        words = " + ".join(cards(meld) for meld in melds) or cards(entry["cards"])
        return WORDINGS[kind].render(lang, name=player, cards=words)
    if entry["type"] == "layoff":
        return WORDINGS["layoff"].render(
            lang, name=player, cards=cards(entry["cards"]), meld=cards(entry["onto"])
        )
    new_meld = melds[0] if melds else []
    put_in = entry["cards"][: len(entry["cards"]) - len(new_meld)]
    return WORDINGS["swap"].render(
        lang,
        name=player,
        cards=cards(put_in),
        meld=cards(entry["onto"]),
        new_meld=cards(new_meld),
    )


def _piece(code: str) -> rules.Piece:
    """Return the card or joker (``JKR``, ``JKR=7♠``) a stored code names."""
    if code.upper().startswith("JKR"):
        return rules.Joker.from_code(code)
    return rules.Card.from_code(code)
