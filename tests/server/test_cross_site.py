"""Seat cookies under attack from other pages (issue 34): a page of another origin — another port of
the same host is the same site, so its browser sends the SameSite=Strict cookie — may not change
anything with it; over TLS the cookie is Secure."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from ludorum.engine import Registry
from ludorum.server import create_app
from ludorum.server.security import cookie_name
from tests.server.support import new_game_body

ANOTHER_PORT = {"Origin": "http://testserver:8081", "Sec-Fetch-Site": "same-site"}
"""What a browser sends with a form posted by a page on another port of this host."""


@pytest.fixture
def client(registry: Registry, sqlite_url: str) -> Iterator[TestClient]:
    """A test server over plain HTTP."""
    with TestClient(create_app(registry, sqlite_url)) as c:
        yield c


def seated(client: TestClient) -> str:
    """A two-human game whose seat 0 this client's cookie holds (seat 1 free)."""
    r = client.post("/api/games", json=new_game_body())
    assert r.status_code == 201, r.text
    return r.json()["id"]  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "headers",
    [
        ANOTHER_PORT,
        {"Origin": "http://testserver:8081"},  # a browser without Sec-Fetch-Site
        {"Sec-Fetch-Site": "cross-site"},
        {"Origin": "null"},  # a sandboxed frame
    ],
)
def test_another_origins_post_with_the_seat_cookie_is_refused_and_changes_nothing(
    client: TestClient, headers: dict[str, str]
) -> None:
    game_id = seated(client)
    before = client.get(f"/api/games/{game_id}").json()
    for path, body in [
        (f"/api/games/{game_id}/leave", {}),
        (f"/api/games/{game_id}/seats/1/claim", None),
        (f"/api/games/{game_id}/rematch", None),
        ("/api/games", new_game_body()),
    ]:
        r = client.post(path, json=body, headers=headers)
        assert r.status_code == 403, (path, r.text)
        assert r.json()["error"]["code"] == "cross_site"
        assert "set-cookie" not in r.headers
    after = client.get(f"/api/games/{game_id}").json()
    assert after["players"] == before["players"] and after["seat"] == 0
    assert len(client.get("/api/games").json()) == 1


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"},  # this site's own page
        {"Origin": "http://testserver"},
        {},  # a program: neither header (it carries its own token)
    ],
)
def test_the_sites_own_page_and_programs_still_post(client: TestClient, headers: dict[str, str]) -> None:
    game_id = seated(client)
    r = client.post(f"/api/games/{game_id}/seats/1/claim", headers=headers)
    assert r.status_code == 200, r.text
    r = client.post(f"/api/games/{game_id}/leave", json={}, headers=headers)
    assert r.status_code == 200, r.text


def test_reading_is_never_refused_for_its_origin(client: TestClient) -> None:
    game_id = seated(client)
    assert client.get(f"/api/games/{game_id}", headers=ANOTHER_PORT).status_code == 200


def test_the_cookie_is_secure_over_tls_only(registry: Registry, sqlite_url: str) -> None:
    app = create_app(registry, sqlite_url)
    with TestClient(app) as plain:
        assert "secure" not in plain.post("/api/games", json=new_game_body()).headers["set-cookie"].lower()
    with TestClient(app, base_url="https://testserver") as tls:
        game_id = seated(tls)
        header = tls.post(f"/api/games/{game_id}/seats/1/claim").headers["set-cookie"]
        assert "; secure" in header.lower() and "httponly" in header.lower()
        assert tls.cookies.get(cookie_name(game_id))  # kept by a client on https
        # dropping it (leave) is Secure too, or the browser would keep it
        left = tls.post(f"/api/games/{game_id}/leave", json={}).headers["set-cookie"]
        assert "; secure" in left.lower() and "max-age=0" in left.lower()


def test_behind_tls_makes_the_cookie_secure_whatever_the_proxy_says(
    registry: Registry, sqlite_url: str
) -> None:
    app = create_app(registry, sqlite_url)
    app.state.behind_tls = True  # what ``ludorum serve --behind-tls`` sets
    with TestClient(app) as c:
        assert "; secure" in c.post("/api/games", json=new_game_body()).headers["set-cookie"].lower()


@pytest.mark.parametrize("command", [["serve", "--port", "0"], ["start"]])
def test_serve_and_start_take_behind_tls(monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    from typer.testing import CliRunner

    import ludorum.server
    from ludorum.cli.main import app

    calls: list[dict[str, object]] = []
    monkeypatch.setattr(ludorum.server, "serve", lambda *args, **kwargs: calls.append(kwargs))
    assert CliRunner().invoke(app, [*command, "--behind-tls"]).exit_code == 0
    assert CliRunner().invoke(app, command).exit_code == 0
    assert [c["behind_tls"] for c in calls] == [True, False]
