"""Several server processes on one PostgreSQL: news of every step by LISTEN/NOTIFY, and one driver
per game.

* **News.** The transaction that stores a step (or changes a seat) also sends ``NOTIFY`` on
  :data:`CHANNEL` (:func:`announce`); PostgreSQL delivers it when, and only if, that transaction
  commits.  The payload is tiny and public: the sending process's origin tag, the game id and the
  version the step made (``-`` for a seat change).  Every process LISTENs on a dedicated connection,
  in a task on its event loop (psycopg's asynchronous connection: it waits on the socket, never
  blocking the loop), and hands each other process's news to the catch-up (``play/catchup.py``),
  which catches that game up from the database and pushes to its own WebSocket subscribers.  A lost
  listener connection is reopened (with a growing pause, at most :data:`MAX_PAUSE`), and then
  everything is caught up, since news sent meanwhile is gone.  A silent connection is pinged every
  :data:`PING_EVERY` seconds, so a dead one is noticed.
* **Drivers.** What acts on a game by itself — chance, bots, later a clock — is done by the one
  process holding the game's *drive lock*: a session-level advisory lock (``pg_try_advisory_lock``,
  key :data:`DRIVE_LOCK` and ``hashtext(game id)``) on a second dedicated connection.  A process
  takes it when the game has something for it to do and lets it go when the game waits for a
  human or ends, so the lock table holds only the games a bot or chance is moving.  If that process
  dies, PostgreSQL drops its session and its locks, and another process takes over (its catch-up tries
  every game it holds whose turn is a bot's or chance's every few seconds).  The primary key of a
  step backs this up: should two processes ever drive at once, one step is stored per version and
  the other process catches up.
* **Whether a held lock is still held** (asked before every bot or chance step) cannot be read from
  memory: a session killed by the server (or cut off) is found out only by talking to it.  So
  :meth:`Fanout.drive` asks the session (``SELECT true``), but at most once per :data:`ALIVE_FOR`
  seconds: an answer that recent vouches for the locks (designed).  Asking at every step cost a round
  trip on the event loop per step, about 0.1 ms alone on the tests' PostgreSQL and several ms of a bot
  step in an all-bot game with no bot delay (docs/server.md, "Drive locks: the check before a step").
  It never made two drivers impossible anyway (a session can die between the question and the
  step's commit, and a bot thinks in between); it only ends a second driver soon, which the cached
  answer still does within :data:`ALIVE_FOR` seconds, each step of the overlap stored once by its
  primary key.

SQLite is single-process: none of this runs there.
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.orm import Session

log = logging.getLogger("ludorum.server")

CHANNEL = "ludorum_steps"
"""The NOTIFY channel every server process listens on."""

DRIVE_LOCK = 0x4C75646F
"""The first key of every game's drive lock (``"Ludo"`` in ASCII); the second is the game id's hash."""

PING_EVERY = 5.0
"""Seconds of silence after which the listener checks that its connection is alive."""

MAX_PAUSE = 5.0
"""The longest pause between two attempts to reopen a lost connection."""

CONNECT_TIMEOUT = 10
"""Seconds a connection attempt may take."""

ALIVE_FOR = 1.0
"""Seconds for which the drive-lock session's last answer vouches that it still holds its locks
(designed: well under the catch-up's take-over round, ``catchup.TAKE_OVER``, and longer than a bot's pause
within a compound action, so that a game moving fast asks about once a second)."""


def new_origin() -> str:
    """A process's tag in its own news (so that it skips them): random, public, 8 hex digits."""
    return secrets.token_hex(4)


def payload(origin: str, game_id: str, version: int | None) -> str:
    """The news of a change to ``game_id``: a step that made ``version``, or (``None``) a seat change."""
    return f"{origin} {game_id} {'-' if version is None else version}"


def parse(text: str) -> tuple[str, str, int | None] | None:
    """``(origin, game id, version)`` from a payload; ``None`` if it is not one of ours."""
    parts = text.split(" ")
    if len(parts) != 3:
        return None
    origin, game_id, version = parts
    if not (game_id.isalnum() and len(game_id) <= 32):
        return None
    if version == "-":
        return origin, game_id, None
    if not version.isdigit() or len(version) > 9:
        return None
    return origin, game_id, int(version)


def announce(conn: Connection | Session, origin: str, game_id: str, version: int | None) -> None:
    """Send the news of a change in the transaction making it (delivered only if it commits)."""
    conn.execute(select(func.pg_notify(CHANNEL, payload(origin, game_id, version))))


def conninfo(database_url: str, application_name: str) -> str:
    """psycopg's connection string for a SQLAlchemy ``postgresql+psycopg://`` URL."""
    url = make_url(database_url).set(drivername="postgresql")
    url = url.update_query_dict({"application_name": application_name})
    return url.render_as_string(hide_password=False)


News = Callable[[str, int | None], None]
"""Called (on the loop) with a game id and the version a step made there (``None``: a seat changed)."""


class Fanout:
    """One process's listener and drive locks.  ``on_news`` gets every other process's news,
    ``on_gap`` is called whenever the listener has (re)connected (news may have been missed);
    ``alive_for`` is :data:`ALIVE_FOR` (a test shortens it)."""

    def __init__(
        self,
        database_url: str,
        origin: str,
        on_news: News,
        on_gap: Callable[[], None],
        alive_for: float = ALIVE_FOR,
    ) -> None:
        self._listen_info = conninfo(database_url, "ludorum-listen")
        self._lock_info = conninfo(database_url, "ludorum-drive")
        self.origin = origin
        self.on_news = on_news
        self.on_gap = on_gap
        self.listening = asyncio.Event()
        """Set while the listener's LISTEN is in force."""
        self._task: asyncio.Task[None] | None = None
        self._locks: Any = None  # the drive-lock connection (psycopg.AsyncConnection), opened on need
        self._locks_guard = asyncio.Lock()  # one statement at a time on it
        self._held: set[str] = set()
        self._alive_for = alive_for
        self._answered = -math.inf  # when the drive-lock session last answered (time.monotonic)

    # -- the listener -------------------------------------------------------------------------------------

    async def start(self, timeout: float = CONNECT_TIMEOUT) -> None:
        """Start listening; returns once LISTEN is in force (or after ``timeout``: it keeps trying)."""
        self._task = asyncio.get_running_loop().create_task(self._listen())
        try:
            await asyncio.wait_for(self.listening.wait(), timeout)
        except TimeoutError:
            log.error("the PostgreSQL listener is not connected yet; other processes' steps show late")

    async def stop(self) -> None:
        """Stop listening and close both connections (which lets every drive lock go)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        async with self._locks_guard:
            await self._close_locks()

    async def _listen(self) -> None:
        import psycopg

        pause = 0.1
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    self._listen_info, autocommit=True, connect_timeout=CONNECT_TIMEOUT
                )
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    pause = 0.1
                    # what was sent while we were away is lost: catch everything up (nothing is
                    # held yet the first time, unless the first connection came late)
                    self.on_gap()
                    while True:
                        async for n in conn.notifies(timeout=PING_EVERY):
                            self._dispatch(n.payload)
                        async with asyncio.timeout(PING_EVERY):  # silent for a while: is it alive?
                            await conn.execute("SELECT 1")
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the connection was lost (or never made): try again
                self.listening.clear()
                log.warning(
                    "the PostgreSQL listener lost its connection (%s); reconnecting", type(e).__name__
                )
            await asyncio.sleep(pause)
            pause = min(pause * 2, MAX_PAUSE)

    def _dispatch(self, text: str) -> None:
        news = parse(text)
        if news is None:
            log.warning("ignored a notification on %s that is not a Ludorum step", CHANNEL)
            return
        origin, game_id, version = news
        if origin != self.origin:  # our own steps are shown already
            self.on_news(game_id, version)

    # -- drive locks ----------------------------------------------------------------------------------------

    async def drive(self, game_id: str) -> bool:
        """Whether this process drives ``game_id`` (takes its drive lock if free); ``False`` when
        another process holds it or the database cannot be reached (the caller tries again later)."""
        if game_id in self._held:
            if time.monotonic() - self._answered < self._alive_for:
                return True  # the session answered a moment ago: it holds its locks (see the module)
            if await self._lock_query("SELECT true", (), reopen=False):
                return True  # the session is alive, so it still holds the lock
        rows = await self._lock_query("SELECT pg_try_advisory_lock(%s, hashtext(%s))", (DRIVE_LOCK, game_id))
        got = bool(rows and rows[0][0])
        if got:
            self._held.add(game_id)
        return got

    async def release(self, game_id: str) -> None:
        """Let ``game_id``'s drive lock go (if held)."""
        if game_id in self._held:
            self._held.discard(game_id)
            await self._lock_query("SELECT pg_advisory_unlock(%s, hashtext(%s))", (DRIVE_LOCK, game_id))

    def drives(self, game_id: str) -> bool:
        """Whether this process holds ``game_id``'s drive lock now."""
        return game_id in self._held

    async def undriven(self, game_ids: list[str]) -> list[str]:
        """Those of ``game_ids`` whose drive lock no process holds (none, if the database cannot be
        reached).  Two-key advisory locks show in ``pg_locks`` as ``classid`` = the first key,
        ``objid`` = the second (as an unsigned number), ``objsubid`` = 2."""
        rows = await self._lock_query(
            "SELECT id FROM unnest(%s::text[]) AS id WHERE NOT EXISTS (SELECT 1 FROM pg_locks l"
            " WHERE l.locktype = 'advisory' AND l.classid = %s AND l.objsubid = 2"
            " AND l.objid = (hashtext(id)::bigint & 4294967295)::oid)",
            (game_ids, DRIVE_LOCK),
        )
        return [str(r[0]) for r in rows or ()]

    async def _lock_query(
        self, sql: str, params: tuple[Any, ...], reopen: bool = True
    ) -> list[tuple[Any, ...]] | None:
        """The rows ``sql`` answers on the drive-lock session; ``None`` if the session is lost (and it
        is opened anew unless ``reopen`` is false: a look at whether the old one lives)."""
        import psycopg

        async with self._locks_guard:
            try:
                # a hung connection must not hold the game (whose lock the caller holds) for long
                async with asyncio.timeout(CONNECT_TIMEOUT):
                    if self._locks is None or self._locks.closed:
                        self._held.clear()  # a new session holds no lock
                        if not reopen:
                            return None
                        self._locks = await psycopg.AsyncConnection.connect(
                            self._lock_info, autocommit=True, connect_timeout=CONNECT_TIMEOUT
                        )
                    cur = await self._locks.execute(sql, params)
                    rows = list(await cur.fetchall())
                    self._answered = time.monotonic()
                    return rows
            except (psycopg.Error, TimeoutError) as e:
                # the session is gone, and every lock it held with it
                log.warning("the drive-lock connection failed (%s); reconnecting", type(e).__name__)
                self._held.clear()
                self._answered = -math.inf
                await self._close_locks()
                return None

    async def _close_locks(self) -> None:
        if self._locks is not None:
            try:
                await self._locks.close()
            except Exception:  # closing a broken connection: nothing more to do
                log.debug("closing the drive-lock connection failed", exc_info=True)
            self._locks = None
