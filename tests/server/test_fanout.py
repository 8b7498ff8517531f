"""The PostgreSQL fan-out (``ludorum/server/store/fanout.py``): news of a step reaches every other process's
listener, a dropped listener reconnects and asks for a catch-up, and a drive lock has one holder."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import psycopg
import pytest

from ludorum.engine import Action
from ludorum.server.play.live import LiveGame
from ludorum.server.play.lobby import Lobby
from ludorum.server.store.db import Store
from ludorum.server.store.fanout import Fanout, parse, payload
from ludorum.server.store.tables import SeatData
from ludorum.server.work.workers import Workers
from tests.fixtures.sealed_bids import BidsState
from tests.loops import run_alone
from tests.server.support import TempPostgres, fixture_registry


def test_a_payload_says_game_and_version_and_nothing_else_is_taken_for_one() -> None:
    assert parse(payload("ab12cd34", "g1", 7)) == ("ab12cd34", "g1", 7)
    assert parse(payload("ab12cd34", "g1", None)) == ("ab12cd34", "g1", None)
    for stranger in (
        "",
        "hello",
        "a g1 7 8",
        "a g-1 7",
        "a g1 -7",
        "a g1 x",
        "a " + "g" * 33 + " 1",
        "a g1 1e9",
    ):
        assert parse(stranger) is None, stranger


def test_sqlite_is_one_process_and_has_no_fanout(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'one.sqlite3'}")
    try:
        assert not store.announcing
        assert Lobby(fixture_registry(), store, Workers(0)).fanout is None
    finally:
        store.dispose()


async def _append(store: Store, game_id: str, idx: int, seat: int, bid: int) -> bool:
    """Store a bid as step ``idx`` (committed when this returns); whether it was stored."""
    return await asyncio.wrap_future(
        store.append(game_id, idx, seat, {"kind": "bid", "args": [bid]}, "running", None)
    )


def _conn(url: str) -> psycopg.Connection[tuple[object, ...]]:
    return psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True)


async def _until(check: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


@pytest.mark.postgres
def test_news_reaches_other_listeners_only_and_a_dropped_listener_reconnects(postgres: TempPostgres) -> None:
    url = postgres.new_database()
    store = Store(url)
    store.create_game(
        "g1", "sealed-bids", {"players": 2}, 1, "running", [SeatData(0, "human"), SeatData(1, "human")]
    )

    async def main() -> None:
        news: list[tuple[str, int | None]] = []
        mine: list[tuple[str, int | None]] = []
        gaps: list[int] = []
        other = Fanout(url, "0th3r0r1", lambda g, v: news.append((g, v)), lambda: gaps.append(1))
        same = Fanout(url, store.origin, lambda g, v: mine.append((g, v)), lambda: None)
        await other.start()
        await same.start()
        try:
            assert other.listening.is_set() and gaps == [1]  # each connection starts with a catch-up
            assert await asyncio.wrap_future(
                store.append("g1", 0, 0, {"kind": "bid", "args": [1]}, "running", None)
            )
            store.set_seat("g1", SeatData(1, "bot", "random"), "running")
            await _until(lambda: len(news) == 2)
            assert news == [("g1", 1), ("g1", None)]
            # a step that loses its race is not stored, and not announced
            assert not await asyncio.wrap_future(
                store.append("g1", 0, 1, {"kind": "bid", "args": [2]}, "running", None)
            )
            # the listener's connection drops: it reconnects, and asks for everything to be caught up
            with _conn(url) as c:
                killed = c.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE application_name = 'ludorum-listen'"
                ).fetchall()
            assert len(killed) == 2
            await _until(lambda: len(gaps) == 2 and other.listening.is_set())
            assert await asyncio.wrap_future(
                store.append("g1", 1, 1, {"kind": "bid", "args": [3]}, "running", None)
            )
            await _until(lambda: len(news) == 3)
            assert news[2] == ("g1", 2)
            assert mine == []  # a process's own news is not news to it
        finally:
            await other.stop()
            await same.stop()

    try:
        run_alone(main())
    finally:
        store.dispose()


@pytest.mark.postgres
def test_a_drive_lock_has_one_holder_and_goes_with_its_session(postgres: TempPostgres) -> None:
    url = postgres.new_database()

    async def main() -> None:
        a = Fanout(url, "aaaaaaaa", lambda g, v: None, lambda: None)
        # b always asks its session (alive_for=0): its loss below is found out at once
        b = Fanout(url, "bbbbbbbb", lambda g, v: None, lambda: None, alive_for=0.0)
        try:
            assert await a.drive("g1") and await a.drive("g1")  # held: asking again costs nothing
            assert not await b.drive("g1")
            assert await b.drive("g2")  # another game, another lock
            await a.release("g1")
            assert not a.drives("g1")
            assert await b.drive("g1") and not await a.drive("g1")
            # b's session dies (its process was killed): its locks go with it, and a takes over
            pid = b._locks.info.backend_pid
            with _conn(url) as c:
                c.execute("SELECT pg_terminate_backend(%s)", (pid,))
                gone = "SELECT count(*) FROM pg_stat_activity WHERE pid = %s"
                await _until(lambda: c.execute(gone, (pid,)).fetchone() == (0,))  # it ends a moment later
            assert await a.drive("g1") and await a.drive("g2")
            assert not await b.drive("g1")  # b notices its lost session, and holds nothing
            assert not b.drives("g2")
            assert not await b.drive("g2")
            # which games no one drives, as pg_locks shows them (second keys of both signs)
            with _conn(url) as c:
                signs = dict(
                    c.execute(
                        "SELECT hashtext(i) < 0, i FROM unnest(%s::text[]) i", ([f"x{n}" for n in range(20)],)
                    ).fetchall()
                )
            assert await a.drive(signs[True]) and await a.drive(signs[False])
            ids = ["g1", signs[True], signs[False], "g3"]
            assert await b.undriven(ids) == ["g3"]
            await a.release(signs[True])
            assert await b.undriven(ids) == [signs[True], "g3"]
        finally:
            await a.stop()
            await b.stop()
        # stopping closes the session: whatever a held is free again
        c2 = Fanout(url, "cccccccc", lambda g, v: None, lambda: None)
        try:
            assert await c2.drive("g1") and await c2.drive("g2")
        finally:
            await c2.stop()

    run_alone(main())


@pytest.mark.postgres
def test_a_held_drive_lock_is_vouched_for_by_the_sessions_last_answer_for_a_moment(
    postgres: TempPostgres,
) -> None:
    """A bot step asks ``drive`` first; while the drive-lock session answered within ``alive_for``
    seconds, that answer vouches for the locks it holds (no round trip per step), and after that a lost
    session is found out by the next ``drive``."""
    url = postgres.new_database()

    async def main() -> None:
        a = Fanout(url, "aaaaaaaa", lambda g, v: None, lambda: None, alive_for=0.5)
        b = Fanout(url, "bbbbbbbb", lambda g, v: None, lambda: None)
        try:
            assert await a.drive("g1")
            asked = await a._lock_query("SELECT count(*) FROM pg_stat_activity", ())  # (answers now)
            assert asked is not None
            pid = a._locks.info.backend_pid
            with _conn(url) as c:
                c.execute("SELECT pg_terminate_backend(%s)", (pid,))
                gone = "SELECT count(*) FROM pg_stat_activity WHERE pid = %s"
                await _until(lambda: c.execute(gone, (pid,)).fetchone() == (0,))
            assert await b.drive("g1")  # the lock went with a's session
            started = time.monotonic()
            assert await a.drive("g1")  # not asked: the answer of a moment ago vouches for it
            assert time.monotonic() - started < 0.05
            await asyncio.sleep(0.5)
            assert not await a.drive("g1") and not a.drives("g1")  # asked again: the session is gone
        finally:
            await a.stop()
            await b.stop()

    run_alone(main())


def _with_lobby(postgres: TempPostgres, test: Callable[[Lobby, Store, LiveGame], Awaitable[None]]) -> None:
    """Run ``test`` with a lobby on a fresh database (not started: no listener, so news comes only as
    the test calls it), another process's store on the same database, and a two-human game in which
    chance has drawn the first prize."""
    url = postgres.new_database()
    elsewhere = Store(url)  # another server process's store: another origin
    store = Store(url)

    async def main() -> None:
        lobby = Lobby(fixture_registry(), store, Workers(0))
        try:
            humans: list[tuple[str, str | None]] = [("human", None), ("human", None)]
            live, _ = await lobby.create("sealed-bids", {"players": 2}, humans, None)
            await _until(lambda: live.version == 1)  # chance drew the prize (this process drives it)
            await test(lobby, elsewhere, live)
        finally:
            await lobby.stop()

    try:
        run_alone(main())
    finally:
        store.dispose()
        elsewhere.dispose()


@pytest.mark.postgres
def test_a_hub_catches_up_step_by_step_what_another_process_stored(postgres: TempPostgres) -> None:
    async def test(lobby: Lobby, elsewhere: Store, live: LiveGame) -> None:
        sub = live.subscribe(None, 1)
        await asyncio.wait_for(sub.queue.get(), 5)
        bid, confirm = Action("bid", (2,)).to_json(), Action("confirm").to_json()
        assert await asyncio.wrap_future(elsewhere.append(live.id, 1, 0, bid, "open", None))
        lobby.catch_up.news(live.id, 2)
        pushed = json.loads(await asyncio.wait_for(sub.queue.get(), 5))
        assert pushed["version"] == 2 and live.steps[-1] == (0, Action("bid", (2,)))
        lobby.catch_up.news(live.id, 2)  # old news: nothing to do
        assert await asyncio.wrap_future(elsewhere.append(live.id, 2, 0, confirm, "open", None))
        elsewhere.set_seat(live.id, SeatData(1, "bot", "random"), "running")
        lobby.catch_up.all()  # what a listener back from a lost connection asks for
        await _until(lambda: live.version >= 3 and live.seats[1].kind == "bot")
        # seat 1 is a bot now and this process drives: the bot bids and confirms, chance goes on
        await _until(lambda: live.version >= 5)
        held = [(s, a.to_json()) for s, a in live.steps]  # every step in memory is stored already
        stored = await asyncio.to_thread(lobby.store.load, live.id)
        assert stored is not None and [a for _, a in stored.steps[1:3]] == [bid, confirm]
        assert stored.steps[: len(held)] == held

    _with_lobby(postgres, test)


@pytest.mark.postgres
def test_a_step_that_does_not_apply_to_what_a_hub_holds_makes_it_reload_the_game(
    postgres: TempPostgres,
) -> None:
    async def test(lobby: Lobby, elsewhere: Store, live: LiveGame) -> None:
        # this process's memory went wrong (a bid it never stored): another process's step cannot apply
        live.state = live.game.step(live.state, Action("bid", (5,)))
        bid = Action("bid", (2,))
        assert await asyncio.wrap_future(elsewhere.append(live.id, 1, 0, bid.to_json(), "open", None))
        lobby.catch_up.news(live.id, 2)
        await _until(lambda: live.version == 2)
        state = live.state  # as stored, replayed
        assert isinstance(state, BidsState) and state.pending == 2 and live.steps[-1] == (0, bid)

    _with_lobby(postgres, test)
