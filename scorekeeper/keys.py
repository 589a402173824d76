"""Edit and view keys of a session: whoever holds the edit key records, the view key only reads.

Only digests of the keys are stored. The view key is derived from the edit key, so a phone with
the edit link can always show the view-only link for the others.
"""

from __future__ import annotations

import base64
import enum
import hashlib
import hmac
import secrets
from dataclasses import dataclass

# Longer keys than this are not ours: refuse them before hashing what a stranger sent.
LONGEST_KEY = 200


class Access(enum.IntEnum):
    """What a key may do in a session."""

    NONE = 0
    VIEW = 1
    EDIT = 2


@dataclass(frozen=True)
class SessionKeys:
    """The two keys of a session, as handed out once when it is created."""

    edit: str
    view: str

    @classmethod
    def new(cls) -> SessionKeys:
        """Return fresh keys with 192 random bits in the edit key."""
        return cls.from_edit_key(secrets.token_urlsafe(24))

    @classmethod
    def from_edit_key(cls, edit: str) -> SessionKeys:
        """Return the keys that belong to an edit key.

        >>> keys = SessionKeys.from_edit_key("secret")
        >>> keys.view == SessionKeys.from_edit_key("secret").view != "secret"
        True
        """
        mac = hmac.new(edit.encode(), b"view key", hashlib.sha256).digest()
        return cls(edit=edit, view=base64.urlsafe_b64encode(mac).decode()[:32])

    def table(self, series: int, table: int) -> SessionKeys:
        """Return the keys of a table of an evening with these keys: derived from its edit key.

        Whoever holds the evening's edit key can always hand out each table's edit key, and
        only the digests are stored, as for any session.

        >>> evening = SessionKeys.from_edit_key("secret")
        >>> evening.table(1, 2) == evening.table(1, 2) != evening.table(2, 1)
        True
        >>> evening.table(1, 2).edit == evening.edit
        False
        """
        label = f"series {series} table {table}".encode()
        mac = hmac.new(self.edit.encode(), label, hashlib.sha256).digest()
        return SessionKeys.from_edit_key(base64.urlsafe_b64encode(mac).decode()[:32])

    def has_view_key(self, key: str) -> bool:
        """Say whether a key is the view key of these keys (the app derives every view key).

        >>> keys = SessionKeys.from_edit_key("secret")
        >>> keys.has_view_key(keys.view), keys.has_view_key("secret")
        (True, False)
        """
        return hmac.compare_digest(self.view.encode(), key.encode())

    @property
    def edit_digest(self) -> str:
        """Return what is stored of the edit key."""
        return digest(self.edit)

    @property
    def view_digest(self) -> str:
        """Return what is stored of the view key."""
        return digest(self.view)


def digest(key: str) -> str:
    """Return the SHA-256 of a key in hex; keys are random, so no slow hash is needed."""
    return hashlib.sha256(key.encode(errors="replace")).hexdigest()


def access(key: str | None, edit_digest: str, view_digest: str) -> Access:
    """Return what a key may do in a session with these stored digests.

    >>> keys = SessionKeys.new()
    >>> [access(k, keys.edit_digest, keys.view_digest).name for k in (keys.edit, keys.view, "x")]
    ['EDIT', 'VIEW', 'NONE']
    """
    if not key or len(key) > LONGEST_KEY:
        return Access.NONE
    given = digest(key)
    # Compare both always and in constant time, so timing tells nothing about either key.
    is_edit = hmac.compare_digest(given, edit_digest)
    is_view = hmac.compare_digest(given, view_digest)
    if is_edit:
        return Access.EDIT
    return Access.VIEW if is_view else Access.NONE


def new_public_id() -> str:
    """Return a session id for addresses: 128 random bits, so it cannot be guessed."""
    while True:
        # One in 64 would start with "-", which a command line takes for an option.
        public_id = secrets.token_urlsafe(16)
        if not public_id.startswith("-"):
            return public_id
