"""The deciding human's safe labels are found by a worker, off the event loop: its turn (an ack, a
push, a fetch) is sent once they are there, and they are the labels ``disclosure.safe_labels`` gives."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludorum.engine import Registry, disclosure
from ludorum.server import create_app
from ludorum.server.workers import Workers
from tests.server.support import TOKEN_BODY, bearer, new_game_body


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


def _labels(snap: dict[str, Any]) -> list[tuple[str, list[Any], str]]:
    return [(e["action"]["kind"], e["action"]["args"], e["label"]) for e in snap["legal"]]


def test_labels_are_found_off_the_loop_and_are_the_safe_ones(
    registry: Registry, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = disclosure.safe_labels
    where: list[bool] = []

    def watched(*args: Any) -> Any:
        where.append(_on_loop())
        return real(*args)

    monkeypatch.setattr(disclosure, "safe_labels", watched)
    game = registry.get("sealed-bids")
    with TestClient(create_app(registry, sqlite_url, workers=0)) as client:
        game_id, t0, t1 = _start(client)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        for _ in range(6):
            snap = _turn(client, game_id)
            if snap["status"] == "finished":
                break
            token = (t0, t1)[snap["to_move"]]
            mine = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
            live = hub.games[game_id]
            expected = [(a.kind, list(a.args), label) for a, label in real(game, live.state, mine["seat"])]
            assert _labels(mine) == expected
            r = client.post(
                f"/api/games/{game_id}/actions",
                json={"version": mine["version"], "action": mine["legal"][0]["action"]},
                headers=bearer(token),
            )
            assert r.status_code == 200
    assert where and not any(where)  # every label was found in a worker (a thread here), none on the loop


def test_the_deciding_seat_is_answered_once_its_labels_are_there(
    registry: Registry, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sealed bid is confirmed by the seat that made it: the bid's ack holds the confirmation's
    labels, so it waits for the worker finding them."""
    release, started = threading.Event(), threading.Event()
    real = Workers.labels

    async def held(self: Workers, *args: Any) -> Any:
        started.set()
        await asyncio.to_thread(release.wait, 30)
        return await real(self, *args)

    with TestClient(create_app(registry, sqlite_url, workers=0)) as client:
        game_id, t0, t1 = _start(client)
        snap = _turn(client, game_id)
        token = (t0, t1)[snap["to_move"]]
        mine = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
        monkeypatch.setattr(Workers, "labels", held)
        answers: list[Any] = []
        post = threading.Thread(
            target=lambda: answers.append(
                client.post(
                    f"/api/games/{game_id}/actions",
                    json={"version": mine["version"], "action": mine["legal"][0]["action"]},
                    headers=bearer(token),
                )
            )
        )
        post.start()
        assert started.wait(30)
        post.join(0.5)
        assert not answers  # no ack while the labels are being found
        release.set()
        post.join(30)
        ack = answers[0].json()
        assert answers[0].status_code == 200 and ack["to_move"] == mine["seat"] and ack["legal"]


def test_a_failing_worker_leaves_the_labels_to_the_loop(
    registry: Registry, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(self: Workers, *args: Any) -> Any:
        raise RuntimeError("the worker died")

    monkeypatch.setattr(Workers, "labels", broken)
    with TestClient(create_app(registry, sqlite_url, workers=0)) as client:
        game_id, t0, t1 = _start(client)
        snap = _turn(client, game_id)
        token = (t0, t1)[snap["to_move"]]
        mine = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
        r = client.post(
            f"/api/games/{game_id}/actions",
            json={"version": mine["version"], "action": mine["legal"][0]["action"]},
            headers=bearer(token),
        )
        assert r.status_code == 200 and r.json()["legal"]
