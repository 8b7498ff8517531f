"""The reader's language: chosen per request, applied to every answer and push (``ludorum.engine.i18n``).

The browser remembers the player's choice and sends it as the ``ludorum_lang`` cookie (``?lang=`` wins
over it, ``Accept-Language`` is the fallback).  Games, the hub and the log compute their text once, in
English, as :class:`~ludorum.engine.i18n.Text`; only on the way out is it rendered for this reader —
one log serves readers of every language.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
from collections.abc import Callable
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs

from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from ludorum.engine import i18n

COOKIE = "ludorum_lang"
reader: contextvars.ContextVar[str] = contextvars.ContextVar("ludorum_reader", default=i18n.SOURCE)
"""The language of the request being answered (set by :class:`LanguageMiddleware`)."""


def choose(query: str, cookie_header: str | None, accept: str | None) -> str:
    """The reader's language: ``lang`` in the query, else the cookie, else ``Accept-Language``."""
    asked = parse_qs(query).get("lang", [])
    if asked and asked[0] in i18n.LANGUAGES:
        return asked[0]
    # A player's browser sends a seat cookie for every game it played: parsing them all on every
    # request cost more than answering it.  A header that does not name the cookie cannot hold it.
    if cookie_header and COOKIE in cookie_header:
        chosen = _cookie_language(cookie_header)
        if chosen is not None:
            return chosen
    return i18n.negotiate(accept)


@functools.lru_cache(maxsize=256)
def _cookie_language(cookie_header: str) -> str | None:
    """The language the ``ludorum_lang`` cookie names, if it names one (one client sends the same
    header again and again: parsed once)."""
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(cookie_header)
    except Exception:  # a malformed cookie header is ignored, not an error
        return None
    if COOKIE in jar and jar[COOKIE].value in i18n.LANGUAGES:
        return jar[COOKIE].value
    return None


def of(conn: HTTPConnection) -> str:
    """The language of one request or WebSocket."""
    return choose(conn.scope.get("query_string", b"").decode("latin-1"), conn.headers.get("cookie"),
                  conn.headers.get("accept-language"))  # fmt: skip


class LanguageMiddleware:
    """Set :data:`reader` for each HTTP request and WebSocket."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Choose the language, then answer within it."""
        if scope["type"] in ("http", "websocket"):
            token = reader.set(of(HTTPConnection(scope)))
            try:
                await self.app(scope, receive, send)
            finally:
                reader.reset(token)
        else:
            await self.app(scope, receive, send)


def _localizing(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    """``endpoint`` answering in the reader's language (same signature, so FastAPI sees the same route)."""
    if inspect.iscoroutinefunction(endpoint):

        @functools.wraps(endpoint)
        async def answer(*args: Any, **kwargs: Any) -> Any:
            return i18n.localize(await endpoint(*args, **kwargs), reader.get())

        return answer

    @functools.wraps(endpoint)
    def answer_sync(*args: Any, **kwargs: Any) -> Any:
        return i18n.localize(endpoint(*args, **kwargs), reader.get())

    return answer_sync


class LocalizedRoute(APIRoute):
    """A route whose answer is rendered in the reader's language before FastAPI validates and encodes
    it (validation turns a :class:`~ludorum.engine.i18n.Text` into plain English)."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        super().__init__(path, _localizing(endpoint), **kwargs)


class LocalizedJSONResponse(JSONResponse):
    """JSON with every :class:`~ludorum.engine.i18n.Text` in it rendered in the reader's language."""

    def render(self, content: Any) -> bytes:
        """The body in :data:`reader`'s language."""
        return super().render(i18n.localize(content, reader.get()))
