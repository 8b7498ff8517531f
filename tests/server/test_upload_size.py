"""Record uploads: read in a worker process, and capped at what long real games need (1 MiB, not 8 MiB).
Parsing JSON holds the interpreter's lock, so a thread of the server's does not help: on the event loop, a
1 MB upload held every other request for up to 110 ms, a 7 MB one for 0.7 s (docs/server.md, "Bodies")."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from ludorum.agents import RandomBot, play_game
from ludorum.games import registry
from ludorum.server.http.bodylimit import MAX_RECORD_BODY
from tests.server.support import TOKEN_BODY


def test_a_record_upload_over_a_mebibyte_is_refused_unread(client: TestClient) -> None:
    steps = [[0, {"kind": "bid", "args": [i % 7]}] for i in range(100_000)]  # about 2.8 MB
    body = json.dumps({"record": {"game": "sealed-bids", "steps": steps}}).encode()
    assert len(body) > MAX_RECORD_BODY
    r = client.post("/api/records", content=body, headers={**TOKEN_BODY, "Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large", r.text


def test_the_cap_leaves_long_real_games_room() -> None:
    """The longest games: Reliquium with four players and its longest round limit, random play."""
    game = registry().get("reliquium")
    config = game.config(4, (), rounds=200)
    longest = max(
        len(json.dumps(play_game(game, config, seed, [RandomBot()] * 4).record.to_json()))
        for seed in range(3)
    )
    assert 4 * longest < MAX_RECORD_BODY, longest


def test_an_upload_is_not_parsed_on_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    on_the_loop: list[int] = []  # the sizes of the large bodies parsed where an event loop runs

    def watched(parse: Callable[..., Any]) -> Callable[..., Any]:
        def loads(data: Any, *args: Any, **kwargs: Any) -> Any:
            if len(data) > 100_000:
                try:
                    asyncio.get_running_loop()
                    on_the_loop.append(len(data))
                except RuntimeError:
                    pass
            return parse(data, *args, **kwargs)

        return loads

    monkeypatch.setattr(json, "loads", watched(json.loads))
    monkeypatch.setattr(orjson, "loads", watched(orjson.loads))
    steps = [[0, {"kind": "bid", "args": [i % 7]}] for i in range(10_000)]
    body = json.dumps({"record": {"game": "sealed-bids", "steps": steps}}).encode()
    r = client.post("/api/records", content=body, headers={**TOKEN_BODY, "Content-Type": "application/json"})
    assert r.status_code == 422 and "lacks config" in r.json()["error"]["message"], r.text  # it was read
    assert on_the_loop == []
