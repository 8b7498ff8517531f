"""Worker processes, so that what is slow — deciding a step's readings, replaying a game, a search bot's
thinking — never runs on a server's event loop.

A :class:`Pool` owns a few worker processes (:class:`~ludorum.server.work.pipeworker.PipeWorker`: fed
and read by the event loop itself, no thread in between) at a lower scheduling priority than the server,
and sends the jobs of one key (a game, a seat) always to the same one, in order — so a game's jobs run
in order, and a search bot finds the tree its last search kept.  ``workers=0`` runs the jobs in threads
instead (the same code without a process per test server).  Processes start on :meth:`Pool.start` or
the first job.  The server keeps two pools: one for disclosures and replays (``workers.py``), one for
search bots and other searches (:class:`BotPool`), so that a long search never delays a step's readings.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
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
from ludorum.server.work.pipeworker import PipeWorker

T = TypeVar("T")

KEPT_BOTS = 256
"""Bots a worker keeps (with their trees) between decisions; the least recently used go first."""
SEARCH_NICENESS = 10
"""How much lower the search workers' priority is than the server's: on a busy machine a human's move
is acknowledged before a bot finishes thinking."""

_bots: OrderedDict[str, SearchBot] = OrderedDict()
"""In a worker: the bots it keeps, by key."""


def start_worker(niceness: int) -> None:
    """A worker process's start: a lower scheduling priority than the server's by ``niceness``, and the
    rules imported once, not on the first job."""
    with contextlib.suppress(OSError):  # not permitted here: run at the server's priority
        os.nice(niceness)
    import ludorum.games  # noqa: F401


def worker_for(key: str, workers: Sequence[T]) -> T:
    """The worker that serves ``key`` among ``workers``: always the same one, so a key's jobs run in
    order and find the bot its last search kept."""
    return workers[zlib.crc32(key.encode()) % len(workers)]


class Pool:
    """``workers`` worker processes (``0``: threads) at ``niceness`` below the server's priority."""

    def __init__(self, workers: int, niceness: int) -> None:
        self.workers = workers
        self.niceness = niceness
        self._processes: list[PipeWorker] = []

    def start(self) -> None:
        """Start the worker processes now, in the background (spawning one and importing the rules
        takes a second or more: better before the first job than during it).  On the event loop."""
        for worker in self._worker_list():
            worker.start()

    def _worker_list(self) -> list[PipeWorker]:
        if not self._processes:
            start = functools.partial(start_worker, self.niceness)
            self._processes = [PipeWorker(start) for _ in range(self.workers)]
        return self._processes

    async def run(self, key: str, fn: Callable[..., T], *args: Any, bulky: bool = False) -> T:
        """``fn(*args)`` in the worker of ``key`` (both must pickle), or in a thread without workers
        (``bulky``: large arguments, pickled off the loop)."""
        if self.workers == 0:
            return await asyncio.to_thread(fn, *args)
        out: T = await worker_for(key, self._worker_list()).run(fn, *args, bulky=bulky)
        return out

    def shutdown(self) -> None:
        """Stop the workers (a job under way is abandoned).  On the event loop that sent the jobs."""
        for worker in self._processes:
            worker.close()
        self._processes = []


def _decide(key: str, bot: SearchBot, info: InformationSet[Any], seed: int) -> Action:
    kept = _bots.get(key)
    if kept is None or kept.settings != bot.settings:
        kept = bot
    _bots[key] = kept
    _bots.move_to_end(key)
    while len(_bots) > KEPT_BOTS:
        _bots.popitem(last=False)
    return kept.decide(info, random.Random(seed))


class BotPool(Pool):
    """Worker processes for search bots; ``workers`` defaults to one per core but one."""

    def __init__(self, workers: int | None = None) -> None:
        super().__init__(workers or max(1, (os.cpu_count() or 2) - 1), SEARCH_NICENESS)

    async def decide(self, key: str, bot: Bot, info: InformationSet[Any], rng: random.Random) -> Action:
        """``bot``'s decision for ``info``: searched in a worker process, otherwise in a thread."""
        if not isinstance(bot, SearchBot):
            return await asyncio.to_thread(bot.decide, info, rng)
        return await self.run(key, _decide, key, bot, info, rng.getrandbits(64))

    async def call(self, key: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the worker that serves ``key``: other searches (hints, analyses) share the
        workers, and their priority, with the bots."""
        return await self.run(key, fn, *args)
