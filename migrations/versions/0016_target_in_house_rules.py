"""the target lives in the house rules only: sessions.target goes, house_rules is always kept

Revision ID: 0016_target_in_house_rules
Revises: 0015_restored_lines
Create Date: 2026-11-26 19:30:00

``sessions.target`` repeated ``house_rules.end.target``: every session written since 0007 keeps
its house rules, the target among them. A session stored before house rules existed (or
imported from a version 2 document) has none: it read as its rule system's defaults played to
its target. It now gets the house rule it was read by, ``{"end": {"target": N}}``; its rule
system fills in the other defaults when it is read, as before. Then the column goes and
``house_rules`` is always filled.

Going back puts each session's target back from its house rules (empty for a session that
ends after a number of games or at a limit, as 0007 left it) and lets ``house_rules`` be empty
again; the house rules written here stay, and read the same there.
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0016_target_in_house_rules"
down_revision = "0015_restored_lines"
branch_labels = None
depends_on = None


_SESSIONS = sa.table(
    "sessions",
    sa.column("id", sa.Integer()),
    sa.column("target", sa.Integer()),
    sa.column("house_rules", sa.Text()),
)


def upgrade():
    bind = op.get_bind()
    without = bind.execute(
        sa.select(_SESSIONS.c.id, _SESSIONS.c.target).where(_SESSIONS.c.house_rules.is_(None))
    ).all()
    for session_id, target in without:
        # A session without house rules always had a target (0007 kept it NOT NULL for them).
        bind.execute(
            _SESSIONS.update()
            .where(_SESSIONS.c.id == session_id)
            .values(house_rules=json.dumps({"end": {"target": target}}, sort_keys=True))
        )
    with op.batch_alter_table("sessions") as batch:
        batch.drop_constraint(batch.f("ck_sessions_target_positive"), type_="check")
        batch.drop_column("target")
        batch.alter_column("house_rules", existing_type=sa.Text(), nullable=False)


def downgrade():
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("target", sa.Integer(), nullable=True))
        batch.alter_column("house_rules", existing_type=sa.Text(), nullable=True)
    bind = op.get_bind()
    for session_id, house_rules in bind.execute(sa.select(_SESSIONS.c.id, _SESSIONS.c.house_rules)):
        target = json.loads(house_rules).get("end", {}).get("target")
        if target is not None:
            bind.execute(
                _SESSIONS.update().where(_SESSIONS.c.id == session_id).values(target=target)
            )
    with op.batch_alter_table("sessions") as batch:
        batch.create_check_constraint(batch.f("ck_sessions_target_positive"), "target >= 1")
