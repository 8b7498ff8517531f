"""Who may do what: games with a seed their uploader chose are marked, rematches belong to the players,
a finished game's seats are history."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from ludorum.engine import Registry
from ludorum.server import create_app
from tests.server.support import TOKEN_BODY, bearer
from tests.server.test_api import create, play_to_end

RECORD: dict[str, Any] = {
    "format": 1,
    "game": "sealed-bids",
    "config": {"players": 2},
    "seed": 12345,
    "steps": [[-1, {"kind": "prize", "args": [3]}]],
    "result": None,
}


def upload(client: TestClient, record: dict[str, Any] = RECORD) -> tuple[str, str]:
    """An uploaded record resumed with the uploader in seat 0 and seat 1 open."""
    r = client.post("/api/records", json={"record": record, "claim": 0}, headers=TOKEN_BODY)
    assert r.status_code == 201, r.text
    client.cookies.clear()
    return r.json()["id"], r.json()["token"]


def lobby_entry(client: TestClient, game_id: str) -> dict[str, Any]:
    return next(g for g in client.get("/api/games").json() if g["id"] == game_id)


def test_a_game_from_an_uploaded_record_is_marked_as_having_a_chosen_seed(client: TestClient) -> None:
    fair, _ = create(client)
    chosen, _ = upload(client)
    assert lobby_entry(client, fair)["seed_chosen"] is False
    assert lobby_entry(client, chosen)["seed_chosen"] is True
    assert client.get(f"/api/games/{fair}").json()["seed_chosen"] is False
    assert client.get(f"/api/games/{chosen}").json()["seed_chosen"] is True


def test_joining_a_chosen_seed_game_needs_an_explicit_acceptance(client: TestClient) -> None:
    chosen, _ = upload(client)
    r = client.post(f"/api/games/{chosen}/seats/1/claim")
    assert r.status_code == 409 and r.json()["error"]["code"] == "chosen_seed"
    assert "seed" in r.json()["error"]["message"]
    assert lobby_entry(client, chosen)["players"][1]["claimed"] is False  # nothing changed
    r = client.post(f"/api/games/{chosen}/seats/1/claim?accept_chosen_seed=true")
    assert r.status_code == 200, r.text
    assert lobby_entry(client, chosen)["players"][1]["claimed"] is True
    # a fair game needs no such acceptance
    fair, _ = create(client)
    client.cookies.clear()
    assert client.post(f"/api/games/{fair}/seats/1/claim").status_code == 200


def test_the_mark_survives_a_restart(registry: Registry, sqlite_url: str) -> None:
    with TestClient(create_app(registry, sqlite_url)) as client:
        chosen, _ = upload(client)
    with TestClient(create_app(registry, sqlite_url)) as client:
        assert lobby_entry(client, chosen)["seed_chosen"] is True
        assert client.get(f"/api/games/{chosen}").json()["seed_chosen"] is True
        assert client.post(f"/api/games/{chosen}/seats/1/claim").status_code == 409


def finished_game(client: TestClient) -> tuple[str, list[str]]:
    """A two-human game played to its end; returns its id and both seats' tokens."""
    game_id, t0 = create(client)
    t1 = client.post(f"/api/games/{game_id}/seats/1/claim", headers=TOKEN_BODY).json()["token"]
    client.cookies.clear()
    play_to_end(client, game_id, [t0, t1])
    return game_id, [t0, t1]


def test_leave_is_refused_once_the_game_is_over(client: TestClient) -> None:
    game_id, tokens = finished_game(client)
    before = client.get(f"/api/games/{game_id}").json()["players"]
    for body in ({}, {"bot": "random"}):
        r = client.post(f"/api/games/{game_id}/leave", json=body, headers=bearer(tokens[1]))
        assert r.status_code == 409 and r.json()["error"]["code"] == "game_over", r.text
    assert client.get(f"/api/games/{game_id}").json()["players"] == before
    assert client.get(f"/api/games/{game_id}", headers=bearer(tokens[1])).json()["seat"] == 1


def test_only_the_players_may_start_a_rematch(client: TestClient) -> None:
    game_id, _ = finished_game(client)
    # a spectator (no token) and a stranger holding another game's token are refused
    r = client.post(f"/api/games/{game_id}/rematch")
    assert r.status_code == 401 and r.json()["error"]["code"] == "no_token"
    _, stranger = create(client)
    client.cookies.clear()
    r = client.post(f"/api/games/{game_id}/rematch", headers=bearer(stranger))
    assert r.status_code == 401
    assert client.get(f"/api/games/{game_id}").json()["rematches"] == []


def test_each_player_keeps_their_seat_in_the_rematch(client: TestClient) -> None:
    game_id, tokens = finished_game(client)
    r = client.post(f"/api/games/{game_id}/rematch", headers={**bearer(tokens[1]), **TOKEN_BODY})
    assert r.status_code == 200, r.text
    new_id = r.json()["id"]
    assert r.json()["seat"] == 1
    new = client.get(f"/api/games/{new_id}", headers=bearer(r.json()["token"])).json()
    assert new["seat"] == 1 and new["rematch_of"] == game_id
    # seat 0 is kept for seat 0's player: nobody else may take it, and they find it when they come
    assert [p["claimed"] for p in new["players"]] == [True, True] and new["status"] == "running"
    client.cookies.clear()
    assert client.post(f"/api/games/{new_id}/seats/0/claim").status_code == 409
    r = client.post(f"/api/games/{game_id}/rematch", headers={**bearer(tokens[0]), **TOKEN_BODY})
    assert r.status_code == 200 and r.json()["id"] == new_id and r.json()["seat"] == 0
    assert client.get(f"/api/games/{new_id}", headers=bearer(r.json()["token"])).json()["seat"] == 0
    # a spectator of the old game does not become a player of the new one
    client.cookies.clear()
    assert client.post(f"/api/games/{game_id}/rematch").status_code == 401


def test_players_pressing_rematch_together_get_one_game(client: TestClient) -> None:
    import threading

    game_id, tokens = finished_game(client)
    barrier = threading.Barrier(10)
    answers: list[Any] = []

    def press(i: int) -> None:
        barrier.wait()
        answers.append(client.post(f"/api/games/{game_id}/rematch", headers=bearer(tokens[i % 2])))

    threads = [threading.Thread(target=press, args=(i,)) for i in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
    assert len({a.json()["id"] for a in answers}) == 1
    assert len(client.get(f"/api/games/{game_id}").json()["rematches"]) == 1
    assert len(client.get("/api/games").json()) == 2


def test_a_rematch_of_a_chosen_seed_game_draws_a_fair_seed(client: TestClient) -> None:
    record = dict(RECORD)
    game_id, token = upload(client, record)
    t1 = client.post(
        f"/api/games/{game_id}/seats/1/claim?accept_chosen_seed=true", headers=TOKEN_BODY
    ).json()["token"]
    client.cookies.clear()
    play_to_end(client, game_id, [token, t1])
    r = client.post(f"/api/games/{game_id}/rematch", headers=bearer(token))
    assert r.status_code == 200
    assert lobby_entry(client, r.json()["id"])["seed_chosen"] is False


def test_one_rematch_per_game_is_enforced_by_the_database(db_url: str, registry: Registry) -> None:
    """Two server processes cannot make two rematches of one game: the database refuses the second."""
    import pytest
    from sqlalchemy.exc import IntegrityError

    from ludorum.server.store.db import Store
    from ludorum.server.store.tables import SeatData

    store = Store(db_url)
    try:
        seats = [SeatData(0, "human"), SeatData(1, "human")]
        store.create_game("a", "sealed-bids", {"players": 2}, 1, "finished", seats)
        store.create_game("b", "sealed-bids", {"players": 2}, 2, "open", seats, rematch_of="a")
        with pytest.raises(IntegrityError):
            store.create_game("c", "sealed-bids", {"players": 2}, 3, "open", seats, rematch_of="a")
        assert store.rematches("a") == ["b"]
    finally:
        store.dispose()
