"""names in NFKC: merged names get keys that ignore the width of letters, and longer columns

Revision ID: 0017_names_in_nfkc
Revises: 0016_target_in_house_rules
Create Date: 2026-11-27 10:00:00

Names are now compared in Unicode's compatibility form (NFKC) besides case and spaces, so a
full-width "Ａｎｎｉ" is "Anni" (``rules.same_name``). ``merged_names.name_key`` and
``same_as_key`` hold that comparison form of each name: they are written again here. In NFKC one
character may become up to 15 (U+FDFA), so the columns hold 600 characters, 15 times a name.

A merge that says nothing NFKC does not say already goes: one whose two names are now one name
("Ｂｏｂ" into "Bob"), or whose names are one person by the group's merges before it ("Anni"
into "Anna" after "Ａｎｎｉ" into "Anna"). The statistics counted by the names, not the keys, and
count the same without them; the unique constraint would refuse them otherwise.

Going back writes the keys as 0013 to 0016 wrote them (composed, case folded) and the columns
hold 120 characters again. The merges that went stay gone: under the old comparison "Ａｎｎｉ"
and "Anni" are two names again, and only the merge kept says which of them is "Anna".
"""

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0017_names_in_nfkc"
down_revision = "0016_target_in_house_rules"
branch_labels = None
depends_on = None


_MERGES = sa.table(
    "merged_names",
    sa.column("id", sa.Integer()),
    sa.column("group_id", sa.Integer()),
    sa.column("name", sa.String()),
    sa.column("same_as", sa.String()),
    sa.column("name_key", sa.String()),
    sa.column("same_as_key", sa.String()),
)


def _nfkc_key(name):
    """Return a name's key as ``rules.same_name`` writes it since this revision (frozen here)."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFD", name).casefold())
    return "".join(unicodedata.normalize("NFKC", folded.casefold()).split())


def _nfc_key(name):
    """Return a name's key as revisions 0013 to 0016 wrote it: composed and case folded."""
    return "".join(
        unicodedata.normalize("NFC", unicodedata.normalize("NFD", name).casefold()).split()
    )


def _write_keys(key_of, keep):
    """Write every merge's keys by ``key_of``; delete those ``keep`` says nothing new."""
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(_MERGES.c.id, _MERGES.c.group_id, _MERGES.c.name, _MERGES.c.same_as).order_by(
            _MERGES.c.group_id, _MERGES.c.id
        )
    ).all()
    kept = []
    parents = {}
    for row in rows:
        parent = parents.setdefault(row.group_id, {})
        if keep(parent, key_of(row.name), key_of(row.same_as)):
            kept.append(row)
        else:
            bind.execute(_MERGES.delete().where(_MERGES.c.id == row.id))
    # Two steps, so that no row takes keys another row still holds (the unique constraint).
    for row in kept:
        bind.execute(
            _MERGES.update()
            .where(_MERGES.c.id == row.id)
            .values(name_key=f"#{row.id}", same_as_key=f"#{row.id}")
        )
    for row in kept:
        bind.execute(
            _MERGES.update()
            .where(_MERGES.c.id == row.id)
            .values(name_key=key_of(row.name), same_as_key=key_of(row.same_as))
        )


def _says_something(parent, name_key, same_as_key):
    """Follow the merges before as ``rules.groups.People`` does; say whether this one merges."""

    def person(key):
        while key in parent:
            key = parent[key]
        return key

    merged, into = person(name_key), person(same_as_key)
    if merged == into:
        return False
    parent[merged] = into
    return True


def upgrade():
    with op.batch_alter_table("merged_names") as batch:
        for column in ("name_key", "same_as_key"):
            batch.alter_column(
                column, existing_type=sa.String(length=120), type_=sa.String(length=600)
            )
    _write_keys(_nfkc_key, _says_something)


def downgrade():
    _write_keys(_nfc_key, lambda parent, name_key, same_as_key: True)
    with op.batch_alter_table("merged_names") as batch:
        for column in ("name_key", "same_as_key"):
            batch.alter_column(
                column, existing_type=sa.String(length=600), type_=sa.String(length=120)
            )
