"""The accounts' tables (created by migration 0006): accounts, their sessions, passkeys and the
WebAuthn challenges waiting for an answer."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import DateTime, ForeignKey, Integer, LargeBinary, String, func
from sqlalchemy.orm import Mapped, mapped_column

from ludorum.server.store.tables import Base


def now() -> dt.datetime:
    """The time as the tables store it (aware, UTC)."""
    return dt.datetime.now(dt.UTC)


class AccountRow(Base):
    """One person: a display name, unique by its look-alike key, and how they sign in."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(128), unique=True)
    # None: a guest (signed in only by its session cookie) or an account with passkeys only
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    guest: Mapped[bool] = mapped_column(default=True)
    created: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), default=now
    )
    # failed sign-ins in a row, and until when the account refuses passwords (shared by every process)
    failures: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    locked_until: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its cookie's token, never the token."""

    __tablename__ = "account_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)
    expires: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class PasskeyRow(Base):
    """A WebAuthn credential registered to an account."""

    __tablename__ = "passkeys"

    credential_id: Mapped[bytes] = mapped_column(LargeBinary(1024), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary(2048))
    sign_count: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)


class ChallengeRow(Base):
    """A WebAuthn challenge handed out and not yet answered: used once, refused after ``expires``."""

    __tablename__ = "webauthn_challenges"

    challenge: Mapped[bytes] = mapped_column(LargeBinary(64), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(16))  # "register" or "sign_in"
    account_id: Mapped[str | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True
    )
    expires: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
