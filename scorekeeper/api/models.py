"""The request bodies of /api/v1 as models: they validate the requests and write their schemas.

Each model is the one place where a body's fields, their types, defaults and descriptions are
said; the OpenAPI document takes its request schemas from them (``request_schema``). What a
model cannot say itself lives beside it, once: the sentence that refuses a field
(``refusals``), in English or German through the catalogue, since a client is answered with
one ``{"error": ...}`` sentence and never with the library's list of errors.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, ClassVar

from flask_babel import lazy_gettext as _l
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    WithJsonSchema,
    field_validator,
    model_validator,
)

from scorekeeper import rules
from scorekeeper.api.rules_schema import (
    house_rules_schema,
    players_schema,
    target_schema,
    variant_name_schema,
)
from scorekeeper.http import taps
from scorekeeper.http.answers import absent


class BadBody(ValueError):
    """The JSON body is missing a field or has one of the wrong type (422)."""


def _joined(value: object) -> object:
    """Return a list of cards as one text; anything else as it came, for the type to judge."""
    if isinstance(value, list) and all(isinstance(card, str) for card in value):
        return " ".join(value)
    return value


CARDS = (
    'Cards as text ("Q♣ K♣ A♣", "qc kc ac", "D♣ K♣ A♣") or a list of cards. '
    "In German Rummy a joker is JKR (also Joker, any case), and JKR=7♠ says what it stands for."
)
# Cards as text or as a list of cards; the model hands them on as one text.
Cards = Annotated[
    str,
    BeforeValidator(_joined),
    WithJsonSchema(
        {
            "description": CARDS,
            "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
        }
    ),
]
# A player's id, as a key of "hands": digits only.
PlayerKey = Annotated[str, StringConstraints(pattern=r"^[0-9]{1,18}$")]
ID: dict[str, Any] = {"minimum": 1}
NAME: dict[str, Any] = {"minLength": 1, "maxLength": 40}


def _shown(extra: dict[str, Any], *, default: bool = True) -> Callable[[dict[str, Any]], None]:
    """Return an editor of a field's schema: what it says besides (``extra``), its default."""

    def edit(schema: dict[str, Any]) -> None:
        if not default:
            schema.pop("default", None)
        schema.update(extra)

    return edit


def shown(default: Any = ..., description: str | None = None, **extra: Any) -> Any:
    """Declare a field whose schema says more than its type checks (``extra``).

    A limit that the rules check (a name's length, the number of players) is only said here:
    the rules refuse it with their own sentence.
    """
    return Field(default, description=description, json_schema_extra=_shown(extra))


def _id_refused(field: str) -> Any:
    return _l("%(field)s must be an id (a whole number).", field=field)


def _cards_refused(field: str) -> Any:
    return _l('%(field)s must be cards as text, e.g. "Q♣ K♣ A♣".', field=field)


_TARGET_REFUSED = _l("target must be a whole number of points, e.g. 500.")
_NAME_REFUSED = _l('name must be the player\'s name as text, e.g. "Anna".')
_MELDS_REFUSED = _l('melds must be a list of melds, e.g. ["Q♣ K♣ A♣", "3♦ 3♥ 3♠"].')
_RULES_REFUSED = _l('rules must be an object of house rules, e.g. {"end": {"games": 5}}.')
_VARIANT_REFUSED = _l(
    "%(field)s must be a name, e.g. “%(example)s”.", field="variant", example=rules.DEFAULT_VARIANT
)
_NOT_BOTH = _l("Send the cards of one meld or several melds, not both.")
_TAPPED_REFUSED = _l(
    'tapped_at must be the time the entry was tapped, with its zone, e.g. "%(example)s".',
    example="2026-11-28T17:06:05+01:00",
)
TAPPED_AT = (
    "When the entry was tapped on the client (ISO 8601 with its zone); kept beside the time "
    "it reached the server. A time more than a minute ahead of the server's clock is not kept "
    "(the entry is recorded without it); one that cannot be read is refused (422)."
)


def _tap_time(text: str | None) -> str | None:
    """Refuse a tap time that cannot be read as a time with its zone."""
    if text is not None and taps.read_tap_time(text) is None:
        raise BadBody(_TAPPED_REFUSED)
    return text


class Body(BaseModel):
    """A JSON object sent to the API; fields it does not know are left aside."""

    model_config = ConfigDict(strict=True)
    # The sentence that refuses each field; "field:missing" where leaving it out says more.
    refusals: ClassVar[dict[str, Any]] = {}
    # Whether the request may come without a body at all.
    optional: ClassVar[bool] = False

    @classmethod
    def refusal(cls, error: ValidationError) -> BadBody:
        """Return the one sentence that says what is wrong with the body, as ``BadBody``."""
        first = error.errors()[0]
        cause = first.get("ctx", {}).get("error")
        if isinstance(cause, BadBody):  # a check of several fields together said it
            return cause
        location = first["loc"]
        field = str(location[0]) if location else ""
        if first["type"] == "missing" and f"{field}:missing" in cls.refusals:
            return BadBody(cls.refusals[f"{field}:missing"])
        return BadBody(cls._said(field, location))

    @classmethod
    def _said(cls, field: str, location: tuple[int | str, ...]) -> Any:
        return cls.refusals.get(field, _l("The body must be a JSON object."))

    @classmethod
    def request_schema(cls) -> dict[str, Any]:
        """Return the JSON schema of the body, as the OpenAPI document gives it."""
        return cls.model_json_schema()

    def sent(self, field: str) -> bool:
        """Say whether the request sent the field (null included)."""
        return field in self.model_fields_set


class CheckCards(Body):
    """Cards to check as a meld, as a layoff onto a meld, or as a joker swap."""

    cards: Cards
    onto: Cards | None = Field(
        None,
        description="The meld to lay off onto; null or left out checks the cards as a new meld. "
        "With new_meld: the meld the joker is taken from.",
    )
    variant: str = Field(rules.DEFAULT_VARIANT, json_schema_extra=_shown(variant_name_schema()))
    rules: dict[str, Any] = Field(
        default_factory=dict,
        json_schema_extra=_shown(
            {
                **house_rules_schema(),
                "description": "The house rules, as on POST /api/v1/sessions.",
            }
        ),
    )
    new_meld: Cards = absent(
        "German Rummy, a joker swap: the new meld's cards, with the joker taken from onto (G4)."
    )

    refusals: ClassVar[dict[str, Any]] = {
        "cards": _cards_refused("cards"),
        "onto": _cards_refused("onto"),
        "new_meld": _cards_refused("new_meld"),
        "variant": _VARIANT_REFUSED,
        "rules": _RULES_REFUSED,
    }

    @model_validator(mode="after")
    def _a_swap_names_its_meld(self) -> CheckCards:
        if self.sent("new_meld") and self.onto is None:
            raise BadBody(_cards_refused("onto"))
        return self


class GameCheck(Body):
    """An entry to check in the game as it lies: a meld, several melds, a layoff or a swap."""

    player: int = absent("Whose entry it would be.", **ID)
    cards: Cards = absent(CARDS)
    melds: list[Cards] = absent("Melds put down together (not with cards).", minItems=1)
    onto: int = absent("A layoff or swap: the meld's id.", **ID)
    new_meld: Cards = absent("A joker swap: the new meld's cards (G4).")

    refusals: ClassVar[dict[str, Any]] = {
        "player": _id_refused("player"),
        "onto": _id_refused("onto"),
        "cards": _cards_refused("cards"),
        "melds": _MELDS_REFUSED,
        "new_meld": _cards_refused("new_meld"),
    }

    @model_validator(mode="after")
    def _one_meld_or_several(self) -> GameCheck:
        if self.sent("onto"):
            if not self.sent("cards"):
                raise BadBody(_cards_refused("cards"))
        elif self.sent("melds"):
            if self.sent("cards"):
                raise BadBody(_NOT_BOTH)
            if not self.melds:
                raise BadBody(_MELDS_REFUSED)
        elif not self.sent("cards"):
            raise BadBody(_cards_refused("cards"))
        return self

    def fields(self) -> dict[str, Any]:
        """Return the cards as ``services.check_entry`` takes them."""
        if not self.sent("onto"):
            return {"melds": self.melds if self.sent("melds") else [self.cards]}
        fields: dict[str, Any] = {"onto": self.onto, "cards": self.cards}
        if self.sent("new_meld"):
            fields["new_meld"] = self.new_meld
        return fields


class NewSession(Body):
    """The players, the rule system and its house rules of a new session."""

    players: list[str] = Field(..., json_schema_extra=_shown(players_schema()))
    target: int = absent(**target_schema())
    variant: str = Field(rules.DEFAULT_VARIANT, json_schema_extra=_shown(variant_name_schema()))
    rules: dict[str, Any] = Field(
        default_factory=dict, json_schema_extra=_shown(house_rules_schema())
    )
    dealer: int | str = shown(
        0, 'First dealer: seat (0 = first player, the default), a name, or "lot".'
    )
    group: str | None = Field(
        None,
        description="The group the session belongs to (POST /api/v1/groups); null or left out: "
        "none. Needs group_key. Two players whose names the group merged into one person: 422.",
    )
    group_key: str | None = Field(None, description="The group's edit_key, to add a session to it.")

    refusals: ClassVar[dict[str, Any]] = {
        "players": _l("players must be a list of names, in seating order (clockwise)."),
        "target": _TARGET_REFUSED,
        "variant": _VARIANT_REFUSED,
        "rules": _RULES_REFUSED,
        "dealer": _l('dealer must be a seat number (0 = first player), a name, or "lot".'),
        "group": _l("group must be a group's id (text), or null for no group."),
        "group_key": _l("group_key must be the group's edit key (text)."),
    }

    @model_validator(mode="after")
    def _the_dealer_sits_at_the_table(self) -> NewSession:
        if (
            isinstance(self.dealer, str)
            and self.dealer != "lot"
            and self.dealer not in self.players
        ):
            raise BadBody(self.refusals["dealer"])
        return self

    def first_dealer(self) -> int | None:
        """Return the seat of the first dealer, or None when the lot decides."""
        if self.dealer == "lot":
            return None
        if isinstance(self.dealer, str):
            return self.players.index(self.dealer)
        return self.dealer


class NewEnd(Body):
    """The new end of a session, between games."""

    rules: dict[str, Any] = Field(
        default_factory=dict,
        description='Only "end": {"target": N}, {"limit": -N} or {"games": N}.',
        json_schema_extra=_shown({"properties": {"end": {"type": "object"}}}),
    )
    target: int = absent(
        'Short for "rules": {"end": {"target": N}}.', minimum=1, maximum=2147483647
    )

    refusals: ClassVar[dict[str, Any]] = {"rules": _RULES_REFUSED, "target": _TARGET_REFUSED}


class PlayerName(Body):
    """A player's new name."""

    name: str = shown(**NAME)

    refusals: ClassVar[dict[str, Any]] = {"name": _NAME_REFUSED}


class NewPlayer(Body):
    """A player to seat between games, and where."""

    name: str = shown(**NAME)
    seat: int | None = shown(
        None,
        "The new player's place in the new seating, clockwise from 0 (0: before the first "
        "player); the end when left out.",
        minimum=0,
    )
    after: int | None = shown(
        None,
        "Instead of seat: the id of the player at the table to sit after (0: first). The new "
        "player sits there even when another client changed the seating at the same moment. "
        "422 for a player not at the table, or with seat too.",
        minimum=0,
    )

    refusals: ClassVar[dict[str, Any]] = {
        "name": _NAME_REFUSED,
        "seat": _l("seat must be a place in the seating, a whole number (0 is the first)."),
        "after": _l("after must be the id of the player to sit after (0: first)."),
    }

    @model_validator(mode="after")
    def _seat_or_after(self) -> NewPlayer:
        if self.seat is not None and self.after is not None:
            raise BadBody(_l("Send seat or after, not both."))
        return self


class Tapped(Body):
    """A write that may say when it was tapped (``tapped_at``)."""

    tapped_at: str = absent(TAPPED_AT)

    _tapped_readable = field_validator("tapped_at")(_tap_time)

    @property
    def tap_time(self) -> datetime | None:
        """Return the tap time sent, where it is kept (``http.taps``)."""
        return taps.tap_time_kept(taps.read_tap_time(self.tapped_at))


class NewMeld(Tapped):
    """Either cards (one meld) or melds (several, one entry)."""

    player: int = shown(**ID)
    melds: list[Cards] = absent(minItems=1)
    cards: Cards = absent(CARDS)

    refusals: ClassVar[dict[str, Any]] = {
        "player": _id_refused("player"),
        "melds": _MELDS_REFUSED,
        "cards": _cards_refused("cards"),
        "tapped_at": _TAPPED_REFUSED,
    }

    @model_validator(mode="after")
    def _one_meld_or_several(self) -> NewMeld:
        if self.sent("melds"):
            if self.sent("cards"):
                raise BadBody(_NOT_BOTH)
            if not self.melds:
                raise BadBody(_MELDS_REFUSED)
        elif not self.sent("cards"):
            raise BadBody(_cards_refused("cards"))
        return self


class NewSwap(Tapped):
    """A joker swap (G4): cards put in the joker's place in a meld, and the joker's new meld."""

    player: int = shown(**ID)
    meld: int = shown(description="The meld the joker is taken from.", **ID)
    cards: Cards = Field(
        description='The natural card or cards put in the joker\'s place, e.g. "6♣".'
    )
    new_meld: Cards = Field(
        description='The new meld\'s cards with the joker taken, written JKR, e.g. "8♥ JKR 10♥".'
    )

    refusals: ClassVar[dict[str, Any]] = {
        "player": _id_refused("player"),
        "meld": _id_refused("meld"),
        "cards": _cards_refused("cards"),
        "new_meld": _cards_refused("new_meld"),
        "tapped_at": _TAPPED_REFUSED,
    }


class NewLayoff(Tapped):
    """Cards laid off onto a meld on the table."""

    player: int = shown(**ID)
    meld: int = shown(**ID)
    cards: Cards

    refusals: ClassVar[dict[str, Any]] = {
        "player": _id_refused("player"),
        "meld": _id_refused("meld"),
        "cards": _cards_refused("cards"),
        "tapped_at": _TAPPED_REFUSED,
    }


class Correction(Body):
    """What to correct of an entry: its cards, whose it is, or a layoff's meld."""

    model_config = ConfigDict(
        json_schema_extra={
            "anyOf": [{"required": ["cards"]}, {"required": ["player"]}, {"required": ["meld"]}]
        }
    )

    player: int = absent(**ID)
    cards: Cards = absent(CARDS)
    meld: int = absent(**ID)

    refusals: ClassVar[dict[str, Any]] = {
        "player": _id_refused("player"),
        "cards": _cards_refused("cards"),
        "meld": _id_refused("meld"),
    }

    @model_validator(mode="after")
    def _something_to_correct(self) -> Correction:
        if not {"cards", "player", "meld"} & self.model_fields_set:
            raise BadBody(_l("Give the cards, the player or the meld to correct."))
        return self


class Undo(Body):
    """The entry the client saw last: when it is no longer the latest, nothing is undone (409)."""

    entry: int = absent(**ID)

    refusals: ClassVar[dict[str, Any]] = {"entry": _id_refused("entry")}
    optional: ClassVar[bool] = True


class Settlement(Body):
    """Who went out and the others' hands; or winner null to abandon the game."""

    winner: int | None = Field(
        description="Who went out; null abandons the game, or, where the rule system settles a "
        "game nobody went out of (500 Rum, F5), settles it with hands for every player.",
    )
    romme: bool | None = Field(
        None,
        description="A Rommé hand (German Rummy: a Hand-Rommé); inferred from the entries when "
        "left out or null.",
    )
    hands: dict[PlayerKey, int | Cards] = Field(
        default_factory=dict,
        description="Each other player's hand: its cards, or the points the table counted for it "
        "(a whole number); a hand for the winner is refused. Where jokers are played (German "
        "Rummy; 500 Rum with jokers) a hand may hold them (JKR). With winner null they are not "
        "used, except where the rule system settles a game nobody went out of (500 Rum, F5): "
        "there hands sent, even {}, settle it with every player's hand or are refused, and only "
        "a body without hands abandons the game.",
    )

    refusals: ClassVar[dict[str, Any]] = {
        "winner:missing": _l(
            "Say who went out (winner), or send winner: null to abandon the game."
        ),
        "winner": _l("winner must be a player id, or null to abandon the game."),
        "romme": _l("romme must be true or false."),
        "hands": _l('hands must map player ids to their cards, e.g. {"8": "A♠ 7♥"}.'),
    }

    @classmethod
    def _said(cls, field: str, location: tuple[int | str, ...]) -> Any:
        if field != "hands" or len(location) < 2:
            return super()._said(field, location)
        key = str(location[1])
        if len(location) > 2 and location[2] == "[key]":
            return _l("hands: “%(key)s” is not a player id.", key=key[:20])
        return _cards_refused(key)

    def hands_by_player(self) -> dict[int, str | int] | None:
        """Return each hand by its player's id; None when the body sent no hands at all.

        With winner null, no hands give the game up (R6); hands sent, even none, settle a game
        nobody went out of where the rule system does (F5), or are refused.
        """
        if not self.sent("hands"):
            return None
        return {int(key): hand for key, hand in self.hands.items()}


class NewGroup(Body):
    """A group of people who play together."""

    name: str = shown(description="e.g. Donnerstagsrunde", **NAME)

    refusals: ClassVar[dict[str, Any]] = {
        "name": _l('name must be the group\'s name as text, e.g. "Donnerstagsrunde".')
    }


class Merge(Body):
    """Two names that are one person: name is counted as same_as."""

    name: str = shown(**NAME)
    same_as: str = shown(**NAME)

    refusals: ClassVar[dict[str, Any]] = dict.fromkeys(
        ("name", "same_as"),
        _l('name and same_as must be names as text, e.g. "Anni" and "Anna".'),
    )


class NewEvening(Body):
    """A club evening: its players, its series and how they are seated, one rule system."""

    name: str = shown(description="e.g. Spielabend im März", **NAME)
    variant: str = Field(rules.DEFAULT_VARIANT, json_schema_extra=_shown(variant_name_schema()))
    house_rules: dict[str, Any] = Field(
        default_factory=dict,
        description='House rules for every table, as in a session\'s "rules", without "end": '
        "a table ends with its series.",
    )
    players: list[str] = shown(description="The players' names, 6 to 60.", minItems=6, maxItems=60)
    series: int = shown(description="How many series the evening has.", minimum=1, maximum=12)
    games_per_series: int = absent(
        "Games in each series; or send minutes_per_series.", minimum=1, maximum=100
    )
    minutes_per_series: int = absent(
        "Minutes of each series: the game being played when they run out is the last.",
        minimum=10,
        maximum=480,
    )
    table_size: int = absent(
        "Players at a table (within the rule system's limits; default 4). Where it does not "
        "divide the players, some tables seat one fewer."
    )
    seating: str = shown(
        "standing",
        'How series 2 and later are seated: "standing" (places 1-4 at table 1, …) or '
        '"drawn" (by lot). Series 1 is always drawn.',
        enum=["standing", "drawn"],
    )
    small_tables: bool = shown(False, "Whether tables of 2 may be seated.")
    group: str | None = Field(
        None,
        description="The club (a group, POST /api/v1/groups) whose season the evening counts "
        "in; null or left out: none. Needs group_key. Two players whose names the group merged "
        "into one person: 422.",
    )
    group_key: str | None = Field(
        None, description="The group's edit_key, to add an evening to it."
    )

    refusals: ClassVar[dict[str, Any]] = {
        "name": _l('name must be the evening\'s name as text, e.g. "Spielabend im März".'),
        "variant": _VARIANT_REFUSED,
        "house_rules": _l("house_rules must be an object of house rules."),
        "players": _l("players must be a list of names."),
        "series": _l("series must be a whole number, e.g. 3."),
        "games_per_series": _l("games_per_series must be a whole number, e.g. 20."),
        "minutes_per_series": _l("minutes_per_series must be a whole number, e.g. 120."),
        "table_size": _l("table_size must be a whole number, e.g. 4."),
        "seating": _l('seating must be "standing" or "drawn".'),
        "small_tables": _l("small_tables must be true or false."),
        "group": _l("group must be a group's id (text), or null for no group."),
        "group_key": _l("group_key must be the group's edit key (text)."),
    }
