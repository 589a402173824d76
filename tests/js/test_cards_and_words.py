"""Cards and their words (cards.js, check.js): labels and sentences in German and English."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask, render_template_string

from tests.js.conftest import Modules

GERMAN = "A 2 3 4 5 6 7 8 9 10 B D K"
LABELS = """async ([letters, codes]) => {
    const { Letters } = await import("/js/cards.js");
    return new Letters(letters).labels(codes);
}"""
PARSED = """async ([text, copies]) => (await import("/js/cards.js")).parse(text, copies)"""
SAID = """async ([answer, onto, counted, words, letters]) => {
    const { said } = await import("/js/check.js");
    const { Letters } = await import("/js/cards.js");
    return said(answer, onto, counted, (name) => words[name] || "", new Letters(letters));
}"""
SEQUENCE = {
    "kind": "sequence",
    "cards": ["Q♥", "K♥", "A♥", "2♥", "3♥"],
    "value": 30,
    "aces": [{"card": "A♥", "position": "corner", "value": 5}],
}
ACES = {
    "kind": "set",
    "cards": ["A♠", "A♥", "A♦"],
    "value": 45,
    "aces": [{"card": c, "position": "set", "value": 15} for c in ("A♠", "A♥", "A♦")],
}
LAYOFF = {"added": ["J♣"], "cards": ["J♣", "Q♣", "K♣", "A♣"], "value": 10, "aces": []}


def words_of_the_check(app: Flask, language: str) -> dict[str, str]:
    """Return the live check's words as the pages give them to the scripts (data-t-*)."""
    with app.test_request_context(headers={"Accept-Language": language}):
        drawn = render_template_string('<p {% include "_check_words.html" %}></p>')
    return {
        name: html.unescape(text) for name, text in re.findall(r'data-t-([\w-]+)="([^"]*)"', drawn)
    }


@pytest.mark.parametrize(
    ("letters", "labels"),
    [("", "Q♣ J♥ K♠ A♦ 10♥ JKR JKR=Q♣"), (GERMAN, "D♣ B♥ K♠ A♦ 10♥ JKR JKR=D♣")],
)
def test_cards_are_labelled_in_the_pages_language(
    modules: Modules, letters: str, labels: str
) -> None:
    codes = ["Q♣", "J♥", "K♠", "A♦", "10♥", "JKR", "JKR=Q♣"]
    assert modules.run(LABELS, [letters, codes]) == labels


def test_the_pickers_labels_read_back_as_codes_in_either_language(modules: Modules) -> None:
    assert modules.run(PARSED, ["D♣ K♣ A♣", 1]) == ["Q♣", "K♣", "A♣"]
    assert modules.run(PARSED, ["Q♣ B♥, JKR=D♠", 1]) == ["Q♣", "J♥", "JKR=Q♠"]
    # Glued together, and words the server reads are skipped here.
    assert modules.run(PARSED, ["8♠8♥8♦ Herz-Dame", 1]) == ["8♠", "8♥", "8♦"]


def test_with_two_packs_a_card_reads_twice_with_one_once(modules: Modules) -> None:
    assert modules.run(PARSED, ["8♠ 8♠ 8♥", 2]) == ["8♠", "8♠", "8♥"]
    assert modules.run(PARSED, ["8♠ 8♠ 8♥", 1]) == ["8♠", "8♥"]


@pytest.mark.parametrize(
    ("language", "letters", "sequence", "aces", "layoff"),
    [
        (
            "en",
            "",
            "Sequence Q♥ K♥ A♥ 2♥ 3♥: 30, the ace turns the corner: 5",
            "Set A♠ A♥ A♦: 45, 3 aces in a set: 15 each",
            "Layoff J♣ → J♣ Q♣ K♣ A♣: 10",
        ),
        (
            "de",
            GERMAN,
            "Folge D♥ K♥ A♥ 2♥ 3♥: 30, das Ass geht um die Ecke: 5",
            "Satz A♠ A♥ A♦: 45, 3 Asse im Satz: je 15",
            "Anlegen B♣ → B♣ D♣ K♣ A♣: 10",
        ),
    ],
)
def test_the_check_is_said_in_the_pages_language(
    modules: Modules,
    app: Flask,
    language: str,
    letters: str,
    sequence: str,
    aces: str,
    layoff: str,
) -> None:
    words = words_of_the_check(app, language)
    assert modules.run(SAID, [SEQUENCE, None, False, words, letters]) == sequence
    assert modules.run(SAID, [ACES, None, False, words, letters]) == aces
    assert modules.run(SAID, [LAYOFF, "12", False, words, letters]) == layoff
