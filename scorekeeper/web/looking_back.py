"""Looking back on a session: its history, the score sheet, the chart, the CSV and the export."""

from __future__ import annotations

from typing import Any

from flask import render_template, request
from flask_babel import format_date
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import queries, store, transfer
from scorekeeper.long_reads import long_answer
from scorekeeper.web import view_models, words
from scorekeeper.web.blueprint import bp
from scorekeeper.web.chart import chart_of
from scorekeeper.web.shared import Page, names_of, opened_session

# The history shows a page of games at a time (queries.HISTORY_GAMES); its ``?before=`` is a
# game number of at most this.
LARGEST_GAME_NUMBER = 2**31 - 1


@bp.get("/sessions/<public_id>/history")
def history(public_id: str) -> Page:
    """Show the latest games, or those before ``?before=``: points, entries and settlement."""
    session = opened_session()
    variant = queries.variant_of(session)
    names = names_of(session.players)
    before = request.args.get("before", type=int)
    if before is not None and not 1 < before <= LARGEST_GAME_NUMBER:
        before = None  # no game is numbered below it, or none so high: the latest games
    page = queries.history_page(session, before)
    played = page.games
    # The audit trail of the games shown, in one query.
    numbers = (played[0].game.number, played[-1].game.number) if played else None
    audit = queries.session_audit(session.id, numbers) if numbers else {}
    games = [
        {
            "game": item.game,
            # Each game's own players: who sat at the table when it was dealt.
            "points": queries.history_points(
                item,
                [player.id for player in session.players if player.plays_in(item.game.number)],
            ),
            "entries": item.entries,
            "lines": {line.player_id: line for line in item.lines},
            "groupings": queries.hand_groupings(variant, item.lines),
            # The entries with the corrections, deletes, undos and reopens between them.
            "timeline": view_models.history_timeline(
                view_models.entries_shown(item.entries, names, item.game.id, variant),
                audit.get(item.game.id, []),
                names,
                variant,
            ),
        }
        for item in played
    ]
    scores = page.scores
    return render_template(
        "history.html",
        session=session,
        standing_order=view_models.standing_order(variant, session.seated, scores.totals)
        + session.left,
        scores=scores,
        games=games,
        page=page,
        names=names,
        house_rules=words.house_rules_in_words(variant),
        variant=variant,
    )


@bp.get("/sessions/<public_id>/sheet")
@long_answer("session", "public_id")
def sheet(public_id: str) -> Page:
    """Show the score sheet: a row per game, a column per player, the chart of the totals."""
    session = opened_session()
    sheet = queries.read_sheet(session)
    variant = sheet.rule_system
    return render_template(
        "sheet.html",
        sheet=sheet,
        names=sheet.names,
        chart=chart_of(sheet) if sheet.games_ended else None,
        day=_day(sheet),
        house_rules=words.house_rules_in_words(variant),
        points_name=variant.words.points_name(words.language()),
        end=sheet.end.render(words.language()),
    )


@bp.get("/sessions/<public_id>/chart.svg")
@long_answer("session", "public_id")
def chart_svg(public_id: str) -> BaseResponse:
    """Draw the chart of the totals alone, as an SVG file."""
    chart = chart_of(queries.read_sheet(opened_session()))
    svg = render_template("_chart.html", chart=chart) if chart is not None else _NO_CHART
    return BaseResponse(svg, mimetype="image/svg+xml")


# A session without a game has nothing to draw yet: an empty picture, not an error.
_NO_CHART = '<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 360 220"/>'


@bp.get("/sessions/<public_id>/sheet.csv")
@long_answer("session", "public_id")
def sheet_csv(public_id: str) -> BaseResponse:
    """Download the sheet as CSV for a spreadsheet in the page's language, named in it too.

    A byte order mark tells a spreadsheet the file is UTF-8; the separator is the one a
    spreadsheet of the language reads (``;`` where the decimal mark is a comma).
    """
    sheet = queries.read_sheet(opened_session())
    text = queries.sheet_csv(sheet, words.language(), spreadsheet=True)
    answer = BaseResponse(text, mimetype="text/csv")
    title = sheet.rule_system.label(words.language())
    answer.headers["Content-Disposition"] = words.attachment(
        f"{words.file_name(title, sheet.created_at)}.csv"
    )
    return answer


@bp.get("/sessions/<public_id>/export.json")
@long_answer("session", "public_id")
def export_session(public_id: str) -> BaseResponse:
    """Download the session as the JSON document that ``scorekeeper import`` reads."""
    session = opened_session()
    session_id, name = session.id, _file_name(session)
    # The export reads in a transaction of its own: one snapshot on PostgreSQL.
    store.rollback()
    document = transfer.export_sessions(session_id)
    return _download(transfer.dumps(document), "application/json", f"{name}.json")


def looking_back_parts(sheet: queries.Sheet, *, in_play: bool) -> dict[str, Any]:
    """Return the session page's chart and, between games, the result to share.

    The sharing script is left off while a game is open: the game page stays as light.
    """
    result = None
    if not in_play and sheet.games_ended:
        result = queries.result_text(sheet, words.language(), _day(sheet))
    return {"chart": chart_of(sheet) if sheet.games_ended else None, "result_text": result}


def _day(sheet: queries.Sheet) -> str:
    """Return the day a session started, in the page's language (``24.11.2026``)."""
    return str(format_date(sheet.created_at, "medium"))


def _file_name(session: queries.SessionRow) -> str:
    """Return a download's name without its ending: the rule system and the day it started."""
    return f"{session.variant}-{format_date(session.created_at, 'yyyy-MM-dd')}"


def _download(text: str, mimetype: str, name: str) -> BaseResponse:
    """Answer a file to save, in UTF-8."""
    answer = BaseResponse(text, mimetype=mimetype)
    answer.headers.set("Content-Disposition", "attachment", filename=name)
    return answer
