"""Seat tokens: random, hashed at rest, compared in constant time, never in a URL, a log or an error.

A token is 256 random bits from :mod:`secrets`.  The database keeps only its SHA-256.  Clients carry it
in an HttpOnly, SameSite=Strict cookie named for the game (browsers) or in an
``Authorization: Bearer`` header (programs); both work for HTTP and for the WebSocket.  The cookie is
also ``Secure`` when the page is served over TLS (:func:`served_securely`), so a browser never sends
it over plain HTTP; ``csrf.py`` keeps other origins' pages from using it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping

from starlette.requests import HTTPConnection, cookie_parser
from starlette.responses import Response

COOKIE_PREFIX = "ludorum_seat_"

COOKIE_LIFETIME = 400 * 86400
"""Seconds a seat cookie is kept (the longest browsers allow)."""


def new_token() -> str:
    """A fresh seat token (256 bits)."""
    return secrets.token_urlsafe(32)


def new_game_id() -> str:
    """A fresh game id (64 random bits, hex)."""
    return secrets.token_hex(8)


def new_seed() -> int:
    """A fresh seed — a game's, or its bots' generator's — from the operating system's secure generator
    (a player who could predict the bots' draws would know their choices).  Every seed the server draws
    comes from here, so a test that needs the same game every run replaces this one function."""
    return secrets.randbits(63)


def token_hash(token: str) -> str:
    """What the database stores of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def cookie_name(game_id: str) -> str:
    """The cookie that carries a browser's seat token for one game."""
    return COOKIE_PREFIX + game_id


def served_securely(conn: HTTPConnection) -> bool:
    """Whether the browser reached this server over TLS: the request's scheme is ``https`` (directly,
    or forwarded by a proxy uvicorn trusts: ``X-Forwarded-Proto``), or the server was told it is
    served behind TLS (``ludorum serve --behind-tls``: ``app.state.behind_tls``)."""
    return conn.url.scheme in ("https", "wss") or bool(getattr(conn.app.state, "behind_tls", False))


def set_seat_cookie(response: Response, conn: HTTPConnection, game_id: str, token: str) -> None:
    """Give the browser its seat token for ``game_id``."""
    response.set_cookie(
        cookie_name(game_id),
        token,
        max_age=COOKIE_LIFETIME,
        path="/",
        secure=served_securely(conn),
        httponly=True,
        samesite="strict",
    )


def drop_seat_cookie(response: Response, conn: HTTPConnection, game_id: str) -> None:
    """Tell the browser to forget its seat cookie for ``game_id``."""
    response.delete_cookie(
        cookie_name(game_id), path="/", secure=served_securely(conn), httponly=True, samesite="strict"
    )


def presented_token(game_id: str, headers: Mapping[str, str]) -> str | None:
    """The token a request carries: the Authorization header first, else the game's cookie (read as
    Starlette's ``request.cookies`` reads it)."""
    auth = headers.get("authorization", "")
    if auth[:7].lower() == "bearer ":
        return auth[7:].strip() or None
    # A browser sends a seat cookie for every game it played: the header is parsed only when it may
    # hold this game's (parsing them all on every request cost more than the seat check itself).
    header, name = headers.get("cookie"), cookie_name(game_id)
    if not header or name not in header:
        return None
    return cookie_parser(header).get(name) or None


def match_seat(token: str, hashes: Iterable[tuple[int, str | None]]) -> int | None:
    """The seat whose stored hash matches ``token`` (each comparison in constant time), or ``None``."""
    digest = token_hash(token)
    found = None
    for seat, stored in hashes:
        if stored is not None and hmac.compare_digest(digest, stored):
            found = seat
    return found
