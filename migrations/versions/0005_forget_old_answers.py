"""forget old answers: index idempotency records by age, so the day-old ones are found fast

Revision ID: 0005_forget_old_answers
Revises: 0004_session_keys
Create Date: 2026-11-23 02:15:58

Records of Idempotency-Keys and form tokens are kept for a day; each remembered answer deletes
the older ones. An index only: no table is rebuilt.
"""

from alembic import op

revision = "0005_forget_old_answers"
down_revision = "0004_session_keys"
branch_labels = None
depends_on = None


def upgrade():
    op.create_index(
        op.f("ix_idempotency_records_created_at"), "idempotency_records", ["created_at"]
    )


def downgrade():
    op.drop_index(op.f("ix_idempotency_records_created_at"), table_name="idempotency_records")
