"""The FastAPI application: ``create_app(registry=..., database_url=...)``.

The server is game-agnostic: it knows games only through the registry it is given (the product's by
default) and the ``Game`` protocol.  It serves the API under ``/api`` (OpenAPI at ``/docs``), the
browser client from ``ludorum/web/static``, and each game's board renderer from
``static/games/<name>.js`` when the game has one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.telemetry import TelemetryConfig
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ludorum.agents.pool import BotPool
from ludorum.engine import Registry
from ludorum.server.api import router
from ludorum.server.clocks import Clock
from ludorum.server.csrf import CrossSiteGuard
from ludorum.server.db import Store, default_sqlite_url
from ludorum.server.errors import NESTED_TOO_DEEPLY, ApiError
from ludorum.server.hints import Hints
from ludorum.server.hints import router as hints_router
from ludorum.server.hub import Hub
from ludorum.server.language import LanguageMiddleware, LocalizedJSONResponse
from ludorum.server.limits import Limits, RefusalBudget
from ludorum.server.refusals import RefusalCharge
from ludorum.server.workers import Workers

WEB = Path(__file__).resolve().parent.parent / "web" / "static"

MAX_BODY = 64 * 1024
"""The largest request body, except record uploads."""
MAX_RECORD_BODY = 1024 * 1024
"""The largest record upload: about six times the record of a 200-round, four-player Reliquium game of
random play (172 KB, the longest seen).  A worker process reads it (``uploads.read_upload``): parsing JSON
holds the interpreter's lock throughout, and on the loop 7 MB (under the 8 MiB cap this was before) held
every other request for 0.7 s."""
MAX_WS_MESSAGE = 4 * 1024
"""The largest WebSocket message a client may send (its hello is all the server reads): uvicorn refuses a
larger one with close code 1009 before the app sees it (``run.uvicorn_config``)."""

log = logging.getLogger("ludorum.server")

TELEMETRY_ENV = "LUDORUM_TELEMETRY"
"""The environment setting that turns FastAPI's native OpenTelemetry on (``1``/``on``; off by default)."""

NO_TELEMETRY: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}
"""FastAPI's telemetry configuration with every signal off."""


def telemetry_from_env(env: Mapping[str, str] | None = None) -> bool:
    """Whether ``LUDORUM_TELEMETRY`` (in ``env``, by default the environment) turns FastAPI's native
    OpenTelemetry on.

    Off by default: with it on, FastAPI asks OpenTelemetry's global providers on every request whether
    one is configured, and each asks the environment — 3-4 % of the event loop's time in the 8-game
    bench, for a server that exports nothing (docs/server.md, "Telemetry")."""
    raw = (os.environ if env is None else env).get(TELEMETRY_ENV, "").strip().lower()
    if raw in ("", "0", "off", "false", "no"):
        return False
    if raw in ("1", "on", "true", "yes"):
        return True
    raise ValueError(f"{TELEMETRY_ENV} is 1 (on) or 0 (off), not {raw!r}")


def default_database_url() -> str:
    """SQLite in the user's data directory."""
    import platformdirs

    return default_sqlite_url(Path(platformdirs.user_data_dir("ludorum", appauthor=False)))


class _TooLarge(Exception):
    pass


class BodyLimit:
    """Refuse request bodies above the limit with 413 before anything reads them whole."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = MAX_RECORD_BODY if scope["path"] == "/api/records" else MAX_BODY
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > limit):
                await _send_error(send, 413, "too_large", f"the request body is over {limit} bytes")
                return
        seen = 0
        started = exceeded = False

        async def counting_receive() -> Message:
            nonlocal seen, exceeded
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    exceeded = True
                    raise _TooLarge
            return message

        async def guarded_send(message: Message) -> None:
            # Whatever the app answers once the body overflowed (FastAPI turns the error into a 400),
            # the client is told 413.
            nonlocal started
            if exceeded:
                if message["type"] == "http.response.start" and not started:
                    started = True
                    await _send_error(send, 413, "too_large", f"the request body is over {limit} bytes")
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, guarded_send)
        except _TooLarge:
            if not started:
                started = True
                await _send_error(send, 413, "too_large", f"the request body is over {limit} bytes")


async def _send_error(send: Send, status: int, code: str, message: str) -> None:
    response = JSONResponse({"error": {"code": code, "message": message}}, status_code=status)
    await send({"type": "http.response.start", "status": status, "headers": response.raw_headers})
    await send({"type": "http.response.body", "body": response.body})


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
        parts.append(f"{where or 'body'}: {err.get('msg', 'invalid')}")
    return "; ".join(parts)


def _allowed_methods(request: Request) -> list[str]:
    """The methods the routes matching the request's path answer."""
    # asked method by method: the router (with its included routers) says which would fully match
    return [
        method
        for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")
        if any(
            isinstance(route, BaseRoute)
            and route.matches({**request.scope, "method": method})[0] == Match.FULL
            for route in request.app.router.routes
        )
    ]


def create_app(
    registry: Registry | None = None,
    database_url: str | None = None,
    *,
    bot_delay: float = 0.0,
    renderers_dir: Path | None = None,
    limits: Limits | None = None,
    workers: int | None = None,
    clock: Clock | None = None,
    telemetry: bool | None = None,
) -> FastAPI:
    """The server for ``registry`` (the product's by default) on ``database_url`` (SQLite by default).

    ``bot_delay`` pauses bots before each move so people can follow them; ``renderers_dir`` adds a
    directory searched for ``<game>.js`` renderers before the packaged ones (tests use it);
    ``limits`` sets the quotas (by default ``Limits.from_env()``: the ``LUDORUM_*`` settings);
    ``workers`` the worker processes that decide log readings and replay games (by default
    ``LUDORUM_WORKERS``, else one per core but one; ``0``: threads); ``clock`` where the seats' clocks
    read the time (the real time by default; tests inject a ``clocks.ManualClock``); ``telemetry``
    whether FastAPI's native OpenTelemetry observes the requests (by default ``LUDORUM_TELEMETRY``, off).
    """
    limits = limits or Limits.from_env()
    if telemetry is None:
        telemetry = telemetry_from_env()
    if registry is None:
        from ludorum.games import registry as product_registry

        registry = product_registry()
    url = database_url or default_database_url()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(url)
        hub = Hub(registry, store, bot_delay, limits, clock)
        hub.bot_pool = BotPool()  # search bots think in worker processes, never on the event loop
        hub.workers = Workers(workers)  # disclosures and replays: worker processes too
        hub.workers.start()
        app.state.hub = hub
        await hub.start()
        try:
            yield
        finally:
            await app.state.hints.stop()
            await hub.stop()
            await asyncio.to_thread(hub.bot_pool.shutdown)
            hub.workers.shutdown()
            store.dispose()

    app = FastAPI(
        title="Ludorum",
        summary="Play Reliquium, Medieval Realms and Legends of Signum in the browser, with friends or bots.",
        version="0.1.0",
        lifespan=lifespan,
        telemetry=None if telemetry else NO_TELEMETRY,
    )
    app.add_middleware(BodyLimit)
    app.add_middleware(CrossSiteGuard)  # before anything reads the body: another site's post is refused
    app.add_middleware(RefusalCharge, budget=RefusalBudget(limits))  # refusals cost their sender
    app.add_middleware(LanguageMiddleware)  # the reader's language, for every answer and push
    app.include_router(router)
    app.include_router(hints_router)
    app.state.hints = Hints()

    def renderer(name: str) -> Path | None:
        for base in (renderers_dir, WEB / "games"):
            if base is not None:
                path = base / f"{name}.js"
                if path.is_file() and path.parent.resolve() == base.resolve():
                    return path
        return None

    app.state.renderers = renderer

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return LocalizedJSONResponse(exc.body(), status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(
            {"error": {"code": "invalid_request", "message": _validation_message(exc)}}, status_code=422
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if isinstance(exc.__cause__, RecursionError):  # FastAPI's "error parsing the body", from the parser
            return JSONResponse(
                {"error": {"code": "invalid_request", "message": f"body: {NESTED_TOO_DEEPLY}"}},
                status_code=422,
            )
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        headers = dict(exc.headers or {})
        if exc.status_code == 405:  # every method of every route on this path, not only the first's
            headers["Allow"] = ", ".join(_allowed_methods(request))
        return JSONResponse(
            {"error": {"code": code, "message": str(exc.detail)}},
            status_code=exc.status_code,
            headers=headers,
        )

    @app.get("/static/games/{name}.js", include_in_schema=False)
    def game_renderer(name: str) -> Response:
        path = renderer(name)
        if path is None:
            raise ApiError(404, "no_renderer", "this game has no board renderer; the action list is used")
        return FileResponse(path, media_type="text/javascript")

    app.mount("/static", StaticFiles(directory=WEB), name="static")

    def page(name: str) -> Callable[[], Any]:
        def serve() -> FileResponse:
            return FileResponse(WEB / name, media_type="text/html")

        return serve

    app.get("/", include_in_schema=False)(page("index.html"))
    app.get("/game/{game_id}", include_in_schema=False)(page("game.html"))
    return app
