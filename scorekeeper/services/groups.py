"""Use cases of groups, the people who play together: start one, let a key in, merge names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from scorekeeper.keys import Access, SessionKeys, access, new_public_id
from scorekeeper.rules.groups import People, Seat, group_name, name_key
from scorekeeper.store import (
    GroupRow,
    MergeRow,
    NotFoundError,
    SessionRow,
    UnitOfWork,
    unit_of_work,
    write_use_case,
)


@dataclass(frozen=True)
class NewGroup:
    """A group to start: its name, its keys (only their digests are kept) and its public id."""

    name: str
    keys: SessionKeys
    public_id: str = field(default_factory=new_public_id)


@write_use_case
def create_group(name: str, keys: SessionKeys) -> GroupRow:
    """Start a group of people who play together; only the digests of ``keys`` are kept."""
    with unit_of_work() as uow:
        group = add_group(uow, NewGroup(name, keys))
        uow.commit()
    return group


def add_group(uow: UnitOfWork, new: NewGroup) -> GroupRow:
    """Add a group to the transaction (with its id), for a use case that commits it."""
    name = group_name(new.name)
    uow.groups.forget_never_played()
    return uow.groups.add(new.public_id, name, new.keys)


def access_to_group(
    public_id: str, key: str | None, need: Access = Access.VIEW, *, reads_only: bool = False
) -> tuple[GroupRow, Access]:
    """Return the group behind a public id and what the key may do there.

    A missing group and a key that may not do ``need`` are the same NotFoundError. A request
    that only reads (``reads_only``) asks for no write lock, as a session's (``services.access``):
    the statistics it reads next must not keep every table waiting.
    """
    group = unit_of_work().groups.find(public_id, reads_only=reads_only)
    granted = Access.NONE
    if group is not None:
        granted = access(key, group.edit_key_digest, group.view_key_digest)
    if group is None or granted < need:
        raise NotFoundError("no_group")
    return group, granted


def groups_opened_by(held: Mapping[str, str]) -> list[tuple[GroupRow, Access]]:
    """Return the groups these keys (group id: key) open and what each key may do, newest first."""
    if not held:
        return []
    opened = [
        (group, access(held[group.public_id], group.edit_key_digest, group.view_key_digest))
        for group in unit_of_work().groups.opened_by(held)
    ]
    return [(group, granted) for group, granted in opened if granted]


def session_through_group(public_id: str, held: Mapping[str, str]) -> SessionRow | None:
    """Return a session that a group key held here opens to watch: a session of that group.

    None when the session is in no group, or in one whose key is not held.
    """
    if not held:
        return None
    found = unit_of_work().groups.session_through(public_id)
    if found is None:
        return None
    session, group = found
    key = held.get(group.group_public_id)
    digests = group.group_edit_key_digest, group.group_view_key_digest
    if key is None or not access(key, *digests):
        return None
    return session


@write_use_case
def merge_names(group_id: int, name: str, same_as: str) -> list[MergeRow]:
    """Count two names of a group's players as one person ("Anni" is "Anna"); return the merges.

    The rules refuse names nobody of the group played under, names that are one already, and
    two people who sat at the same session.
    """
    with unit_of_work() as uow:
        # PostgreSQL: merges of one group wait for each other (SQLite's write lock does it there).
        uow.groups.lock(group_id)
        merges = uow.groups.merges(group_id)
        seats = [
            Seat(row.public_id, row.name, bool(row.dealt)) for row in uow.groups.seats(group_id)
        ]
        people = People((merge.name, merge.same_as) for merge in merges)
        name, same_as = people.check_merge(name, same_as, seats)
        merged = uow.groups.merge(group_id, name, same_as, (name_key(name), name_key(same_as)))
        uow.commit()
    return [*merges, merged]


def check_players_in_group(uow: UnitOfWork, group_id: int | None, names: Sequence[str]) -> None:
    """Refuse a session's players of whom two are one person by the group's merges.

    ``names`` are all the session's players, the new or renamed one last. The group's row is
    read for share (PostgreSQL): a merge of the group waits until the session is written.
    """
    if group_id is None:
        return
    uow.groups.lock(group_id, share=True)
    merges = uow.groups.merges(group_id)
    if merges:
        People((merge.name, merge.same_as) for merge in merges).check_players(names)
