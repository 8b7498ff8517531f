"""Per-seat clocks: the clock a game was created with and how its clocks stand.

``games.clock``: the lobby's clock setting (``None``: no clock), ``games.clock_state``: each seat's
remaining time, whose clock runs and since when (``ludorum/server/play/clocks.py``).  The state is written in
the same transaction as the step that changed it, so a restarted server goes on counting from it.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns; existing games have no clock."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("clock", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("clock_state", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Back to revision 0004."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("clock_state")
        batch.drop_column("clock")
