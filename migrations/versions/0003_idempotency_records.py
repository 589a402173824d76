"""idempotency records

Revision ID: 0003_idempotency_records
Revises: 0002_running_totals
Create Date: 2026-11-22 20:51:48.570568

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0003_idempotency_records'
down_revision = '0002_running_totals'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('idempotency_records',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=200), nullable=False),
    sa.Column('request', sa.String(length=64), nullable=False),
    sa.Column('status', sa.Integer(), nullable=True),
    sa.Column('body', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_idempotency_records')),
    sa.UniqueConstraint('key', name=op.f('uq_idempotency_records_key'))
    )


def downgrade():
    op.drop_table('idempotency_records')
