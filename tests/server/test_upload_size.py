"""Record uploads are capped at what long real games need (1 MiB), not 8 MiB: JSON is parsed while holding
the interpreter's lock, so a thread does not help, and parsing 7 MB held every other request for half a
second (docs/server.md, "Bodies")."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from ludorum.agents import RandomBot, play_game
from ludorum.games import registry
from ludorum.server.app import MAX_RECORD_BODY
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
