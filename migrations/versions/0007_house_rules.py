"""house rules belong to a session: a JSON column of them, and no target for other endings

Revision ID: 0007_house_rules
Revises: 0006_entry_ids_never_reused
Create Date: 2026-11-23 23:30:00

A session now keeps the house rules its table chose (how it ends, R5's doubling, ...) as a
JSON object in ``sessions.house_rules``. Sessions stored before have none: they read as their
rule system's defaults with the target they were played to, which is today's Treppenrommé.
``target`` stays, filled for a session that ends at a target, and becomes empty for one that
ends after a number of games (or at a limit): the check ``target >= 1`` lets an empty one pass.
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_house_rules"
down_revision = "0006_entry_ids_never_reused"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("house_rules", sa.Text(), nullable=True))
        batch.alter_column("target", existing_type=sa.Integer(), nullable=True)


def downgrade():
    # The code before this revision plays Treppenrommé only: another rule system's sessions
    # would break every page of theirs. Refuse rather than leave them unreadable.
    others = op.get_bind().execute(
        sa.text("SELECT count(*) FROM sessions WHERE variant != 'treppenromme'")
    ).scalar()
    if others:
        raise RuntimeError(
            f"{others} sessions are played by another rule system than Treppenrommé: "
            "export them (scorekeeper export) and remove them before going back."
        )
    # A Treppenrommé session of a number of games has no target to go back to: it gets the
    # usual target (500), the nearest thing the old schema can hold.
    op.execute("UPDATE sessions SET target = 500 WHERE target IS NULL")
    with op.batch_alter_table("sessions") as batch:
        batch.alter_column("target", existing_type=sa.Integer(), nullable=False)
        batch.drop_column("house_rules")
