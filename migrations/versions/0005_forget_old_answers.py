"""forget old answers: index idempotency records by age, so the day-old ones are found fast

Revision ID: 0005_forget_old_answers
Revises: 0004_session_keys
Create Date: 2026-11-23 02:15:58

Records of Idempotency-Keys and form tokens are kept for a day; each remembered answer deletes
older ones, a batch at a time. The records that piled up before go here at once. An index and a
delete: no table is rebuilt.
"""

from datetime import datetime, timedelta, timezone

import sqlalchemy as sa
from alembic import op

revision = "0005_forget_old_answers"
down_revision = "0004_session_keys"
branch_labels = None
depends_on = None


def upgrade():
    op.create_index(
        op.f("ix_idempotency_records_created_at"), "idempotency_records", ["created_at"]
    )
    records = sa.table("idempotency_records", sa.column("created_at", sa.DateTime(timezone=True)))
    day_ago = datetime.now(timezone.utc) - timedelta(days=1)
    op.execute(records.delete().where(records.c.created_at < day_ago))


def downgrade():
    op.drop_index(op.f("ix_idempotency_records_created_at"), table_name="idempotency_records")
