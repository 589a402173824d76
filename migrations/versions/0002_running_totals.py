"""running totals: players.banked and settlement_lines.meld_points

Revision ID: 0002_running_totals
Revises: 0001_initial
Create Date: 2026-11-22 20:10:00

Totals and per-game points of ended games are kept as they end, so that no request adds up a
whole session's entries. The data step fills them in for games that ended before.
"""

import sqlalchemy as sa
from alembic import op

revision = "0002_running_totals"
down_revision = "0001_initial"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("banked", sa.Integer(), server_default="0", nullable=False))
    with op.batch_alter_table("settlement_lines", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("meld_points", sa.Integer(), server_default="0", nullable=False)
        )
    op.execute(
        """
        UPDATE settlement_lines SET meld_points = COALESCE((
            SELECT SUM(entries.value) FROM entries
            WHERE entries.game_id = settlement_lines.game_id
              AND entries.player_id = settlement_lines.player_id), 0)
        """
    )
    op.execute(
        """
        INSERT INTO settlement_lines (game_id, player_id, factor, gain, meld_points)
        SELECT games.id, players.id, 1, 0, COALESCE((
            SELECT SUM(entries.value) FROM entries
            WHERE entries.game_id = games.id AND entries.player_id = players.id), 0)
        FROM games JOIN players ON players.session_id = games.session_id
        WHERE games.status = 'abandoned'
        """
    )
    op.execute(
        """
        UPDATE players SET banked = COALESCE((
            SELECT SUM(settlement_lines.meld_points + settlement_lines.gain)
            FROM settlement_lines WHERE settlement_lines.player_id = players.id), 0)
        """
    )


def downgrade():
    op.execute(
        """
        DELETE FROM settlement_lines WHERE game_id IN (
            SELECT id FROM games WHERE status = 'abandoned')
        """
    )
    with op.batch_alter_table("settlement_lines", schema=None) as batch_op:
        batch_op.drop_column("meld_points")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_column("banked")
