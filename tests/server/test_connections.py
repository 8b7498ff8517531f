"""The server's own defence of its connections (issue 34), with real sockets on the loopback: the header
timeout against slowloris, the per-client limits on connections and WebSockets, the total cap, and a
log line for each limit hit.  A second client is another loopback address (127.0.0.2).  Every wait is
bounded; small limits keep the sockets few."""

from __future__ import annotations

import contextlib
import resource
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from ludorum.server import create_app
from ludorum.server.connections import (
    MAX_HEADER_BYTES,
    WS_TOO_MANY,
    ConnectionLimits,
    descriptor_cap,
    trusted,
)
from ludorum.server.run import uvicorn_config
from tests.server.support import fixture_registry, free_port, new_game_body

OTHER = "127.0.0.2"
"""The well-behaved client's address (Linux answers on all of 127.0.0.0/8)."""


@contextlib.contextmanager
def guarded_server(tmp_path: Path, limits: ConnectionLimits) -> Iterator[str]:
    """A live server (uvicorn in a thread) with ``limits``, trusting no proxy; yields its URL."""
    port = free_port()
    app = create_app(fixture_registry(), f"sqlite:///{tmp_path / 'db.sqlite3'}")
    server = uvicorn.Server(uvicorn_config(app, "127.0.0.1", port, limits, trusted_proxies=""))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def raw(url: str, source: str = "127.0.0.1") -> socket.socket:
    """A TCP connection to the server from ``source``."""
    port = int(url.rsplit(":", 1)[1])
    s = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    return s


def answer_or_close(s: socket.socket, within: float) -> bytes:
    """What the server sends until it closes the connection (at most ``within`` seconds)."""
    s.settimeout(within)
    got = b""
    with contextlib.suppress(TimeoutError, ConnectionResetError):
        while chunk := s.recv(4096):
            got += chunk
    return got


def other_client(url: str) -> httpx.Client:
    """A client from the other loopback address."""
    return httpx.Client(base_url=url, transport=httpx.HTTPTransport(local_address=OTHER), timeout=10)


def test_headers_sent_one_line_at_a_time_are_cut_off(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with guarded_server(tmp_path, ConnectionLimits(header_timeout=1.0)) as url:
        s = raw(url)
        s.sendall(b"GET /api/catalog HTTP/1.1\r\nHost: x\r\n")
        started, got = time.monotonic(), None
        while got is None and time.monotonic() - started < 10:  # a slowloris: a header line every 0.3 s
            s.settimeout(0.3)
            try:
                got = s.recv(4096)  # the answer, or b"" once closed
            except TimeoutError:
                s.sendall(b"X-Slow: 1\r\n")
        s.close()
        assert got is not None and got.startswith(b"HTTP/1.1 408"), got
        assert b"header_timeout" in got
    assert any("header timeout" in r.getMessage() for r in caplog.records)


def test_headers_that_grow_without_end_are_cut_off(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with guarded_server(tmp_path, ConnectionLimits(header_timeout=60)) as url:
        s = raw(url)
        s.sendall(b"GET /api/catalog HTTP/1.1\r\nHost: x\r\n")
        line = b"X-Filler: " + b"a" * 1000 + b"\r\n"
        cut = False
        try:
            for _ in range(10 * MAX_HEADER_BYTES // len(line)):  # ten times the bound, unless cut off
                s.sendall(line)
        except (BrokenPipeError, ConnectionResetError):
            cut = True
        got = answer_or_close(s, 10)  # the 431, or nothing when the kernel reset the connection first
        s.close()
        assert cut or got.startswith(b"HTTP/1.1 431"), got[:200]
    assert any(f"header size (limit {MAX_HEADER_BYTES})" in r.getMessage() for r in caplog.records)


def test_a_connection_that_says_nothing_is_closed(tmp_path: Path) -> None:
    with guarded_server(tmp_path, ConnectionLimits(header_timeout=1.0)) as url:
        s = raw(url)
        started = time.monotonic()
        got = answer_or_close(s, 10)
        assert got.startswith(b"HTTP/1.1 408") and time.monotonic() - started < 10
        s.close()
        # an honest request on a fresh connection is answered as ever
        assert httpx.get(url + "/api/catalog", timeout=10).status_code == 200


def test_one_address_holds_its_connections_and_others_are_still_answered(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with guarded_server(tmp_path, ConnectionLimits(header_timeout=60, per_client=4)) as url:
        held = [raw(url) for _ in range(4)]
        for s in held:
            s.sendall(b"GET /api/catalog HTTP/1.1\r\n")  # never finished
        extra = raw(url)
        refused = answer_or_close(extra, 10)
        assert refused.startswith(b"HTTP/1.1 429") and b"too_many_connections" in refused
        with other_client(url) as honest:
            for _ in range(3):
                assert honest.get("/api/catalog").status_code == 200
        for s in [*held, extra]:
            s.close()
        # once its connections are closed, the address is welcome again
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(url + "/api/catalog", timeout=10).status_code == 200:
                    break
            assert time.monotonic() < deadline
            time.sleep(0.05)
    assert any("open connections (limit 4) by 127.0.0.1" in r.getMessage() for r in caplog.records)


def ws(stack: contextlib.ExitStack, url: str, game_id: str, source: str = "127.0.0.1") -> ClientConnection:
    """A spectator's WebSocket on ``game_id`` from ``source``, open until ``stack`` closes."""
    port = int(url.rsplit(":", 1)[1])
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    return stack.enter_context(connect(f"ws://127.0.0.1:{port}/api/games/{game_id}/ws", sock=sock))


def watching(conn: ClientConnection) -> bool:
    """Whether the server serves this WebSocket: its hello is answered with the game's state."""
    conn.send('{"type": "hello", "version": 0}')
    return '"type":"state"' in str(conn.recv(timeout=10)).replace(" ", "")


def test_one_address_holds_its_websockets_and_others_still_watch(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with (
        guarded_server(tmp_path, ConnectionLimits(websockets_per_client=3)) as url,
        contextlib.ExitStack() as stack,
    ):
        game_id = httpx.post(url + "/api/games", json=new_game_body(), timeout=10).json()["id"]
        assert all(watching(ws(stack, url, game_id)) for _ in range(3))
        over = ws(stack, url, game_id)
        with pytest.raises(ConnectionClosed) as closed:
            over.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == WS_TOO_MANY
        assert watching(ws(stack, url, game_id, OTHER))
    assert any("open WebSockets (limit 3) by 127.0.0.1" in r.getMessage() for r in caplog.records)


def test_the_total_cap_refuses_past_it_whoever_asks(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with guarded_server(tmp_path, ConnectionLimits(header_timeout=60, total=3)) as url:
        held = [raw(url), raw(url), raw(url, OTHER)]
        extra = raw(url, OTHER)
        refused = answer_or_close(extra, 10)
        assert refused.startswith(b"HTTP/1.1 503") and b"server_full" in refused
        for s in [*held, extra]:
            s.close()
    assert any("open connections of all clients (limit 3)" in r.getMessage() for r in caplog.records)


def test_the_cap_keeps_a_reserve_of_descriptors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resource, "getrlimit", lambda which: (1024, 4096))
    assert descriptor_cap(128) == 896
    assert ConnectionLimits(reserve=100).cap() == 924
    assert ConnectionLimits(total=50).cap() == 50
    with pytest.raises(ValueError, match="file descriptor limit"):
        descriptor_cap(1020)


def test_bad_connection_settings_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="connection setting"):
        ConnectionLimits.from_env({"LUDORUM_CONNECTIONS_PER_CLIENT": "many"})
    with pytest.raises(ValueError, match="timeouts"):
        ConnectionLimits.from_env({"LUDORUM_HEADER_TIMEOUT": "0"})
    assert ConnectionLimits.from_env({"LUDORUM_WEBSOCKETS_PER_CLIENT": "5"}).websockets_per_client == 5


def test_trusted_proxies_are_addresses_networks_or_everyone() -> None:
    local = trusted("127.0.0.1, ::1")
    assert local("127.0.0.1") and local("::1") and not local("10.0.0.1")
    assert trusted("10.0.0.0/8")("10.2.3.4") and not trusted("")("127.0.0.1")
    assert trusted("*")("203.0.113.9")
