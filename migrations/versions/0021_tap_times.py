"""tap times: when each entry was tapped on the phone, beside when it reached the server

Revision ID: 0021_tap_times
Revises: 0020_evenings
Create Date: 2026-11-29 23:00:00

A phone that was offline sends its entries minutes after they were played; the history says
when each was played as well as when it arrived. The column is nullable: entries stored before
had no tap time, and a client may send none (or one the server does not keep: docs/api.md).
Going back drops the column; only the tap times are lost, every entry stays as it was.
"""

import sqlalchemy as sa
from alembic import op

revision = "0021_tap_times"
down_revision = "0020_evenings"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("entries", sa.Column("tapped_at", sa.DateTime(timezone=True), nullable=True))


def downgrade():
    # SQLite drops a column in place since 3.35; the table keeps its other columns and rows.
    op.drop_column("entries", "tapped_at")
