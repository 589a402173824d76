"""What the templates show: cards in the page's language, times, and entries read back in words."""

from __future__ import annotations

import functools
import heapq
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Generic, Protocol, TypeVar
from urllib.parse import quote, urlsplit

from flask import current_app, get_template_attribute
from flask_babel import (
    format_date,
    format_datetime,
    get_locale,
    gettext,
    lazy_gettext,
    ngettext,
    to_user_timezone,
)
from markupsafe import Markup, escape

from scorekeeper import rules, services
from scorekeeper.models import GameSession, TableCard

# A card as a code (``Q♦``) or already in German letters (``D♦``, ``B♦``), not inside a word.
_CARD = re.compile(r"(?<![^\W\d_])(10|[2-9AJQKBD])([♠♥♦♣])")

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


def message_text(message: rules.Message | None) -> str:
    """Return a message of the rules in the page's language (nothing for none)."""
    return message.render(language()) if message is not None else ""


def rules_message(error: Exception) -> str:
    """Return the message of a refused entry for the person at the table, in the page's language."""
    if isinstance(error, rules.RulesError | services.ServiceError):
        return error.message(language())
    return str(error)


def card_label(code: str, lang: str | None = None) -> str:
    """Return a card or joker in the page's language, e.g. ``D♣`` for ``Q♣`` in German."""
    return piece_of(code).label(lang or language())


def piece_of(code: str) -> rules.Piece:
    """Return the card or the joker (``JKR``, ``JKR=7♠``) a stored code names."""
    if code.upper().startswith(("JKR", "JOKER")):
        return rules.Joker.from_code(code)
    return rules.Card.from_code(code)


def cards_label(codes: str | Iterable[object]) -> str:
    """Return cards (codes separated by spaces, or a list) in the page's language."""
    items = codes.split() if isinstance(codes, str) else [str(code) for code in codes]
    lang = language()
    return " ".join(card_label(code, lang) for code in items)


def card_name(card: rules.Card) -> str:
    """Return a card's name for a screen reader, e.g. ``Queen of clubs`` / ``Dame Kreuz``."""
    return str(
        gettext("%(rank)s of %(suit)s", rank=RANK_NAMES[card.rank], suit=SUIT_NAMES[card.suit])
    )


def suits(text: object) -> Markup:
    """Escape text and show each card in the page's language, with its suit's color.

    Every card a page shows goes through here, as a code or already in the page's letters
    (a refusal of the rules is said in German letters): each is marked up alike.
    """
    return Markup(_suited(str(escape(text)), language()))


# Every page of a game shows its melds again: each text is marked up once per language.
@functools.lru_cache(maxsize=4096)
def _suited(escaped: str, lang: str) -> str:
    """Return escaped text with each card code in a language's letters, in its suit's color."""

    def card(match: re.Match[str]) -> str:
        color = "red" if match.group(2) in "♥♦" else "black"
        label = rules.Card.from_code(match.group(0)).label(lang)
        return f'<span class="card {color}">{label}</span>'

    return _CARD.sub(card, escaped)


def file_name(title: str, day: datetime) -> str:
    """Return a download's name without its ending, in the page's language: ``rommé-26.11.2026``.

    The title and the day as the language writes it, spaces and commas made hyphens.
    """
    sentence = f"{title} {format_date(day, 'medium')}".lower()
    return re.sub(r"[\s,/\\:;\"']+", "-", sentence).strip("-")


def attachment(name: str) -> str:
    """Return a Content-Disposition header saving a file under a name in any writing.

    RFC 6266 with RFC 5987's ``filename*`` for the name itself, and an ASCII ``filename`` for
    the clients that read only that.

    >>> print(attachment("rommé-26.11.2026.csv"))
    attachment; filename="romme-26.11.2026.csv"; filename*=UTF-8''romm%C3%A9-26.11.2026.csv
    """
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    plain = re.sub(r"[^A-Za-z0-9._-]+", "-", plain) or "download"
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(name, safe='')}"


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
    """One card of the picker: its code, what it shows, its name, and how many copies are left.

    ``packs`` is how many copies the packs hold: with two packs the button shows what is left.
    """

    code: str
    label: str
    name: str
    red: bool
    taken: bool
    left: int = 1
    packs: int = 1


def picker_rows(taken: Iterable[object] = (), packs: int = 1) -> list[tuple[str, Markup]]:
    """Return the pack for the card picker: per suit its name and its buttons, ace to king.

    ``taken`` names each copy lying on the table (a card twice when both of two packs lie).
    """
    lying = Counter(str(card) for card in taken)
    return [
        (suit_name, Markup("".join(drawn[min(lying[code], packs)] for code, drawn in cards)))
        for suit_name, cards in picker_buttons(language(), packs)
    ]


# Where an app keeps the picker's buttons, drawn once per language and number of packs.
PICKER_BUTTONS = "scorekeeper.picker_buttons"
Buttons = list[tuple[str, list[tuple[str, tuple[str, ...]]]]]


def picker_buttons(lang: str, packs: int) -> Buttons:
    """Return per suit its name, and per card its code and its button for each count lying.

    A card's button differs only by how many of its copies lie on the table (0 to ``packs``):
    each is drawn once, so that a page picks buttons instead of drawing 52 or more (the picker
    was most of the game page's time). Two requests drawing at once draw the same buttons.
    """
    drawn: dict[tuple[str, int], Buttons] = current_app.extensions.setdefault(PICKER_BUTTONS, {})
    if (lang, packs) not in drawn:
        drawn[lang, packs] = _draw_buttons(lang, packs)
    return drawn[lang, packs]


def _draw_buttons(lang: str, packs: int) -> Buttons:
    """Draw every button of the picker with the template's ``pick_button``, for each count lying."""
    button = get_template_attribute("_macros.html", "pick_button")

    def drawn(code: str, label: str, name: str, red: bool) -> tuple[str, ...]:
        return tuple(
            str(button(PickerCard(code, label, name, red, lying >= packs, packs - lying, packs)))
            for lying in range(packs + 1)
        )

    return [
        (suit_name, [(card[0], drawn(*card)) for card in cards])
        for _symbol, suit_name, cards in _pack_words(lang)
    ]


# What the picker says of each card never changes within a language: said once per language,
# not once per card on every request (it was most of the game page's time).
@functools.cache
def _pack_words(lang: str) -> list[tuple[str, str, list[tuple[str, str, str, bool]]]]:
    """Return per suit its symbol, name and cards (code, label, name, red), in a language."""
    return [
        (
            suit.symbol,
            str(SUIT_NAMES[suit]),
            [
                (card.code, card.label(lang), card_name(card), suit.is_red)
                for card in (rules.Card(suit=suit, rank=rank) for rank in rules.Rank)
            ],
        )
        for suit in rules.Suit
    ]


@dataclass(frozen=True)
class CardPicker:
    """The picker of a table: per suit its name and buttons as the table lies, the jokers left."""

    rows: list[tuple[str, Markup]]
    jokers_left: int | None = None


def table_picker(table: rules.Table[int], free: Iterable[str] = ()) -> CardPicker:
    """Return the picker for a game's table; ``free`` are codes lying that may be tapped again.

    A correction taps its entry's own cards again, so they count as not lying.
    """
    variant = table.variant
    lying: Counter[str] = Counter(card.code for card in table.copies.elements())
    lying.subtract(code for code in free if not code.upper().startswith("JKR"))
    jokers = table.jokers - sum(code.upper().startswith("JKR") for code in free)
    rows = picker_rows(lying.elements(), variant.packs)
    if not variant.jokers:
        return CardPicker(rows)
    return CardPicker(rows, max(0, variant.jokers - jokers))


def joker_places(meld: rules.Meld) -> list[str]:
    """Return the cards a meld's jokers stand for, each once: what may be put in their place."""
    codes: list[str] = []
    for place in meld.jokers:
        codes += [card.code for card in place.stands_for if card.code not in codes]
    return codes


def rank_letters() -> str:
    """Return the rank letters of the page's language, ace to king, for the picker script."""
    lang = language()
    return " ".join(rank.letter_in(lang) for rank in rules.Rank)


def whose_entry(game: services.GameState) -> int:
    """Return the id of the player to preselect: whoever recorded last, else who plays first.

    The rule system says who plays first (the dealer, or the dealer's left neighbour).
    """
    if game.entries:
        return game.entries[-1].player_id
    return services.deal_of(game).first_player


def hhmm(moment: datetime | None) -> str:
    """Return the time of day of a moment, e.g. ``20:15``, in the app's time zone."""
    # Babel's "HH:mm" without Babel's pattern machinery: a page shows a time on every entry.
    return "" if moment is None else f"{to_user_timezone(moment):%H:%M}"


def day_and_time(moment: datetime) -> str:
    """Return a moment's date and time in the page's language, e.g. ``22.11.26, 20:15``."""
    return str(format_datetime(moment, "short"))


def points(value: int) -> str:
    """Return a number of points in words, e.g. ``30 points``."""
    return str(ngettext("%(num)s point", "%(num)s points", value))


def signed(value: int) -> str:
    """Return points with their sign, e.g. ``+30``, ``+0``, ``-41``."""
    return f"{value:+d}"


MELD_KINDS = {"set": lazy_gettext("set"), "sequence": lazy_gettext("sequence")}


def meld_kind(kind: str | None) -> str:
    """Return the name of a kind of meld."""
    name = MELD_KINDS.get(kind or "")
    return str(name) if name is not None else kind or ""


class Entered(Protocol):
    """An entry row as the pages read it: a service's ``EntryRow`` or the history's ORM entry."""

    @property
    def id(self) -> int: ...

    @property
    def kind(self) -> str: ...

    @property
    def player_id(self) -> int: ...

    @property
    def meld_id(self) -> int | None: ...

    @property
    def meld_kind(self) -> str | None: ...

    @property
    def group_id(self) -> int | None: ...

    @property
    def value(self) -> int: ...

    @property
    def cards(self) -> Sequence[Any]: ...

    @property
    def created_at(self) -> datetime: ...


E = TypeVar("E", bound=Entered)


@dataclass(frozen=True)
class EntryLine(Generic[E]):
    """One entry as the recorder made it: a meld, melds put down together, a layoff or a swap.

    A joker swap is stored as the swap row and the new meld's row after it (grouped under the
    swap); melds put down together as one row each, grouped under the first.
    """

    rows: list[E] = field(default_factory=list)

    @property
    def first(self) -> E:
        """Return the entry's first row, whose id is the entry's id."""
        return self.rows[0]

    @property
    def kind(self) -> str:
        """Return ``meld``, ``melds`` (several at once), ``layoff`` or ``swap``."""
        if self.first.kind == "meld" and len(self.rows) > 1:
            return "melds"
        return self.first.kind

    @property
    def grouped(self) -> bool:
        """Tell whether the entry is more than one row (only deleted whole, never corrected)."""
        return len(self.rows) > 1

    @property
    def melds(self) -> list[E]:
        """Return the melds the entry put down (a swap's new meld)."""
        return [row for row in self.rows if row.kind == "meld"]

    @property
    def value(self) -> int:
        """Return the value written for the entry, all its rows together."""
        return sum(row.value for row in self.rows)


def entry_lines(entries: Iterable[E]) -> list[EntryLine[E]]:
    """Return a game's entries one line per entry, grouped rows together, in recorded order."""
    lines: dict[int, EntryLine[E]] = {}
    for entry in entries:
        key = entry.group_id if entry.group_id is not None else entry.id
        lines.setdefault(key, EntryLine()).rows.append(entry)
    return list(lines.values())


@dataclass(frozen=True)
class EntryShown:
    """All a page shows of one entry, as the ``entry`` macro of ``_parts.html`` draws it.

    The cards are stored codes (``JKR=K♥`` for a joker): ``melds`` holds each meld the entry
    put down together, ``onto`` the meld laid off onto or swapped from, ``joker_to`` the meld a
    swapped joker went into.
    """

    game_id: int
    id: int
    at: datetime
    name: str
    kind: str
    meld_kind: str | None
    cards: str
    melds: tuple[str, ...]
    onto: str
    joker_to: str
    value: int


def entries_shown(
    rows: Sequence[services.EntryRow],
    names: Mapping[int, str],
    game_id: int,
    variant: rules.Variant,
) -> list[EntryShown]:
    """Return what the pages show of each entry of a game (``entry_lines``), in order.

    A layoff or a swap shows its meld as it lay when the entry went on (a joker swapped out
    of it before has left it); a meld that no longer replays shows as it was recorded.
    """
    cards = {row.id: entry_cards(row) for row in rows}
    lay = {key: str(meld) for key, meld in services.melds_as_they_lay(rows, variant).items()}
    shown = []
    for line in entry_lines(rows):
        first = line.first
        new_melds = line.melds
        shown.append(
            EntryShown(
                game_id=game_id,
                id=first.id,
                at=first.created_at,
                name=names[first.player_id],
                kind=line.kind,
                meld_kind=first.meld_kind,
                cards=cards[first.id],
                melds=tuple(cards[meld.id] for meld in line.rows) if line.kind == "melds" else (),
                onto=lay.get(first.id) or cards.get(first.meld_id or 0, ""),
                joker_to=cards[new_melds[0].id] if line.kind == "swap" and new_melds else "",
                value=line.value,
            )
        )
    return shown


@dataclass(frozen=True)
class MeldShown:
    """A meld on the table as the entry form offers it: whose, its kind, its cards (codes)."""

    id: int
    name: str
    kind: str | None
    cards: str
    # The cards its jokers stand for, which may be put in their place ('' for no joker).
    places: str


def melds_shown(
    melds: Sequence[services.EntryRow],
    table: rules.Table[int],
    jokers: Mapping[int, Sequence[str]],
    names: Mapping[int, str],
) -> list[MeldShown]:
    """Return the melds on the table as the entry form offers them, in the order recorded."""
    return [
        MeldShown(
            entry.id,
            names[entry.player_id],
            entry.meld_kind,
            " ".join(str(card) for card in table.melds[entry.id].cards),
            " ".join(jokers[entry.id]),
        )
        for entry in melds
    ]


@dataclass(frozen=True)
class PastShown:
    """An ended game in the session's latest games: who went out, everyone's points."""

    id: int
    number: int
    status: str
    romme: bool
    winner: str | None
    points: tuple[tuple[str, int], ...]


def past_shown(
    games: Iterable[services.GameSummary],
    game_points: Mapping[int, Mapping[int, int]],
    names: Mapping[int, str],
) -> list[PastShown]:
    """Return what the session page shows of each ended game, in the games' order."""
    return [
        PastShown(
            game.id,
            game.number,
            game.status,
            bool(game.romme),
            names[game.winner_id] if game.winner_id is not None else None,
            tuple((names[player], points) for player, points in game_points[game.id].items()),
        )
        for game in games
    ]


@dataclass(frozen=True)
class StandingShown:
    """A player's row of the standing: the total, what is left to go, and the row's tags."""

    name: str
    total: int
    to_go: int | None
    leads: bool
    deals: bool
    left: bool


@dataclass(frozen=True)
class AuditShown:
    """A line of a game's audit trail as the history shows it: its time and its words."""

    at: datetime
    text: str
    kind: str = "audit"


def history_timeline(
    entries: Sequence[EntryShown],
    audit: Sequence[services.AuditRow],
    names: Mapping[int, str],
    variant: rules.Variant,
) -> list[EntryShown | AuditShown]:
    """Return a game's entries and its audit lines in time order, in the page's language.

    An entry and a line of the same moment: the entry first. The cards stay codes, for the
    page's ``suits`` to show in its letters and colours.
    """
    shown = [
        AuditShown(line.at, services.audit_text(line, names, variant, language(), codes=True))
        for line in audit
    ]
    merged: list[EntryShown | AuditShown] = []
    merged.extend(heapq.merge(entries, shown, key=lambda item: _utc_time(item.at)))
    return merged


def _utc_time(moment: datetime) -> datetime:
    # SQLite gives back the UTC times it stored without their zone.
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def line_of(entries: Sequence[services.EntryRow], entry_id: int) -> EntryLine[services.EntryRow]:
    """Return the line of the entry a row belongs to."""
    return next(line for line in entry_lines(entries) if entry_id in {r.id for r in line.rows})


def entry_cards(entry: Entered) -> str:
    """Return the cards an entry put down, in canonical form (the history shows ORM entries).

    A joker is shown with the card it stood for when it was put down, e.g. ``JKR=K♥``.
    """
    return " ".join(_stored_code(card) for card in entry.cards)


def entry_cards_label(entry: services.EntryRow) -> str:
    """Return the cards an entry put down, in the page's language."""
    lang = language()
    return " ".join(card_label(_stored_code(card), lang) for card in entry.cards)


def _stored_code(card: services.CardRow | TableCard) -> str:
    """Return a stored card's code; a joker's with what it stood for, when it stood for one."""
    return f"{card.card}={card.stands_for}" if card.stands_for else card.card


def describe(
    entry: services.EntryRow,
    entries: Sequence[services.EntryRow],
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


def _melds_sentence(rows: Sequence[Entered], player: str) -> str:
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
    entry: Entered, player: str, owner: str, now: str, new_meld: str, *, own: bool
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
    entry: Entered, player: str, owner: str = "", now: str = "", *, own: bool = False
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


class Standing(Protocol):
    """A player as the standing table lists them."""

    @property
    def id(self) -> int: ...


S = TypeVar("S", bound=Standing)


def standing_order(
    variant: rules.Variant, players: Sequence[S], totals: Mapping[int, int]
) -> list[S]:
    """Return the players in the order the rule system shows its standing (G7: fewest minus)."""
    by_id = {player.id: player for player in players}
    return [by_id[player] for player in variant.standing_order(list(by_id), totals)]


def standing_shown(
    session: GameSession,
    variant: rules.Variant,
    scores: services.SessionScores,
    dealer_id: int,
) -> list[StandingShown]:
    """Return the standing's rows: the seated players in order, then those who left the table."""
    standing = scores.standing
    finished = session.status == "finished" and standing.winner is not None
    return [
        StandingShown(
            player.name,
            scores.totals[player.id],
            standing.to_go(player.id) if player.seated else None,
            finished and standing.winner == player.id,
            session.status == "open" and dealer_id == player.id,
            not player.seated,
        )
        for player in standing_order(variant, session.seated, scores.totals) + session.left
    ]


def session_limit(session: GameSession) -> int | None:
    """Return the limit of minus points a session ends at, or None when it ends otherwise."""
    limit: int | None = services.variant_of(session).house_rules["end"].get("limit")
    return limit


def house_rules_in_words(variant: rules.Variant) -> list[str]:
    """Return the rules of a session in words: its rule system, how it ends, its house rules."""
    return list(_house_rules_in_words(variant, language()))


# Every page of a session says its rules: said once per rule system and language.
@functools.lru_cache(maxsize=256)
def _house_rules_in_words(variant: rules.Variant, lang: str) -> tuple[str, ...]:
    return variant.rules_said(lang)


def message_html(message: rules.Message) -> Markup:
    """Return a message of the rules as HTML, its ``name`` param isolated as a name (``bdi``)."""
    stand_in = "\x00name\x00"
    text = replace(message, params={**message.params, "name": stand_in})
    return escape(text.render(language())).replace(stand_in, bdi(message.params.get("name", "")))


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
