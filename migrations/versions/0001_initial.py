"""sessions, players, games, entries, table cards, settlement lines

Revision ID: 0001_initial
Revises: 
Create Date: 2026-11-22 19:36:39.862520

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0001_initial'
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('sessions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('variant', sa.String(length=40), nullable=False),
    sa.Column('target', sa.Integer(), nullable=False),
    sa.Column('first_dealer_seat', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("status IN ('open', 'finished')", name=op.f('ck_sessions_status_known')),
    sa.CheckConstraint('target >= 1', name=op.f('ck_sessions_target_positive')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sessions'))
    )
    op.create_table('players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.ForeignKeyConstraint(['session_id'], ['sessions.id'], name=op.f('fk_players_session_id_sessions')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_players')),
    sa.UniqueConstraint('session_id', 'name', name=op.f('uq_players_session_id_name')),
    sa.UniqueConstraint('session_id', 'seat', name=op.f('uq_players_session_id_seat'))
    )
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_players_session_id'), ['session_id'], unique=False)

    op.create_table('games',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('dealer_id', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('winner_id', sa.Integer(), nullable=True),
    sa.Column('romme', sa.Boolean(), nullable=True),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("status IN ('open', 'finished', 'abandoned')", name=op.f('ck_games_status_known')),
    sa.ForeignKeyConstraint(['dealer_id'], ['players.id'], name=op.f('fk_games_dealer_id_players')),
    sa.ForeignKeyConstraint(['session_id'], ['sessions.id'], name=op.f('fk_games_session_id_sessions')),
    sa.ForeignKeyConstraint(['winner_id'], ['players.id'], name=op.f('fk_games_winner_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_games')),
    sa.UniqueConstraint('session_id', 'number', name=op.f('uq_games_session_id_number'))
    )
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_games_session_id'), ['session_id'], unique=False)

    op.create_table('entries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('meld_id', sa.Integer(), nullable=True),
    sa.Column('meld_kind', sa.String(length=10), nullable=True),
    sa.Column('value', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("kind IN ('meld', 'layoff')", name=op.f('ck_entries_kind_known')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_entries_game_id_games')),
    sa.ForeignKeyConstraint(['meld_id'], ['entries.id'], name=op.f('fk_entries_meld_id_entries')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_entries_player_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_entries')),
    sa.UniqueConstraint('game_id', 'position', name=op.f('uq_entries_game_id_position'))
    )
    with op.batch_alter_table('entries', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_entries_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_entries_meld_id'), ['meld_id'], unique=False)

    op.create_table('settlement_lines',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('hand', sa.String(length=200), nullable=True),
    sa.Column('hand_points', sa.Integer(), nullable=True),
    sa.Column('factor', sa.Integer(), nullable=False),
    sa.Column('gain', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_settlement_lines_game_id_games')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_settlement_lines_player_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_settlement_lines')),
    sa.UniqueConstraint('game_id', 'player_id', name=op.f('uq_settlement_lines_game_id_player_id'))
    )
    with op.batch_alter_table('settlement_lines', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_settlement_lines_game_id'), ['game_id'], unique=False)

    op.create_table('table_cards',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('entry_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('card', sa.String(length=4), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('value', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['entry_id'], ['entries.id'], name=op.f('fk_table_cards_entry_id_entries')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_table_cards_game_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_table_cards')),
    sa.UniqueConstraint('game_id', 'card', name=op.f('uq_table_cards_game_id_card'))
    )
    with op.batch_alter_table('table_cards', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_table_cards_entry_id'), ['entry_id'], unique=False)



def downgrade():
    with op.batch_alter_table('table_cards', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_table_cards_entry_id'))

    op.drop_table('table_cards')
    with op.batch_alter_table('settlement_lines', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_settlement_lines_game_id'))

    op.drop_table('settlement_lines')
    with op.batch_alter_table('entries', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_entries_meld_id'))
        batch_op.drop_index(batch_op.f('ix_entries_game_id'))

    op.drop_table('entries')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_session_id'))

    op.drop_table('games')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_players_session_id'))

    op.drop_table('players')
    op.drop_table('sessions')
