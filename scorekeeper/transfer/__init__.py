"""Export every session as one JSON document, and import such a document into an empty database.

The document keeps every id and every time (ISO 8601, UTC), so that exporting what an import
wrote gives the same document again. Sessions keep their public ids and the digests of their
keys, so the links and keys handed out before still open them (version 2; version 1 had
neither), the house rules their table chose (version 3; a version 2 session has none and
reads as its rule system's defaults with its target), each game's audit trail (version 4;
a game of an earlier version has none), the groups the sessions belong to with their
merged names (version 5; before, no session had a group), and what two packs, jokers, swaps,
entries of several melds and players joining or leaving between games need (version 6: a
card's ``copy`` and what a joker ``stands_for``, an entry's ``group_id`` and the kind
``swap``, a player's ``joined_game`` and ``left_game``; before, every card lay once, no
entry was grouped, and every player sat at the table from the first game), and when each
entry was tapped on the phone that recorded it (version 7: an entry's ``tapped_at``, null
where no time was kept; before, none was)::

    {"format": "treppenromme-scorekeeper", "version": 7,
     "groups": [{"id", "public_id", "edit_key_digest", "view_key_digest", "name", "created_at",
                 "merges": [{"id", "name", "same_as", "name_key", "same_as_key",
                             "created_at"}]}],
     "sessions": [
        {"id", "public_id", "edit_key_digest", "view_key_digest",
         "variant", "target", "house_rules", "first_dealer_seat", "status", "created_at",
         "group_id",
         "players": [{"id", "seat", "name", "banked", "joined_game", "left_game"}],
         "games": [{"id", "number", "dealer_id", "status", "winner_id", "romme",
                    "started_at", "ended_at",
                    "entries": [{"id", "position", "kind", "player_id", "meld_id", "meld_kind",
                                 "value", "created_at", "group_id", "tapped_at",
                                 "cards": [{"id", "code", "position", "value", "copy",
                                            "stands_for"}]}],
                    "settlement_lines": [{"id", "player_id", "hand", "hand_points", "factor",
                                          "gain", "meld_points"}],
                    "audit_lines": [{"id", "at", "action", "entry_id", "player_id", "kind",
                                     "before", "after"}]}]}]}

An import takes in only what the app itself could have written, since every read and page
trusts what is stored: names as the API checks them, times from 1970 to 2199, seats and the
first dealer of the tables the rule system allows, games numbered from 1 with only the latest
open, public ids and digests of the app's form (each digest once), audit lines of
``write_line``'s shape, and each game's entries replayed by the rules core under the session's
rule system with their values as the rules write them, each card a copy the packs hold, every
ended game settled again by the rules to what the document booked, the totals their sum and
the session's status the standing's, and each group's merges as its rules take them: no merge
of names that are one person already, and no session where two names of one person sit (a
merge keeps them from one table). Whatever is refused is named by its place in the document. A
game booked before a ruling that changed what it is worth (``rules.RULINGS_SINCE``) is booked
by today's rules, with an audit line ``recomputed``.
"""

from scorekeeper.transfer.document import (
    FORMAT,
    VERSION,
    DatabaseNotEmptyError,
    MalformedDocumentError,
    TransferError,
    UnknownFormatError,
)
from scorekeeper.transfer.export import dumps, export_sessions, loads
from scorekeeper.transfer.importing import import_sessions

__all__ = [
    "FORMAT",
    "VERSION",
    "DatabaseNotEmptyError",
    "MalformedDocumentError",
    "TransferError",
    "UnknownFormatError",
    "dumps",
    "export_sessions",
    "import_sessions",
    "loads",
]
