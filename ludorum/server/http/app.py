"""The FastAPI application: ``create_app(registry=..., database_url=...)``.

The server is game-agnostic: it knows games only through the registry it is given (the product's by
default) and the ``Game`` protocol.  It serves the API under ``/api`` (OpenAPI at ``/docs``), the
browser client from ``ludorum/web/static``, and each game's board renderer from
``static/games/<name>.js`` when the game has one.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path

from fastapi import FastAPI
from fastapi.telemetry import TelemetryConfig

from ludorum.engine import Registry
from ludorum.server.accounts.service import Accounts
from ludorum.server.http.accounts import router as accounts_router
from ludorum.server.http.bodylimit import BodyLimit
from ludorum.server.http.csrf import CrossSiteGuard
from ludorum.server.http.errors import add_error_handlers
from ludorum.server.http.hints import router as hints_router
from ludorum.server.http.language import LanguageMiddleware
from ludorum.server.http.pages import add_pages, renderers
from ludorum.server.http.refusals import RefusalCharge
from ludorum.server.http.routes import router
from ludorum.server.limits import Limits, RefusalBudget
from ludorum.server.play.clocks import Clock
from ludorum.server.play.hints import Hints
from ludorum.server.play.lobby import Lobby
from ludorum.server.store.db import Store, default_sqlite_url
from ludorum.server.work.pool import BotPool
from ludorum.server.work.workers import Workers

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


def _lifespan(
    registry: Registry,
    url: str,
    bot_delay: float,
    limits: Limits,
    workers: int | None,
    clock: Clock | None,
) -> Callable[[FastAPI], contextlib.AbstractAsyncContextManager[None]]:
    """The app's life: the store, the worker processes and the lobby made at start-up (``app.state``),
    and stopped in the reverse order at shutdown."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(url)
        bot_pool = BotPool()  # search bots think in worker processes, never on the event loop
        pool = Workers(workers)  # disclosures and replays: worker processes too
        pool.start()
        lobby = Lobby(registry, store, pool, bot_pool, clock, limits, bot_delay)
        app.state.lobby = lobby
        app.state.accounts = Accounts(store.engine)
        await lobby.start()
        try:
            yield
        finally:
            await app.state.hints.stop()
            await lobby.stop()
            bot_pool.shutdown()
            pool.shutdown()
            store.dispose()

    return lifespan


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

    app = FastAPI(
        title="Ludorum",
        summary="Play Reliquium, Medieval Realms and Legends of Signum in the browser, with friends or bots.",
        version="0.1.0",
        lifespan=_lifespan(registry, url, bot_delay, limits, workers, clock),
        telemetry=None if telemetry else NO_TELEMETRY,
    )
    app.add_middleware(BodyLimit)
    app.add_middleware(CrossSiteGuard)  # before anything reads the body: another site's post is refused
    app.add_middleware(RefusalCharge, budget=RefusalBudget(limits))  # refusals cost their sender
    app.add_middleware(LanguageMiddleware)  # the reader's language, for every answer and push
    app.include_router(router)
    app.include_router(hints_router)
    app.include_router(accounts_router)
    app.state.hints = Hints()

    app.state.renderers = renderers(renderers_dir)
    add_error_handlers(app)
    add_pages(app, app.state.renderers)
    return app
