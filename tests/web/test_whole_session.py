"""Whole sessions played through the JSON API, checked against numbers worked out by hand."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import API

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


@dataclass(frozen=True)
class Play:
    """One entry: a meld (``onto`` None) or a layoff onto the meld of entry number ``onto``."""

    player: str
    cards: str
    value: int
    onto: int | None = None


@dataclass(frozen=True)
class Deal:
    """One game as it was played, with the values a scorekeeper works out by hand."""

    dealer: str
    plays: list[Play]
    winner: str | None
    hands: dict[str, tuple[str, int]] = field(default_factory=dict)
    romme: bool = False
    romme_sent: bool | None = None


def answer(response: Any, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.get_json()
    assert isinstance(body, dict)
    return body


class Recorder:
    """The scorekeeper at the table, entering games through the API."""

    def __init__(self, client: FlaskClient, names: list[str], target: int) -> None:
        self.client = client
        session = answer(
            client.post(f"{API}/sessions", json={"players": names, "target": target}), 201
        )
        self.session_id: int = session["id"]
        self.ids: dict[str, int] = {p["name"]: p["id"] for p in session["players"]}
        self.names = names

    def by_id(self, points: dict[str, int]) -> dict[str, int]:
        return {str(self.ids[name]): value for name, value in points.items()}

    def session(self) -> dict[str, Any]:
        return answer(self.client.get(f"{API}/sessions/{self.session_id}"))

    def play(self, deal: Deal) -> dict[str, int]:
        """Enter one game, check every answer, and return each player's points from it."""
        game = answer(self.client.post(f"{API}/sessions/{self.session_id}/games"), 201)
        assert game["dealer"] == self.ids[deal.dealer]
        assert game["status"] == "open"
        game_url = f"{API}/games/{game['id']}"
        expected = dict.fromkeys(self.names, 0)
        meld_ids: list[int | None] = []
        for play in deal.plays:
            body: dict[str, Any] = {"player": self.ids[play.player], "cards": play.cards}
            if play.onto is None:
                written = answer(self.client.post(f"{game_url}/melds", json=body), 201)
                meld_ids.append(written["id"])
            else:
                meld = meld_ids[play.onto]
                body["meld"] = meld
                written = answer(self.client.post(f"{game_url}/layoffs", json=body), 201)
                assert written["meld"]["id"] == meld
                meld_ids.append(None)
            assert written["value"] == play.value, play
            expected[play.player] += play.value
        shown = answer(self.client.get(game_url))
        assert shown["points"] == self.by_id(expected)
        assert [entry["value"] for entry in shown["entries"]] == [p.value for p in deal.plays]

        finish: dict[str, Any] = {
            "winner": self.ids[deal.winner] if deal.winner else None,
            "hands": {str(self.ids[name]): cards for name, (cards, _) in deal.hands.items()},
        }
        if deal.romme_sent is not None:
            finish["romme"] = deal.romme_sent
        settled = answer(self.client.post(f"{game_url}/finish", json=finish))
        hand_points = {name: points for name, (_, points) in deal.hands.items()}
        gained = dict.fromkeys(self.names, 0)
        if deal.winner is not None:
            gained[deal.winner] = sum(hand_points.values()) * (2 if deal.romme else 1)
        assert settled["winner"] == finish["winner"]
        # One meaning in every answer: null where nobody went out.
        assert settled["romme"] is (deal.romme if deal.winner else None)
        assert settled["hand_points"] == (self.by_id(hand_points) if deal.winner else {})
        assert settled["settlement"] == self.by_id(gained)
        for name, points in gained.items():
            expected[name] += points

        after = answer(self.client.get(game_url))
        assert after["status"] == ("finished" if deal.winner else "abandoned")
        assert after["points"] == self.by_id(expected)
        assert after["booked"] == after["points"] == settled["booked"]
        summary = settled["session"]["games"][-1]
        assert summary["id"] == game["id"]
        assert summary["status"] == after["status"]
        assert summary["winner"] == finish["winner"]
        assert summary["romme"] is (deal.romme if deal.winner else None)
        assert summary["points"] == self.by_id(expected)
        assert settled["session"] == self.session()
        return expected


GAMES = [
    # Game 1: Ann goes out after melding earlier; no Rommé hand.
    Deal(
        dealer="Ann",
        plays=[
            Play("Ann", "A♠ A♥ A♦", 45),
            Play("Bob", "5♣ 6♣ 7♣", 18),
            Play("Cid", "8♣", 8, onto=1),
            Play("Ann", "A♣", 15, onto=0),
            Play("Bob", "J♦ Q♦ K♦", 30),
            Play("Ann", "9♠ 10♠ J♠", 29),
        ],
        winner="Ann",
        hands={"Bob": ("K♠ 2♥", 12), "Cid": ("Q♥ Q♣ 4♦", 24)},
    ),
    # Game 2: Cid puts everything down in one turn: a Rommé hand, found without being told.
    Deal(
        dealer="Bob",
        plays=[
            Play("Bob", "10♥ J♥ Q♥", 30),
            Play("Ann", "3♠ 4♠ 5♠", 12),
            Play("Cid", "K♣ K♦ K♥ K♠", 40),
            Play("Cid", "9♥", 9, onto=0),
            Play("Cid", "A♦ 2♦ 3♦", 6),
        ],
        winner="Cid",
        hands={"Ann": ("A♣ 7♥", 22), "Bob": ("8♠ 8♦", 16)},
        romme=True,
    ),
    # Game 3: abandoned; melds and layoffs stand (R6), the 2 after Q-K-A scores 2 (R3).
    Deal(
        dealer="Cid",
        plays=[
            Play("Cid", "7♠ 8♠ 9♠", 24),
            Play("Ann", "Q♠ K♠ A♠", 30),
            Play("Bob", "2♠", 2, onto=1),
            Play("Ann", "J♠", 10, onto=1),
        ],
        winner=None,
    ),
    # Game 4: Bob goes out; a fourth ace laid off onto a set scores 15.
    Deal(
        dealer="Ann",
        plays=[
            Play("Ann", "6♥ 7♥ 8♥ 9♥", 30),
            Play("Bob", "A♣ A♦ A♥", 45),
            Play("Cid", "2♣ 3♣ 4♣", 9),
            Play("Bob", "A♠", 15, onto=1),
            Play("Ann", "10♥", 10, onto=0),
            Play("Bob", "J♣ Q♣ K♣", 30),
        ],
        winner="Bob",
        hands={"Ann": ("K♥ 2♠", 12), "Cid": ("Q♦ Q♥ 9♦", 29)},
        romme_sent=False,
    ),
    Deal(
        dealer="Bob",
        plays=[
            Play("Bob", "4♠ 4♥ 4♦", 12),
            Play("Cid", "A♥ A♠ A♦ A♣", 60),
            Play("Ann", "10♣ J♣ Q♣ K♣", 40),
            Play("Cid", "9♣", 9, onto=2),
            Play("Ann", "5♦ 6♦ 7♦ 8♦", 26),
        ],
        winner="Ann",
        hands={"Bob": ("K♦ Q♠ J♥", 30), "Cid": ("2♠", 2)},
    ),
    Deal(
        dealer="Cid",
        plays=[
            Play("Cid", "Q♠ Q♥ Q♦ Q♣", 40),
            Play("Ann", "J♠ J♥ J♦", 30),
            Play("Bob", "K♠ K♥ K♦ K♣", 40),
            Play("Ann", "J♣", 10, onto=1),
            Play("Bob", "8♣ 9♣ 10♣", 27),
        ],
        winner="Bob",
        hands={"Ann": ("A♥ A♦", 30), "Cid": ("A♠ 5♥", 20)},
    ),
    Deal(
        dealer="Ann",
        plays=[
            Play("Ann", "A♠ K♠ Q♠", 30),
            Play("Bob", "2♥ 3♥ 4♥ 5♥", 14),
            Play("Cid", "9♦ 10♦ J♦", 29),
            Play("Ann", "A♥ A♦ A♣", 45),
            Play("Ann", "Q♦", 10, onto=2),
        ],
        winner="Ann",
        hands={"Bob": ("K♣ K♦", 20), "Cid": ("10♣ 10♥ 9♠", 29)},
    ),
    # Game 8: Ann passes 500 during the game; Bob goes out, and the session is Ann's (R7).
    Deal(
        dealer="Bob",
        plays=[
            Play("Bob", "6♣ 7♣ 8♣", 21),
            Play("Ann", "10♠ J♠ Q♠", 30),
            Play("Cid", "9♣", 9, onto=0),
            Play("Bob", "K♥ K♦ K♠", 30),
        ],
        winner="Bob",
        hands={"Ann": ("A♥", 15), "Cid": ("5♦ 5♠", 10)},
    ),
]

# The running totals after each game, added up by hand.
TOTALS = [
    {"Ann": 125, "Bob": 48, "Cid": 8},
    {"Ann": 137, "Bob": 78, "Cid": 139},
    {"Ann": 177, "Bob": 80, "Cid": 163},
    {"Ann": 217, "Bob": 211, "Cid": 172},
    {"Ann": 315, "Bob": 223, "Cid": 241},
    {"Ann": 355, "Bob": 340, "Cid": 281},
    {"Ann": 489, "Bob": 354, "Cid": 310},
    {"Ann": 519, "Bob": 430, "Cid": 319},
]


def test_a_three_player_session_is_played_to_500_and_won_by_the_highest_total(
    client: FlaskClient,
) -> None:
    recorder = Recorder(client, ["Ann", "Bob", "Cid"], 500)
    running = dict.fromkeys(recorder.names, 0)
    for number, (deal, totals) in enumerate(zip(GAMES, TOTALS, strict=True), start=1):
        points = recorder.play(deal)
        for name, value in points.items():
            running[name] += value
        assert running == totals, f"after game {number}"
        session = recorder.session()
        assert session["totals"] == recorder.by_id(totals)
        assert len(session["games"]) == number
        if number < len(GAMES):
            assert session["status"] == "open"
            assert session["winner"] is None
    session = recorder.session()
    assert session["status"] == "finished"
    assert session["winner"] == recorder.ids["Ann"]
    assert [game["dealer"] for game in session["games"]] == [
        recorder.ids[name] for name in ("Ann", "Bob", "Cid", "Ann", "Bob", "Cid", "Ann", "Bob")
    ]
    assert [game["status"] for game in session["games"]].count("abandoned") == 1
    assert [game["romme"] for game in session["games"]].count(True) == 1
    refused = client.post(f"{API}/sessions/{recorder.session_id}/games")
    assert refused.status_code == 409
    assert refused.get_json()["error"]
    assert recorder.session() == session


def test_when_two_players_pass_the_target_in_one_game_the_higher_total_wins(
    client: FlaskClient,
) -> None:
    recorder = Recorder(client, ["Ann", "Bob", "Cid"], 100)
    points = recorder.play(
        Deal(
            dealer="Ann",
            plays=[
                Play("Ann", "A♠ A♥ A♦ A♣", 60),
                Play("Ann", "J♠ Q♠ K♠", 30),
                Play("Ann", "10♠", 10, onto=1),
                Play("Bob", "10♥ J♥ Q♥ K♥", 40),
                Play("Bob", "9♣ 10♣ J♣ Q♣ K♣", 49),
                Play("Bob", "9♥", 9, onto=3),
                Play("Bob", "7♦ 8♦ 9♦", 24),
            ],
            winner="Bob",
            hands={"Ann": ("2♣", 2), "Cid": ("5♦ 6♦", 11)},
            romme_sent=False,
        )
    )
    assert points == {"Ann": 100, "Bob": 135, "Cid": 0}
    session = recorder.session()
    assert session["status"] == "finished"
    assert session["winner"] == recorder.ids["Bob"]


def test_a_tie_at_the_top_plays_another_game(client: FlaskClient) -> None:
    recorder = Recorder(client, ["Ann", "Bob", "Cid"], 50)
    recorder.play(
        Deal(
            dealer="Ann",
            plays=[
                Play("Ann", "Q♠ K♠ A♠", 30),
                Play("Bob", "J♦ Q♦ K♦", 30),
                Play("Ann", "10♥ 10♦ 10♣", 30),
                Play("Bob", "J♥ Q♥ K♥", 30),
            ],
            winner=None,
        )
    )
    session = recorder.session()
    assert session["totals"] == recorder.by_id({"Ann": 60, "Bob": 60, "Cid": 0})
    assert session["status"] == "open"
    assert session["winner"] is None
    recorder.play(
        Deal(
            dealer="Bob",
            plays=[Play("Bob", "2♣ 3♣ 4♣", 9)],
            winner="Bob",
            hands={"Ann": ("K♣", 10), "Cid": ("Q♣", 10)},
            romme_sent=False,
        )
    )
    session = recorder.session()
    assert session["totals"] == recorder.by_id({"Ann": 60, "Bob": 89, "Cid": 0})
    assert session["status"] == "finished"
    assert session["winner"] == recorder.ids["Bob"]
