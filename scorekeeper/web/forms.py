"""The forms of the pages; every one carries a CSRF token and a one-time token (web.once)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import datetime
from typing import Any, ClassVar

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString
from flask_wtf import FlaskForm
from markupsafe import Markup, escape
from wtforms import (
    BooleanField,
    FieldList,
    HiddenField,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import (
    InputRequired,
    NumberRange,
    Optional,
)
from wtforms.widgets import HiddenInput, TextInput
from wtforms.widgets.core import clean_key

from scorekeeper import queries, rules
from scorekeeper.http import taps
from scorekeeper.rules import groups as rules_groups
from scorekeeper.web.once import new_token
from scorekeeper.web.words import language as _language
from scorekeeper.web.words import rules_message


def html_params(**kwargs: Any) -> Markup:
    """Return HTML attributes as WTForms' ``html_params`` does, without a format per attribute.

    The entry form is drawn after every tap; WTForms' own took 10 µs an attribute.

    >>> html_params(name="cards", required=True, placeholder='2♠ "3♠"', hidden=False)
    Markup('name="cards" placeholder="2♠ &#34;3♠&#34;" required')
    """
    attributes = []
    for key, value in sorted(kwargs.items()):
        if value is True:
            attributes.append(clean_key(key))
        elif value is not False:
            attributes.append(f'{clean_key(key)}="{escape(value)}"')
    return Markup(" ".join(attributes))


class QuickTextInput(TextInput):  # type: ignore[misc]
    """A text input whose attributes are said by ``html_params`` above."""

    html_params = staticmethod(html_params)


def hidden_fields(form: FlaskForm) -> Markup:
    """Return a form's hidden fields (its CSRF and one-time tokens) as ``hidden_tag`` does.

    Written here without WTForms' widgets, which took 90 µs a form; every button is a form.
    """
    return Markup("").join(
        Markup('<input id="{}" name="{}" type="hidden" value="{}">').format(
            field.id, field.name, field._value()
        )
        for field in form
        if isinstance(field.widget, HiddenInput)
    )


LARGEST_TARGET = 1_000_000
LARGEST_HAND = 10_000
CARDS_REQUIRED = _l("Tap or type the cards, e.g. Q♣ K♣ A♣.")
CARDS_HINT = _l("e.g. Q♣ K♣ A♣ or qc kc ac")
MELD_REQUIRED = _l("Tap the meld on the table to lay the cards off onto.")
SWAP_MELD_REQUIRED = _l("Tap the meld on the table to take the joker from.")
MOVED_ONTO_REQUIRED = _l("Tap the meld the cards went onto.")
ENTER_PLAYERS = _l("Enter the players' names, in seating order.")
NEW_MELD_REQUIRED = _l("Tap or type the cards of the new meld, the joker included.")
# The new-session form's choice of a group to start with the session.
NEW_GROUP = "new"
NEW_GROUP_ONLY = _l("To start a new group, choose “A new group” above.")


class WholeNumberField(IntegerField):  # type: ignore[misc]
    """A number field that says in one sentence of its own what it takes.

    "2.5" or "abc" is refused with ``not_whole``, or else by the field's range alone: never
    WTForms' "Not a valid integer value." beside a range that does not apply.
    """

    def __init__(self, *args: Any, not_whole: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.not_whole = not_whole

    def process_formdata(self, valuelist: list[Any]) -> None:
        """Read the number typed; what is no whole number leaves no number."""
        if not valuelist or not str(valuelist[0]).strip():
            return
        try:
            self.data = int(str(valuelist[0]).strip())
        except ValueError:
            self.data = None  # type: ignore[assignment]
            if self.not_whole is not None:
                raise ValueError(str(self.not_whole)) from None


def _in_language(words: rules.Wording | None, otherwise: str = "") -> LazyString:
    """Return a rules wording that is said in the page's language when it is shown."""
    return LazyString(lambda: words.render(_language()) if words is not None else otherwise)


def _yes(value: object) -> bool:
    """Read a yes-or-no choice of the form (``yes``), or a house rule's own ``True``."""
    return value is True or value == "yes"


class OnceForm(FlaskForm):  # type: ignore[misc]
    """A form that a double tap or a resend cannot apply twice."""

    # A label of its own (never shown): the default label is asked of WTForms' catalogue, which
    # Flask-WTF reads from disk once per request that asks (half a millisecond of every page).
    once = HiddenField("Once", default=new_token)


class ButtonForm(FlaskForm):  # type: ignore[misc]
    """A form of one button; every button gets its own one-time token (``once_token()``)."""


def _end_choices() -> list[SelectChoice]:
    """Return the ways a session can end as a form offers them, each said by the end itself."""
    return [SelectChoice(end.key, _in_language(end.offered)) for end in rules.ENDS.values()]


def _usual_end() -> str:
    """Return the key of the way a session of the default rule system usually ends."""
    end, _number = rules.find_variant().end()
    return end.key


class SessionForm(OnceForm):
    """Start a session: the rule system, the players in seating order, the house rules.

    ``new_session_form`` makes it with a field for each house rule and a seat for each player
    of the rule systems registered when it is asked for.
    """

    variant = RadioField(
        _l("Rule system"),
        choices=[SelectChoice(name, variant.title) for name, variant in rules.VARIANTS.items()],
        default=rules.DEFAULT_VARIANT,
    )
    end = RadioField(_l("The session ends"), choices=_end_choices(), default=_usual_end)
    # Left empty, the session plays to its rule system's usual target (500, or 100 in Boathouse).
    # The same targets as the API: a whole number; the rules refuse one below 1 and the
    # services one too large to keep, with the same words for both.
    target = WholeNumberField(
        _in_language(rules.TARGET.number_label),
        validators=[Optional()],
        not_whole=_l("The target must be a whole number of points, e.g. 500."),
    )
    games = WholeNumberField(
        _in_language(rules.GAMES.number_label),
        validators=[
            Optional(),
            NumberRange(
                min=1, max=1000, message=_l("The number of games is a whole number from 1 to 1000.")
            ),
        ],
    )
    # Left empty, the session ends at its rule system's usual limit (-500 in German Rummy).
    limit = WholeNumberField(
        _in_language(rules.LIMIT.number_label),
        validators=[
            Optional(),
            NumberRange(
                min=-LARGEST_TARGET,
                max=-1,
                message=_l("The limit is a negative number, e.g. -500."),
            ),
        ],
    )
    dealer = SelectField(_l("First dealer"), default="0")
    # The group the session belongs to: none, one whose edit key this phone holds (the view
    # offers them: ``offer_groups``), or a new one named in ``group_name``.
    group = SelectField(
        _l("Group (the people who play together)"),
        choices=[SelectChoice("", _l("No group"))],
        default="",
        validate_choice=False,
    )
    group_name = StringField(
        _l("Name of the new group"), description=_l("e.g. Donnerstagsrunde, Skatfreunde")
    )

    # Each house rule's key (the end aside: its fields are the form's own) and the rule systems
    # that have it, in the registry's order; ``new_session_form`` adds a field for each.
    house_rule_owners: ClassVar[dict[str, list[str]]] = {}
    # The most players any rule system seats under any of its house rules.
    seats: ClassVar[int] = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Each rule system by its name in the page's language ("Rommé" in German).
        self.variant.choices = [
            SelectChoice(name, variant().label(_language()))
            for name, variant in rules.VARIANTS.items()
        ]
        self.dealer.choices = [
            SelectChoice("lot", _l("Drawn by lot")),
            *[
                SelectChoice(str(seat), _l("Player %(number)s", number=seat + 1))
                for seat in range(self.seats)
            ],
        ]

    def validate(self, extra_validators: Any = None) -> bool:
        """Validate the fields and the seating together, so every mistake shows at once."""
        valid: bool = super().validate(extra_validators)
        valid = self._group_chosen() and valid
        if not any(name.strip() for name in self.player_names()):
            # Nothing typed: one request, not a count of nobody and a dealer among nobody.
            self.form_errors.append(str(ENTER_PLAYERS))
            return False
        end = rules.ENDS.get(str(self.end.data))
        # An end whose number the rule system has no usual one for asks for it (the games).
        number: Any = self[end.key] if end is not None else None
        missing = end.number_missing if end is not None else None
        if missing is not None and number.data is None and not number.errors:
            number.errors.append(missing.render(_language()))
            valid = False
        variant = self._variant_chosen()
        if end is not None and end.key not in variant.end_rule().ends:
            said = end.not_played.render(_language(), variant=variant.label(_language()))
            self.end.errors.append(said)
            valid = False
        problems = rules.seating_problems(
            self.player_names(),
            self.target.data if end is rules.TARGET and not self.target.errors else None,
            None if self.dealer.errors else self.first_dealer(),
            variant,
        )
        shown_at = {
            "players": self.form_errors,
            "target": self.target.errors,
            "first_dealer": self.dealer.errors,
        }
        for about, problem in problems.items():
            seat = problem.params.get("seat")
            if isinstance(seat, int) and seat < len(self.names.entries):
                self.names.entries[seat].errors.append(rules_message(problem))
            else:
                shown_at[about].append(rules_message(problem))
        return valid and not problems

    def _variant_chosen(self) -> rules.Variant:
        """Return the rule system chosen with its house rules, which may seat more (F7).

        House rules the rule system refuses are said when the session starts; until then
        the rule system's own seats are counted.
        """
        name = str(self.variant.data)
        if name not in rules.VARIANTS:
            return rules.VARIANTS[rules.DEFAULT_VARIANT]()
        try:
            return rules.find_variant(name, self.house_rules())
        except rules.HouseRuleError:
            return rules.VARIANTS[name]()

    def _group_chosen(self) -> bool:
        """Check the group: a new one needs a name, and a name is only for a new one."""
        typed = str(self.group_name.data or "")
        if self.group.data == NEW_GROUP:
            try:
                rules_groups.group_name(typed)
            except rules.RulesError as error:
                self.group_name.errors = [*self.group_name.errors, rules_message(error)]
                return False
        elif typed.strip():
            self.group_name.errors = [*self.group_name.errors, str(NEW_GROUP_ONLY)]
            return False
        return True

    def offer_groups(self, groups: Sequence[tuple[str, str]]) -> None:
        """Offer the groups (id, name) this phone may add a session to, and a new group."""
        self.group.choices = [
            SelectChoice("", _l("No group")),
            *[SelectChoice(public_id, name) for public_id, name in groups],
            SelectChoice(NEW_GROUP, _l("A new group, named below")),
        ]

    def house_rules(self) -> dict[str, object]:
        """Return the house rules chosen, for the rule system chosen."""
        variant = rules.VARIANTS[str(self.variant.data)]
        # The end chosen with the number typed, or left empty the rule system's usual one.
        end = rules.ENDS.get(str(self.end.data)) or variant.ENDS[0]
        number = self[end.key].data or variant.usual_number(end)
        return {"end": {end.key: number}, **chosen_house_rules(self, variant)}

    def house_rule_parts(self) -> list[tuple[str, list[Any]]]:
        """Return the house rules' fields, each group with the rule systems it belongs to."""
        return house_rule_parts(self, self.house_rule_owners)

    def player_names(self) -> list[str]:
        """Return the names typed, without the empty seats at the end."""
        names = [str(name or "") for name in self.names.data]
        while names and not names[-1].strip():
            names.pop()
        return names

    def first_dealer(self) -> int | None:
        """Return the first dealer's seat, or None to draw the dealer by lot."""
        return None if self.dealer.data == "lot" else int(self.dealer.data)


def _form_value(value: object) -> str:
    """Return a house rule's value as the form sends it: ``yes`` and ``no`` for True and False."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def chosen_house_rules(form: Any, variant: type[rules.Variant]) -> dict[str, object]:
    """Return the house rules a form chose for a rule system, its end aside."""
    chosen: dict[str, object] = {}
    for rule in variant.all_house_rules():
        if rule.name != "end" and rule.name in form:
            data = form[rule.name].data
            # An opening minimum left empty is the rule system's usual one.
            chosen[rule.name] = rule.default if data is None else data
    return chosen


def house_rule_parts(form: Any, owners: dict[str, list[str]]) -> list[tuple[str, list[Any]]]:
    """Return a form's house rules' fields, each group with the rule systems it belongs to.

    The names are space-separated (``data-variant-only``); the fields keep the registry's
    order, those of the same rule systems together.
    """
    parts: list[tuple[str, list[Any]]] = []
    for name, systems in owners.items():
        said = " ".join(systems)
        if parts and parts[-1][0] == said:
            parts[-1][1].append(form[name])
        else:
            parts.append((said, [form[name]]))
    return parts


def _house_rule_fields(
    variants: tuple[type[rules.Variant], ...],
) -> tuple[dict[str, list[str]], dict[str, Any]]:
    """Return each house rule's rule systems and its field (the end aside: forms have their own)."""
    owners: dict[str, list[str]] = {}
    fields: dict[str, Any] = {}
    for variant in variants:
        for rule in variant.HOUSE_RULES:
            if rule.key not in owners:
                fields[rule.key] = _house_rule_field(rule)
            owners.setdefault(rule.key, []).append(variant.name)
    return owners, fields


def _house_rule_field(rule: rules.HouseRule) -> Any:
    """Return the new-session form's field of a house rule, built from the rule's words."""
    label = _in_language(rule.label, rule.key)
    if rule.whole is not None:
        low, high = rule.whole
        return WholeNumberField(
            label,
            default=rule.default,
            validators=[
                Optional(),
                NumberRange(
                    min=low,
                    max=high,
                    message=None if rule.refusal is None else _in_language(rule.refusal),
                ),
            ],
            render_kw={"min": low, "inputmode": "numeric"},
        )
    options = rule.offered_options()
    values = [option.value for option in options]
    coerce: Any = str
    if all(isinstance(value, bool) for value in values):
        coerce = _yes
    elif all(isinstance(value, int) for value in values):
        coerce = int
    return RadioField(
        label,
        choices=[
            SelectChoice(_form_value(option.value), _in_language(option.offered, str(option.value)))
            for option in options
        ],
        coerce=coerce,
        default=rule.default,
    )


def new_session_form(**kwargs: Any) -> SessionForm:
    """Return the new-session form for the rule systems registered now."""
    form: SessionForm = _session_form_class(tuple(rules.VARIANTS.values()))(**kwargs)
    return form


@functools.lru_cache(maxsize=8)
def _session_form_class(variants: tuple[type[rules.Variant], ...]) -> type[SessionForm]:
    """Return the new-session form with a field for each house rule of the rule systems.

    Made once for each set of registered rule systems: a rule system registered later gets
    its fields and seats the next time the form is asked for.
    """
    owners, fields = _house_rule_fields(variants)
    seats = max(variant.most_players() for variant in variants)
    names = FieldList(StringField(_l("Name")), min_entries=seats)
    return type(
        "SessionForm",
        (SessionForm,),
        {"names": names, "seats": seats, "house_rule_owners": owners, **fields},
    )


class EntryForm(OnceForm):
    """A form that records an entry: a meld, a layoff or a joker swap."""

    # Sent only by "Restore" after an undo or delete: the entry this one records again, so the
    # audit trail says so. Never drawn on the page.
    restores = WholeNumberField("Restores", validators=[Optional()])
    # When the entry was tapped on the phone (ISO 8601 with its zone), set by the script as it
    # sends; read by ``http.taps``, which leaves out a time it cannot read or keep. Never drawn.
    tapped_at = StringField("Tapped at")

    @property
    def tap_time(self) -> datetime | None:
        """Return the tap time sent, where it can be read and kept."""
        return taps.tap_time_sent(self.tapped_at.data)


class MeldForm(EntryForm):
    """Record a new meld for a player, or several melds put down together (an opening)."""

    player = RadioField(_l("Whose entry?"), coerce=int)
    # The melds tapped before "Another meld", one a line; the cards field holds the last one.
    melds = TextAreaField(
        _l("Melds put down together, one a line"),
        description=_l("e.g. an opening: 3♦ 3♥ 3♠ on one line, Q♣ K♣ A♣ on the next."),
    )
    # Marked required as before (the form is sent unchecked: novalidate); the melds field may
    # hold the cards instead.
    cards = StringField(
        _l("Cards"),
        description=CARDS_HINT,
        render_kw={"required": True},
        widget=QuickTextInput(),
    )

    def validate(self, extra_validators: Any = None) -> bool:
        """Validate, and ask for cards when neither a meld nor the melds were given."""
        valid: bool = super().validate(extra_validators)
        if not self.meld_lines():
            self.cards.errors = [*self.cards.errors, str(CARDS_REQUIRED)]
            valid = False
        return valid

    def meld_lines(self) -> list[str]:
        """Return the melds given: each line of the melds field, then the cards field."""
        lines = [*str(self.melds.data or "").splitlines(), str(self.cards.data or "")]
        return [line.strip() for line in lines if line.strip()]


class SwapForm(EntryForm):
    """Record a joker swap: the meld the joker leaves, the cards put in, the joker's new meld."""

    player = RadioField(_l("Whose entry?"), coerce=int)
    meld = RadioField(_l("On the table"), coerce=int)
    cards = StringField(
        _l("Put in the joker's place"),
        validators=[InputRequired(CARDS_REQUIRED)],
        description=_l("The card the joker stands for, e.g. 6♣."),
        widget=QuickTextInput(),
    )
    new_meld = StringField(
        _l("The joker's new meld"),
        validators=[InputRequired(NEW_MELD_REQUIRED)],
        description=_l("e.g. 8♥ JKR 10♥"),
    )

    def validate(self, extra_validators: Any = None) -> bool:
        """Validate, and say in plain words when no meld was chosen to take the joker from."""
        valid: bool = super().validate(extra_validators)
        if self.meld.errors:
            self.meld.errors = [str(SWAP_MELD_REQUIRED)]
        return valid


class LayoffForm(EntryForm):
    """Record cards a player lays off onto a meld on the table."""

    player = RadioField(_l("Whose entry?"), coerce=int)
    meld = RadioField(_l("On the table"), coerce=int)
    cards = StringField(
        _l("Cards"),
        validators=[InputRequired(CARDS_REQUIRED)],
        description=CARDS_HINT,
        widget=QuickTextInput(),
    )

    def validate(self, extra_validators: Any = None) -> bool:
        """Validate, and say in plain words when no meld was chosen to lay off onto."""
        valid: bool = super().validate(extra_validators)
        if self.meld.errors:
            self.meld.errors = [str(MELD_REQUIRED)]
        return valid


class CorrectForm(OnceForm):
    """Replace the cards of an entry, its player, or the meld a layoff went onto."""

    player = RadioField(_l("Whose entry?"), coerce=int)
    # Only a layoff's form has it: the meld the cards went onto.
    meld = RadioField(_l("Laid off onto"), coerce=int)
    cards = StringField(_l("Cards"), validators=[InputRequired(CARDS_REQUIRED)])

    def validate(self, extra_validators: Any = None) -> bool:
        """Validate, and say in plain words when no meld on offer was chosen."""
        valid: bool = super().validate(extra_validators)
        if "meld" in self and self.meld.errors:
            self.meld.errors = [str(MOVED_ONTO_REQUIRED)]
        return valid


# The finish form's "winner" when nobody went out: no player has this id.
NOBODY = 0
NOBODY_OUT = _l("Nobody went out (the stock ran out)")


class FinishForm(OnceForm):
    """Say who went out, what is left in the other hands, and whether it was a Rommé hand."""

    winner = RadioField(_l("Who went out?"), coerce=int)
    romme = RadioField(
        _l("Rommé hand?"),
        choices=[
            SelectChoice("auto", _l("Decide from the entries")),
            SelectChoice("yes", _l("Yes: all cards went down in the last turn")),
            SelectChoice("no", _l("No")),
        ],
        default="auto",
    )
    # "1" on the form that commits what the preview showed. Labelled like ``once``.
    confirm = HiddenField("Confirm", validators=[Optional()])

    def hand_fields(self) -> list[Any]:
        """Return the hand fields (the cards), one per player in seating order."""
        return [field for field in self if field.name.startswith("hand_")]

    def points_field(self, player_id: int) -> Any:
        """Return the field for the points a table counted in a player's hand."""
        return self[f"points_{player_id}"]

    def validate(self, extra_validators: Any = None) -> bool:
        """Validate, and refuse a hand given both as cards and as points."""
        valid: bool = super().validate(extra_validators)
        for field in self.hand_fields():
            points = self.points_field(_player_of(field))
            if str(field.data or "").strip() and points.data is not None:
                # On the cards: the wide column of that hand, not the narrow one of the points.
                field.errors = [
                    *field.errors,
                    str(_l("Give the cards or the points of a hand, not both.")),
                ]
                valid = False
        return valid

    def hands(self) -> dict[int, str | int]:
        """Return the hands to settle: every other player's, the winner's only if filled in."""
        hands: dict[int, str | int] = {}
        for field in self.hand_fields():
            player_id = _player_of(field)
            text = str(field.data or "")
            points = self.points_field(player_id).data
            if points is not None and not text.strip():
                hands[player_id] = int(points)
            elif player_id != self.winner.data or text.strip():
                hands[player_id] = text
        return hands

    def romme_choice(self) -> bool | None:
        """Return the recorder's Rommé choice, or None to let the entries decide."""
        return {"yes": True, "no": False}.get(str(self.romme.data))

    def winner_id(self) -> int | None:
        """Return the id of the player who went out, or None where nobody did (F5)."""
        winner: int | None = self.winner.data
        return None if winner == NOBODY else winner


def _player_of(field: Any) -> int:
    return int(field.name.removeprefix("hand_"))


def finish_form(
    players: Sequence[queries.PlayerRow], *, nobody_out: bool = False, **kwargs: Any
) -> FinishForm:
    """Return the finish form with a cards field and a points field for each player.

    ``nobody_out`` offers "Nobody went out" beside the players, where the rule system settles
    such a game with every hand (F5).
    """

    class _FinishForm(FinishForm):
        pass

    for player in players:
        setattr(
            _FinishForm,
            f"hand_{player.id}",
            # A lazy string counts as markup in a template, so the name is escaped here.
            StringField(_l("Cards left in %(name)s's hand", name=escape(player.name))),
        )
        setattr(
            _FinishForm,
            f"points_{player.id}",
            WholeNumberField(
                _l("or points"),
                validators=[
                    Optional(),
                    NumberRange(
                        min=0,
                        max=LARGEST_HAND,
                        message=_l("Points of a hand are a whole number from 0 up."),
                    ),
                ],
            ),
        )
    form: FinishForm = _FinishForm(**kwargs)
    form.winner.choices = player_choices(players)
    if nobody_out:
        form.winner.choices.append(SelectChoice(NOBODY, str(NOBODY_OUT)))
    return form


def player_choices(players: Sequence[queries.PlayerRow]) -> list[SelectChoice]:
    """Return the players as the options of a choice, in seating order."""
    return [SelectChoice(player.id, player.name) for player in players]


class RenameForm(OnceForm):
    """Give a player of the session another name."""

    name = StringField(_l("Name"))


SEAT_CHANGED = _l("The seating was changed on another phone meanwhile: choose the place again.")


class SeatForm(OnceForm):
    """Seat a new player between games, at a place in the seating."""

    name = StringField(_l("Name"))
    seat = SelectField(_l("Place at the table"), coerce=int)

    def validate(self, extra_validators: Any = None) -> bool:
        """Validate, and say in plain words when the player to sit after is gone meanwhile."""
        valid: bool = super().validate(extra_validators)
        if self.seat.errors:
            self.seat.errors = [str(SEAT_CHANGED)]
        return valid


def seat_form(seated: Sequence[queries.PlayerRow], **kwargs: Any) -> SeatForm:
    """Return the form that seats a new player: first, or after a player (at the end at first).

    A place is the id of the player to sit after (0: first), not a number: two phones that
    seat players at once each get the place they chose.
    """
    form = SeatForm(**kwargs)
    form.seat.choices = [
        SelectChoice(0, gettext("first, before %(name)s", name=seated[0].name)),
        *(
            SelectChoice(player.id, gettext("after %(name)s", name=player.name))
            for player in seated
        ),
    ]
    if kwargs.get("formdata", True) is None:
        form.seat.data = seated[-1].id
    return form


_NO_END_NUMBER = _l("Enter a whole number, e.g. 1000 points, -500 or 5 games.")


class EndForm(OnceForm):
    """Play the session to another end, between games: a target, a limit or a number of games."""

    end = RadioField(_l("The session ends"), choices=_end_choices())
    number = WholeNumberField(
        _l("Points, or games"),
        not_whole=_NO_END_NUMBER,
    )

    def validate(self, extra_validators: Any = None) -> bool:
        """Ask for the number too; the rule system checks it (as at the start)."""
        valid = bool(super().validate(extra_validators))
        if self.number.data is None and not self.number.errors:
            self.number.errors = [str(_NO_END_NUMBER)]
            valid = False
        return valid


def end_form(variant: rules.Variant, **kwargs: Any) -> EndForm:
    """Return the form of a session's end with the ends its rule system allows, as it is now."""
    form = EndForm(**kwargs)
    allowed = variant.end_rule().ends
    form.end.choices = [choice for choice in form.end.choices if choice.value in allowed]
    if kwargs.get("formdata", True) is None:
        ((kind, number),) = variant.house_rules["end"].items()
        form.end.data, form.number.data = kind, number
    return form


class MergeForm(OnceForm):
    """Count two names of a group's players as one person ("Anni" is "Anna")."""

    name = StringField(_l("The name"), description=_l("e.g. Anni"))
    same_as = StringField(_l("is the same person as"), description=_l("e.g. Anna"))


class EveningForm(OnceForm):
    """Start a club evening: its name, rule system, players, series and how they are seated."""

    name = StringField(_l("Name of the evening"), description=_l("e.g. Spielabend im März"))
    variant = RadioField(
        _l("Rule system"),
        choices=[SelectChoice(name, variant.title) for name, variant in rules.VARIANTS.items()],
        default=rules.DEFAULT_VARIANT,
    )
    players = TextAreaField(
        _l("Players"), description=_l("One name a line, 6 to 60; series 1 is drawn by lot.")
    )
    series = IntegerField(_l("Series"), default=3, validators=[Optional()])
    end = RadioField(
        _l("A series ends"),
        choices=[
            SelectChoice("games", _l("after a number of games")),
            SelectChoice("minutes", _l("after a time")),
        ],
        default="games",
    )
    length = IntegerField(
        _l("Games, or minutes, a series"),
        default=10,
        validators=[Optional()],
        description=_l("After the time, the game being played is the last."),
    )
    table_size = IntegerField(
        _l("Players a table"),
        default=4,
        validators=[Optional()],
        description=_l("Where it does not divide the players, some tables seat one fewer."),
    )
    seating = RadioField(
        _l("Series 2 and later are seated"),
        choices=[
            SelectChoice("standing", _l("by the standing")),
            SelectChoice("drawn", _l("drawn by lot")),
        ],
        default="standing",
    )
    small_tables = BooleanField(_l("Tables of 2 are allowed"))
    # Each house rule's key and its rule systems; ``new_evening_form`` adds a field for each.
    house_rule_owners: ClassVar[dict[str, list[str]]] = {}

    def house_rules(self) -> dict[str, object]:
        """Return the house rules chosen for every table (a table's end is its series')."""
        return chosen_house_rules(self, rules.VARIANTS[str(self.variant.data)])

    def house_rule_parts(self) -> list[tuple[str, list[Any]]]:
        """Return the house rules' fields, each group with the rule systems it belongs to."""
        return house_rule_parts(self, self.house_rule_owners)

    def names(self) -> list[str]:
        """Return the players' names, one a line, empty lines left out."""
        return [line.strip() for line in (self.players.data or "").splitlines() if line.strip()]


def new_evening_form(**kwargs: Any) -> EveningForm:
    """Return the club evening's form with a field for each house rule of the rule systems."""
    form: EveningForm = _evening_form_class(tuple(rules.VARIANTS.values()))(**kwargs)
    return form


@functools.lru_cache(maxsize=8)
def _evening_form_class(variants: tuple[type[rules.Variant], ...]) -> type[EveningForm]:
    """Return the club evening's form with the house rules of the rule systems registered."""
    owners, fields = _house_rule_fields(variants)
    return type("EveningForm", (EveningForm,), {"house_rule_owners": owners, **fields})
