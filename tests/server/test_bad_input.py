"""Bad input: every malformed, oversized, unauthorised or out-of-turn request gets a clear 4xx and
changes nothing; the server never answers 5xx to bad input."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.support import TOKEN_BODY, bearer, new_game_body


@pytest.fixture
def game(client: TestClient) -> dict[str, Any]:
    """A two-human game, settled on seat 0's first decision."""
    r = client.post("/api/games", json=new_game_body(), headers=TOKEN_BODY)
    game_id, t0 = r.json()["id"], r.json()["token"]
    t1 = client.post(f"/api/games/{game_id}/seats/1/claim", headers=TOKEN_BODY).json()["token"]
    client.cookies.clear()
    deadline = time.monotonic() + 10
    while not (snap := client.get(f"/api/games/{game_id}", headers=bearer(t0)).json())["legal"]:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    return {"id": game_id, "t0": t0, "t1": t1, "snap": snap}


def unchanged(client: TestClient, game: dict[str, Any]) -> None:
    now = client.get(f"/api/games/{game['id']}", headers=bearer(game["t0"])).json()
    assert now["version"] == game["snap"]["version"] and now["view"] == game["snap"]["view"]
    assert now["log"] == game["snap"]["log"]


def check(r: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body = r.json()
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    if code:
        assert body["error"]["code"] == code
    return body


def test_malformed_json(client: TestClient, game: dict[str, Any]) -> None:
    url = f"/api/games/{game['id']}/actions"
    deep = b"[" * 20_000 + b"]" * 20_000  # within 64 KiB, past the JSON parser's depth
    for raw in (b"{", b"not json", b"[]", b"null", b'{"version": 1', '"\u00e9"'.encode(), deep):
        check(
            client.post(url, content=raw, headers={**bearer(game["t0"]), "Content-Type": "application/json"}),
            422,
            "invalid_request",
        )
    nested = client.post("/api/games", content=deep, headers={"Content-Type": "application/json"})
    assert "nested too deeply" in check(nested, 422, "invalid_request")["error"]["message"]
    unchanged(client, game)


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"version": "1", "action": {"kind": "bid", "args": [1]}},
        {"version": True, "action": {"kind": "bid", "args": [1]}},
        {"version": -1, "action": {"kind": "bid", "args": [1]}},
        {"version": 1, "action": {"kind": "", "args": []}},
        {"version": 1, "action": {"kind": "bid", "args": [1.5]}},
        {"version": 1, "action": {"kind": "bid", "args": [{"a": 1}]}},
        {"version": 1, "action": {"kind": "bid", "args": [[[[[[1]]]]]]}},
        {"version": 1, "action": {"kind": "bid", "args": list(range(65))}},
        {"version": 1, "action": {"kind": "x" * 65}},
        {"version": 1, "action": {"kind": "bid", "args": [1], "extra": 1}},
        {"version": 1, "action": "bid"},
        {"version": 1, "action": {"kind": "bid", "args": [1]}, "token": "x"},
    ],
)
def test_wrong_shapes_are_refused(client: TestClient, game: dict[str, Any], body: Any) -> None:
    real = type(body.get("version")) is int and body["version"] == 1
    body = {**body, "version": game["snap"]["version"]} if real else body
    check(client.post(f"/api/games/{game['id']}/actions", json=body, headers=bearer(game["t0"])), 422)
    unchanged(client, game)


def test_tokens(client: TestClient, game: dict[str, Any]) -> None:
    url = f"/api/games/{game['id']}/actions"
    body = {"version": game["snap"]["version"], "action": game["snap"]["legal"][0]["action"]}
    check(client.post(url, json=body), 401, "no_token")
    fake = "A" * 43
    r = client.post(url, json=body, headers=bearer(fake))
    check(r, 401, "bad_token")
    assert fake not in r.text
    check(client.post(url, json=body, headers={"Authorization": "Basic xyz"}), 401)
    # a real token of another game does not work here
    other = client.post("/api/games", json=new_game_body(), headers=TOKEN_BODY).json()["token"]
    client.cookies.clear()
    check(client.post(url, json=body, headers=bearer(other)), 401, "bad_token")
    check(client.post(f"/api/games/{game['id']}/leave", json={}), 401)
    unchanged(client, game)


def test_out_of_turn_stale_and_illegal(client: TestClient, game: dict[str, Any]) -> None:
    url = f"/api/games/{game['id']}/actions"
    v = game["snap"]["version"]
    check(
        client.post(
            url, json={"version": v, "action": {"kind": "bid", "args": [1]}}, headers=bearer(game["t1"])
        ),
        409,
        "not_your_turn",
    )
    check(
        client.post(
            url, json={"version": v + 1, "action": {"kind": "bid", "args": [1]}}, headers=bearer(game["t0"])
        ),
        409,
        "stale_version",
    )
    check(
        client.post(
            url, json={"version": v - 1, "action": {"kind": "bid", "args": [1]}}, headers=bearer(game["t0"])
        ),
        409,
        "stale_version",
    )
    for action in (
        {"kind": "bid", "args": [99]},
        {"kind": "confirm"},
        {"kind": "no-such"},
        {"kind": "bid", "args": ["1"]},
    ):
        body = check(
            client.post(url, json={"version": v, "action": action}, headers=bearer(game["t0"])),
            422,
            "illegal_action",
        )
        assert body["error"]["rule"] == "Sealed Bids › Bidding"
    unchanged(client, game)


def test_huge_bodies(client: TestClient, game: dict[str, Any]) -> None:
    url = f"/api/games/{game['id']}/actions"
    huge = b'{"version": 1, "action": {"kind": "bid", "args": ["' + b"x" * 200_000 + b'"]}}'
    check(
        client.post(url, content=huge, headers={**bearer(game["t0"]), "Content-Type": "application/json"}),
        413,
        "too_large",
    )

    def chunks() -> Any:
        for _ in range(100):
            yield b"x" * 10_000

    r = client.post(url, content=chunks(), headers={**bearer(game["t0"]), "Content-Type": "application/json"})
    check(r, 413, "too_large")
    check(
        client.post(
            "/api/games", content=b"{" + b" " * 70_000 + b"}", headers={"Content-Type": "application/json"}
        ),
        413,
    )
    check(client.post("/api/records", json={"record": {"steps": [[0, {"kind": "x"}]] * 600_000}}), 413)
    unchanged(client, game)


@pytest.mark.parametrize(
    "body",
    [
        {"game": "chess", "config": {"players": 2}, "seats": [{"kind": "human"}] * 2},
        {"game": "sealed-bids", "config": {"players": 9}, "seats": [{"kind": "human"}] * 9},
        {"game": "sealed-bids", "config": {"players": 2}, "seats": [{"kind": "human"}]},
        {
            "game": "sealed-bids",
            "config": {"players": 2, "variants": ["nope"]},
            "seats": [{"kind": "human"}] * 2,
        },
        {
            "game": "sealed-bids",
            "config": {"players": 2, "options": {"x": 1}},
            "seats": [{"kind": "human"}] * 2,
        },
        {"game": "sealed-bids", "config": {"players": 2}, "seats": [{"kind": "bot", "bot": "genius"}] * 2},
        {"game": "sealed-bids", "config": {"players": 2}, "seats": [{"kind": "alien"}] * 2},
        {
            "game": "sealed-bids",
            "config": {"players": 2},
            "seats": [{"kind": "bot"}, {"kind": "bot"}],
            "claim": 0,
        },
        {"game": "sealed-bids", "config": {"players": 2}, "seats": [{"kind": "human"}] * 2, "claim": 5},
        {"game": "sealed-bids", "config": {"players": 2.5}, "seats": [{"kind": "human"}] * 2},
        {"game": "sealed-bids", "config": {"players": 2}, "seats": [{"kind": "human"}] * 200},
        {"game": ["sealed-bids"], "config": {"players": 2}, "seats": [{"kind": "human"}] * 2},
    ],
)
def test_bad_lobby_requests(client: TestClient, body: Any) -> None:
    r = client.post("/api/games", json=body)
    assert 400 <= r.status_code < 500, r.text
    assert client.get("/api/games").json() == []


def test_unknown_things(client: TestClient, game: dict[str, Any]) -> None:
    check(client.get("/api/games/nope"), 404, "no_such_game")
    check(client.post("/api/games/nope/actions", json={"version": 0, "action": {"kind": "x"}}), 404)
    check(client.get("/api/nothing-here"), 404)
    check(client.get("/api/games?status=weird"), 422)
    check(client.get("/api/games?limit=100000"), 422)
    check(client.get(f"/api/games/{game['id']}?since=-1"), 422)
    check(client.get(f"/api/games/{game['id']}/replay/0"), 409, "not_over")
    check(client.post(f"/api/games/{game['id']}/seats/0/claim"), 409, "seat_taken")
    check(client.post(f"/api/games/{game['id']}/seats/-1/claim"), 404)
    check(client.post(f"/api/games/{game['id']}/rematch", headers=bearer(game["t0"])), 409, "not_over")
    check(client.get("/static/games/no-such-game.js"), 404)
    check(client.get("/static/games/..%2F..%2Fserver%2Fapp.py.js"), 404)
    check(client.post("/api/records", json={"record": {"format": 1}}), 422, "bad_record")
    check(client.post("/api/records", json={"record": []}), 422)
    unchanged(client, game)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=20,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=json_values)
def test_no_json_body_gets_a_5xx(client: TestClient, game: dict[str, Any], body: Any) -> None:
    for path in (f"/api/games/{game['id']}/actions", "/api/games", "/api/records"):
        r = client.post(path, json=body, headers=bearer(game["t1"]))
        assert r.status_code < 500, (path, body, r.text)
    now = client.get(f"/api/games/{game['id']}").json()
    assert now["version"] == game["snap"]["version"]
    assert [p["claimed"] for p in now["players"]] == [True, True]


def test_odd_game_ids_are_simply_unknown(client: TestClient) -> None:
    for gid in ("x" * 5000, "a%20b", "..", "%00", "Ω"):
        r = client.get(f"/api/games/{gid}")
        assert r.status_code == 404, (gid, r.text)
    assert client.app.state.lobby.loader._loading == {}  # type: ignore[attr-defined]
