"""The labels of a human's legal actions: found by the worker deciding the readings of the step that
gave it its turn (off the event loop), on the loop when it took that step itself (its ack needs them
at once) or when the worker fails; always the labels ``disclosure.safe_labels`` gives, found once."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludorum.engine import Registry, disclosure
from ludorum.server import create_app
from ludorum.server.work import workers as workers_module
from tests.server.support import TOKEN_BODY, bearer, new_game_body

SAFE_LABELS = disclosure.safe_labels
"""The real one (the first test watches the module's)."""


def _on_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _start(client: TestClient) -> tuple[str, str, str]:
    r = client.post("/api/games", json=new_game_body(claim=0), headers=TOKEN_BODY)
    game_id, t0 = r.json()["id"], r.json()["token"]
    t1 = client.post(f"/api/games/{game_id}/seats/1/claim", headers=TOKEN_BODY).json()["token"]
    client.cookies.clear()
    return game_id, t0, t1


def _turn(client: TestClient, game_id: str) -> dict[str, Any]:
    """The spectator's snapshot once a seat decides (chance draws in the background) or it ended."""
    deadline = time.monotonic() + 30
    while True:
        snap: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
        if snap["to_move"] is not None or snap["status"] == "finished" or time.monotonic() > deadline:
            return snap
        time.sleep(0.01)


def _play(client: TestClient, registry: Registry, turns: int) -> int:
    """Play ``turns`` turns, checking each mover's labels; returns the versions whose labels it read."""
    game = registry.get("sealed-bids")
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    game_id, t0, t1 = _start(client)
    asked = 0
    for _ in range(turns):
        snap = _turn(client, game_id)
        if snap["status"] == "finished":
            break
        token = (t0, t1)[snap["to_move"]]
        mine = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
        live = lobby.games.playing[game_id]
        safe = [(a.kind, list(a.args), label) for a, label in SAFE_LABELS(game, live.state, mine["seat"])]
        assert [(e["action"]["kind"], e["action"]["args"], e["label"]) for e in mine["legal"]] == safe
        asked += 1
        r = client.post(
            f"/api/games/{game_id}/actions",
            json={"version": mine["version"], "action": mine["legal"][0]["action"]},
            headers=bearer(token),
        )
        assert r.status_code == 200
    return asked


def test_labels_are_found_once_and_off_the_loop_when_a_step_gives_the_turn(
    registry: Registry, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = SAFE_LABELS
    where: list[bool] = []

    def watched(*args: Any) -> Any:
        where.append(_on_loop())
        return real(*args)

    monkeypatch.setattr(disclosure, "safe_labels", watched)
    with TestClient(create_app(registry, sqlite_url, workers=0)) as client:
        asked = _play(client, registry, 8)
    # a bid is confirmed by its bidder (the loop finds the confirmation's labels for the bid's ack);
    # the next bidder's come from the worker that decided the confirmation's readings
    assert where.count(True) >= 1 and where.count(False) >= 1
    # once per version the seats read (and perhaps once more: the labels of the turn after the last
    # one played, found ahead by a worker if chance moved before the server stopped)
    assert asked <= len(where) <= asked + 1, where


def test_a_failing_worker_leaves_the_labels_to_the_loop(
    registry: Registry, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any) -> Any:
        raise RuntimeError("the worker died")

    monkeypatch.setattr(workers_module, "disclose_step", broken)
    with TestClient(create_app(registry, sqlite_url, workers=0)) as client:
        assert _play(client, registry, 6) >= 4  # every turn's labels, found on the loop
