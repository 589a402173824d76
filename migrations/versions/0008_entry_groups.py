"""several melds as one entry: entries.group_id names the entry a meld was recorded with

Revision ID: 0008_entry_groups
Revises: 0007_house_rules
Create Date: 2026-11-23 23:50:00

A player may put down several melds in one go and the recorder records them as one entry (in
German Rummy the opening must be so). Each meld keeps its own row, so that layoffs name it as
before; the second and later melds of such an entry name the first in ``group_id``. Existing
rows have none: each of them is an entry of its own, as before. SQLite adds the foreign key
by rebuilding the table, keeping its AUTOINCREMENT (0006).
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_entry_groups"
down_revision = "0007_house_rules"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table(
        "entries", table_kwargs={"sqlite_autoincrement": True}
    ) as batch:
        batch.add_column(sa.Column("group_id", sa.Integer(), nullable=True))
        batch.create_index(batch.f("ix_entries_group_id"), ["group_id"], unique=False)
        batch.create_foreign_key(
            batch.f("fk_entries_group_id_entries"), "entries", ["group_id"], ["id"]
        )


def downgrade():
    # Going back, each meld of a grouped entry becomes an entry of its own.
    with op.batch_alter_table(
        "entries", table_kwargs={"sqlite_autoincrement": True}
    ) as batch:
        batch.drop_constraint(batch.f("fk_entries_group_id_entries"), type_="foreignkey")
        batch.drop_index(batch.f("ix_entries_group_id"))
        batch.drop_column("group_id")
