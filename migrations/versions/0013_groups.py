"""groups: the people who play together, their sessions and merged names

Revision ID: 0013_groups
Revises: 0012_seats_between_games
Create Date: 2026-11-24 04:00:00

A group (a Spielrunde) has a random public id and the digests of an edit and a view key, as a
session has, and a name. A session may belong to one group (``sessions.group_id``, empty for
every session stored before). ``merged_names`` says which names of a group's players name one
person. SQLite adds the foreign key by rebuilding the sessions table (batch mode).

Going back is refused while a group exists: the groups, the sessions they hold, their merged
names and the keys phones keep for them would be lost, and nothing could bring them back.
Without groups nothing is lost, and the tables go.
"""

import sqlalchemy as sa
from alembic import op

revision = "0013_groups"
down_revision = "0012_seats_between_games"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "groups",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=32), nullable=False),
        sa.Column("edit_key_digest", sa.String(length=64), nullable=False),
        sa.Column("view_key_digest", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_groups")),
    )
    with op.batch_alter_table("groups") as batch:
        batch.create_index(batch.f("ix_groups_public_id"), ["public_id"], unique=True)
        batch.create_index(batch.f("ix_groups_created_at"), ["created_at"], unique=False)
    op.create_table(
        "merged_names",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("same_as", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=120), nullable=False),
        sa.Column("same_as_key", sa.String(length=120), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"], ["groups.id"], name=op.f("fk_merged_names_group_id_groups")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_merged_names")),
        sa.UniqueConstraint(
            "group_id",
            "name_key",
            "same_as_key",
            name=op.f("uq_merged_names_group_id_name_key_same_as_key"),
        ),
    )
    with op.batch_alter_table("merged_names") as batch:
        batch.create_index(batch.f("ix_merged_names_group_id"), ["group_id"], unique=False)
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("group_id", sa.Integer(), nullable=True))
        batch.create_index(batch.f("ix_sessions_group_id"), ["group_id"], unique=False)
        batch.create_foreign_key(
            batch.f("fk_sessions_group_id_groups"), "groups", ["group_id"], ["id"]
        )


def downgrade():
    bind = op.get_bind()
    # Groups hold which sessions belong together, merged names and keys phones keep: refuse
    # rather than lose them.
    groups = bind.execute(sa.text("SELECT count(*) FROM groups")).scalar()
    if groups:
        raise RuntimeError(
            "Groups of players are stored (the sessions they play together, merged names); "
            "remove them before going back to revision 0012."
        )
    with op.batch_alter_table("sessions") as batch:
        batch.drop_constraint(batch.f("fk_sessions_group_id_groups"), type_="foreignkey")
        batch.drop_index(batch.f("ix_sessions_group_id"))
        batch.drop_column("group_id")
    with op.batch_alter_table("merged_names") as batch:
        batch.drop_index(batch.f("ix_merged_names_group_id"))
    op.drop_table("merged_names")
    with op.batch_alter_table("groups") as batch:
        batch.drop_index(batch.f("ix_groups_created_at"))
        batch.drop_index(batch.f("ix_groups_public_id"))
    op.drop_table("groups")
