"""Accounts: people, their sessions, passkeys and pending WebAuthn challenges
(``ludorum/server/accounts``).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Create the four tables; existing games are untouched."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(128), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("guest", sa.Boolean(), nullable=False),
        sa.Column("created", WHEN, server_default=sa.func.now(), nullable=False),
        sa.Column("failures", sa.Integer(), server_default="0", nullable=False),
        sa.Column("locked_until", WHEN, nullable=True),
    )
    op.create_table(
        "account_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("created", WHEN, nullable=False),
        sa.Column("expires", WHEN, nullable=False),
    )
    op.create_index("ix_account_sessions_account_id", "account_sessions", ["account_id"])
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.LargeBinary(1024), primary_key=True),
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("public_key", sa.LargeBinary(2048), nullable=False),
        sa.Column("sign_count", sa.Integer(), nullable=False),
        sa.Column("created", WHEN, nullable=False),
    )
    op.create_index("ix_passkeys_account_id", "passkeys", ["account_id"])
    op.create_table(
        "webauthn_challenges",
        sa.Column("challenge", sa.LargeBinary(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True
        ),
        sa.Column("expires", WHEN, nullable=False),
    )


def downgrade() -> None:
    """Back to revision 0005."""
    for table in ("webauthn_challenges", "passkeys", "account_sessions", "accounts"):
        op.drop_table(table)
