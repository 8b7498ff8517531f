"""The clocks' watchers: one task per game with a running clock, waking at its deadline.

A watcher only notices that a deadline passed; what a timeout does (a ``TIMEOUT`` step through the
commit path of a move) is up to whoever listens for that event (:meth:`ClockWatch.on_expiry`: the play
core).  A clock that changes (a step, a seat taken or left) gets a new watcher, the old one cancelled, so
a watcher that wakes finds either its deadline passed or a newer watcher waiting.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from ludorum.server.errors import ApiError
from ludorum.server.play.clocks import Clock
from ludorum.server.play.live import LiveGame

log = logging.getLogger("ludorum.server")


class Expiry(Protocol):
    """What a seat's time running out does."""

    async def __call__(self, live: LiveGame, seat: int) -> None:
        """``seat`` of ``live`` ran out of time (called with the game's lock held)."""
        ...


class ClockWatch:
    """Watches the running clock of every game given to :meth:`watch`, reading the time from ``clock``."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._expiry: Expiry | None = None

    def on_expiry(self, expiry: Expiry) -> None:
        """Listen for the seats whose time runs out: ``expiry`` acts on each (one listener)."""
        self._expiry = expiry

    def watch(self, live: LiveGame) -> None:
        """Watch the running clock's deadline (a clock changed: the previous watcher is cancelled)."""
        clock = live.clock
        if clock is None:
            return
        old, clock.watcher = clock.watcher, None
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        deadline = clock.state.deadline()
        if deadline is not None and not live.over:
            clock.watcher = asyncio.get_running_loop().create_task(self._expire_at(live, deadline))

    async def _expire_at(self, live: LiveGame, deadline: int) -> None:
        try:
            await self.clock.sleep_until(deadline)
            async with live.lock:
                if live.clock is not None and not live.over and self._expiry is not None:
                    lost = live.clock.state.expired(self.clock.now())
                    if lost is not None:  # else the game moved on meanwhile: a newer watcher waits
                        await self._expiry(live, lost)
        except asyncio.CancelledError:
            raise
        except ApiError as e:  # another server process moved the game on first: it has been reloaded
            log.info("game %s: no timeout (%s)", live.id, e.code)
        except Exception:  # a failing timeout must not take the server down; the next submission retries
            log.exception("game %s: the clock could not time the seat out", live.id)
