"""What the templates show: cards with colored suits, times, and entries read back in words."""

from __future__ import annotations

import re
from datetime import datetime
from urllib.parse import urlsplit

from flask_babel import format_datetime, gettext, ngettext
from markupsafe import Markup, escape

from scorekeeper import rules
from scorekeeper.models import Entry

_CARD = re.compile(r"(10|[2-9AJQK])([♠♥♦♣])")


def suits(text: object) -> Markup:
    """Escape text and wrap each card code in a span colored by its suit (♥♦ red)."""

    def card(match: re.Match[str]) -> str:
        color = "red" if match.group(2) in "♥♦" else "black"
        return f'<span class="card {color}">{match.group(0)}</span>'

    return Markup(_CARD.sub(card, str(escape(text))))


def hhmm(moment: datetime | None) -> str:
    """Return the time of day of a moment, e.g. ``20:15``, in the app's time zone."""
    return "" if moment is None else str(format_datetime(moment, "HH:mm"))


def points(value: int) -> str:
    """Return a number of points in words, e.g. ``30 points``."""
    return str(ngettext("%(num)s point", "%(num)s points", value))


def meld_kind(kind: str | None) -> str:
    """Return the name of a kind of meld."""
    names = {"set": str(gettext("set")), "sequence": str(gettext("sequence"))}
    return names.get(kind or "", kind or "")


def entry_cards(entry: Entry) -> str:
    """Return the cards an entry put down, in canonical form."""
    return " ".join(card.card for card in entry.cards)


def describe(entry: Entry, table: rules.Table[int] | None = None) -> str:
    """Return an entry as the recorder reads it back, with the value it scored."""
    if entry.kind == "meld":
        said = gettext(
            "%(player)s: %(kind)s %(cards)s — %(points)s",
            player=entry.player.name,
            kind=meld_kind(entry.meld_kind),
            cards=entry_cards(entry),
            points=points(entry.value),
        )
        return str(said)
    meld = next((other for other in entry.game.entries if other.id == entry.meld_id), None)
    now = ""
    if table is not None and entry.meld_id in table.melds:
        now = rules.cards_text(table.melds[entry.meld_id].cards)
    said = gettext(
        "%(player)s: %(cards)s laid off onto %(owner)s's meld (now %(meld)s) — %(points)s",
        player=entry.player.name,
        cards=entry_cards(entry),
        owner=meld.player.name if meld is not None else "",
        meld=now,
        points=points(entry.value),
    )
    return str(said)


def safe_next(target: str | None) -> str:
    """Return the target if it is a path on this site, else the home page."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target
