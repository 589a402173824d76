"""The start page: start a session, keep or forget one on this phone, and the language."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import queries, rules, services, store
from scorekeeper.i18n import LANGUAGE_COOKIE, LANGUAGES
from scorekeeper.keys import Access, SessionKeys
from scorekeeper.web import access, words
from scorekeeper.web.blueprint import bp
from scorekeeper.web.forms import NEW_GROUP, ButtonForm, SessionForm, new_session_form
from scorekeeper.web.once import once_per_form
from scorekeeper.web.shared import REFUSED, Answer, Page, check_button

ONE_YEAR = 365 * 24 * 60 * 60


@bp.get("/language/<code>")
def language(code: str) -> BaseResponse:
    """Remember the chosen language in a cookie and go back to the page."""
    if code not in LANGUAGES:
        abort(404)
    response = redirect(words.safe_next(request.args.get("next")))
    response.set_cookie(LANGUAGE_COOKIE, code, max_age=ONE_YEAR, samesite="Lax", httponly=True)
    return response


@bp.get("/")
def home() -> Page:
    """Show the form that starts a session, and the sessions this phone can open."""
    mine = services.sessions_opened_by(access.held_keys())
    groups = services.groups_opened_by(access.held_keys(access.GROUP_KEYS))
    form = new_session_form()
    # "Play again" from a finished session: the same players and target, for a phone that
    # holds that session's key (nobody else learns its names).
    again = next((played for played in mine if played.public_id == request.args.get("again")), None)
    if again is not None:
        variant = queries.variant_of(again)
        end = variant.house_rules["end"]
        form = new_session_form(
            data={
                "names": [player.name for player in again.seated],
                "variant": variant.name,
                **variant.house_rules,
                "end": next(iter(end)),
                **end,
                # The deal goes on where the session left it: whoever would have dealt next.
                "dealer": str(again.seated.index(queries.next_dealer(again))),
                # The same people play again: the session stays in their group.
                "group": _group_id_of(again, groups),
            }
        )
    elif request.args.get("group"):
        # "Start a session in this group" from a group's page.
        chosen = request.args["group"]
        if any(group.public_id == chosen and granted == Access.EDIT for group, granted in groups):
            form.group.data = chosen
    return _home_page(form, mine, groups)


def _group_id_of(session: queries.SessionRow, groups: list[tuple[queries.GroupRow, Access]]) -> str:
    """Return the id of a session's group if this phone may add sessions to it, else ""."""
    return next(
        (
            group.public_id
            for group, granted in groups
            if group.id == session.group_id and granted == Access.EDIT
        ),
        "",
    )


def _home_page(
    form: SessionForm,
    mine: list[queries.SessionRow],
    groups: list[tuple[queries.GroupRow, Access]],
    status: int = 200,
) -> Page:
    """Show the start page: the new-session form with this phone's groups, and its sessions."""
    form.offer_groups(
        [(group.public_id, group.name) for group, granted in groups if granted == Access.EDIT]
    )
    return render_template(
        "home.html",
        form=form,
        mine=mine,
        groups=[group for group, _granted in groups],
        # Behind a tap on a phone that has sessions, unless it is sent back or filled in.
        form_open=status != 200 or bool(request.args.get("again") or request.args.get("group")),
        **_session_choices(),
    ), status


def _session_choices() -> dict[str, Any]:
    """Return what the new-session form says of each rule system: players, usual target."""
    variants = [variant() for variant in rules.VARIANTS.values()]
    return {
        # The start page's buttons that take a session off this phone's list.
        "button_form": ButtonForm(formdata=None),
        "players_allowed": [
            gettext(
                "%(title)s %(low)s to %(high)s",
                title=variant.label(words.language()),
                low=variant.min_players,
                high=variant.max_players,
            )
            for variant in variants
        ],
        "target_defaults": {variant.name: variant.default_target for variant in variants},
        # The ways each rule system's session can end: the page offers only those.
        "variant_ends": {variant.name: list(variant.end_rule().ends) for variant in variants},
        "usual_targets": [
            f"{variant.label(words.language())} {variant.default_target}" for variant in variants
        ],
    }


@bp.get("/sessions")
def back_to_the_start() -> BaseResponse:
    """Send a reload of the address a refused new session was shown at back to the start."""
    return redirect(url_for("web.home"))


@bp.post("/sessions")
@once_per_form
def create_session() -> Answer:
    """Seat the players, open the session and deal its first game."""
    form = new_session_form()
    groups = services.groups_opened_by(access.held_keys(access.GROUP_KEYS))
    if form.validate_on_submit():
        keys = SessionKeys.new()
        try:
            group = _group_chosen(form, groups)
            session = services.create_session(
                form.player_names(),
                None,
                form.first_dealer(),
                variant=form.variant.data,
                house_rules=form.house_rules(),
                start_first_game=True,
                keys=keys,
                group=group,
            )
        except (*REFUSED, services.NotFoundError) as error:
            store.rollback()
            # Beside the name it is about (two names merged into one person), else above.
            seat = getattr(error, "params", {}).get("seat")
            if isinstance(seat, int) and seat < len(form.names.entries):
                form.names.entries[seat].errors.append(words.rules_message(error))
            else:
                form.form_errors.append(words.rules_message(error))
        else:
            # This browser started the session: it keeps the edit key, and a new group's.
            access.keep_key(session.public_id, keys.edit)
            if isinstance(group, services.NewGroup):
                access.keep_key(group.public_id, group.keys.edit, where=access.GROUP_KEYS)
            return redirect(url_for("web.session_page", public_id=session.public_id))
    mine = services.sessions_opened_by(access.held_keys())
    return _home_page(form, mine, groups, 422)


def _group_chosen(
    form: SessionForm, groups: list[tuple[queries.GroupRow, Access]]
) -> int | services.NewGroup | None:
    """Return the group the new session joins: one whose edit key this phone holds, or new."""
    chosen = str(form.group.data or "")
    if not chosen:
        return None
    if chosen == NEW_GROUP:
        return services.NewGroup(str(form.group_name.data or ""), SessionKeys.new())
    for group, granted in groups:
        if group.public_id == chosen and granted == Access.EDIT:
            return int(group.id)
    raise services.NotFoundError("no_group")


@bp.post("/sessions/<public_id>/keep")
def keep_session(public_id: str) -> BaseResponse:
    """Keep a link's key on this phone on purpose: no link opened later pushes it out.

    The key comes with the form (``access.let_in`` leaves this address alone), since a link's
    key that found no room in the cookie is not there; the CSRF token shows that the person
    tapped the button on this site.
    """
    check_button()
    key = request.form.get("key", "")
    services.access_to_session(public_id, lambda _public_id: key or None, Access.VIEW)
    access.keep_on_purpose(public_id, key)
    flash(gettext("This session is kept on this phone."), "success")
    return redirect(url_for("web.session_page", public_id=public_id))


@bp.post("/sessions/<public_id>/forget")
def forget_session(public_id: str) -> BaseResponse:
    """Take a session off this phone's list; it stays for every other phone with its key."""
    check_button()
    access.forget_key(public_id)
    flash(
        gettext(
            "The session is off this phone's list. It stays for every phone that has its link."
        ),
        "success",
    )
    return redirect(url_for("web.home"))
