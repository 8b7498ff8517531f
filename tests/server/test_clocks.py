"""Per-seat clocks on the server, with an injected clock (``ManualClock``): time moves only when the
test says so, and ``advance`` returns once the watchers it woke have acted — no sleeps."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludorum.agents.kinds import default_kind
from ludorum.engine import Record, Registry, replay
from ludorum.engine.record import TIMEOUT, timeout_step
from ludorum.server import create_app
from ludorum.server.play.clocks import ManualClock
from ludorum.server.store.db import Store
from ludorum.server.store.tables import SeatData
from tests.fixtures.sealed_bids import SealedBids
from tests.loops import run_alone
from tests.server.support import TOKEN_BODY, bearer, new_game_body
from tests.server.test_api import wait_for

FISCHER_60_5 = {"mode": "fischer", "base": 60, "increment": 5}


@pytest.fixture
def clock() -> ManualClock:
    """The time the test server reads."""
    return ManualClock()


@pytest.fixture
def client(registry: Registry, sqlite_url: str, clock: ManualClock) -> Iterator[TestClient]:
    """A test server on the manual clock."""
    with TestClient(create_app(registry, sqlite_url, clock=clock)) as c:
        yield c


def start(client: TestClient, clock: dict[str, Any] | None) -> tuple[str, list[str]]:
    """A two-human game of Sealed Bids with ``clock``, both seats taken; chance has drawn the prize and
    seat 0 decides."""
    body = {**new_game_body(), "clock": clock}
    r = client.post("/api/games", json=body, headers=TOKEN_BODY)
    assert r.status_code == 201, r.text
    game_id, t0 = r.json()["id"], r.json()["token"]
    t1 = client.post(f"/api/games/{game_id}/seats/1/claim", headers=TOKEN_BODY).json()["token"]
    wait_for(client, game_id, t0, lambda s: s["legal"])
    return game_id, [t0, t1]


def snap(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{game_id}", headers=bearer(token) if token else {})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def act(client: TestClient, game_id: str, token: str, kind: str, *args: Any) -> dict[str, Any]:
    version = snap(client, game_id, token)["version"]
    r = client.post(
        f"/api/games/{game_id}/actions",
        json={"version": version, "action": {"kind": kind, "args": list(args)}},
        headers=bearer(token),
    )
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "clock, wrong",
    [
        ({"mode": "fischer", "base": 0}, "base"),
        ({"mode": "fischer", "base": 86401}, "base"),
        ({"mode": "fischer", "base": 60, "increment": -1}, "increment"),
        ({"mode": "fischer", "base": 60, "increment": 3601}, "increment"),
        ({"mode": "move", "per_move": 0}, "per_move"),
        ({"mode": "move", "per_move": 1.5}, "per_move"),
        ({"mode": "hourglass"}, "mode"),
        ({"mode": "fischer", "on_expiry": "draw"}, "on_expiry"),
        ({"mode": "fischer", "tempo": 3}, "tempo"),
        ({"mode": "fischer", "base": "60"}, "base"),
    ],
)
def test_bad_clock_options_are_refused_and_nothing_is_made(
    client: TestClient, clock: dict[str, Any], wrong: str
) -> None:
    r = client.post("/api/games", json={**new_game_body(), "clock": clock}, headers=TOKEN_BODY)
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "invalid_request"
    assert wrong in r.json()["error"]["message"]
    assert client.get("/api/games").json() == []


def test_an_unknown_bot_for_the_clock_is_refused(client: TestClient) -> None:
    clock = {"mode": "fischer", "on_expiry": "bot", "bot": "oracle"}
    r = client.post("/api/games", json={**new_game_body(), "clock": clock}, headers=TOKEN_BODY)
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_bot"
    assert client.get("/api/games").json() == []


def test_the_snapshot_shows_the_clocks_and_whose_runs(client: TestClient, clock: ManualClock) -> None:
    game_id, (t0, _) = start(client, FISCHER_60_5)
    shown = snap(client, game_id)["clock"]
    assert shown["mode"] == "fischer" and shown["base"] == 60 and shown["increment"] == 5
    assert shown["on_expiry"] == "bot" and shown["bot"] == default_kind(SealedBids())
    assert shown["left"] == [60_000, 60_000]
    assert shown["running"] == 0
    assert shown["now"] == clock.now()
    clock.advance(12.5)
    shown = snap(client, game_id, t0)["clock"]
    assert shown["left"] == [47_500, 60_000] and shown["running"] == 0
    lobby = client.get("/api/games").json()[0]
    assert lobby["clock"]["mode"] == "fischer" and "left" not in lobby["clock"]


def test_a_game_without_a_clock_shows_none(client: TestClient) -> None:
    game_id, _ = start(client, None)
    assert snap(client, game_id)["clock"] is None


def test_increment_once_per_turn_not_per_atomic_step(client: TestClient, clock: ManualClock) -> None:
    game_id, (t0, _t1) = start(client, FISCHER_60_5)
    clock.advance(10)
    act(client, game_id, t0, "bid", 2)  # the first half of a compound decision: no increment
    shown = snap(client, game_id)["clock"]
    assert shown["left"] == [50_000, 60_000] and shown["running"] == 0
    clock.advance(2)
    act(client, game_id, t0, "confirm")  # the turn passes to seat 1: one increment
    shown = snap(client, game_id)["clock"]
    assert shown["left"] == [53_000, 60_000] and shown["running"] == 1
    clock.advance(4)
    assert snap(client, game_id)["clock"]["left"] == [53_000, 56_000]


def test_expiry_hands_the_seat_to_the_bot(client: TestClient, clock: ManualClock) -> None:
    game_id, (t0, _) = start(client, {**FISCHER_60_5, "on_expiry": "bot", "bot": "random"})
    version = snap(client, game_id)["version"]
    clock.advance(59.999)
    assert snap(client, game_id)["players"][0]["kind"] == "human"
    clock.advance(0.001)
    after = snap(client, game_id)
    assert after["players"][0]["kind"] == "bot" and after["players"][0]["bot"] == "random"
    assert after["version"] >= version + 1  # the timeout is a step (the bot may have moved since)
    assert after["log"][version]["label"].endswith("ran out of time: a bot takes the seat")
    assert after["log"][version]["action"] == {"kind": "timeout", "args": [0, "bot"]}
    # the token no longer holds the seat; the bot plays on (its move passes the turn to seat 1)
    assert client.get(f"/api/games/{game_id}", headers=bearer(t0)).status_code == 401
    moved = wait_for(client, game_id, None, lambda s: s["clock"]["running"] == 1)
    assert moved["clock"]["left"][0] is None


def test_expiry_loses_the_game_and_the_record_replays_it(client: TestClient, clock: ManualClock) -> None:
    game_id, (_t0, _) = start(client, {**FISCHER_60_5, "on_expiry": "lose"})
    version = snap(client, game_id)["version"]
    clock.advance(61)
    over = snap(client, game_id)
    assert over["status"] == "finished" and over["version"] == version + 1
    assert over["result"]["ranking"] == [2, 1]
    assert "ran out of time" in over["result"]["reason"]
    assert "ran out of time" in over["log"][-1]["label"]
    assert over["clock"]["left"][0] == 0 and over["clock"]["running"] is None
    data = client.get(f"/api/games/{game_id}/record").json()
    assert data["steps"][-1] == [TIMEOUT, {"kind": "timeout", "args": [0]}]
    # archived like every step: the game is shown so if its rules change
    store: Store = client.app.state.lobby.store  # type: ignore[attr-defined]
    for _ in range(500):
        stored = store.load(game_id)
        assert stored is not None
        if stored.archived == version:
            break
        time.sleep(0.01)  # the writer thread stores the archive with its next commit
    assert stored.archived == version and "ran out of time" in str(stored.entries[-1])
    record = Record.from_json(data)
    replay(SealedBids(), record)  # the stated result is the timeout's: it checks
    last = client.get(f"/api/games/{game_id}/replay/{len(record.steps)}").json()
    assert last["to_move"] is None
    # the finished record uploads and shows the same end
    r = client.post("/api/records", json={"record": data}, headers=TOKEN_BODY)
    assert r.status_code == 201, r.text
    again = snap(client, r.json()["id"])
    assert again["status"] == "finished" and again["result"] == over["result"]


def test_a_move_after_the_deadline_is_refused_even_before_the_watcher_wakes(
    client: TestClient, clock: ManualClock
) -> None:
    game_id, (t0, _) = start(client, {**FISCHER_60_5, "on_expiry": "lose"})
    version = snap(client, game_id)["version"]
    clock.time += 60_000  # the watcher sleeps on: the submission itself finds the time is up
    r = client.post(
        f"/api/games/{game_id}/actions",
        json={"version": version, "action": {"kind": "bid", "args": [1]}},
        headers=bearer(t0),
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "out_of_time"
    assert snap(client, game_id)["status"] == "finished"


def test_per_move_clock_gives_every_decision_its_time(client: TestClient, clock: ManualClock) -> None:
    game_id, (t0, _) = start(client, {"mode": "move", "per_move": 30, "on_expiry": "lose"})
    assert snap(client, game_id)["clock"]["left"] == [30_000, 30_000]
    clock.advance(20)
    act(client, game_id, t0, "bid", 1)
    assert snap(client, game_id)["clock"]["left"][0] == 30_000  # the confirm has its own 30 s
    clock.advance(29)
    act(client, game_id, t0, "confirm")
    clock.advance(30)
    over = snap(client, game_id)
    assert over["status"] == "finished" and over["result"]["ranking"] == [1, 2]


def test_no_clock_runs_for_a_free_seat_or_a_bot(client: TestClient, clock: ManualClock) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    body = {**new_game_body(seats=seats, claim=None), "clock": FISCHER_60_5}
    game_id = client.post("/api/games", json=body).json()["id"]
    wait_for(client, game_id, None, lambda s: s["to_move"] == 0)
    clock.advance(600)  # nobody holds seat 0: its clock does not run
    assert snap(client, game_id)["clock"]["left"] == [60_000, None]
    token = client.post(f"/api/games/{game_id}/seats/0/claim", headers=TOKEN_BODY).json()["token"]
    clock.advance(10)
    assert snap(client, game_id, token)["clock"]["left"][0] == 50_000
    assert snap(client, game_id)["clock"]["running"] == 0


def test_a_restart_keeps_the_time_left_and_charges_the_downtime(registry: Registry, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'clocks.sqlite3'}"
    first = ManualClock()
    with TestClient(create_app(registry, url, clock=first)) as c:
        game_id, (t0, _t1) = start(c, {**FISCHER_60_5, "on_expiry": "lose"})
        first.advance(10)
        act(c, game_id, t0, "bid", 1)
        act(c, game_id, t0, "confirm")
        first.advance(7)
    # the server is down for 20 s; seat 1's clock was running
    second = ManualClock(first.now() + 20_000)
    with TestClient(create_app(registry, url, clock=second)) as c:
        shown = snap(c, game_id)["clock"]
        assert shown["left"] == [55_000, 33_000] and shown["running"] == 1
        second.advance(32.9)
        assert snap(c, game_id)["status"] == "running"
        second.advance(0.1)
        over = snap(c, game_id)
        assert over["status"] == "finished" and over["result"]["ranking"] == [1, 2]


def test_a_timeout_to_a_bot_happens_once_per_version(db_url: str, registry: Registry) -> None:
    """Two server processes that both see the clock run out, or a move and a timeout: the database
    stores one step per version, and the seat goes to the bot with the step that says so."""
    store = Store(db_url)
    try:
        seats = [SeatData(0, "human", None, "h"), SeatData(1, "human", None, "k")]
        store.create_game("g1", "sealed-bids", {"players": 2}, 1, "running", seats)
        state = {"left": [0, 60_000], "running": None, "since": 0, "turn": None}
        handover = SeatData(0, "bot", "random")
        timeout = timeout_step(0, handover=True).to_json()
        assert store.append("g1", 0, TIMEOUT, timeout, "running", None, state, handover).result()
        assert not store.append("g1", 0, TIMEOUT, timeout, "running", None, state, handover).result()
        assert not store.append("g1", 0, 0, {"kind": "bid", "args": [1]}, "running", None).result()
        loaded = store.load("g1")
        assert loaded is not None and loaded.steps == [(TIMEOUT, timeout)]
        assert [s.kind for s in loaded.seats] == ["bot", "human"] and loaded.clock_state == state
        # a move that wins the version keeps the seat human: the timeout finds the index taken
        store.create_game("g2", "sealed-bids", {"players": 2}, 1, "running", seats)
        assert store.append("g2", 0, 0, {"kind": "bid", "args": [1]}, "running", None).result()
        assert not store.append("g2", 0, TIMEOUT, timeout, "running", None, state, handover).result()
        loaded = store.load("g2")
        assert loaded is not None and [s.kind for s in loaded.seats] == ["human", "human"]
    finally:
        store.dispose()


def test_the_rematch_has_the_same_clock(client: TestClient, clock: ManualClock) -> None:
    game_id, (t0, _) = start(client, {"mode": "move", "per_move": 20, "on_expiry": "lose"})
    clock.advance(20)
    assert snap(client, game_id)["status"] == "finished"
    r = client.post(f"/api/games/{game_id}/rematch", headers=bearer(t0))
    assert r.status_code == 200, r.text
    again = snap(client, r.json()["id"], t0)["clock"]
    assert again["mode"] == "move" and again["per_move"] == 20 and again["on_expiry"] == "lose"


def test_a_stale_process_does_not_time_out_a_seat_that_moved(
    db_url: str, registry: Registry, tmp_path: Path
) -> None:
    """Two servers on one database: the second still holds the game as it was when seat 0 had to
    decide; seat 0 moves on the first; the second's clock then runs out at the old deadline and
    must not end the game (its timeout loses the race for that version, and it reloads)."""
    one, two = ManualClock(), ManualClock()
    with (
        TestClient(create_app(registry, db_url, clock=one)) as a,
        TestClient(create_app(registry, db_url, clock=two)) as b,
    ):
        game_id, (t0, _) = start(a, {**FISCHER_60_5, "on_expiry": "lose"})
        assert snap(b, game_id)["clock"]["running"] == 0  # b loads the game: its watcher waits
        one.advance(30)
        act(a, game_id, t0, "bid", 1)
        act(a, game_id, t0, "confirm")
        two.advance(61)  # b's stale deadline for seat 0
        assert snap(a, game_id)["status"] == "running"
        shown = snap(b, game_id)
        assert shown["status"] == "running" and shown["clock"]["running"] == 1


def test_the_websocket_pushes_the_clocks_and_the_timeout(client: TestClient, clock: ManualClock) -> None:
    game_id, (_t0, t1) = start(client, {**FISCHER_60_5, "on_expiry": "bot", "bot": "random"})
    with client.websocket_connect(f"/api/games/{game_id}/ws", headers=bearer(t1)) as ws:
        ws.send_json({"type": "hello", "version": 0})
        first = ws.receive_json()
        assert first["clock"]["running"] == 0 and first["clock"]["left"] == [60_000, 60_000]
        clock.advance(60)  # seat 0's time runs out: a bot takes it, and seat 1 is told at once
        pushed = ws.receive_json()
        assert pushed["players"][0]["kind"] == "bot" and pushed["clock"]["left"][0] is None
        assert pushed["log"][-1]["label"].endswith("ran out of time: a bot takes the seat")


class _AdvanceOnEntry:
    """A lock that, the first time it is taken, has another thread advance the clock (and gives it
    50 ms to do so) before taking itself: the moment between a sleeper's look at the time and its
    registration, where an advance must not slip through unseen."""

    def __init__(self, clock: ManualClock, seconds: float) -> None:
        self.real = threading.Lock()
        self.clock, self.seconds, self.armed = clock, seconds, True
        self.thread: threading.Thread | None = None

    def __enter__(self) -> None:
        if self.armed:
            self.armed = False
            self.thread = threading.Thread(target=self.clock.advance, args=(self.seconds,))
            self.thread.start()
            time.sleep(0.05)
        self.real.acquire()

    def __exit__(self, *exc: object) -> None:
        self.real.release()


def test_a_manual_clock_advanced_while_a_sleeper_registers_wakes_it() -> None:
    """CI saw a stale-process clock test hang now and then: an advance between ``sleep_until``'s look at
    the time and its registration woke no one, and the sleeper waited for ever."""
    clock = ManualClock()
    lock = _AdvanceOnEntry(clock, 10.0)
    clock._lock = lock  # type: ignore[assignment]

    async def sleeper() -> None:
        await asyncio.wait_for(clock.sleep_until(clock.now() + 5_000), timeout=2.0)

    run_alone(sleeper())
    assert lock.thread is not None
    lock.thread.join()


def test_a_clock_whose_seat_loses_names_no_bot(client: TestClient) -> None:
    """With ``on_expiry: "lose"`` no bot takes a seat, so a ``bot`` given with it (even one the game does
    not have) is not stored or shown as if it would."""
    game_id, tokens = start(client, {**FISCHER_60_5, "on_expiry": "lose", "bot": "no-such-bot"})
    assert snap(client, game_id, tokens[0])["clock"]["bot"] is None
