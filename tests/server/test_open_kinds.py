"""Open action kinds over the wire: a free argument is offered as ``open`` and validated by the game."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludorum.engine import Registry
from ludorum.server import create_app
from tests.fixtures.sealed_bids import OpenBids, SealedBids
from tests.server.support import TOKEN_BODY, bearer, new_game_body


def start(game: SealedBids, tmp_path: Path) -> Iterator[tuple[TestClient, str, str, dict[str, Any]]]:
    reg = Registry()
    reg.register(game)
    with TestClient(create_app(reg, f"sqlite:///{tmp_path / 'db.sqlite3'}")) as client:
        r = client.post("/api/games", json=new_game_body(), headers=TOKEN_BODY)
        game_id, token = r.json()["id"], r.json()["token"]
        client.cookies.clear()
        deadline = time.monotonic() + 10
        while not (snap := client.get(f"/api/games/{game_id}", headers=bearer(token)).json())["legal"]:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        yield client, game_id, token, snap


@pytest.fixture
def open_game(tmp_path: Path) -> Iterator[tuple[TestClient, str, str, dict[str, Any]]]:
    yield from start(OpenBids(), tmp_path)


@pytest.fixture
def closed_game(tmp_path: Path) -> Iterator[tuple[TestClient, str, str, dict[str, Any]]]:
    yield from start(SealedBids(), tmp_path)


def submit(client: TestClient, game_id: str, token: str, version: int, args: list[int]) -> Any:
    body = {"version": version, "action": {"kind": "bid", "args": args}}
    return client.post(f"/api/games/{game_id}/actions", json=body, headers=bearer(token))


def test_an_open_kind_is_announced_and_an_unlisted_argument_accepted(open_game) -> None:  # type: ignore[no-untyped-def]
    client, game_id, token, snap = open_game
    assert snap["open"] == {"bid": "any whole number of coins"}
    assert {"kind": "bid", "args": [7]} not in [entry["action"] for entry in snap["legal"]]
    r = submit(client, game_id, token, snap["version"], [7])
    assert r.status_code == 200, r.text


def test_without_an_open_kind_the_same_argument_is_refused(closed_game) -> None:  # type: ignore[no-untyped-def]
    client, game_id, token, snap = closed_game
    assert snap["open"] == {}
    r = submit(client, game_id, token, snap["version"], [7])
    assert r.status_code == 422 and r.json()["error"]["code"] == "illegal_action"
