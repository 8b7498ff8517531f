"""The protocol over real servers: WebSocket close codes, the migration lock, 405s with ``Allow``, and
the OpenAPI document answering for every refusal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets.sync.client
from websockets.exceptions import ConnectionClosed

from tests.server.support import TOKEN_BODY, live_server, new_game_body

ROOT = Path(__file__).resolve().parents[2]


def close_code(url: str, headers: dict[str, str] | None = None) -> int | None:
    """Connect, say hello, and return the close code the server ends the connection with."""
    with websockets.sync.client.connect(url, additional_headers=headers or {}, open_timeout=10) as ws:
        try:
            ws.send('{"type": "hello", "version": 0}')
            ws.recv(timeout=10)
        except ConnectionClosed as e:
            return e.rcvd.code if e.rcvd else None
    return None


def test_websocket_refusals_arrive_as_close_codes_over_a_real_server(sqlite_url: str) -> None:
    with live_server(sqlite_url) as srv:
        game_id = httpx.post(f"{srv.url}/api/games", json=new_game_body(), headers=TOKEN_BODY).json()["id"]
        ws = srv.url.replace("http", "ws")
        assert close_code(f"{ws}/api/games/0123456789abcdef/ws") == 4404
        assert close_code(f"{ws}/api/games/{game_id}/ws", {"Authorization": "Bearer " + "x" * 43}) == 4401
        assert close_code(f"{ws}/api/games/{game_id}/ws", {"Origin": "https://evil.example"}) == 4403


def test_two_servers_starting_on_a_new_database_both_migrate(db_url: str, tmp_path: Path) -> None:
    """Migrations take a lock (PostgreSQL: an advisory lock; SQLite: an immediate write transaction),
    so server processes starting together on an empty database do not race."""
    ready = tmp_path / "ready"
    ready.mkdir()
    # every process imports first and says so; all migrate once all four are ready
    code = (
        "import os, sys, time; from ludorum.server.store.db import Store; "
        "open(os.path.join(sys.argv[2], str(os.getpid())), 'w').close(); "
        "t = time.monotonic(); "
        "exec('while len(os.listdir(sys.argv[2])) < 4 and time.monotonic() - t < 60: time.sleep(0.005)'); "
        "Store(sys.argv[1]).dispose()"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", code, db_url, str(ready)], cwd=ROOT, stderr=subprocess.PIPE)
        for _ in range(4)
    ]
    failures = [p.communicate(timeout=60)[1].decode()[-400:] for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, failures
    from ludorum.server.store.db import Store

    Store(db_url).dispose()  # and the schema is complete


def test_a_405_names_the_allowed_methods(client: Any) -> None:
    r = client.delete("/api/games")
    assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed"
    assert set(r.headers["allow"].replace(" ", "").split(",")) == {"GET", "POST"}
    r = client.put("/api/games/abc/actions")
    assert r.status_code == 405 and r.headers["allow"] == "POST"


@pytest.mark.parametrize(
    ("path", "method", "statuses"),
    [
        ("/api/games", "post", {"201", "404", "413", "422", "429"}),
        ("/api/records", "post", {"201", "413", "422", "429"}),
        ("/api/games/{game_id}", "get", {"200", "401", "404", "409", "422"}),
        ("/api/games/{game_id}/actions", "post", {"200", "401", "404", "409", "413", "422"}),
        ("/api/games/{game_id}/rematch", "post", {"200", "401", "404", "409", "429"}),
        ("/api/games/{game_id}/leave", "post", {"200", "401", "404", "409", "413", "422", "429"}),
        ("/api/games/{game_id}/seats/{seat}/claim", "post", {"200", "404", "409"}),
    ],
)
def test_the_openapi_document_lists_every_refusal(
    client: Any, path: str, method: str, statuses: set[str]
) -> None:
    doc = client.get("/openapi.json").json()
    answers = doc["paths"][path][method]["responses"]
    assert statuses <= set(answers), sorted(answers)
    for status in statuses - {"200", "201"}:
        schema = answers[status]["content"]["application/json"]["schema"]
        assert schema == {"$ref": "#/components/schemas/ErrorBody"}


def test_a_new_sqlite_database_opens_while_another_process_switches_its_journal(tmp_path: Path) -> None:
    """Switching a new SQLite database to WAL needs it alone, and SQLite refuses the switch at once
    ("database is locked", no busy wait) while another connection holds a write on it — as when servers
    start together on a new database (CI saw one die so).  The switch is retried, not given up."""
    import sqlite3
    import threading

    from sqlalchemy import text

    from ludorum.server.store.db import make_engine

    path = tmp_path / "new.sqlite3"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("CREATE TABLE t (x)")
    other.execute("BEGIN IMMEDIATE")  # a rollback-journal database with a writer at work
    other.execute("INSERT INTO t VALUES (1)")
    threading.Timer(0.3, other.commit).start()
    engine = make_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as conn:
            assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    finally:
        engine.dispose()
        other.close()


def _closed_with(url: str, *messages: str | bytes) -> int | None:
    """Send ``messages`` and return the code the server closes the connection with (``None``: still open
    after a second)."""
    with websockets.sync.client.connect(url, open_timeout=10, max_size=None) as ws:
        try:
            for m in messages:
                ws.send(m)
            while True:
                ws.recv(timeout=1)  # the state pushes, until the server closes
        except TimeoutError:
            return None
        except ConnectionClosed as e:
            return e.rcvd.code if e.rcvd else None


def test_odd_websocket_messages_are_refused_with_a_close_code(sqlite_url: str) -> None:
    """A hello that is binary, nested past the parser's depth or oversized is refused with a close code
    (4400: say hello first; 1009: message too big, from uvicorn, before the app reads it), not dropped by
    an exception; what a client sends after its hello, binary included, is ignored."""
    hello = '{"type": "hello", "version": 0}'
    with live_server(sqlite_url) as srv:
        game_id = httpx.post(f"{srv.url}/api/games", json=new_game_body(), headers=TOKEN_BODY).json()["id"]
        url = f"{srv.url.replace('http', 'ws')}/api/games/{game_id}/ws"
        assert _closed_with(url, hello.encode()) == 4400
        assert _closed_with(url, "[" * 2_000 + "]" * 2_000) == 4400  # within 4 KiB, past the parser's depth
        assert _closed_with(url, hello[:-1] + ', "pad": "' + "x" * 100_000 + '"}') == 1009
        assert _closed_with(url, hello, b"\x00\x01", "anything") is None
