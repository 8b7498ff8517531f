"""Tokens and seeds never reach a log line, even at debug level with access logs on."""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

import httpx
import pytest
import uvicorn

from ludorum.server import create_app
from tests.server.support import TOKEN_BODY, bearer, fixture_registry, free_port, new_game_body


def test_tokens_and_seeds_stay_out_of_the_logs(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    port = free_port()
    app = create_app(fixture_registry(), f"sqlite:///{tmp_path / 'db.sqlite3'}")
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, log_level="debug", access_log=True)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base) as c:
            made = c.post("/api/games", json=new_game_body(), headers=TOKEN_BODY).json()
            game_id, token = made["id"], made["token"]
            other = c.post(f"/api/games/{game_id}/seats/1/claim", headers=TOKEN_BODY).json()["token"]
            c.get(f"/api/games/{game_id}", headers=bearer(token))
            c.post(
                f"/api/games/{game_id}/actions",
                json={"version": 99, "action": {"kind": "x"}},
                headers=bearer(other),
            )
            forged = token[:-4] + "AAAA"
            r = c.post(
                f"/api/games/{game_id}/actions",
                json={"version": 1, "action": {"kind": "x"}},
                headers=bearer(forged),
            )
            assert r.status_code == 401 and forged not in r.text
            c.post(f"/api/games/{game_id}/leave", json={}, headers=bearer(other))
        seed = str(next(iter(app.state.lobby.games.playing.values())).seed)
    finally:
        server.should_exit = True
        thread.join(timeout=30)
    # the server's log lines (the test's own HTTP client logs its headers at debug level: not ours)
    text = "\n".join(
        f"{r.name} {r.getMessage()}" for r in caplog.records if not r.name.startswith(("httpx", "httpcore"))
    )
    assert "POST /api/games" in text  # the access log was captured
    for secret in (token, other, forged, seed):
        assert secret not in text
