"""Three server processes on one PostgreSQL (issue 12, "More than one machine"): a move made through
one process reaches the WebSocket clients of the others promptly, a bot moves exactly once per step
whichever process runs it, and when the process driving a game dies another one takes over."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import httpx
import psycopg
import pytest
import websockets.sync.client

from tests.server.support import TOKEN_BODY, TempPostgres, bearer, free_port, new_game_body, server_process

pytestmark = pytest.mark.postgres

BOUND_MS = 250.0
"""The p95 a move may take from its acknowledgement by one process to a WebSocket client of another:
issue 12 asks for 50 ms, and this shared, loaded test machine gets slack (docs/server.md has the
figure measured)."""

BOTS = {"kind": "bot", "bot": "random"}


class Watcher:
    """A spectator's WebSocket on one server, noting when each version arrives (in a thread)."""

    def __init__(self, port: int, game_id: str) -> None:
        self._stack = contextlib.ExitStack()
        url = f"ws://127.0.0.1:{port}/api/games/{game_id}/ws"
        self.ws = self._stack.enter_context(websockets.sync.client.connect(url, close_timeout=0.5))
        self.ws.send(json.dumps({"type": "hello", "version": 0}))
        self.seen: list[tuple[int, str, float]] = []  # version, status, monotonic time of arrival
        self.claims: list[int] = []  # how many seats each message shows taken
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        with contextlib.suppress(Exception):  # the server went away: the watcher just stops
            while True:
                message = json.loads(self.ws.recv())
                self.seen.append((message["version"], message["status"], time.monotonic()))
                self.claims.append(sum(p["claimed"] for p in message["players"]))

    def arrival(self, version: int, seconds: float = 10.0) -> float:
        """When a message of ``version`` or later arrived (waiting for it)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for v, _, t in list(self.seen):
                if v >= version:
                    return t
            time.sleep(0.001)
        raise AssertionError(f"version {version} never arrived (seen: {[v for v, _, _ in self.seen]})")

    def claimed(self, seats: int, seconds: float = 10.0) -> bool:
        """Whether a message has shown ``seats`` seats taken (waiting up to ``seconds``)."""
        deadline = time.monotonic() + seconds
        while seats not in self.claims:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def finished(self, seconds: float) -> bool:
        """Whether the game has been seen over (waiting up to ``seconds``)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if any(s == "finished" for _, s, _ in list(self.seen)):
                return True
            time.sleep(0.02)
        return False

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._stack.close()


@contextlib.contextmanager
def three_servers(url: str, logs: Path, delay: float = 0.0) -> Iterator[list[tuple[int, Any, IO[bytes]]]]:
    """Three server processes on ``url``: (port, process, its stderr file)."""
    with contextlib.ExitStack() as stack:
        servers: list[tuple[int, Any, IO[bytes]]] = []
        for name in "abc":
            port = free_port()
            err = stack.enter_context(open(logs / f"{name}.stderr", "w+b"))
            servers.append((port, stack.enter_context(server_process(url, port, delay, stderr=err)), err))
        yield servers


def _stderr(err: IO[bytes]) -> str:
    err.flush()
    err.seek(0)
    return err.read().decode(errors="replace")


def _turn(base: str, game_id: str, tokens: list[str]) -> tuple[str, dict[str, Any]]:
    """The token of the seat deciding now and its snapshot (waiting while chance moves)."""
    deadline = time.monotonic() + 10
    while True:
        for token in tokens:
            snap = httpx.get(f"{base}/api/games/{game_id}", headers=bearer(token), timeout=30).json()
            if snap["legal"] or snap["status"] == "finished":
                return token, snap
        assert time.monotonic() < deadline, "no seat's turn came"
        time.sleep(0.01)


def test_a_move_through_one_process_reaches_the_others_websockets(
    postgres: TempPostgres, tmp_path: Path
) -> None:
    url = postgres.new_database()
    with three_servers(url, tmp_path) as servers:
        (pa, _, _), (pb, _, eb), (pc, _, ec) = servers
        a = f"http://127.0.0.1:{pa}"
        r = httpx.post(f"{a}/api/games", json=new_game_body(players=3), headers=TOKEN_BODY, timeout=30)
        game_id, tokens = r.json()["id"], [r.json()["token"]]
        watchers = [Watcher(pb, game_id), Watcher(pc, game_id)]
        for seat, port in ((1, pb), (2, pc)):  # seats taken through the other processes
            claimed = httpx.post(
                f"http://127.0.0.1:{port}/api/games/{game_id}/seats/{seat}/claim",
                headers=TOKEN_BODY,
                timeout=30,
            )
            tokens.append(claimed.json()["token"])
        # a seat taken through C is pushed by B too (its news has no version: B reloads the seats)
        assert watchers[0].claimed(3)
        from_ack: list[float] = []
        from_send: list[float] = []
        dropped = False
        try:
            for _ in range(40):  # the game takes 21 steps: never more than that many moves
                token, snap = _turn(a, game_id, tokens)
                if snap["status"] == "finished":
                    break
                for w in watchers:  # both are up to date: the next arrival is this move's
                    w.arrival(snap["version"])
                drop = not dropped and snap["version"] >= 10
                if drop:
                    # every listener's connection drops: each reconnects and catches up what it missed
                    with psycopg.connect(url.replace("+psycopg", ""), autocommit=True) as c:
                        c.execute(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                            " WHERE application_name = 'ludorum-listen'"
                        )
                    dropped = True
                sent = time.monotonic()
                r = httpx.post(
                    f"{a}/api/games/{game_id}/actions",
                    json={"version": snap["version"], "action": snap["legal"][0]["action"]},
                    headers=bearer(token),
                    timeout=30,
                )
                acked = time.monotonic()
                assert r.status_code == 200, r.text
                for w in watchers:
                    t = w.arrival(r.json()["version"])
                    if not drop:  # the move after the drop is not timed: the reconnection is in its way
                        from_ack.append(max(0.0, t - acked) * 1000)
                        from_send.append((t - sent) * 1000)
            assert snap["status"] == "finished"
            for w in watchers:
                assert w.finished(10)
        finally:
            for w in watchers:
                w.close()
        assert dropped and len(from_ack) >= 30  # 18 moves (3 rounds, 2 decisions per seat), 2 processes
        p95 = statistics.quantiles(from_ack, n=20)[-1]
        ack = f"p50 {statistics.median(from_ack):.1f} ms, p95 {p95:.1f} ms, max {max(from_ack):.1f} ms"
        p95_send = statistics.quantiles(from_send, n=20)[-1]
        send = f"p50 {statistics.median(from_send):.1f} ms, p95 {p95_send:.1f} ms"
        print(f"\nfan-out over {len(from_ack)} arrivals: after the ack {ack}; after the send {send}")
        assert p95 < BOUND_MS, from_ack
        for err in (eb, ec):
            assert "Traceback" not in _stderr(err), _stderr(err)


def test_bots_move_once_per_step_and_another_process_takes_over(
    postgres: TempPostgres, tmp_path: Path
) -> None:
    url = postgres.new_database()
    with three_servers(url, tmp_path, delay=0.05) as servers:
        bases = [f"http://127.0.0.1:{port}" for port, _, _ in servers]
        body = new_game_body(players=3, seats=[BOTS] * 3, claim=None)
        games = [httpx.post(f"{base}/api/games", json=body, timeout=30).json()["id"] for base in bases]
        # every process holds every game (a spectator on each): all three could move its bots
        watchers = {(g, i): Watcher(port, g) for g in games for i, (port, _, _) in enumerate(servers)}
        # and one game only the first process holds: once it dies, no other would ever load it
        orphan = httpx.post(f"{bases[0]}/api/games", json=body, timeout=30).json()["id"]
        try:
            time.sleep(0.3)
            os.kill(servers[0][1].pid, signal.SIGKILL)  # the first process dies mid-game
            for g in games:
                for i in (1, 2):
                    assert watchers[g, i].finished(30), f"game {g} did not finish on server {i}"
        finally:
            for w in watchers.values():
                w.close()
        with psycopg.connect(url.replace("+psycopg", ""), autocommit=True) as c:
            status = "SELECT status FROM games WHERE id = %s"
            deadline = time.monotonic() + 60  # found within ADOPT_ROUNDS × TAKE_OVER seconds, then played
            while c.execute(status, (orphan,)).fetchone() != ("finished",):
                assert time.monotonic() < deadline, "the game only the dead process held was never adopted"
                time.sleep(0.2)
            for g in [*games, orphan]:
                version = c.execute("SELECT version, status FROM games WHERE id = %s", (g,)).fetchone()
                idx = [
                    i for (i,) in c.execute("SELECT idx FROM actions WHERE game_id = %s ORDER BY idx", (g,))
                ]
                assert version is not None and version[1] == "finished"
                assert idx == list(range(version[0])), "every version has exactly one step"
                # the record each surviving process holds is the stored one
                records = [httpx.get(f"{base}/api/games/{g}/record", timeout=30).json() for base in bases[1:]]
                assert records[0] == records[1] and len(records[0]["steps"]) == version[0]
        for _, _, err in servers[1:]:
            text = _stderr(err)
            # one driver per game: no process ever lost a bot's or chance's step to another, or failed
            assert "took step" not in text and "Traceback" not in text and "ERROR" not in text, text
