"""The audit trail: each correction, delete, undo and reopen leaves one line, with what it was."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper import rules, services
from scorekeeper.extensions import db
from scorekeeper.models import AuditLine
from tests.helpers import assert_refused, first_game

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = [
    pytest.mark.parametrize("backend", ["sqlite", "postgresql"]),
    pytest.mark.usefixtures("ctx"),
]


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


def trail(game_id: int) -> list[services.AuditRow]:
    audit = services.with_audit(services.read_game(game_id)).audit
    assert audit is not None
    return audit


def only_line(game_id: int) -> services.AuditRow:
    lines = trail(game_id)
    assert len(lines) == 1, lines
    return lines[0]


def said(line: services.AuditRow, game_id: int, language: str = "en") -> str:
    game = services.read_game(game_id)
    names = {player.id: player.name for player in game.players}
    return services.audit_text(line, names, game.variant, language)


def german_game() -> tuple[int, list[int]]:
    session = services.create_session(
        ["Ann", "Bob", "Cid"], variant="german_rummy", house_rules={"opening": 0}
    )
    game = services.start_game(session.id)
    return game.id, [player.id for player in game.players]


# --- corrections -------------------------------------------------------------------------------


def test_a_correction_of_the_cards_keeps_the_cards_before_and_after() -> None:
    game, (ann, _bob, _cid) = first_game()
    meld = services.record_meld(game, ann, "7♣ 7♥ 7♦").id
    services.correct_entry(game, meld, "7♠ 7♥ 7♦")
    line = only_line(game)
    assert (line.action, line.entry_id, line.player_id, line.kind) == (
        "corrected",
        meld,
        ann,
        "meld",
    )
    assert line.before["cards"] == ["7♥", "7♦", "7♣"]
    assert line.after is not None
    assert line.after["cards"] == ["7♠", "7♥", "7♦"]
    assert line.before["player"] == line.after["player"] == ann
    assert line.before["value"] == line.after["value"] == 21
    assert said(line, game) == "corrected: 7♥ 7♦ 7♣ → 7♠ 7♥ 7♦"


def test_a_correction_of_the_player_names_only_the_players() -> None:
    game, (ann, bob, _cid) = first_game()
    meld = services.record_meld(game, ann, "7♣ 7♥ 7♦").id
    services.correct_entry(game, meld, None, bob)
    line = only_line(game)
    assert line.player_id == ann  # whose entry it was
    assert line.after is not None
    assert (line.before["player"], line.after["player"]) == (ann, bob)
    assert line.before["cards"] == line.after["cards"]
    assert said(line, game) == "corrected: Ann → Bob"


def test_a_correction_of_both_names_the_cards_then_the_players() -> None:
    game, (ann, bob, _cid) = first_game()
    meld = services.record_meld(game, bob, "7♣ 7♥ 7♦").id
    services.correct_entry(game, meld, "7♠ 7♥ 7♦", ann)
    line = only_line(game)
    assert said(line, game) == "corrected: 7♥ 7♦ 7♣ → 7♠ 7♥ 7♦, Bob → Ann"


def test_a_layoff_moved_onto_another_meld_names_both_melds() -> None:
    game, (ann, bob, _cid) = first_game()
    spades = services.record_meld(game, ann, "4♠ 5♠ 6♠").id
    sevens = services.record_meld(game, ann, "7♣ 7♥ 7♦").id
    layoff = services.record_layoff(game, bob, sevens, "7♠").id
    services.correct_entry(game, layoff, None, meld_id=spades)
    line = only_line(game)
    assert line.kind == "layoff"
    assert line.after is not None
    assert (line.before["meld"], line.after["meld"]) == (sevens, spades)
    assert (line.before["onto"], line.after["onto"]) == (["7♥", "7♦", "7♣"], ["4♠", "5♠", "6♠"])
    assert said(line, game) == "corrected: onto 7♥ 7♦ 7♣ → 4♠ 5♠ 6♠"


def test_a_correction_to_what_the_entry_was_already_leaves_no_line() -> None:
    game, (ann, _bob, _cid) = first_game()
    meld = services.record_meld(game, ann, "7♣ 7♥ 7♦").id
    services.correct_entry(game, meld, "7♦ 7♣ 7♥", ann)
    assert trail(game) == []


# --- deletes and undos -------------------------------------------------------------------------


def test_a_delete_keeps_the_entry_as_it_stood() -> None:
    game, (ann, bob, _cid) = first_game()
    meld = services.record_meld(game, ann, "Q♣ K♣ A♣")
    services.record_meld(game, bob, "2♥ 3♥ 4♥")
    services.delete_entry(game, meld.id)
    line = only_line(game)
    assert (line.action, line.entry_id, line.player_id, line.kind, line.after) == (
        "deleted",
        meld.id,
        ann,
        "meld",
        None,
    )
    assert line.before["cards"] == ["Q♣", "K♣", "A♣"]
    assert line.before["value"] == meld.value
    assert said(line, game) == f"deleted: Ann's meld Q♣ K♣ A♣ ({meld.value})"


def test_an_undo_of_a_meld_keeps_the_meld() -> None:
    game, (ann, _bob, _cid) = first_game()
    meld = services.record_meld(game, ann, "6♠ 6♥ 6♦")
    services.undo_last_entry(game)
    line = only_line(game)
    assert (line.action, line.entry_id, line.kind) == ("undone", meld.id, "meld")
    assert said(line, game) == "undone: Ann's meld 6♠ 6♥ 6♦ (18)"


def test_an_undo_of_a_layoff_names_the_meld_it_lay_on() -> None:
    game, (ann, bob, _cid) = first_game()
    meld = services.record_meld(game, ann, "6♥ 7♥ 8♥").id
    layoff = services.record_layoff(game, bob, meld, "9♥").id
    services.undo_last_entry(game)
    line = only_line(game)
    assert (line.action, line.entry_id, line.player_id, line.kind) == (
        "undone",
        layoff,
        bob,
        "layoff",
    )
    assert (line.before["meld"], line.before["cards"], line.before["value"]) == (meld, ["9♥"], 9)
    assert said(line, game) == "undone: Bob's layoff 9♥ onto 6♥ 7♥ 8♥ (9)"


def test_an_undo_of_several_melds_keeps_them_as_one_entry() -> None:
    game, (ann, _bob, _cid) = first_game()
    several = services.record_melds(game, ann, ["Q♣ K♣ A♣", "3♦ 3♥ 3♠"])
    services.undo_last_entry(game)
    line = only_line(game)
    assert (line.entry_id, line.kind) == (several.id, "meld")
    assert line.before["melds"] == [row.id for row, _meld in several.melds]
    assert line.before["meld_cards"] == [["Q♣", "K♣", "A♣"], ["3♠", "3♥", "3♦"]]
    assert line.before["value"] == several.value
    assert said(line, game) == (f"undone: Ann's melds Q♣ K♣ A♣ + 3♠ 3♥ 3♦ ({several.value})")


def test_an_undo_of_a_german_rummy_swap_keeps_both_its_rows() -> None:
    game, (ann, bob, _cid) = german_game()
    sixes = services.record_meld(game, ann, "6♠ 6♥ JKR").id
    services.record_meld(game, bob, "10♠ J♠ Q♠")
    swap = services.record_swap(game, bob, sixes, "6♣", "8♥ JKR 10♥")
    services.undo_last_entry(game)
    line = only_line(game)
    assert (line.action, line.entry_id, line.player_id, line.kind) == (
        "undone",
        swap.id,
        bob,
        "swap",
    )
    assert line.before["meld"] == sixes
    assert line.before["melds"] == [swap.new_meld_row.id]
    assert line.before["cards"] == ["6♣", "8♥", "JKR=9♥", "10♥"]
    assert line.before["onto"] == ["6♠", "6♥", "JKR"]
    # Melds score nothing in German Rummy: no value is said.
    assert said(line, game) == (
        "undone: Bob's joker swap: 6♣ for the joker in 6♠ 6♥ JKR, the joker into 8♥ JKR=9♥ 10♥"
    )
    assert "D♥" not in said(line, game, "de")


def test_a_delete_of_a_swap_by_its_new_meld_keeps_the_whole_swap() -> None:
    game, (ann, bob, _cid) = german_game()
    sixes = services.record_meld(game, ann, "6♠ 6♥ JKR").id
    services.record_meld(game, bob, "10♠ J♠ Q♠")
    swap = services.record_swap(game, bob, sixes, "6♣", "8♥ JKR 10♥")
    services.delete_entry(game, swap.new_meld_row.id)
    line = only_line(game)
    assert (line.action, line.entry_id, line.kind) == ("deleted", swap.id, "swap")
    assert line.before["cards"] == ["6♣", "8♥", "JKR=9♥", "10♥"]


# --- reopening ---------------------------------------------------------------------------------


def test_a_reopen_keeps_the_result_it_took_back() -> None:
    game, (ann, bob, cid) = first_game()
    services.record_meld(game, ann, "6♠ 6♥ 6♦")
    finish = services.finish_game(game, ann, {bob: "K♥ 9♦", cid: 23}, romme=False)
    booked = services.game_points(services.read_game(game))
    services.reopen_game(game)
    line = only_line(game)
    assert (line.action, line.entry_id, line.player_id, line.kind, line.after) == (
        "reopened",
        None,
        ann,
        None,
        None,
    )
    assert line.before["status"] == "finished"
    assert (line.before["winner"], line.before["romme"]) == (ann, False)
    assert line.before["hands"] == {str(bob): ["K♥", "9♦"]}
    assert line.before["hand_points"] == {str(bob): 19, str(cid): 23}
    assert line.before["settlement"] == {str(p): v for p, v in finish.settlement.gains.items()}
    assert line.before["points"] == {str(player): points for player, points in booked.items()}
    assert said(line, game) == (
        f"reopened: Ann had won; hands: Bob K♥ 9♦ (19), Cid (23); points: Ann "
        f"{booked[ann]:+d}, Bob {booked[bob]:+d}, Cid {booked[cid]:+d}"
    )


def test_a_reopen_of_an_abandoned_game_says_so() -> None:
    game, (ann, _bob, _cid) = first_game()
    services.record_meld(game, ann, "6♠ 6♥ 6♦")
    services.abandon_game(game)
    services.reopen_game(game)
    line = only_line(game)
    assert (line.before["status"], line.before["winner"], line.player_id) == (
        "abandoned",
        None,
        None,
    )
    assert (
        said(line, game) == "reopened: the game had been abandoned; points: Ann +18, Bob +0, Cid +0"
    )


def test_a_reopen_removes_a_dealt_game_with_its_trail_of_undone_entries() -> None:
    game, (ann, bob, cid) = first_game()
    services.record_meld(game, ann, "6♠ 6♥ 6♦")
    services.finish_game(game, ann, {bob: "K♥", cid: "2♥"})
    session_id = services.read_game(game).session_id
    next_game = services.start_game(session_id).id
    services.record_meld(next_game, bob, "9♣ 10♣ J♣")
    services.undo_last_entry(next_game)  # nothing recorded there now, one line
    services.reopen_game(game)
    assert db.session.scalar(sa.select(sa.func.count()).select_from(AuditLine)) == 1
    assert only_line(game).action == "reopened"


# --- refusals and points -----------------------------------------------------------------------


def test_a_refused_change_leaves_no_line() -> None:
    game, (ann, bob, cid) = first_game()
    meld = services.record_meld(game, ann, "6♥ 7♥ 8♥").id
    services.record_layoff(game, bob, meld, "9♥")
    assert_refused(services.ConflictError, lambda: services.delete_entry(game, meld))
    assert_refused(rules.RulesError, lambda: services.correct_entry(game, meld, "6♥ 7♥ 9♣"))
    assert_refused(services.ConflictError, lambda: services.undo_last_entry(game, seen_last=meld))
    assert_refused(services.ConflictError, lambda: services.reopen_game(game))
    services.finish_game(game, bob, {ann: "K♣", cid: "2♥"})
    assert_refused(services.ConflictError, lambda: services.undo_last_entry(game))
    assert trail(game) == []


def test_the_points_come_from_the_entries_as_they_stand_never_from_the_trail() -> None:
    game, (ann, bob, cid) = first_game()
    kept = services.record_meld(game, ann, "6♠ 6♥ 6♦").id
    gone = services.record_meld(game, bob, "Q♣ K♣ A♣").id
    services.correct_entry(game, kept, "7♠ 7♥ 7♦", bob)
    services.delete_entry(game, gone)
    services.record_meld(game, cid, "2♣ 3♣ 4♣")
    services.undo_last_entry(game)
    assert len(trail(game)) == 3
    session = services.get_session(services.read_game(game).session_id)
    expected = {ann: 0, bob: 21, cid: 0}
    assert services.game_points(services.read_game(game)) == expected
    assert services.session_scores(session).totals == expected
    # A trail that says otherwise changes nothing of the points.
    db.session.execute(
        sa.update(AuditLine).values(before='{"value": 999, "points": {"1": 999}}', after=None)
    )
    db.session.commit()
    assert services.game_points(services.read_game(game)) == expected
    assert services.session_scores(services.get_session(session.id)).totals == expected


def test_a_session_s_trail_is_read_by_game_in_time_order() -> None:
    game, (ann, bob, _cid) = first_game()
    first = services.record_meld(game, ann, "6♠ 6♥ 6♦").id
    services.correct_entry(game, first, None, bob)
    services.undo_last_entry(game)
    services.finish_game(game, None, {})
    services.reopen_game(game)
    session_id = services.read_game(game).session_id
    lines = services.session_audit(session_id)
    assert list(lines) == [game]
    assert [line.action for line in lines[game]] == ["corrected", "undone", "reopened"]
    assert [line.id for line in lines[game]] == sorted(line.id for line in lines[game])
    assert all(isinstance(line.before, dict) for line in lines[game])
