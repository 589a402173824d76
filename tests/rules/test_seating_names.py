"""Names that cannot lie on screen: one way to write a name, nothing invisible in it."""

from __future__ import annotations

import unicodedata

import pytest

from scorekeeper.rules import SeatingError, seat_players
from scorekeeper.rules.messages import render_message
from scorekeeper.rules.seating import LONGEST_NAME

A_RING = "\u00c5"  # Å written as one character
A_AND_RING = "A\u030a"  # Å written as A and a combining ring


def refusal(names: list[str]) -> SeatingError:
    with pytest.raises(SeatingError) as refused:
        seat_players(names)
    return refused.value


@pytest.mark.parametrize(
    "name",
    [
        "Ann\u202e",  # RIGHT-TO-LEFT OVERRIDE: turns the scores beside the name around
        "\u202eAnn",
        "Ann\u202d",  # LEFT-TO-RIGHT OVERRIDE
        "An\u200bn",  # ZERO WIDTH SPACE: a second "Ann" that looks like the first
        "Ann\u200c",  # ZERO WIDTH NON-JOINER
        "Ann\u200d",  # ZERO WIDTH JOINER
        "Ann\u200e",  # LEFT-TO-RIGHT MARK
        "Ann\u200f",  # RIGHT-TO-LEFT MARK
        "Ann\u2060",  # WORD JOINER
        "\u2066Ann\u2069",  # LEFT-TO-RIGHT ISOLATE ... POP DIRECTIONAL ISOLATE
        "\u2067Ann",  # RIGHT-TO-LEFT ISOLATE
        "\u2068Ann",  # FIRST STRONG ISOLATE
        "\ufeffAnn",  # ZERO WIDTH NO-BREAK SPACE (byte order mark)
        "An\u00adn",  # SOFT HYPHEN
        "\u202aAnn\u202c",  # LEFT-TO-RIGHT EMBEDDING ... POP DIRECTIONAL FORMATTING
        "\u200b",  # nothing but an invisible character
    ],
)
def test_a_name_with_an_invisible_or_direction_changing_character_is_refused(name: str) -> None:
    error = refusal(["Bob", name])
    assert error.message_id == "seating.name_invisible"
    assert error.params["seat"] == 1


def test_the_refusal_of_an_invisible_character_says_so_plainly() -> None:
    assert render_message("seating.name_invisible", "en") == (
        "A name may not contain invisible or direction-changing characters."
    )


@pytest.mark.parametrize("character", ["\u202e", "\u200b", "\u2066", "\ufeff", "\u00ad"])
def test_every_character_refused_as_invisible_is_a_format_character(character: str) -> None:
    assert unicodedata.category(character) == "Cf"


@pytest.mark.parametrize(
    "name",
    ["\u0301", "\u0301\u0308", "\u034f", "\u3164", "\u115f\u1160", "\uffa0", "\u2800"],
)
def test_a_name_of_accents_alone_or_of_blank_looking_letters_is_no_name(name: str) -> None:
    error = refusal(["Ann", name, "Cid"])
    assert error.message_id == "seating.no_name"
    assert error.params["seat"] == 1


@pytest.mark.parametrize("name", ["\ud800", "Ann\udfff", "\ud83d"])
def test_half_a_character_is_refused_as_unprintable(name: str) -> None:
    error = refusal(["Ann", name])
    assert error.message_id == "seating.name_unprintable"
    assert error.params["seat"] == 1


@pytest.mark.parametrize(
    ("names", "twice"),
    [
        ([A_RING, A_AND_RING], A_RING),
        ([A_AND_RING + "sa", "\u00e5SA"], "\u00e5SA"),
        (["Zo\u00eb", "zoe\u0308"], "zo\u00eb"),
        (["Ren\u00e9e", "RENE\u0301E"], "REN\u00c9E"),
        (["Stra\u00dfe", "STRASSE"], "STRASSE"),
        # Compatibility forms (NFKC): full width, a ligature, a superscript, a circled digit.
        (["Anni", "\uff21\uff4e\uff4e\uff49"], "\uff21\uff4e\uff4e\uff49"),
        (["Fiona", "\ufb01ona"], "\ufb01ona"),
        (["Tisch 2", "Tisch\u00b2"], "Tisch\u00b2"),
        (["Platz 1", "Platz \u2460"], "Platz \u2460"),
    ],
)
def test_names_that_differ_only_in_composition_or_case_are_the_same_name(
    names: list[str], twice: str
) -> None:
    error = refusal(names)
    assert error.message_id == "seating.name_twice"
    assert error.params == {"name": twice, "seat": 1}


@pytest.mark.parametrize(
    ("typed", "seated"),
    [
        (A_AND_RING, A_RING),
        ("Zoe\u0308", "Zo\u00eb"),
        ("  Jose\u0301   Mari\u0301a ", "Jos\u00e9 Mar\u00eda"),
        ("\u1100\u1161", "\uac00"),  # Hangul jamo compose to one syllable
    ],
)
def test_a_name_is_seated_composed_whichever_way_it_was_typed(typed: str, seated: str) -> None:
    assert seat_players([typed, "Bob"]) == [seated, "Bob"]
    assert unicodedata.is_normalized("NFC", seat_players([typed, "Bob"])[0])


def test_a_name_is_as_long_as_it_is_composed() -> None:
    decomposed = "e\u0301" * LONGEST_NAME  # twice the characters typed, LONGEST_NAME composed
    assert seat_players([decomposed, "Bob"])[0] == "\u00e9" * LONGEST_NAME


@pytest.mark.parametrize(
    "names",
    [
        ["\u0639\u0644\u064a", "Ann"],  # Arabic: Ali
        ["\u05d3\u05d5\u05d3", "Bob"],  # Hebrew: David
        # Arabic with its vowel marks, in the order NFC gives them (fatha before shadda)
        ["\u0645\u064f\u062d\u064e\u0645\u064e\u0651\u062f", "Cid"],
        ["\u674e\u5a1c", "\u0410\u043d\u043d\u0430"],  # Chinese and Cyrillic
        ["Ann \U0001f0cf", "Bob"],  # a symbol shows
        ["\u00c5sa", "Asa"],  # with and without the ring are two names
        ["Mar\u00eda", "Maria"],
    ],
)
def test_names_in_any_script_are_seated_as_typed(names: list[str]) -> None:
    assert seat_players(names) == names
