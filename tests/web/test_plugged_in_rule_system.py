"""A rule system plugs in whole: one that exists only here is played through the pages and the API.

Table Rummy is made up for this module: melds and layoffs score as they are put down, every
player but the one who goes out books minus the cards left in the hand (the settlement German
Rummy and 500 Rum share), and a house rule gives the player who goes out a bonus. Its words are
not in the app's catalogue: the module brings its own German. Nothing outside this module
knows it; the fixture registers it and takes it out again.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import pytest
from flask.testing import FlaskClient

from scorekeeper import rules
from scorekeeper.rules import AcePosition, HouseRule, Message, wording
from tests.helpers import API, book, finish_data, lay_off, meld, meld_id, ok, start, text

NAME = wording("Table Rummy")
BONUS_LABEL = wording("Bonus for going out")
BONUS_DESCRIPTION = wording("what the player who goes out earns on top of the hands")
BONUS_SAID = wording("%(value)s bonus for going out")
MINUS = wording(
    "%(name)s went out and earns %(bonus)s on top; every other player books minus the cards left "
    "in their hand."
)
GERMAN = {
    NAME.singular: "Tischrommé",
    BONUS_LABEL.singular: "Bonus fürs Ausmachen",
    BONUS_DESCRIPTION.singular: "was der Spieler, der ausmacht, zu den Händen dazubekommt",
    BONUS_SAID.singular: "%(value)s Bonus fürs Ausmachen",
    MINUS.singular: "%(name)s macht aus und bekommt %(bonus)s dazu; jeder andere Spieler "
    "schreibt die Karten in seiner Hand als Minuspunkte.",
}


class German(gettext.NullTranslations):
    """The German of Table Rummy's words, as a catalogue of its own would give it."""

    def gettext(self, message: str) -> str:
        return GERMAN.get(message, message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return GERMAN.get(msgid1 if n == 1 else msgid2, msgid1 if n == 1 else msgid2)


class TableRummyWords(rules.Words):
    """What Table Rummy says: its name, and the bonus in the settlement."""

    name = NAME

    def minus_explained(self, name: str) -> Message:
        return Message("table_rummy.minus", {"name": name, "bonus": self.bonus()}, wording=MINUS)

    def bonus(self) -> Message:
        bonus: int = self.variant.house["going_out_bonus"]
        return Message("house.points", {"count": bonus, "num": bonus})


class TableRummy(rules.MinusHands, rules.Variant):
    """Table Rummy: 2 to 5 players, 9 cards, an ace 11; the player who goes out earns a bonus."""

    name = "table_rummy"
    title = "Table Rummy"
    WORDS = TableRummyWords
    max_players = 5
    ace_turns_corner = False
    ace_in_meld: ClassVar[dict[AcePosition, int]] = {
        AcePosition.IN_SET: 11,
        AcePosition.HIGH: 11,
        AcePosition.LOW: 1,
    }
    ace_in_hand = 11
    romme_factor = 1
    default_target = 300
    HOUSE_RULES: ClassVar[tuple[HouseRule, ...]] = (
        HouseRule(
            "going_out_bonus",
            0,
            choices=(0, 10, 20),
            label=BONUS_LABEL,
            description=BONUS_DESCRIPTION,
            said=BONUS_SAID,
            unsaid=(0,),
            in_points=True,
        ),
    )

    def cards_dealt(self, player_count: int) -> int:
        return 9

    def book(self, winner: Any, owed: Mapping[Any, int], players: Sequence[Any]) -> dict[Any, int]:
        gains = super().book(winner, owed, players)
        gains[winner] += self.house["going_out_bonus"]
        return gains


@pytest.fixture
def table_rummy() -> Iterator[type[rules.Variant]]:
    """Register Table Rummy and its German for one test, and take them out after it."""
    german = German()
    rules.register(TableRummy)
    rules.add_catalogue("de", german)
    try:
        yield TableRummy
    finally:
        rules.remove_catalogue("de", german)
        rules.unregister(TableRummy.name)


def test_the_registry_knows_the_rule_system_only_while_it_is_registered(
    table_rummy: type[rules.Variant],
) -> None:
    assert rules.find_variant("table_rummy", {"going_out_bonus": 10}).house_rules == {
        "end": {"target": 300},
        "going_out_bonus": 10,
    }
    assert rules.find_variant("table_rummy").label("de") == "Tischrommé"
    with pytest.raises(ValueError, match="registered"):
        rules.register(TableRummy)
    rules.unregister("table_rummy")
    with pytest.raises(rules.HouseRuleError):
        rules.find_variant("table_rummy")
    rules.register(TableRummy)


def test_a_rule_system_cannot_take_the_name_of_another_or_unregister_the_default() -> None:
    class Impostor(rules.Variant):
        name = rules.DEFAULT_VARIANT
        title = "Impostor"

    with pytest.raises(ValueError, match="registered"):
        rules.register(Impostor)
    with pytest.raises(ValueError, match="default"):
        rules.unregister(rules.DEFAULT_VARIANT)
    assert rules.VARIANTS[rules.DEFAULT_VARIANT] is not Impostor


def test_the_start_page_offers_the_rule_system_with_its_house_rule_in_its_own_words(
    client: FlaskClient, table_rummy: type[rules.Variant]
) -> None:
    client.get("/language/de")
    page = client.get("/").get_data(as_text=True)
    assert 'value="table_rummy"' in page
    assert "Tischrommé 2 bis 5" in text(page)
    assert "Bonus fürs Ausmachen" in page
    assert 'name="going_out_bonus"' in page


def test_the_rule_system_is_played_through_the_pages(
    client: FlaskClient, table_rummy: type[rules.Variant]
) -> None:
    client.get("/language/de")
    table = start(
        client,
        target="",
        variant="table_rummy",
        end="target",
        going_out_bonus="20",
    )
    page = meld(client, table, "Ann", "qc kc ac")
    assert "Tischrommé · bis 300 Punkte · 20 Punkte Bonus fürs Ausmachen" in page
    assert "Ann gibt jedem 9 Karten und spielt zuerst." in page
    lay_off(client, table, "Bob", meld_id(client.application, table, 1), "jc")
    page = text(client.get(f"/sessions/{table.session}").get_data(as_text=True))
    assert "Ann 31 · Bob 10 · Cid 0" in page

    data = finish_data(table, "Ann", {"Bob": "7h", "Cid": "as"})
    preview = client.post(f"/games/{table.game}/finish", data=data)
    assert preview.status_code == 200
    said = text(preview.get_data(as_text=True))
    assert "Ann macht aus und bekommt 20 Punkte dazu" in said
    book(client, table, data)

    page = text(client.get(f"/sessions/{table.session}").get_data(as_text=True))
    assert "Spiel 1 ist vorbei: Ann hat ausgemacht; Bob schreibt -7, Cid schreibt -11." in page
    assert "Tischrommé (" in page  # the result to share
    sheet = text(client.get(f"/sessions/{table.session}/sheet").get_data(as_text=True))
    assert "Ziel: 300" in sheet
    assert "51 51" in sheet and "3 3" in sheet and "-11 -11" in sheet
    history = text(client.get(f"/sessions/{table.session}/history").get_data(as_text=True))
    assert "Ann hat ausgemacht. Punkte: Ann 51 · Bob 3 · Cid -11" in history
    assert "Ann hat ausgemacht: +20 Bob 7♥ = 7: -7 Cid A♠ = 11: -11" in history


def test_the_rule_system_is_played_through_the_api(
    client: FlaskClient, table_rummy: type[rules.Variant]
) -> None:
    answer = client.get(f"{API}/variants?lang=de")
    assert answer.status_code == 200
    listed = answer.get_json()
    ours = next(variant for variant in listed if variant["name"] == "table_rummy")
    assert ours["title"] == "Tischrommé"
    assert ours["players"] == [2, 3, 4, 5]
    assert [rule["name"] for rule in ours["rules"]] == ["end", "going_out_bonus"]

    body = {"variant": "table_rummy", "players": ["Ann", "Bob"], "rules": {"going_out_bonus": 10}}
    session = ok(client.post(f"{API}/sessions", json=body), 201)
    assert session["rules"] == {"end": {"target": 300}, "going_out_bonus": 10}
    ann, bob = (player["id"] for player in session["players"])
    game = ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
    assert game["cards_dealt"] == 9
    melds = f"{API}/games/{game['id']}/melds"
    meld_answer = ok(client.post(melds, json={"player": ann, "cards": "J♦ Q♦ K♦ A♦"}), 201)
    assert meld_answer["value"] == 41
    assert "opening_value" not in meld_answer and "jokers" not in meld_answer
    layoff = {"player": bob, "meld": meld_answer["id"], "cards": "10♦"}
    ok(client.post(f"{API}/games/{game['id']}/layoffs", json=layoff), 201)
    refused = client.post(melds, json={"player": bob, "cards": "K♠ A♠ 2♠"})
    assert refused.status_code == 422

    finish = {"winner": ann, "hands": {str(bob): "5♣ 5♥"}}
    finished = ok(client.post(f"{API}/games/{game['id']}/finish", json=finish))
    assert finished["settlement"] == {str(ann): 10, str(bob): -10}
    assert finished["booked"] == {str(ann): 51, str(bob): 0}
    read = ok(client.get(f"{API}/sessions/{session['id']}"))
    assert read["totals"] == {str(ann): 51, str(bob): 0}
    assert read["to_go"] == {str(ann): 249, str(bob): 300}
    sheet = ok(client.get(f"{API}/sessions/{session['id']}/sheet"))
    assert sheet["target"] == 300
    assert sheet["games"][0]["totals"] == {str(ann): 51, str(bob): 0}
    played = ok(client.get(f"{API}/games/{game['id']}?lang=de"))
    assert [entry["type"] for entry in played["entries"]] == ["meld", "layoff"]
    assert played["booked"] == {str(ann): 51, str(bob): 0}
