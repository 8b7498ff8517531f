"""Hints ("suggest a move") and the after-game analysis over the API, on the fixture game."""

from __future__ import annotations

import random
import time
from typing import Any

from fastapi.testclient import TestClient

from ludorum.engine import Playthrough
from ludorum.server.play import hints as hints_module
from tests.fixtures.sealed_bids import SealedBids
from tests.server.support import TOKEN_BODY, bearer, new_game_body
from tests.server.test_api import wait_for

BOT = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]


def create(client: TestClient, **kwargs: Any) -> tuple[str, str]:
    hints = kwargs.pop("hints", None)
    body = new_game_body(**kwargs) | ({} if hints is None else {"hints": hints})
    r = client.post("/api/games", json=body, headers=TOKEN_BODY)
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["token"]


def allowed(client: TestClient, game_id: str) -> bool:
    r = client.get(f"/api/games/{game_id}/hints")
    assert r.status_code == 200, r.text
    return bool(r.json()["allowed"])


def test_hints_are_on_against_bots_and_off_between_humans_unless_chosen(client: TestClient) -> None:
    assert allowed(client, create(client, seats=BOT)[0])
    assert not allowed(client, create(client)[0])
    assert allowed(client, create(client, hints=True)[0])
    assert not allowed(client, create(client, seats=BOT, hints=False)[0])
    game_id, token = create(client)
    r = client.post(f"/api/games/{game_id}/hint", headers=bearer(token))
    assert r.status_code == 403 and r.json()["error"]["code"] == "hints_off"


def test_a_hint_is_one_of_your_legal_moves_and_bounded(client: TestClient) -> None:
    # the hints' time stands still: the interval is measured from the request, and the first search
    # (a worker process to start) may take longer than the interval on a busy machine
    client.app.state.hints.clock = lambda: 1000.0  # type: ignore[attr-defined]
    game_id, token = create(client, seats=BOT)
    client.cookies.clear()  # the seat's token goes in the header from now on
    snap = wait_for(client, game_id, token, lambda s: s["legal"])
    assert client.post(f"/api/games/{game_id}/hint").status_code == 401  # a spectator gets none
    r = client.post(f"/api/games/{game_id}/hint", headers=bearer(token))
    assert r.status_code == 200, r.text
    hint = r.json()
    legal = {str(entry["action"]): entry["label"] for entry in snap["legal"]}
    assert hint["version"] == snap["version"] and legal[str(hint["action"])] == hint["label"]
    assert 0.0 <= hint["win"] <= 1.0
    again = client.post(f"/api/games/{game_id}/hint", headers=bearer(token))
    assert again.status_code == 200 and again.json() == hint  # kept for this version: no new search
    r = client.post(
        f"/api/games/{game_id}/actions",
        json={"version": snap["version"], "action": hint["action"]},
        headers=bearer(token),
    )
    assert r.status_code == 200, r.text
    # a bid leaves it pending: still our turn, but a new hint waits for the interval
    assert r.json()["to_move"] == 0
    soon = client.post(f"/api/games/{game_id}/hint", headers=bearer(token))
    assert soon.status_code == 429 and soon.json()["error"]["code"] == "hint_too_soon"
    assert int(soon.headers["Retry-After"]) >= 1


def test_a_second_hint_while_one_is_searched_says_when_to_retry(client: TestClient) -> None:
    game_id, token = create(client, seats=BOT)
    wait_for(client, game_id, token, lambda s: s["legal"])
    book = client.app.state.hints  # type: ignore[attr-defined]
    book._asking.add((game_id, 0))  # as if this seat's first request were still searching
    r = client.post(f"/api/games/{game_id}/hint", headers=bearer(token))
    assert r.status_code == 429 and r.json()["error"]["code"] == "hint_busy"
    assert int(r.headers["Retry-After"]) >= 1  # every 429 says when, in the header as well as the body


def test_no_hint_out_of_turn(client: TestClient) -> None:
    game_id, token = create(client, hints=True)
    snap = wait_for(client, game_id, token, lambda s: s["legal"])
    for action in (snap["legal"][0]["action"], {"kind": "confirm", "args": []}):  # bid, then confirm
        r = client.post(
            f"/api/games/{game_id}/actions",
            json={"version": snap["version"], "action": action},
            headers=bearer(token),
        )
        assert r.status_code == 200, r.text
        snap = r.json()
    assert snap["to_move"] == 1
    r = client.post(f"/api/games/{game_id}/hint", headers=bearer(token))
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_your_turn"


def finished_record() -> dict[str, Any]:
    game = SealedBids()
    play = Playthrough(game, game.config(2), 11)
    rng = random.Random(1)
    while not play.is_over():
        play.resolve_chance()
        if not play.is_over():
            play.play(rng.choice([a for a in game.legal_actions(play.state) if a.kind != "cancel"]))
    return play.record.to_json()


def test_the_analysis_of_a_finished_game(client: TestClient, monkeypatch: Any) -> None:
    monkeypatch.setattr(hints_module, "analysis_json", _quick_analysis)
    game_id, _ = create(client, seats=BOT)
    r = client.get(f"/api/games/{game_id}/analysis")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_over"
    r = client.post("/api/records", json={"record": finished_record()}, headers=TOKEN_BODY)
    assert r.status_code == 201, r.text
    over = r.json()["id"]
    deadline = time.monotonic() + 60
    while (r := client.get(f"/api/games/{over}/analysis")).status_code == 202:
        assert r.json()["status"] == "running" and time.monotonic() < deadline
        time.sleep(0.1)
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["status"] == "done" and data["analysed"] == data["decisions"] > 0
    steps = client.get(f"/api/games/{over}/record").json()["steps"]
    for j in data["judgements"]:
        assert steps[j["step"]] == [j["seat"], j["played"]]
        assert 0 <= j["loss"] <= 1 and j["before"] >= 0
    assert set(data["mistakes"]) == {"0", "1"}


def _quick_analysis(game: Any, record: Any, players: int) -> dict[str, Any]:
    from ludorum.agents.review import analyse

    return analyse(game, record, iterations=40).to_json(players)
