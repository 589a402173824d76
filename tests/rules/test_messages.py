"""Every rules message is in the gettext catalogue, English and German, cards in their letters."""

import ast
import inspect
import pathlib
import re

import pytest
from babel.messages.pofile import read_po

import scorekeeper.rules
from scorekeeper.rules import (
    MESSAGES,
    TREPPENROMME,
    CardAlreadyPlayedError,
    CardNotationError,
    CardTwiceError,
    CornerNotAllowedError,
    GapInSequenceError,
    HouseRuleError,
    InvalidLayoffError,
    InvalidMeldError,
    Message,
    MixedSuitsError,
    NotASetError,
    RulesError,
    SeatingError,
    SettlementError,
    Suit,
    Table,
    TooFewCardsError,
    Treppenromme,
    check_target,
    classify,
    lay_off,
    parse_cards,
    refuse_repeated_cards,
    render_message,
    seat_players,
)
from scorekeeper.rules import errors as errors_module

RULES_DIR = pathlib.Path(inspect.getfile(scorekeeper.rules)).parent
SOURCE_DIR = RULES_DIR.parent
TRANSLATIONS = SOURCE_DIR / "translations"
PLAYERS = ["Ann", "Bob", "Cid"]


class NoCorner(Treppenromme):
    """A made-up rule system in which the ace may not turn the corner."""

    name = "no-corner"
    title = "No-Corner Rommé"
    ace_turns_corner = False


class SetsOfThree(Treppenromme):
    """A made-up rule system whose sets hold exactly three cards."""

    name = "sets-of-three"
    set_sizes = (3, 3)


class TwoPacks(Treppenromme):
    """A made-up rule system played with two packs."""

    name = "two-packs"
    packs = 2


def cards(text):
    return parse_cards(text)


def read_catalogue(path):
    with path.open("rb") as file:
        return read_po(file)


TEMPLATE = read_catalogue(TRANSLATIONS / "messages.pot")
GERMAN = read_catalogue(TRANSLATIONS / "de" / "LC_MESSAGES" / "messages.po")
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
REGISTRY = sorted(MESSAGES)


def msgid(wording):
    """Return the catalogue's id of a wording: its msgid, or (msgid, msgid_plural)."""
    return wording.singular if wording.plural is None else (wording.singular, wording.plural)


def english_forms(wording):
    """Return the English wordings: one, or the singular and the plural."""
    return [wording.singular] if wording.plural is None else [wording.singular, wording.plural]


def german_forms(wording):
    """Return the German wordings from the .po: one, or one per plural form."""
    string = GERMAN[wording.singular].string
    return list(string) if isinstance(string, tuple) else [string]


def fields(text):
    return set(PLACEHOLDER.findall(text))


def filled(text, params):
    return PLACEHOLDER.sub(lambda match: str(params[match.group(1)]), text)


# --- the catalogue ---------------------------------------------------------------------------


@pytest.mark.parametrize("message_id", REGISTRY)
def test_every_message_is_in_the_extracted_catalogue_template(message_id):
    wording = MESSAGES[message_id]
    assert wording.singular in TEMPLATE, "run pybabel extract (see babel.cfg)"
    assert TEMPLATE[wording.singular].id == msgid(wording)


@pytest.mark.parametrize("message_id", REGISTRY)
def test_every_message_is_translated_into_german(message_id):
    wording = MESSAGES[message_id]
    assert wording.singular in GERMAN, "run pybabel update (see babel.cfg)"
    entry = GERMAN[wording.singular]
    assert entry.id == msgid(wording)
    assert not entry.fuzzy
    assert all(german_forms(wording))
    assert len(german_forms(wording)) == len(english_forms(wording))


def test_german_has_a_singular_for_exactly_one_and_a_plural_for_every_other_count():
    assert GERMAN.num_plurals == 2
    assert GERMAN.plural_expr == "(n != 1)"


@pytest.mark.parametrize("message_id", REGISTRY)
def test_every_wording_of_a_message_has_the_same_placeholders(message_id):
    wordings = english_forms(MESSAGES[message_id]) + german_forms(MESSAGES[message_id])
    assert len({frozenset(fields(text)) for text in wordings}) == 1, wordings
    for text in wordings:
        assert "%" not in PLACEHOLDER.sub("", text), text
        assert "{" not in text, text


@pytest.mark.parametrize("message_id", REGISTRY)
@pytest.mark.parametrize("count", [1, 2])
def test_every_message_renders_in_both_languages_in_the_form_its_count_chooses(message_id, count):
    wording = MESSAGES[message_id]
    params = {name: f"<{name}>" for name in fields(wording.singular)} | {"count": count}
    form = 0 if wording.plural is None or count == 1 else 1
    english = render_message(message_id, "en", **params)
    german = render_message(message_id, "de", **params)
    assert english == filled(english_forms(wording)[form], params)
    assert german == filled(german_forms(wording)[form], params), (
        "compile the catalogue: pybabel compile -d scorekeeper/translations"
    )
    if english_forms(wording) != german_forms(wording):  # not only placeholders
        assert english != german


@pytest.mark.parametrize(
    ("shown", "english", "german"),
    [
        ("Q♣", "Q♣ is already on the table.", "D♣ liegt schon auf dem Tisch."),
        ("Q♣ K♣", "Q♣ K♣ are already on the table.", "D♣ K♣ liegen schon auf dem Tisch."),
    ],
)
def test_the_count_chooses_the_plural_form_in_both_languages(shown, english, german):
    taken = cards(shown)
    error = CardAlreadyPlayedError("table.already_on_table", cards=taken, count=len(taken))
    assert error.message("en") == english
    assert error.message("de") == german


@pytest.mark.parametrize(
    ("count", "english", "german"),
    [
        (1, "Treppenrommé is played by 2 to 4 players; 1 were entered.", "1 wurde eingegeben."),
        (5, "Treppenrommé is played by 2 to 4 players; 5 were entered.", "5 wurden eingegeben."),
    ],
)
def test_a_message_worded_by_count_only_in_german_reads_alike_in_english(count, english, german):
    params = {"variant": "Treppenrommé", "low": 2, "high": 4, "count": count}
    assert render_message("seating.player_count", "en", **params) == english
    assert render_message("seating.player_count", "de", **params).endswith(german)


def test_a_count_that_is_no_whole_number_is_refused():
    with pytest.raises(TypeError):
        render_message("table.already_on_table", "de", cards=cards("Q♣"), count="1")


def error_ids_in_the_source():
    """Yield (file, line, id) for every message id given to a rules error or a Message.

    The source is the rules core and the layers above it, which raise rules errors too.
    """
    raisers = {
        name
        for name, value in vars(errors_module).items()
        if isinstance(value, type) and issubclass(value, RulesError)
    } | {"Message"}
    for path in sorted(SOURCE_DIR.rglob("*.py")):
        if path == RULES_DIR / "errors.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            if isinstance(node.func, ast.Name):
                called = node.func.id
            elif isinstance(node.func, ast.Attribute):
                called = node.func.attr
            else:
                continue
            if called not in raisers:
                continue
            first = node.args[0]
            choices = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
            for choice in choices:
                message_id = choice.value if isinstance(choice, ast.Constant) else None
                yield str(path.relative_to(SOURCE_DIR)), node.lineno, message_id


def test_every_rules_error_is_raised_with_a_message_id_from_the_catalogue():
    found = list(error_ids_in_the_source())
    assert len(found) >= 40
    unknown = [
        (name, line, message_id) for name, line, message_id in found if message_id not in MESSAGES
    ]
    assert unknown == []


def test_every_message_in_the_catalogue_is_raised_somewhere():
    raised = {message_id for _, _, message_id in error_ids_in_the_source()}
    # NotASequenceError puts every sequence reason into this one message.
    raised.add("sequence.not_a_sequence")
    assert set(MESSAGES) - raised == set()


# --- each error, as the players read it ------------------------------------------------------

CASES = [
    pytest.param(
        lambda: parse_cards("Q"),
        CardNotationError,
        "“Q” is not a card: write the rank, then the suit, e.g. Q♣ or 10h.",
        "„Q“ ist keine Karte: erst den Rang, dann die Farbe schreiben, z. B. D♣ oder 10h.",
        id="notation: too short",
    ),
    pytest.param(
        lambda: parse_cards("Q♣ Qx"),
        CardNotationError,
        "“Qx” is not a card: the last character must be the suit (♠ ♥ ♦ ♣ or S H D C).",
        "„Qx“ ist keine Karte: das letzte Zeichen muss die Farbe sein (♠ ♥ ♦ ♣ oder S H D C).",
        id="notation: no suit (the user's Q stays Q)",
    ),
    pytest.param(
        lambda: parse_cards("Jj♠"),
        CardNotationError,
        "“Jj♠” is not a card: “Jj” is not a rank (A 2-10 J Q K, or T, B, D).",
        "„Jj♠“ ist keine Karte: „Jj“ ist kein Rang (A 2-10 B D K, oder T, J, Q).",
        id="notation: no rank",
    ),
    pytest.param(
        lambda: classify([]),
        TooFewCardsError,
        "No cards entered: a meld needs at least 3 cards.",
        "Keine Karten eingegeben: eine Kombination braucht mindestens 3 Karten.",
        id="no cards",
    ),
    pytest.param(
        lambda: classify(cards("Q♣ K♣")),
        TooFewCardsError,
        "A meld needs at least 3 cards; Q♣ K♣ are only 2.",
        "Eine Kombination braucht mindestens 3 Karten; D♣ K♣ sind nur 2.",
        id="too few cards",
    ),
    pytest.param(
        lambda: classify(cards("J♥")),
        TooFewCardsError,
        "A meld needs at least 3 cards; J♥ is only 1.",
        "Eine Kombination braucht mindestens 3 Karten; B♥ ist nur 1.",
        id="one card",
    ),
    pytest.param(
        lambda: classify(cards("Q♠ Q♠ Q♥")),
        CardTwiceError,
        "Q♠ is entered twice: every card exists once.",
        "D♠ ist doppelt eingegeben: jede Karte gibt es nur einmal.",
        id="a card twice",
    ),
    pytest.param(
        lambda: classify(cards("J♠ Q♥ K♦")),
        InvalidMeldError,
        "J♠ Q♥ K♦ is neither a set (cards of one rank) "
        "nor a sequence (cards of one suit in order).",
        "B♠ D♥ K♦ ist weder ein Satz (Karten eines Rangs) "
        "noch eine Folge (Karten einer Farbe in lückenloser Reihe).",
        id="neither set nor sequence",
    ),
    pytest.param(
        lambda: classify(cards("Q♠ Q♥ Q♦ Q♣"), SetsOfThree()),
        NotASetError,
        "Q♠ Q♥ Q♦ Q♣ is not a set: a set has at most 3 cards.",
        "D♠ D♥ D♦ D♣ ist kein Satz: ein Satz hat höchstens 3 Karten.",
        id="set too large",
    ),
    pytest.param(
        lambda: classify(cards("J♠ J♥ 7♦")),
        NotASetError,
        "J♠ J♥ 7♦ is not a set: 7♦ does not belong in a set of Js (a set is of one rank).",
        "B♠ B♥ 7♦ ist kein Satz: 7♦ gehört nicht in einen Satz vom Rang B "
        "(ein Satz hat nur einen Rang).",
        id="a card of another rank",
    ),
    pytest.param(
        lambda: classify(cards("Q♠ Q♥ K♦ A♣")),
        NotASetError,
        "Q♠ Q♥ K♦ A♣ is not a set: K♦ A♣ do not belong in a set of Qs (a set is of one rank).",
        "D♠ D♥ K♦ A♣ ist kein Satz: K♦ A♣ gehören nicht in einen Satz vom Rang D "
        "(ein Satz hat nur einen Rang).",
        id="cards of other ranks",
    ),
    pytest.param(
        lambda: classify(cards("J♠ Q♠ K♥")),
        MixedSuitsError,
        "J♠ Q♠ K♥ is not a sequence: a sequence is of one suit, and K♥ is not ♠.",
        "B♠ D♠ K♥ ist keine Folge: eine Folge hat nur eine Farbe, und K♥ ist kein ♠.",
        id="mixed suits",
    ),
    pytest.param(
        lambda: classify(cards("9♦ 10♦ J♣ Q♥")),
        MixedSuitsError,
        "9♦ 10♦ J♣ Q♥ is not a sequence: a sequence is of one suit, and J♣ Q♥ are not ♦.",
        "9♦ 10♦ B♣ D♥ ist keine Folge: eine Folge hat nur eine Farbe, und B♣ D♥ sind keine ♦.",
        id="several strange suits",
    ),
    pytest.param(
        lambda: classify(cards("K♠ A♠ 3♠")),
        GapInSequenceError,
        "K♠ A♠ 3♠ is not a sequence: 2♠ is missing between A♠ and 3♠.",
        "K♠ A♠ 3♠ ist keine Folge: 2♠ fehlt zwischen A♠ und 3♠.",
        id="gap after a corner ace",
    ),
    pytest.param(
        lambda: classify(cards("K♣ 9♣ J♣")),
        GapInSequenceError,
        "9♣ J♣ K♣ is not a sequence: "
        "10♣ is missing between 9♣ and J♣ and Q♣ is missing between J♣ and K♣.",
        "9♣ B♣ K♣ ist keine Folge: 10♣ fehlt zwischen 9♣ und B♣ und D♣ fehlt zwischen B♣ und K♣.",
        id="two gaps",
    ),
    pytest.param(
        lambda: classify(cards("8♥ 9♥ Q♥")),
        GapInSequenceError,
        "8♥ 9♥ Q♥ is not a sequence: 10♥ J♥ are missing between 9♥ and Q♥.",
        "8♥ 9♥ D♥ ist keine Folge: 10♥ B♥ fehlen zwischen 9♥ und D♥.",
        id="a gap of two cards",
    ),
    pytest.param(
        lambda: classify(cards("Q♠ K♠ A♠ 2♠"), NoCorner()),
        CornerNotAllowedError,
        "Q♠ K♠ A♠ 2♠ is not a sequence: "
        "in No-Corner Rommé the ace may not turn the corner (K-A-2).",
        "D♠ K♠ A♠ 2♠ ist keine Folge: "
        "in No-Corner Rommé darf das Ass nicht um die Ecke gehen (K-A-2).",
        id="corner not allowed",
    ),
    pytest.param(
        lambda: lay_off(cards("J♦ Q♦ K♦"), []),
        InvalidLayoffError,
        "Choose at least one card to lay off.",
        "Bitte mindestens eine Karte zum Anlegen wählen.",
        id="layoff: no cards",
    ),
    pytest.param(
        lambda: lay_off(cards("6♠ 6♥ 6♦"), cards("Q♣ Q♣")),
        InvalidLayoffError,
        "Q♣ is entered twice.",
        "D♣ ist doppelt eingegeben.",
        id="layoff: a card twice",
    ),
    pytest.param(
        lambda: lay_off(cards("J♦ Q♦ K♦"), cards("Q♦")),
        InvalidLayoffError,
        "Q♦ already lies in J♦ Q♦ K♦.",
        "D♦ liegt schon in B♦ D♦ K♦.",
        id="layoff: a card already in the meld",
    ),
    pytest.param(
        lambda: lay_off(cards("J♦ Q♦ K♦"), cards("J♦ Q♦")),
        InvalidLayoffError,
        "J♦ Q♦ already lie in J♦ Q♦ K♦.",
        "B♦ D♦ liegen schon in B♦ D♦ K♦.",
        id="layoff: cards already in the meld",
    ),
    pytest.param(
        lambda: lay_off(cards("Q♠ Q♥ Q♦"), cards("J♣")),
        InvalidLayoffError,
        "J♣ cannot go onto the set Q♠ Q♥ Q♦: only a Q fits there.",
        "B♣ passt nicht an den Satz D♠ D♥ D♦: dort passen nur Karten vom Rang D.",
        id="layoff: another rank onto a set",
    ),
    pytest.param(
        lambda: lay_off(cards("Q♠ Q♥ Q♦"), cards("Q♣"), SetsOfThree()),
        InvalidLayoffError,
        "The set Q♠ Q♥ Q♦ is complete: a set has at most 3 cards.",
        "Der Satz D♠ D♥ D♦ ist vollständig: ein Satz hat höchstens 3 Karten.",
        id="layoff: onto a complete set",
    ),
    pytest.param(
        lambda: lay_off(cards("J♦ Q♦ K♦"), cards("Q♣ 9♦ J♥")),
        InvalidLayoffError,
        "Q♣ J♥ cannot go onto J♦ Q♦ K♦: a sequence takes only ♦ cards.",
        "D♣ B♥ passen nicht an B♦ D♦ K♦: an eine Folge passen nur ♦-Karten.",
        id="layoff: another suit onto a sequence",
    ),
    pytest.param(
        lambda: lay_off(cards("5♠ 6♠ 7♠"), cards("9♠")),
        InvalidLayoffError,
        "9♠ cannot be laid off onto 5♠ 6♠ 7♠: 8♠ is missing between 7♠ and 9♠.",
        "9♠ kann nicht an 5♠ 6♠ 7♠ angelegt werden: 8♠ fehlt zwischen 7♠ und 9♠.",
        id="layoff: a gap",
    ),
    pytest.param(
        lambda: lay_off(cards("8♥ 9♥ 10♥"), cards("K♥ Q♥")),
        InvalidLayoffError,
        "K♥ Q♥ cannot be laid off onto 8♥ 9♥ 10♥: J♥ is missing between 10♥ and Q♥.",
        "K♥ D♥ können nicht an 8♥ 9♥ 10♥ angelegt werden: B♥ fehlt zwischen 10♥ und D♥.",
        id="layoff: a gap before a queen",
    ),
    pytest.param(
        lambda: lay_off(cards("Q♠ K♠ A♠"), cards("2♠"), NoCorner()),
        InvalidLayoffError,
        "2♠ cannot be laid off onto Q♠ K♠ A♠: "
        "in No-Corner Rommé the ace may not turn the corner (K-A-2).",
        "2♠ kann nicht an D♠ K♠ A♠ angelegt werden: "
        "in No-Corner Rommé darf das Ass nicht um die Ecke gehen (K-A-2).",
        id="layoff: across a corner not allowed",
    ),
    pytest.param(
        lambda: Table().lay_off(2, 1, cards("Q♣")),
        InvalidLayoffError,
        "That meld is not on the table in this game.",
        "Diese Kombination liegt in diesem Spiel nicht auf dem Tisch.",
        id="layoff: onto no meld",
    ),
    pytest.param(
        lambda: table_with("J♦ Q♦ K♦").meld(2, cards("Q♦ Q♣ Q♥")),
        CardAlreadyPlayedError,
        "Q♦ is already on the table.",
        "D♦ liegt schon auf dem Tisch.",
        id="a card already on the table",
    ),
    pytest.param(
        lambda: table_with("J♦ Q♦ K♦").meld(2, cards("J♦ Q♦ 10♦")),
        CardAlreadyPlayedError,
        "J♦ Q♦ are already on the table.",
        "B♦ D♦ liegen schon auf dem Tisch.",
        id="cards already on the table",
    ),
    pytest.param(
        lambda: refuse_repeated_cards([cards("Q♠ 6♥ 7♦"), cards("Q♠ 6♥ 8♣")]),
        CardAlreadyPlayedError,
        "Q♠ 6♥ are entered twice: with one pack every card exists once.",
        "D♠ 6♥ sind doppelt eingegeben: in einem Blatt gibt es jede Karte nur einmal.",
        id="cards entered twice",
    ),
    pytest.param(
        lambda: refuse_repeated_cards([cards("Q♠"), cards("Q♠"), cards("Q♠")], TwoPacks().packs),
        CardAlreadyPlayedError,
        "Q♠ is entered more often than the packs hold.",
        "D♠ ist öfter eingegeben, als es in den Blättern vorkommt.",
        id="a card more often than the packs hold",
    ),
    pytest.param(
        lambda: TREPPENROMME.settle(PLAYERS, None, {}, romme=True),
        SettlementError,
        "An abandoned game has no winner, so no Rommé hand.",
        "Ein abgebrochenes Spiel hat keinen Gewinner, also auch keine Rommé-Hand.",
        id="settlement: abandoned with a Rommé hand",
    ),
    pytest.param(
        lambda: TREPPENROMME.settle(PLAYERS, "Dan", {"Ann": 5, "Bob": 5, "Cid": 5}),
        SettlementError,
        "The player who went out does not play in this game.",
        "Der Spieler, der ausgemacht hat, spielt in diesem Spiel nicht mit.",
        id="settlement: unknown winner",
    ),
    pytest.param(
        lambda: TREPPENROMME.settle(PLAYERS, "Ann", {"Bob": 5, "Cid": 5, "Dan": 5}),
        SettlementError,
        "A hand was entered for someone who does not play in this game.",
        "Eine Hand wurde für jemanden eingegeben, der in diesem Spiel nicht mitspielt.",
        id="settlement: a hand for a stranger",
    ),
    pytest.param(
        lambda: TREPPENROMME.settle(PLAYERS, "Ann", {"Ann": 5, "Bob": 5, "Cid": 5}),
        SettlementError,
        "The player who went out has no cards left in hand.",
        "Der Spieler, der ausgemacht hat, hat keine Karten mehr auf der Hand.",
        id="settlement: the winner's hand",
    ),
    pytest.param(
        lambda: TREPPENROMME.settle(PLAYERS, "Ann", {"Bob": 5}),
        SettlementError,
        "Enter the cards left in every other player's hand.",
        "Bitte die Karten eingeben, die jeder andere Spieler noch auf der Hand hat.",
        id="settlement: a hand missing",
    ),
    pytest.param(
        lambda: TREPPENROMME.settle(PLAYERS, "Ann", {"Bob": 5, "Cid": 1000}),
        SettlementError,
        "A hand left at the end is worth 2 to 396 points; 1000 cannot be right.",
        "Eine Hand am Spielende ist 2 bis 396 Punkte wert; 1000 kann nicht stimmen.",
        id="settlement: hand points out of range",
    ),
    pytest.param(
        lambda: TREPPENROMME.settle(PLAYERS, "Ann", {"Bob": 5, "Cid": []}),
        SettlementError,
        "Only the player who went out has no cards left: enter the cards left in every other hand.",
        "Nur der Spieler, der ausgemacht hat, hat keine Karten mehr: "
        "bitte die Karten eingeben, die in jeder anderen Hand übrig sind.",
        id="settlement: an empty hand",
    ),
    pytest.param(
        lambda: TREPPENROMME.with_end({"target": 0}),
        HouseRuleError,
        'The house rule “end” allows {"target": 1…2147483647} | {"games": 1…1000}.',
        'Die Hausregel „end“ erlaubt {"target": 1…2147483647} | {"games": 1…1000}.',
        id="standing: target not positive",
    ),
    pytest.param(
        lambda: seat_players(["Ann"]),
        SeatingError,
        "Treppenrommé is played by 2 to 4 players; 1 were entered.",
        "Treppenrommé wird von 2 bis 4 Spielern gespielt; 1 wurde eingegeben.",
        id="seating: one player",
    ),
    pytest.param(
        lambda: seat_players(["A", "B", "C", "D", "E"]),
        SeatingError,
        "Treppenrommé is played by 2 to 4 players; 5 were entered.",
        "Treppenrommé wird von 2 bis 4 Spielern gespielt; 5 wurden eingegeben.",
        id="seating: five players",
    ),
    pytest.param(
        lambda: seat_players(["Ann", " "]),
        SeatingError,
        "Every player needs a name.",
        "Jeder Spieler braucht einen Namen.",
        id="seating: no name",
    ),
    pytest.param(
        lambda: seat_players(["Ann", "x" * 41]),
        SeatingError,
        "A name may have at most 40 characters.",
        "Ein Name darf höchstens 40 Zeichen haben.",
        id="seating: name too long",
    ),
    pytest.param(
        lambda: seat_players(["Ann", "ANN"]),
        SeatingError,
        "“ANN” is entered twice: every player needs their own name.",
        "„ANN“ ist doppelt eingegeben: jeder Spieler braucht einen eigenen Namen.",
        id="seating: a name twice",
    ),
    pytest.param(
        lambda: check_target(0),
        SeatingError,
        "The target must be a positive number of points, e.g. 500 or 1000.",
        "Das Ziel muss eine positive Punktzahl sein, z. B. 500 oder 1000.",
        id="seating: target not positive",
    ),
]


def table_with(meld):
    table = Table()
    table.meld(1, cards(meld))
    return table


@pytest.mark.parametrize(("action", "error", "english", "german"), CASES)
def test_an_error_reads_in_english_and_in_german(action, error, english, german):
    with pytest.raises(error) as caught:
        action()
    assert type(caught.value) is error
    assert caught.value.message_id in MESSAGES
    assert str(caught.value) == english
    assert caught.value.message("en") == english
    assert caught.value.message("de") == german


@pytest.mark.parametrize(
    ("error", "english", "german"),
    [
        pytest.param(
            NotASetError("set.suit_twice", cards=cards("Q♠ Q♥ Q♠"), suit=Suit.SPADES),
            "Q♠ Q♥ Q♠ is not a set: the cards of a set are all of different suits, "
            "and ♠ is there twice.",
            "D♠ D♥ D♠ ist kein Satz: die Karten eines Satzes haben alle verschiedene Farben, "
            "und ♠ kommt zweimal vor.",
            id="a suit twice in a set (needs two packs)",
        ),
        pytest.param(
            InvalidLayoffError("layoff.set_room", meld=cards("Q♠ Q♥ Q♦"), largest=4, count=1),
            "The set Q♠ Q♥ Q♦ has room for only 1 more card: a set has at most 4 cards.",
            "An den Satz D♠ D♥ D♦ passt nur noch 1 Karte: ein Satz hat höchstens 4 Karten.",
            id="room for one more card in a set (needs two packs)",
        ),
        pytest.param(
            InvalidLayoffError(
                "layoff.sequence_complete", meld=cards("2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥")
            ),
            "The sequence 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥ is complete: "
            "all 13 cards lie there.",
            "Die Folge 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ B♥ D♥ K♥ A♥ ist vollständig: "
            "alle 13 Karten liegen dort.",
            id="a complete sequence (needs two packs)",
        ),
    ],
)
def test_an_error_the_one_pack_game_cannot_reach_still_reads_in_both(error, english, german):
    assert str(error) == english
    assert error.message("de") == german


# --- how a message is chosen and composed ----------------------------------------------------


def test_a_layoff_that_leaves_a_gap_reads_wholly_in_german():
    with pytest.raises(InvalidLayoffError) as caught:
        lay_off(cards("9♣ 10♣ J♣"), cards("K♣ A♣"))
    german = caught.value.message("de")
    assert german == "K♣ A♣ können nicht an 9♣ 10♣ B♣ angelegt werden: D♣ fehlt zwischen B♣ und K♣."
    for english_word in ("cannot", "missing", "between", " and ", "J♣", "Q♣"):
        assert english_word not in german


def test_a_sequence_error_keeps_its_reason_apart_in_english_and_german():
    with pytest.raises(GapInSequenceError) as caught:
        classify(cards("Q♦ K♦ 3♦"))
    error = caught.value
    assert error.cards == "Q♦ K♦ 3♦"
    assert error.reason == "A♦ 2♦ are missing between K♦ and 3♦."
    assert error.reason_message.render("de") == "A♦ 2♦ fehlen zwischen K♦ und 3♦."
    assert error.message_id == "sequence.not_a_sequence"


def test_the_gaps_of_a_sequence_are_joined_with_the_language_s_and():
    with pytest.raises(GapInSequenceError) as caught:
        classify(cards("3♠ 5♠ 7♠"))
    assert caught.value.reason == (
        "4♠ is missing between 3♠ and 5♠ and 6♠ is missing between 5♠ and 7♠."
    )
    assert caught.value.reason_message.render("de") == (
        "4♠ fehlt zwischen 3♠ und 5♠ und 6♠ fehlt zwischen 5♠ und 7♠."
    )


@pytest.mark.parametrize("language", ["de", "DE", "de-AT", "de_CH"])
def test_every_german_locale_gets_german(language):
    error = CardTwiceError("meld.card_twice", card=cards("Q♠")[0])
    assert error.message(language) == "D♠ ist doppelt eingegeben: jede Karte gibt es nur einmal."


@pytest.mark.parametrize("language", ["en", "en-GB", "fr", "", "xx"])
def test_any_other_language_falls_back_to_english(language):
    error = CardTwiceError("meld.card_twice", card=cards("Q♠")[0])
    assert error.message(language) == "Q♠ is entered twice: every card exists once."


def test_the_english_message_is_the_error_text_and_its_only_argument():
    error = TooFewCardsError("meld.too_few", needed=3, cards=cards("Q♣ K♣"), count=2)
    assert str(error) == error.message() == error.message("en")
    assert error.args == (str(error),)
    assert error.params["count"] == 2


def test_a_text_that_is_no_message_id_reads_as_it_is_in_every_language():
    error = SeatingError("The first dealer must be one of the players.")
    assert str(error) == "The first dealer must be one of the players."
    assert error.message("de") == "The first dealer must be one of the players."


def test_a_message_can_be_kept_and_rendered_later():
    message = Message("table.already_on_table", {"cards": cards("J♠"), "count": 1})
    assert message.render("de") == "B♠ liegt schon auf dem Tisch."
    assert message.render() == "J♠ is already on the table."


@pytest.mark.parametrize(
    ("message_id", "params", "german"),
    [
        (
            "seating.target_too_high",
            {"largest": 100000},
            "Das Ziel darf höchstens 100000 Punkte betragen.",
        ),
        ("seating.dealer_not_a_player", {}, "Der erste Geber muss einer der Spieler sein."),
        (
            "cards.on_table_not_in_hand",
            {"cards": cards("Q♥"), "name": "Bob", "count": 1},
            "D♥ liegt auf dem Tisch, ist also nicht in der Hand von Bob.",
        ),
        (
            "settlement.no_romme_hand",
            {"name": "Ann"},
            "Ann hat schon vor dem Eintrag eines anderen Spielers Karten ausgelegt, "
            "also ist das keine Rommé-Hand.",
        ),
    ],
)
def test_the_service_layer_messages_read_in_german(message_id, params, german):
    assert render_message(message_id, "de", **params) == german


@pytest.mark.parametrize("name", ["Ann\u0000", "Cid\x1b[31m", "Bo\u0007b"])
def test_a_name_with_control_characters_is_refused_in_both_languages(name: str) -> None:
    with pytest.raises(SeatingError) as refused:
        seat_players(["Ann", name] if not name.startswith("Ann") else [name, "Bob"])
    assert str(refused.value) == "A name may not contain control characters."
    assert refused.value.message("de") == "Ein Name darf keine Steuerzeichen enthalten."
