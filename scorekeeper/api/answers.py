"""The answers of /api/v1 as models: each describes an answer once, and builds it.

An answer model's ``of`` (or another constructor) makes the answer from what a use case
returned, and ``sent()`` gives its JSON; ``api.document`` takes each answer's schema from its
model (``schemas``). A field the answer leaves out where it does not apply (``absent``) is not
required, is never null when sent, and is sent only where the constructor sets it; a field that
may be null says so in its type. The tests validate real answers against them.

The models' base (``http.answers``) and the answer to a check of cards (``http.checks``), which
the game page's live check answers too, live below the API and the pages; they are listed here
with the others.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Annotated, Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, RootModel
from pydantic.json_schema import GenerateJsonSchema, models_json_schema

from scorekeeper import queries, rules, services, transfer
from scorekeeper.http.answers import Answer, absent
from scorekeeper.http.checks import (
    JOKERS,
    Ace,
    Cards,
    Check,
    CheckedMeld,
    CheckedNewMeld,
    JokerPlace,
    Kind,
    cards_of,
    game_check,
    opening_of,
    piece_code,
)
from scorekeeper.keys import SessionKeys
from scorekeeper.rules import groups as rules_groups

__all__ = [
    "Ace",
    "Answer",
    "Check",
    "CheckedMeld",
    "CheckedNewMeld",
    "JokerPlace",
    "game_check",
    "piece_code",
]


def utc_text(moment: datetime) -> str:
    """Return a time in ISO 8601 with its UTC offset, e.g. ``2026-11-23T04:24:51+00:00``.

    Only UTC times are written; SQLite gives them back without their zone.

    >>> utc_text(datetime(2026, 11, 23, 4, 24, 51))
    '2026-11-23T04:24:51+00:00'
    """
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC).isoformat()
    return moment.astimezone(UTC).isoformat()


# A rule system of the rules core (``Variant`` here is the answer that lists one).
RuleSystem = rules.Variant
# A time as the answers write it: UTC with its offset (+00:00, not Z).
Time = Annotated[datetime, PlainSerializer(utc_text, return_type=str, when_used="json")]
Id = Annotated[int, Field(ge=1)]
SessionId = Annotated[
    str, Field(description="A session's id: random, so that it cannot be guessed.")
]
GroupId = Annotated[str, Field(description="A group's id: random, so that it cannot be guessed.")]
Points = Annotated[dict[str, int], Field(description="Points keyed by player id (as a string).")]
GameStatus = Literal["open", "finished", "abandoned"]
SessionStatus = Literal["open", "finished"]
EntryType = Literal["meld", "layoff", "swap"]

# What a meld as it was put down counts towards an opening, in the answers about melds.
_TAPPED_AT = (
    "When the entry was tapped on the client that recorded it, where it sent a time the server "
    "kept (null otherwise); created_at is when it reached the server."
)
_MELD_OPENING_VALUE = (
    "Where the rule system has an opening (German Rummy, G3): what the meld as it was put down "
    "counts towards an opening (layoffs onto it never count); of a meld entry, its melds "
    "together. Answers about layoffs and swaps leave it out."
)
_GAMES_LEFT = "Only for a session of a fixed number of games."
# What an ended game books for each player, said per rule system (docs/api.md).
_BOOKED = (
    "What the game books for each player: their melds and layoffs plus the settlement. "
    "Treppenrommé: melds and layoffs, the winner adding the hands; German Rummy: 0 for the "
    "winner, minus the hand for each loser; Boathouse Rum: what the winner is paid, 0 for each "
    "loser; 500 Rum: melds and layoffs minus the hand, for every player (F2, F5); abandoned: "
    "melds and layoffs."
)


def _by_player(values: dict[int, int]) -> dict[str, int]:
    return {str(player_id): value for player_id, value in values.items()}


class Error(Answer):
    """A refusal: one sentence in the request's language."""

    error: str


class HouseRule(Answer):
    """A house rule of a rule system: its default and the values it allows."""

    name: str
    default: Any
    allowed: list[Any]


class Variant(Answer):
    """A rule system a session can be played by, with its house rules."""

    name: str
    title: str
    players: list[int]
    min_players: int = absent()
    max_players: int = absent()
    rules: list[HouseRule]

    @classmethod
    def of(cls, variant: RuleSystem, language: str) -> Self:
        """Return a rule system with its house rules, titled in a language."""
        described = variant.describe()
        return cls.made(
            **{
                **described,
                "title": variant.label(language),
                "rules": [HouseRule.made(**rule) for rule in described["rules"]],
            }
        )


class Variants(RootModel[list[Variant]]):
    """The rule systems, each titled in the request's language."""

    @classmethod
    def of(cls, variants: Iterable[rules.Variant], language: str) -> Self:
        """Return the rule systems, each titled in a language."""
        return cls.model_construct([Variant.of(variant, language) for variant in variants])

    def json_text(self) -> str:
        """Return the list as JSON text, as ``Answer.json_text`` writes each."""
        return self.model_dump_json(by_alias=True, exclude_unset=True, ensure_ascii=True)


class Document(RootModel[dict[str, Any]]):
    """The OpenAPI document of this API."""


class Player(Answer):
    """A player of a session."""

    id: Id
    name: str

    @classmethod
    def of(cls, player_id: int, name: str) -> Self:
        """Return a player by id and name."""
        return cls.made(id=player_id, name=name)


class GameSummary(Answer):
    """A game of a session, with each player's points in it."""

    id: Id
    number: int
    dealer: Id
    status: GameStatus
    winner: int | None
    romme: bool | None
    points: Points


class Session(Answer):
    """A session with its players, totals, winner and games."""

    id: SessionId
    status: SessionStatus
    target: int | None = Field(
        description="The total the session is played to; null when it ends after a number of "
        "games, or at a limit (German Rummy)."
    )
    variant: str
    rules: dict[str, Any] = Field(description="Every house rule of the session, defaults included.")
    games_left: int = absent(_GAMES_LEFT)
    players: list[Player] = Field(
        description="The players at the table, in seating order (clockwise)."
    )
    left: list[Player] = absent(
        "The players who left the table between games: their points stay in totals and in the "
        "games they played; to_go is null."
    )
    winner: int | None = Field(
        description="The player with the highest total when the session ended (in German "
        "Rummy: the fewest minus points), among the players at the table."
    )
    totals: Points = Field(
        description="The sums of the games' points, of the players who left too; German "
        "Rummy's are 0 or negative."
    )
    to_go: dict[str, int | None] = absent(
        "Each player's distance to the target, or in German Rummy to the limit (a total of -56 "
        "under a limit of -500 has 444 to go); null when the session ends after a number of "
        "games."
    )
    dealer: Id = absent()
    current_game: int | None = absent()
    games: list[GameSummary]

    @classmethod
    def of(cls, session: services.SessionSummary) -> Self:
        """Return a session with its players, totals, winner and games."""
        return cls.made(**cls._fields_of(session))

    @staticmethod
    def _fields_of(session: services.SessionSummary) -> dict[str, Any]:
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
            "players": [Player.of(player_id, name) for player_id, name in session.players],
            # Who left the table between games: their points stay in the totals and the games.
            "left": [Player.of(player_id, name) for player_id, name in session.left],
            "winner": standing.winner if session.status == "finished" else None,
            "totals": _by_player(scores.totals),
            "to_go": {
                str(pid): standing.to_go(pid) if pid in standing.totals else None
                for pid in scores.totals
            },
            "dealer": session.dealer_id,
            "current_game": current.id if current else None,
            "games": [
                GameSummary.made(
                    id=game.id,
                    number=game.number,
                    dealer=game.dealer_id,
                    status=game.status,
                    winner=game.winner_id,
                    romme=game.romme,
                    points=_by_player(scores.game_points[game.id]),
                )
                for game in scores.games
            ],
        }


class NewSession(Session):
    """The new session with its keys, handed out only here."""

    edit_key: str = Field(description="Send as Authorization: Bearer to read and write.")
    view_key: str = Field(description="Send as Authorization: Bearer to read only.")
    group: str | None = absent("The id of the group the session belongs to.")

    @classmethod
    def of_new(cls, session: services.SessionSummary, keys: SessionKeys, group: str | None) -> Self:
        """Return the new session with its keys and the id of its group."""
        return cls.made(
            **Session._fields_of(session), edit_key=keys.edit, view_key=keys.view, group=group
        )


class SheetRow(Answer):
    """A game of the score sheet with its points and each player's total after it."""

    id: Id
    number: int
    dealer: Id
    winner: int | None
    romme: bool | None
    status: GameStatus
    points: dict[str, int | None] = Field(
        description="Each player's points in the game; null for a player who did not play it."
    )
    totals: Points = Field(description="Each player's total after the game.")


class Sheet(Answer):
    """The score sheet: a row per game and the totals."""

    session: SessionId
    variant: str
    status: SessionStatus
    target: int | None = Field(description="The total the session is played to, or null.")
    limit: int = absent("German Rummy: the total that ends the session.")
    games_left: int = absent(_GAMES_LEFT)
    players: list[Player]
    games: list[SheetRow]
    totals: Points
    winner: int | None = absent()

    @classmethod
    def of(cls, sheet: services.Sheet) -> Self:
        """Return the score sheet: a row per game with its points and the totals after it.

        A player who sat a game out has ``null`` as points there; their total stays.
        """
        standing = sheet.standing
        end: dict[str, Any] = {"target": standing.target}
        if standing.limit is not None:
            end["limit"] = standing.limit
        if standing.games_left is not None:
            end["games_left"] = standing.games_left
        return cls.made(
            session=sheet.public_id,
            variant=sheet.variant,
            status=sheet.status,
            **end,
            players=[Player.of(player_id, name) for player_id, name in sheet.players],
            games=[
                SheetRow.made(
                    id=row.id,
                    number=row.number,
                    dealer=row.dealer_id,
                    winner=row.winner_id,
                    romme=row.romme,
                    status=row.status,
                    points={str(player_id): points for player_id, points in row.points.items()},
                    totals=_by_player(row.totals),
                )
                for row in sheet.rows
            ],
            totals=_by_player(sheet.totals),
            winner=standing.winner if sheet.status == "finished" else None,
        )


class Export(Answer):
    """The export document that scorekeeper import reads."""

    format: str = Field(json_schema_extra={"const": transfer.FORMAT})
    version: int
    sessions: list[dict[str, Any]]
    groups: list[dict[str, Any]] = absent("The groups the sessions belong to.")


class Meld(Answer):
    """A meld as it lies now: its cards with layoffs, and the value written for it."""

    id: Id
    player: Id
    kind: Kind
    cards: Cards
    value: int
    jokers: list[JokerPlace] = absent(JOKERS)
    opening_value: int = absent(_MELD_OPENING_VALUE)
    values: list[int] = absent(
        "The answers of POST …/melds: what each card scores as it was put down, in the order "
        "of cards (an ace 15, 10, 5 or 1 by where it lies; a joker as the rule system values it)."
    )

    @classmethod
    def of(
        cls,
        entry: services.EntryRow,
        lying: rules.Meld,
        variant: rules.Variant,
        put_down: rules.Meld | None = None,
        **more: Any,
    ) -> Self:
        """Return a meld as it lies now: its cards with layoffs, and the value written for it.

        Given the meld as it was put down, the answer says what that counts towards an opening
        (G3), where the rule system has one; the answers about layoffs and swaps leave it out.
        """
        return cls.made(
            id=entry.id,
            player=entry.player_id,
            kind=entry.meld_kind,
            **cards_of(lying, variant),
            value=entry.value,
            **opening_of(None if put_down is None else [put_down], variant),
            **more,
        )

    @classmethod
    def recorded(cls, entry: services.EntryRow, meld: rules.Meld, variant: rules.Variant) -> Self:
        """Return a meld just put down, with what each card scores (``values``, R3)."""
        return cls.of(entry, meld, variant, meld, values=list(meld.values))


class Entry(Answer):
    """An entry as the recorder wrote it; melds recorded together are one entry."""

    id: Id
    type: EntryType = Field(description="swap: a joker swap (German Rummy, G4).")
    player: Id
    meld: Id = Field(description="A layoff's meld; for a swap, the meld the joker left.")
    melds: list[Id] = absent(
        "A meld entry's melds: one, or several put down at once; for a swap, the new meld's id."
    )
    cards: Cards = Field(
        description="The cards put down; for a swap, those put in the joker's place and the "
        "new meld's."
    )
    values: list[int] = absent()
    value: int
    opening_value: int = absent(_MELD_OPENING_VALUE)
    position: int = absent()
    created_at: Time = absent()
    tapped_at: Time | None = Field(None, description=_TAPPED_AT)

    @classmethod
    def fields_of(cls, entry: services.EntryRow) -> dict[str, Any]:
        """Return an entry as the recorder wrote it; a swap's new meld joins it (its "melds")."""
        melds: dict[str, Any] = {"melds": [entry.id]} if entry.kind == "meld" else {}
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
            "created_at": entry.created_at,
            "tapped_at": entry.tapped_at,
        }

    @classmethod
    def of_game(
        cls, entries: list[services.EntryRow], table: rules.Table[int], variant: rules.Variant
    ) -> list[Entry]:
        """Return a game's entries in order; the melds recorded together are one entry.

        A meld entry says what its melds count towards an opening together (G3), where the
        rule system has one; layoffs and swaps do not.
        """
        items: list[dict[str, Any]] = []
        first: dict[int, dict[str, Any]] = {}
        put_down: dict[int, list[rules.Meld]] = {}
        for entry in entries:
            if entry.group_id is None:
                item = first[entry.id] = cls.fields_of(entry)
                if entry.kind == "meld":
                    put_down[entry.id] = [table.put_down[entry.id]]
                items.append(item)
                continue
            item = first[entry.group_id]
            item["melds"].append(entry.id)
            item["cards"] += [card.card for card in entry.cards]
            item["values"] += [card.value for card in entry.cards]
            item["value"] += entry.value
            if entry.group_id in put_down:
                put_down[entry.group_id].append(table.put_down[entry.id])
        return [cls.made(**item, **opening_of(put_down.get(item["id"]), variant)) for item in items]


class AuditBefore(Answer):
    """The entry as it stood, or for a reopen the result taken back.

    An entry: id, type, player, meld, melds, cards, value as in entries; onto: the cards of the
    meld a layoff or swap went onto, as recorded; meld_cards: the cards of each meld put down,
    a swap's new meld. A reopen: status, winner, romme, hands, hand_points, factors,
    settlement, points.
    """

    id: Id = absent()
    meld: Id | None = absent()
    melds: list[Id] = absent()
    type: EntryType = absent()
    player: Id = absent()
    cards: Cards = absent()
    onto: Cards = absent()
    meld_cards: list[Cards] = absent()
    value: int = absent()
    status: Literal["finished", "abandoned"] = absent()
    winner: int | None = absent()
    romme: bool | None = absent()
    hands: dict[str, Cards] = absent()
    hand_points: Points = absent()
    factors: Points = absent()
    settlement: Points = absent()
    points: Points = absent()


class AuditLine(Answer):
    """A line of a game's audit trail: when, what, whose entry, before and after, in words."""

    at: Time
    action: Literal["corrected", "deleted", "undone", "restored", "reopened", "recomputed"]
    entry: Id | None = Field(
        description="The entry changed (of several melds, its first meld's id); null for a "
        "reopen and a recomputed game."
    )
    player: Id | None = Field(
        description="Whose entry it was (before a correction); for a reopen the winner it had "
        "booked, null for an abandoned game; for a recomputed game its winner."
    )
    before: AuditBefore
    after: dict[str, Any] | None = Field(
        description="A correction's entry as corrected, shaped as before; null for a delete, "
        "an undo and a reopen. For a game an import settled again by today's rules "
        "(recomputed): the booking made, shaped as before, with the ruling that changed it "
        '("ruling": {"message": the rules\' message id, and its numbers}).'
    )
    text: str = Field(
        description="The line in words in the request's language (?lang=de), e.g. corrected: "
        "7♣ → 7♠, Bob → Ann; the time is in at."
    )

    @classmethod
    def of(cls, line: services.AuditRow, game: services.GameState, language: str) -> Self:
        """Return a line of a game's audit trail, its words in a language.

        A joker is written ``JKR`` in the cards, as in the entries.
        """
        names = {player.id: player.name for player in game.players}
        return cls.made(
            at=line.at,
            action=line.action,
            entry=line.entry_id,
            player=line.player_id,
            before=AuditBefore.made(**_jokers_plain(line.before)),
            after=None if line.after is None else _jokers_plain(line.after),
            text=services.audit_text(line, names, game.variant, language),
        )


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


class Game(Answer):
    """A game with its melds as they lie, its entries, points and audit trail."""

    id: Id
    session: SessionId = absent()
    number: int
    dealer: Id
    cards_dealt: int = Field(description="Cards dealt to each.")
    first_player: Id = Field(description="The player who plays first.")
    status: GameStatus
    winner: int | None = absent()
    romme: bool | None = absent()
    melds: list[Meld]
    entries: list[Entry]
    points: Points
    booked: Points = absent(_BOOKED + " Only once the game has ended; the same as its points then.")
    audit: list[AuditLine] = Field(
        description="The audit trail: every correction, delete, undo and reopen of the game, "
        "in time order. The points come from the entries and the settlement as they stand, "
        "never from here."
    )

    @classmethod
    def of(cls, game: services.GameState, language: str = "en") -> Self:
        """Return a game with the melds as they lie now, its entries in order, and its points.

        ``audit`` is its audit trail where the game was read with it (a new game has none),
        each line's ``text`` in ``language``. ``booked`` is there once the game has ended.
        """
        table = services.table_of(game)
        deal = services.deal_of(game)
        points = _by_player(services.game_points(game))
        # An open game's points are its entries so far, and it has booked nothing yet.
        booked = {} if game.status == "open" else {"booked": points}
        return cls.made(
            id=game.id,
            session=game.session_public_id,
            number=game.number,
            dealer=game.dealer_id,
            cards_dealt=deal.cards_dealt,
            first_player=deal.first_player,
            status=game.status,
            winner=game.winner_id,
            romme=game.romme,
            melds=[
                Meld.of(entry, table.melds[entry.id], game.variant, table.put_down[entry.id])
                for entry in game.entries
                if entry.kind == "meld"
            ],
            entries=Entry.of_game(game.entries, table, game.variant),
            points=points,
            **booked,
            audit=[AuditLine.of(line, game, language) for line in game.audit or ()],
        )


class MeldWithEntry(Meld):
    """A meld recorded from cards, and the id of the entry that recorded it (the same id)."""

    entry: Id = absent()

    @classmethod
    def of_recorded(cls, recorded: services.Recorded) -> Self:
        """Return a meld recorded from cards, with its entry's id."""
        meld = Meld.recorded(recorded.entry, recorded.meld, recorded.variant)
        return cls.made(**meld.fields(), entry=recorded.id)


class SeveralMelds(Answer):
    """Several melds put down as one entry: the entry's id, each meld and their value."""

    entry: Id
    melds: list[Meld]
    value: int
    opening_value: int = absent(_MELD_OPENING_VALUE)

    @classmethod
    def of(cls, several: services.RecordedMelds) -> Self:
        """Return several melds recorded as one entry, each as it was put down."""
        return cls.made(
            entry=several.id,
            melds=[Meld.recorded(row, meld, several.variant) for row, meld in several.melds],
            value=several.value,
            **opening_of([meld for _row, meld in several.melds], several.variant),
        )


def _one_of(schema: dict[str, Any]) -> None:
    """Say that exactly one of the alternatives fits (they never both do)."""
    schema["oneOf"] = schema.pop("anyOf")


class MeldRecorded(RootModel[MeldWithEntry | SeveralMelds]):
    """For cards: the meld and its entry; for melds: the entry, each meld and their value."""

    model_config = ConfigDict(json_schema_extra=_one_of)


class Layoff(Answer):
    """The layoff, with the meld as it lies now."""

    id: Id
    type: Literal["layoff"] = absent()
    player: Id = absent()
    cards: Cards = absent()
    values: list[int] = absent()
    value: int
    position: int = absent()
    created_at: Time = absent()
    tapped_at: Time | None = Field(None, description=_TAPPED_AT)
    meld: Meld

    @classmethod
    def of(cls, recorded: services.Recorded) -> Self:
        """Return the layoff just recorded, with the meld as it lies now."""
        meld = Meld.of(recorded.meld_entry, recorded.meld, recorded.variant)
        return cls.made(**{**Entry.fields_of(recorded.entry), "meld": meld})


class Swap(Answer):
    """The swap's entry, the meld as it lies now, and the new meld."""

    entry: Id
    meld: Meld
    new_meld: Meld

    @classmethod
    def of(cls, swap: services.RecordedSwap) -> Self:
        """Return the swap just recorded: its entry, the meld after it, the new meld."""
        return cls.made(
            entry=swap.id,
            meld=Meld.of(swap.meld_entry, swap.meld, swap.variant),
            new_meld=Meld.of(swap.new_meld_row, swap.new_meld, swap.variant),
        )


class Corrected(Entry):
    """The entry as corrected, and the game after it."""

    game: Game = absent()

    @classmethod
    def of(cls, corrected: services.Corrected, language: str) -> Self:
        """Return the entry as corrected and the game after it."""
        game = Game.of(corrected.game, language)
        return cls.made(**Entry.fields_of(corrected.entry), game=game)


class Undone(Answer):
    """The id of the undone entry and the game after it."""

    undone: Id = absent()
    game: Game = absent()

    @classmethod
    def of(cls, undone: services.Undone, language: str) -> Self:
        """Return the id of the entry undone and the game after it."""
        return cls.made(undone=undone.id, game=Game.of(undone.game, language))


class Finish(Answer):
    """The settlement of a finished or abandoned game, with the session after it."""

    game: Id = absent()
    status: str = absent()
    winner: int | None
    romme: bool | None = Field(
        description="Whether the winner had a Rommé hand (German Rummy: a Hand-Rommé, which "
        "doubles only by a house rule, GET /api/v1/variants); null where nobody went out (an "
        "abandoned game, a game nobody went out of), as in the session's games."
    )
    romme_possible: bool = absent()
    romme_reason: str | None = absent(
        "In a preview: why the entries allow a Rommé hand or not (the winner's entries after "
        "every other player's, with at least the cards dealt), in the request's language; null "
        "when abandoning."
    )
    hand_points: Points = Field(
        description="What each loser's hand counts before doubling (Boathouse Rum: its "
        "unmatched cards; German Rummy: all its cards, a joker 30 or as the house rules say)."
    )
    factors: Points = absent()
    settlement: Points = Field(
        description="Each player's points from the settlement. German Rummy: 0 for the winner, "
        "minus the hand for each loser, doubling included."
    )
    paid: Points = Field(description="What each loser pays, doubling included.")
    booked: Points = absent(_BOOKED + " A preview says what finishing would book.")
    unmatched: dict[str, Cards] = Field(description="Boathouse Rum: each loser's cards paid for.")
    matched: dict[str, list[Cards]] = Field(
        description="Boathouse Rum: the melds found in each loser's hand."
    )
    session: Session

    @classmethod
    def of(cls, finish: services.Finish) -> Self:
        """Return the settlement of a finished or abandoned game with the session after it."""
        return cls.made(**cls._fields_of(finish))

    @classmethod
    def preview(cls, finish: services.Finish, language: str) -> Self:
        """Return what finishing would book, and why the entries allow a Rommé hand or not."""
        why = finish.settlement.romme_why
        return cls.made(
            **{
                **cls._fields_of(finish),
                "status": "preview",
                "romme_possible": finish.romme_possible,
                "romme_reason": why.render(language) if why is not None else None,
            }
        )

    @staticmethod
    def _fields_of(finish: services.Finish) -> dict[str, Any]:
        settlement = finish.settlement
        session = finish.session or services.summarize_session(
            services.get_session(finish.game.session_id)
        )
        return {
            "game": finish.game.id,
            "status": finish.game.status,
            "winner": settlement.winner,
            # Whether the winner went out with a Rommé hand: null where nobody went out, as in
            # the session's games and the game's own answer.
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
            "session": Session.of(session),
        }


# --- groups -------------------------------------------------------------------------------------


class Merge(Answer):
    """Two names that are one person: name is counted as same_as."""

    name: str
    same_as: str

    @classmethod
    def of_all(cls, merges: list[services.MergeRow]) -> list[Merge]:
        """Return a group's merged names in the order they were merged."""
        return [cls.made(name=merge.name, same_as=merge.same_as) for merge in merges]


class Merged(Merge):
    """The merge, and every merge of the group in the order made."""

    merges: list[Merge]

    @classmethod
    def of(cls, merges: list[services.MergeRow]) -> Self:
        """Return the latest merge, and every merge of the group in the order made."""
        return cls.made(
            name=merges[-1].name, same_as=merges[-1].same_as, merges=Merge.of_all(merges)
        )


class GroupSession(Answer):
    """A session of a group."""

    id: SessionId
    variant: str
    status: SessionStatus
    created_at: Time
    games: int = Field(description="Games ended.")
    players: list[Player]
    totals: Points = Field(description="As the session's totals (a game in play too).")
    winner: int | None


class Group(Answer):
    """A group with its sessions, newest first, and its merged names."""

    id: GroupId
    name: str
    created_at: Time
    merges: list[Merge]
    sessions: list[GroupSession] = Field(description="Newest first.")

    @classmethod
    def of(cls, read: services.GroupSessions, **keys: str) -> Self:
        """Return a group with its sessions, newest first, and its merged names."""
        return cls.made(
            id=read.group.public_id,
            name=read.group.name,
            created_at=read.group.created_at,
            merges=Merge.of_all(read.merges),
            sessions=[
                GroupSession.made(
                    id=session.public_id,
                    variant=session.variant.name,
                    status=session.status,
                    created_at=session.created_at,
                    games=session.games_ended,
                    players=[Player.of(player.id, player.name) for player in session.players],
                    totals={str(player.id): player.total for player in session.players},
                    winner=session.winner(),
                )
                for session in read.sessions
            ],
            **keys,
        )


class NewGroup(Group):
    """The new group with its keys, handed out only here."""

    edit_key: str = Field(
        description="Send as Authorization: Bearer to merge names, and as group_key to add a "
        "session."
    )
    view_key: str = Field(description="Send as Authorization: Bearer to read only.")


class RecordedMeld(Answer):
    """A meld as recorded: its kind, cards, value and where."""

    kind: Kind
    cards: Cards = Field(description="As put down at once; a joker as JKR.")
    length: int = Field(ge=3)
    value: int = Field(description="What was written for it (R3).")
    session: SessionId
    game: int = Field(description="The game's number.")

    @classmethod
    def of(cls, meld: rules_groups.RecordedMeld | None) -> Self | None:
        """Return a meld as recorded: its kind, cards (a joker as ``JKR``), value and where."""
        if meld is None:
            return None
        return cls.made(
            kind=meld.kind,
            cards=list(meld.cards),
            length=len(meld.cards),
            value=meld.value,
            session=meld.session,
            game=meld.game,
        )


class Person(Answer):
    """What one person's games of a rule system add up to."""

    name: str = Field(
        description="The latest spelling of the person's own name, or the name merged into."
    )
    names: list[str] = Field(description="Every spelling played under.")
    sessions: int = Field(description="Sessions with a game played to its end.")
    sessions_won: int
    games: int = Field(description="Games played to their end.")
    games_won: int
    points: int = Field(
        description="Over those games, as each game's points (the settlement included)."
    )
    average: float | None = Field(description="points / games; null before a game ended.")
    romme: int = Field(description="Games won with a Rommé hand.")
    best_meld: RecordedMeld | None = Field(
        description="The highest value written, then the most cards (where melds score "
        "nothing: the most cards), then the first."
    )
    longest_sequence: RecordedMeld | None = Field(
        description="The sequence of the most cards put down at once, then the highest value."
    )


class Standing(Answer):
    """A name and its total, in the order of the standing."""

    name: str
    total: int


class LastResult(Answer):
    """One of a group's latest sessions."""

    session: SessionId
    created_at: Time
    status: SessionStatus
    games: int
    winner: str | None
    totals: list[Standing] = Field(description="In the order of the standing.")


class RuleSystemStatistics(Answer):
    """What a group's sessions of one rule system add up to."""

    variant: str
    title: str
    sessions: int
    games: int = Field(description="Games ended.")
    people: list[Person] = Field(description="Most sessions won first, then most games won.")
    last_results: list[LastResult] = Field(description="The latest sessions, newest first.")

    @classmethod
    def of(cls, system: rules_groups.RuleSystemStatistics, language: str) -> Self:
        """Return what a group's sessions of one rule system add up to."""
        return cls.made(
            variant=system.variant.name,
            title=system.variant.label(language),
            sessions=system.sessions,
            games=system.games,
            people=[
                Person.made(
                    name=person.name,
                    names=list(person.names),
                    sessions=person.sessions,
                    sessions_won=person.sessions_won,
                    games=person.games,
                    games_won=person.games_won,
                    points=person.points,
                    average=person.average,
                    romme=person.romme,
                    best_meld=RecordedMeld.of(person.best_meld),
                    longest_sequence=RecordedMeld.of(person.longest_sequence),
                )
                for person in system.people
            ],
            last_results=[
                LastResult.made(
                    session=result.public_id,
                    created_at=result.created_at,
                    status=result.status,
                    games=result.games,
                    winner=result.winner,
                    totals=[Standing.made(name=name, total=total) for name, total in result.totals],
                )
                for result in system.last_results
            ],
        )


class GroupStatistics(Answer):
    """What a group's sessions add up to, per rule system and person."""

    id: GroupId
    name: str
    merges: list[Merge]
    rule_systems: list[RuleSystemStatistics] = Field(
        description="One for each rule system the group played, in the order of GET "
        "/api/v1/variants: points of different systems do not add up."
    )

    @classmethod
    def of(cls, statistics: services.GroupStatistics, language: str) -> Self:
        """Return what a group's sessions add up to per rule system (titles in a language)."""
        read = statistics.sessions
        return cls.made(
            id=read.group.public_id,
            name=read.group.name,
            merges=Merge.of_all(read.merges),
            rule_systems=[
                RuleSystemStatistics.of(system, language) for system in statistics.rule_systems
            ],
        )


EveningId = Annotated[
    str, Field(description="An evening's id: random, so that it cannot be guessed.")
]


class EveningTable(Answer):
    """A table of a series: a session as any other, with its own edit key."""

    number: int = Field(ge=1, description="Table 1 first.")
    session: SessionId = Field(description="The table's session (GET /api/v1/sessions/{id}).")
    players: list[str] = Field(description="In seating order (clockwise); the first deals first.")
    edit_key: str = absent(
        "The table's session's edit key, for its recorder phone: only with the evening's edit key."
    )
    game: int = Field(
        ge=0, description="The game being played, or the last one ended (0: none dealt yet)."
    )
    games: int | None = Field(description="The games of the series; null: a series of minutes.")
    leader: str | None = Field(description="Who leads the table; null before a game ended.")
    ended: bool = Field(description="Whether the table's series is over.")


class EveningSeries(Answer):
    """A series as seated, with its tables."""

    number: int = Field(ge=1)
    drawn: bool = Field(description="Drawn by lot (else seated by the standing).")
    seed: int = Field(description="The seed of the draw: the same seed draws the same seats.")
    started_at: Time | None = Field(description="When its first game was dealt.")
    tables: list[EveningTable]


class EveningRanking(Answer):
    """A player's line of the evening's ranking (E9)."""

    player: str
    total: int = Field(description="The sum of the series totals.")
    series: list[int] = Field(description="The player's total of each series so far.")
    games_won: int = Field(ge=0)
    place: int = Field(ge=1, description='Shared places skip the next: "1, 2, 2, 4".')
    shared: bool


class Evening(Answer):
    """A club evening: its series with their tables, and the ranking over them."""

    id: EveningId
    name: str
    variant: str
    house_rules: dict[str, Any]
    players: list[str]
    series_count: int = Field(ge=1, description="How many series the evening has.")
    games_per_series: int | None
    minutes_per_series: int | None
    table_size: int
    seating: Literal["standing", "drawn"]
    small_tables: bool
    created_at: Time
    series: list[EveningSeries] = Field(description="The series seated so far, the first first.")
    ranking: list[EveningRanking] = Field(description="Best first.")
    redraw_possible: bool = Field(
        description="Whether the latest series may be drawn again (drawn, and no table began)."
    )
    next_series_possible: bool = Field(
        description="Whether the next series may be seated now (every table ended)."
    )

    @classmethod
    def of(cls, view: queries.EveningView, keys: SessionKeys | None = None) -> dict[str, Any]:
        """Return an evening as the API answers it; ``keys``: the edit key's, for the tables'."""
        evening = view.evening
        progress = {table.table.session_id: table for table in view.progress}

        def table(number: int, row: Any) -> dict[str, Any]:
            shown = progress.get(row.session_id)
            fields: dict[str, Any] = {
                "number": row.number,
                "session": row.session_public_id,
                "players": [seat.name for seat in row.players],
                "game": shown.game if shown else row.games_ended,
                "games": view.plan.end.games,
                "leader": shown.leader if shown else None,
                "ended": shown.ended if shown else True,
            }
            if keys is not None:
                fields["edit_key"] = keys.table(number, row.number).edit
            return fields

        fields = {
            "id": evening.public_id,
            "name": evening.name,
            "variant": evening.variant,
            "house_rules": json.loads(evening.house_rules),
            "players": list(evening.players),
            "series_count": evening.series,
            "games_per_series": evening.games_per_series,
            "minutes_per_series": evening.minutes_per_series,
            "table_size": evening.table_size,
            "seating": evening.seating,
            "small_tables": evening.small_tables,
            "created_at": evening.created_at,
            "series": [
                {
                    "number": series.number,
                    "drawn": series.drawn,
                    "seed": series.seed,
                    "started_at": series.started_at,
                    "tables": [table(series.number, row) for row in series.tables],
                }
                for series in view.series
            ],
            "ranking": [
                {
                    "player": row.player,
                    "total": row.total,
                    "series": list(row.series),
                    "games_won": row.games_won,
                    "place": row.place,
                    "shared": row.shared,
                }
                for row in view.ranking
            ],
            "redraw_possible": view.redraw_possible,
            "next_series_possible": view.next_series_possible,
        }
        return cls.model_validate(fields).sent()


class NewEvening(Evening):
    """The new evening with its keys, handed out only here."""

    edit_key: str = Field(
        description="Send as Authorization: Bearer to seat the series; opens every table's key."
    )
    view_key: str = Field(description="Send as Authorization: Bearer to read only (the board).")


class SeasonEvening(Answer):
    """An evening of a club's season, in the order held."""

    id: EveningId
    name: str
    created_at: Time


class SeasonRanking(Answer):
    """A person's line of a season's ranking (E11)."""

    player: str = Field(description="The name the person played under last (merges followed).")
    points: int = Field(ge=0, description="The sum of the evenings counted.")
    evenings: list[int | None] = Field(
        description="The points of each evening, in the order held (an evening's players less "
        "the place plus 1); null: not there."
    )
    counted: list[bool] = Field(description="Which of those evenings count (the best k).")
    played: int = Field(ge=0, description="How many of the season's evenings the person played.")
    place: int = Field(ge=1, description='Shared places skip the next: "1, 2, 2, 4".')
    shared: bool


class Season(Answer):
    """A club's season: its evenings and each person's points over them, best first."""

    group: GroupId
    planned: int | None = Field(description="The season's evenings as asked; null: as held.")
    best: int | None = Field(description="Each person's best evenings counted; null: all.")
    evenings: list[SeasonEvening] = Field(description="The group's evenings, the first first.")
    ranking: list[SeasonRanking] = Field(description="Best first.")

    @classmethod
    def of(cls, season: queries.Season) -> Self:
        """Return a club's season as the API answers it."""
        return cls.made(
            group=season.group.public_id,
            planned=season.rule.evenings,
            best=season.rule.best,
            evenings=[
                SeasonEvening.made(id=each.public_id, name=each.name, created_at=each.created_at)
                for each in season.evenings
            ],
            ranking=[
                SeasonRanking.made(
                    player=row.name,
                    points=row.points,
                    evenings=list(row.evenings),
                    counted=list(row.counted),
                    played=row.played,
                    place=row.place,
                    shared=row.shared,
                )
                for row in season.ranking
            ],
        )


class _Untitled(GenerateJsonSchema):
    """Write schemas without a title on every field: the field's name says it."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


REF = "#/components/schemas/{model}"


def schemas(answers: list[type[BaseModel]]) -> dict[str, Any]:
    """Return the JSON schemas of the answer models and of the models they hold, by name."""
    _, defs = models_json_schema(
        [(model, "validation") for model in answers],
        ref_template=REF,
        schema_generator=_Untitled,
    )
    found: dict[str, Any] = defs.get("$defs", {})
    return found


def ref(model: type[BaseModel]) -> dict[str, str]:
    """Return the reference to a model's schema in the document's components."""
    return {"$ref": REF.format(model=model.__name__)}


def inline(model: type[BaseModel]) -> dict[str, Any]:
    """Return a model's schema whole, with the schemas it refers to written in place."""
    found = schemas([model])

    def resolved(node: Any) -> Any:
        if isinstance(node, list):
            return [resolved(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            return resolved(found[node["$ref"].removeprefix(REF.format(model=""))])
        return {key: resolved(value) for key, value in node.items()}

    return dict(resolved(found[model.__name__]))
