"""audit trail: a line for a game an import settled again by today's rules

Revision ID: 0018_recomputed_lines
Revises: 0017_names_in_nfkc
Create Date: 2026-11-27 10:30:00

An import recomputes every settlement by the rules; a game booked before a ruling that changed
what it is worth (a Rommé hand of fewer cards than dealt) is booked again by today's rules, and
its trail keeps a line ``recomputed`` with the booking the document held and the one made. Only
the check of the known actions changes.

Going back is refused while such lines exist, as for 0015: the old check cannot hold them, and
deleting them would lose what the trail says (``DELETE FROM audit_lines WHERE action =
'recomputed'`` first, to go back regardless).
"""

import sqlalchemy as sa
from alembic import op

revision = "0018_recomputed_lines"
down_revision = "0017_names_in_nfkc"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("audit_lines") as batch:
        batch.drop_constraint(batch.f("ck_audit_lines_action_known"), type_="check")
        batch.create_check_constraint(
            batch.f("ck_audit_lines_action_known"),
            "action IN ('corrected', 'deleted', 'undone', 'restored', 'reopened', 'recomputed')",
        )


def downgrade():
    bind = op.get_bind()
    recomputed = bind.execute(
        sa.text("SELECT count(*) FROM audit_lines WHERE action = 'recomputed'")
    ).scalar()
    if recomputed:
        raise RuntimeError(
            "The audit trail holds lines of games recomputed by an import; delete them "
            "(DELETE FROM audit_lines WHERE action = 'recomputed') before going back to 0017."
        )
    with op.batch_alter_table("audit_lines") as batch:
        batch.drop_constraint(batch.f("ck_audit_lines_action_known"), type_="check")
        batch.create_check_constraint(
            batch.f("ck_audit_lines_action_known"),
            "action IN ('corrected', 'deleted', 'undone', 'restored', 'reopened')",
        )
