"""entry ids never come back: on SQLite the entries table gets AUTOINCREMENT

Revision ID: 0006_entry_ids_never_reused
Revises: 0005_forget_old_answers
Create Date: 2026-11-23 05:00:00

Without it SQLite gives a new row the highest id plus one, so the entry recorded after an undo
took the undone entry's id, and a phone that still showed the undone entry could undo, delete
or lay off onto the new one. SQLite adds AUTOINCREMENT only by rebuilding the table (batch
mode; env.py turns the foreign keys off meanwhile). An entry undone just before the upgrade
left no trace, so its id can still come back once. PostgreSQL's sequences never hand an id out
twice: nothing to do there.
"""

from alembic import op

revision = "0006_entry_ids_never_reused"
down_revision = "0005_forget_old_answers"
branch_labels = None
depends_on = None


def upgrade():
    _rebuild_entries(autoincrement=True)


def downgrade():
    _rebuild_entries(autoincrement=False)


def _rebuild_entries(autoincrement):
    if op.get_bind().dialect.name != "sqlite":
        return
    with op.batch_alter_table(
        "entries", recreate="always", table_kwargs={"sqlite_autoincrement": autoincrement}
    ):
        pass
