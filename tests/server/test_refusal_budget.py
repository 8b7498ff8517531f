"""Refused requests count against their sender by what they cost (issue 34): a client that keeps sending
malformed bodies or records that do not replay runs out of its budget and is answered 429 before its
requests are read, while other clients are served as ever."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludorum.engine import Registry
from ludorum.server import create_app
from ludorum.server.errors import ApiError
from ludorum.server.http.refusals import refusal_cost
from ludorum.server.limits import Limits, RefusalBudget
from tests.server.support import new_game_body

SLOW_REFILL = 0.001
"""Units forgiven per second in the server tests: nothing measurable while a test runs."""

BAD_CONFIG = {**new_game_body(), "config": {"players": 99}}
"""A create request refused with 422 (Sealed Bids is for 2-3 players)."""


@pytest.fixture
def app(registry: Registry, sqlite_url: str) -> Iterator[Any]:
    """A server whose clients may run up 10 units of refusals."""
    app = create_app(registry, sqlite_url, limits=Limits(refusals=10, refusal_rate=SLOW_REFILL))
    with TestClient(app):  # its lifespan: the hub
        yield app


def test_refusals_run_out_and_then_even_good_requests_wait(app: Any) -> None:
    client = TestClient(app, client=("203.0.113.7", 5000))
    for _ in range(9):
        assert client.post("/api/games", json=BAD_CONFIG).status_code == 422
    assert client.post("/api/games", json=new_game_body()).status_code == 201  # still within budget
    assert client.post("/api/games", json=BAD_CONFIG).status_code == 422  # the tenth: budget spent
    for r in (client.post("/api/games", json=new_game_body()), client.get("/api/games")):
        assert r.status_code == 429, r.text
        assert r.json()["error"]["code"] == "too_many_refusals" and int(r.headers["retry-after"]) >= 1
    assert len(TestClient(app).get("/api/games").json()) == 1  # the refused create made nothing
    # another client is served as ever
    other = TestClient(app, client=("198.51.100.4", 5000))
    assert other.post("/api/games", json=new_game_body()).status_code == 201


def padded(body: dict[str, Any], size: int) -> bytes:
    """``body`` as JSON text padded with spaces to ``size`` bytes."""
    text = json.dumps(body).encode()
    return text[:-1] + b" " * (size - len(text)) + b"}"


def test_a_large_refused_body_costs_more_than_a_small_one(app: Any) -> None:
    record = {
        "format": 1,
        "game": "sealed-bids",
        "config": {"players": 2},
        "seed": 12345,
        "steps": [[-1, {"kind": "prize", "args": [3]}], [0, {"kind": "bid", "args": [99]}]],  # illegal last
        "result": None,
    }
    client = TestClient(app, client=("203.0.113.8", 5000))
    big = padded({"record": record}, 6 * 1024)  # 1 + 6 units each
    headers = {"content-type": "application/json"}
    assert client.post("/api/records", content=big, headers=headers).status_code == 422
    assert client.post("/api/records", content=big, headers=headers).status_code == 422
    assert client.post("/api/records", content=big, headers=headers).status_code == 429
    assert refusal_cost(6 * 1024) == 7


def test_the_budget_refills_with_time() -> None:
    now = [100.0]
    budget = RefusalBudget(Limits(refusals=10, refusal_rate=2.0), clock=lambda: now[0])
    budget.charge("a", 12.0)
    with pytest.raises(ApiError) as refused:
        budget.check("a")
    assert refused.value.status == 429 and refused.value.headers == {"Retry-After": "2"}
    budget.check("b")  # another client owes nothing
    now[0] += 1.5  # 3 units forgiven: 9 owed, under 10
    budget.check("a")
    now[0] += 120  # all forgiven: the client is forgotten at the next sweep
    budget.charge("c", 1.0)
    assert "a" not in budget._spent


def test_no_budget_when_switched_off() -> None:
    budget = RefusalBudget(Limits(refusals=0))
    budget.charge("a", 10**6)
    budget.check("a")


def test_bad_budget_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="bad quota setting"):
        Limits.from_env({"LUDORUM_REFUSALS_PER_CLIENT": "lots"})
    with pytest.raises(ValueError, match="per second"):
        Limits(refusal_rate=0)
