"""The server's tables (DESIGN.md §3), and the plain values a game's rows are read into.

``games`` (one row per game: name, config, seed, status, result, archive, clocks), ``seats`` (who sits
where: a human with a hashed seat token, or a bot of a named kind), ``actions`` (the record's steps,
append-only; the primary key ``(game_id, idx)`` makes sure that of two concurrent submissions for one
version exactly one is stored) and ``hint_settings`` (whether a game allows hints).  The Alembic
migrations in ``migrations/`` create and upgrade the schema.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, Text, false, func
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

OPEN, RUNNING, FINISHED = "open", "running", "finished"
"""A game's status: a human seat is still free / every seat is taken / the game has ended."""


class Base(DeclarativeBase):
    """The declarative base of the server's tables."""


class GameRow(Base):
    """One game: what it is, how it was set up, and how it stands."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), index=True)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[str] = mapped_column(String(40))  # decimal text: records may carry any integer seed
    status: Mapped[str] = mapped_column(String(16), index=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    # unique: a game has at most one rematch, whichever process or request makes it
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True, unique=True, index=True)
    # the seed came with an uploaded record: its uploader chose it and knows every future draw
    seed_chosen: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), default=lambda: dt.datetime.now(dt.UTC)
    )
    # the rules-and-content version the game is played under (Game.rules_version when it was made)
    rules_version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    # every observer's view after step ``archived``: shown, without a replay, once the rules change
    archive: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    archived: Mapped[int] = mapped_column(Integer, default=-1, server_default="-1")
    # the lobby's clock setting (None: no clock) and how the clocks stand (ludorum/server/play/clocks.py),
    # the latter written with the step that changed it
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    clock_state: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)


class SeatRow(Base):
    """One seat of a game: a human (token hash once claimed) or a bot of a named kind."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # "human" or "bot"
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ActionRow(Base):
    """One step of a game's record, append-only; seat -1 is chance."""

    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)  # the action's JSON text
    # the step's log entry with every observer's reading (LogEntry JSON), once decided
    log: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


@dataclasses.dataclass(slots=True)
class SeatData:
    """A seat as the server holds it in memory."""

    seat: int
    kind: str
    bot: str | None = None
    token_hash: str | None = None


@dataclasses.dataclass(slots=True)
class StoredGame:
    """A game as loaded from the database: its row's fields, its seats and its steps."""

    id: str
    game: str
    config: dict[str, Any]
    seed: int
    status: str
    result: dict[str, Any] | None
    rematch_of: str | None
    created: dt.datetime | None
    seats: list[SeatData]
    steps: list[tuple[int, dict[str, Any]]]
    seed_chosen: bool = False
    rules_version: int = 1
    entries: list[dict[str, Any] | None] = dataclasses.field(default_factory=list)
    """Each step's stored log entry (``None``: not archived)."""
    archive: dict[str, Any] | None = None
    archived: int = -1
    clock: dict[str, Any] | None = None
    clock_state: dict[str, Any] | None = None


class HintSetting(Base):
    """Whether a game allows hints, as chosen when it was made (no row: the default for its seats)."""

    __tablename__ = "hint_settings"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    allowed: Mapped[bool] = mapped_column(Boolean)
    level: Mapped[str] = mapped_column(String(16))
