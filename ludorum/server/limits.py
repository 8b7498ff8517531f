"""Quotas: how many games one client may start, and how many all-bot games the server runs at once.

A public server must not let one anonymous client fill it: every game costs memory, and an all-bot
game costs CPU for as long as it runs (150 of them made a human's acknowledgement 100 times slower).
A client is its IP address as the ASGI server reports it (behind a reverse proxy, let uvicorn take it
from ``X-Forwarded-For``: ``FORWARDED_ALLOW_IPS``); an IPv6 client is its /64 network, which one
household or host usually holds whole.  Refusals are ``429`` with ``Retry-After``.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import ipaddress
import math
import os
import time
from collections.abc import Callable, Iterator, Mapping

from ludorum.engine.i18n import T
from ludorum.server.errors import ApiError, retry_later


@dataclasses.dataclass(frozen=True, slots=True)
class Limits:
    """The server's quotas; ``0`` switches one off.  ``Limits.from_env()`` reads the settings
    ``LUDORUM_GAMES_PER_CLIENT``, ``LUDORUM_QUOTA_WINDOW`` (seconds), ``LUDORUM_BOT_GAMES``,
    ``LUDORUM_REFUSALS_PER_CLIENT`` and ``LUDORUM_REFUSAL_RATE`` (per second)."""

    games_per_client: int = 20
    """Games (created, uploaded) one client may start within ``window`` seconds."""
    window: float = 600.0
    """The sliding window of ``games_per_client``, in seconds."""
    bot_games: int = 20
    """Unfinished games without a human seat that this server runs at once (all clients together)."""
    refusals: int = 60
    """The cost of refused requests one client may run up before it must wait (:class:`RefusalBudget`)."""
    refusal_rate: float = 1.0
    """The cost of refused requests forgiven per second."""

    def __post_init__(self) -> None:
        if min(self.games_per_client, self.bot_games, self.refusals) < 0 or not (0 < self.window < math.inf):
            raise ValueError("quotas are whole numbers >= 0 (0: no limit) and the window a positive time")
        if not 0 < self.refusal_rate < math.inf:
            raise ValueError("the refusals forgiven per second are a positive number")

    @staticmethod
    def from_env(env: Mapping[str, str] = os.environ) -> Limits:
        """The limits the environment sets (defaults for the ones it does not)."""
        default = Limits()
        try:
            return Limits(
                games_per_client=int(env.get("LUDORUM_GAMES_PER_CLIENT", default.games_per_client)),
                window=float(env.get("LUDORUM_QUOTA_WINDOW", default.window)),
                bot_games=int(env.get("LUDORUM_BOT_GAMES", default.bot_games)),
                refusals=int(env.get("LUDORUM_REFUSALS_PER_CLIENT", default.refusals)),
                refusal_rate=float(env.get("LUDORUM_REFUSAL_RATE", default.refusal_rate)),
            )
        except ValueError as e:
            raise ValueError(f"bad quota setting in the environment: {e}") from None


def client_key(host: str | None) -> str:
    """Who a request counts against: its IPv4 address, or its IPv6 /64 network."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]  # not an IP (a test client, a Unix socket): counted by its name
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


class ClientQuota:
    """A sliding window of game starts per client, in memory (one server process's view)."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._starts: dict[str, collections.deque[float]] = {}
        self._swept = clock()

    def check(self, client: str) -> None:
        """Refuse with 429 if ``client`` has used its quota; otherwise count one more start."""
        limit = self.limits.games_per_client
        if not limit:
            return
        now = self.clock()
        if now - self._swept > self.limits.window / 8:
            self._sweep(now)
        starts = self._starts.setdefault(client, collections.deque())
        while starts and starts[0] <= now - self.limits.window:
            starts.popleft()
        if len(starts) >= limit:
            wait = max(1, math.ceil(starts[0] + self.limits.window - now))
            raise retry_later(
                "too_many_games",
                T(
                    "you have started {n} games in the last {window} seconds, the most this server allows; "
                    "try again in {wait} seconds",
                    n=limit,
                    window=f"{self.limits.window:g}",
                    wait=wait,
                ),
                wait,
            )
        starts.append(now)

    def refund(self, client: str) -> None:
        """Take back the last start counted (the game was refused after all)."""
        starts = self._starts.get(client)
        if starts:
            starts.pop()

    def _sweep(self, now: float) -> None:
        # now and then drop starts older than the window, and clients with none left: memory stays
        # bounded by the starts of one window
        self._swept = now
        for key in list(self._starts):
            starts = self._starts[key]
            while starts and starts[0] <= now - self.limits.window:
                starts.popleft()
            if not starts:
                del self._starts[key]


def bot_games_refusal(limit: int) -> ApiError:
    """The 429 for a game that would take the server over its all-bot limit."""
    return retry_later(
        "too_many_bot_games",
        T(
            "this server already runs {n} games without a human player, its limit; "
            "take a seat yourself, or try again when one has ended",
            n=limit,
        ),
        60,
    )


class Admission:
    """What a server process admits of new games: the clients' quotas, and the all-bot games it runs
    (``running_bot_games`` counts the unfinished ones it holds; the games being started count too)."""

    def __init__(self, limits: Limits, running_bot_games: Callable[[], int]) -> None:
        self.limits = limits
        self.quota = ClientQuota(limits)
        self._running_bot_games = running_bot_games
        self._starting = 0  # all-bot games admitted but not yet running

    @contextlib.contextmanager
    def starting(self, client: str | None, all_bots: bool) -> Iterator[None]:
        """Admit the start of a game by ``client`` (counted against its quota), without a human if
        ``all_bots``; a start that fails does not count."""
        if client is not None:
            self.quota.check(client)
        try:
            if all_bots:
                self.refuse_bot_game()
                self._starting += 1
            try:
                yield
            finally:
                if all_bots:
                    self._starting -= 1
        except BaseException:
            if client is not None:  # nothing was started: the attempt does not count
                self.quota.refund(client)
            raise

    def refuse_bot_game(self) -> None:
        """Refuse (429) one more game without a human if this process runs its limit of them."""
        limit = self.limits.bot_games
        if limit and self._running_bot_games() + self._starting >= limit:
            raise bot_games_refusal(limit)


class RefusalBudget:
    """What refused requests each client has cost lately, in memory: a bucket per client that holds
    ``limits.refusals`` and refills at ``limits.refusal_rate`` a second.  A refusal (a malformed body, a
    record that does not replay) is charged its cost; a client whose bucket is empty is refused (429)
    before anything is done for it, until the bucket refills.  A request that succeeds costs nothing
    here, so honest mistakes now and then never reach the limit."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._spent: dict[str, tuple[float, float]] = {}  # client: (cost not yet forgiven, as of when)
        self._swept = clock()

    def _owed(self, client: str, now: float) -> float:
        spent, when = self._spent.get(client, (0.0, now))
        return max(0.0, spent - (now - when) * self.limits.refusal_rate)

    def check(self, client: str) -> None:
        """Refuse with 429 if ``client`` has used up its budget of refusals."""
        if not self.limits.refusals or client not in self._spent:
            return
        now = self.clock()
        over = self._owed(client, now) - self.limits.refusals
        if over >= 0:
            wait = max(1, math.ceil((over + 1) / self.limits.refusal_rate))
            raise retry_later(
                "too_many_refusals",
                T(
                    "this server refused too many of your requests lately (malformed, or asking for what "
                    "cannot be done); try again in {wait} seconds",
                    wait=wait,
                ),
                wait,
            )

    def charge(self, client: str, cost: float) -> None:
        """Count a refusal that cost ``cost`` against ``client``."""
        if not self.limits.refusals:
            return
        now = self.clock()
        if now - self._swept > 60:
            self._sweep(now)
        self._spent[client] = (self._owed(client, now) + cost, now)

    def _sweep(self, now: float) -> None:
        # forget the clients whose refusals are all forgiven: memory stays bounded by the recent ones
        self._swept = now
        self._spent = {c: (s, w) for c, (s, w) in self._spent.items() if self._owed(c, now) > 0}
