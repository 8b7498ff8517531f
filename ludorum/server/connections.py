"""Connections: no client may hold what every other client needs to reach the server.

Each open connection holds a file descriptor, and a process has a fixed number of them
(``RLIMIT_NOFILE``; 1,024 under systemd's usual default).  Without limits, 1,000 sockets sending one
header line every 10 s (slowloris) or 1,000 idle WebSockets from one address made every other request
fail for as long as they were held.  So, for one server process:

- a request's headers must arrive within :attr:`ConnectionLimits.header_timeout` seconds of the
  connection's opening (or of the previous answer on a kept-alive connection), else ``408`` and the
  connection is closed — uvicorn has no such timeout of its own: its keep-alive timer is cancelled by
  the first byte that arrives, and a connection that never completes a request is never timed out —
  and within :data:`MAX_HEADER_BYTES`, else ``431``;
- one client (``limits.client_key``: an IPv4 address, an IPv6 /64) keeps at most
  :attr:`~ConnectionLimits.per_client` HTTP connections open (the next is answered ``429`` and closed
  before its request is read) and at most :attr:`~ConnectionLimits.websockets_per_client` WebSockets,
  spectators' included (the next is closed with code ``4429``);
- all clients together keep at most :attr:`~ConnectionLimits.total` connections, which leaves
  :attr:`~ConnectionLimits.reserve` descriptors for the database, the worker processes' pipes and the
  files the server opens (the next is answered ``503`` and closed);
- every limit hit is logged, at most once a minute per limit and client.

Behind a reverse proxy every connection comes from the proxy: a peer that uvicorn trusts for
``X-Forwarded-For`` (``FORWARDED_ALLOW_IPS``) is not held to the per-client connection limit (the
proxy limits its clients: docs/server.md, "Connections"); the WebSocket limit counts the forwarded
client.  The HTTP guard is a subclass of uvicorn's httptools protocol (``uvicorn[standard]``), the
WebSocket limit an ASGI middleware; ``run.uvicorn_config`` installs both.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import ipaddress
import json
import logging
import math
import os
import resource
import time
from collections.abc import Callable, Mapping
from typing import ClassVar

from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ludorum.server.limits import client_key

log = logging.getLogger("ludorum.server.connections")

LOG_EVERY = 60.0
"""Seconds between two log lines for the same limit hit by the same client."""

WS_TOO_MANY = 4429
"""The close code of a WebSocket over its client's limit."""

MAX_HEADER_BYTES = 64 * 1024
"""The most a request's line and headers may take: httptools keeps every header it is sent, so without
a bound a client could grow the server's memory by sending header lines fast (h11's default is 16 KiB;
nginx's is 32 KiB, in four 8 KiB buffers)."""


def descriptor_cap(reserve: int) -> int:
    """The connections this process may hold: its soft ``RLIMIT_NOFILE`` less ``reserve`` descriptors
    (an unlimited soft limit counts as 65,536)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    usable = 65_536 if soft == resource.RLIM_INFINITY else soft
    if usable - reserve < 16:
        raise ValueError(
            f"the file descriptor limit ({usable}) leaves too few connections once {reserve} are kept "
            "in reserve; raise it (ulimit -n) or lower LUDORUM_FD_RESERVE"
        )
    return usable - reserve


def raise_descriptor_limit(target: int = 65_536) -> None:
    """Raise this process's soft ``RLIMIT_NOFILE`` toward its hard limit (at most ``target``): the
    soft limit is often 1,024 while the hard one allows far more."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = target if hard == resource.RLIM_INFINITY else min(hard, target)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


@dataclasses.dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """A server process's limits on connections; ``0`` switches a per-client limit off.
    ``ConnectionLimits.from_env()`` reads ``LUDORUM_HEADER_TIMEOUT`` (seconds),
    ``LUDORUM_CONNECTIONS_PER_CLIENT``, ``LUDORUM_WEBSOCKETS_PER_CLIENT`` and ``LUDORUM_FD_RESERVE``."""

    header_timeout: float = 10.0
    """Seconds a connection has to send a request's headers in full."""
    keep_alive: float = 5.0
    """Seconds an idle connection is kept open after an answer (uvicorn's ``timeout_keep_alive``)."""
    per_client: int = 32
    """HTTP connections one client may keep open (a browser opens at most 6 per server)."""
    websockets_per_client: int = 32
    """WebSockets one client may keep open (one per game page it shows)."""
    reserve: int = 128
    """File descriptors kept out of the connections' reach."""
    total: int | None = None
    """Connections of all clients together; by default :func:`descriptor_cap` of :attr:`reserve`."""

    def __post_init__(self) -> None:
        if not (0 < self.header_timeout < math.inf and 0 < self.keep_alive < math.inf):
            raise ValueError("the header and keep-alive timeouts are positive numbers of seconds")
        if min(self.per_client, self.websockets_per_client, self.reserve) < 0:
            raise ValueError("connection limits are whole numbers >= 0 (0: no per-client limit)")
        if self.total is not None and self.total < 1:
            raise ValueError("the total of connections is a whole number >= 1")

    def cap(self) -> int:
        """The total of connections, from the descriptor limit unless set."""
        return self.total if self.total is not None else descriptor_cap(self.reserve)

    @staticmethod
    def from_env(env: Mapping[str, str] = os.environ) -> ConnectionLimits:
        """The limits the environment sets (defaults for the ones it does not)."""
        default = ConnectionLimits()
        try:
            return ConnectionLimits(
                header_timeout=float(env.get("LUDORUM_HEADER_TIMEOUT", default.header_timeout)),
                per_client=int(env.get("LUDORUM_CONNECTIONS_PER_CLIENT", default.per_client)),
                websockets_per_client=int(
                    env.get("LUDORUM_WEBSOCKETS_PER_CLIENT", default.websockets_per_client)
                ),
                reserve=int(env.get("LUDORUM_FD_RESERVE", default.reserve)),
            )
        except ValueError as e:
            raise ValueError(f"bad connection setting in the environment: {e}") from None


def trusted(allowed: str | list[str]) -> Callable[[str], bool]:
    """Whether a peer is one that uvicorn trusts for ``X-Forwarded-For`` (``forwarded_allow_ips``:
    addresses and networks, comma-separated, or ``*``)."""
    items = [i.strip() for i in (allowed.split(",") if isinstance(allowed, str) else allowed)]
    if "*" in items:
        return lambda peer: True
    networks = []
    for item in filter(None, items):
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            continue  # a host name or a Unix socket's path: never a TCP peer's address

    def trusted(peer: str) -> bool:
        try:
            address = ipaddress.ip_address(peer)
        except ValueError:
            return False
        return any(address in network for network in networks)

    return trusted


class ConnectionGuard:
    """One server's count of open connections and WebSockets per client, and its log of limits hit."""

    def __init__(self, limits: ConnectionLimits, trusted: Callable[[str], bool]) -> None:
        self.limits = limits
        self.cap = limits.cap()
        self.trusted = trusted
        self.http: collections.Counter[str] = collections.Counter()
        self.websockets: collections.Counter[str] = collections.Counter()
        self._logged: dict[tuple[str, str], float] = {}

    def refused(self, what: str, client: str, limit: int) -> None:
        """Log that ``client`` hit the limit on ``what`` (once a minute per limit and client)."""
        now = time.monotonic()
        if now - self._logged.get((what, client), -math.inf) < LOG_EVERY:
            return
        if len(self._logged) > 10_000:  # many clients hit limits: forget the oldest notes
            self._logged = {k: t for k, t in self._logged.items() if now - t < LOG_EVERY}
        self._logged[(what, client)] = now
        log.warning("connection limit hit: %s (limit %d) by %s; refused", what, limit, client)

    @staticmethod
    def take(counter: collections.Counter[str], key: str, limit: int) -> bool:
        """Count one more for ``key`` unless it holds ``limit`` (``0``: no limit); whether counted."""
        if limit and counter[key] >= limit:
            return False
        counter[key] += 1
        return True

    @staticmethod
    def give_back(counter: collections.Counter[str], key: str) -> None:
        """Count one fewer for ``key``."""
        counter[key] -= 1
        if counter[key] <= 0:
            del counter[key]


def _early_answer(status: int, reason: str, code: str, message: str) -> bytes:
    """A whole HTTP answer that closes the connection, written before its request is read (a client
    refused for the number of its connections, or of everyone's, may try again in 10 s)."""
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    retry = "retry-after: 10\r\n" if status in (429, 503) else ""
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\n{retry}connection: close\r\n\r\n"
    )
    return head.encode() + body


TOO_MANY = _early_answer(429, "Too Many Requests", "too_many_connections", "too many open connections")
FULL = _early_answer(503, "Service Unavailable", "server_full", "the server holds all the connections it can")
TOO_LARGE = _early_answer(
    431, "Request Header Fields Too Large", "headers_too_large", "the request's headers are too large"
)
SLOW = _early_answer(408, "Request Timeout", "header_timeout", "the request's headers came too slowly")


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol under a :class:`ConnectionGuard`: the total and per-client limits on
    open connections, and the header timeout.  :func:`guarded_protocol` makes one class per guard."""

    guard: ClassVar[ConnectionGuard]
    _client_key: str | None = None
    _header_timer: asyncio.TimerHandle | None = None
    _header_bytes = 0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Admit the connection, or answer and close it; admitted, its headers' deadline starts."""
        open_before = len(self.connections)
        super().connection_made(transport)
        guard = self.guard
        peer = self.client[0] if self.client else ""
        key = client_key(peer)
        if open_before >= guard.cap:
            guard.refused("open connections of all clients", key, guard.cap)
            self._turn_away(FULL)
            return
        if not guard.trusted(peer):
            if not guard.take(guard.http, key, guard.limits.per_client):
                guard.refused("open connections", key, guard.limits.per_client)
                self._turn_away(TOO_MANY)
                return
            self._client_key = key
        self._await_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        """Count the connection out."""
        self._stop_header_timer()
        self._count_out()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Parse what came; refuse headers that grow past :data:`MAX_HEADER_BYTES`."""
        super().data_received(data)
        if self._header_timer is not None:  # still waiting for the headers' end
            self._header_bytes += len(data)
            if self._header_bytes > MAX_HEADER_BYTES and not self.transport.is_closing():
                peer = client_key(self.client[0] if self.client else None)
                self.guard.refused("header size", peer, MAX_HEADER_BYTES)
                self._stop_header_timer()
                self._turn_away(TOO_LARGE)

    def on_headers_complete(self) -> None:
        """The request's headers are in: the deadline is met."""
        self._stop_header_timer()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        """An answer is sent: the next request's headers have their deadline (unless they are in)."""
        waiting = not self.pipeline
        super().on_response_complete()
        if waiting and not self.transport.is_closing():
            self._await_headers()

    def handle_websocket_upgrade(self) -> None:
        """The connection becomes a WebSocket: counted as one from now on (:class:`WebSocketLimit`)."""
        self._stop_header_timer()
        self._count_out()
        super().handle_websocket_upgrade()

    def _turn_away(self, answer: bytes) -> None:
        self.transport.write(answer)
        self.transport.close()

    def _count_out(self) -> None:
        if self._client_key is not None:
            self.guard.give_back(self.guard.http, self._client_key)
            self._client_key = None

    def _await_headers(self) -> None:
        self._stop_header_timer()
        self._header_bytes = 0
        self._header_timer = self.loop.call_later(self.guard.limits.header_timeout, self._too_slow)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            peer = client_key(self.client[0] if self.client else None)
            self.guard.refused("header timeout", peer, round(self.guard.limits.header_timeout))
            self._turn_away(SLOW)


def guarded_protocol(guard: ConnectionGuard) -> type[GuardedHttpProtocol]:
    """The HTTP protocol class for uvicorn's ``http`` setting, bound to ``guard``."""
    return type("GuardedHttpProtocol", (GuardedHttpProtocol,), {"guard": guard})


class WebSocketLimit:
    """ASGI middleware: at most ``websockets_per_client`` open WebSockets per client (its address as
    the app sees it: behind a trusted proxy, the forwarded one)."""

    def __init__(self, app: ASGIApp, guard: ConnectionGuard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass everything through; a WebSocket over its client's limit is accepted, then closed."""
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        guard, limit = self.guard, self.guard.limits.websockets_per_client
        client = scope.get("client")
        key = client_key(client[0] if client else None)
        if not guard.take(guard.websockets, key, limit):
            guard.refused("open WebSockets", key, limit)
            # closed after the handshake: a refusal before it reaches the client as a bare 403
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": WS_TOO_MANY, "reason": "too many WebSockets"})
            return
        try:
            await self.app(scope, receive, send)
        finally:
            guard.give_back(guard.websockets, key)
