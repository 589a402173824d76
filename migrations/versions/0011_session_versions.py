"""session versions: a counter of the changes to a session, for watching phones

Revision ID: 0011_session_versions
Revises: 0010_two_packs_and_jokers
Create Date: 2026-11-24 01:50:00

Every change to a session or its games counts one up in the same transaction. A phone that
watches asks with the version it has (an ETag) and gets 304 from one indexed read while
nothing changed. Existing sessions start at 0.
"""

import sqlalchemy as sa
from alembic import op

revision = "0011_session_versions"
down_revision = "0010_two_packs_and_jokers"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="0"))


def downgrade():
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("version")
