"""Rules versions for stored games, and what is needed to show a game without replaying it.

``games.rules_version``: the rules-and-content version the game is played under (every game stored
before this revision was played under version 1).  ``actions.log``: each step's log entry with what
every observer read of it; ``games.archive`` / ``games.archived``: every observer's view after step
``archived``.  With them, a game of another rules version is shown as it was played, never replayed
under the new rules.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns; existing games are rules version 1 with nothing archived."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rules_version", sa.Integer(), server_default="1", nullable=False))
        batch.add_column(sa.Column("archive", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("archived", sa.Integer(), server_default="-1", nullable=False))
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("log", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Back to revision 0003."""
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("log")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("archived")
        batch.drop_column("archive")
        batch.drop_column("rules_version")
