"""Sign-in failures and new guests: how many an address may cause before it must wait.

Per account the count lives in the database (``accounts.failures``, ``locked_until``), so every server
process sees it; per address it is counted here, in memory, in a sliding window.  Both are checked
before any password is hashed, so a flood of guesses costs the server no hashing.
"""

from __future__ import annotations

import collections
import datetime as dt
import time
from collections.abc import Callable

FREE_FAILURES = 5
"""Wrong passwords in a row an account takes before it locks."""
FIRST_LOCK = 30.0
"""Seconds of the first lock; each further failure doubles it, up to :data:`LONGEST_LOCK`."""
LONGEST_LOCK = 15 * 60.0

ADDRESS_FAILURES = 20
"""Wrong passwords one address may send within :data:`ADDRESS_WINDOW` seconds."""
ADDRESS_WINDOW = 10 * 60.0


def lock_after(failures: int, now: dt.datetime) -> dt.datetime | None:
    """Until when an account with ``failures`` failures in a row refuses passwords (``None``: it does not)."""
    if failures < FREE_FAILURES:
        return None
    seconds = min(LONGEST_LOCK, FIRST_LOCK * 2 ** (failures - FREE_FAILURES))
    return now + dt.timedelta(seconds=seconds)


class Window:
    """How many events each key (an address) had within a sliding window, in memory (one process's view;
    bounded by the window and by :data:`MAX_KEYS`)."""

    MAX_KEYS = 100_000

    def __init__(self, limit: int, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.seconds, self.clock = limit, seconds, clock
        self._events: dict[str, collections.deque[float]] = {}

    def wait(self, key: str) -> float:
        """Seconds ``key`` must wait before its next event is allowed (0: it may now)."""
        now = self.clock()
        recent = self._events.get(key)
        if recent is None:
            return 0.0
        while recent and recent[0] <= now - self.seconds:
            recent.popleft()
        if not recent:
            del self._events[key]
            return 0.0
        return recent[0] + self.seconds - now if len(recent) >= self.limit else 0.0

    def count(self, key: str) -> None:
        """Count one event of ``key``."""
        self._events.setdefault(key, collections.deque()).append(self.clock())
        if len(self._events) > self.MAX_KEYS:
            self._events.pop(next(iter(self._events)))


GUESTS_PER_ADDRESS = 10
"""Guests one address may make within :data:`GUEST_WINDOW` seconds."""
GUEST_WINDOW = 3600.0
