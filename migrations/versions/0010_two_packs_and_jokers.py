"""two packs and jokers (German Rummy): card copies, what a joker stands for, joker swaps

Revision ID: 0010_two_packs_and_jokers
Revises: 0009_sessions_by_age
Create Date: 2026-11-24 01:40:00

German Rummy is played with two packs and six jokers (G8): a card may lie twice in a game, so
``table_cards`` numbers the copies and the game holds each copy once. A joker's row says what
it stands for. A joker swap (G4) is an entry of its own kind. Existing rows are the first copy
of their card, and hold no jokers.
"""

import sqlalchemy as sa
from alembic import op

revision = "0010_two_packs_and_jokers"
down_revision = "0009_sessions_by_age"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("table_cards") as batch:
        batch.add_column(sa.Column("copy", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("stands_for", sa.String(length=4), nullable=True))
        batch.drop_constraint(batch.f("uq_table_cards_game_id_card"), type_="unique")
        batch.create_unique_constraint(
            batch.f("uq_table_cards_game_id_card_copy"), ["game_id", "card", "copy"]
        )
        batch.create_check_constraint(batch.f("ck_table_cards_copy_counted"), "copy >= 0")
    with op.batch_alter_table("entries", table_kwargs={"sqlite_autoincrement": True}) as batch:
        batch.drop_constraint(batch.f("ck_entries_kind_known"), type_="check")
        batch.create_check_constraint(
            batch.f("ck_entries_kind_known"), "kind IN ('meld', 'layoff', 'swap')"
        )


def downgrade():
    bind = op.get_bind()
    # One pack and no jokers cannot hold what two packs recorded: refuse rather than lose it.
    two_packs = bind.execute(
        sa.text("SELECT count(*) FROM table_cards WHERE copy > 0 OR card = 'JKR'")
    ).scalar()
    swaps = bind.execute(sa.text("SELECT count(*) FROM entries WHERE kind = 'swap'")).scalar()
    if two_packs or swaps:
        raise RuntimeError(
            "German Rummy games with second copies, jokers or joker swaps are stored; "
            "remove them before going back to revision 0009."
        )
    with op.batch_alter_table("entries", table_kwargs={"sqlite_autoincrement": True}) as batch:
        batch.drop_constraint(batch.f("ck_entries_kind_known"), type_="check")
        batch.create_check_constraint(
            batch.f("ck_entries_kind_known"), "kind IN ('meld', 'layoff')"
        )
    with op.batch_alter_table("table_cards") as batch:
        batch.drop_constraint(batch.f("ck_table_cards_copy_counted"), type_="check")
        batch.drop_constraint(batch.f("uq_table_cards_game_id_card_copy"), type_="unique")
        batch.create_unique_constraint(
            batch.f("uq_table_cards_game_id_card"), ["game_id", "card"]
        )
        batch.drop_column("stands_for")
        batch.drop_column("copy")
