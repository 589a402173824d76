"""audit trail: every correction, delete, undo and reopen kept with its time

Revision ID: 0014_audit_trail
Revises: 0013_groups
Create Date: 2026-11-24 04:00:00
"""

revision = "0014_audit_trail"
down_revision = "0013_groups"
branch_labels = None
depends_on = None


def upgrade():
    pass


def downgrade():
    pass
