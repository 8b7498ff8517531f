"""What a request costs the event loop: work done for every request only when the request needs it."""

from __future__ import annotations

from typing import Any

import pytest
import starlette.requests
from fastapi.testclient import TestClient

from ludorum.engine import Registry
from ludorum.server import create_app, security
from ludorum.server.http.app import TELEMETRY_ENV, telemetry_from_env
from ludorum.server.security import cookie_name, presented_token


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every Cookie header parsed, by Starlette's request or by the seat check."""
    seen: list[str] = []
    real = starlette.requests.cookie_parser

    def counting(header: str) -> dict[str, str]:
        seen.append(header)
        return real(header)

    monkeypatch.setattr(starlette.requests, "cookie_parser", counting)
    monkeypatch.setattr(security, "cookie_parser", counting, raising=False)
    return seen


def headers(**given: str) -> dict[str, Any]:
    return {k.replace("_", "-"): v for k, v in given.items()}


def test_the_cookie_header_is_parsed_only_when_it_may_hold_the_token(parses: list[str]) -> None:
    # a player's browser sends a seat cookie for every game it played
    many = "; ".join(f"{cookie_name(f'g{i}')}=t{i}" for i in range(200))
    assert presented_token("g7", headers(authorization="Bearer tok", cookie=many)) == "tok"
    assert presented_token("other", headers(cookie=many)) is None
    assert parses == []
    assert presented_token("g7", headers(cookie=many)) == "t7"
    assert len(parses) == 1


@pytest.mark.parametrize(
    "header",
    [
        "ludorum_seat_g1=a; ludorum_seat_g1=b",
        ' ludorum_seat_g1 = "a b" ;x=1',
        "ludorum_seat_g1",
        "ludorum_seat_g1=",
        "xludorum_seat_g1=a",
        "ludorum_seat_g10=a",
        "=ludorum_seat_g1; ludorum_seat_g1=\\101",
    ],
)
def test_the_token_read_from_the_header_is_the_cookie_starlette_reads(header: str) -> None:
    from starlette.requests import Request

    request = Request({"type": "http", "headers": [(b"cookie", header.encode())]})
    assert presented_token("g1", request.headers) == (request.cookies.get(cookie_name("g1")) or None)


def test_opentelemetry_is_asked_about_each_request_only_when_telemetry_is_on(
    registry: Registry, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # FastAPI's native telemetry asks OpenTelemetry's global providers on every request whether one is
    # configured (and each reads the environment): 3-4 % of the loop for a server that exports nothing
    from opentelemetry import trace

    asked: list[str] = []
    real = trace.get_tracer_provider

    def counting() -> Any:
        asked.append("tracer")
        return real()

    monkeypatch.setattr(trace, "get_tracer_provider", counting)
    monkeypatch.delenv(TELEMETRY_ENV, raising=False)
    for telemetry, consulted in ((None, False), (True, True)):
        asked.clear()
        with TestClient(create_app(registry, sqlite_url, workers=0, telemetry=telemetry)) as client:
            assert client.get("/api/catalog").status_code == 200
        assert bool(asked) is consulted


def test_telemetry_from_the_environment() -> None:
    assert telemetry_from_env({}) is False
    assert telemetry_from_env({TELEMETRY_ENV: "0"}) is False
    assert telemetry_from_env({TELEMETRY_ENV: "on"}) is True
    with pytest.raises(ValueError, match=TELEMETRY_ENV):
        telemetry_from_env({TELEMETRY_ENV: "verbose"})
