"""evenings: club evenings, their series and the tables (sessions) of each series

Revision ID: 0020_evenings
Revises: 0018_recomputed_lines
Create Date: 2026-11-29 10:00:00

An evening has a random public id and the digests of an edit and a view key, as a session has,
a name, one rule system with its house rules, its players (a JSON list), how many series it has
and how each ends (games or minutes: exactly one), the table size, how later series are seated,
whether tables of 2 are allowed, and the group whose season it counts in. Each series keeps the
seed that drew it and when its first game was dealt; each table of a series is a session.
Nothing stored before changes.

Going back is refused while an evening exists: its series, which sessions are its tables and
the ranking over them would be lost. Without evenings the tables go.
"""

import sqlalchemy as sa
from alembic import op

revision = "0020_evenings"
down_revision = "0018_recomputed_lines"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "evenings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=32), nullable=False),
        sa.Column("edit_key_digest", sa.String(length=64), nullable=False),
        sa.Column("view_key_digest", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("variant", sa.String(length=40), nullable=False),
        sa.Column("house_rules", sa.Text(), nullable=False),
        sa.Column("players", sa.Text(), nullable=False),
        sa.Column("series", sa.Integer(), nullable=False),
        sa.Column("games_per_series", sa.Integer(), nullable=True),
        sa.Column("minutes_per_series", sa.Integer(), nullable=True),
        sa.Column("table_size", sa.Integer(), nullable=False),
        sa.Column("seating", sa.String(length=10), nullable=False),
        sa.Column("small_tables", sa.Boolean(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "seating IN ('standing', 'drawn')", name=op.f("ck_evenings_seating_known")
        ),
        sa.CheckConstraint(
            "(games_per_series IS NULL) <> (minutes_per_series IS NULL)",
            name=op.f("ck_evenings_one_series_end"),
        ),
        sa.ForeignKeyConstraint(
            ["group_id"], ["groups.id"], name=op.f("fk_evenings_group_id_groups")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_evenings")),
    )
    with op.batch_alter_table("evenings") as batch:
        batch.create_index(batch.f("ix_evenings_public_id"), ["public_id"], unique=True)
        batch.create_index(batch.f("ix_evenings_group_id"), ["group_id"], unique=False)
    op.create_table(
        "evening_series",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("evening_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("drawn", sa.Boolean(), nullable=False),
        sa.Column("seated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["evening_id"], ["evenings.id"], name=op.f("fk_evening_series_evening_id_evenings")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_evening_series")),
        sa.UniqueConstraint(
            "evening_id", "number", name=op.f("uq_evening_series_evening_id_number")
        ),
    )
    with op.batch_alter_table("evening_series") as batch:
        batch.create_index(batch.f("ix_evening_series_evening_id"), ["evening_id"], unique=False)
    op.create_table(
        "evening_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("series_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["series_id"],
            ["evening_series.id"],
            name=op.f("fk_evening_tables_series_id_evening_series"),
        ),
        sa.ForeignKeyConstraint(
            ["session_id"], ["sessions.id"], name=op.f("fk_evening_tables_session_id_sessions")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_evening_tables")),
        sa.UniqueConstraint("series_id", "number", name=op.f("uq_evening_tables_series_id_number")),
        sa.UniqueConstraint("session_id", name=op.f("uq_evening_tables_session_id")),
    )
    with op.batch_alter_table("evening_tables") as batch:
        batch.create_index(batch.f("ix_evening_tables_series_id"), ["series_id"], unique=False)


def downgrade():
    bind = op.get_bind()
    # An evening holds which sessions are its tables and the ranking over them: refuse rather
    # than lose it.
    evenings = bind.execute(sa.text("SELECT count(*) FROM evenings")).scalar()
    if evenings:
        raise RuntimeError(
            "Club evenings are stored (their series, tables and ranking); remove them before "
            "going back to revision 0018."
        )
    op.drop_table("evening_tables")
    op.drop_table("evening_series")
    op.drop_table("evenings")
