"""Per-seat clocks on the server: where time comes from, whose clock runs, and what a snapshot shows.

The arithmetic is :mod:`ludorum.engine.clock`; the hub calls the hooks here when a game is made, when
a step is committed (the clocks after it are stored in the same transaction as the step), when a seat
is taken or left, and when a game is loaded.  A running clock is watched by one task per game, which
sleeps on the injected :class:`Clock` until the deadline and then asks the hub to time the seat out —
a durable step like a move (see ``Hub.time_out``).  Tests inject a :class:`ManualClock` and advance it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from collections.abc import Sequence
from typing import Any, Protocol

from ludorum.engine import CHANCE
from ludorum.engine.clock import ClockSpec, ClockState, wall_ms
from ludorum.server.store.tables import SeatData


class Clock(Protocol):
    """Where the server reads the time and waits for it."""

    def now(self) -> int:
        """Milliseconds since the epoch (wall time: a clock's start is stored, and read back after a
        restart)."""

    async def sleep_until(self, when: int) -> None:
        """Return once :meth:`now` has reached ``when``."""


class SystemClock:
    """The real time."""

    def now(self) -> int:
        """Milliseconds since the epoch."""
        return wall_ms()

    async def sleep_until(self, when: int) -> None:
        """Sleep until ``when`` (again if woken early: the wall clock may be set back)."""
        while (left := when - self.now()) > 0:
            await asyncio.sleep(left / 1000)


class ManualClock:
    """A clock that moves only when told (tests): :meth:`advance` wakes the watchers whose time has
    come and returns once they have done what they woke for."""

    def __init__(self, start: int = 1_800_000_000_000) -> None:
        self.time = start
        self._lock = threading.Lock()
        self._sleepers: list[tuple[int, asyncio.Future[None], asyncio.Task[Any] | None]] = []

    def now(self) -> int:
        """The clock's time."""
        return self.time

    async def sleep_until(self, when: int) -> None:
        """Wait until :meth:`advance` passes ``when``."""
        future = asyncio.get_running_loop().create_future()
        with self._lock:  # the look at the time and the registration at once: no advance between
            if when <= self.time:
                return
            self._sleepers.append((when, future, asyncio.current_task()))
        await future

    def advance(self, seconds: float) -> None:
        """Move the time on (from any thread); wait for the watchers woken to finish."""
        with self._lock:
            self.time += round(seconds * 1000)
            due = [s for s in self._sleepers if s[0] <= self.time]
            self._sleepers = [s for s in self._sleepers if s[0] > self.time]
        for _, future, task in due:
            if future.done():  # its watcher was cancelled: a newer one watches that game
                continue
            loop = future.get_loop()
            asyncio.run_coroutine_threadsafe(_wake(future, task), loop).result(timeout=30)


async def _wake(future: asyncio.Future[None], task: asyncio.Task[Any] | None) -> None:
    if not future.done():
        future.set_result(None)
    if task is not None:
        await asyncio.wait([task])


def clocked_seat(
    mover: int | None,
    seats: list[SeatData],
    played: Sequence[tuple[int, object]] = (),
    running: int | None = None,
) -> int | None:
    """The seat whose clock should run: the deciding seat (``mover``) if it is a human's seat that is
    held, or that was held and has been left — its player is away, and leaving must not stop the clock
    (a seat left during its turn: its clock is ``running``; one left before: it has ``played`` a step).
    Bots, chance and a seat nobody has played yet are never charged."""
    if mover is None or mover == CHANCE:
        return None
    seat = seats[mover]
    if seat.kind != "human":
        return None
    if seat.token_hash is not None or running == mover:
        return mover
    # the log is looked through only for a free seat's turn, which is rare
    return mover if any(actor == mover for actor, _ in played) else None


@dataclasses.dataclass(slots=True)
class GameClock:
    """One game's clocks: the lobby's setting, how they stand, and where the time comes from."""

    spec: ClockSpec
    state: ClockState
    source: Clock
    watcher: asyncio.Task[None] | None = None
    """The task waiting for the running clock's deadline."""

    def now(self) -> int:
        """The time now (milliseconds since the epoch)."""
        return self.source.now()

    @staticmethod
    def begin(spec: ClockSpec, players: int, clocked: int | None, source: Clock) -> GameClock:
        """A new game's clocks: full, the deciding seat's running if a human holds it."""
        clock = GameClock(spec, ClockState.initial(spec, players), source)
        clock.state.settle(spec, clocked, source.now())
        return clock

    @staticmethod
    def restore(
        spec: dict[str, Any], state: dict[str, Any] | None, players: int, clocked: int | None, source: Clock
    ) -> GameClock:
        """A stored game's clocks.  They go on from where they were stored, so the time the server was
        down is charged to the seat whose clock was running."""
        if state is None:
            return GameClock.begin(ClockSpec.from_json(spec), players, clocked, source)
        clock = GameClock(ClockSpec.from_json(spec), ClockState.from_json(state), source)
        clock.state.settle(clock.spec, clocked, source.now())
        return clock

    def after_step(self, mover: int, next_mover: int | None, clocked: int | None) -> dict[str, Any]:
        """The clocks once a step by ``mover`` is taken now, to store with it (:attr:`state` changes
        only once the step is committed: :meth:`commit`)."""
        state = ClockState.from_json(self.state.to_json())
        state.step(self.spec, mover, next_mover, clocked, self.now())
        return state.to_json()

    def commit(self, stored: dict[str, Any]) -> None:
        """Take the clocks stored with a committed step."""
        self.state = ClockState.from_json(stored)

    def resettle(self, clocked: int | None) -> dict[str, Any] | None:
        """After a seat was taken or left: start or stop the deciding seat's clock; the state to store,
        or ``None`` if nothing changed."""
        return self.state.to_json() if self.state.settle(self.spec, clocked, self.now()) else None

    def shown(self, seats: list[SeatData], over: bool) -> dict[str, Any]:
        """What a snapshot says of the clocks: the setting, each seat's time left now in milliseconds
        (``null`` for a bot's seat, which has no clock), whose clock runs, and the server's time."""
        now = self.now()
        running = None if over else self.state.running
        return {
            **self.spec.to_json(),
            "left": [None if s.kind == "bot" else max(0, self.state.remaining(s.seat, now)) for s in seats],
            "running": running,
            "now": now,
        }
