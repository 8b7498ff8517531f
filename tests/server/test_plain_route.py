"""The move's short path (``PlainJSONRoute``): a plain JSON body skips FastAPI's generic path, and
every other request gets FastAPI's own answer, word for word."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import fastapi.routing
import pytest
from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

from ludorum.engine import Registry
from ludorum.server import create_app
from ludorum.server.http.language import LocalizedRoute
from ludorum.server.http.plainroute import PlainJSONRoute
from ludorum.server.http.schemas import Submit
from tests.server.support import TOKEN_BODY, bearer, new_game_body


async def echo(game_id: str, body: Submit, request: Request) -> Response:
    """What the endpoint was given."""
    return JSONResponse({"game": game_id, "body": repr(body.model_dump()), "method": request.method})


@pytest.fixture
def twin(registry: Registry, sqlite_url: str) -> Iterator[TestClient]:
    """The server with the same endpoint behind a PlainJSONRoute and behind FastAPI's generic route."""
    app: FastAPI = create_app(registry, sqlite_url)
    for name, route in (("plain", PlainJSONRoute), ("generic", LocalizedRoute)):
        app.router.add_api_route(f"/t/{name}/{{game_id}}", echo, methods=["POST"], route_class_override=route)
    with TestClient(app) as c:
        yield c


BODIES = [
    b'{"version": 3, "action": {"kind": "bid", "args": [1, "x", null, true]}}',
    b'{"version": 3.0, "action": {"kind": "bid"}}',
    b'{"version": 3.5, "action": {"kind": "bid"}}',
    b'{"version": "3", "action": {"kind": "bid"}}',
    b'{"version": -1, "action": {"kind": "bid"}}',
    b'{"version": 123456789012345678901234567890, "action": {"kind": "bid"}}',
    b'{"version": 1e400, "action": {"kind": "bid"}}',
    b'{"version": NaN, "action": {"kind": "bid"}}',
    b'{"version": 1, "action": {"kind": "bid", "args": [1.5, 1e-7, 1E400]}}',
    b'{"version": 1, "version": 2, "action": {"kind": "a", "kind": "b"}}',
    b'{"version": 1, "action": {"kind": "bid"}, "extra": 1}',
    b'{"version": 1, "action": {"kind": "\\ud800"}}',
    '{"version": 1, "action": {"kind": "caf\u00e9"}}'.encode(),
    '{"version": 1, "action": {"kind": "caf\u00e9"}}'.encode("utf-16"),
    b'\xef\xbb\xbf{"version": 1, "action": {"kind": "bid"}}',
    b'{"version": 1, "action": {"kind": "\xff"}}',
    b"{",
    b"[]",
    b"null",
    b"",
    b"not json",
    b'{"version": 1, "action": {"kind": "bid"}} x',
    b"[" * 5000 + b"]" * 5000,
]
TYPES = [
    "application/json",
    "application/json; charset=utf-8",
    "Application/JSON",
    "application/vnd.ludorum+json",
    "text/plain",
    None,
]


@pytest.mark.parametrize("content_type", TYPES)
def test_every_answer_is_fastapis(twin: TestClient, content_type: str | None) -> None:
    for raw in BODIES:
        headers = {} if content_type is None else {"Content-Type": content_type}
        plain = twin.post("/t/plain/g1", content=raw, headers=headers)
        generic = twin.post("/t/generic/g1", content=raw, headers=headers)
        assert (plain.status_code, plain.headers.get("content-type"), plain.content) == (
            generic.status_code,
            generic.headers.get("content-type"),
            generic.content,
        ), raw[:80]


def test_a_plain_move_skips_the_generic_path(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    made = client.post("/api/games", json=new_game_body(), headers=TOKEN_BODY).json()
    t1 = client.post(f"/api/games/{made['id']}/seats/1/claim", headers=TOKEN_BODY).json()["token"]
    tokens = [made["token"], t1]
    client.cookies.clear()
    deadline = time.monotonic() + 10
    url = f"/api/games/{made['id']}"
    while (snap := client.get(url, headers=bearer(tokens[0])).json())["to_move"] is None:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    mover = snap["to_move"]
    if snap["seat"] != mover:
        snap = client.get(url, headers=bearer(tokens[mover])).json()
    solved: list[Any] = []
    real = fastapi.routing.solve_dependencies

    async def counting(*args: Any, **kwargs: Any) -> Any:
        solved.append(kwargs["request"].url.path)
        return await real(*args, **kwargs)

    monkeypatch.setattr(fastapi.routing, "solve_dependencies", counting)
    url += "/actions"
    refused = client.post(url, json={"version": snap["version"]}, headers=bearer(tokens[mover]))
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "invalid_request"
    assert solved == [url]  # a refusal is FastAPI's own
    move = {"version": snap["version"], "action": snap["legal"][0]["action"]}
    took = client.post(url, json=move, headers=bearer(tokens[mover]))
    assert took.status_code == 200 and took.json()["version"] == snap["version"] + 1
    assert solved == [url]  # the move itself did not go through solve_dependencies


def test_a_route_it_cannot_serve_is_refused_at_once() -> None:
    async def with_query(game_id: str, body: Submit, request: Request, since: int = 0) -> Response:
        return Response()

    app = FastAPI()
    with pytest.raises(TypeError, match="str path parameters"):
        app.router.add_api_route("/x/{id}", with_query, methods=["POST"], route_class_override=PlainJSONRoute)
