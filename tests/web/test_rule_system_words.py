"""What a rule system means lives in it: the pages, forms and API ask it and never name it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, ClassVar

import pytest
import wtforms
from flask.testing import FlaskClient

from scorekeeper import rules
from scorekeeper.api import rules_schema
from scorekeeper.rules import Choice, HouseRule, wording
from scorekeeper.web import forms, words

ROOT = Path(__file__).resolve().parents[2]
# Outside the rules core nothing names a rule system or a house rule (issue 30).
NAMES = re.compile(
    "treppenromme|german_rummy|boathouse_rum|rummy_500|romme_doubling|joker_in_hand"
    "|hand_romme_doubles|joker_swap_from_set|with_jokers|two_packs"
)
ASKING = [
    "scorekeeper/web",
    "scorekeeper/api",
    "scorekeeper/services",
    "scorekeeper/queries",
    "scorekeeper/store",
    "scorekeeper/http",
    "scorekeeper/static",
    "templates",
]


def names_outside_the_rules_core() -> list[str]:
    """Return every line of the layers that ask the rules which names a rule system or rule."""
    found = []
    for folder in ASKING:
        for path in sorted((ROOT / folder).rglob("*")):
            if not path.is_file() or path.suffix in {".pyc", ".png", ".ico", ".woff2"}:
                continue
            lines = path.read_text(encoding="utf-8").splitlines()
            found += [
                f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
                for number, line in enumerate(lines, 1)
                if NAMES.search(line)
            ]
    return found


def test_no_rule_system_or_house_rule_is_named_outside_the_rules_core():
    assert names_outside_the_rules_core() == []


class Dominoes(rules.Variant):
    """A made-up rule system with one house rule, to see that it needs no change elsewhere."""

    name = "dominoes"
    title = "Dominoes"
    HOUSE_RULES: ClassVar[tuple[HouseRule, ...]] = (
        HouseRule(
            "doubles_spinner",
            "no",
            choices=(
                Choice("no", offered=wording("counts single")),
                Choice("yes", offered=wording("doubles the minus points")),
            ),
            label=wording("Hand-Rommé"),
            description=wording("what a joker left in a hand costs (G5)"),
        ),
    )


@pytest.fixture
def with_dominoes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the made-up rule system beside the others."""
    monkeypatch.setitem(rules.VARIANTS, Dominoes.name, Dominoes)


def test_a_new_rule_systems_house_rule_is_in_the_openapi_rules_schema(with_dominoes: None):
    schema = rules_schema.house_rules_schema()
    spinner = schema["properties"]["doubles_spinner"]
    assert spinner == {
        "enum": ["no", "yes"],
        "default": "no",
        "description": "Dominoes: what a joker left in a hand costs (G5).",
    }
    assert '"doubles_spinner": "no" or "yes"' in schema["description"]
    assert rules_schema.variant_name_schema()["enum"][-1] == "dominoes"
    assert "2 to 4 in Dominoes" in rules_schema.players_schema()["description"]


def test_a_new_rule_systems_house_rule_becomes_a_field_of_the_new_session_form(
    client: FlaskClient,
):
    class Chosen(wtforms.Form):  # type: ignore[misc]
        doubles_spinner = forms._house_rule_field(Dominoes.HOUSE_RULES[0])

    with client.application.test_request_context("/", headers={"Accept-Language": "de"}):
        bound: Any = Chosen().doubles_spinner
        assert str(bound.label.text) == "Hand-Rommé"
        assert [(value, str(label)) for value, label, *_ in bound.iter_choices()] == [
            ("no", "zählt einfach"),
            ("yes", "verdoppelt die Minuspunkte"),
        ]
        assert bound.data == "no"


def test_the_start_page_shows_each_house_rule_with_the_rule_systems_that_have_it(
    client: FlaskClient,
):
    page = client.get("/").get_data(as_text=True)
    for name, variant in rules.VARIANTS.items():
        for rule in variant.HOUSE_RULES:
            shown = re.search(
                rf'<div data-variant-only="([^"]*)">((?:(?!</div>\s*<div data-variant-only).)*'
                rf'name="{rule.key}")',
                page,
                re.S,
            )
            assert shown is not None, rule.key
            assert name in shown.group(1).split()


def test_the_settlement_is_explained_with_the_winners_name_kept_as_a_name(client: FlaskClient):
    message = rules.Message("explain.once", {"name": "<Ann & Bob>", "gain": 5})
    with client.application.test_request_context("/"):
        said = str(words.message_html(message))
    assert said == (
        "<bdi>&lt;Ann &amp; Bob&gt;</bdi> scores the cards left in the other hands once: 5."
    )
