"""A seat's clock cannot be stopped by leaving: it keeps running while its player is away, and a reclaim
never gives time back (issue 34).  Time is the injected ``ManualClock``: nothing here sleeps."""

from __future__ import annotations

from fastapi.testclient import TestClient

from ludorum.server.play.clocks import ManualClock
from tests.server.support import TOKEN_BODY
from tests.server.test_api import wait_for
from tests.server.test_clocks import FISCHER_60_5, act, client, clock, snap, start

__all__ = ["client", "clock"]  # the fixtures, shared with test_clocks


def leave(client: TestClient, game_id: str, token: str) -> None:
    r = client.post(f"/api/games/{game_id}/leave", json={}, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text


def reclaim(client: TestClient, game_id: str, seat: int) -> str:
    r = client.post(f"/api/games/{game_id}/seats/{seat}/claim", headers=TOKEN_BODY)
    assert r.status_code == 200, r.text
    return r.json()["token"]  # type: ignore[no-any-return]


def test_leaving_during_ones_turn_does_not_stop_the_clock(client: TestClient, clock: ManualClock) -> None:
    game_id, (t0, _) = start(client, FISCHER_60_5)
    clock.advance(2)
    leave(client, game_id, t0)
    clock.advance(8)
    away = snap(client, game_id)["clock"]
    assert away["running"] == 0 and away["left"][0] == 50_000
    t0 = reclaim(client, game_id, 0)
    clock.advance(1)
    assert snap(client, game_id, t0)["clock"]["left"][0] == 49_000


def test_a_seat_left_before_its_turn_is_charged_when_the_turn_comes(
    client: TestClient, clock: ManualClock
) -> None:
    game_id, (t0, t1) = start(client, FISCHER_60_5)
    act(client, game_id, t0, "bid", 1)
    act(client, game_id, t0, "confirm")  # seat 1 decides; seat 0 has played and has 65 s
    leave(client, game_id, t0)
    clock.advance(3)
    act(client, game_id, t1, "bid", 1)
    act(client, game_id, t1, "confirm")
    wait_for(client, game_id, None, lambda s: s["to_move"] == 0)  # chance drew the next prize
    assert snap(client, game_id)["clock"]["running"] == 0  # the free seat is charged from its turn on
    clock.advance(10)
    assert snap(client, game_id)["clock"]["left"][0] == 55_000


def test_the_time_runs_out_for_an_empty_seat_and_the_expiry_rule_applies(
    client: TestClient, clock: ManualClock
) -> None:
    game_id, (t0, _) = start(client, {**FISCHER_60_5, "on_expiry": "lose"})
    leave(client, game_id, t0)
    clock.advance(61)
    assert snap(client, game_id)["status"] == "finished"
