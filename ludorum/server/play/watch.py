"""The clocks' watchers: one task per game with a running clock, waking at its deadline.

A watcher only notices; what a timeout does (a ``TIMEOUT`` step through the commit path of a move) is
the hub's.  A clock that changes (a step, a seat taken or left) gets a new watcher, the old one
cancelled, so a watcher that wakes finds either its deadline passed or a newer watcher waiting.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ludorum.server.errors import ApiError
from ludorum.server.play.clocks import Clock
from ludorum.server.play.live import LiveGame

log = logging.getLogger("ludorum.server")


class ClockWatch:
    """Watches the running clock of every game given to :meth:`watch`; ``time_out(live, seat)`` is
    called (with the game's lock held) when ``seat``'s time has run out."""

    def __init__(self, clock: Clock, time_out: Callable[[LiveGame, int], Awaitable[None]]) -> None:
        self.clock = clock
        self._time_out = time_out

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
                if live.clock is not None and not live.over:
                    lost = live.clock.state.expired(self.clock.now())
                    if lost is not None:  # else the game moved on meanwhile: a newer watcher waits
                        await self._time_out(live, lost)
        except asyncio.CancelledError:
            raise
        except ApiError as e:  # another server process moved the game on first: it has been reloaded
            log.info("game %s: no timeout (%s)", live.id, e.code)
        except Exception:  # a failing timeout must not take the server down; the next submission retries
            log.exception("game %s: the clock could not time the seat out", live.id)
