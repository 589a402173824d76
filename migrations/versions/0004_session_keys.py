"""session keys: a random public id and the digests of the edit and view keys

Revision ID: 0004_session_keys
Revises: 0003_idempotency_records
Create Date: 2026-11-22 22:30:00

Sessions from before get a random public id and keys that nobody knows: they stay closed until
`scorekeeper keys <public id>` hands out new keys (`scorekeeper keys` lists the sessions).
Columns are added with a server default, so SQLite adds them without rebuilding the table.
"""

import hashlib
import secrets

import sqlalchemy as sa
from alembic import op

revision = "0004_session_keys"
down_revision = "0003_idempotency_records"
branch_labels = None
depends_on = None


def upgrade():
    for column in ("public_id", "edit_key_digest", "view_key_digest"):
        length = 32 if column == "public_id" else 64
        op.add_column(
            "sessions",
            sa.Column(column, sa.String(length), nullable=False, server_default="-"),
        )
    bind = op.get_bind()
    sessions = sa.table(
        "sessions",
        sa.column("id", sa.Integer),
        sa.column("public_id", sa.String),
        sa.column("edit_key_digest", sa.String),
        sa.column("view_key_digest", sa.String),
    )
    for (session_id,) in bind.execute(sa.select(sessions.c.id)).all():
        bind.execute(
            sessions.update()
            .where(sessions.c.id == session_id)
            .values(
                public_id=secrets.token_urlsafe(16),
                edit_key_digest=hashlib.sha256(secrets.token_bytes(32)).hexdigest(),
                view_key_digest=hashlib.sha256(secrets.token_bytes(32)).hexdigest(),
            )
        )
    op.create_index(op.f("ix_sessions_public_id"), "sessions", ["public_id"], unique=True)


def downgrade():
    op.drop_index(op.f("ix_sessions_public_id"), table_name="sessions")
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_column("view_key_digest")
        batch_op.drop_column("edit_key_digest")
        batch_op.drop_column("public_id")
