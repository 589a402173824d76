"""The time an entry was tapped on the phone, as a write sends it: which the server keeps."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

# A phone's clock may run a little ahead of the server's; more than this, it is wrong.
AHEAD = timedelta(minutes=1)
# Longer than any ISO 8601 time a phone sends; the rest is not read.
LONGEST = 40


def read_tap_time(text: str | None) -> datetime | None:
    """Return the time an ISO 8601 text with its zone gives, or None where it gives none.

    >>> read_tap_time("2026-11-28T17:06:05.120+01:00").isoformat()
    '2026-11-28T16:06:05.120000+00:00'
    >>> read_tap_time("17:06") is None, read_tap_time("2026-11-28T17:06") is None
    (True, True)
    """
    if not text or len(text) > LONGEST:
        return None
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None  # a time without its zone could be any of 25 hours
    return moment.astimezone(UTC)


def tap_time_kept(tapped: datetime | None, now: datetime | None = None) -> datetime | None:
    """Return the tap time to store beside the arrival, or None where it is not kept.

    A time more than a minute ahead of the server's clock is a phone's clock set wrong: the
    entry is still recorded (it was played, and its cards are right), only the time is left out,
    so that the history never says an entry was played after it arrived.

    >>> from datetime import datetime, UTC
    >>> now = datetime(2026, 11, 28, 16, 7, tzinfo=UTC)
    >>> tap_time_kept(datetime(2026, 11, 28, 16, 6, tzinfo=UTC), now).minute
    6
    >>> tap_time_kept(datetime(2026, 11, 28, 16, 9, tzinfo=UTC), now) is None
    True
    """
    if tapped is None:
        return None
    if tapped > (now or datetime.now(UTC)) + AHEAD:
        return None
    return tapped


def tap_time_sent(text: str | None) -> datetime | None:
    """Return the tap time a write sent as text, if it can be read and kept."""
    return tap_time_kept(read_tap_time(text))
