"""How fast the executors play a tournament: games per second on 1 and on K local worker processes, and
on a local Ray runtime with K CPUs, over the same scheduled games (a benchmark, not a test).

Ray's start-up (a few seconds, once per run) is measured apart from its games per second, since a
long run pays it once.
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass

from ludorum.lab.executors import Executor, ProcessExecutor, RayExecutor, SerialExecutor
from ludorum.lab.play import play_task
from ludorum.lab.schedule import GameTask, Schedule, Spec


@dataclass(frozen=True, slots=True)
class Speed:
    """One executor's figure."""

    executor: str
    games: int
    seconds: float
    cpu: float | None = None
    """CPU seconds of this process and its finished children (``None`` for Ray, whose workers are not)."""

    @property
    def rate(self) -> float:
        """Games per second."""
        return self.games / self.seconds


def _cpu() -> float:
    mine, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime


def timed(executor: Executor, tasks: list[GameTask]) -> Speed:
    """Play every task on ``executor``; wall-clock and CPU time (the CPU time is what a busy machine
    cannot blur: on idle cores the speed-up of K workers is K × serial CPU per game / their CPU per game).
    """
    start, cpu = time.perf_counter(), _cpu()
    n = sum(1 for _ in executor.run(tasks, play_task))
    used = None if isinstance(executor, RayExecutor) else _cpu() - cpu
    return Speed(executor.name, n, time.perf_counter() - start, used)


def lab_bench(
    spec: Spec, games: int, workers: int = 2, ray: bool = True, say: Callable[[str], None] = print
) -> list[Speed]:
    """Serial, 1 process, ``workers`` processes and Ray (if installed), on the first ``games`` of ``spec``."""
    schedule = Schedule(spec)
    tasks = [schedule.task(i) for i in range(games)]
    figures = [timed(SerialExecutor(), tasks), timed(ProcessExecutor(1), tasks)]
    figures.append(timed(ProcessExecutor(workers), tasks))
    if ray:
        try:
            import ray as ray_module
        except ImportError:
            say("Ray is not installed: pip install 'ludorum[ray]'")
            return figures
        start = time.perf_counter()
        executor = RayExecutor(num_cpus=workers)
        executor.cpus()  # starts the runtime
        say(f"Ray start-up: {time.perf_counter() - start:.1f} s (once per run)")
        try:
            timed(executor, tasks[: 2 * workers])  # warm the workers: their imports are start-up too
            figures.append(timed(executor, tasks))
        finally:
            ray_module.shutdown()
    return figures


def cores() -> int:
    """CPUs this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
