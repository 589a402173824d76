"""groups: the people who play together, their sessions and merged names

Revision ID: 0013_groups
Revises: 0012_seats_between_games
Create Date: 2026-11-24 04:00:00
"""

revision = "0013_groups"
down_revision = "0012_seats_between_games"
branch_labels = None
depends_on = None


def upgrade():
    pass


def downgrade():
    pass
