"""audit trail: a line for an entry restored after an undo or a delete

Revision ID: 0015_restored_lines
Revises: 0014_audit_trail
Create Date: 2026-11-26 19:10:00

"Restore", offered for a few seconds after an undo or a delete, records the entry again as a
new entry; the trail keeps a line ``restored`` for it, beside the line of the undo. Only the
check of the known actions changes.

Going back is refused while such lines exist: the old check cannot hold them, and deleting
them would lose what the trail says. Whoever wants to go back regardless deletes them first
(``DELETE FROM audit_lines WHERE action = 'restored'``).
"""

import sqlalchemy as sa
from alembic import op

revision = "0015_restored_lines"
down_revision = "0014_audit_trail"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("audit_lines") as batch:
        batch.drop_constraint(batch.f("ck_audit_lines_action_known"), type_="check")
        batch.create_check_constraint(
            batch.f("ck_audit_lines_action_known"),
            "action IN ('corrected', 'deleted', 'undone', 'restored', 'reopened')",
        )


def downgrade():
    bind = op.get_bind()
    restored = bind.execute(
        sa.text("SELECT count(*) FROM audit_lines WHERE action = 'restored'")
    ).scalar()
    if restored:
        raise RuntimeError(
            "The audit trail holds lines of restored entries; delete them "
            "(DELETE FROM audit_lines WHERE action = 'restored') before going back to 0014."
        )
    with op.batch_alter_table("audit_lines") as batch:
        batch.drop_constraint(batch.f("ck_audit_lines_action_known"), type_="check")
        batch.create_check_constraint(
            batch.f("ck_audit_lines_action_known"),
            "action IN ('corrected', 'deleted', 'undone', 'reopened')",
        )
