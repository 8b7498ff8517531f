"""Who plays the scheduled games: this process, local worker processes, or a Ray cluster.

Every executor yields ``(task, line)`` as games finish, in any order; the line depends only on the
task, so the executor changes how fast results come, never what they are.  A worker that dies takes
its unfinished games with it: the executor says so through ``notify`` and plays those games again —
they were never yielded, so nothing is counted twice.  A game that fails by itself (a bug in a bot
or a rule) is not retried: it stops the run with a :class:`LabError` naming the game and its seed.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from ludorum.extras import require_extra
from ludorum.lab.errors import LabError
from ludorum.lab.schedule import GameTask

Play = Callable[[GameTask], str]
Notify = Callable[[str], None]

MAX_LOST_ROUNDS = 3
"""Worker deaths in a row, with no game finished in between, after which a run gives up."""


def _ignore(message: str) -> None:
    """The default ``notify``: say nothing."""


def failed(task: GameTask, error: BaseException) -> LabError:
    """The error for a game that raised: which game, so that it can be played again alone."""
    return LabError(
        f"game {task.index} (seed {task.seed}, bots {', '.join(task.bots)}"
        f"{', ' + ', '.join(f'{k}={v}' for k, v in task.setup) if task.setup else ''}) failed: "
        f"{type(error).__name__}: {error}"
    )


class Executor(Protocol):
    """Plays tasks and yields ``(task, line)`` as each finishes."""

    name: str

    def run(
        self, tasks: Sequence[GameTask], play: Play, notify: Notify = _ignore
    ) -> Iterator[tuple[GameTask, str]]:
        """Play every task once, replaying those a dead worker lost."""
        ...


class SerialExecutor:
    """Plays in this process, one game after another (``--workers 1``)."""

    name = "this process"

    def run(
        self, tasks: Sequence[GameTask], play: Play, notify: Notify = _ignore
    ) -> Iterator[tuple[GameTask, str]]:
        """Play the tasks in order."""
        for task in tasks:
            try:
                line = play(task)
            except Exception as e:
                raise failed(task, e) from e
            yield task, line


class ProcessExecutor:
    """Plays on ``workers`` local processes (forked, so they start at once with everything imported)."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise LabError(f"--workers is at least 1, not {workers}")
        self.workers = workers
        self.name = f"{workers} local worker processes"

    def run(
        self, tasks: Sequence[GameTask], play: Play, notify: Notify = _ignore
    ) -> Iterator[tuple[GameTask, str]]:
        """Play the tasks on a process pool, starting a new pool whenever a worker dies."""
        pending = {task.index: task for task in tasks}
        lost_rounds = 0
        # Up to 4 games per worker in flight: enough to keep every worker busy, few to replay on a death.
        window = 4 * self.workers
        while pending:
            pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("fork"))
            queue = iter(list(pending.values()))
            running: dict[Future[str], GameTask] = {}
            try:
                while True:
                    for task in queue:
                        running[pool.submit(play, task)] = task
                        if len(running) >= window:
                            break
                    if not running:
                        break
                    done, _ = wait(running, return_when=FIRST_COMPLETED)
                    for future in done:
                        task = running[future]
                        try:
                            line = future.result()
                        except BrokenProcessPool:
                            raise  # ``running`` still holds the lost game, for the notice
                        except Exception as e:
                            raise failed(task, e) from e
                        del running[future], pending[task.index]
                        lost_rounds = 0
                        yield task, line
            except BrokenProcessPool:
                lost_rounds += 1
                lost = sorted(t.index for t in running.values())
                if lost_rounds >= MAX_LOST_ROUNDS:
                    raise LabError(
                        f"worker processes died {lost_rounds} times in a row without finishing a game "
                        f"(games {_span(lost)} were running); the games finished so far are kept"
                    ) from None
                notify(
                    f"a worker process died (exit without a result) while games {_span(lost)} were running; "
                    "they will be played again, and nothing of them was counted"
                )
            finally:
                pool.shutdown(wait=True, cancel_futures=True)


def _span(indices: Sequence[int]) -> str:
    """A short list of game numbers."""
    shown = ", ".join(map(str, indices[:8]))
    return shown + (f" and {len(indices) - 8} more" if len(indices) > 8 else "")


class RayExecutor:
    """Plays on a Ray cluster: a local one (``address=None``) or an existing one (``"auto"``, ``ray://…``).

    Ray's own task retries are turned off so that a lost worker is reported here and its game replayed,
    exactly as with local processes.
    """

    def __init__(self, address: str | None = None, num_cpus: int | None = None) -> None:
        require_extra("lab", "ray")
        self.address = address
        self.num_cpus = num_cpus
        self.name = f"Ray cluster at {address}" if address else "a local Ray runtime"

    def _start(self) -> Any:
        import ray

        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if self.address:
                kwargs["address"] = self.address
            else:
                kwargs["num_cpus"] = self.num_cpus or os.cpu_count()
            try:
                ray.init(**kwargs)
            except (ConnectionError, RuntimeError, ValueError) as e:
                raise LabError(f"cannot start or join Ray ({self.address or 'local'}): {e}") from None
        return ray

    def cpus(self) -> int:
        """CPUs the cluster offers (after starting or joining it)."""
        ray = self._start()
        return max(1, int(ray.cluster_resources().get("CPU", 1)))

    def run(
        self, tasks: Sequence[GameTask], play: Play, notify: Notify = _ignore
    ) -> Iterator[tuple[GameTask, str]]:
        """Submit the games as Ray tasks of up to :data:`RAY_BATCH` games, a window at a time, and yield
        results as they arrive (a batch's games once the batch is back)."""
        ray = self._start()
        from ray.exceptions import RayTaskError

        remote = ray.remote(max_retries=0, num_cpus=1)(play_batch)
        window = 4 * self.cpus()
        queue = batches(tasks, window)[::-1]
        running: dict[Any, list[GameTask]] = {}
        lost_rounds = 0
        while queue or running:
            while queue and len(running) < window:
                batch = queue.pop()
                running[remote.remote(play, batch)] = batch
            done, _ = ray.wait(list(running), num_returns=1)
            for ref in done:
                batch = running.pop(ref)
                try:
                    results = ray.get(ref)
                except RayTaskError as e:  # not a game's own error (play_batch returns those): a bug
                    raise failed(batch[0], e.cause if e.cause is not None else e) from e
                except ray.exceptions.RayError as e:  # the worker or its node died
                    lost_rounds += 1
                    games = (
                        f"game {batch[0].index}"
                        if len(batch) == 1
                        else f"games {_span([t.index for t in batch])}"
                    )
                    if lost_rounds >= MAX_LOST_ROUNDS:
                        raise LabError(
                            f"Ray workers died {lost_rounds} times in a row without finishing a game "
                            f"(last: {games}: {type(e).__name__}); the games finished so far are kept"
                        ) from None
                    notify(
                        f"a Ray worker died ({type(e).__name__}) while playing {games}; "
                        "it will be played again, and nothing of it was counted"
                    )
                    queue.append(batch)
                    continue
                lost_rounds = 0
                for task, (ok, value) in zip(batch, results, strict=False):
                    if not ok:  # the game itself raised: a bug, not a lost worker
                        raise failed(task, value)
                    yield task, value


RAY_BATCH = 8
"""Games per Ray task at the most.  A short game (a heuristic Reliquium game takes 15 ms) costs less than
a Ray task's round trip, so a long run sends its games in small batches; a batch whose worker dies is
played again whole (nothing of it was counted)."""


def batches(tasks: Sequence[GameTask], window: int) -> list[list[GameTask]]:
    """The tasks in order, cut into batches of up to :data:`RAY_BATCH` for ``window`` Ray tasks in flight:
    a run too short to fill the window in full batches is cut smaller, so that every CPU is kept busy."""
    size = max(1, min(RAY_BATCH, len(tasks) // window))
    return [list(tasks[i : i + size]) for i in range(0, len(tasks), size)]


def play_batch(play: Play, batch: Sequence[GameTask]) -> list[tuple[bool, Any]]:
    """Play a batch of games in one Ray task: ``(True, line)`` per game, or ``(False, error)`` for the first
    game that raised (the rest are not played)."""
    out: list[tuple[bool, Any]] = []
    for task in batch:
        try:
            out.append((True, play(task)))
        except Exception as e:
            out.append((False, e))
            break
    return out


MAX_WORKERS = 4 * (os.cpu_count() or 1)
"""The most local worker processes (or local Ray CPUs) a command may ask for: four per core is already more
than helps; a mistyped ``-w 10000`` would fork ten thousand processes."""


def make_executor(workers: int = 1, ray: bool = False, ray_address: str | None = None) -> Executor:
    """The executor the command line asks for: Ray if ``ray`` or an address, else processes."""
    if workers > MAX_WORKERS and not ray_address:  # a cluster's size is the cluster's own
        raise LabError(f"--workers is at most {MAX_WORKERS} on this machine (four per core), not {workers}")
    if ray or ray_address:
        return RayExecutor(ray_address, workers if workers > 1 and not ray_address else None)
    if workers == 1:
        return SerialExecutor()
    return ProcessExecutor(workers)
