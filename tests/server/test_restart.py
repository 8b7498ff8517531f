"""A server killed with SIGKILL mid-game restarts with every acknowledged action, and play goes on."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import websockets.sync.client

from tests.server.support import TOKEN_BODY, bearer, free_port, new_game_body

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def server_process(url: str, port: int, delay: float = 0.0) -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.server.fixture_server", str(port), url, str(delay)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/catalog", timeout=1)
                break
            except httpx.TransportError:
                assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)


def test_sigkill_mid_game_loses_no_acknowledged_action(db_url: str) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    acknowledged: dict[int, Any] = {}
    http = httpx.Client(timeout=30)
    with server_process(db_url, port, delay=0.02) as proc:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        r = http.post(f"{base}/api/games", json=new_game_body(seats=seats), headers=TOKEN_BODY)
        game_id, token = r.json()["id"], r.json()["token"]
        bots = new_game_body(players=3, seats=[{"kind": "bot", "bot": "random"}] * 3, claim=None)
        bot_game = http.post(f"{base}/api/games", json=bots).json()["id"]
        pushed = 0
        ws_url = f"ws://127.0.0.1:{port}/api/games/{bot_game}/ws"
        with websockets.sync.client.connect(ws_url, close_timeout=0.5) as ws:
            ws.send(json.dumps({"type": "hello", "version": 0}))
            deadline = time.monotonic() + 20
            while len(acknowledged) < 6 and time.monotonic() < deadline:
                snap = http.get(f"{base}/api/games/{game_id}", headers=bearer(token)).json()
                if snap["legal"]:
                    action = snap["legal"][1]["action"]
                    r = httpx.post(
                        f"{base}/api/games/{game_id}/actions",
                        json={"version": snap["version"], "action": action},
                        headers=bearer(token),
                    )
                    assert r.status_code == 200
                    acknowledged[snap["version"]] = action
                time.sleep(0.01)
            while pushed == 0:
                message = json.loads(ws.recv(timeout=10))
                pushed = message["version"]
            assert message["status"] != "finished"
            # the bot game is still running when the server dies
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
    assert len(acknowledged) == 6 and pushed > 0
    with server_process(db_url, port) as proc:
        snap = http.get(f"{base}/api/games/{game_id}", headers=bearer(token)).json()
        log = {e["index"]: e for e in snap["log"]}
        for index, action in acknowledged.items():
            assert log[index]["seat"] == 0 and log[index]["action"] == action
        # the game goes on to its end (the bot seat resumes too)
        deadline = time.monotonic() + 30
        while snap["status"] != "finished":
            assert time.monotonic() < deadline
            if snap["legal"]:
                r = httpx.post(
                    f"{base}/api/games/{game_id}/actions",
                    json={"version": snap["version"], "action": snap["legal"][0]["action"]},
                    headers=bearer(token),
                )
                assert r.status_code == 200
            time.sleep(0.01)
            snap = http.get(f"{base}/api/games/{game_id}", headers=bearer(token)).json()
        # every step pushed before the kill was committed; the bot game resumed and finished
        deadline = time.monotonic() + 30
        while (bg := http.get(f"{base}/api/games/{bot_game}").json())["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert bg["version"] >= pushed
