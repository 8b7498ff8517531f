"""Persistence, run against SQLite and against a real PostgreSQL server started by the test run."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from fastapi.testclient import TestClient

from ludorum.engine import Registry
from ludorum.server import create_app
from ludorum.server.store.db import Store
from ludorum.server.store.tables import Base, SeatData
from tests.server.support import TOKEN_BODY, bearer, new_game_body


def test_migrations_build_exactly_the_models_schema(db_url: str) -> None:
    store = Store(db_url)
    try:
        with store.engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
            if db_url.startswith("sqlite"):
                assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        Store(db_url).dispose()  # migrating twice is harmless
    finally:
        store.dispose()


def test_one_step_index_is_stored_once_under_concurrent_writers(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.create_game(
            "g1", "sealed-bids", {"players": 2}, 7, "running", [SeatData(0, "human"), SeatData(1, "human")]
        )
        wins: list[int] = []
        barrier = threading.Barrier(6)

        def writer(n: int) -> None:
            barrier.wait()
            if store.append("g1", 0, 0, {"kind": "bid", "args": [n]}, "running", None).result():
                wins.append(n)

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(wins) == 1
        stored = store.load("g1")
        assert stored is not None and stored.steps == [(0, {"kind": "bid", "args": [wins[0]]})]
    finally:
        store.dispose()


def _actions_in_db(url: str, game_id: str) -> list[tuple[int, int, dict[str, Any]]]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as c:
            rows = c.execute(
                sa.text("SELECT idx, seat, action FROM actions WHERE game_id = :g ORDER BY idx"),
                {"g": game_id},
            ).all()
        return [(r[0], r[1], json.loads(r[2])) for r in rows]
    finally:
        engine.dispose()


def test_every_acknowledged_action_is_committed_and_a_restart_resumes_by_replay(
    db_url: str, registry: Registry
) -> None:
    with TestClient(create_app(registry, db_url)) as client:
        r = client.post("/api/games", json=new_game_body(claim=0), headers=TOKEN_BODY)
        game_id, t0 = r.json()["id"], r.json()["token"]
        t1 = client.post(f"/api/games/{game_id}/seats/1/claim", headers=TOKEN_BODY).json()["token"]
        acknowledged = 0
        for _ in range(5):
            for t in (t0, t1):
                snap = client.get(f"/api/games/{game_id}", headers=bearer(t)).json()
                if snap["legal"]:
                    r = client.post(
                        f"/api/games/{game_id}/actions",
                        json={"version": snap["version"], "action": snap["legal"][1]["action"]},
                        headers=bearer(t),
                    )
                    assert r.status_code == 200
                    acknowledged = r.json()["version"]
                    # committed before acknowledged: another connection sees it at once
                    assert len(_actions_in_db(db_url, game_id)) >= acknowledged
        before = client.get(f"/api/games/{game_id}", headers=bearer(t0)).json()
    assert acknowledged >= 5
    # a new server on the same database resumes the game by replaying its actions
    with TestClient(create_app(registry, db_url)) as client:
        after = client.get(f"/api/games/{game_id}", headers=bearer(t0)).json()
        assert after["version"] == before["version"]
        assert after["view"] == before["view"] and after["legal"] == before["legal"]
        assert after["log"] == before["log"]
        # and play goes on
        snap = after if after["legal"] else client.get(f"/api/games/{game_id}", headers=bearer(t1)).json()
        token = t0 if after["legal"] else t1
        r = client.post(
            f"/api/games/{game_id}/actions",
            json={"version": snap["version"], "action": snap["legal"][0]["action"]},
            headers=bearer(token),
        )
        assert r.status_code == 200
    steps = _actions_in_db(db_url, game_id)
    assert [i for i, _, _ in steps] == list(range(len(steps)))
    assert steps[0][1] == -1  # chance is stored like any other step, with seat -1


def test_bot_games_resume_after_a_restart(db_url: str, registry: Registry) -> None:
    app = create_app(registry, db_url, bot_delay=0.05)
    with TestClient(app) as client:
        body = new_game_body(players=3, seats=[{"kind": "bot", "bot": "random"}] * 3, claim=None)
        game_id = client.post("/api/games", json=body).json()["id"]
        time.sleep(0.3)
        mid = client.get(f"/api/games/{game_id}").json()
    assert mid["version"] > 0 and mid["status"] != "finished"
    with TestClient(create_app(registry, db_url)) as client:
        deadline = time.monotonic() + 20
        while (snap := client.get(f"/api/games/{game_id}").json())["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert snap["version"] > mid["version"]
        seen_then = [(e["index"], e["seat"]) for e in mid["log"]]
        assert [(e["index"], e["seat"]) for e in snap["log"][: mid["version"]]] == seen_then


@pytest.mark.parametrize("status", ["open", "running", "finished"])
def test_listing_by_status(db_url: str, registry: Registry, status: str) -> None:
    with TestClient(create_app(registry, db_url)) as client:
        seats = {
            "open": [{"kind": "human"}, {"kind": "human"}],
            "running": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
            "finished": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
        }
        ids = {}
        for st, s in seats.items():
            ids[st] = client.post(
                "/api/games", json=new_game_body(seats=s, claim=0 if st == "running" else None)
            ).json()["id"]
        deadline = time.monotonic() + 20
        while client.get(f"/api/games/{ids['finished']}").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        listed = [g["id"] for g in client.get(f"/api/games?status={status}").json()]
        assert listed == [ids[status]]


def test_migration_0002_keeps_the_oldest_of_several_rematches(db_url: str) -> None:
    """A database from before the one-rematch rule may hold several rematches of a game: the upgrade
    keeps the oldest as the rematch and makes the others games of their own."""
    from alembic import command
    from alembic.config import Config as AlembicConfig

    from ludorum.server.store.db import MIGRATIONS, make_engine

    engine = make_engine(db_url)
    try:
        cfg = AlembicConfig(str(MIGRATIONS.parent / "alembic.ini"))
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0001")
        with engine.begin() as conn:
            for gid, of, when in (("a", None, 1), ("b", "a", 2), ("c", "a", 3), ("d", "a", 3)):
                conn.execute(
                    sa.text(
                        "INSERT INTO games (id, game, config, seed, status, version, rematch_of, created)"
                        " VALUES (:id, 'sealed-bids', '{}', '1', 'finished', 0, :of, :created)"
                    ),
                    {"id": gid, "of": of, "created": f"2026-01-0{when} 00:00:00+00:00"},
                )
        Store(db_url).dispose()  # migrates to head
        with engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT id, rematch_of, seed_chosen FROM games ORDER BY id")).all()
        assert [(r[0], r[1], bool(r[2])) for r in rows] == [
            ("a", None, False),
            ("b", "a", False),
            ("c", None, False),
            ("d", None, False),
        ]
    finally:
        engine.dispose()


@pytest.mark.parametrize(
    ("seed", "status"),
    [(2**64 - 1, 201), (-(2**64) + 1, 201), (0, 201), (2**64, 422), (-(2**64), 422), (10**41, 422)],
)
def test_one_seed_rule_on_both_databases(db_url: str, registry: Registry, seed: int, status: int) -> None:
    """A record's seed is a whole number of magnitude below 2**64 (the generator's 64 bits), wherever
    it is stored; a larger one is a clear 422, not a database error."""
    record = {
        "format": 1,
        "game": "sealed-bids",
        "config": {"players": 2},
        "seed": seed,
        "steps": [],
        "result": None,
    }
    with TestClient(create_app(registry, db_url)) as client:
        r = client.post("/api/records", json={"record": record})
        assert r.status_code == status, r.text
        if status == 422:
            assert r.json()["error"]["code"] == "bad_record" and "seed" in r.json()["error"]["message"]
            assert client.get("/api/games").json() == []
            return
        game_id = r.json()["id"]
    with TestClient(create_app(registry, db_url)) as client:  # stored and read back exactly
        client.get(f"/api/games/{game_id}")
        assert client.app.state.lobby.games.playing[game_id].seed == seed  # type: ignore[attr-defined]


def test_views_encoded_by_a_worker_are_stored_as_the_json_they_encode(db_url: str) -> None:
    """A worker sends the views after a step encoded (``RawJSON``): the archive holds the JSON value
    itself (read back as the views, not as a string of them), and a plain value is encoded as before."""
    from ludorum.engine.disclosure import Step
    from ludorum.server.store.db import RawJSON
    from ludorum.server.work.workers import disclose_step
    from tests.server.support import fixture_registry

    game = fixture_registry().get("sealed-bids")
    before = game.new(game.config(2), 3)
    while game.to_move(before) < 0:  # chance sets the prize first
        before = game.step(before, game.sample_chance(before))
    action = game.legal_actions(before)[0]
    after = game.step(before, action)
    views = disclose_step(Step(game, 0, before, game.to_move(before), action, after))[1].archive()
    assert isinstance(views, RawJSON)
    store = Store(db_url)
    try:
        seats = [SeatData(0, "human"), SeatData(1, "human")]
        store.create_game("g1", "sealed-bids", {"players": 2}, 3, "running", seats)
        assert store.append("g1", 0, 0, action.to_json(), "running", None).result()
        assert store.archive("g1", 0, {"label": "a bid"}, views).result()
        stored = store.load("g1")
        assert stored is not None and stored.archive == json.loads(views) and stored.archived == 0
        assert stored.entries == [{"label": "a bid"}]
    finally:
        store.dispose()


def test_the_writer_keeps_its_connection_and_drops_one_that_failed(db_url: str) -> None:
    """The group-commit writer writes batch after batch on one connection (a checkout and check-in per
    batch cost it as much CPU as a step's statements); a batch that fails drops it, its steps are
    stored one by one as before, and the next batch takes a fresh connection."""
    store = Store(db_url)
    checkouts: list[Any] = []
    sa.event.listen(store.engine, "checkout", lambda *args: checkouts.append(args))
    try:
        seats = [SeatData(0, "human"), SeatData(1, "human")]
        store.create_game("g1", "sealed-bids", {"players": 2}, 3, "running", seats)
        checkouts.clear()
        for i in range(5):
            assert store.append("g1", i, 0, {"kind": "bid", "args": [i]}, "running", None).result()
        assert len(checkouts) == 1
        real = store._append_in
        failed: list[int] = []

        def once(conn: Any, a: Any) -> bool:
            if not failed:
                failed.append(a.idx)
                raise sa.exc.OperationalError("UPDATE", {}, Exception("the connection broke"))
            return real(conn, a)

        store._append_in = once  # type: ignore[method-assign]
        assert store.append("g1", 5, 0, {"kind": "bid", "args": [5]}, "running", None).result()
        assert store.append("g1", 6, 0, {"kind": "bid", "args": [6]}, "running", None).result()
        assert failed == [5]
        assert len(checkouts) == 3  # the failed batch's step alone, then a fresh one for the writer
        stored = store.load("g1")
        assert stored is not None and [s[1]["args"] for s in stored.steps] == [[i] for i in range(7)]
    finally:
        store.dispose()
