"""Every rules message in English and German, and how to render one for the card table.

A message is an id with params. Its template is chosen by language when the message is shown,
and the params are rendered in that language too: a card in its own letters (``D♣`` for the
Queen of clubs in German), a list of cards separated by spaces, a suit as its symbol, a rank
as its letter, a rule system as its title. Where the wording depends on a number, the
template is a dict ``{"one": ..., "other": ...}`` chosen by the param ``count``.

>>> from scorekeeper.rules.cards import parse_cards
>>> render_message("table.already_on_table", "de", cards=parse_cards("Q♣ K♣"), count=2)
'D♣ K♣ liegen schon auf dem Tisch.'
>>> render_message("table.already_on_table", "en", cards=parse_cards("Q♣"), count=1)
'Q♣ is already on the table.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

LANGUAGES = ("en", "de")

Template = str | dict[str, str]

MESSAGES: dict[str, dict[str, Template]] = {
    # --- card notation (the token is what the user typed, shown as typed) -------------------
    "notation.too_short": {
        "en": "“{token}” is not a card: write the rank, then the suit, e.g. Q♣ or 10h.",
        "de": "„{token}“ ist keine Karte: erst den Rang, dann die Farbe schreiben, "
        "z. B. D♣ oder 10h.",
    },
    "notation.no_suit": {
        "en": "“{token}” is not a card: the last character must be the suit (♠ ♥ ♦ ♣ or S H D C).",
        "de": "„{token}“ ist keine Karte: das letzte Zeichen muss die Farbe sein "
        "(♠ ♥ ♦ ♣ oder S H D C).",
    },
    "notation.no_rank": {
        "en": "“{token}” is not a card: “{rank}” is not a rank (A 2-10 J Q K, or T, B, D).",
        "de": "„{token}“ ist keine Karte: „{rank}“ ist kein Rang (A 2-10 B D K, oder T, J, Q).",
    },
    # --- melds --------------------------------------------------------------------------------
    "meld.no_cards": {
        "en": "No cards entered: a meld needs at least {needed} cards.",
        "de": "Keine Karten eingegeben: eine Kombination braucht mindestens {needed} Karten.",
    },
    "meld.too_few": {
        "en": {
            "one": "A meld needs at least {needed} cards; {cards} is only {count}.",
            "other": "A meld needs at least {needed} cards; {cards} are only {count}.",
        },
        "de": {
            "one": "Eine Kombination braucht mindestens {needed} Karten; {cards} ist nur {count}.",
            "other": "Eine Kombination braucht mindestens {needed} Karten; "
            "{cards} sind nur {count}.",
        },
    },
    "meld.card_twice": {
        "en": "{card} is entered twice: every card exists once.",
        "de": "{card} ist doppelt eingegeben: jede Karte gibt es nur einmal.",
    },
    "meld.neither": {
        "en": "{cards} is neither a set (cards of one rank) "
        "nor a sequence (cards of one suit in order).",
        "de": "{cards} ist weder ein Satz (Karten eines Rangs) "
        "noch eine Folge (Karten einer Farbe in lückenloser Reihe).",
    },
    # --- sets ---------------------------------------------------------------------------------
    "set.suit_twice": {
        "en": "{cards} is not a set: the cards of a set are all of different suits, "
        "and {suit} is there twice.",
        "de": "{cards} ist kein Satz: die Karten eines Satzes haben alle verschiedene Farben, "
        "und {suit} kommt zweimal vor.",
    },
    "set.too_many": {
        "en": "{cards} is not a set: a set has at most {largest} cards.",
        "de": "{cards} ist kein Satz: ein Satz hat höchstens {largest} Karten.",
    },
    "set.other_rank": {
        "en": {
            "one": "{cards} is not a set: {strangers} does not belong "
            "in a set of {rank}s (a set is of one rank).",
            "other": "{cards} is not a set: {strangers} do not belong "
            "in a set of {rank}s (a set is of one rank).",
        },
        "de": {
            "one": "{cards} ist kein Satz: {strangers} gehört nicht "
            "in einen Satz vom Rang {rank} (ein Satz hat nur einen Rang).",
            "other": "{cards} ist kein Satz: {strangers} gehören nicht "
            "in einen Satz vom Rang {rank} (ein Satz hat nur einen Rang).",
        },
    },
    # --- sequences: "<cards> is not a sequence: <reason>" -------------------------------------
    "sequence.not_a_sequence": {
        "en": "{cards} is not a sequence: {reason}",
        "de": "{cards} ist keine Folge: {reason}",
    },
    "sequence.mixed_suits": {
        "en": {
            "one": "a sequence is of one suit, and {strangers} is not {suit}.",
            "other": "a sequence is of one suit, and {strangers} are not {suit}.",
        },
        "de": {
            "one": "eine Folge hat nur eine Farbe, und {strangers} ist kein {suit}.",
            "other": "eine Folge hat nur eine Farbe, und {strangers} sind keine {suit}.",
        },
    },
    "sequence.corner": {
        "en": "in {variant} the ace may not turn the corner (K-A-2).",
        "de": "in {variant} darf das Ass nicht um die Ecke gehen (K-A-2).",
    },
    # ``gaps`` is a list of "sequence.gap" messages, joined with "and" / "und".
    "sequence.missing": {
        "en": "{gaps}.",
        "de": "{gaps}.",
    },
    "sequence.gap": {
        "en": {
            "one": "{missing} is missing between {before} and {after}",
            "other": "{missing} are missing between {before} and {after}",
        },
        "de": {
            "one": "{missing} fehlt zwischen {before} und {after}",
            "other": "{missing} fehlen zwischen {before} und {after}",
        },
    },
    # --- layoffs ------------------------------------------------------------------------------
    "layoff.no_cards": {
        "en": "Choose at least one card to lay off.",
        "de": "Bitte mindestens eine Karte zum Anlegen wählen.",
    },
    "layoff.card_twice": {
        "en": "{card} is entered twice.",
        "de": "{card} ist doppelt eingegeben.",
    },
    "layoff.already_in_meld": {
        "en": {
            "one": "{cards} already lies in {meld}.",
            "other": "{cards} already lie in {meld}.",
        },
        "de": {
            "one": "{cards} liegt schon in {meld}.",
            "other": "{cards} liegen schon in {meld}.",
        },
    },
    "layoff.set_other_rank": {
        "en": "{cards} cannot go onto the set {meld}: only a {rank} fits there.",
        "de": {
            "one": "{cards} passt nicht an den Satz {meld}: "
            "dort passen nur Karten vom Rang {rank}.",
            "other": "{cards} passen nicht an den Satz {meld}: "
            "dort passen nur Karten vom Rang {rank}.",
        },
    },
    "layoff.set_complete": {
        "en": "The set {meld} is complete: a set has at most {largest} cards.",
        "de": "Der Satz {meld} ist vollständig: ein Satz hat höchstens {largest} Karten.",
    },
    "layoff.set_room": {
        "en": {
            "one": "The set {meld} has room for only {count} more card: "
            "a set has at most {largest} cards.",
            "other": "The set {meld} has room for only {count} more cards: "
            "a set has at most {largest} cards.",
        },
        "de": {
            "one": "An den Satz {meld} passt nur noch {count} Karte: "
            "ein Satz hat höchstens {largest} Karten.",
            "other": "An den Satz {meld} passen nur noch {count} Karten: "
            "ein Satz hat höchstens {largest} Karten.",
        },
    },
    "layoff.sequence_other_suit": {
        "en": "{cards} cannot go onto {meld}: a sequence takes only {suit} cards.",
        "de": {
            "one": "{cards} passt nicht an {meld}: an eine Folge passen nur {suit}-Karten.",
            "other": "{cards} passen nicht an {meld}: an eine Folge passen nur {suit}-Karten.",
        },
    },
    "layoff.sequence_complete": {
        "en": "The sequence {meld} is complete: all 13 cards lie there.",
        "de": "Die Folge {meld} ist vollständig: alle 13 Karten liegen dort.",
    },
    # ``reason`` is the message that says why the longer sequence is none.
    "layoff.does_not_fit": {
        "en": "{cards} cannot be laid off onto {meld}: {reason}",
        "de": {
            "one": "{cards} kann nicht an {meld} angelegt werden: {reason}",
            "other": "{cards} können nicht an {meld} angelegt werden: {reason}",
        },
    },
    "layoff.meld_not_on_table": {
        "en": "That meld is not on the table in this game.",
        "de": "Diese Kombination liegt in diesem Spiel nicht auf dem Tisch.",
    },
    # --- cards that exist once ----------------------------------------------------------------
    "table.already_on_table": {
        "en": {
            "one": "{cards} is already on the table.",
            "other": "{cards} are already on the table.",
        },
        "de": {
            "one": "{cards} liegt schon auf dem Tisch.",
            "other": "{cards} liegen schon auf dem Tisch.",
        },
    },
    "cards.entered_twice": {
        "en": {
            "one": "{cards} is entered twice: with one pack every card exists once.",
            "other": "{cards} are entered twice: with one pack every card exists once.",
        },
        "de": {
            "one": "{cards} ist doppelt eingegeben: in einem Blatt gibt es jede Karte nur einmal.",
            "other": "{cards} sind doppelt eingegeben: "
            "in einem Blatt gibt es jede Karte nur einmal.",
        },
    },
    "cards.more_than_packs": {
        "en": {
            "one": "{cards} is entered more often than the packs hold.",
            "other": "{cards} are entered more often than the packs hold.",
        },
        "de": {
            "one": "{cards} ist öfter eingegeben, als es in den Blättern vorkommt.",
            "other": "{cards} sind öfter eingegeben, als sie in den Blättern vorkommen.",
        },
    },
    "cards.on_table_not_in_hand": {
        "en": {
            "one": "{cards} is on the table, so is not in {name}'s hand.",
            "other": "{cards} are on the table, so are not in {name}'s hand.",
        },
        "de": {
            "one": "{cards} liegt auf dem Tisch, ist also nicht in der Hand von {name}.",
            "other": "{cards} liegen auf dem Tisch, sind also nicht in der Hand von {name}.",
        },
    },
    # --- the end of a game --------------------------------------------------------------------
    "settlement.player_twice": {
        "en": "A player is listed twice among the players of the game.",
        "de": "Ein Spieler steht zweimal unter den Spielern des Spiels.",
    },
    "settlement.abandoned_romme": {
        "en": "An abandoned game has no winner, so no Rommé hand.",
        "de": "Ein abgebrochenes Spiel hat keinen Gewinner, also auch keine Rommé-Hand.",
    },
    "settlement.winner_not_playing": {
        "en": "The player who went out does not play in this game.",
        "de": "Der Spieler, der ausgemacht hat, spielt in diesem Spiel nicht mit.",
    },
    "settlement.stranger_hand": {
        "en": "A hand was entered for someone who does not play in this game.",
        "de": "Eine Hand wurde für jemanden eingegeben, der in diesem Spiel nicht mitspielt.",
    },
    "settlement.winner_has_hand": {
        "en": "The player who went out has no cards left in hand.",
        "de": "Der Spieler, der ausgemacht hat, hat keine Karten mehr auf der Hand.",
    },
    "settlement.hand_missing": {
        "en": "Enter the cards left in every other player's hand.",
        "de": "Bitte die Karten eingeben, die jeder andere Spieler noch auf der Hand hat.",
    },
    "settlement.hand_points": {
        "en": "A hand left at the end is worth {lowest} to {highest} points; "
        "{points} cannot be right.",
        "de": "Eine Hand am Spielende ist {lowest} bis {highest} Punkte wert; "
        "{points} kann nicht stimmen.",
    },
    "settlement.empty_hand": {
        "en": "Only the player who went out has no cards left: "
        "enter the cards left in every other hand.",
        "de": "Nur der Spieler, der ausgemacht hat, hat keine Karten mehr: "
        "bitte die Karten eingeben, die in jeder anderen Hand übrig sind.",
    },
    "settlement.winner_without_entries": {
        "en": "{name} has no meld or layoff in this game, so cannot have gone out: "
        "record {name}'s melds first.",
        "de": "{name} hat in diesem Spiel nichts ausgelegt oder angelegt, "
        "kann also nicht ausgemacht haben: bitte zuerst die Kombinationen von {name} eintragen.",
    },
    "settlement.no_romme_hand": {
        "en": "{name} put cards down before another player's entry, so this is no Rommé hand.",
        "de": "{name} hat schon vor dem Eintrag eines anderen Spielers Karten ausgelegt, "
        "also ist das keine Rommé-Hand.",
    },
    "settlement.target": {
        "en": "The target must be a positive number of points.",
        "de": "Das Ziel muss eine positive Punktzahl sein.",
    },
    # --- seating and the target ---------------------------------------------------------------
    "seating.player_count": {
        "en": "{variant} is played by {low} to {high} players; {count} were entered.",
        "de": {
            "one": "{variant} wird von {low} bis {high} Spielern gespielt; "
            "{count} wurde eingegeben.",
            "other": "{variant} wird von {low} bis {high} Spielern gespielt; "
            "{count} wurden eingegeben.",
        },
    },
    "seating.no_name": {
        "en": "Every player needs a name.",
        "de": "Jeder Spieler braucht einen Namen.",
    },
    "seating.name_too_long": {
        "en": "A name may have at most {longest} characters.",
        "de": "Ein Name darf höchstens {longest} Zeichen haben.",
    },
    "seating.name_unprintable": {
        "en": "A name may not contain control characters.",
        "de": "Ein Name darf keine Steuerzeichen enthalten.",
    },
    "seating.name_twice": {
        "en": "“{name}” is entered twice: every player needs their own name.",
        "de": "„{name}“ ist doppelt eingegeben: jeder Spieler braucht einen eigenen Namen.",
    },
    "seating.target": {
        "en": "The target must be a positive number of points, e.g. 500 or 1000.",
        "de": "Das Ziel muss eine positive Punktzahl sein, z. B. 500 oder 1000.",
    },
    "seating.target_too_high": {
        "en": "The target may be at most {largest} points.",
        "de": "Das Ziel darf höchstens {largest} Punkte betragen.",
    },
    "seating.dealer_not_a_player": {
        "en": "The first dealer must be one of the players.",
        "de": "Der erste Geber muss einer der Spieler sein.",
    },
}

# How a list of messages (the gaps of a sequence) is joined in each language.
_AND = {"en": " and ", "de": " und "}


@runtime_checkable
class Labelled(Protocol):
    """A rules value that names itself in a language: a card, rank, suit or rule system."""

    def label(self, language: str = "en") -> str:
        """Return the value as the players of that language write it."""


@dataclass(frozen=True)
class Message:
    """A message id with its params, rendered in a language when it is shown."""

    message_id: str
    params: Mapping[str, object] = field(default_factory=dict)

    def render(self, language: str = "en") -> str:
        """Return the message in a language (German for ``de...``, else English)."""
        return render_message(self.message_id, language, **self.params)


def language_of(language: str) -> str:
    """Return the catalogue language for a locale: ``de`` for ``de``, ``de-AT`` ..., else ``en``.

    >>> language_of("de_CH"), language_of("fr"), language_of("")
    ('de', 'en', 'en')
    """
    return "de" if language.lower().startswith("de") else "en"


def render_message(message_id: str, language: str = "en", /, **params: object) -> str:
    """Return the message with that id in a language, its params rendered in that language.

    An id that is not in the catalogue is taken as a finished English text and returned as it
    is, so that ``RulesError("Some text.")`` still reads as before.
    """
    templates = MESSAGES.get(message_id)
    if templates is None:
        return message_id
    return render_templates(templates, language, params)


def render_templates(
    templates: Mapping[str, Template], language: str, params: Mapping[str, object]
) -> str:
    """Render one message from its templates by language (also for catalogues outside rules)."""
    lang = language_of(language)
    template = templates[lang]
    if isinstance(template, dict):
        template = template["one" if params["count"] == 1 else "other"]
    return template.format(**{name: render_param(value, lang) for name, value in params.items()})


def render_param(value: object, language: str = "en") -> str:
    """Return one param as text in a language: cards, ranks, suits in that language's letters.

    >>> from scorekeeper.rules.cards import parse_cards
    >>> render_param(parse_cards("Q♣ J♥ 10♠"), "de")
    'D♣ B♥ 10♠'
    """
    lang = language_of(language)
    if isinstance(value, Message):
        return value.render(lang)
    if isinstance(value, Labelled):
        return value.label(lang)
    if isinstance(value, str):
        return value
    if isinstance(value, Sequence):
        if all(isinstance(item, Message) for item in value):
            return _AND[lang].join(render_param(item, lang) for item in value)
        return " ".join(render_param(item, lang) for item in value)
    return str(value)
