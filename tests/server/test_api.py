"""The lobby and play API, and WebSocket pushes, against the fixture game."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from ludorum.engine import IllegalAction, Registry
from ludorum.server.security import cookie_name
from tests.fixtures.sealed_bids import SealedBids
from tests.server.support import TOKEN_BODY, bearer, new_game_body


def create(client: TestClient, **kwargs: Any) -> tuple[str, str]:
    r = client.post("/api/games", json=new_game_body(**kwargs), headers=TOKEN_BODY)
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["token"]


def wait_for(
    client: TestClient, game_id: str, token: str | None, pred: Any, timeout: float = 10
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        snap = client.get(f"/api/games/{game_id}", headers=bearer(token) if token else {}).json()
        if pred(snap):
            return snap
        assert time.monotonic() < deadline, f"timed out; last snapshot {snap}"
        time.sleep(0.02)


def play_turn(client: TestClient, game_id: str, token: str, pick: int = -1) -> dict[str, Any]:
    snap = wait_for(client, game_id, token, lambda s: s["legal"] or s["status"] == "finished")
    if snap["status"] == "finished":
        return snap
    r = client.post(
        f"/api/games/{game_id}/actions",
        json={"version": snap["version"], "action": snap["legal"][pick]["action"]},
        headers=bearer(token),
    )
    assert r.status_code == 200, r.text
    return r.json()


def play_to_end(client: TestClient, game_id: str, tokens: list[str], timeout: float = 20) -> dict[str, Any]:
    """Every seat takes its first legal action whenever it decides, until the game ends."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for t in tokens:
            snap = client.get(f"/api/games/{game_id}", headers=bearer(t)).json()
            if snap["status"] == "finished":
                return snap
            if snap["legal"]:
                r = client.post(
                    f"/api/games/{game_id}/actions",
                    json={"version": snap["version"], "action": snap["legal"][0]["action"]},
                    headers=bearer(t),
                )
                assert r.status_code == 200, r.text
        time.sleep(0.01)
    raise AssertionError("the game did not end")


def test_catalog_lists_the_registry(client: TestClient) -> None:
    cat = client.get("/api/catalog").json()
    assert [g["name"] for g in cat] == ["sealed-bids"]
    assert cat[0]["bots"] == ["easy", "medium", "hard", "expert", "random"]
    assert cat[0]["default_bot"] == "medium"
    assert cat[0]["min_players"] == 2 and cat[0]["max_players"] == 3
    assert cat[0]["variants"] == {"rich": "every seat starts with 8 coins"}


def test_create_sets_an_httponly_samesite_cookie(client: TestClient) -> None:
    r = client.post("/api/games", json=new_game_body())
    assert r.status_code == 201
    assert r.json()["token"] is None  # only programs that ask get it in the body
    header = r.headers["set-cookie"]
    assert header.startswith(cookie_name(r.json()["id"]) + "=")
    assert "HttpOnly" in header and "SameSite=strict" in header and "Path=/" in header
    # the cookie alone identifies the seat
    snap = client.get(f"/api/games/{r.json()['id']}").json()
    assert snap["seat"] == 0


def test_token_is_long_and_random(client: TestClient) -> None:
    tokens = {create(client)[1] for _ in range(5)}
    assert len(tokens) == 5
    assert all(len(t) >= 43 for t in tokens)  # 32 bytes of urlsafe base64 = 256 bits


def test_a_game_against_a_bot_is_played_to_the_end(client: TestClient) -> None:
    game_id, token = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    snap: dict[str, Any] = {}
    for _ in range(200):
        snap = play_turn(client, game_id, token, pick=0)
        if snap["status"] == "finished":
            break
    snap = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
    assert snap["status"] == "finished" and snap["result"] is not None
    assert snap["version"] == len(snap["log"])
    assert {e["seat"] for e in snap["log"]} == {-1, 0, 1}
    listing = client.get("/api/games?status=finished").json()
    assert [g["id"] for g in listing] == [game_id]
    assert listing[0]["result"] == snap["result"]


def test_lobby_statuses_claim_and_leave(client: TestClient) -> None:
    game_id, token = create(client)
    assert [g["id"] for g in client.get("/api/games?status=open").json()] == [game_id]
    r = client.post(f"/api/games/{game_id}/seats/1/claim", headers=TOKEN_BODY)
    assert r.status_code == 200 and r.json()["seat"] == 1
    other = r.json()["token"]
    assert client.post(f"/api/games/{game_id}/seats/1/claim").status_code == 409
    assert client.post(f"/api/games/{game_id}/seats/7/claim").status_code == 404
    assert [g["id"] for g in client.get("/api/games?status=running").json()] == [game_id]
    assert client.get("/api/games?status=open").json() == []
    # seat 1 leaves: the seat is open again and the old token no longer works
    r = client.post(f"/api/games/{game_id}/leave", json={}, headers=bearer(other))
    assert r.status_code == 200
    assert [g["id"] for g in client.get("/api/games?status=open").json()] == [game_id]
    assert client.get(f"/api/games/{game_id}", headers=bearer(other)).status_code == 401
    # seat 0 hands its seat to a bot: the bot plays on
    r = client.post(f"/api/games/{game_id}/leave", json={"bot": "random"}, headers=bearer(token))
    assert r.status_code == 200
    snap = client.get(f"/api/games/{game_id}").json()
    assert snap["players"][0]["kind"] == "bot"


def test_all_bot_game_runs_by_itself_and_spectators_watch(client: TestClient) -> None:
    body = new_game_body(players=3, seats=[{"kind": "bot", "bot": "random"}] * 3, claim=None)
    r = client.post("/api/games", json=body)
    assert r.status_code == 201
    snap = wait_for(client, r.json()["id"], None, lambda s: s["status"] == "finished")
    assert snap["seat"] is None and snap["legal"] == []
    assert len(snap["result"]["scores"]) == 3


def test_rematch_keeps_setup_and_seat(client: TestClient) -> None:
    game_id, token = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    assert client.post(f"/api/games/{game_id}/rematch", headers=bearer(token)).status_code == 409
    for _ in range(200):
        if play_turn(client, game_id, token, pick=0)["status"] == "finished":
            break
    r = client.post(f"/api/games/{game_id}/rematch", headers={**bearer(token), **TOKEN_BODY})
    assert r.status_code == 200, r.text
    new_id, new_token = r.json()["id"], r.json()["token"]
    assert new_id != game_id and r.json()["seat"] == 0
    snap = client.get(f"/api/games/{new_id}", headers=bearer(new_token)).json()
    assert snap["seat"] == 0 and snap["players"][1]["kind"] == "bot" and snap["rematch_of"] == game_id
    assert client.get(f"/api/games/{game_id}").json()["rematches"] == [new_id]
    # a second call joins the same rematch rather than starting another
    again = client.post(f"/api/games/{game_id}/rematch").json()
    assert again["id"] == new_id


def test_full_record_downloads_after_the_end_and_resumes_by_upload(client: TestClient) -> None:
    game_id, token = create(client)
    other = client.post(f"/api/games/{game_id}/seats/1/claim", headers=TOKEN_BODY).json()["token"]
    for _ in range(6):
        for t in (token, other):
            snap = client.get(f"/api/games/{game_id}", headers=bearer(t)).json()
            if snap["legal"]:
                client.post(
                    f"/api/games/{game_id}/actions",
                    json={"version": snap["version"], "action": snap["legal"][0]["action"]},
                    headers=bearer(t),
                )
    partial = client.get(f"/api/games/{game_id}/record", headers=bearer(token)).json()
    assert partial["format"] == "ludorum-partial-record" and "seed" not in partial
    # an unfinished partial record cannot resume a game
    r = client.post("/api/records", json={"record": partial})
    assert r.status_code == 422
    # play on to the end; then the full record downloads and resumes elsewhere as a finished game
    play_to_end(client, game_id, [token, other])
    full = client.get(f"/api/games/{game_id}/record").json()
    assert full["format"] == 1 and isinstance(full["seed"], int) and full["result"] is not None
    r = client.post("/api/records", json={"record": full})
    assert r.status_code == 201
    copy = client.get(f"/api/games/{r.json()['id']}").json()
    assert copy["status"] == "finished" and copy["result"] == full["result"]


def test_upload_of_an_unfinished_record_resumes_play(client: TestClient) -> None:
    record = {
        "format": 1,
        "game": "sealed-bids",
        "config": {"players": 2},
        "seed": 12345,
        "steps": [[-1, {"kind": "prize", "args": [3]}], [0, {"kind": "bid", "args": [2]}]],
        "result": None,
    }
    r = client.post(
        "/api/records",
        json={"record": record, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}], "claim": 0},
        headers=TOKEN_BODY,
    )
    assert r.status_code == 201, r.text
    snap = client.get(f"/api/games/{r.json()['id']}", headers=bearer(r.json()["token"])).json()
    assert snap["version"] == 2 and snap["to_move"] == 0
    assert {a["action"]["kind"] for a in snap["legal"]} == {"confirm", "cancel"}
    bad = dict(record, steps=[[0, {"kind": "bid", "args": [2]}]])
    r = client.post("/api/records", json={"record": bad})
    assert r.status_code == 422 and "step 0" in r.json()["error"]["message"]


def test_replay_views_of_a_finished_game(client: TestClient) -> None:
    body = new_game_body(seats=[{"kind": "bot", "bot": "random"}] * 2, claim=None)
    game_id = client.post("/api/games", json=body).json()["id"]
    assert client.get(f"/api/games/{game_id}/replay/0").status_code in (200, 409)
    snap = wait_for(client, game_id, None, lambda s: s["status"] == "finished")
    first = client.get(f"/api/games/{game_id}/replay/0").json()
    assert first["steps"] == snap["version"] and first["view"]["round"] == 1
    last = client.get(f"/api/games/{game_id}/replay/{snap['version']}").json()
    assert last["view"] == snap["view"] and last["to_move"] is None
    as_seat = client.get(f"/api/games/{game_id}/replay/1?seat=1").json()
    assert as_seat["seat"] == 1
    assert client.get(f"/api/games/{game_id}/replay/{snap['version'] + 1}").status_code == 404
    assert client.get(f"/api/games/{game_id}/replay/1?seat=5").status_code == 404


def test_websocket_pushes_every_step_and_resyncs_from_a_version(client: TestClient) -> None:
    game_id, token = create(client)
    other = client.post(f"/api/games/{game_id}/seats/1/claim", headers=TOKEN_BODY).json()["token"]
    wait_for(client, game_id, token, lambda s: s["version"] == 1)
    with client.websocket_connect(f"/api/games/{game_id}/ws", headers=bearer(other)) as ws:
        ws.send_json({"type": "hello", "version": 0})
        first = ws.receive_json()
        assert first["type"] == "state" and first["seat"] == 1 and first["since"] == 0
        assert first["version"] == 1  # chance drew the first prize already
        play_turn(client, game_id, token, pick=2)
        pushed = ws.receive_json()
        assert pushed["version"] == 2 and pushed["since"] == 1
        assert [e["index"] for e in pushed["log"]] == [1]
        assert pushed["log"][0]["action"] is None  # seat 0's bid is secret to seat 1
    # reconnect from version 1 (as a spectator: no cookie): only the steps after it arrive
    client.cookies.clear()
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        ws.send_json({"type": "hello", "version": 1})
        resync = ws.receive_json()
        assert resync["since"] == 1 and [e["index"] for e in resync["log"]] == [1]
        assert resync["seat"] is None


def test_websocket_refuses_a_wrong_token(client: TestClient) -> None:
    game_id, _ = create(client)
    import pytest
    from starlette.websockets import WebSocketDisconnect

    with (
        pytest.raises(WebSocketDisconnect) as info,
        client.websocket_connect(f"/api/games/{game_id}/ws", headers=bearer("x" * 43)) as ws,
    ):
        ws.receive_json()
    assert info.value.code == 4401


def test_a_stale_seat_cookie_makes_a_spectator_and_is_dropped(client: TestClient) -> None:
    game_id, _ = create(client)
    client.cookies.set(cookie_name(game_id), "B" * 43)
    r = client.get(f"/api/games/{game_id}")
    assert r.status_code == 200 and r.json()["seat"] is None
    assert cookie_name(game_id) in r.headers["set-cookie"] and "Max-Age=0" in r.headers["set-cookie"]
    # but an action with it is refused
    client.cookies.set(cookie_name(game_id), "B" * 43)
    r = client.post(
        f"/api/games/{game_id}/actions", json={"version": 1, "action": {"kind": "bid", "args": [0]}}
    )
    assert r.status_code == 401


def test_websocket_from_another_site_is_refused(client: TestClient) -> None:
    import pytest
    from starlette.websockets import WebSocketDisconnect

    game_id, _ = create(client)
    with (
        pytest.raises(WebSocketDisconnect) as info,
        client.websocket_connect(
            f"/api/games/{game_id}/ws", headers={"Origin": "https://evil.example", "Host": "testserver"}
        ) as ws,
    ):
        ws.receive_json()
    assert info.value.code == 4403
    with client.websocket_connect(
        f"/api/games/{game_id}/ws", headers={"Origin": "http://testserver", "Host": "testserver"}
    ) as ws:
        ws.send_json({"type": "hello", "version": 0})
        assert ws.receive_json()["type"] == "state"


def test_a_failing_bot_does_not_stall_its_game(registry: Registry, sqlite_url: str) -> None:
    from ludorum.server import create_app

    class Broken:
        def choose(self, view: Any, legal: Any, seat: int, rng: Any) -> Any:
            raise RuntimeError("bug in a bot")

    class BrokenBotBids(SealedBids):
        def bots(self) -> dict[str, Any]:
            return {"broken": Broken}

    reg = Registry()
    reg.register(BrokenBotBids())
    with TestClient(create_app(reg, sqlite_url)) as client:
        body = new_game_body(
            seats=[{"kind": "bot", "bot": "broken"}, {"kind": "bot", "bot": "random"}], claim=None
        )
        game_id = client.post("/api/games", json=body).json()["id"]
        snap = wait_for(client, game_id, None, lambda s: s["status"] == "finished")
        assert any(e["seat"] == 0 for e in snap["log"])


class OpenBids(SealedBids):
    """Bids as an open kind: the list offers only 0 and all-in; apply takes any amount one has."""

    def legal_actions(self, state: Any) -> Any:
        full = super().legal_actions(state)
        if state.prize and state.pending is None and not self.is_over(state):
            seat = self.to_move(state)
            return [a for a in full if a.args[0] in (0, state.coins[seat])]
        return full

    def open_kinds(self, state: Any) -> dict[str, str]:
        return {"bid": "any number of your coins"} if state.prize and state.pending is None else {}

    def apply(self, state: Any, action: Any) -> Any:
        if action.kind == "bid" and "bid" in self.open_kinds(state):
            n = action.args[0] if len(action.args) == 1 else None
            if type(n) is not int or not 0 <= n <= state.coins[self.to_move(state)]:
                raise IllegalAction(f"you have {state.coins[self.to_move(state)]} coins", "Bidding")
            s = state.clone()
            s.pending = n
            return s
        return super().apply(state, action)


def test_actions_of_an_open_kind_are_validated_by_the_game(sqlite_url: str) -> None:
    from ludorum.server import create_app

    reg = Registry()
    reg.register(OpenBids())
    with TestClient(create_app(reg, sqlite_url)) as client:
        r = client.post("/api/games", json=new_game_body(claim=0), headers=TOKEN_BODY)
        game_id, token = r.json()["id"], r.json()["token"]
        snap = wait_for(client, game_id, token, lambda s: s["legal"])
        assert snap["open"] == {"bid": "any number of your coins"}
        assert {"kind": "bid", "args": [3]} not in [a["action"] for a in snap["legal"]]
        url = f"/api/games/{game_id}/actions"
        bad = client.post(
            url,
            json={"version": snap["version"], "action": {"kind": "bid", "args": [9]}},
            headers=bearer(token),
        )
        assert bad.status_code == 422 and bad.json()["error"]["message"] == "you have 5 coins"
        ok = client.post(
            url,
            json={"version": snap["version"], "action": {"kind": "bid", "args": [3]}},
            headers=bearer(token),
        )
        assert ok.status_code == 200 and ok.json()["open"] == {}
        assert ok.json()["log"][-1]["action"] == {"kind": "bid", "args": [3]}
        # other kinds still have to be on the list
        r = client.post(
            url,
            json={"version": ok.json()["version"], "action": {"kind": "prize", "args": [1]}},
            headers=bearer(token),
        )
        assert r.status_code == 422
