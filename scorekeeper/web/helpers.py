"""What the templates show: cards in the page's language, times, and entries read back in words."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit

from flask_babel import format_datetime, get_locale, gettext, lazy_gettext, ngettext
from markupsafe import Markup, escape

from scorekeeper import rules, services
from scorekeeper.models import Entry

_CARD = re.compile(r"(10|[2-9AJQK])([♠♥♦♣])")

RANK_NAMES = {
    rules.Rank.ACE: lazy_gettext("Ace"),
    rules.Rank.TWO: lazy_gettext("Two"),
    rules.Rank.THREE: lazy_gettext("Three"),
    rules.Rank.FOUR: lazy_gettext("Four"),
    rules.Rank.FIVE: lazy_gettext("Five"),
    rules.Rank.SIX: lazy_gettext("Six"),
    rules.Rank.SEVEN: lazy_gettext("Seven"),
    rules.Rank.EIGHT: lazy_gettext("Eight"),
    rules.Rank.NINE: lazy_gettext("Nine"),
    rules.Rank.TEN: lazy_gettext("Ten"),
    rules.Rank.JACK: lazy_gettext("Jack"),
    rules.Rank.QUEEN: lazy_gettext("Queen"),
    rules.Rank.KING: lazy_gettext("King"),
}
SUIT_NAMES = {
    rules.Suit.SPADES: lazy_gettext("spades"),
    rules.Suit.HEARTS: lazy_gettext("hearts"),
    rules.Suit.DIAMONDS: lazy_gettext("diamonds"),
    rules.Suit.CLUBS: lazy_gettext("clubs"),
}


def language() -> str:
    """Return the language the page is shown in, e.g. ``de``."""
    return str(get_locale() or "en")


def rules_message(error: Exception) -> str:
    """Return the message of a refused entry for the person at the table, in the page's language."""
    if isinstance(error, rules.RulesError | services.ServiceError):
        return error.message(language())
    return str(error)


def card_label(code: str) -> str:
    """Return a card in the page's language, e.g. ``D♣`` for ``Q♣`` in German."""
    return rules.Card.from_code(code).label(language())


def cards_label(codes: str | Iterable[object]) -> str:
    """Return cards (codes separated by spaces, or a list) in the page's language."""
    items = codes.split() if isinstance(codes, str) else [str(code) for code in codes]
    return " ".join(card_label(code) for code in items)


def card_name(card: rules.Card) -> str:
    """Return a card's name for a screen reader, e.g. ``Queen of clubs`` / ``Dame Kreuz``."""
    return str(
        gettext("%(rank)s of %(suit)s", rank=RANK_NAMES[card.rank], suit=SUIT_NAMES[card.suit])
    )


def suits(text: object) -> Markup:
    """Escape text and show each card code in the page's language, with its suit's color."""
    lang = language()

    def card(match: re.Match[str]) -> str:
        color = "red" if match.group(2) in "♥♦" else "black"
        label = rules.Card.from_code(match.group(0)).label(lang)
        return f'<span class="card {color}">{label}</span>'

    return Markup(_CARD.sub(card, str(escape(text))))


def bdi(name: object) -> Markup:
    """Escape a name and isolate it, so that its writing direction cannot turn the text around.

    A right-to-left name beside a number (``علي 24``) would otherwise take the number into its
    own direction; ``<bdi>`` keeps the name's direction to the name.

    >>> bdi("Ann & <Bob>")
    Markup('<bdi>Ann &amp; &lt;Bob&gt;</bdi>')
    """
    return Markup("<bdi>{}</bdi>").format(name)


@dataclass(frozen=True)
class PickerCard:
    """One card of the picker: its code, what it shows, its name, and whether it is taken."""

    code: str
    label: str
    name: str
    red: bool
    taken: bool


def picker_rows(taken: Iterable[object] = ()) -> list[tuple[str, str, list[PickerCard]]]:
    """Return the pack for the card picker: per suit its symbol, name and cards, ace to king."""
    gone = {str(card) for card in taken}
    lang = language()
    rows = []
    for suit in rules.Suit:
        cards = [
            PickerCard(
                code=card.code,
                label=card.label(lang),
                name=card_name(card),
                red=suit.is_red,
                taken=card.code in gone,
            )
            for card in (rules.Card(suit=suit, rank=rank) for rank in rules.Rank)
        ]
        rows.append((suit.symbol, str(SUIT_NAMES[suit]), cards))
    return rows


def rank_letters() -> str:
    """Return the rank letters of the page's language, ace to king, for the picker script."""
    return " ".join(rank.letter_in(language()) for rank in rules.Rank)


def whose_entry(game: services.GameState) -> int:
    """Return the id of the player to preselect: whoever recorded last, else the dealer.

    The dealer plays first.
    """
    if game.entries:
        return game.entries[-1].player_id
    return game.dealer_id


def hhmm(moment: datetime | None) -> str:
    """Return the time of day of a moment, e.g. ``20:15``, in the app's time zone."""
    return "" if moment is None else str(format_datetime(moment, "HH:mm"))


def day_and_time(moment: datetime) -> str:
    """Return a moment's date and time in the page's language, e.g. ``22.11.26, 20:15``."""
    return str(format_datetime(moment, "short"))


def points(value: int) -> str:
    """Return a number of points in words, e.g. ``30 points``."""
    return str(ngettext("%(num)s point", "%(num)s points", value))


def meld_kind(kind: str | None) -> str:
    """Return the name of a kind of meld."""
    names = {"set": str(gettext("set")), "sequence": str(gettext("sequence"))}
    return names.get(kind or "", kind or "")


def entry_cards(entry: Entry | services.EntryRow) -> str:
    """Return the cards an entry put down, in canonical form (the history shows ORM entries)."""
    return " ".join(card.card for card in entry.cards)


def entry_cards_label(entry: services.EntryRow) -> str:
    """Return the cards an entry put down, in the page's language."""
    return " ".join(card_label(card.card) for card in entry.cards)


def describe(
    entry: services.EntryRow,
    entries: Sequence[services.EntryRow],
    names: dict[int, str],
    table: rules.Table[int] | None = None,
) -> str:
    """Return an entry as the recorder reads it back, with the value it scored.

    ``entries`` are those of its game (a layoff names the owner of its meld), ``names`` the
    players' names by id.
    """
    if entry.kind == "meld":
        return _said(entry, names[entry.player_id])
    meld = next((other for other in entries if other.id == entry.meld_id), None)
    now = ""
    if table is not None and entry.meld_id in table.melds:
        now = rules.cards_text(table.melds[entry.meld_id].cards)
    owner = names[meld.player_id] if meld is not None else ""
    return _said(entry, names[entry.player_id], owner, now)


def describe_recorded(recorded: services.Recorded, names: dict[int, str]) -> str:
    """Return an entry just recorded as ``describe`` says it, from what the service returned."""
    entry = recorded.entry
    if entry.kind == "meld":
        return _said(entry, names[entry.player_id])
    owner = names[recorded.meld_entry.player_id]
    return _said(entry, names[entry.player_id], owner, rules.cards_text(recorded.meld.cards))


def _said(entry: services.EntryRow, player: str, owner: str = "", now: str = "") -> str:
    if entry.kind == "meld":
        said = gettext(
            "%(player)s: %(kind)s %(cards)s — %(points)s",
            player=player,
            kind=meld_kind(entry.meld_kind),
            cards=entry_cards(entry),
            points=points(entry.value),
        )
        return str(said)
    said = gettext(
        "%(player)s: %(cards)s laid off onto %(owner)s's meld (now %(meld)s) — %(points)s",
        player=player,
        cards=entry_cards(entry),
        owner=owner,
        meld=now,
        points=points(entry.value),
    )
    return str(said)


def house_rules_said(variant: rules.Variant) -> list[str]:
    """Return the rules of a session in words: its rule system, how it ends, its house rules."""
    said = [variant.label(language())]
    end = variant.house_rules["end"]
    if "target" in end:
        said.append(str(gettext("to %(target)s points", target=end["target"])))
    elif "games" in end:
        said.append(str(ngettext("%(num)s game", "%(num)s games", end["games"])))
    elif "limit" in end:
        said.append(str(gettext("until a total reaches %(limit)s", limit=end["limit"])))
    doubling = variant.house_rules.get("romme_doubling")
    if doubling == "winner":
        said.append(str(gettext("a Rommé hand doubles every hand")))
    elif doubling == "loser":
        said.append(str(gettext("the hand of a player who never melded doubles")))
    return said


def safe_next(target: str | None) -> str:
    """Return the target if it is a path on this site, else the home page."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    # A control character (a newline) cannot be in a Location header: it is no path of ours.
    if any(ord(character) < 32 or ord(character) == 127 for character in target):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target
