"""sessions by age: an index on sessions.created_at

Revision ID: 0009_sessions_by_age
Revises: 0008_entry_groups
Create Date: 2026-11-24 00:20:00

Every new session removes the sessions older than a day that never got a game; the index lets
that look at the old sessions only.
"""

from alembic import op

revision = "0009_sessions_by_age"
down_revision = "0008_entry_groups"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("sessions") as batch:
        batch.create_index(batch.f("ix_sessions_created_at"), ["created_at"], unique=False)


def downgrade():
    with op.batch_alter_table("sessions") as batch:
        batch.drop_index(batch.f("ix_sessions_created_at"))
