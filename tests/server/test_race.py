"""Races: concurrent submissions for one version, over real HTTP — exactly one wins, the rest resync."""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx

from tests.server.support import TOKEN_BODY, bearer, live_server, new_game_body

_HTTP = httpx.Client(timeout=30)


def _turn(base: str, game_id: str, tokens: list[str]) -> tuple[str, dict[str, Any]]:
    """The token of the seat that decides now and its snapshot (waiting while chance moves)."""
    deadline = time.monotonic() + 10
    while True:
        for token in tokens:
            snap = _HTTP.get(f"{base}/api/games/{game_id}", headers=bearer(token)).json()
            if snap["legal"] or snap["status"] == "finished":
                return token, snap
        assert time.monotonic() < deadline
        time.sleep(0.01)


def _race(urls: list[str], game_id: str, token: str, snap: dict[str, Any], n: int) -> list[tuple[int, Any]]:
    """``n`` clients submit different legal actions for the same version at the same moment."""
    barrier = threading.Barrier(n)
    out: list[tuple[int, Any]] = []
    legal = snap["legal"]

    def go(i: int) -> None:
        action = legal[i % len(legal)]["action"]
        with httpx.Client(base_url=urls[i % len(urls)], timeout=30) as c:
            barrier.wait()
            r = c.post(
                f"/api/games/{game_id}/actions",
                json={"version": snap["version"], "action": action},
                headers=bearer(token),
            )
            out.append((r.status_code, r.json(), action))  # type: ignore[arg-type]

    threads = [threading.Thread(target=go, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def _check_one_winner(results: list[Any], version: int) -> Any:
    winners = [r for r in results if r[0] == 200]
    losers = [r for r in results if r[0] != 200]
    assert len(winners) == 1, results
    # A loser must resync: its version is stale, or, when the winner's move ended the game, the game is over.
    ended = winners[0][1]["status"] == "finished"
    resync = {"stale_version", "game_over"} if ended else {"stale_version"}
    assert all(r[0] == 409 and r[1]["error"]["code"] in resync for r in losers), losers
    assert winners[0][1]["version"] == version + 1
    return winners[0][2]


def test_concurrent_submissions_one_winner_per_version(db_url: str) -> None:
    with live_server(db_url) as srv:
        r = httpx.post(f"{srv.url}/api/games", json=new_game_body(), headers=TOKEN_BODY)
        game_id, t0 = r.json()["id"], r.json()["token"]
        t1 = httpx.post(f"{srv.url}/api/games/{game_id}/seats/1/claim", headers=TOKEN_BODY).json()["token"]
        won = []
        for _ in range(12):
            token, snap = _turn(srv.url, game_id, [t0, t1])
            if snap["legal"]:
                results = _race([srv.url], game_id, token, snap, 6)
                won.append((snap["version"], _check_one_winner(results, snap["version"])))
        record = httpx.get(f"{srv.url}/api/games/{game_id}", headers=bearer(t0)).json()
        mine = {e["index"]: e["action"] for e in record["log"] if e["seat"] == 0}
        for version, action in won:
            if version in mine:
                assert mine[version] == action  # the stored step is the winner's


def test_two_server_processes_on_one_database(db_url: str) -> None:
    """Two servers share the database: the (game, index) key decides, the loser resyncs."""
    with live_server(db_url) as a, live_server(db_url) as b:
        r = httpx.post(f"{a.url}/api/games", json=new_game_body(), headers=TOKEN_BODY)
        game_id, t0 = r.json()["id"], r.json()["token"]
        t1 = httpx.post(f"{a.url}/api/games/{game_id}/seats/1/claim", headers=TOKEN_BODY).json()["token"]
        for _ in range(8):
            token, snap = _turn(a.url, game_id, [t0, t1])
            if snap["legal"]:
                _check_one_winner(_race([a.url, b.url], game_id, token, snap, 4), snap["version"])
        sa = httpx.get(f"{a.url}/api/games/{game_id}", headers=bearer(t0)).json()
        sb = httpx.get(f"{b.url}/api/games/{game_id}", headers=bearer(t0)).json()
        assert sa["version"] == sb["version"] or abs(sa["version"] - sb["version"]) <= 1
