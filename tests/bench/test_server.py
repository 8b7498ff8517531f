"""The server benchmark drives real games through the API and reports consistent figures."""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

import pytest

from ludorum.bench.server import server_bench
from ludorum.bench.server_paced import PacedStep, check_ramp, server_bench_paced
from tests.loops import run_alone


def test_server_bench_plays_games_through_the_api() -> None:
    f = server_bench(None, games=2, seconds=2.0, registry_ref="tests.server.support:fixture_registry")
    assert f.game == "sealed-bids" and f.games == 2
    assert f.actions > 0 and math.isclose(f.actions_per_s, f.actions / f.seconds)
    assert f.seconds == 2.0  # the window: what the clients' leaving takes (a WebSocket's close) is not play
    assert 0 < f.ack_p50_ms <= f.ack_p99_ms
    assert f.sqlite_commit_p50_ms > 0 and f.sqlite_commits_per_s > 0
    assert "actions/s" in f.line() and "bare SQLite commit" in f.line()
    if Path("/proc/self/stat").exists():  # the CPU each action costs the server (Linux)
        assert 0 < f.loop_cpu_ms <= f.server_cpu_ms and f.workers_cpu_ms >= 0
        assert "event loop" in f.line()


def test_server_bench_runs_under_a_callers_event_loop() -> None:
    """Playwright's sync API (or a notebook) keeps a loop running in the caller's thread."""
    import asyncio
    import threading

    async def inside() -> float:
        f = server_bench(None, games=1, seconds=0.5, registry_ref="tests.server.support:fixture_registry")
        return f.actions_per_s

    # A thread of the test's own: pytest's may already hold Playwright's loop (browser tests).
    results: list[float] = []
    thread = threading.Thread(target=lambda: results.append(asyncio.run(inside())))
    thread.start()
    thread.join(timeout=120)
    assert results and results[0] > 0


def test_the_paced_bench_ramps_games_at_a_human_pace() -> None:
    seen: list[PacedStep] = []
    f = server_bench_paced(
        None,
        ramp=(1, 3),
        seconds=1.5,
        think=(0.0, 0.1),
        registry_ref="tests.server.support:fixture_registry",
        progress=seen.append,
    )
    assert seen == f.steps
    assert f.game == "sealed-bids" and [s.games for s in f.steps] == [1, 3]
    for s in f.steps:
        assert s.actions > 0 and 0 < s.ack_p50_ms <= s.ack_p99_ms and s.pushes > 0 and not s.errors
        if Path("/proc/self/stat").exists():
            assert s.loop_cpu_ms > 0 and 0 < s.loop_busy < 1
    assert f.held == max((s.games for s in f.steps if s.ack_p99_ms <= f.target_ms), default=0)
    assert f"holds {f.held} games" in f.line() and "3 games:" in f.line()


@pytest.mark.parametrize("ramp", [(), (0, 10), (200, 100), (100, 100)])
def test_a_ramp_must_rise_from_one_game(ramp: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="rising list of game counts"):
        check_ramp(ramp)
    with pytest.raises(ValueError, match="rising list of game counts"):
        server_bench_paced(None, ramp=ramp)  # refused before any server starts


def test_a_think_time_is_a_range() -> None:
    with pytest.raises(ValueError, match="think time"):
        server_bench_paced(None, ramp=(1,), think=(3.0, 1.0))


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid`` now (Linux /proc)."""
    out, todo = [], [pid]
    while todo:
        for task in Path(f"/proc/{todo.pop()}/task").glob("*"):
            try:
                kids = [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                continue
            out += kids
            todo += kids
    return out


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended and waiting for its parent to read its status, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the process tree from /proc")
def test_the_bench_server_leaves_no_process_behind() -> None:
    """The server's worker processes (and multiprocessing's resource tracker) are reaped with it: none
    is left running when ``bench_server`` returns, to skew the next measure."""
    import tempfile

    from ludorum.bench.server import bench_server, free_port

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'server.sqlite3'}"
        workers = {"LUDORUM_WORKERS": "1"}  # (the tests' servers run none: tests/server/conftest.py)
        with bench_server("tests.server.support:fixture_registry", url, free_port(), workers) as (_, pid):
            deadline = time.monotonic() + 30
            while not (below := _descendants(pid)):  # the workers start in the background
                assert time.monotonic() < deadline, "the server started no worker process"
                time.sleep(0.1)
        assert not _alive(pid)
        assert [p for p in below if _alive(p)] == []


def test_a_paced_step_says_why_its_games_failed() -> None:
    from ludorum.bench.server_paced import PacedStep

    step = PacedStep(300, 20.0, 100, 10.0, 20.0, 50, 1.0, 0.2)
    assert "failed" not in step.line()
    step.errors = ["ReadTimeout: ", "ReadTimeout: ", "ConnectionClosed: 1006", "A", "B"]
    line = step.line()
    assert "5 games failed (2× ReadTimeout: ; 1× ConnectionClosed: 1006; 1× A; 1 more kinds)" in line


def test_each_paced_human_plays_through_a_client_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Like a browser, each human's client holds its own connections, and no other game's seat cookie:
    one client for all (its pool scanned and its cookie jar walked on every request, both growing with
    the games) made the bench's own process the bottleneck at 300 games."""
    import aiohttp

    from ludorum.bench import server_paced

    played: dict[int, set[str]] = {}
    real = server_paced.play_random

    async def spy(client: aiohttp.ClientSession, gid: str, *rest: Any) -> Any:
        played.setdefault(id(client), set()).add(gid)
        assert isinstance(client.cookie_jar, aiohttp.DummyCookieJar)  # seats by their tokens alone
        return await real(client, gid, *rest)

    monkeypatch.setattr(server_paced, "play_random", spy)
    server_bench_paced(
        None, ramp=(3,), seconds=1.5, think=(0.0, 0.1), registry_ref="tests.server.support:fixture_registry"
    )
    assert len(played) >= 3  # three humans, three clients


def test_a_paced_humans_socket_keeps_answering_pings_while_it_thinks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A human reads its own WebSocket only between its turns: a run of decisions (a compound action's
    parts, 1-4 s each) leaves its pushes unread, and with a bounded queue the client stops reading the
    socket, so the server's pings go unanswered and it closes the socket (1011, keepalive ping timeout)
    — the bench's doing, not the server's: a browser reads its socket all the time."""
    import websockets

    opened: list[dict[str, Any]] = []
    real = websockets.connect

    def connect(url: str, **kwargs: Any) -> Any:
        opened.append(kwargs)
        return real(url, **kwargs)

    monkeypatch.setattr(websockets, "connect", connect)
    server_bench_paced(
        None, ramp=(1,), seconds=1.0, think=(0.0, 0.1), registry_ref="tests.server.support:fixture_registry"
    )
    assert opened and all(kw.get("max_queue", 16) is None for kw in opened)


def test_a_player_that_reads_its_socket_only_when_it_waits_leaves_its_game_at_once() -> None:
    """The bench's players read their WebSocket only while they wait (chance, a bot); a game played to
    its end without reading it leaves dozens of pushes unread, and the close must still be prompt: with
    websockets' default queue the client stopped reading and the close waited out its 10 s timeout,
    leaving the player idle (half the 8-game bench's player-seconds)."""
    import asyncio
    import json
    import random
    import tempfile

    from ludorum.bench.server import (
        HEADERS,
        bench_server,
        call,
        client_session,
        free_port,
        play_random,
        watch,
    )

    async def play_one(base: str) -> tuple[int, float]:
        async with client_session(base) as client:
            body = {"game": "sealed-bids", "config": {"players": 2}, "seats": [{"kind": "human"}] * 2}
            made = await call(client, "POST", "/api/games", json={**body, "claim": 0}, headers=HEADERS)
            other = await call(client, "POST", f"/api/games/{made['id']}/seats/1/claim", headers=HEADERS)
            tokens, rng, steps = [made["token"], other["token"]], random.Random(3), 0
            async with watch(base, made["id"]) as ws:
                await ws.send(json.dumps({"type": "hello", "version": 0}))
                snap = json.loads(await ws.recv())  # then one push a step, none read
                while snap["status"] != "finished":
                    auth = {"Authorization": f"Bearer {tokens[snap['to_move'] or 0]}"}
                    if snap["to_move"] is None or snap.get("seat") != snap["to_move"]:
                        await asyncio.sleep(0.01)  # chance, or the other seat's turn: its own view
                        snap = await call(client, "GET", f"/api/games/{made['id']}", headers=auth)
                        continue
                    _, snap = await play_random(client, made["id"], snap, auth, rng)
                    steps += 1
                started = time.perf_counter()
            return steps, time.perf_counter() - started

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'server.sqlite3'}"
        with bench_server("tests.server.support:fixture_registry", url, free_port()) as (base, _):
            steps, closing = run_alone(play_one(base))
    assert steps > 16  # more pushes than websockets' default queue holds went unread
    assert closing < 3.0
