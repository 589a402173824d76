"""The entry begun (draft.js): one state object, and one text form that the server reads too."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

import pytest
from werkzeug.datastructures import MultiDict

from scorekeeper.web.session_page import EntryBegun
from tests.js.conftest import Modules

ROUND_TRIP = """async (parts) => {
    const { Draft } = await import("/js/draft.js");
    const draft = new Draft(parts);
    const back = Draft.fromText(draft.toText());
    const same = JSON.stringify(back) === JSON.stringify(draft);
    return [draft.toText(), Object.assign({}, back), same];
}"""
# The entry form's fields as the game page draws them (templates/session.html), filled from a
# text form and read back.
FORM = """async (text) => {
    const { Draft } = await import("/js/draft.js");
    document.querySelector("main").insertAdjacentHTML("beforeend", `<form id="entry">
      <input type="radio" name="player" value="1">
      <input type="radio" name="player" value="2" checked>
      <input type="radio" name="meld" value="" checked><input type="radio" name="meld" value="40">
      <input type="radio" name="onto_action" value="layoff" checked>
      <input type="radio" name="onto_action" value="swap">
      <input type="text" name="cards"><textarea name="melds"></textarea>
      <input type="text" name="new_meld"><input type="hidden" name="once" value="x"></form>`);
    const form = document.getElementById("entry");
    Draft.fromText(text).into(form);
    const read = Draft.of(form);
    return [read.toText(), read.begun, form.querySelector("input[name=meld]:checked").value];
}"""
SWAP = {"player": "12", "meld": "40", "action": "swap", "cards": "8♥", "newMeld": "7♥ JKR 9♥"}


@pytest.mark.parametrize(
    "parts",
    [
        {"player": "3", "cards": "D♣ K♣ A♣"},
        SWAP,
        {"player": "3", "melds": "Q♣ K♣ A♣\n3♦ 3♥ 3♠", "cards": "5♠ 5♥ 5♦ "},
        {"cards": "qc & kc = ac + 10% ?"},
        {},
    ],
)
def test_the_text_form_of_the_entry_begun_reads_back_as_the_same_entry(
    modules: Modules, parts: dict[str, str]
) -> None:
    text, back, same = modules.run(ROUND_TRIP, parts)
    assert same, (text, back)
    assert {name: value for name, value in back.items() if value} == parts


def test_the_server_reads_the_text_form_the_draft_writes(modules: Modules) -> None:
    text, _, _ = modules.run(ROUND_TRIP, SWAP)
    assert (
        text
        == "player=12&meld=40&onto_action=swap&cards=8%E2%99%A5&new_meld=7%E2%99%A5+JKR+9%E2%99%A5"
    )
    begun = EntryBegun.from_query(MultiDict(parse_qsl(text)))
    assert begun == EntryBegun(player=12, meld=40, swap=True, cards="8♥", new_meld="7♥ JKR 9♥")
    melds: dict[str, Any] = {"player": "2", "melds": "Q♣ K♣ A♣\n3♦ 3♥ 3♠", "cards": "5♠"}
    text, _, _ = modules.run(ROUND_TRIP, melds)
    begun = EntryBegun.from_query(MultiDict(parse_qsl(text)))
    assert (begun.player, begun.melds, begun.cards) == (2, "Q♣ K♣ A♣\n3♦ 3♥ 3♠", "5♠")


def test_a_form_takes_the_entry_begun_and_gives_it_back_the_same(modules: Modules) -> None:
    text = "player=1&meld=40&onto_action=swap&cards=8%E2%99%A5&new_meld=7%E2%99%A5+JKR"
    assert modules.run(FORM, text) == [text, True, "40"]


def test_a_meld_no_longer_on_the_table_gives_way_to_a_new_meld(modules: Modules) -> None:
    read, begun, chosen = modules.run(FORM, "meld=99&cards=8%E2%99%A5")
    assert chosen == ""
    assert read == "player=2&cards=8%E2%99%A5"  # the mode counts only with a meld chosen
    assert begun
