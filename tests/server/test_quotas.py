"""Quotas: games per client (a sliding window) and all-bot games per server, refused with a clear 429."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from ludorum.engine import Registry
from ludorum.server import create_app
from ludorum.server.errors import ApiError
from ludorum.server.limits import ClientQuota, Limits, client_key
from tests.server.support import TOKEN_BODY, bearer, live_server, new_game_body

BOTS = new_game_body(seats=[{"kind": "bot", "bot": "random"}] * 2, claim=None)
RECORD = {"format": 1, "game": "sealed-bids", "config": {"players": 2}, "seed": 5, "steps": []}


def refused(r: httpx.Response, code: str) -> dict[str, Any]:
    assert r.status_code == 429, r.text
    body: dict[str, Any] = r.json()["error"]
    assert body["code"] == code and body["message"]
    assert int(r.headers["retry-after"]) >= 1 and body["retry_after"] == int(r.headers["retry-after"])
    return body


def test_games_per_client_over_a_sliding_window(sqlite_url: str) -> None:
    limits = Limits(games_per_client=3, window=1.5, bot_games=0)
    with live_server(sqlite_url, limits=limits) as srv, httpx.Client(base_url=srv.url, timeout=30) as http:
        a = {"X-Forwarded-For": "203.0.113.7"}  # uvicorn takes the client from a proxy on 127.0.0.1
        assert http.post("/api/games", json=new_game_body(), headers=a).status_code == 201
        assert http.post("/api/records", json={"record": RECORD}, headers=a).status_code == 201
        assert http.post("/api/games", json=BOTS, headers=a).status_code == 201
        started = time.monotonic()
        body = refused(http.post("/api/games", json=new_game_body(), headers=a), "too_many_games")
        assert "3 games" in body["message"]
        refused(http.post("/api/records", json={"record": RECORD}, headers=a), "too_many_games")
        assert len(http.get("/api/games").json()) == 3  # the refusals made nothing
        # another client is not held back; a bad request does not use up the quota
        b = {"X-Forwarded-For": "198.51.100.9"}
        assert http.post("/api/games", json={**new_game_body(), "game": "nope"}, headers=b).status_code == 404
        for _ in range(3):
            assert http.post("/api/games", json=new_game_body(), headers=b).status_code == 201
        # once the window has passed, the first client may start games again
        time.sleep(max(0.0, 1.6 - (time.monotonic() - started)))
        assert http.post("/api/games", json=new_game_body(), headers=a).status_code == 201


def test_all_bot_games_per_server(registry: Registry, sqlite_url: str) -> None:
    """The server runs at most ``bot_games`` games without a human at once, whoever asks."""
    app = create_app(registry, sqlite_url, bot_delay=30, limits=Limits(games_per_client=0, bot_games=2))
    with TestClient(app) as client:
        for _ in range(2):
            assert client.post("/api/games", json=BOTS).status_code == 201
        refused(client.post("/api/games", json=BOTS), "too_many_bot_games")
        three = new_game_body(players=3, seats=[{"kind": "bot", "bot": "random"}] * 3, claim=None)
        refused(client.post("/api/games", json=three), "too_many_bot_games")
        assert len(client.get("/api/games").json()) == 2
        # a game with a human in it is still welcome; handing its last human seat to a bot is not
        r = client.post(
            "/api/games",
            json=new_game_body(seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}]),
            headers=TOKEN_BODY,
        )
        assert r.status_code == 201
        game_id, token = r.json()["id"], r.json()["token"]
        refused(
            client.post(f"/api/games/{game_id}/leave", json={"bot": "random"}, headers=bearer(token)),
            "too_many_bot_games",
        )
        assert client.get(f"/api/games/{game_id}", headers=bearer(token)).json()["seat"] == 0
        # leaving the seat open (no bot) is always possible
        assert client.post(f"/api/games/{game_id}/leave", json={}, headers=bearer(token)).status_code == 200


def test_finished_bot_games_free_their_place(registry: Registry, sqlite_url: str) -> None:
    app = create_app(registry, sqlite_url, limits=Limits(games_per_client=0, bot_games=1))
    with TestClient(app) as client:
        first = client.post("/api/games", json=BOTS).json()["id"]
        deadline = time.monotonic() + 20
        while client.get(f"/api/games/{first}").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert client.post("/api/games", json=BOTS).status_code == 201


def test_limits_from_the_environment() -> None:
    env = {"LUDORUM_GAMES_PER_CLIENT": "7", "LUDORUM_QUOTA_WINDOW": "60", "LUDORUM_BOT_GAMES": "0"}
    assert Limits.from_env(env) == Limits(games_per_client=7, window=60.0, bot_games=0)
    assert Limits.from_env({}) == Limits()
    with pytest.raises(ValueError, match="quota"):
        Limits.from_env({"LUDORUM_BOT_GAMES": "many"})
    with pytest.raises(ValueError, match="quota"):
        Limits.from_env({"LUDORUM_GAMES_PER_CLIENT": "-1"})


def test_client_keys() -> None:
    assert client_key("203.0.113.7") == "203.0.113.7"
    # the addresses of one IPv6 /64 network are one client; an IPv4-mapped address is its IPv4 one
    assert client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("::ffff:203.0.113.7") == "203.0.113.7"
    assert client_key(None) == "unknown"


def test_the_window_forgets_old_starts_and_idle_clients() -> None:
    now = [0.0]
    quota = ClientQuota(Limits(games_per_client=2, window=10.0), clock=lambda: now[0])
    for client in ("a", "a", "b"):
        quota.check(client)
    with pytest.raises(ApiError) as info:
        quota.check("a")
    assert info.value.status == 429 and info.value.headers == {"Retry-After": "10"}
    now[0] = 10.5
    quota.check("a")
    now[0] = 30.0
    quota.check("c")
    assert set(quota._starts) == {"c"}  # memory holds only the starts of one window
