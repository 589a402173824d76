"""Names merged into one person, against a real database: one person sits at a table once.

And a merge names only those who played: a name dealt no game cannot be merged.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.keys import SessionKeys
from scorekeeper.models import GameSession, Group, MergedName, Player
from scorekeeper.rules.groups import GroupError

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = [
    pytest.mark.parametrize("backend", ["sqlite", "postgresql"]),
    pytest.mark.usefixtures("ctx"),
]


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


def played(group: int, names: list[str]) -> GameSession:
    """Start a session of the group and play its first game to an end (abandoned)."""
    session = services.create_session(names, group=group)
    services.abandon_game(services.start_game(session.id).id)
    return session


@pytest.fixture
def group() -> int:
    """A group where Anna and Anni played apart, and "Anni" was merged into "Anna"."""
    group = services.create_group("Donnerstagsrunde", SessionKeys.new()).id
    played(group, ["Anna", "Bob", "Cid"])
    played(group, ["Anni", "Dora"])
    services.merge_names(group, "Anni", "Anna")
    return group


def refusal(refused: pytest.ExceptionInfo[GroupError]) -> tuple[str, str, str]:
    error = refused.value
    return error.message_id, str(error.params["name"]), str(error.params["same_as"])


def counted() -> tuple[int, int]:
    """Return how many sessions and players the database holds."""
    sessions = db.session.scalar(sa.select(sa.func.count()).select_from(GameSession))
    players = db.session.scalar(sa.select(sa.func.count()).select_from(Player))
    return int(sessions or 0), int(players or 0)


@pytest.mark.parametrize("names", [["Anna", "Bob", "Anni"], ["anni", "Eve", "ANNA"]])
def test_a_session_of_the_group_with_both_merged_names_is_refused_and_nothing_is_written(
    group: int, names: list[str]
) -> None:
    before = counted()
    with pytest.raises(GroupError) as refused:
        services.create_session(names, group=group, start_first_game=True)
    assert refusal(refused) == ("group.merged_at_one_table", names[2], names[0])
    assert counted() == before


def test_both_merged_names_sit_together_outside_the_group(group: int) -> None:
    alone = services.create_session(["Anna", "Anni"]).id
    other = services.create_group("Skatfreunde", SessionKeys.new()).id
    elsewhere = services.create_session(["Anna", "Anni"], group=other).id
    for session in (alone, elsewhere):
        stored = services.get_session(session)
        assert [(player.seat, player.name) for player in stored.players] == [
            (0, "Anna"),
            (1, "Anni"),
        ]
    assert services.get_session(elsewhere).group_id == other


def test_a_merged_name_cannot_be_seated_between_games_beside_its_other_name(group: int) -> None:
    session = played(group, ["Anna", "Bob", "Cid"])
    with pytest.raises(GroupError) as refused:
        services.seat_player(session.id, " anni ", 1)
    assert refusal(refused) == ("group.merged_at_one_table", "anni", "Anna")
    db.session.rollback()
    assert [player.name for player in services.get_session(session.id).players] == [
        "Anna",
        "Bob",
        "Cid",
    ]
    services.seat_player(session.id, "Dora", 1)  # anyone else sits down as before


def test_a_merged_name_cannot_come_back_under_its_other_name_after_leaving(group: int) -> None:
    session = played(group, ["Anna", "Bob", "Cid"])
    anna = session.players[0].id
    services.unseat_player(session.id, anna)
    with pytest.raises(GroupError):
        services.seat_player(session.id, "Anni")


def test_a_player_cannot_be_renamed_to_the_other_merged_name(group: int) -> None:
    session = played(group, ["Anna", "Bob", "Cid"])
    bob = session.players[1].id
    with pytest.raises(GroupError) as refused:
        services.rename_player(session.id, bob, "Anni")
    assert refusal(refused) == ("group.merged_at_one_table", "Anni", "Anna")
    db.session.rollback()
    assert services.get_session(session.id).players[1].name == "Bob"
    services.rename_player(session.id, session.players[0].id, "Anni")  # Anna's own spelling


# --- a merge names those who played -----------------------------------------------------------


def merges(group: int) -> list[tuple[str, str]]:
    rows = db.session.scalars(sa.select(MergedName).where(MergedName.group_id == group))
    return [(merge.name, merge.same_as) for merge in rows]


def test_a_name_that_sat_only_where_no_game_was_dealt_cannot_be_merged(group: int) -> None:
    waiting = services.create_session(["Annie", "Eve"], group=group)  # no game dealt yet
    with pytest.raises(GroupError) as refused:
        services.merge_names(group, "Annie", "Anna")
    assert refused.value.message_id == "group.never_dealt"
    assert merges(group) == [("Anni", "Anna")]
    services.start_game(waiting.id)  # dealt in: Annie played
    services.merge_names(group, "Annie", "Anna")
    assert merges(group) == [("Anni", "Anna"), ("Annie", "Anna")]


def test_a_name_seated_after_the_last_game_dealt_has_not_played_yet(group: int) -> None:
    session = played(group, ["Bob", "Cid"])
    services.seat_player(session.id, "Hanna")
    with pytest.raises(GroupError) as refused:
        services.merge_names(group, "Hanna", "Anna")
    assert refused.value.message_id == "group.never_dealt"


def test_a_full_width_spelling_counts_in_the_statistics_as_the_person_merged(group: int) -> None:
    played(group, ["\uff21\uff4e\uff4e\uff49", "Eve"])  # Ａｎｎｉ, alone at the table with Eve
    statistics = services.read_statistics(db.session.get(Group, group))
    [treppen] = statistics.rule_systems
    found = {person.name: person for person in treppen.people}
    assert sorted(found) == ["Anna", "Bob", "Cid", "Dora", "Eve"]
    assert found["Anna"].sessions == 3
    with pytest.raises(GroupError) as refused:
        services.create_session(["Anna", "\uff21\uff4e\uff4e\uff49"], group=group)
    assert refusal(refused)[0] == "group.merged_at_one_table"
