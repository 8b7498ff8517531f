"""The server's capacity at a human's pace: how many games one process holds within an ack latency.

``server_bench_paced`` starts a server process (``server.bench_server``: SQLite WAL, full sync)
and ramps the number of games up: at each step of ``ramp`` it starts games until that many run,
lets them settle, then measures for ``seconds``.  Each game has one human seat, driven by a client that
waits a human think time (uniform in ``think``) on its turn, then submits a random legal action over
HTTP, and bots (``bot``) in the other seats; the human's WebSocket tells it when its turn has come, and
a spectator WebSocket per game receives every push.  A finished game is replaced by a new one.  For
each step it reports the p50/p99 of the human's acknowledgement, the actions acknowledged, and the
CPU the server's event loop spent (per action, and as a share of the wall clock: what is left of it
is the headroom).  :attr:`PacedFigures.held` is the largest step whose p99 is within the target.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ludorum.bench.server import (
    BOT_DELAY_ENV,
    HEADERS,
    NO_QUOTAS,
    WARM_UP,
    bench_server,
    call,
    client_session,
    cpu_seconds,
    free_port,
    percentile,
    play_random,
    watch,
)

TARGET_MS = 250.0
"""Issue 12's target: the p99 acknowledgement at a human's pace."""

BOT_DELAY = 0.6
"""Seconds a bot pauses before it moves: ``ludorum serve``'s default, so that people can follow it."""

KEEP_ALIVE = 2.0
"""Seconds the clients keep an idle connection (uvicorn closes one idle for 5 s)."""

STARTS_PER_S = 50.0
"""How fast the bench starts new games (all at once would measure the lobby, not play)."""


@dataclass
class PacedStep:
    """One step of the ramp: ``games`` running, measured over ``seconds``."""

    games: int
    seconds: float
    actions: int
    """The human actions acknowledged within the window."""
    ack_p50_ms: float
    ack_p99_ms: float
    pushes: int
    """WebSocket messages the spectators received within the window (one per step they saw, about)."""
    loop_cpu_ms: float
    """Event-loop CPU milliseconds per human action (bots' and chance's steps included in the cost)."""
    loop_busy: float
    """The share of the wall clock the server's event loop spent on the CPU."""
    server_busy: float = float("nan")
    """The CPU of the whole server process (the loop, the writer, the bots' threads) as a share of one
    core's wall clock."""
    client_lag_p99_ms: float = float("nan")
    """The p99 of the bench client's own event-loop lag (a 50 ms sleep's overshoot): an ack can be
    measured no more precisely than this, the clients' work and the server's share the cores."""
    workers_busy: float = float("nan")
    """The CPU of the server's worker processes (readings, bots) as a share of one core's wall clock."""
    errors: list[str] = field(default_factory=list)
    """What went wrong in the games within the window (a refused action, a connection lost)."""

    def line(self) -> str:
        """The step as text."""
        return (
            f"{self.games} games: {self.actions / self.seconds:,.1f} human actions/s, ack p50 "
            f"{self.ack_p50_ms:.0f} ms, p99 {self.ack_p99_ms:.0f} ms, event loop {self.loop_cpu_ms:.1f} ms "
            f"per action ({self.loop_busy:.0%} busy; the process {self.server_busy:.0%} of a core), workers "
            f"{self.workers_busy:.0%}, client "
            f"loop lag p99 {self.client_lag_p99_ms:.0f} ms"
            + (f", {len(self.errors)} games failed ({self.why()})" if self.errors else "")
        )

    def why(self) -> str:
        """The distinct errors of the failed games, the commonest first (at most three), with counts."""
        counts = Counter(self.errors).most_common(3)
        more = len(set(self.errors)) - len(counts)
        return "; ".join(f"{n}× {e}" for e, n in counts) + (f"; {more} more kinds" if more else "")


@dataclass
class PacedFigures:
    """What one paced benchmark measured."""

    game: str
    bot: str
    think: tuple[float, float]
    steps: list[PacedStep] = field(default_factory=list)
    target_ms: float = TARGET_MS

    @property
    def held(self) -> int:
        """The most games of a step whose p99 acknowledgement was within the target, with no game
        failed (0: none)."""
        return max(
            (s.games for s in self.steps if s.ack_p99_ms <= self.target_ms and not s.errors), default=0
        )

    def line(self) -> str:
        """The figures as one line of text."""
        steps = "; ".join(s.line() for s in self.steps)
        return (
            f"server at a human's pace ({self.game}, one human (think {self.think[0]:g}-{self.think[1]:g} s) "
            f"against {self.bot} bots per game, 2 WebSockets per game, SQLite WAL): holds {self.held} games "
            f"at p99 <= {self.target_ms:.0f} ms; {steps}"
        )


class _Window:
    """What the clients saw while a step is measured (they add to it only while ``open``)."""

    def __init__(self) -> None:
        self.open = False
        self.lat: list[float] = []
        self.pushes = 0
        self.errors: list[str] = []

        self.lag: list[float] = []

    def start(self) -> None:
        self.lat, self.pushes, self.errors, self.lag, self.open = [], 0, [], [], True

    async def probe(self) -> None:
        """Measure the client's own loop lag until cancelled."""
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(0.05)
            if self.open:
                self.lag.append(time.perf_counter() - t0 - 0.05)


async def _spectate(ws: Any, window: _Window) -> None:
    """Receive every push of one game, as a spectator's browser does (counted, not decoded)."""
    with contextlib.suppress(Exception):  # the socket closes when the game is replaced or the bench ends
        async for _ in ws:
            if window.open:
                window.pushes += 1


async def _human(window: _Window, base: str, *play: Any) -> None:
    """Play games as their one human, one after another, until cancelled (``play``: the game's catalog
    entry, the bot kind, the think time and the random source of :func:`_one_game`), through a client of
    its own, as a browser does: its own connections, and no other game's seat cookie.  (One client for
    every human scanned all its connections and walked every game's cookie on each request: at 300
    games the bench's own process, not the server, set the latency.)  A game the server fails
    (a refused action, a lost connection) is counted against the step, and replaced."""
    # an idle connection is dropped before uvicorn closes it (after 5 s): a request sent on a
    # connection the server is closing fails
    async with client_session(base, connections=2, keep_alive=KEEP_ALIVE) as client:
        while True:
            try:
                await _one_game(window, client, base, *play)
            except Exception as e:  # whatever failed (aiohttp's, websockets' errors): counted, not fatal
                if window.open:
                    window.errors.append(f"{type(e).__name__}: {e}"[:200])
                await asyncio.sleep(1.0)


async def _one_game(
    window: _Window,
    client: Any,
    base: str,
    game: dict[str, Any],
    bot: str,
    think: tuple[float, float],
    rng: random.Random,
) -> None:
    """One game, to its end, as its human."""
    players = game["min_players"]
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": bot}] * (players - 1)
    body = {"game": game["name"], "config": {"players": players}, "seats": seats, "claim": 0}
    made = await call(client, "POST", "/api/games", json=body, headers=HEADERS)
    gid, auth = made["id"], {"Authorization": f"Bearer {made['token']}"}
    # the human's own socket and a spectator's, each read as a browser reads it (server.watch)
    async with watch(base, gid, auth) as mine, watch(base, gid) as seen:
        await mine.send(json.dumps({"type": "hello", "version": 0}))
        await seen.send(json.dumps({"type": "hello", "version": 0}))
        spectator = asyncio.create_task(_spectate(seen, window))
        try:
            snap: dict[str, Any] = json.loads(await mine.recv())
            while snap["status"] != "finished":
                if snap["to_move"] != 0:  # a bot's or chance's turn: wait for its push
                    seen_version = snap["version"]
                    while snap["version"] <= seen_version and snap["status"] != "finished":
                        snap = json.loads(await mine.recv())
                    continue
                await asyncio.sleep(rng.uniform(*think))
                took, snap = await play_random(client, gid, snap, auth, rng)
                if window.open:
                    window.lat.append(took)
        finally:
            spectator.cancel()
            await asyncio.gather(spectator, return_exceptions=True)


def check_ramp(ramp: tuple[int, ...]) -> None:
    """Refuse a ramp that is not a rising list of game counts, each at least 1 (``ValueError``)."""
    if not ramp or any(n < 1 for n in ramp) or list(ramp) != sorted(set(ramp)):
        raise ValueError(f"the ramp is a rising list of game counts, each at least 1, not {list(ramp)}")


def server_bench_paced(
    game: str | None = None,
    ramp: tuple[int, ...] = (100, 200, 300),
    seconds: float = 20.0,
    think: tuple[float, float] = (1.0, 4.0),
    bot: str = "random",
    registry_ref: str | None = None,
    target_ms: float = TARGET_MS,
    progress: Callable[[PacedStep], None] | None = None,
    bot_delay: float = BOT_DELAY,
) -> PacedFigures:
    """Ramp the games of ``game`` (default: the first registered) through ``ramp``, measuring each step
    for ``seconds`` after the new games have settled (``think[1]`` seconds); see :class:`PacedFigures`.
    Takes about ``len(ramp) * (seconds + think[1])`` seconds plus the starts (50 games/s);
    ``progress`` is called with each step as it is measured; the bots pause ``bot_delay`` seconds
    before each move, as ``ludorum serve``'s do."""
    import httpx

    check_ramp(ramp)
    if not 0 <= think[0] <= think[1]:
        raise ValueError("the think time is a range (low, high) of seconds, 0 <= low <= high")
    with tempfile.TemporaryDirectory(prefix="ludorum-bench-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'server.sqlite3'}"
        settings = {**NO_QUOTAS, BOT_DELAY_ENV: str(bot_delay)}
        with bench_server(registry_ref, url, free_port(), settings) as (base, pid):
            catalog = httpx.get(base + "/api/catalog").json()
            chosen = next((g for g in catalog if g["name"] == game), None) if game else catalog[0]
            if chosen is None:
                raise RuntimeError(f"no game called {game!r}")
            figures = PacedFigures(chosen["name"], bot, think, target_ms=target_ms)

            async def run() -> None:
                window = _Window()
                rng = random.Random(0)
                players: list[asyncio.Task[None]] = [asyncio.create_task(window.probe())]
                try:
                    for n in ramp:
                        while len(players) < n + 1:  # the games and the probe
                            task = _human(window, base, chosen, bot, think, random.Random(rng.random()))
                            players.append(asyncio.create_task(task))
                            await asyncio.sleep(1 / STARTS_PER_S)
                        await asyncio.sleep(think[1])  # the new games' first turns come and go
                        before, t0 = cpu_seconds(pid), time.perf_counter()
                        window.start()
                        await asyncio.sleep(seconds)
                        window.open = False
                        after, elapsed = cpu_seconds(pid), time.perf_counter() - t0
                        loop_s, kids_s = after[0] - before[0], after[2] - before[2]
                        process_s = after[1] - before[1]
                        actions = len(window.lat)
                        figures.steps.append(
                            PacedStep(
                                n,
                                elapsed,
                                actions,
                                percentile(window.lat, 0.5) * 1000,
                                percentile(window.lat, 0.99) * 1000,
                                window.pushes,
                                loop_s * 1000 / max(actions, 1),
                                loop_s / elapsed,
                                process_s / elapsed,
                                percentile(window.lag, 0.99) * 1000,
                                kids_s / elapsed,
                                window.errors,
                            )
                        )
                        if progress is not None:
                            progress(figures.steps[-1])
                finally:
                    for t in players:
                        t.cancel()
                    await asyncio.gather(*players, return_exceptions=True)

            time.sleep(WARM_UP)  # the server's worker processes start in the background
            # A thread of its own: the caller may already run an event loop (Playwright's, a notebook's).
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                pool.submit(asyncio.run, run()).result()
    return figures
