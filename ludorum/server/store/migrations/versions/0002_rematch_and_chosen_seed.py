"""One rematch per game (a unique index on ``rematch_of``) and the chosen-seed mark.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Make ``rematch_of`` unique and add ``seed_chosen`` (false for every existing game)."""
    # Databases made before this revision may hold several rematches of one game (the bug this
    # revision closes); the oldest stays the rematch, the others become games of their own.
    op.execute(
        "UPDATE games SET rematch_of = NULL WHERE rematch_of IS NOT NULL AND EXISTS ("
        " SELECT 1 FROM games AS older WHERE older.rematch_of = games.rematch_of"
        " AND (older.created < games.created OR (older.created = games.created AND older.id < games.id)))"
    )
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_rematch_of")
        batch.create_index("ix_games_rematch_of", ["rematch_of"], unique=True)
        batch.add_column(sa.Column("seed_chosen", sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade() -> None:
    """Back to revision 0001."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("seed_chosen")
        batch.drop_index("ix_games_rematch_of")
        batch.create_index("ix_games_rematch_of", ["rematch_of"])
