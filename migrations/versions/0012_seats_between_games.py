"""seats between games: players join and leave a session between its games

Revision ID: 0012_seats_between_games
Revises: 0011_session_versions
Create Date: 2026-11-24 04:00:00
"""

revision = "0012_seats_between_games"
down_revision = "0011_session_versions"
branch_labels = None
depends_on = None


def upgrade():
    pass


def downgrade():
    pass
