"""A server killed with SIGKILL mid-game restarts with every acknowledged action, and play goes on."""

from __future__ import annotations

import json
import os
import signal
import time
from typing import Any

import httpx
import websockets.sync.client

from tests.server.support import TOKEN_BODY, bearer, free_port, new_game_body, server_process


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


def test_a_restart_answers_at_once_and_loads_games_on_first_use(sqlite_url: str) -> None:
    """No game is replayed before the server answers: human games load when first asked for, games
    with bots resume in the background."""
    from fastapi.testclient import TestClient

    from ludorum.server import create_app
    from tests.server.support import fixture_registry

    registry = fixture_registry()
    with TestClient(create_app(registry, sqlite_url, bot_delay=30)) as client:
        humans = [client.post("/api/games", json=new_game_body()).json()["id"] for _ in range(12)]
        bots = new_game_body(players=3, seats=[{"kind": "bot", "bot": "random"}] * 3, claim=None)
        bot_game = client.post("/api/games", json=bots).json()["id"]
    with TestClient(create_app(registry, sqlite_url)) as client:
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        assert not set(humans) & set(lobby.games.playing)  # nothing replayed before answering
        assert len(client.get("/api/games?status=open").json()) == 12  # the lobby needs no replay
        snap = client.get(f"/api/games/{humans[3]}").json()
        assert snap["id"] == humans[3] and snap["version"] >= 1 and humans[3] in lobby.games.playing
        # the bot game resumed by itself, in the background
        deadline = time.monotonic() + 30
        while client.get(f"/api/games/{bot_game}").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert not set(humans[4:]) & set(lobby.games.playing)
