"""The page's language and its small words: rules' messages, points, times, names, files."""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import replace
from datetime import datetime
from urllib.parse import quote, urlsplit

from flask_babel import (
    format_date,
    format_datetime,
    get_locale,
    lazy_gettext,
    ngettext,
    to_user_timezone,
)
from markupsafe import Markup, escape

from scorekeeper import queries, rules, services


def language() -> str:
    """Return the language the page is shown in, e.g. ``de``."""
    return str(get_locale() or "en")


def message_text(message: rules.Message | None) -> str:
    """Return a message of the rules in the page's language (nothing for none)."""
    return message.render(language()) if message is not None else ""


def rules_message(error: Exception) -> str:
    """Return the message of a refused entry for the person at the table, in the page's language."""
    if isinstance(error, rules.RulesError | services.ServiceError):
        return error.message(language())
    return str(error)


def hhmm(moment: datetime | None) -> str:
    """Return the time of day of a moment, e.g. ``20:15``, in the app's time zone."""
    # Babel's "HH:mm" without Babel's pattern machinery: a page shows a time on every entry.
    return "" if moment is None else f"{to_user_timezone(moment):%H:%M}"


def day_and_time(moment: datetime) -> str:
    """Return a moment's date and time in the page's language, e.g. ``22.11.26, 20:15``."""
    return str(format_datetime(moment, "short"))


def points(value: int) -> str:
    """Return a number of points in words, e.g. ``30 points``."""
    return str(ngettext("%(num)s point", "%(num)s points", value))


def signed(value: int) -> str:
    """Return points with their sign, e.g. ``+30``, ``+0``, ``-41``."""
    return f"{value:+d}"


MELD_KINDS = {"set": lazy_gettext("set"), "sequence": lazy_gettext("sequence")}


def meld_kind(kind: str | None) -> str:
    """Return the name of a kind of meld."""
    name = MELD_KINDS.get(kind or "")
    return str(name) if name is not None else kind or ""


def file_name(title: str, day: datetime) -> str:
    """Return a download's name without its ending, in the page's language: ``rommé-26.11.2026``.

    The title and the day as the language writes it, spaces and commas made hyphens.
    """
    sentence = f"{title} {format_date(day, 'medium')}".lower()
    return re.sub(r"[\s,/\\:;\"']+", "-", sentence).strip("-")


def attachment(name: str) -> str:
    """Return a Content-Disposition header saving a file under a name in any writing.

    RFC 6266 with RFC 5987's ``filename*`` for the name itself, and an ASCII ``filename`` for
    the clients that read only that.

    >>> print(attachment("rommé-26.11.2026.csv"))
    attachment; filename="romme-26.11.2026.csv"; filename*=UTF-8''romm%C3%A9-26.11.2026.csv
    """
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    plain = re.sub(r"[^A-Za-z0-9._-]+", "-", plain) or "download"
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(name, safe='')}"


def bdi(name: object) -> Markup:
    """Escape a name and isolate it, so that its writing direction cannot turn the text around.

    A right-to-left name beside a number (``علي 24``) would otherwise take the number into its
    own direction; ``<bdi>`` keeps the name's direction to the name.

    >>> bdi("Ann & <Bob>")
    Markup('<bdi>Ann &amp; &lt;Bob&gt;</bdi>')
    """
    return Markup("<bdi>{}</bdi>").format(name)


def message_html(message: rules.Message) -> Markup:
    """Return a message of the rules as HTML, its ``name`` param isolated as a name (``bdi``)."""
    stand_in = "\x00name\x00"
    text = replace(message, params={**message.params, "name": stand_in})
    return escape(text.render(language())).replace(stand_in, bdi(message.params.get("name", "")))


def safe_next(target: str | None) -> str:
    """Return the target if it is a path on this site, else the home page."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    # A control character (a newline) cannot be in a Location header: it is no path of ours.
    if any(ord(character) < 32 or ord(character) == 127 for character in target):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target


def session_end(session: queries.SessionRow) -> str:
    """Say shortly how a session ends, as a list of sessions does: ``to 500``."""
    return queries.variant_of(session).words.end_said_short().render(language())


def house_rules_in_words(variant: rules.Variant) -> list[str]:
    """Return the rules of a session in words: its rule system, how it ends, its house rules."""
    return list(_house_rules_in_words(variant, language()))


# Every page of a session says its rules: said once per rule system and language.
@functools.lru_cache(maxsize=256)
def _house_rules_in_words(variant: rules.Variant, lang: str) -> tuple[str, ...]:
    return variant.words.rules_said(lang)
