"""A group's page: its statistics, names counted as one person, keep or forget it on this phone."""

from __future__ import annotations

from flask import flash, g, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import queries, services, store
from scorekeeper.http.arguments import whole_argument
from scorekeeper.keys import Access
from scorekeeper.long_reads import long_answer
from scorekeeper.web import access, words
from scorekeeper.web.blueprint import bp
from scorekeeper.web.forms import ButtonForm, MergeForm
from scorekeeper.web.once import once_per_form
from scorekeeper.web.shared import REFUSED, Answer, Page, check_button


@bp.get("/groups/<group_id>")
@long_answer("group", "group_id")
def group_page(group_id: str) -> Page:
    """Show a group's statistics per rule system and its sessions (its key opened it)."""
    return _group_page(g.group)


@bp.post("/groups/<group_id>/merges")
@once_per_form
def merge_names(group_id: str) -> Answer:
    """Count two names of the group as one person ("Anni" is "Anna")."""
    group: queries.GroupRow = g.group
    form = MergeForm()
    if form.validate_on_submit():
        try:
            services.merge_names(group.id, form.name.data or "", form.same_as.data or "")
        except REFUSED as error:
            store.rollback()
            form.same_as.errors = [words.rules_message(error)]
        else:
            sentence = gettext(
                "“%(name)s” counts as “%(same_as)s” now.",
                name=" ".join((form.name.data or "").split()),
                same_as=" ".join((form.same_as.data or "").split()),
            )
            flash(sentence, "success")
            return redirect(url_for("web.group_page", group_id=group.public_id))
    return _group_page(group, merge_form=form, status=422)


@bp.post("/groups/<group_id>/keep")
def keep_group(group_id: str) -> BaseResponse:
    """Keep a group link's key on this phone on purpose, as a session's (``keep_session``)."""
    check_button()
    key = request.form.get("key", "")
    services.access_to_group(group_id, key or None, Access.VIEW)
    access.keep_on_purpose(group_id, key, access.GROUP_KEYS)
    flash(gettext("This group is kept on this phone."), "success")
    return redirect(url_for("web.group_page", group_id=group_id))


@bp.post("/groups/<group_id>/forget")
def forget_group(group_id: str) -> BaseResponse:
    """Take a group off this phone's list; it stays for every other phone with its key."""
    check_button()
    access.forget_key(group_id, access.GROUP_KEYS)
    flash(
        gettext("The group is off this phone's list. It stays for every phone that has its link."),
        "success",
    )
    return redirect(url_for("web.home"))


def _group_page(
    group: queries.GroupRow, *, merge_form: MergeForm | None = None, status: int = 200
) -> Page:
    statistics = queries.read_statistics(group)
    # The club's season, each player's best k evenings counted as the page was asked (?best=7).
    season_error = None
    try:
        season = queries.read_season(group, best=whole_argument("best"))
    except REFUSED as error:
        season_error = words.rules_message(error)
        season = queries.read_season(group)
    share = access.share_links(group.public_id, access.GROUP_KEYS)
    # A page with keys in its links is kept in no cache.
    g.no_store = bool(share)
    names = sorted(
        {player.name for session in statistics.sessions.sessions for player in session.players},
        key=lambda name: (name.casefold(), name),
    )
    return render_template(
        "group.html",
        group=group,
        statistics=statistics,
        season=season,
        season_error=season_error,
        merge_form=merge_form or MergeForm(formdata=None),
        names=names,
        share=share,
        key_to_keep=access.key_to_keep(group.public_id, access.GROUP_KEYS),
        not_kept=access.not_kept_notice(),
        button_form=ButtonForm(formdata=None),
    ), status


def group_held(session: queries.SessionRow) -> queries.GroupRow | None:
    """Return a session's group when this phone holds its key (the session page links it)."""
    held = access.held_keys(access.GROUP_KEYS)
    if session.group_id is None or not held:
        return None
    groups = services.groups_opened_by(held)
    return next((group for group, _granted in groups if group.id == session.group_id), None)
