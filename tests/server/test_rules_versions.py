"""Rules versions of stored games (issue #14): a game or record of another version is never replayed
under the new rules; after an upgrade, old games are shown as they were played and not resumed."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ludorum.engine import Registry
from ludorum.server import create_app
from ludorum.server.play import games as games_module
from ludorum.server.store.db import MIGRATIONS, Store, make_engine
from tests.fixtures.sealed_bids import SealedBids
from tests.server.support import TOKEN_BODY, bearer, fixture_registry, new_game_body


class SealedBidsV2(SealedBids):
    """The fixture game after an upgrade that changed its rules."""

    rules_version = 2


def upgraded_registry() -> Registry:
    """The fixture registry after the upgrade."""
    reg = Registry()
    reg.register(SealedBidsV2())
    return reg


def _play(client: TestClient, game_id: str, tokens: dict[int, str], steps: int) -> None:
    """Play up to ``steps`` actions by whoever is to move (chance moves by itself), the highest bid each
    time, stopping at the end."""
    for _ in range(steps):
        spectator = client.get(f"/api/games/{game_id}").json()
        if spectator["status"] == "finished":
            return
        mover = spectator["to_move"]
        if mover is None:  # chance is about to move
            continue
        snap = client.get(f"/api/games/{game_id}", headers=bearer(tokens[mover])).json()
        actions = [a["action"] for a in snap["legal"]]
        action = next((a for a in actions if a["kind"] == "confirm"), actions[-1])  # never cancel
        r = client.post(
            f"/api/games/{game_id}/actions",
            json={"version": snap["version"], "action": action},
            headers=bearer(tokens[mover]),
        )
        assert r.status_code == 200, r.text


def _two_players(client: TestClient) -> tuple[str, dict[int, str]]:
    r = client.post("/api/games", json=new_game_body(claim=0), headers=TOKEN_BODY)
    game_id = r.json()["id"]
    t1 = client.post(f"/api/games/{game_id}/seats/1/claim", headers=TOKEN_BODY).json()["token"]
    client.cookies.clear()  # seats by their Authorization header; without one, a spectator
    return game_id, {0: r.json()["token"], 1: t1}


def test_new_games_and_their_records_carry_the_rules_version(db_url: str) -> None:
    with TestClient(create_app(upgraded_registry(), db_url)) as client:
        game_id, tokens = _two_players(client)
        assert client.get(f"/api/games/{game_id}").json()["rules_version"] == 2
        listed = client.get("/api/games").json()
        assert [(g["rules_version"], g["resumable"], g["retired"]) for g in listed] == [(2, True, None)]
        partial = client.get(f"/api/games/{game_id}/record", headers=bearer(tokens[0])).json()
        assert partial["rules"] == 2
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT rules_version FROM games")).scalar() == 2
    finally:
        engine.dispose()


def test_a_record_of_other_rules_is_refused_naming_both(sqlite_url: str) -> None:
    with TestClient(create_app(fixture_registry(), sqlite_url)) as client:
        game_id, tokens = _two_players(client)
        _play(client, game_id, tokens, 500)  # to the end
        record = client.get(f"/api/games/{game_id}/record").json()
        assert record["rules"] == 1 and client.get(f"/api/games/{game_id}").json()["status"] == "finished"
    with TestClient(create_app(upgraded_registry(), sqlite_url)) as client:
        before = client.get("/api/games").json()
        r = client.post("/api/records", json={"record": record})
        assert r.status_code == 422 and r.json()["error"]["code"] == "other_rules"
        message = r.json()["error"]["message"]
        assert "rules version 1" in message and "version 2" in message
        without = {k: v for k, v in record.items() if k != "rules"}  # a record from before versions: 1
        r = client.post("/api/records", json={"record": without})
        assert r.status_code == 422 and "rules version 1" in r.json()["error"]["message"]
        assert client.get("/api/games").json() == before  # nothing was created
        record["rules"] = 2  # the same steps claimed for the new rules replay (and are checked) as usual
        assert client.post("/api/records", json={"record": record}).status_code == 201


def test_after_an_upgrade_an_unfinished_game_is_shown_as_played_and_not_resumed(db_url: str) -> None:
    with TestClient(create_app(fixture_registry(), db_url)) as client:
        game_id, tokens = _two_players(client)
        _play(client, game_id, tokens, 5)
        while client.get(f"/api/games/{game_id}").json()["to_move"] is None:
            pass  # chance draws the next prize: then the game waits for a seat
        seen = {s: client.get(f"/api/games/{game_id}", headers=bearer(t)).json() for s, t in tokens.items()}
        seen[None] = client.get(f"/api/games/{game_id}").json()  # type: ignore[index]
        assert seen[None]["status"] != "finished" and seen[None]["resumable"] is True  # type: ignore[index]
    with TestClient(create_app(upgraded_registry(), db_url)) as client:
        listed = client.get("/api/games").json()
        assert [(g["id"], g["rules_version"], g["resumable"]) for g in listed] == [(game_id, 1, False)]
        assert "rules version 1" in listed[0]["retired"] and "version 2" in listed[0]["retired"]
        for observer, before in seen.items():
            headers = bearer(tokens[observer]) if observer is not None else {}
            now = client.get(f"/api/games/{game_id}", headers=headers).json()
            assert now["resumable"] is False and now["rules_version"] == 1 and now["current_rules"] == 2
            assert "rules version 1" in now["retired"] and "version 2" in now["retired"]
            # exactly what this observer saw before the upgrade: the view and what it read of each step
            assert now["view"] == before["view"] and now["version"] == before["version"]
            assert [(e["label"], e["action"]) for e in now["log"]] == [
                (e["label"], e["action"]) for e in before["log"]
            ]
            assert now["legal"] == [] and now["to_move"] is None
        r = client.post(
            f"/api/games/{game_id}/actions",
            json={"version": seen[0]["version"], "action": {"kind": "confirm", "args": []}},
            headers=bearer(tokens[0]),
        )
        assert r.status_code == 409 and r.json()["error"]["code"] == "other_rules"
        assert (
            client.post(
                f"/api/games/{game_id}/leave", json={"bot": None}, headers=bearer(tokens[0])
            ).status_code
            == 409
        )
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            client.websocket_connect(f"/api/games/{game_id}/ws") as ws,
        ):
            ws.receive_json()
        assert closed.value.code == 4409 and closed.value.reason == "other_rules"
        assert client.get(f"/api/games/{game_id}").json()["version"] == seen[None]["version"]  # type: ignore[index]


def test_after_an_upgrade_a_finished_game_keeps_its_whole_log_and_record(sqlite_url: str) -> None:
    with TestClient(create_app(fixture_registry(), sqlite_url)) as client:
        game_id, tokens = _two_players(client)
        _play(client, game_id, tokens, 500)
        before = client.get(f"/api/games/{game_id}").json()
        record = client.get(f"/api/games/{game_id}/record").json()
        assert before["status"] == "finished"
    with TestClient(create_app(upgraded_registry(), sqlite_url)) as client:
        now = client.get(f"/api/games/{game_id}").json()
        assert now["resumable"] is False and now["status"] == "finished" and now["result"] == before["result"]
        assert now["view"] == before["view"] and now["log"] == before["log"]
        assert client.get(f"/api/games/{game_id}/record").json() == record  # rules 1, every step


def test_games_stored_before_rules_versions_are_version_1(db_url: str) -> None:
    """A database made by the schema before this revision: its games become rules version 1 — with the
    fixture game at version 1 they play on; after the upgrade they show their steps, not resumed."""
    from alembic import command
    from alembic.config import Config as AlembicConfig

    engine = make_engine(db_url)
    try:
        cfg = AlembicConfig(str(MIGRATIONS.parent / "alembic.ini"))
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0003")
        with engine.begin() as conn:
            for gid, status in (("old1", "running"), ("old2", "finished")):
                conn.execute(
                    sa.text(
                        "INSERT INTO games (id, game, config, seed, status, version, created)"
                        " VALUES (:id, 'sealed-bids', :config, '7', :status, 1, '2026-01-01 00:00:00+00:00')"
                    ),
                    {"id": gid, "config": json.dumps({"players": 2}), "status": status},
                )
                for seat in (0, 1):
                    conn.execute(
                        sa.text("INSERT INTO seats (game_id, seat, kind) VALUES (:g, :s, 'human')"),
                        {"g": gid, "s": seat},
                    )
                conn.execute(
                    sa.text("INSERT INTO actions (game_id, idx, seat, action) VALUES (:g, 0, -1, :a)"),
                    {"g": gid, "a": json.dumps({"kind": "prize", "args": [3]})},
                )
        Store(db_url).dispose()  # migrates to head
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT DISTINCT rules_version FROM games")).scalars().all() == [1]
    finally:
        engine.dispose()
    with TestClient(create_app(fixture_registry(), db_url)) as client:  # same rules: it plays on
        assert client.get("/api/games/old1").json()["resumable"] is True
    with TestClient(create_app(upgraded_registry(), db_url)) as client:
        running = client.get("/api/games/old1").json()
        assert running["resumable"] is False and running["view"] is None  # nothing was archived then
        assert running["log"][0]["action"] is None  # not archived: nothing of it before the end
        finished = client.get("/api/games/old2").json()
        assert finished["log"][0]["action"] == {"kind": "prize", "args": [3]}  # public after the end


def test_the_retired_games_kept_in_memory_are_bounded(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Retired games are kept for viewing like finished ones: the most recently asked for, no more."""
    with TestClient(create_app(fixture_registry(), sqlite_url)) as client:
        ids = [client.post("/api/games", json=new_game_body()).json()["id"] for _ in range(5)]
    monkeypatch.setattr(games_module, "FINISHED_CACHE", 2)
    with TestClient(create_app(upgraded_registry(), sqlite_url)) as client:
        for game_id in ids:
            assert client.get(f"/api/games/{game_id}").json()["resumable"] is False
            r = client.post(f"/api/games/{game_id}/seats/1/claim")  # refused, by the same cache
            assert r.status_code == 409 and r.json()["error"]["code"] == "other_rules"
        assert list(client.app.state.lobby.games.retired) == ids[-2:]  # type: ignore[attr-defined]
