"""The worker process the event loop feeds through pipes: results, failures, order, size, death."""

from __future__ import annotations

import asyncio
import os
import threading

import pytest

from ludorum.server.work.pipeworker import PipeWorker, WorkerDied
from tests.loops import run_alone


def _echo(value: object) -> object:
    return value


def _big(n: int) -> bytes:
    return bytes(range(256)) * (n // 256)


def _fail(message: str) -> None:
    raise ValueError(message)


def _unpicklable() -> object:
    return threading.Lock()


def _die() -> None:
    os._exit(3)


def _pid() -> int:
    return os.getpid()


async def _with_worker(body: object) -> None:
    worker = PipeWorker()
    try:
        await body(worker)  # type: ignore[operator]
    finally:
        worker.close()


def test_jobs_answer_in_order_whatever_their_size() -> None:
    async def body(worker: PipeWorker) -> None:
        # 3 MB crosses the pipe in many reads (its buffer is 64 KB): the frames are put back together
        sizes = [10, 3_000_000, 0, 70_000, 1]
        answers = await asyncio.gather(*(worker.run(_big, n) for n in sizes))
        assert [len(a) for a in answers] == [n // 256 * 256 for n in sizes]
        assert await worker.run(_echo, {"a": (1, 2)}) == {"a": (1, 2)}
        assert await worker.run(_pid) != os.getpid()

    run_alone(_with_worker(body))


def test_a_jobs_exception_is_raised_to_its_caller_and_the_worker_goes_on() -> None:
    async def body(worker: PipeWorker) -> None:
        with pytest.raises(ValueError, match="no such card"):
            await worker.run(_fail, "no such card")
        with pytest.raises(RuntimeError, match="does not pickle"):
            await worker.run(_unpicklable)
        assert await worker.run(_echo, 5) == 5

    run_alone(_with_worker(body))


def test_a_worker_that_dies_fails_its_jobs_and_the_next_job_starts_another() -> None:
    async def body(worker: PipeWorker) -> None:
        first = await worker.run(_pid)
        with pytest.raises(WorkerDied, match="exit code 3"):
            await worker.run(_die)
        assert await worker.run(_echo, "again") == "again"
        assert await worker.run(_pid) != first

    run_alone(_with_worker(body))


def test_a_start_that_failed_is_tried_again_by_the_next_job(monkeypatch: pytest.MonkeyPatch) -> None:
    # A failed spawn (the system out of processes for a moment) must fail only the jobs that waited for
    # it: the disclosures would otherwise stay secret for good.
    import multiprocessing.context

    real = multiprocessing.context.SpawnProcess.start
    failures = [OSError("fork: Resource temporarily unavailable")]

    def start(self: multiprocessing.context.SpawnProcess) -> None:
        if failures:
            raise failures.pop()
        real(self)

    monkeypatch.setattr(multiprocessing.context.SpawnProcess, "start", start)

    async def body(worker: PipeWorker) -> None:
        with pytest.raises(OSError, match="temporarily unavailable"):
            await worker.run(_echo, 1)
        assert await worker.run(_echo, 2) == 2

    run_alone(_with_worker(body))


class _Traced:
    """An answer that notes which thread unpickles it (``__setstate__`` runs in the server only)."""

    threads: list[int] = []

    def __init__(self, size: int) -> None:
        self.blob = b"x" * size

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        _Traced.threads.append(threading.get_ident())


def _traced(size: int) -> _Traced:
    return _Traced(size)


def test_a_large_answer_is_unpickled_off_the_event_loop() -> None:
    # A long game's replay comes back as thousands of log entries: unpickled on the loop, it would
    # hold every other request for as long; a step's answer (tens of KB) is unpickled on the loop.
    async def body(worker: PipeWorker) -> None:
        loop_thread = threading.get_ident()
        _Traced.threads.clear()
        assert len((await worker.run(_traced, 1_000)).blob) == 1_000
        assert len((await worker.run(_traced, 2_000_000)).blob) == 2_000_000
        assert _Traced.threads[0] == loop_thread and _Traced.threads[1] != loop_thread

    run_alone(_with_worker(body))


class _Heavy:
    """An argument that notes which thread pickles it."""

    threads: list[int] = []

    def __reduce__(self) -> tuple[object, ...]:
        _Heavy.threads.append(threading.get_ident())
        return (_Heavy, ())


def test_a_bulky_jobs_arguments_are_pickled_off_the_event_loop() -> None:
    # An uploaded record of up to 1 MiB is replayed in a worker: pickling it on the loop would hold
    # every other request meanwhile.
    async def body(worker: PipeWorker) -> None:
        loop_thread = threading.get_ident()
        _Heavy.threads.clear()
        assert isinstance(await worker.run(_echo, _Heavy()), _Heavy)
        assert isinstance(await worker.run(_echo, _Heavy(), bulky=True), _Heavy)
        assert _Heavy.threads[0] == loop_thread and _Heavy.threads[1] != loop_thread

    run_alone(_with_worker(body))
