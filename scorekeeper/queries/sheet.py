"""The score sheet: a row per game with each player's points and running total, as on paper.

Read as the session's totals are (``session_scores``): in a fixed number of queries whatever
the length of the session. A game's points name the players dealt in; whoever is not among
them sat that game out (joined later or left before).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from datetime import datetime

from babel.numbers import get_decimal_symbol

from scorekeeper import rules
from scorekeeper.queries.sessions import SessionScores, history_before, session_scores
from scorekeeper.store import SessionRow, variant_of

# The words of the CSV file and of the result's text, in the app's one catalogue.
WORDS: dict[str, rules.Wording] = {
    "game": rules.wording("Game"),
    "dealer": rules.wording("Dealer"),
    "status": rules.wording("Status"),
    "winner": rules.wording("Winner"),
    "romme": rules.wording("Rommé"),
    "yes": rules.wording("yes"),
    "total": rules.wording("Total"),
    "finished": rules.wording("finished"),
    "abandoned": rules.wording("abandoned"),
    "open": rules.wording("being played"),
    # The result as a messenger shows it: "Treppenrommé (24.11.2026), 12 games: 1. Ann 512, …".
    "result": rules.plural_wording(
        "%(variant)s (%(day)s), %(count)s game: %(ranking)s",
        "%(variant)s (%(day)s), %(count)s games: %(ranking)s",
    ),
    "wins": rules.wording("%(name)s wins the session!"),
    # After the ranking of those at the table: "… 3. Cid 0; left the table: Ann 80".
    "left": rules.wording("left the table: %(names)s"),
}

# A cell a spreadsheet would take for a formula (a name such as "=HYPERLINK(…)") starts with
# one of these: such a cell is written with an apostrophe before it (OWASP's advice).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class SheetRow:
    """One game on the sheet: who dealt and won, each player's points and total after it.

    A player who did not play the game has ``None`` as points, and their total stays.
    """

    id: int
    number: int
    dealer_id: int
    status: str
    winner_id: int | None
    romme: bool | None
    points: dict[int, int | None]
    totals: dict[int, int]
    # The ``before`` of the history page showing the game; None: the page of the latest games.
    history_before: int | None = None


@dataclass(frozen=True)
class Sheet:
    """A session's score sheet: its players, a row per game, the totals and how it ends."""

    public_id: str
    status: str
    rule_system: rules.Variant
    created_at: datetime
    players: list[tuple[int, str]]
    rows: list[SheetRow]
    standing: rules.SessionStanding[int]
    # Every player's total, of those who left the table too (the standing has those seated).
    totals: dict[int, int]
    # Each player's total before the first row: 0, unless only the latest games were read.
    start: dict[int, int] = field(default_factory=dict)

    @property
    def variant(self) -> str:
        """Return the name the registry knows the rule system by."""
        return self.rule_system.name

    def to_go(self, player_id: int) -> int | None:
        """Return a player's distance to the target or the limit; None where it has none."""
        if player_id not in self.standing.totals:
            return None
        return self.standing.to_go(player_id)

    @property
    def names(self) -> dict[int, str]:
        """Return the players' names by id."""
        return dict(self.players)

    @property
    def games_ended(self) -> int:
        """Return how many games have ended (finished or abandoned)."""
        return self.standing.games_ended

    @property
    def end(self) -> rules.Message:
        """Say how the session ends: its target, its limit, or its games and how many are left."""
        return self.rule_system.words.end_message(self.standing.games_ended)

    def ranking(self) -> list[tuple[int, int, int]]:
        """Return (place, player id, total), the best total first; equal totals share a place.

        The rule system orders the standing (``standing_order``). Only the players at the table
        are ranked: one who left can win nothing.
        """
        seated = [
            player_id for player_id, _name in self.players if player_id in self.standing.totals
        ]
        ordered = self.rule_system.standing_order(seated, self.totals)
        places: list[tuple[int, int, int]] = []
        for index, player_id in enumerate(ordered):
            total = self.totals[player_id]
            place = index + 1
            if places and places[-1][2] == total:
                place = places[-1][0]
            places.append((place, player_id, total))
        return places


def read_sheet(session: SessionRow, scores: SessionScores | None = None) -> Sheet:
    """Return a session's score sheet: two or three queries however many games it has.

    ``scores`` are the session's scores where the caller read them already; of only the
    latest games, the sheet starts from the totals before them.
    """
    if scores is None:
        scores = session_scores(session)
    players = [(player.id, player.name) for player in session.players]
    start = {
        player_id: scores.totals.get(player_id, 0)
        - sum(scores.game_points[game.id].get(player_id, 0) for game in scores.games)
        for player_id, _name in players
    }
    running = dict(start)
    latest = scores.games[-1].number if scores.games else 0
    rows = []
    for game in scores.games:
        points: dict[int, int | None] = {}
        dealt_in = scores.game_points[game.id]
        for player_id, _name in players:
            value = dealt_in.get(player_id)
            points[player_id] = value
            running[player_id] += value or 0
        rows.append(
            SheetRow(
                game.id,
                game.number,
                game.dealer_id,
                game.status,
                game.winner_id,
                game.romme,
                points,
                dict(running),
                history_before(game.number, latest),
            )
        )
    return Sheet(
        session.public_id,
        session.status,
        variant_of(session),
        session.created_at,
        players,
        rows,
        scores.standing,
        scores.totals,
        start,
    )


# The byte order mark that tells a spreadsheet a CSV file is in UTF-8.
BOM = "\ufeff"


def sheet_csv(sheet: Sheet, language: str = "en", *, spreadsheet: bool = False) -> str:
    """Return the sheet as CSV: a header row in the language, a row per game, a total row.

    A row holds the game's number, dealer, status, winner and Rommé, then each player's
    points in that game (empty for a player who sat it out). Comma-separated; for a
    ``spreadsheet`` in the language, with a byte order mark that says UTF-8 and the
    separator such a spreadsheet reads (``;`` where the decimal mark is a comma: German).
    """
    names = sheet.names

    def word(key: str) -> str:
        return WORDS[key].render(language)

    output = io.StringIO()
    separator = ","
    if spreadsheet:
        output.write(BOM)
        separator = ";" if get_decimal_symbol(language) == "," else ","
    writer = csv.writer(output, delimiter=separator)
    header = ["game", "dealer", "status", "winner", "romme"]
    writer.writerow([word(key) for key in header] + [_cell(name) for _id, name in sheet.players])
    for row in sheet.rows:
        writer.writerow(
            [
                row.number,
                _cell(names[row.dealer_id]),
                word(row.status),
                _cell(names[row.winner_id]) if row.winner_id is not None else "",
                word("yes") if row.romme else "",
                *(
                    "" if row.points[player_id] is None else row.points[player_id]
                    for player_id, _name in sheet.players
                ),
            ]
        )
    blank = [""] * (len(header) - 1)
    writer.writerow([word("total"), *blank, *(sheet.totals[pid] for pid, _name in sheet.players)])
    return output.getvalue()


def _cell(text: str) -> str:
    """Return a name as a CSV cell that no spreadsheet runs as a formula."""
    return f"'{text}" if text.startswith(_FORMULA_STARTS) else text


def result_text(sheet: Sheet, language: str, day: str) -> str:
    """Return the result as a line for a messenger, in a language; ``day`` is the date said.

    e.g. ``Treppenrommé (24.11.2026), 12 games: 1. Ann 512, 2. Bob 340, 3. Cid 120``.
    """
    names = sheet.names
    ranking = ", ".join(
        f"{place}. {names[player_id]} {total}" for place, player_id, total in sheet.ranking()
    )
    left = [
        f"{name} {sheet.totals[player_id]}"
        for player_id, name in sheet.players
        if player_id not in sheet.standing.totals
    ]
    if left:
        ranking += "; " + WORDS["left"].render(language, names=", ".join(left))
    text = WORDS["result"].render(
        language,
        variant=sheet.rule_system.label(language),
        day=day,
        count=sheet.games_ended,
        ranking=ranking,
    )
    winner = sheet.standing.winner
    if sheet.status == "finished" and winner is not None:
        text += " " + WORDS["wins"].render(language, name=names[winner])
    return text
