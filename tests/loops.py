"""Running a coroutine from a test: in a thread of its own.

An xdist worker runs many test files in one thread, and a browser test's sync Playwright leaves its event
loop set in that thread, where ``asyncio.run`` then refuses to start ("cannot be called from a running event
loop").  A fresh thread has no loop.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_alone(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coro)`` in a thread of its own; its result (or its exception)."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coro).result()
