"""Turn sessions, games, melds and entries into the JSON shapes of the /api/v1 contract."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from scorekeeper import rules, services


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
        "winner": scores.standing.winner if session.status == "finished" else None,
        "totals": _by_player(scores.totals),
        "to_go": {str(pid): standing.to_go(pid) for pid in scores.totals},
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


def game_json(game: services.GameState) -> dict[str, Any]:
    """Return a game with the melds as they lie now, its entries in order, and its points."""
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
        "melds": [meld_json(entry, table.melds[entry.id], game.variant) for entry in melds],
        "entries": _entries_json(game.entries),
        "points": _by_player(services.game_points(game)),
    }


def meld_json(
    entry: services.EntryRow, lying: rules.Meld, variant: rules.Variant
) -> dict[str, Any]:
    """Return a meld as it lies now: its cards with layoffs, and the value written for it."""
    return {
        "id": entry.id,
        "player": entry.player_id,
        "kind": entry.meld_kind,
        **cards_json(lying, variant),
        "value": entry.value,
    }


def cards_json(meld: rules.Meld, variant: rules.Variant) -> dict[str, Any]:
    """Return a meld's cards, a joker as ``JKR``, and what each joker stands for (G2).

    ``"jokers"`` is there where the rule system plays jokers: the answers of the others keep
    their shape.

    >>> from scorekeeper.rules.cards import parse_pieces
    >>> german = rules.GermanRummy()
    >>> cards_json(rules.classify_pieces(parse_pieces("6♠ 6♥ JKR"), german), german)
    {'cards': ['6♠', '6♥', 'JKR'], 'jokers': [{'index': 2, 'as': ['6♦', '6♣']}]}
    """
    cards: dict[str, Any] = {"cards": [piece_code(piece) for piece in meld.cards]}
    if variant.jokers:
        cards["jokers"] = [
            {"index": place.index, "as": [card.code for card in place.stands_for]}
            for place in meld.jokers
        ]
    return cards


def piece_code(piece: rules.Piece) -> str:
    """Return a card's code, or ``JKR`` for a joker whatever it stands for."""
    return rules.Joker().code if isinstance(piece, rules.Joker) else piece.code


def _entries_json(entries: list[services.EntryRow]) -> list[dict[str, Any]]:
    """Return the entries in order; the melds recorded together are one entry."""
    items: list[dict[str, Any]] = []
    first: dict[int, dict[str, Any]] = {}
    for entry in entries:
        if entry.group_id is None:
            item = first[entry.id] = entry_json(entry)
            items.append(item)
            continue
        item = first[entry.group_id]
        item["melds"].append(entry.id)
        item["cards"] += [card.card for card in entry.cards]
        item["values"] += [card.value for card in entry.cards]
        item["value"] += entry.value
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
        "romme": settlement.romme,
        "hand_points": _by_player(settlement.hand_points),
        "factors": _by_player(settlement.factors),
        "settlement": _by_player(settlement.gains),
        "paid": _by_player(settlement.paid),
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
