"""Accounts: guests, registration, sign-in, sessions, and every refusal (issue 36, "Identity")."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from ludorum.engine.registry import Registry
from ludorum.server.accounts import names, throttle
from ludorum.server.accounts.service import Accounts, Locked, WrongCredentials
from ludorum.server.http.accounts import COOKIE
from ludorum.server.store.db import MIGRATIONS, Store, make_engine

PASSWORD = "correct horse battery"


@pytest.fixture
def app_client(registry: Registry, sqlite_url: str) -> TestClient:
    from ludorum.server import create_app

    with TestClient(create_app(registry, sqlite_url)) as c:
        yield c


def register(client: TestClient, name: str, password: str = PASSWORD) -> dict:
    r = client.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    return r.json()["account"]


def test_a_guest_gets_a_generated_name_kept_by_its_session(app_client: TestClient) -> None:
    first = app_client.post("/api/guest").json()["account"]
    assert first["guest"] and names.check_name(first["name"]) == first["name"]
    cookie = app_client.cookies.get(COOKIE)
    assert cookie
    assert app_client.get("/api/me").json()["account"]["id"] == first["id"]
    assert app_client.post("/api/guest").json()["account"]["id"] == first["id"]  # no second guest


def test_the_session_cookie_is_httponly_and_lax(app_client: TestClient) -> None:
    r = app_client.post("/api/guest")
    header = r.headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=lax" in header and "secure" not in header


def test_a_guest_who_registers_keeps_its_identity_under_a_new_token(app_client: TestClient) -> None:
    guest = app_client.post("/api/guest").json()["account"]
    old = app_client.cookies.get(COOKIE)
    account = register(app_client, "Brunhild")
    assert account["id"] == guest["id"] and not account["guest"] and account["name"] == "Brunhild"
    new = app_client.cookies.get(COOKIE)
    assert new != old
    app_client.cookies.set(COOKIE, old)  # the guest's cookie, planted before, no longer signs in
    assert app_client.get("/api/me").json()["account"] is None


@pytest.mark.parametrize(
    ("name", "status"),
    [("ab", 422), ("x" * 25, 422), ("", 422), ("bad!name", 422), ("  spaced  out", 422), ("Аlex", 422)],
)
def test_bad_names_are_refused_and_nothing_is_made(app_client: TestClient, name: str, status: int) -> None:
    r = app_client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == status and r.json()["error"]["message"]
    assert app_client.get("/api/me").json()["account"] is None


def test_a_taken_name_or_one_that_looks_the_same_is_refused(registry: Registry, sqlite_url: str) -> None:
    from ludorum.server import create_app

    with TestClient(create_app(registry, sqlite_url)) as a, TestClient(create_app(registry, sqlite_url)) as b:
        register(a, "ABC")
        for same in ("ABC", "abc", "АВС"):  # the last is Cyrillic throughout
            r = b.post("/api/accounts", json={"name": same, "password": PASSWORD})
            assert r.status_code == 409, same
            assert r.json()["error"]["code"] == "name_taken"


def test_short_passwords_are_refused(app_client: TestClient) -> None:
    r = app_client.post("/api/accounts", json={"name": "Gudrun", "password": "short"})
    assert r.status_code == 422 and "8" in r.json()["error"]["message"]


def test_passwords_are_stored_as_argon2id(app_client: TestClient, sqlite_url: str) -> None:
    register(app_client, "Sigrun")
    engine = make_engine(sqlite_url)
    stored = engine.connect().execute(sa.text("SELECT password_hash FROM accounts")).scalar_one()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored


def test_sign_in_makes_a_new_session_and_refuses_wrong_passwords(registry: Registry, sqlite_url: str) -> None:
    from ludorum.server import create_app

    with TestClient(create_app(registry, sqlite_url)) as a, TestClient(create_app(registry, sqlite_url)) as b:
        made = register(a, "Hildegard")
        wrong = b.post("/api/session", json={"name": "Hildegard", "password": "wrong password"})
        assert wrong.status_code == 403
        assert b.post("/api/session", json={"name": "Nobody", "password": PASSWORD}).status_code == 403
        r = b.post("/api/session", json={"name": "hildegard", "password": PASSWORD})
        assert r.status_code == 200 and r.json()["account"]["id"] == made["id"]
        assert b.cookies.get(COOKIE) != a.cookies.get(COOKIE)
        b.delete("/api/session")
        assert b.get("/api/me").json()["account"] is None
        assert a.get("/api/me").json()["account"]["id"] == made["id"]  # the other session lives on


def test_brute_force_on_an_account_gets_429_even_with_the_right_password(app_client: TestClient) -> None:
    register(app_client, "Walburga")
    app_client.delete("/api/session")
    for _ in range(throttle.FREE_FAILURES):
        r = app_client.post("/api/session", json={"name": "Walburga", "password": "guessing..."})
        assert r.status_code == 403
    r = app_client.post("/api/session", json={"name": "Walburga", "password": PASSWORD})
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1


def test_an_account_lock_is_shared_by_processes_and_ends(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    try:
        now = [dt.datetime(2026, 12, 6, tzinfo=dt.UTC)]
        one, two = (Accounts(store.engine, clock=lambda: now[0]) for _ in range(2))
        one.register(None, "Radegund", PASSWORD)
        for _ in range(throttle.FREE_FAILURES):
            with pytest.raises(WrongCredentials):
                one.sign_in("Radegund", "not it at all", f"10.0.0.{_}")
        with pytest.raises(Locked):
            two.sign_in("Radegund", PASSWORD, "10.0.1.1")  # another process, another address
        now[0] += dt.timedelta(seconds=throttle.FIRST_LOCK + 1)
        account, _token = two.sign_in("Radegund", PASSWORD, "10.0.1.1")
        assert account.name == "Radegund"
    finally:
        store.dispose()


def test_one_address_guessing_many_accounts_gets_429(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    try:
        accounts = Accounts(store.engine)
        for i in range(throttle.ADDRESS_FAILURES):
            with pytest.raises(WrongCredentials):
                accounts.sign_in(f"Someone{i}", "whatever it is", "192.0.2.7")
        with pytest.raises(Locked):
            accounts.sign_in("Someone", "whatever it is", "192.0.2.7")
        with pytest.raises(WrongCredentials):  # another address is not held back
            accounts.sign_in("Someone", "whatever it is", "192.0.2.8")
    finally:
        store.dispose()


def test_a_changed_password_ends_the_other_sessions(registry: Registry, sqlite_url: str) -> None:
    from ludorum.server import create_app

    with TestClient(create_app(registry, sqlite_url)) as a, TestClient(create_app(registry, sqlite_url)) as b:
        register(a, "Adelheid")
        b.post("/api/session", json={"name": "Adelheid", "password": PASSWORD})
        r = a.put("/api/me/password", json={"old": "not the password", "new": "a new password"})
        assert r.status_code == 403
        assert a.put("/api/me/password", json={"old": PASSWORD, "new": "a new password"}).status_code == 204
        assert b.get("/api/me").json()["account"] is None
        assert a.get("/api/me").json()["account"]["name"] == "Adelheid"
        again = b.post("/api/session", json={"name": "Adelheid", "password": "a new password"})
        assert again.status_code == 200


def test_export_is_ones_own_and_needs_a_session(app_client: TestClient) -> None:
    assert app_client.get("/api/me/export").status_code == 401
    register(app_client, "Kunigunde")
    data = app_client.get("/api/me/export").json()
    assert data["account"]["name"] == "Kunigunde" and "password_hash" not in json.dumps(data)


def test_a_deleted_accounts_cookie_signs_in_nobody_and_frees_the_name(app_client: TestClient) -> None:
    register(app_client, "Mechthild")
    cookie = app_client.cookies.get(COOKIE)
    assert app_client.delete("/api/me").status_code == 204
    app_client.cookies.set(COOKIE, cookie)
    assert app_client.get("/api/me").json()["account"] is None
    assert app_client.delete("/api/me").status_code == 401
    register(app_client, "Mechthild")


def test_renaming_checks_the_name(app_client: TestClient) -> None:
    app_client.post("/api/guest")
    assert app_client.put("/api/me/name", json={"name": "no"}).status_code == 422
    assert app_client.put("/api/me/name", json={"name": "Ortrud"}).json()["account"]["name"] == "Ortrud"


def test_guests_per_address_are_bounded(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    try:
        accounts = Accounts(store.engine)
        for _ in range(throttle.GUESTS_PER_ADDRESS):
            accounts.new_guest("198.51.100.1")
        with pytest.raises(Locked):
            accounts.new_guest("198.51.100.1")
    finally:
        store.dispose()


def test_the_accounts_migration_upgrades_a_database_with_games(sqlite_url: str) -> None:
    from alembic import command
    from alembic.config import Config as AlembicConfig

    engine = make_engine(sqlite_url)
    cfg = AlembicConfig(str(MIGRATIONS.parent / "alembic.ini"))
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0005")
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO games (id, game, config, seed, status, version, created,"
                " rules_version, archived)"
                " VALUES ('g1', 'sealed-bids', '{\"players\": 2}', '7', 'running', 0,"
                " '2026-01-01 00:00:00+00:00', 1, -1)"
            )
        )
    store = Store(sqlite_url)  # migrates to head
    try:
        Accounts(store.engine).register(None, "Irmgard", PASSWORD)
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT id FROM games")).scalars().all() == ["g1"]
            assert conn.execute(sa.text("SELECT name FROM accounts")).scalars().all() == ["Irmgard"]
    finally:
        store.dispose()
        engine.dispose()
