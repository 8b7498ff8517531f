"""Bots that think in worker processes, so that a long search never blocks a server's event loop.

A :class:`BotPool` owns a few single-process executors.  A search bot's decision is sent to one of
them — always the same one for the same key (a game and seat), so that the worker's copy of the bot
keeps its tree from one decision to the next — together with the seat's information set (pickled).
Workers run at a lower scheduling priority than the server, so that on a busy machine a human's move
is acknowledged before a bot finishes thinking.  Bots that do not search (heuristic, random) answer in
milliseconds and run in a thread, as before.  Executors start lazily, on the first search.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import multiprocessing
import os
import random
import zlib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ludorum.agents.search import SearchBot
from ludorum.engine import Action
from ludorum.engine.bots import Bot
from ludorum.engine.information import InformationSet

T = TypeVar("T")

KEPT_BOTS = 256
"""Bots a worker keeps (with their trees) between decisions; the least recently used go first."""
WORKER_NICENESS = 10
"""How much lower the workers' priority is than the server's."""

_bots: OrderedDict[str, SearchBot] = OrderedDict()
"""In a worker: the bots it keeps, by key."""


def start_worker(niceness: int = WORKER_NICENESS) -> None:
    """A worker process's start (the server's bots' and its disclosures' alike): a lower scheduling
    priority than the server's by ``niceness``, and the rules imported once, not on the first job."""
    with contextlib.suppress(OSError):  # not permitted here: run at the server's priority
        os.nice(niceness)
    import ludorum.games  # noqa: F401


def worker_for(key: str, workers: Sequence[T]) -> T:
    """The worker that serves ``key`` (a game id) among ``workers``: always the same one, so a game's jobs
    run in order and find the bot its last search kept."""
    return workers[zlib.crc32(key.encode()) % len(workers)]


def _decide(key: str, bot: SearchBot, info: InformationSet[Any], seed: int) -> Action:
    kept = _bots.get(key)
    if kept is None or kept.settings != bot.settings:
        kept = bot
    _bots[key] = kept
    _bots.move_to_end(key)
    while len(_bots) > KEPT_BOTS:
        _bots.popitem(last=False)
    return kept.decide(info, random.Random(seed))


class BotPool:
    """Worker processes for search bots; ``workers`` defaults to one per core but one."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or max(1, (os.cpu_count() or 2) - 1)
        self._executors: list[concurrent.futures.ProcessPoolExecutor] = []

    def _executor(self, key: str) -> concurrent.futures.ProcessPoolExecutor:
        if not self._executors:
            # Never fork a server that runs threads.  Spawned workers are the server's own children, which
            # shutdown() waits for; a forkserver was seen to outlive a server stopped by SIGTERM.
            ctx = multiprocessing.get_context("spawn")
            self._executors = [
                concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx, initializer=start_worker)
                for _ in range(self.workers)
            ]
        return worker_for(key, self._executors)

    async def decide(self, key: str, bot: Bot, info: InformationSet[Any], rng: random.Random) -> Action:
        """``bot``'s decision for ``info``: searched in a worker process, otherwise in a thread."""
        if not isinstance(bot, SearchBot):
            return await asyncio.to_thread(bot.decide, info, rng)
        future = self._executor(key).submit(_decide, key, bot, info, rng.getrandbits(64))
        return await asyncio.wrap_future(future)

    async def call(self, key: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the worker that serves ``key`` (both must pickle): other searches (hints,
        analyses) share the workers, and their priority, with the bots."""
        return await asyncio.wrap_future(self._executor(key).submit(fn, *args))

    def shutdown(self) -> None:
        """Stop the workers: searches not begun are cancelled, those under way end first (each level caps
        its search's seconds).  Blocks until the workers have exited: call it off the event loop.  (Not
        waiting, a server that then exited at once, as on SIGTERM, could leave its workers running.)"""
        executors, self._executors = self._executors, []
        for ex in executors:
            ex.shutdown(wait=True, cancel_futures=True)
