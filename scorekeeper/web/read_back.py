"""An entry read back in words: what the recorder is told after recording, undoing, deleting."""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext

from scorekeeper import queries, rules, services
from scorekeeper.web.view_models import entry_cards, line_of
from scorekeeper.web.words import meld_kind, points


def describe(
    entry: queries.EntryRow,
    entries: Sequence[queries.EntryRow],
    names: dict[int, str],
    table: rules.Table[int] | None = None,
) -> str:
    """Return an entry as the recorder reads it back, with the value it scored.

    ``entries`` are those of its game (a layoff names the owner of its meld), ``names`` the
    players' names by id. An entry of several rows is read back whole.
    """
    line = line_of(entries, entry.id)
    entry = line.first
    if line.kind in ("meld", "melds"):
        return _melds_sentence(line.rows, names[entry.player_id])
    meld = next((other for other in entries if other.id == entry.meld_id), None)
    now = ""
    if table is not None and entry.meld_id in table.melds:
        now = rules.cards_text(table.melds[entry.meld_id].cards)
    owner = names[meld.player_id] if meld is not None else ""
    own = meld is not None and meld.player_id == entry.player_id
    if line.kind == "swap":
        new = line.melds[0] if line.melds else None
        new_now = ""
        if new is not None:
            lying = table.melds.get(new.id) if table is not None else None
            new_now = rules.cards_text(lying.cards) if lying is not None else entry_cards(new)
        return _swap_sentence(entry, names[entry.player_id], owner, now, new_now, own=own)
    return _entry_sentence(entry, names[entry.player_id], owner, now, own=own)


def describe_recorded(recorded: services.Recorded, names: dict[int, str]) -> str:
    """Return an entry just recorded as ``describe`` says it, from what the service returned."""
    entry = recorded.entry
    if entry.kind == "meld":
        return _entry_sentence(entry, names[entry.player_id])
    owner = names[recorded.meld_entry.player_id]
    own = recorded.meld_entry.player_id == entry.player_id
    now = rules.cards_text(recorded.meld.cards)
    return _entry_sentence(entry, names[entry.player_id], owner, now, own=own)


def describe_recorded_melds(recorded: services.RecordedMelds, names: dict[int, str]) -> str:
    """Return melds just recorded together, each with its kind and cards, and their value."""
    rows = [row for row, _meld in recorded.melds]
    return _melds_sentence(rows, names[rows[0].player_id])


def _melds_sentence(rows: Sequence[queries.EntryRow], player: str) -> str:
    if len(rows) == 1:
        return _entry_sentence(rows[0], player)
    melds = " + ".join(f"{meld_kind(row.meld_kind)} {entry_cards(row)}" for row in rows)
    sentence = gettext(
        "%(player)s: %(melds)s — %(points)s",
        player=player,
        melds=melds,
        points=points(sum(row.value for row in rows)),
    )
    return str(sentence)


def _swap_sentence(
    entry: queries.EntryRow, player: str, owner: str, now: str, new_meld: str, *, own: bool
) -> str:
    """Say a joker swap; ``own`` when the joker came from the player's own meld."""
    if own:
        sentence = gettext(
            "%(player)s: %(cards)s put in for the joker in their own meld (now %(meld)s);"
            " the joker went into %(new_meld)s",
            player=player,
            cards=entry_cards(entry),
            meld=now,
            new_meld=new_meld,
        )
        return str(sentence)
    sentence = gettext(
        "%(player)s: %(cards)s put in for the joker in %(owner)s's meld (now %(meld)s);"
        " the joker went into %(new_meld)s",
        player=player,
        cards=entry_cards(entry),
        owner=owner,
        meld=now,
        new_meld=new_meld,
    )
    return str(sentence)


def _entry_sentence(
    entry: queries.EntryRow, player: str, owner: str = "", now: str = "", *, own: bool = False
) -> str:
    """Say a meld or a layoff; ``own`` when the layoff went onto the player's own meld."""
    if entry.kind == "meld":
        sentence = gettext(
            "%(player)s: %(kind)s %(cards)s — %(points)s",
            player=player,
            kind=meld_kind(entry.meld_kind),
            cards=entry_cards(entry),
            points=points(entry.value),
        )
        return str(sentence)
    if own:
        # Not the player's name twice: "Ann: 4♣ laid off onto Ann's meld".
        sentence = gettext(
            "%(player)s: %(cards)s laid off onto their own meld (now %(meld)s) — %(points)s",
            player=player,
            cards=entry_cards(entry),
            meld=now,
            points=points(entry.value),
        )
        return str(sentence)
    sentence = gettext(
        "%(player)s: %(cards)s laid off onto %(owner)s's meld (now %(meld)s) — %(points)s",
        player=player,
        cards=entry_cards(entry),
        owner=owner,
        meld=now,
        points=points(entry.value),
    )
    return str(sentence)
