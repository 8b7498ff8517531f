"""The server figure of ``make bench``: concurrent games driven through the HTTP/WebSocket API.

A server is started in its own process on a fresh SQLite database (WAL, full sync: what ``make play``
runs).  ``games`` clients play at once, each holding every seat of its game: a spectator WebSocket
tells it when chance has moved, the seat to move fetches its legal actions, picks one at random and
submits it; the time from sending the action to its acknowledgement (stored, committed, applied) is
the *ack latency*.  A finished game is replaced by a new one until ``seconds`` have passed.  Beside
it, the same run measures a bare SQLite commit (insert one row, commit) with the same settings.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import importlib.util
import json
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

HEADERS = {"X-Ludorum-Token": "body"}
NO_QUOTAS = {"LUDORUM_GAMES_PER_CLIENT": "0", "LUDORUM_WEBSOCKETS_PER_CLIENT": "0"}
"""Every game of a bench comes from one client (127.0.0.1), one after another as fast as they go: its
quota of game starts (20 in 10 minutes by default) is lifted, or a quick game's bench stops at the 21st,
and so is its limit of open WebSockets (the paced bench holds two per game, hundreds of games)."""

BOT_DELAY_ENV = "LUDORUM_BENCH_BOT_DELAY"
"""Seconds the benchmark server's bots pause before moving (default 0: as fast as they go)."""

PROFILE_ENV = "LUDORUM_BENCH_PROFILE"
"""Set to a file name: the benchmark's server process profiles its event loop (cProfile) into it."""

WARM_UP = 3.0
"""Seconds the server is left to start its worker processes before the measure starts."""

CLIENTS = ("httpx", "aiohttp", "websockets")
"""The client libraries the server benches play through: the ``bench`` extra."""


def missing_clients() -> list[str]:
    """Which of :data:`CLIENTS` are not installed (the server benches cannot run without them)."""
    return [name for name in CLIENTS if importlib.util.find_spec(name) is None]


@dataclass
class ServerFigures:
    """What one server benchmark measured."""

    game: str
    games: int
    actions: int
    seconds: float
    actions_per_s: float
    ack_p50_ms: float
    ack_p99_ms: float
    sqlite_commit_p50_ms: float
    sqlite_commits_per_s: float
    bots: str = ""
    """The bot kind in every seat but the human's (empty: every seat is a human)."""
    loop_cpu_ms: float = float("nan")
    """CPU milliseconds the server's event-loop thread spent per acknowledged action (Linux: /proc)."""
    server_cpu_ms: float = float("nan")
    """CPU milliseconds of the whole server process (every thread) per acknowledged action."""
    workers_cpu_ms: float = float("nan")
    """CPU milliseconds of the server's worker processes (readings, replays, search bots) per action."""
    finished: int = 0
    """Games played to their end within the window (each player starts the next at once)."""

    def line(self) -> str:
        """The figure as one line of text."""
        against = f", one human against {self.bots} bots each" if self.bots else ""
        cpu = (
            f"; CPU per action: event loop {self.loop_cpu_ms:.2f} ms, server {self.server_cpu_ms:.2f} ms, "
            f"workers {self.workers_cpu_ms:.2f} ms"
            if self.loop_cpu_ms == self.loop_cpu_ms  # measured (not NaN)
            else ""
        )
        return (
            f"server ({self.games} concurrent {self.game} games{against} over HTTP/WebSocket, SQLite WAL): "
            f"{self.actions_per_s:,.0f} actions/s, ack latency p50 {self.ack_p50_ms:.1f} ms, "
            f"p99 {self.ack_p99_ms:.1f} ms; bare SQLite commit p50 {self.sqlite_commit_p50_ms:.2f} ms "
            f"({self.sqlite_commits_per_s:,.0f} commits/s){cpu}"
        )


def _ticks(path: str) -> int:
    """utime + stime of a /proc ``stat`` file, in clock ticks (0 if it is gone)."""
    try:
        fields = Path(path).read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])  # fields 14 and 15 of proc(5), counted after the name


def cpu_seconds(pid: int) -> tuple[float, float, float]:
    """CPU seconds so far of process ``pid``'s main thread (its event loop), of the whole process, and
    of its child processes still running (NaN where /proc is not available)."""
    if not Path(f"/proc/{pid}/stat").exists():
        return float("nan"), float("nan"), float("nan")
    hz = os.sysconf("SC_CLK_TCK")
    children: list[str] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            children += (task / "children").read_text().split()
    kids = sum(_ticks(f"/proc/{c}/stat") for c in children)
    return _ticks(f"/proc/{pid}/task/{pid}/stat") / hz, _ticks(f"/proc/{pid}/stat") / hz, kids / hz


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (the nearest rank; NaN when there are none)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def sqlite_commit_figures(path: Path, n: int = 300) -> tuple[float, float]:
    """p50 milliseconds and commits per second of a bare one-row SQLite commit (WAL, full sync)."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("CREATE TABLE IF NOT EXISTS t (g TEXT, i INTEGER, a TEXT, PRIMARY KEY (g, i))")
        times = []
        start = time.perf_counter()
        for i in range(n):
            t0 = time.perf_counter()
            conn.execute("INSERT INTO t VALUES (?, ?, ?)", ("g", i, '{"kind": "bid", "args": [1]}'))
            conn.commit()
            times.append(time.perf_counter() - t0)
        total = time.perf_counter() - start
    finally:
        conn.close()
    return statistics.median(times) * 1000, n / total


@contextlib.contextmanager
def bench_server(
    registry_ref: str | None, url: str, port: int, settings: dict[str, str] | None = None
) -> Iterator[tuple[str, int]]:
    """A benchmark server in a process of its own on ``url`` (``settings``: more environment, such
    as quotas); yields its base URL and its process id once it answers.

    The server runs in a process group of its own, with the worker processes it spawns: once it has
    stopped, whatever of the group outlived it (a worker finishing a search, multiprocessing's
    resource tracker) is killed, and the bench returns when none is left to skew the next measure."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([os.getcwd(), os.environ.get("PYTHONPATH", "")])}
    env.update(settings or {})
    cmd = [sys.executable, "-m", "ludorum.bench.server", url, str(port), registry_ref or ""]
    # process_group=0: the group's id is the server's pid (and Ctrl-C reaches the bench alone, which
    # then stops the server below)
    posix = os.name == "posix"
    proc = subprocess.Popen(cmd, env=env, process_group=0 if posix else None)
    base = f"http://127.0.0.1:{port}"
    try:
        import httpx

        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(base + "/api/catalog", timeout=1)
                break
            except httpx.TransportError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the benchmark server did not start") from None
                time.sleep(0.1)
        yield base, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if posix:
            reap_group(proc.pid)


def _group_alive(pgid: int) -> bool:
    """Whether a process of group ``pgid`` still runs (zombies, which have ended, do not count)."""
    if not Path("/proc/self/stat").exists():
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        return True
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # it ended while we looked
        if int(fields[2]) == pgid and fields[0] != "Z":  # fields 3 (state) and 5 (pgrp) of proc(5)
            return True
    return False


def reap_group(pgid: int, seconds: float = 10.0) -> None:
    """Stop every process left in group ``pgid`` (SIGTERM, then SIGKILL after half of ``seconds``) and
    return once none runs, or after ``seconds`` at most."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        deadline = time.monotonic() + seconds / 2
        try:
            os.killpg(pgid, sig)
        except ProcessLookupError:
            return  # none left
        while _group_alive(pgid):
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
        else:
            return


async def _play(
    base: str,
    game: dict[str, Any],
    until: float,
    lat: list[float],
    rng: random.Random,
    bot: str | None = None,
) -> tuple[int, int]:
    """Play games of ``game`` one after another until ``until``; returns the actions acknowledged and the
    games finished by then.  With ``bot``, seat 0 is the only human and bots of that kind hold the other
    seats.  Each player has a client of its own, as a browser does (one client for all walked every
    game's seat cookie, which the server sets on each seat taken, on every request)."""
    async with client_session(base) as client:
        return await _play_with(client, base, game, until, lat, rng, bot)


def client_session(base: str, connections: int = 100, keep_alive: float = 15.0) -> Any:
    """A bench player's HTTP client on ``base`` (an ``aiohttp.ClientSession``, to be entered).

    aiohttp, not httpx: the benches' clients share the server's two cores, and httpx (its pure-Python
    HTTP/1.1 and anyio's cancel scopes) cost the 8-game bench's client 1.1 ms of CPU a request, as much
    as the server spent; aiohttp about a third of that (docs/server.md).  No cookie jar: the players
    present their seat tokens as ``Authorization`` headers, so the server parses no ``Cookie`` header."""
    import aiohttp

    return aiohttp.ClientSession(
        base_url=base,
        timeout=aiohttp.ClientTimeout(total=120),
        connector=aiohttp.TCPConnector(limit=connections, keepalive_timeout=keep_alive),
        cookie_jar=aiohttp.DummyCookieJar(),
    )


async def _answer(client: Any, method: str, path: str, **kwargs: Any) -> bytes:
    """The body of a request's answer through ``client`` (:func:`client_session`); a refusal is an error."""
    async with client.request(method, path, **kwargs) as r:
        body: bytes = await r.read()
    if r.status >= 400:
        raise RuntimeError(f"{method} {path}: the server answered {r.status}: {body[:200]!r}")
    return body


async def call(client: Any, method: str, path: str, **kwargs: Any) -> Any:
    """The JSON answer of a request through ``client`` (:func:`client_session`); a refusal is an error."""
    return orjson.loads(await _answer(client, method, path, **kwargs))


async def _play_with(
    client: Any,
    base: str,
    game: dict[str, Any],
    until: float,
    lat: list[float],
    rng: random.Random,
    bot: str | None,
) -> tuple[int, int]:
    done = finished = 0
    players = game["min_players"]
    while time.perf_counter() < until:
        seats = [{"kind": "human"}] * players
        if bot is not None:
            seats = [{"kind": "human"}] + [{"kind": "bot", "bot": bot}] * (players - 1)
        body = {"game": game["name"], "config": {"players": players}, "seats": seats, "claim": 0}
        made = await call(client, "POST", "/api/games", json=body, headers=HEADERS)
        gid, tokens = made["id"], [made["token"]]
        for seat in range(1, players if bot is None else 1):
            claimed = await call(client, "POST", f"/api/games/{gid}/seats/{seat}/claim", headers=HEADERS)
            tokens.append(claimed["token"])
        async with watch(base, gid) as ws:
            await ws.send(json.dumps({"type": "hello", "version": 0}))
            snap: dict[str, Any] = orjson.loads(await ws.recv())
            while snap["status"] != "finished" and time.perf_counter() < until:
                mover = snap["to_move"]
                if mover is None or (bot is not None and mover != 0):  # chance or a bot: wait for a push
                    seen = snap["version"]
                    while snap["version"] <= seen and snap["status"] != "finished":
                        snap = orjson.loads(await asyncio.wait_for(ws.recv(), 120))
                    continue
                auth = {"Authorization": f"Bearer {tokens[mover]}"}
                if snap.get("seat") != mover:
                    since = f"/api/games/{gid}?since={snap['version']}"
                    snap = await call(client, "GET", since, headers=auth)
                    continue
                took, snap = await play_random(client, gid, snap, auth, rng)
                if time.perf_counter() <= until:  # acknowledged within the measured window
                    lat.append(took)
                    done += 1
            finished += snap["status"] == "finished" and time.perf_counter() <= until
    return done, finished


def watch(base: str, gid: str, headers: dict[str, str] | None = None) -> Any:
    """A WebSocket on game ``gid`` (an async context manager), read as a browser reads it: as a seat's
    with its ``Authorization`` in ``headers``, else as a spectator's.

    ``max_queue=None``: the client takes in every push as it comes.  With websockets' default queue of
    16 it stopped reading the socket after 16 unread pushes (a player reads its socket only when it
    waits), so the close at a game's end waited out its 10 s timeout for a close frame it never read,
    and a game that ended within the window left its player idle for the rest of it: in the 8-game
    bench about half of the player-seconds, so 300 actions/s were measured where the server answered
    450; and the server's pings went unanswered (it closed the socket: 1011).  ``ping_interval=None``: a
    browser sends no pings of its own (it answers the server's)."""
    import websockets

    url = base.replace("http://", "ws://") + f"/api/games/{gid}/ws"
    return websockets.connect(url, additional_headers=headers, ping_interval=None, max_queue=None)


async def play_random(
    client: Any, gid: str, snap: dict[str, Any], auth: dict[str, str], rng: random.Random
) -> tuple[float, dict[str, Any]]:
    """Submit a random legal action of ``snap`` (the mover's snapshot) to game ``gid`` through ``client``
    (:func:`client_session`); returns the seconds until its acknowledgement and the snapshot it
    answered (a refusal is an error)."""
    body = {"version": snap["version"], "action": rng.choice(snap["legal"])["action"]}
    t0 = time.perf_counter()
    answer = await _answer(client, "POST", f"/api/games/{gid}/actions", json=body, headers=auth)
    took = time.perf_counter() - t0  # until the acknowledgement is read; decoding it is the client's
    return took, orjson.loads(answer)


def server_bench(
    game: str | None = None,
    games: int = 8,
    seconds: float = 5.0,
    registry_ref: str | None = None,
    bot: str | None = None,
) -> ServerFigures:
    """Drive ``games`` concurrent games of ``game`` (default: the first registered) for ``seconds``.

    ``registry_ref`` (``"module:function"``) names a function returning the registry the server is
    started with; by default the product registry.  Prints nothing; see :meth:`ServerFigures.line`.
    """
    import httpx

    with tempfile.TemporaryDirectory(prefix="ludorum-bench-") as tmp:
        commit_p50, commits_per_s = sqlite_commit_figures(Path(tmp) / "bare.sqlite3")
        url = f"sqlite:///{Path(tmp) / 'server.sqlite3'}"
        with bench_server(registry_ref, url, free_port(), NO_QUOTAS) as (base, pid):
            catalog = httpx.get(base + "/api/catalog").json()
            if not catalog:
                raise RuntimeError("no games are registered")
            chosen = next((g for g in catalog if g["name"] == game), None) if game else catalog[0]
            if chosen is None:
                raise RuntimeError(f"no game called {game!r}")

            async def run() -> tuple[int, int, list[float], float]:
                lat: list[float] = []
                rng = random.Random(0)
                start = time.perf_counter()
                until = start + seconds
                players = (_play(base, chosen, until, lat, rng, bot) for _ in range(games))
                counts = await asyncio.gather(*players)
                # The rate is over the window, not until every client has left: closing a WebSocket
                # can wait out the client's close timeout (10 s), which once counted as play.
                return sum(c[0] for c in counts), sum(c[1] for c in counts), lat, seconds

            # The server's worker processes start in the background: not part of the measure.
            time.sleep(WARM_UP)
            # A thread of its own: the caller may already run an event loop (Playwright's, a notebook's).
            cpu_before = cpu_seconds(pid)
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                actions, finished, lat, elapsed = pool.submit(asyncio.run, run()).result()
            cpu = [
                (b - a) * 1000 / max(actions, 1) for a, b in zip(cpu_before, cpu_seconds(pid), strict=True)
            ]
    return ServerFigures(
        chosen["name"],
        games,
        actions,
        elapsed,
        actions / elapsed,
        percentile(lat, 0.5) * 1000,
        percentile(lat, 0.99) * 1000,
        commit_p50,
        commits_per_s,
        bot or "",
        loop_cpu_ms=cpu[0],
        server_cpu_ms=cpu[1],
        workers_cpu_ms=cpu[2],
        finished=finished,
    )


def _serve_main() -> None:
    """The benchmark's server process: ``python -m ludorum.bench.server URL PORT [module:function]``."""
    import importlib

    import uvicorn

    from ludorum.server import create_app
    from ludorum.server.connections import raise_descriptor_limit
    from ludorum.server.run import settle_memory, uvicorn_config

    url, port, ref = sys.argv[1], int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else ""
    registry = None
    if ref:
        module, _, attr = ref.partition(":")
        registry = getattr(importlib.import_module(module), attr)()
    app = create_app(registry, url, bot_delay=float(os.environ.get(BOT_DELAY_ENV, "0")))
    settle_memory()  # as ``ludorum serve`` does
    raise_descriptor_limit()
    server = uvicorn.Server(uvicorn_config(app, "127.0.0.1", port))
    profile_to = os.environ.get(PROFILE_ENV)
    if not profile_to:
        server.run()
        return
    import cProfile

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(0)

    # uvicorn raises the signal it stopped on again once it has shut down: exit through ``finally``
    signal.signal(signal.SIGTERM, stop)
    # The event loop's thread only (cProfile sees one thread): what the loop spends per action.
    profiler = cProfile.Profile(time.thread_time)  # CPU time: the loop waiting on its sockets is free
    profiler.enable()
    try:
        server.run()
    finally:
        profiler.disable()
        profiler.dump_stats(profile_to)


if __name__ == "__main__":
    _serve_main()
