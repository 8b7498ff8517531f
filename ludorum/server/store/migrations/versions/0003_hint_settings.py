"""Whether each game allows hints (``hint_settings``; no row: the default for its seats).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``hint_settings``."""
    op.create_table(
        "hint_settings",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("allowed", sa.Boolean(), nullable=False),
        sa.Column("level", sa.String(16), nullable=False),
    )


def downgrade() -> None:
    """Back to revision 0002."""
    op.drop_table("hint_settings")
