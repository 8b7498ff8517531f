"""Running the server: ``ludorum serve`` and ``make play``."""

from __future__ import annotations

import gc
import socket
from typing import TYPE_CHECKING, Any

from ludorum.engine import Registry

if TYPE_CHECKING:
    from ludorum.server.connections import ConnectionLimits


def free_port(host: str, preferred: int) -> int:
    """``preferred`` if it is free on ``host``, else a free port the system picks."""
    for port in (preferred, 0):
        with socket.socket() as s:
            try:
                s.bind((host, port))
            except OSError:
                continue
            return int(s.getsockname()[1])
    raise OSError(f"no free port on {host}")


FULL_COLLECTIONS_EVERY = 100
"""How many collections of the middle generation the garbage collector makes between two full ones
(Python's default: 10).  A full collection walks every object the server keeps — each game's log, its
texts and readings — and finds nothing to free; in the 8-game bench one came every 1.5 s, held the loop
for 16-80 ms, growing with the games in memory, and was the whole tail of the acknowledgements beyond
their 99.5th percentile (docs/server.md, "The collector's full collections")."""


def settle_memory() -> None:
    """Before serving: move what start-up made (the modules, the rules' content, the app) out of the
    garbage collector's reach (``gc.freeze``), so that its full collections, which run between
    requests, walk only what serving makes (in the 8-game bench the longest pause fell from 72-75 ms
    to 33-41 ms), and make those full collections rarer (:data:`FULL_COLLECTIONS_EVERY`).  For a server
    process only, once: frozen objects are never freed."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTIONS_EVERY)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    database_url: str | None = None,
    registry: Registry | None = None,
    bot_delay: float = 0.6,
    announce: bool = True,
    behind_tls: bool = False,
) -> None:
    """Run the server until interrupted; prints the URL to open (port 0: a free port the system picks,
    and the URL names it).  ``behind_tls``: browsers reach it over HTTPS through a proxy, so its
    cookies are ``Secure`` even when the proxy does not say so (``X-Forwarded-Proto``)."""
    import uvicorn

    from ludorum.server.connections import raise_descriptor_limit
    from ludorum.server.http.app import create_app, default_database_url
    from ludorum.server.store.db import make_engine, migrate

    url = database_url or default_database_url()
    app = create_app(registry, url, bot_delay=bot_delay)
    app.state.behind_tls = behind_tls  # read by security.served_securely
    # migrate (under the migration lock) before saying "running": a failure stops us here, unannounced
    engine = make_engine(url)
    try:
        migrate(engine)
    finally:
        engine.dispose()
    if port == 0:
        port = free_port(host, 0)
    if announce:
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        where = url.split("///")[-1] if url.startswith("sqlite") else url.split("@")[-1]
        print(
            f"Ludorum is running: open http://{shown}:{port}/  (games stored in {where}; Ctrl+C stops)",
            flush=True,
        )
    settle_memory()
    raise_descriptor_limit()  # before the cap on connections is read from it
    uvicorn.Server(uvicorn_config(app, host, port)).run()


def uvicorn_config(
    app: Any,
    host: str,
    port: int,
    connections: ConnectionLimits | None = None,
    trusted_proxies: str | None = None,
) -> Any:
    """How the app is served, by ``ludorum serve``, the benchmarks and the tests' servers alike: quiet logs,
    WebSocket messages capped at :data:`~ludorum.server.http.app.MAX_WS_MESSAGE` (uvicorn's default is 16
    MiB: parsing a hello that large held the event loop for 70 ms), and the limits on connections
    (``connections.py``; by default ``ConnectionLimits.from_env()``).  ``trusted_proxies`` are the
    peers whose ``X-Forwarded-For`` is believed (by default uvicorn's: ``FORWARDED_ALLOW_IPS``, else
    the local host)."""
    import uvicorn

    from ludorum.server.connections import (
        ConnectionGuard,
        ConnectionLimits,
        WebSocketLimit,
        guarded_protocol,
        trusted,
    )
    from ludorum.server.http.app import MAX_WS_MESSAGE

    limits = connections or ConnectionLimits.from_env()
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=MAX_WS_MESSAGE,
        timeout_keep_alive=max(1, round(limits.keep_alive)),
        forwarded_allow_ips=trusted_proxies,
    )
    guard = ConnectionGuard(limits, trusted(config.forwarded_allow_ips))
    config.http = guarded_protocol(guard)
    config.app = WebSocketLimit(app, guard)
    # uvicorn's limit_concurrency is left off: the guard refuses a connection over the cap before its
    # request is read, where limit_concurrency would answer 503 only once the headers are in
    return config
