"""Every rules message as a gettext message id, and how to render one for the card table.

A message is an id with params. The id names an English wording, which is the gettext msgid;
the German lives in the catalogue ``scorekeeper/translations/de/LC_MESSAGES/messages.po``
beside every other sentence of the app, and is read from the compiled ``messages.mo`` with the
standard library's :mod:`gettext`. Where the wording depends on a number, the id names a
singular and a plural msgid, and the param ``count`` chooses between them (``ngettext``).
The params are rendered in the language first: a card in its own letters (``D♣`` for the
Queen of clubs in German), a list of cards separated by spaces, a suit as its symbol, a rank
as its letter, a rule system as its title.

To add a message: give it an id here, wrapped in ``wording("...")`` or
``plural_wording("...", "...")`` with ``%(name)s`` placeholders; run the extract command
in ``babel.cfg``, then ``pybabel update`` and translate the new entry in the German ``.po``.

>>> from scorekeeper.rules.cards import parse_cards
>>> render_message("table.already_on_table", "de", cards=parse_cards("Q♣ K♣"), count=2)
'D♣ K♣ liegen schon auf dem Tisch.'
>>> render_message("table.already_on_table", "en", cards=parse_cards("Q♣"), count=1)
'Q♣ is already on the table.'
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, runtime_checkable

LANGUAGES = ("en", "de")

# The app's one catalogue, compiled by ``pybabel compile -d scorekeeper/translations``.
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"


@functools.cache
def _catalogue(language: str) -> gettext.NullTranslations:
    """Return the compiled catalogue of a language; English reads the msgids themselves."""
    return gettext.translation(
        "messages", localedir=TRANSLATIONS, languages=[language], fallback=True
    )


# Catalogues added for the words of a rule system that the app's catalogue does not hold, by
# language: asked, in the order added, for a msgid the app's catalogue leaves untranslated.
_ADDED: dict[str, list[gettext.NullTranslations]] = {}


def add_catalogue(language: str, catalogue: gettext.NullTranslations) -> None:
    """Add a catalogue for words the app's catalogue does not hold (a rule system's own).

    The app's catalogue is asked first; a msgid it leaves untranslated is asked of the added
    catalogues of that language in the order they were added.

    >>> class Dutch(gettext.NullTranslations):
    ...     def gettext(self, message: str) -> str:
    ...         return {"Table Rummy": "Tafelrommé"}.get(message, message)
    >>> dutch = Dutch()
    >>> add_catalogue("de", dutch)
    >>> wording("Table Rummy").render("de"), wording("German Rummy").render("de")
    ('Tafelrommé', 'Rommé')
    >>> remove_catalogue("de", dutch)
    >>> wording("Table Rummy").render("de")
    'Table Rummy'
    """
    _ADDED.setdefault(language_of(language), []).append(catalogue)


def remove_catalogue(language: str, catalogue: gettext.NullTranslations) -> None:
    """Take out a catalogue added with ``add_catalogue``; one never added is refused."""
    added = _ADDED.get(language_of(language), [])
    if catalogue not in added:
        raise ValueError("that catalogue was never added for this language")
    added.remove(catalogue)


def _translated(language: str, singular: str, plural: str | None, count: int) -> str:
    """Return a msgid in a language: from the app's catalogue, else from one added."""
    if plural is None:
        text = _catalogue(language).gettext(singular)
    else:
        text = _catalogue(language).ngettext(singular, plural, count)
    if text not in (singular, plural):
        return text
    for added in _ADDED.get(language, ()):
        if plural is None:
            said = added.gettext(singular)
        else:
            said = added.ngettext(singular, plural, count)
        if said not in (singular, plural):
            return said
    return text


@dataclass(frozen=True)
class Wording:
    """The English wording of a message: its gettext msgid, and its plural msgid if any."""

    singular: str
    plural: str | None = None

    def render(self, language: str = "en", /, **params: object) -> str:
        """Return the wording in a language, its params rendered in that language."""
        lang = language_of(language)
        count = 1 if self.plural is None else _count(params)
        text = _translated(lang, self.singular, self.plural, count)
        return text % {name: render_param(value, lang) for name, value in params.items()}


def wording(singular: str) -> Wording:
    """Mark an English sentence as a msgid of the catalogue (extract keyword ``wording``)."""
    return Wording(singular)


def plural_wording(singular: str, plural: str) -> Wording:
    """Mark a sentence whose wording the param ``count`` chooses (``plural_wording:1,2``)."""
    return Wording(singular, plural)


def _count(params: Mapping[str, object]) -> int:
    """Return the param ``count``, the number that chooses a plural form."""
    count = params["count"]
    if not isinstance(count, int):
        raise TypeError(f"the param count must be a whole number, not {count!r}")
    return count


MESSAGES: dict[str, Wording] = {
    # --- card notation (the token is what the user typed, shown as typed) -------------------
    "notation.too_short": wording(
        "“%(token)s” is not a card: write the rank, then the suit, e.g. Q♣ or 10h."
    ),
    "notation.no_suit": wording(
        "“%(token)s” is not a card: the last character must be the suit (♠ ♥ ♦ ♣ or S H D C)."
    ),
    "notation.no_rank": wording(
        "“%(token)s” is not a card: “%(rank)s” is not a rank (A 2-10 J Q K, or T, B, D)."
    ),
    # A rank or a suit written as a word (Bube, Herz, queen) without the other. ``words``,
    # ``card`` and ``letters`` write one example card as the word's own language does, e.g.
    # Herz-Bube, B♥ and bh for “Bube”.
    "notation.rank_needs_suit": wording(
        "“%(token)s” needs a suit: write e.g. %(words)s, %(card)s or %(letters)s."
    ),
    "notation.suit_needs_rank": wording(
        "“%(token)s” needs a rank: write e.g. %(words)s, %(card)s or %(letters)s."
    ),
    # A suit word and a word after it that is no rank (“Herz Elf”); the example as above.
    "notation.no_rank_word": wording(
        "“%(token)s” is not a card: “%(word)s” is no rank; write e.g. %(words)s, %(card)s or "
        "%(letters)s."
    ),
    "notation.no_jokers": wording(
        "“%(token)s” is a joker, and this rule system is played without jokers."
    ),
    "notation.not_a_joker": wording(
        "“%(token)s” is not a joker: write JKR, or JKR=7♠ for the card it stands for."
    ),
    "notation.joker_card": wording(
        "“%(token)s”: after JKR= write the card the joker stands for, e.g. JKR=7♠."
    ),
    # --- melds --------------------------------------------------------------------------------
    "meld.no_cards": wording("No cards entered: a meld needs at least %(needed)s cards."),
    "meld.too_few": plural_wording(
        "A meld needs at least %(needed)s cards; %(cards)s is only %(count)s.",
        "A meld needs at least %(needed)s cards; %(cards)s are only %(count)s.",
    ),
    "meld.card_twice": wording("%(card)s is entered twice: every card exists once."),
    "meld.equal_cards": wording("%(card)s is entered twice: a meld never holds two equal cards."),
    "meld.no_jokers": wording("%(variant)s is played without jokers."),
    # --- jokers (G1, G2) ----------------------------------------------------------------------
    "joker.too_many": wording(
        "%(cards)s holds more jokers than natural cards: a meld needs at least as many natural "
        "cards as jokers."
    ),
    "joker.three_side_by_side": wording("%(cards)s: three jokers never lie side by side."),
    "joker.cannot_stand_for": wording(
        "In %(cards)s a joker cannot stand for %(card)s; there it can stand for %(choices)s."
    ),
    # ``choices`` are the cards joined by "or"; ``choice`` is one of them.
    "joker.in_doubt": wording(
        "In %(cards)s a joker can stand for %(choices)s: say which, e.g. JKR=%(choice)s."
    ),
    "meld.neither": wording(
        "%(cards)s is neither a set (cards of one rank) nor a sequence (cards of one suit in "
        "order)."
    ),
    # --- sets ---------------------------------------------------------------------------------
    "set.suit_twice": wording(
        "%(cards)s is not a set: the cards of a set are all of different suits, and %(suit)s is "
        "there twice."
    ),
    "set.too_many": wording("%(cards)s is not a set: a set has at most %(largest)s cards."),
    "set.other_rank": plural_wording(
        "%(cards)s is not a set: %(strangers)s does not belong in a set of %(rank)ss (a set is of "
        "one rank).",
        "%(cards)s is not a set: %(strangers)s do not belong in a set of %(rank)ss (a set is of "
        "one rank).",
    ),
    # --- sequences: "<cards> is not a sequence: <reason>" -------------------------------------
    "sequence.not_a_sequence": wording("%(cards)s is not a sequence: %(reason)s"),
    "sequence.mixed_suits": plural_wording(
        "a sequence is of one suit, and %(strangers)s is not %(suit)s.",
        "a sequence is of one suit, and %(strangers)s are not %(suit)s.",
    ),
    "sequence.corner": wording("in %(variant)s the ace may not turn the corner (K-A-2)."),
    # ``gaps`` is a list of "sequence.gap" messages, joined with "and" / "und".
    "sequence.missing": wording("%(gaps)s."),
    "sequence.gap": plural_wording(
        "%(missing)s is missing between %(before)s and %(after)s",
        "%(missing)s are missing between %(before)s and %(after)s",
    ),
    # ``count`` is the number of jokers.
    "sequence.jokers_short": plural_wording(
        "%(missing)s are missing, and %(count)s joker cannot stand for them all.",
        "%(missing)s are missing, and %(count)s jokers cannot stand for them all.",
    ),
    "sequence.too_long": wording("a suit has only 13 cards."),
    # Where both aces of a suit may lie in one sequence (G9).
    "sequence.too_long_both_aces": wording(
        "a sequence holds at most 14 cards: every rank once, and an ace at each end."
    ),
    # --- layoffs ------------------------------------------------------------------------------
    "layoff.no_cards": wording("Choose at least one card to lay off."),
    "layoff.card_twice": wording("%(card)s is entered twice."),
    "layoff.already_in_meld": plural_wording(
        "%(cards)s already lies in %(meld)s.",
        "%(cards)s already lie in %(meld)s.",
    ),
    "layoff.set_other_rank": plural_wording(
        "%(cards)s cannot go onto the set %(meld)s: only a %(rank)s fits there.",
        "%(cards)s cannot go onto the set %(meld)s: only a %(rank)s fits there.",
    ),
    "layoff.set_complete": wording(
        "The set %(meld)s is complete: a set has at most %(largest)s cards."
    ),
    "layoff.set_room": plural_wording(
        "The set %(meld)s has room for only %(count)s more card: a set has at most %(largest)s "
        "cards.",
        "The set %(meld)s has room for only %(count)s more cards: a set has at most %(largest)s "
        "cards.",
    ),
    "layoff.sequence_other_suit": plural_wording(
        "%(cards)s cannot go onto %(meld)s: a sequence takes only %(suit)s cards.",
        "%(cards)s cannot go onto %(meld)s: a sequence takes only %(suit)s cards.",
    ),
    "layoff.sequence_complete": wording(
        "The sequence %(meld)s is complete: all 13 cards lie there."
    ),
    "layoff.sequence_both_aces": wording(
        "The sequence %(meld)s is complete: the whole suit lies there, with an ace at each end."
    ),
    # ``reason`` is the message that says why the longer sequence is none.
    "layoff.does_not_fit": plural_wording(
        "%(cards)s cannot be laid off onto %(meld)s: %(reason)s",
        "%(cards)s cannot be laid off onto %(meld)s: %(reason)s",
    ),
    "layoff.joker_there": plural_wording(
        "A joker in %(meld)s stands for %(cards)s: putting it there is a joker swap, not a layoff.",
        "Jokers in %(meld)s stand for %(cards)s: putting them there is a joker swap, not a layoff.",
    ),
    "layoff.meld_not_on_table": wording("That meld is not on the table in this game."),
    # --- cards that exist once ----------------------------------------------------------------
    "table.already_on_table": plural_wording(
        "%(cards)s is already on the table.",
        "%(cards)s are already on the table.",
    ),
    # With two packs (German Rummy, G8): ``copies`` is how often the packs hold each card.
    "table.not_in_packs": plural_wording(
        "%(cards)s is not in the packs any more: all %(copies)s copies lie on the table.",
        "%(cards)s are not in the packs any more: all %(copies)s copies of each lie on the table.",
    ),
    "table.no_jokers_left": wording("All %(jokers)s jokers already lie on the table."),
    "cards.entered_twice": plural_wording(
        "%(cards)s is entered twice: with one pack every card exists once.",
        "%(cards)s are entered twice: with one pack every card exists once.",
    ),
    "cards.more_than_packs": plural_wording(
        "%(cards)s is entered more often than the packs hold.",
        "%(cards)s are entered more often than the packs hold.",
    ),
    "cards.too_many_jokers": plural_wording(
        "%(count)s joker is entered, but the packs hold only %(jokers)s.",
        "%(count)s jokers are entered, but the packs hold only %(jokers)s.",
    ),
    "cards.on_table_not_in_hand": plural_wording(
        "%(cards)s is on the table, so is not in %(name)s's hand.",
        "%(cards)s are on the table, so are not in %(name)s's hand.",
    ),
    # --- the opening (G3) and the joker swap (G4) ---------------------------------------------
    # ``melds`` are the melds of the opening; ``count`` is how many there are.
    "opening.too_low": plural_wording(
        "%(melds)s is worth %(value)s; an opening needs at least %(minimum)s.",
        "%(melds)s are worth %(value)s together; an opening needs at least %(minimum)s.",
    ),
    "opening.layoff_first": wording(
        "%(name)s has not opened yet: there is no layoff before the opening."
    ),
    "opening.swap_first": wording(
        "%(name)s has not opened yet: there is no joker swap before the opening."
    ),
    "swap.no_joker": wording("%(meld)s holds no joker to swap."),
    "swap.not_played": wording("In %(variant)s a joker stays where it lies: it is never swapped."),
    "swap.no_cards": wording("Choose the card that takes the joker's place in %(meld)s."),
    "swap.joker_for_joker": wording("Only a natural card can take a joker's place."),
    "swap.wrong_card": plural_wording(
        "%(cards)s cannot take a joker's place in %(meld)s: the joker there stands for "
        "%(choices)s.",
        "%(cards)s cannot take a joker's place in %(meld)s: the joker there stands for "
        "%(choices)s.",
    ),
    "swap.one_card": wording("The joker in the set %(meld)s is swapped for one card: %(choices)s."),
    "swap.set_needs_four": wording(
        "By this table's house rule a joker leaves a set only when the set becomes four natural "
        "cards: put in %(missing)s."
    ),
    "swap.joker_not_in_new_meld": wording(
        "Each joker taken must go at once into the new meld: write it there as JKR."
    ),
    # --- the end of a game --------------------------------------------------------------------
    "settlement.player_twice": wording("A player is listed twice among the players of the game."),
    "settlement.abandoned_romme": wording("An abandoned game has no winner, so no Rommé hand."),
    "settlement.winner_not_playing": wording("The player who went out does not play in this game."),
    "settlement.stranger_hand": wording(
        "A hand was entered for someone who does not play in this game."
    ),
    "settlement.winner_has_hand": wording("The player who went out has no cards left in hand."),
    "settlement.hand_missing": wording("Enter the cards left in every other player's hand."),
    "settlement.hand_points": wording(
        "A hand left at the end is worth %(lowest)s to %(highest)s points; %(points)s cannot be "
        "right."
    ),
    "settlement.empty_hand": wording(
        "Only the player who went out has no cards left: enter the cards left in every other hand."
    ),
    "settlement.winner_without_entries": wording(
        "%(name)s has no meld or layoff in this game, so cannot have gone out: record %(name)s's "
        "melds first."
    ),
    "settlement.no_romme_hand": wording(
        "%(name)s put cards down before another player's entry, so this is no Rommé hand."
    ),
    "settlement.romme_too_few_cards": plural_wording(
        "%(name)s put down %(count)s card after the other players' entries; a Rommé hand puts "
        "down at least the %(dealt)s cards dealt, so this is no Rommé hand.",
        "%(name)s put down %(count)s cards after the other players' entries; a Rommé hand puts "
        "down at least the %(dealt)s cards dealt, so this is no Rommé hand.",
    ),
    "settlement.romme_too_few_cards_first_turn": plural_wording(
        "%(name)s played first and put down %(count)s card; a Rommé hand in the game's first "
        "turn, without a card drawn, puts down at least %(least)s of the %(dealt)s cards dealt, "
        "so this is no Rommé hand.",
        "%(name)s played first and put down %(count)s cards; a Rommé hand in the game's first "
        "turn, without a card drawn, puts down at least %(least)s of the %(dealt)s cards dealt, "
        "so this is no Rommé hand.",
    ),
    "settlement.romme_proposed": wording(
        "Every entry of %(name)s comes after the other players' entries, with %(count)s cards "
        "(%(dealt)s were dealt): a Rommé hand is possible. If %(name)s put cards down in an "
        "earlier turn, choose “No”."
    ),
    "settlement.no_romme_in_variant": wording(
        "%(variant)s has no Rommé hand: going out at once earns nothing extra."
    ),
    "settlement.hand_missing_nobody_out": wording(
        "Nobody went out: enter the cards left in every player's hand, or abandon the game."
    ),
    "settlement.empty_hand_nobody_out": wording(
        "Nobody went out, so every player still holds cards: a player with none went out."
    ),
    # --- seating and the target ---------------------------------------------------------------
    "seating.player_count": plural_wording(
        "%(variant)s is played by %(low)s to %(high)s players; %(count)s were entered.",
        "%(variant)s is played by %(low)s to %(high)s players; %(count)s were entered.",
    ),
    "seating.no_name": wording("Every player needs a name."),
    "seating.name_too_long": wording("A name may have at most %(longest)s characters."),
    "seating.name_unprintable": wording("A name may not contain control characters."),
    "seating.name_invisible": wording(
        "A name may not contain invisible or direction-changing characters."
    ),
    "seating.name_twice": wording(
        "“%(name)s” is entered twice: every player needs their own name."
    ),
    "seating.target": wording("The target must be a positive number of points, e.g. 500 or 1000."),
    "seating.target_too_high": wording("The target may be at most %(largest)s points."),
    "seating.dealer_not_a_player": wording("The first dealer must be one of the players."),
    "seating.table_full": wording(
        "%(variant)s is played by %(low)s to %(high)s players, and %(count)s sit at the table: "
        "nobody more can join."
    ),
    "seating.too_few_to_leave": wording(
        "%(variant)s is played by %(low)s to %(high)s players, and only %(count)s sit at the "
        "table: nobody can leave."
    ),
    "seating.no_such_seat": wording(
        "There is no seat %(seat)s: a new player sits at seat 0 to %(last)s."
    ),
    "seating.name_of_one_who_left": wording(
        "“%(name)s” played in this session and left; their points stay under that name: give "
        "the new player another name."
    ),
    # --- rule systems and house rules ---------------------------------------------------------
    "rules.unknown_variant": wording(
        "There is no rule system “%(name)s”; the rule systems are %(known)s."
    ),
    "rules.unknown": wording(
        "%(variant)s has no house rule “%(rule)s”; its house rules are %(allowed)s."
    ),
    "rules.value": wording("The house rule “%(rule)s” allows %(allowed)s."),
    # How the rules of a session say a number of points and a number of games.
    "house.points": plural_wording("%(num)s point", "%(num)s points"),
    "house.games": plural_wording("%(num)s game", "%(num)s games"),
    # --- the news of a game just booked, and the explanation of a settlement ----------------
    "news.gains": wording("Game %(number)s is over: %(name)s went out and gains %(points)s."),
    "news.books": wording("%(name)s books %(points)s"),
    "news.minus": wording("Game %(number)s is over: %(name)s went out; %(minus)s."),
    "news.nobody_out": wording("Game %(number)s is over: nobody went out; %(minus)s."),
    "explain.minus": wording(
        "%(name)s went out and books 0; every other player books minus the cards left in their "
        "hand."
    ),
    "explain.minus_values": wording(
        "%(name)s went out and books 0; every other player books minus the cards left in their "
        "hand (an ace 11, a joker %(joker)s)."
    ),
    "explain.minus_ace": wording(
        "%(name)s went out and books 0; every other player books minus the cards left in their "
        "hand (an ace %(ace)s)."
    ),
    "explain.minus_ace_joker": wording(
        "%(name)s went out and books 0; every other player books minus the cards left in their "
        "hand (an ace %(ace)s, a joker %(joker)s)."
    ),
    "explain.nobody_out": wording(
        "Nobody went out: every player books minus the cards left in their hand (an ace %(ace)s)."
    ),
    "explain.nobody_out_joker": wording(
        "Nobody went out: every player books minus the cards left in their hand (an ace "
        "%(ace)s, a joker %(joker)s)."
    ),
    "explain.minus_doubled": wording(
        "A Hand-Rommé: under the rules of this session the minus points count double."
    ),
    "explain.romme": wording(
        "%(name)s put every card down in the turn of going out, so the hands count double: "
        "%(hands)s × 2 = %(gain)s."
    ),
    "explain.never_melded": wording(
        "The hands of the players who never melded or laid off count double: %(name)s scores "
        "%(gain)s."
    ),
    "explain.once": wording("%(name)s scores the cards left in the other hands once: %(gain)s."),
    "explain.melds_stay": wording("The points of the melds and layoffs stay with every player."),
    "explain.game_net": wording(
        "Every player's game is what their melds and layoffs scored minus their hand."
    ),
    "explain.only_hands": wording("Melds score nothing: only the cards left in the hands count."),
    "explain.only_paid": wording("Melds score nothing: only the cards paid for count."),
    # The names of rule systems whose name differs by language.
    "variant.german_rummy": wording("German Rummy"),
    "variant.rummy_500": wording("500 Rum"),
    # --- how a session ends (rules/ends.py): in the rules of a session, in a list of them ----
    "end.target": wording("to %(target)s points"),
    "end.target_short": wording("to %(target)s"),
    "end.limit": wording("until a total reaches %(limit)s"),
    "end.games_short": wording("a number of games"),
    "end.target_heading": wording("Session to %(target)s points"),
    "end.limit_heading": wording("Session until a total reaches %(limit)s"),
    "end.games_heading": wording("Session of %(games)s games"),
    # --- how a settled game ended, and why a hand counted double -----------------------------
    "outcome.nobody_out": wording("Nobody went out: every hand was counted"),
    "outcome.went_out": wording("%(name)s went out"),
    "outcome.romme": wording("%(name)s went out with a Rommé hand"),
    "outcome.doubled_romme": wording("(Rommé hand)"),
    "outcome.doubled_never_melded": wording("(never melded)"),
    # A group's best meld where melds score nothing: no value tells which is best.
    "groups.best_meld_cards": wording(
        "Melds score nothing here: the best meld is the one of the most cards."
    ),
    # --- the score sheet: what a game's numbers are, and how the session ends --------------
    "sheet.points": wording("points"),
    "sheet.minus_points": wording("minus points"),
    "sheet.payments": wording("payments won"),
    "sheet.end_target": wording("Target: %(number)s"),
    "sheet.end_limit": wording("Limit: %(number)s"),
    # The heading of each player's distance to the end: the points still to make to a target,
    # the points still to lose to a limit (German: "Bis -500", not "Fehlen", "missing").
    "sheet.to_target": wording("To go"),
    "sheet.to_limit": wording("To %(number)s"),
    # The number of games chooses the plural: "1 game, 0 left" and "5 games, 1 left" read right.
    "sheet.end_games": plural_wording(
        "%(count)s game, %(left)s left", "%(count)s games, %(left)s left"
    ),
    "rules.target_and_end": wording(
        "Give the target or the end of the session in the house rules, not two different ones."
    ),
    # --- groups: the people who play together, and names merged into one person -------------
    "group.no_name": wording("A new group needs a name, e.g. Donnerstagsrunde."),
    "group.name_too_long": wording("A group's name may have at most %(longest)s characters."),
    "group.same_name": wording(
        "“%(name)s” and “%(same_as)s” are one name already: case, spaces and the width of "
        "letters do not count."
    ),
    "group.nobody_called": wording("Nobody called “%(name)s” has played in this group."),
    "group.never_dealt": wording(
        "“%(name)s” sat at a table of this group, but no game was dealt there: only names "
        "that played a game can be merged."
    ),
    "group.same_person": wording("“%(name)s” and “%(same_as)s” count as one person already."),
    "group.played_together": wording(
        "“%(name)s” and “%(same_as)s” played in the same session, so they are two people."
    ),
    "group.merged_at_one_table": wording(
        "“%(name)s” and “%(same_as)s” count as one person in this group (the names were "
        "merged): one person cannot sit at the table twice."
    ),
    # --- club evenings: several tables, series, a ranking (E1-E12) ---------------------------
    "evening.player_count": plural_wording(
        "An evening is for %(low)s to %(high)s players; %(count)s was entered.",
        "An evening is for %(low)s to %(high)s players; %(count)s were entered.",
    ),
    "evening.table_size": wording(
        "%(variant)s is played at tables of %(low)s to %(high)s players; a table of %(size)s is "
        "not possible."
    ),
    "evening.small_tables": wording(
        "Tables of 2 are seated only where the organiser allows them: allow tables of 2, or "
        "choose larger tables."
    ),
    # ``sizes`` are the table sizes that would seat the players, joined by "or".
    "evening.tables_split": wording(
        "%(count)s players cannot be split into tables of %(size)s and %(smaller)s: choose "
        "tables of %(sizes)s."
    ),
    "evening.table_of_one": wording(
        "%(count)s players at tables of %(size)s would leave one player alone, and nobody plays "
        "at a table of 1: choose tables of %(sizes)s."
    ),
    "evening.table_of_two": wording(
        "%(count)s players at tables of %(size)s would need a table of 2, which the organiser "
        "has not allowed: choose tables of %(sizes)s, or allow tables of 2."
    ),
    "evening.no_table_size": wording(
        "%(variant)s cannot seat %(count)s players at tables of %(low)s to %(high)s without a "
        "table of 2: allow tables of 2."
    ),
    "evening.series_count": wording("An evening has %(low)s to %(high)s series."),
    "evening.series_end_missing": wording(
        "Give the number of games per series, or the minutes per series."
    ),
    "evening.series_end_both": wording(
        "Give the number of games per series or the minutes per series, not both."
    ),
    "evening.games_per_series": wording("A series has %(low)s to %(high)s games."),
    "evening.minutes_per_series": wording("A series lasts %(low)s to %(high)s minutes."),
    "evening.seating_mode": wording(
        "Later series are seated by the standing (“standing”) or drawn again (“drawn”), not "
        "“%(name)s”."
    ),
    "evening.session_end": wording(
        "At an evening every table plays until its series ends: the house rule “end” is not "
        "chosen for an evening."
    ),
    # ``tables`` are the numbers of the tables still playing, joined by "and".
    "evening.still_playing": plural_wording(
        "Series %(number)s is still being played at table %(tables)s: the next series is seated "
        "once every table has ended.",
        "Series %(number)s is still being played at tables %(tables)s: the next series is "
        "seated once every table has ended.",
    ),
    "evening.all_series_played": plural_wording(
        "The evening has %(count)s series, and it is seated already.",
        "All %(count)s series of the evening are seated already.",
    ),
    "evening.redraw_started": plural_wording(
        "Series %(number)s cannot be drawn again: play has begun at table %(tables)s.",
        "Series %(number)s cannot be drawn again: play has begun at tables %(tables)s.",
    ),
    "evening.said_games": plural_wording("%(count)s game a series", "%(count)s games a series"),
    "evening.said_minutes": plural_wording(
        "%(count)s minute a series; the game being played then is the last",
        "%(count)s minutes a series; the game being played then is the last",
    ),
    "season.evenings": wording("A season has %(low)s to %(high)s evenings."),
    "season.best": wording("A season counts each player's best 1 to %(high)s evenings."),
}

# How a list of messages (the gaps of a sequence) is joined: "A and B and C".
_AND = wording("%(before)s and %(after)s")
# How alternatives are joined: "4♠ or 7♠".
_OR = wording("%(before)s or %(after)s")


@runtime_checkable
class Labelled(Protocol):
    """A rules value that names itself in a language: a card, rank, suit or rule system."""

    def label(self, language: str = "en") -> str:
        """Return the value as the players of that language write it."""


@dataclass(frozen=True)
class Message:
    """A message id with its params, rendered in a language when it is shown.

    The id names a wording of ``MESSAGES``; a message of words that are not there (a rule
    system's own, see ``add_catalogue``) brings its ``wording`` along.

    >>> Message("table.minus", {"name": "Ann"}, wording=wording("%(name)s books minus")).render()
    'Ann books minus'
    """

    message_id: str
    params: Mapping[str, object] = field(default_factory=dict)
    wording: Wording | None = None

    def render(self, language: str = "en") -> str:
        """Return the message in a language (German for ``de...``, else English)."""
        if self.wording is not None:
            return self.wording.render(language, **self.params)
        return render_message(self.message_id, language, **self.params)


@dataclass(frozen=True)
class OneOf:
    """Values of which one is meant, rendered joined by the language's "or".

    >>> from scorekeeper.rules.cards import parse_cards
    >>> OneOf(tuple(parse_cards("4♠ Q♠"))).label("de")
    '4♠ oder D♠'
    """

    items: tuple[object, ...]

    def label(self, language: str = "en") -> str:
        """Return the values in a language, joined by "or"."""
        return _joined(self.items, _OR, language)


@dataclass(frozen=True)
class Listed:
    """Values listed one after the other, separated by commas.

    >>> Listed((Message("news.books", {"name": "Bob", "points": -7}),) * 2).label("en")
    'Bob books -7, Bob books -7'
    """

    items: tuple[object, ...]

    def label(self, language: str = "en") -> str:
        """Return the values in a language, separated by commas."""
        return ", ".join(render_param(item, language) for item in self.items)


@dataclass(frozen=True)
class AllOf:
    """Values meant together, e.g. the melds of an opening, joined by the language's "and".

    >>> from scorekeeper.rules.cards import parse_cards
    >>> AllOf((parse_cards("Q♣ K♣ A♣"), parse_cards("3♦ 3♥ 3♠"))).label("de")
    'D♣ K♣ A♣ und 3♦ 3♥ 3♠'
    """

    items: tuple[object, ...]

    def label(self, language: str = "en") -> str:
        """Return the values in a language, joined by "and"."""
        return _joined(self.items, _AND, language)


def _joined(items: Sequence[object], joint: Wording, language: str) -> str:
    lang = language_of(language)
    shown = [render_param(item, lang) for item in items]
    if not shown:
        return ""
    return functools.reduce(
        lambda before, after: joint.render(lang, before=before, after=after), shown
    )


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
    found = MESSAGES.get(message_id)
    if found is None:
        return message_id
    return found.render(language, **params)


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
        if value and all(isinstance(item, Message) for item in value):
            return functools.reduce(
                lambda before, after: _AND.render(lang, before=before, after=after),
                (render_param(item, lang) for item in value),
            )
        return " ".join(render_param(item, lang) for item in value)
    return str(value)
