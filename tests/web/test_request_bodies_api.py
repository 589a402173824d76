"""A body the request models refuse is answered with the one sentence its field has.

The models (``scorekeeper.api.models``) validate every body through spectree; the answer is
still ``{"error": "…"}`` with the sentence of the field that is wrong, in English or, with
``?lang=de``, German, and never the validation library's list of errors.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale

from scorekeeper.api import models
from tests.helpers import API, ok, open_table

WRONG = [[1]]  # of the wrong type for every field: no id, cards, name, flag or object
# Each operation's body: its model, its path, and a body whose every field is right.
BODIES: list[tuple[type[models.Body], str, dict[str, Any]]] = [
    (models.CheckCards, "/check", {"cards": "Q♣ K♣ A♣"}),
    (models.NewSession, "/sessions", {"players": ["Ann", "Bob"]}),
    (models.NewEnd, "/sessions/{session}", {"target": 100}),
    (models.PlayerName, "/sessions/{session}/players/{ann}", {"name": "Anna"}),
    (models.NewPlayer, "/sessions/{session}/players", {"name": "Dan"}),
    (models.GameCheck, "/games/{game}/check", {"player": 1, "cards": "Q♣ K♣ A♣"}),
    (models.NewMeld, "/games/{game}/melds", {"player": 1, "cards": "Q♣ K♣ A♣"}),
    (models.NewLayoff, "/games/{game}/layoffs", {"player": 1, "meld": 1, "cards": "J♣"}),
    (
        models.NewSwap,
        "/games/{game}/swaps",
        {"player": 1, "meld": 1, "cards": "6♣", "new_meld": "8♥ JKR 10♥"},
    ),
    (models.Correction, "/games/{game}/entries/1", {"player": 1}),
    (models.Undo, "/games/{game}/undo", {"entry": 1}),
    (models.Settlement, "/games/{game}/finish", {"winner": 1}),
    (models.Settlement, "/games/{game}/settlement", {"winner": 1}),
    (models.NewGroup, "/groups", {"name": "Donnerstagsrunde"}),
]
CASES = [
    (model, path, body, field)
    for model, path, body in BODIES
    for field in model.model_fields
    if not (model is models.NewGroup and field != "name")
]
METHODS = {models.NewEnd: "PATCH", models.PlayerName: "PATCH", models.Correction: "PATCH"}


def sentence(app: Flask, model: type[models.Body], field: str, language: str) -> str:
    """Return the model's sentence for a wrong field, in a language."""
    with app.test_request_context(), force_locale(language):
        return str(model.refusals[field])


@pytest.mark.parametrize(
    ("model", "path", "body", "field"),
    CASES,
    ids=[f"{path.split('/')[-1] or path} {field}" for _m, path, _b, field in CASES],
)
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_field_of_the_wrong_type_is_refused_with_its_own_sentence(
    app: Flask,
    client: FlaskClient,
    model: type[models.Body],
    path: str,
    body: dict[str, Any],
    field: str,
    language: str,
) -> None:
    table = open_table(client)
    url = API + path.format(session=table.session, game=table.game, ann=table.ann)
    sent = {**body, field: WRONG}
    if field == "melds":  # several melds come without cards
        del sent["cards"]
    method = METHODS.get(model, "POST")
    response = client.open(f"{url}?lang={language}", method=method, json=sent)
    assert response.status_code == 422, response.get_data(as_text=True)
    assert response.get_json() == {"error": sentence(app, model, field, language)}


def test_the_german_sentence_is_not_the_english_one(app: Flask) -> None:
    assert sentence(app, models.NewMeld, "player", "de") != sentence(
        app, models.NewMeld, "player", "en"
    )


def test_a_body_refused_twice_over_names_the_first_field_in_the_order_the_model_reads(
    client: FlaskClient,
) -> None:
    table = open_table(client)
    answer = client.post(f"{API}/games/{table.game}/melds", json={"player": "Ann", "cards": 7})
    assert answer.status_code == 422
    assert answer.get_json() == {"error": "player must be an id (a whole number)."}
    ok(table.client.get(f"{API}/games/{table.game}"))
