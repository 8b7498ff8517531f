"""Nothing heavy on the event loop: readings decided by workers after the acknowledgement, group
commits, views computed once per version."""

from __future__ import annotations

import dataclasses
import random
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from ludorum.engine import CHANCE, Config, Registry, disclosure
from ludorum.engine.disclosure import Step
from ludorum.server import create_app
from ludorum.server.play.live import provisional_entry
from ludorum.server.store.db import Store
from ludorum.server.store.tables import SeatData
from ludorum.server.work import workers as workers_module
from ludorum.server.work.workers import Workers
from tests.loops import run_alone
from tests.server.support import TOKEN_BODY, bearer, fixture_registry, new_game_body


def _two_players(client: TestClient) -> tuple[str, str, str]:
    r = client.post("/api/games", json=new_game_body(claim=0), headers=TOKEN_BODY)
    game_id, t0 = r.json()["id"], r.json()["token"]
    t1 = client.post(f"/api/games/{game_id}/seats/1/claim", headers=TOKEN_BODY).json()["token"]
    client.cookies.clear()  # seats by their Authorization header; without one, a spectator
    return game_id, t0, t1


def _first_legal(client: TestClient, game_id: str, token: str) -> tuple[int, dict[str, Any]]:
    snap = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
    return snap["version"], snap["legal"][0]["action"]


def test_a_step_is_acknowledged_before_its_readings_are_decided(
    registry: Registry, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The readings run in a worker, after the commit: held there, they delay the other observers'
    news, never the actor's acknowledgement (deciding them on the event loop would hang it)."""
    release = threading.Event()
    started = threading.Event()
    real = workers_module.disclose_step

    def held(*args: Any) -> Any:
        if args[0].actor == CHANCE:  # the opening prize draw passes; the seats' steps wait
            return real(*args)
        started.set()
        assert release.wait(30), "the test never released the worker"
        return real(*args)

    monkeypatch.setattr(workers_module, "disclose_step", held)
    with TestClient(create_app(registry, sqlite_url, workers=0)) as client:
        game_id, t0, _t1 = _two_players(client)
        with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
            ws.send_json({"type": "hello", "version": 0})
            assert ws.receive_json()["version"] == 1  # the prize is drawn
            version, action = _first_legal(client, game_id, t0)
            r = client.post(
                f"/api/games/{game_id}/actions",
                json={"version": version, "action": action},
                headers=bearer(t0),
            )
            assert r.status_code == 200 and r.json()["version"] == 2  # acknowledged while held
            assert [e["action"] for e in r.json()["log"]] == [action]  # its own step, in full
            assert started.wait(30)
            assert client.app.state.lobby.games.playing[game_id].pending  # type: ignore[attr-defined]
            release.set()
            pushed = ws.receive_json()  # the spectator hears of the step once its reading is decided
            assert pushed["version"] == 2 and [e["index"] for e in pushed["log"]] == [1]
            assert pushed["log"][0]["action"] is None  # a sealed bid: secret to the spectator


def test_the_provisional_entry_is_the_disclosed_one_but_for_the_readings() -> None:
    game = fixture_registry().get("sealed-bids")
    rng = random.Random(5)
    for seed in range(4):
        state = game.new(Config(players=3), seed)
        index = 0
        while not game.is_over(state):
            mover = game.to_move(state)
            action = (
                game.sample_chance(state) if mover == CHANCE else rng.choice(list(game.legal_actions(state)))
            )
            after = game.step(state, action)
            full = disclosure.disclose(Step(game, index, state, mover, action, after))
            early = provisional_entry(Step(game, index, state, mover, action, after))
            assert early == dataclasses.replace(full, readings={})
            assert early.reading(mover) == full.reading(mover)
            state, index = after, index + 1


def test_readings_are_decided_in_worker_processes(registry: Registry, sqlite_url: str) -> None:
    """With worker processes, the game and its states travel there and the entry comes back whole."""
    with TestClient(create_app(registry, sqlite_url, workers=1)) as client:
        game_id, t0, t1 = _two_players(client)
        for _ in range(4):  # bid, confirm, bid, confirm
            token = (t0, t1)[client.get(f"/api/games/{game_id}").json()["to_move"]]
            version, action = _first_legal(client, game_id, token)
            r = client.post(
                f"/api/games/{game_id}/actions",
                json={"version": version, "action": action},
                headers=bearer(token),
            )
            assert r.status_code == 200
        spectator = client.get(f"/api/games/{game_id}").json()  # waits for the readings
        live = client.app.state.lobby.games.playing[game_id]  # type: ignore[attr-defined]
        assert spectator["version"] >= 5 and len(spectator["log"]) == spectator["version"]
        assert all(live.log[i].readings for i in range(5))  # decided in the worker process
        assert set(live.log[1].readings) == {None, 1}  # every observer but the actor


def test_the_workers_run_below_the_servers_priority() -> None:
    """A job written to a worker's pipe wakes it; at the server's own priority it took the loop's CPU at
    once (the loop's 7 us write took 85-100 us of wall time in the 8-game bench), niced it waits for
    the loop to sleep."""
    import os

    async def niceness() -> int:
        workers = Workers(1)
        try:
            workers.start()
            return int(await workers.run("game", os.nice, 0))
        finally:
            workers.shutdown()

    assert run_alone(niceness()) == min(19, os.nice(0) + workers_module.WORKER_NICENESS)
    assert workers_module.WORKER_NICENESS > 0


def test_waiting_steps_share_one_commit(tmp_path: Path) -> None:
    """Group commit: steps queued while a commit is under way are stored by the next one together."""
    store = Store(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    try:
        seats = [SeatData(0, "human"), SeatData(1, "human")]
        for g in range(20):
            store.create_game(f"g{g}", "sealed-bids", {"players": 2}, g, "running", seats)
        commits: list[int] = []
        event.listen(store.engine, "commit", lambda conn: commits.append(1))
        with store._write_lock:  # a commit under way elsewhere
            futures = [
                store.append(f"g{g}", 0, 0, {"kind": "bid", "args": [g]}, "running", None) for g in range(20)
            ]
            again = store.append("g3", 0, 1, {"kind": "bid", "args": [99]}, "running", None)
        assert all(f.result(30) for f in futures) and again.result(30) is False
        assert len(commits) <= 2  # the writer took at most one step before the lock, the rest at once
        for g in range(20):
            stored = store.load(f"g{g}")
            assert stored is not None and stored.steps == [(0, {"kind": "bid", "args": [g]})]
    finally:
        store.dispose()


def test_a_view_is_computed_once_per_version_and_observer(
    registry: Registry, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = registry.get("sealed-bids")
    calls: list[Any] = []
    real = type(game).view

    def counted(self: Any, state: Any, observer: Any) -> Any:
        calls.append(observer)
        return real(self, state, observer)

    with TestClient(create_app(registry, sqlite_url, workers=0)) as client:
        game_id, t0, _t1 = _two_players(client)
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        while (
            client.get(f"/api/games/{game_id}").json()["version"] < 1 or lobby.games.playing[game_id].pending
        ):
            pass  # the prize draw and its readings: then nothing moves until a seat does
        monkeypatch.setattr(type(game), "view", counted)
        for _ in range(3):
            client.get(f"/api/games/{game_id}")
            client.get(f"/api/games/{game_id}", headers=bearer(t0))
        # once for the seat (and once more for its labels); the spectator's was computed while waiting
        assert calls.count(None) == 0 and calls.count(0) <= 2


def test_workers_setting_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(workers_module.WORKERS_ENV, "many")
    with pytest.raises(ValueError, match="LUDORUM_WORKERS"):
        Workers()
    monkeypatch.setenv(workers_module.WORKERS_ENV, "2")
    assert Workers().workers == 2
