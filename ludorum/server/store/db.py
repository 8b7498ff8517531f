"""Persistence: a game is stored as its record — config, seed and the append-only list of actions.

``Store`` is the server's database access (the tables: ``tables.py``): every write commits before it
returns, or, for a step, before its future answers; steps go through one writer thread that commits
many at once.  The schema is created and upgraded by the Alembic migrations in ``migrations/``
(:func:`migrate`, at start-up); SQLite runs in WAL mode.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import json
import queue
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Integer,
    String,
    bindparam,
    create_engine,
    event,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ludorum.server.store.fanout import announce, new_origin
from ludorum.server.store.tables import FINISHED, ActionRow, GameRow, SeatData, SeatRow, StoredGame

MIGRATIONS = Path(__file__).parent / "migrations"

MAX_BATCH = 256
"""The most steps one group commit stores."""


def default_sqlite_url(data_dir: Path) -> str:
    """The embedded database's URL inside ``data_dir``."""
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{data_dir / 'ludorum.sqlite3'}"


class RawJSON(str):
    """JSON text encoded already (by a worker process, off the server's GIL), which a JSON column stores
    as it is: the value it reads back is the decoded one, as if the value had been given."""

    __slots__ = ()


def _to_json(value: Any) -> str:
    """The engines' JSON serializer: :class:`RawJSON` as it is, anything else as ``json.dumps`` (the
    default) encodes it."""
    return str(value) if isinstance(value, RawJSON) else json.dumps(value)


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL, full sync, foreign keys and a busy timeout."""
    if url.startswith("sqlite"):
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": 30}, json_serializer=_to_json
        )

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            _switch_to_wal(cur)
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True, json_serializer=_to_json)


WAL_WAIT = 30.0
"""Seconds a connection keeps trying to switch a new database to WAL (the busy timeout's length)."""


def _switch_to_wal(cur: Any) -> None:
    """``PRAGMA journal_mode=WAL``, retried while another connection holds the database.

    Switching a new (rollback-journal) database to WAL needs it alone, and SQLite answers "database is
    locked" at once, without waiting on the busy timeout, while another connection writes to it: servers
    starting together on a new database would otherwise die at their first connection.
    """
    deadline = time.monotonic() + WAL_WAIT
    pause = 0.005
    while True:
        try:
            cur.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(pause)
            pause = min(0.1, pause * 2)


MIGRATION_LOCK = 0x4C75646F72756D
"""The PostgreSQL advisory lock key that migrations hold (``"Ludorum"`` in ASCII)."""


def migration_lock(conn: Connection) -> None:
    """Begin ``conn``'s transaction holding the database's migration lock, released at its end.

    Servers starting together on a new database would otherwise race: both see no tables, both create
    them, and one dies.  PostgreSQL: a transaction-scoped advisory lock (DDL is transactional, so the
    second sees the first's committed schema).  SQLite: an immediate (write) transaction, which waits
    on the busy timeout for the other writer to commit.
    """
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
    elif conn.dialect.name == "sqlite":
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def migrate(engine: Engine) -> None:
    """Bring the schema up to the newest Alembic revision, holding the migration lock."""
    from alembic import command
    from alembic.config import Config as AlembicConfig

    cfg = AlembicConfig(str(Path(__file__).parent / "alembic.ini"))
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.connect() as conn:
        migration_lock(conn)
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
        conn.commit()


@dataclasses.dataclass(slots=True)
class _Append:
    """A step waiting for the writer; ``done`` answers whether it was stored."""

    game_id: str
    idx: int
    seat: int
    action: str
    status: str
    result: dict[str, Any] | None
    clock: dict[str, Any] | None = None  # the clocks after this step, stored with it
    handover: SeatData | None = None  # a seat that a bot takes with this step (a clock ran out)
    done: concurrent.futures.Future[bool] = dataclasses.field(default_factory=concurrent.futures.Future)


def _settle(
    done: concurrent.futures.Future[bool], ok: bool = False, error: BaseException | None = None
) -> None:
    """Answer a queued step (unless its waiter gave up: the step is stored all the same)."""
    if done.set_running_or_notify_cancel():
        if error is None:
            done.set_result(ok)
        else:
            done.set_exception(error)


@dataclasses.dataclass(slots=True)
class _Archive:
    """A step's log entry and the views after it, for showing the game without a replay."""

    game_id: str
    idx: int
    entry: dict[str, Any]
    views: dict[str, Any] | RawJSON
    done: concurrent.futures.Future[bool] = dataclasses.field(default_factory=concurrent.futures.Future)


class _WriterStatements:
    """The writer's statements, built once with parameters: building one per step (SQLAlchemy's
    construction, coercion and cache key) cost more CPU than running it, on the server's GIL."""

    def __init__(self, insert: Any) -> None:
        g, i = bindparam("p_g", type_=String), bindparam("p_i", type_=Integer)
        self.entry = update(ActionRow).where(ActionRow.game_id == g, ActionRow.idx == i)
        self.entry = self.entry.values(log=bindparam("p_entry", type_=JSON))
        self.views = update(GameRow).where(GameRow.id == g, GameRow.archived < i)
        self.views = self.views.values(archive=bindparam("p_views", type_=JSON), archived=i)
        self.step = (
            insert(ActionRow)
            .values(game_id=g, idx=i, seat=bindparam("p_seat", type_=Integer), action=bindparam("p_action"))
            .on_conflict_do_nothing(index_elements=["game_id", "idx"])
            .returning(ActionRow.idx)  # a row back: inserted (psycopg reports no rowcount here)
        )
        moved = {
            "version": bindparam("p_version", type_=Integer),
            "status": bindparam("p_status", type_=String),
            "result": bindparam("p_result", type_=JSON),
        }
        self.moved = update(GameRow).where(GameRow.id == g).values(**moved)
        self.moved_clock = self.moved.values(clock_state=bindparam("p_clock", type_=JSON))


class Store:
    """The server's database access: every write commits before it returns (or, for a step, before
    its future resolves).

    Steps go through one writer thread that stores every step waiting for it in one transaction: while
    one commit is on its way to the disk, the next steps gather, so a busy server commits many steps
    per fsync (group commit) instead of queueing one fsync per step.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        migrate(self.engine)
        self.session = sessionmaker(self.engine, expire_on_commit=False)
        # SQLite has one writer at a time and its busy handler backs off in sleeps of up to 100 ms;
        # queueing this process's writes on a lock instead keeps every commit prompt.
        self._write_lock = threading.Lock() if url.startswith("sqlite") else contextlib.nullcontext()
        self._insert = sqlite.insert if self.engine.dialect.name == "sqlite" else postgresql.insert
        self._sql = _WriterStatements(self._insert)
        self._queue: queue.SimpleQueue[_Append | _Archive | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._writer_guard = threading.Lock()
        self.origin = new_origin()
        """This process's tag in the news it sends other processes (``fanout.py``)."""
        self.announcing = self.engine.dialect.name == "postgresql"
        """Whether a step or seat change also notifies the other server processes (PostgreSQL only:
        SQLite is served by one process)."""

    def _announce(self, conn: Connection | Session, game_id: str, version: int | None) -> None:
        if self.announcing:
            announce(conn, self.origin, game_id, version)

    def _writing(self) -> contextlib.AbstractContextManager[Any]:
        return self._write_lock

    def dispose(self) -> None:
        """Finish the queued writes, stop the writer and close every pooled connection."""
        with self._writer_guard:
            writer, self._writer = self._writer, None
        if writer is not None:
            self._queue.put(None)
            writer.join()
        self.engine.dispose()

    # -- the writer ---------------------------------------------------------------------------------------

    def append(
        self,
        game_id: str,
        idx: int,
        seat: int,
        action: dict[str, Any],
        status: str,
        result: dict[str, Any] | None,
        clock: dict[str, Any] | None = None,
        handover: SeatData | None = None,
    ) -> concurrent.futures.Future[bool]:
        """Queue step ``idx`` for the writer; the future answers, once committed, whether it was stored
        (``False``: another submission stored that step first, and nothing changed).  ``clock``: the
        game's clocks after the step, and ``handover``: the seat as a bot takes it with this step,
        both stored in the same transaction."""
        item = _Append(game_id, idx, seat, json.dumps(action), status, result, clock, handover)
        return self._enqueue(item)

    def archive(
        self, game_id: str, idx: int, entry: dict[str, Any], views: dict[str, Any] | RawJSON
    ) -> concurrent.futures.Future[bool]:
        """Queue step ``idx``'s log entry and the views after it (stored with the next group commit;
        nothing waits for it: a game that still replays can always recompute them).  ``views`` may
        come encoded (:class:`RawJSON`, as a worker sends them)."""
        return self._enqueue(_Archive(game_id, idx, entry, views))

    def _enqueue(self, item: _Append | _Archive) -> concurrent.futures.Future[bool]:
        with self._writer_guard:
            if self._writer is None:
                self._writer = threading.Thread(target=self._write_loop, name="ludorum-writer", daemon=True)
                self._writer.start()
            self._queue.put(item)
        return item.done

    def _write_loop(self) -> None:
        # The writer keeps one connection between batches: checking one out of the pool and back in
        # (with its reset) for every batch cost the writer thread about as much CPU as a step's
        # statements.  A batch that fails drops it (it may be broken); the next batch takes a fresh one.
        conn: Connection | None = None
        try:
            while True:
                item = self._queue.get()
                if item is None:
                    return
                batch: list[_Append | _Archive] = [item]
                stop = False
                while len(batch) < MAX_BATCH:
                    try:
                        more = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        stop = True
                        break
                    batch.append(more)
                conn = self._write_batch(batch, conn)
                if stop:
                    return
        finally:
            if conn is not None:
                conn.close()

    def _write_batch(self, batch: list[_Append | _Archive], conn: Connection | None) -> Connection | None:
        """Store ``batch`` in one transaction on ``conn`` (a new connection if ``None``), and answer
        each step; the connection to write the next batch with (``None``: take a fresh one)."""
        # One order for every batch of every process, so that two transactions never wait on each
        # other's rows in opposite orders (a deadlock on PostgreSQL).
        batch.sort(key=lambda a: (a.game_id, a.idx, isinstance(a, _Archive)))
        try:
            with self._writing():
                conn = conn or self.engine.connect()
                with conn.begin():
                    stored = [self._append_in(conn, a) for a in batch]
        except Exception:
            if conn is not None:  # rolled back; it may be broken: not kept
                with contextlib.suppress(Exception):
                    conn.close()
            # One bad step (a game deleted underneath) must not fail its neighbours: one by one.
            for a in batch:
                try:
                    with self._writing(), self.engine.begin() as one:
                        ok = self._append_in(one, a)
                except IntegrityError:
                    ok = False
                except Exception as e:
                    _settle(a.done, error=e)
                    continue
                _settle(a.done, ok)
            return None
        for a, ok in zip(batch, stored, strict=True):
            _settle(a.done, ok)
        return conn

    def _append_in(self, conn: Connection, a: _Append | _Archive) -> bool:
        """Insert one step unless its index is taken, and move its game on; whether it was stored.
        (An archive: store the entry, and the views if they are newer than those stored.)"""
        sql = self._sql
        if isinstance(a, _Archive):
            conn.execute(sql.entry, {"p_g": a.game_id, "p_i": a.idx, "p_entry": a.entry})
            conn.execute(sql.views, {"p_g": a.game_id, "p_i": a.idx, "p_views": a.views})
            return True
        row = {"p_g": a.game_id, "p_i": a.idx, "p_seat": a.seat, "p_action": a.action}
        if conn.execute(sql.step, row).first() is None:
            return False
        moved = {"p_g": a.game_id, "p_version": a.idx + 1, "p_status": a.status, "p_result": a.result}
        if a.clock is None:
            conn.execute(sql.moved, moved)
        else:
            conn.execute(sql.moved_clock, {**moved, "p_clock": a.clock})
        if a.handover is not None:
            h = a.handover
            conn.execute(
                update(SeatRow)
                .where(SeatRow.game_id == a.game_id, SeatRow.seat == h.seat)
                .values(kind=h.kind, bot=h.bot, token_hash=h.token_hash)
            )
        self._announce(conn, a.game_id, a.idx + 1)  # delivered when this transaction commits
        return True

    def create_game(
        self,
        game_id: str,
        game: str,
        config: dict[str, Any],
        seed: int,
        status: str,
        seats: list[SeatData],
        steps: list[tuple[int, dict[str, Any]]] = (),  # type: ignore[assignment]
        result: dict[str, Any] | None = None,
        rematch_of: str | None = None,
        seed_chosen: bool = False,
        rules_version: int = 1,
        clock: dict[str, Any] | None = None,
        clock_state: dict[str, Any] | None = None,
    ) -> None:
        """Store a new game (with the steps of an uploaded record, if any) in one transaction.

        Raises ``IntegrityError`` if the id is taken or ``rematch_of`` already has its rematch."""
        with self._writing(), self.session() as s, s.begin():
            s.add(
                GameRow(
                    id=game_id,
                    game=game,
                    config=config,
                    seed=str(seed),
                    status=status,
                    result=result,
                    version=len(steps),
                    rematch_of=rematch_of,
                    seed_chosen=seed_chosen,
                    rules_version=rules_version,
                    clock=clock,
                    clock_state=clock_state,
                )
            )
            s.flush()
            for seat in seats:
                s.add(
                    SeatRow(
                        game_id=game_id,
                        seat=seat.seat,
                        kind=seat.kind,
                        bot=seat.bot,
                        token_hash=seat.token_hash,
                    )
                )
            for i, (who, action) in enumerate(steps):
                s.add(ActionRow(game_id=game_id, idx=i, seat=who, action=json.dumps(action)))

    def set_seat(self, game_id: str, seat: SeatData, status: str) -> None:
        """Change who sits in a seat (claim, leave, hand over to a bot) and the game's status."""
        with self._writing(), self.session() as s, s.begin():
            s.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat.seat)
                .values(kind=seat.kind, bot=seat.bot, token_hash=seat.token_hash)
            )
            s.execute(update(GameRow).where(GameRow.id == game_id).values(status=status))
            self._announce(s, game_id, None)

    def set_clock(self, game_id: str, clock_state: dict[str, Any]) -> None:
        """Store how a game's clocks stand (a clock started or stopped without a step: a seat taken or
        left)."""
        with self._writing(), self.session() as s, s.begin():
            s.execute(update(GameRow).where(GameRow.id == game_id).values(clock_state=clock_state))

    def claim_seat(self, game_id: str, seat: int, token_hash: str, status: str) -> bool:
        """Claim a free human seat atomically; ``False`` if someone claimed it first."""
        with self._writing(), self.session() as s, s.begin():
            done = s.execute(
                update(SeatRow)
                .where(
                    SeatRow.game_id == game_id,
                    SeatRow.seat == seat,
                    SeatRow.kind == "human",
                    SeatRow.token_hash.is_(None),
                )
                .values(token_hash=token_hash)
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]
                return False
            s.execute(update(GameRow).where(GameRow.id == game_id).values(status=status))
            self._announce(s, game_id, None)
        return True

    def load(self, game_id: str) -> StoredGame | None:
        """One game with its seats and steps, or ``None``."""
        with self.session() as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            return self._stored(s, row)

    def unfinished_to_resume(self) -> list[str]:
        """Ids of the unfinished games with a bot seat or a clock (to resume after a restart: their
        bots move on, their clocks run out), oldest first."""
        with self.session() as s:
            q = (
                select(GameRow.id)
                .where(GameRow.status != FINISHED)
                .where(
                    GameRow.id.in_(select(SeatRow.game_id).where(SeatRow.kind == "bot"))
                    | GameRow.clock.is_not(None)
                )
                .order_by(GameRow.created, GameRow.id)
            )
            return list(s.scalars(q))

    def unfinished_without_humans(self) -> list[str]:
        """Ids of the unfinished games in which every seat is a bot (only their driver moves them)."""
        with self.session() as s:
            humans = select(SeatRow.game_id).where(SeatRow.kind == "human")
            q = select(GameRow.id).where(GameRow.status != FINISHED).where(GameRow.id.not_in(humans))
            return list(s.scalars(q))

    def listing(self, status: str | None, limit: int) -> list[tuple[GameRow, list[SeatData]]]:
        """The newest games (of one status, if given) with their seats, for the lobby."""
        with self.session() as s:
            q = select(GameRow).order_by(GameRow.created.desc(), GameRow.id).limit(limit)
            if status:
                q = q.where(GameRow.status == status)
            rows = s.scalars(q).all()
            ids = [r.id for r in rows]
            seats: dict[str, list[SeatData]] = {i: [] for i in ids}
            if ids:
                for seat in s.scalars(select(SeatRow).where(SeatRow.game_id.in_(ids)).order_by(SeatRow.seat)):
                    seats[seat.game_id].append(SeatData(seat.seat, seat.kind, seat.bot, seat.token_hash))
            return [(r, seats[r.id]) for r in rows]

    def rematches(self, game_id: str) -> list[str]:
        """Ids of the games started as rematches of ``game_id``."""
        with self.session() as s:
            return list(s.scalars(select(GameRow.id).where(GameRow.rematch_of == game_id)))

    def since(
        self, game_id: str, idx: int
    ) -> tuple[list[SeatData], list[tuple[int, dict[str, Any]]], dict[str, Any] | None]:
        """A game's seats, its steps from ``idx`` on and its clocks as stored with its last step: what
        another process changed since this one last looked (no seats: no such game)."""
        with self.session() as s:
            rows = s.execute(
                select(ActionRow.seat, ActionRow.action)
                .where(ActionRow.game_id == game_id, ActionRow.idx >= idx)
                .order_by(ActionRow.idx)
            ).all()
            clock_state = s.scalar(select(GameRow.clock_state).where(GameRow.id == game_id))
            return self._seats(s, game_id), [(seat, json.loads(action)) for seat, action in rows], clock_state

    @staticmethod
    def _seats(s: Session, game_id: str) -> list[SeatData]:
        return [
            SeatData(r.seat, r.kind, r.bot, r.token_hash)
            for r in s.scalars(select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat))
        ]

    @classmethod
    def _stored(cls, s: Session, row: GameRow) -> StoredGame:
        seats = cls._seats(s, row.id)
        rows = s.scalars(select(ActionRow).where(ActionRow.game_id == row.id).order_by(ActionRow.idx)).all()
        steps = [(a.seat, json.loads(a.action)) for a in rows]
        return StoredGame(
            row.id,
            row.game,
            row.config,
            int(row.seed),
            row.status,
            row.result,
            row.rematch_of,
            row.created,
            seats,
            steps,
            bool(row.seed_chosen),
            row.rules_version,
            [a.log for a in rows],
            row.archive,
            row.archived,
            row.clock,
            row.clock_state,
        )
