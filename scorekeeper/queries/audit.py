"""The audit trail as the history and the API show it: a game's or a session's lines, in words.

A correction, delete, undo or reopen, and a game an import settled again by today's rules
(``recomputed``).

The store keeps the lines (``store.audit``); here they are read for the answers and said in a
language, e.g. ``corrected: 7♣ → 7♠, Bob → Ann``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from scorekeeper import rules
from scorekeeper.store import AuditRow, GameState, stored_piece, unit_of_work

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


def session_audit(
    session_id: int, numbers: tuple[int, int] | None = None
) -> dict[int, list[AuditRow]]:
    """Return the audit trail of a session's games by game, in one query.

    Of every game, or of those numbered ``numbers`` (first, last): a page of the history.
    """
    return unit_of_work().audit.of_session(session_id, numbers)


def with_audit(game: GameState) -> GameState:
    """Return a game read by ``read_game`` with its audit trail (one more query)."""
    return replace(game, audit=unit_of_work().audit.of_game(game.id))


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
        return " ".join(stored_piece(code).label(lang) for code in items)

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
