"""audit trail: every correction, delete, undo and reopen kept with its time

Revision ID: 0014_audit_trail
Revises: 0013_groups
Create Date: 2026-11-24 04:00:00

One line per change of a game after the fact: ``action`` says which (corrected, deleted,
undone, reopened), ``before`` and ``after`` hold as JSON text the entry as it was and as it
became (its kind, cards, player, the meld it lay on, its value), for a reopen the result that
was taken back (winner, Rommé, hands, points). The points are never read from it. Games
stored before have no lines: their changes were not kept.

Going back is refused while lines exist: the trail of those games would be lost, and nothing
could bring it back. Whoever wants to go back regardless deletes them first
(``DELETE FROM audit_lines``); without lines the table goes.
"""

import sqlalchemy as sa
from alembic import op

revision = "0014_audit_trail"
down_revision = "0013_groups"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "audit_lines",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("action", sa.String(length=10), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=True),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=10), nullable=True),
        sa.Column("before", sa.Text(), nullable=False),
        sa.Column("after", sa.Text(), nullable=True),
        sa.CheckConstraint(
            "action IN ('corrected', 'deleted', 'undone', 'reopened')",
            name=op.f("ck_audit_lines_action_known"),
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_audit_lines_game_id_games")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_audit_lines_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_lines")),
    )
    with op.batch_alter_table("audit_lines") as batch:
        batch.create_index(batch.f("ix_audit_lines_game_id"), ["game_id"], unique=False)


def downgrade():
    bind = op.get_bind()
    # The trail is the only record of what was corrected, deleted, undone or reopened: refuse
    # rather than lose it.
    lines = bind.execute(sa.text("SELECT count(*) FROM audit_lines")).scalar()
    if lines:
        raise RuntimeError(
            f"{lines} lines of the audit trail are stored (corrections, deletes, undos and "
            "reopens); going back to revision 0013 would lose them. Delete them first "
            "(DELETE FROM audit_lines) if they may go."
        )
    with op.batch_alter_table("audit_lines") as batch:
        batch.drop_index(batch.f("ix_audit_lines_game_id"))
    op.drop_table("audit_lines")
