"""Turn sessions, games, melds and entries into the JSON shapes of the /api/v1 contract."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from scorekeeper import rules, services
from scorekeeper.http.checks import cards_json
from scorekeeper.rules.groups import RecordedMeld


def session_json(session: services.SessionSummary) -> dict[str, Any]:
    """Return a session with its players, totals, winner and games."""
    scores = session.scores
    standing = scores.standing
    current = next((game for game in scores.games if game.status == "open"), None)
    extra: dict[str, Any] = {}
    if standing.games_left is not None:
        extra["games_left"] = standing.games_left
    return {
        "id": session.public_id,
        "status": session.status,
        "target": standing.target,
        "variant": session.variant,
        "rules": session.rule_system.house_rules,
        **extra,
        "players": [{"id": player_id, "name": name} for player_id, name in session.players],
        # Who left the table between games: their points stay in the totals and the games.
        "left": [{"id": player_id, "name": name} for player_id, name in session.left],
        "winner": scores.standing.winner if session.status == "finished" else None,
        "totals": _by_player(scores.totals),
        "to_go": {
            str(pid): standing.to_go(pid) if pid in standing.totals else None
            for pid in scores.totals
        },
        "dealer": session.dealer_id,
        "current_game": current.id if current else None,
        "games": [
            {
                "id": game.id,
                "number": game.number,
                "dealer": game.dealer_id,
                "status": game.status,
                "winner": game.winner_id,
                "romme": game.romme,
                "points": _by_player(scores.game_points[game.id]),
            }
            for game in scores.games
        ],
    }


def sheet_json(sheet: services.Sheet) -> dict[str, Any]:
    """Return the score sheet: a row per game with its points and the running totals after it.

    A player who sat a game out has ``null`` as points there; their total stays.
    """
    standing = sheet.standing
    end: dict[str, Any] = {"target": standing.target}
    if standing.limit is not None:
        end["limit"] = standing.limit
    if standing.games_left is not None:
        end["games_left"] = standing.games_left
    return {
        "session": sheet.public_id,
        "variant": sheet.variant,
        "status": sheet.status,
        **end,
        "players": [{"id": player_id, "name": name} for player_id, name in sheet.players],
        "games": [
            {
                "id": row.id,
                "number": row.number,
                "dealer": row.dealer_id,
                "winner": row.winner_id,
                "romme": row.romme,
                "status": row.status,
                "points": {str(player_id): points for player_id, points in row.points.items()},
                "totals": _by_player(row.totals),
            }
            for row in sheet.rows
        ],
        "totals": _by_player(sheet.totals),
        "winner": standing.winner if sheet.status == "finished" else None,
    }


def game_json(game: services.GameState, language: str = "en") -> dict[str, Any]:
    """Return a game with the melds as they lie now, its entries in order, and its points.

    ``"audit"`` is its audit trail where the game was read with it (a new game has none), each
    line's ``"text"`` in ``language``.
    """
    table = services.table_of(game)
    melds = [entry for entry in game.entries if entry.kind == "meld"]
    deal = services.deal_of(game)
    return {
        "id": game.id,
        "session": game.session_public_id,
        "number": game.number,
        "dealer": game.dealer_id,
        "cards_dealt": deal.cards_dealt,
        "first_player": deal.first_player,
        "status": game.status,
        "winner": game.winner_id,
        "romme": game.romme,
        "melds": [
            meld_json(entry, table.melds[entry.id], game.variant, table.put_down[entry.id])
            for entry in melds
        ],
        "entries": _entries_json(game.entries, table, game.variant),
        "points": _by_player(services.game_points(game)),
        **_booked_json(game),
        "audit": [audit_json(line, game, language) for line in game.audit or ()],
    }


def _booked_json(game: services.GameState) -> dict[str, Any]:
    """Return ``{"booked": …}``, what the game booked for each player, once it has ended.

    An open game's ``points`` are its entries so far, and it has booked nothing yet.
    """
    if game.status == "open":
        return {}
    return {"booked": _by_player(services.game_points(game))}


def audit_json(line: services.AuditRow, game: services.GameState, language: str) -> dict[str, Any]:
    """Return a line of a game's audit trail: when, what, whose entry, before and after, in words.

    A joker is written ``JKR`` in the cards, as in the entries.
    """
    names = {player.id: player.name for player in game.players}
    return {
        "at": _utc(line.at),
        "action": line.action,
        "entry": line.entry_id,
        "player": line.player_id,
        "before": _jokers_plain(line.before),
        "after": None if line.after is None else _jokers_plain(line.after),
        "text": services.audit_text(line, names, game.variant, language),
    }


def _jokers_plain(stood: dict[str, Any]) -> dict[str, Any]:
    """Return an entry (or a result) of the audit trail with each joker written ``JKR``."""

    def plain(codes: list[str]) -> list[str]:
        return [code.split("=")[0] for code in codes]

    shown = dict(stood)
    for key in ("cards", "onto"):
        if key in shown:
            shown[key] = plain(shown[key])
    if "meld_cards" in shown:
        shown["meld_cards"] = [plain(meld) for meld in shown["meld_cards"]]
    if "hands" in shown:
        shown["hands"] = {player: plain(hand) for player, hand in shown["hands"].items()}
    return shown


def meld_json(
    entry: services.EntryRow,
    lying: rules.Meld,
    variant: rules.Variant,
    put_down: rules.Meld | None = None,
) -> dict[str, Any]:
    """Return a meld as it lies now: its cards with layoffs, and the value written for it.

    Given the meld as it was put down, the answer says what that counts towards an opening
    (G3), where the rule system has one; the answers about layoffs and swaps leave it out.
    """
    return {
        "id": entry.id,
        "player": entry.player_id,
        "kind": entry.meld_kind,
        **cards_json(lying, variant),
        "value": entry.value,
        **opening_json(None if put_down is None else [put_down], variant),
    }


def meld_recorded_json(
    entry: services.EntryRow, meld: rules.Meld, variant: rules.Variant
) -> dict[str, Any]:
    """Return a meld just put down, as ``meld_json``, with what each card scores (``values``).

    The values are those written (R3), in the order of ``cards``: an ace's worth is read there.
    """
    return {**meld_json(entry, meld, variant, meld), "values": list(meld.values)}


def opening_json(put_down: Iterable[rules.Meld] | None, variant: rules.Variant) -> dict[str, int]:
    """Return ``{"opening_value": …}`` for melds put down together, where an opening is played.

    The answers of a rule system without an opening keep the shape they always had.
    """
    if put_down is None or not variant.has_opening():
        return {}
    return {"opening_value": rules.opening_value(put_down)}


def _entries_json(
    entries: list[services.EntryRow], table: rules.Table[int], variant: rules.Variant
) -> list[dict[str, Any]]:
    """Return the entries in order; the melds recorded together are one entry.

    A meld entry says what its melds count towards an opening together (G3), where the rule
    system has one; layoffs and swaps do not.
    """
    items: list[dict[str, Any]] = []
    first: dict[int, dict[str, Any]] = {}
    for entry in entries:
        if entry.group_id is None:
            item = first[entry.id] = entry_json(entry)
            if entry.kind == "meld":
                item.update(opening_json([table.put_down[entry.id]], variant))
            items.append(item)
            continue
        item = first[entry.group_id]
        item["melds"].append(entry.id)
        item["cards"] += [card.card for card in entry.cards]
        item["values"] += [card.value for card in entry.cards]
        item["value"] += entry.value
        if "opening_value" in item:
            item["opening_value"] += table.put_down[entry.id].opening_value
    return items


def entry_json(entry: services.EntryRow) -> dict[str, Any]:
    """Return one entry as the recorder wrote it; a swap's new meld joins it (its "melds")."""
    melds = {"melds": [entry.id]} if entry.kind == "meld" else {}
    if entry.kind == "swap":
        melds = {"melds": []}
    return {
        **melds,
        "id": entry.id,
        "type": entry.kind,
        "player": entry.player_id,
        "meld": entry.id if entry.kind == "meld" else entry.meld_id,
        "cards": [card.card for card in entry.cards],
        "values": [card.value for card in entry.cards],
        "value": entry.value,
        "position": entry.position,
        "created_at": _utc(entry.created_at),
    }


def finish_json(finish: services.Finish) -> dict[str, Any]:
    """Return the settlement of a finished or abandoned game with the session after it."""
    settlement = finish.settlement
    return {
        "game": finish.game.id,
        "status": finish.game.status,
        "winner": settlement.winner,
        # Whether the winner went out with a Rommé hand: null where nobody went out, as in the
        # session's games and the game's own answer.
        "romme": settlement.romme if settlement.winner is not None else None,
        "hand_points": _by_player(settlement.hand_points),
        "factors": _by_player(settlement.factors),
        "settlement": _by_player(settlement.gains),
        "paid": _by_player(settlement.paid),
        "booked": _by_player(finish.booked),
        "unmatched": {
            str(player): [card.code for card in cards]
            for player, cards in settlement.unmatched.items()
        },
        "matched": {
            str(player): [[card.code for card in meld] for meld in melds]
            for player, melds in settlement.matched.items()
        },
        "session": session_json(
            finish.session
            or services.summarize_session(services.get_session(finish.game.session_id))
        ),
    }


def _utc(moment: datetime) -> str:
    """Return a time in ISO 8601 with its UTC offset, e.g. ``2026-11-23T04:24:51+00:00``.

    Only UTC times are written; SQLite gives them back without their zone.
    """
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC).isoformat()
    return moment.astimezone(UTC).isoformat()


def _by_player(values: dict[int, int]) -> dict[str, int]:
    return {str(player_id): value for player_id, value in values.items()}


def group_json(read: services.GroupSessions) -> dict[str, Any]:
    """Return a group with its sessions, newest first, and its merged names."""
    return {
        "id": read.group.public_id,
        "name": read.group.name,
        "created_at": _utc(read.group.created_at),
        "merges": merges_json(read.merges),
        "sessions": [
            {
                "id": session.public_id,
                "variant": session.variant.name,
                "status": session.status,
                "created_at": _utc(session.created_at),
                "games": session.games_ended,
                "players": [{"id": player.id, "name": player.name} for player in session.players],
                "totals": {str(player.id): player.total for player in session.players},
                "winner": session.winner(),
            }
            for session in read.sessions
        ],
    }


def merges_json(merges: list[services.MergeRow]) -> list[dict[str, str]]:
    """Return a group's merged names in the order they were merged."""
    return [{"name": merge.name, "same_as": merge.same_as} for merge in merges]


def statistics_json(statistics: services.GroupStatistics, language: str) -> dict[str, Any]:
    """Return what a group's sessions add up to per rule system (titles in ``language``)."""
    read = statistics.sessions
    return {
        "id": read.group.public_id,
        "name": read.group.name,
        "merges": merges_json(read.merges),
        "rule_systems": [
            {
                "variant": system.variant.name,
                "title": system.variant.label(language),
                "sessions": system.sessions,
                "games": system.games,
                "people": [
                    {
                        "name": person.name,
                        "names": list(person.names),
                        "sessions": person.sessions,
                        "sessions_won": person.sessions_won,
                        "games": person.games,
                        "games_won": person.games_won,
                        "points": person.points,
                        "average": person.average,
                        "romme": person.romme,
                        "best_meld": _recorded_json(person.best_meld),
                        "longest_sequence": _recorded_json(person.longest_sequence),
                    }
                    for person in system.people
                ],
                "last_results": [
                    {
                        "session": result.public_id,
                        "created_at": _utc(result.created_at),
                        "status": result.status,
                        "games": result.games,
                        "winner": result.winner,
                        "totals": [{"name": name, "total": total} for name, total in result.totals],
                    }
                    for result in system.last_results
                ],
            }
            for system in statistics.rule_systems
        ],
    }


def _recorded_json(meld: RecordedMeld | None) -> dict[str, Any] | None:
    """Return a meld as recorded: its kind, cards (a joker as ``JKR``), value and where."""
    if meld is None:
        return None
    return {
        "kind": meld.kind,
        "cards": list(meld.cards),
        "length": len(meld.cards),
        "value": meld.value,
        "session": meld.session,
        "game": meld.game,
    }
