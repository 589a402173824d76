"""seats between games: players join and leave a session between its games

Revision ID: 0012_seats_between_games
Revises: 0011_session_versions
Create Date: 2026-11-24 04:00:00

A player says at which games they sat at the table: ``joined_game``, the number of the first
game dealt with them, and ``left_game``, of the first dealt without them (empty while they sit
there). A game's players are those who sat at the table when it was dealt, so finished games
keep theirs. A player who left keeps their seat in the order. Existing players joined at the
first game and never left.
"""

import sqlalchemy as sa
from alembic import op

revision = "0012_seats_between_games"
down_revision = "0011_session_versions"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("joined_game", sa.Integer(), nullable=False, server_default="1"))
        batch.add_column(sa.Column("left_game", sa.Integer(), nullable=True))
        batch.create_check_constraint(
            batch.f("ck_players_plays_a_game"),
            "joined_game >= 1 AND (left_game IS NULL OR left_game > joined_game)",
        )


def downgrade():
    bind = op.get_bind()
    # Without these columns every player plays every game: a player who joined later would
    # appear in the games before, one who left in the games after. Refuse rather than change
    # what finished games say.
    changed = bind.execute(
        sa.text("SELECT count(*) FROM players WHERE joined_game <> 1 OR left_game IS NOT NULL")
    ).scalar()
    if changed:
        raise RuntimeError(
            "Sessions are stored in which players joined or left between games; "
            "remove them before going back to revision 0011."
        )
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint(batch.f("ck_players_plays_a_game"), type_="check")
        batch.drop_column("left_game")
        batch.drop_column("joined_game")
