"""The answers of /api/v1 as models: the OpenAPI document's answer schemas are written from them.

``api.serialize`` builds the answers as it always did; these models describe them, once, and
``api.document`` takes each answer's schema from its model (``schemas``). A field the answer
leaves out where it does not apply (``absent``) is not required, and is never null when sent;
a field that may be null says so in its type. The tests validate real answers against them.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, RootModel
from pydantic.json_schema import GenerateJsonSchema, models_json_schema

from scorekeeper import queries, transfer
from scorekeeper.api.models import absent
from scorekeeper.keys import SessionKeys

Id = Annotated[int, Field(ge=1)]
SessionId = Annotated[
    str, Field(description="A session's id: random, so that it cannot be guessed.")
]
GroupId = Annotated[str, Field(description="A group's id: random, so that it cannot be guessed.")]
Points = Annotated[dict[str, int], Field(description="Points keyed by player id (as a string).")]
Cards = list[str]
Kind = Literal["set", "sequence"]
GameStatus = Literal["open", "finished", "abandoned"]
SessionStatus = Literal["open", "finished"]
EntryType = Literal["meld", "layoff", "swap"]

_JOKERS = (
    'German Rummy: each joker, by its place in "cards" (index, from 0, where it lies as "JKR"), '
    "and the cards it may stand for: one in a sequence, each missing suit in a set."
)
_OPENING_VALUE = (
    "German Rummy: what the meld counts towards an opening (G3): 2-10 face value, J Q K 10, ace "
    "11 in a set or after the K and 1 before the 2, a joker the card it stands for."
)
# What a meld as it was put down counts towards an opening, in the answers about melds.
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


class Answer(BaseModel):
    """A JSON object the API answers with."""

    model_config = ConfigDict(populate_by_name=True)


class Error(Answer):
    """A refusal: one sentence in the request's language."""

    error: str


class JokerPlace(Answer):
    """A joker in a meld: its place in the cards and what it may stand for."""

    index: int = Field(ge=0)
    stands_for: list[str] = Field(alias="as", min_length=1)


class Ace(Answer):
    """Where a scored ace lies and what it scores there."""

    card: str
    position: Literal["set", "high", "corner", "low"]
    value: int


class CheckedMeld(Answer):
    """A joker swap: the meld after the swap."""

    kind: Kind = absent()
    cards: Cards = absent()
    jokers: list[JokerPlace] = absent(_JOKERS)


class CheckedNewMeld(CheckedMeld):
    """A meld as the check reads it: of a joker swap the new meld, or one of several melds."""

    values: list[int] = absent()
    value: int = absent()
    opening_value: int = absent(_OPENING_VALUE)
    aces: list[Ace] = absent("Where each scored ace lies and what it scores there.")


class Check(Answer):
    """The verdict on cards as a meld, several melds, a layoff or a joker swap."""

    valid: bool
    kind: Kind = absent()
    cards: Cards = absent()
    added: Cards = absent()
    values: list[int] = absent()
    value: int = absent()
    aces: list[Ace] = absent("Where each scored ace lies and what it scores there.")
    error: str = absent()
    jokers: list[JokerPlace] = absent(_JOKERS)
    joker_choices: Cards = absent(
        "German Rummy, valid false: the cards a joker in doubt may stand for (G2); say which "
        "as JKR=<card>."
    )
    opening_value: int = absent(_OPENING_VALUE)
    melds: list[CheckedNewMeld] = absent(
        "A game's check of several melds put down together: each meld as a check of one "
        "answers it; value and opening_value add them up."
    )
    meld: CheckedMeld = absent("A joker swap: the meld after the swap.")
    new_meld: CheckedNewMeld = absent("A joker swap: the new meld with the joker taken.")


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


class Variants(RootModel[list[Variant]]):
    """The rule systems, each titled in the request's language."""


class Document(RootModel[dict[str, Any]]):
    """The OpenAPI document of this API."""


class Player(Answer):
    """A player of a session."""

    id: Id
    name: str


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


class NewSession(Session):
    """The new session with its keys, handed out only here."""

    edit_key: str = Field(description="Send as Authorization: Bearer to read and write.")
    view_key: str = Field(description="Send as Authorization: Bearer to read only.")
    group: str | None = absent("The id of the group the session belongs to.")


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
    jokers: list[JokerPlace] = absent(_JOKERS)
    opening_value: int = absent(_MELD_OPENING_VALUE)
    values: list[int] = absent(
        "The answers of POST …/melds: what each card scores as it was put down, in the order "
        "of cards (an ace 15, 10, 5 or 1 by where it lies; a joker as the rule system values it)."
    )


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
    created_at: datetime = absent()


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

    at: datetime
    action: Literal["corrected", "deleted", "undone", "restored", "reopened"]
    entry: Id | None = Field(
        description="The entry changed (of several melds, its first meld's id); null for a reopen."
    )
    player: Id | None = Field(
        description="Whose entry it was (before a correction); for a reopen the winner it had "
        "booked, null for an abandoned game."
    )
    before: AuditBefore
    after: dict[str, Any] | None = Field(
        description="A correction's entry as corrected, shaped as before; null for a delete, "
        "an undo and a reopen."
    )
    text: str = Field(
        description="The line in words in the request's language (?lang=de), e.g. corrected: "
        "7♣ → 7♠, Bob → Ann; the time is in at."
    )


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


class MeldWithEntry(Meld):
    """A meld recorded from cards, and the id of the entry that recorded it (the same id)."""

    entry: Id = absent()


class SeveralMelds(Answer):
    """Several melds put down as one entry: the entry's id, each meld and their value."""

    entry: Id
    melds: list[Meld]
    value: int
    opening_value: int = absent(_MELD_OPENING_VALUE)


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
    created_at: datetime = absent()
    meld: Meld


class Swap(Answer):
    """The swap's entry, the meld as it lies now, and the new meld."""

    entry: Id
    meld: Meld
    new_meld: Meld


class Corrected(Entry):
    """The entry as corrected, and the game after it."""

    game: Game = absent()


class Undone(Answer):
    """The id of the undone entry and the game after it."""

    undone: Id = absent()
    game: Game = absent()


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


# --- groups -------------------------------------------------------------------------------------


class Merge(Answer):
    """Two names that are one person: name is counted as same_as."""

    name: str
    same_as: str


class Merged(Merge):
    """The merge, and every merge of the group in the order made."""

    merges: list[Merge]


class GroupSession(Answer):
    """A session of a group."""

    id: SessionId
    variant: str
    status: SessionStatus
    created_at: datetime
    games: int = Field(description="Games ended.")
    players: list[Player]
    totals: Points = Field(description="As the session's totals (a game in play too).")
    winner: int | None


class Group(Answer):
    """A group with its sessions, newest first, and its merged names."""

    id: GroupId
    name: str
    created_at: datetime
    merges: list[Merge]
    sessions: list[GroupSession] = Field(description="Newest first.")


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
    created_at: datetime
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


class GroupStatistics(Answer):
    """What a group's sessions add up to, per rule system and person."""

    id: GroupId
    name: str
    merges: list[Merge]
    rule_systems: list[RuleSystemStatistics] = Field(
        description="One for each rule system the group played, in the order of GET "
        "/api/v1/variants: points of different systems do not add up."
    )


def _utc(moment: datetime) -> datetime:
    """Return a time in UTC (SQLite gives times back without their zone, UTC)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


UtcTime = Annotated[datetime, AfterValidator(_utc)]
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
    started_at: UtcTime | None = Field(description="When its first game was dealt.")
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
    created_at: UtcTime
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

    def sent(self) -> dict[str, Any]:
        """Return the answer as JSON values: times in UTC, fields left out left out."""
        sent: dict[str, Any] = self.model_dump(mode="json", exclude_unset=True)
        return sent


class NewEvening(Evening):
    """The new evening with its keys, handed out only here."""

    edit_key: str = Field(
        description="Send as Authorization: Bearer to seat the series; opens every table's key."
    )
    view_key: str = Field(description="Send as Authorization: Bearer to read only (the board).")


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
