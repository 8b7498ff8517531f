"""A worker process that the event loop feeds and reads through two pipes, with no thread in between.

``concurrent.futures.ProcessPoolExecutor`` hands every job and every result through two threads of
the server process (its manager thread and its call queue's feeder), each hop a wake-up and a turn of
the GIL, and the result comes back to the loop through a third (``call_soon_threadsafe``): with a
step's disclosure sent to a worker for every action, those threads took about 0.35 ms of the server
process's CPU per action in the 8-game bench (docs/server.md, "Where the time goes").  Here the loop
writes each job to the worker's pipe through an asyncio transport (buffered: the loop never blocks on
a full pipe) and reads the results when their pipe is readable, framed as
:class:`multiprocessing.connection.Connection` frames its messages (which is what the worker uses), so
a job costs the server process one pickling and one unpickling on the loop and nothing else.

A large answer (a long game's replay, ``BIG_ANSWER``) is unpickled in a thread instead, so that the loop
goes on answering meanwhile.  A worker that dies fails the jobs it held with :class:`WorkerDied`; the
next job starts a new one, as it does after a start that failed.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import multiprocessing
import os
import pickle
import struct
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

_SIZE = struct.Struct("!i")
"""A frame's header: its length (``Connection``'s framing; ``-1`` then a ``!Q`` length for 2 GiB or more)."""
_LONG = struct.Struct("!Q")
_ID = struct.Struct("!Q")
"""A result's job number, before its pickle: a result that cannot be unpickled still fails its job."""


BIG_ANSWER = 256 * 1024
"""An answer at least this large (in bytes) is unpickled in a thread, not on the event loop."""


class WorkerDied(RuntimeError):
    """The worker process stopped while it held the job."""


def _serve(jobs: Connection, results: Connection, initializer: Callable[[], None] | None) -> None:
    """The worker's loop: run each job in order, send back its result or its exception."""
    if initializer is not None:
        initializer()
    while True:
        try:
            data = jobs.recv_bytes()
        except EOFError:  # the server closed its end: stop
            return
        job, fn, args = pickle.loads(data)
        try:
            out: tuple[bool, Any] = (True, fn(*args))
        except BaseException as e:  # the job's own failure goes back to its caller
            out = (False, e)
        try:
            payload = pickle.dumps(out, pickle.HIGHEST_PROTOCOL)
        except Exception as e:  # a result or exception that does not pickle: say so instead
            payload = pickle.dumps((False, RuntimeError(f"the worker's answer does not pickle: {e!r}")))
        results.send_bytes(_ID.pack(job) + payload)


def _unpickle(frame: bytes) -> tuple[bool, Any]:
    """A result frame's (ok, value): a frame that does not unpickle is a failure of its job."""
    try:
        ok, value = pickle.loads(frame[_ID.size :])
    except Exception as e:  # e.g. an exception whose class cannot be rebuilt here
        return False, RuntimeError(f"the worker's answer does not unpickle: {e!r}")
    return ok, value


def _settle(done: asyncio.Future[Any], answer: tuple[bool, Any]) -> None:
    """Give a job's caller its answer (unless it stopped waiting)."""
    if done.done():
        return
    ok, value = answer
    if ok:
        done.set_result(value)
    else:
        done.set_exception(value)


class _Results(asyncio.Protocol):
    """The loop's end of the results pipe: cuts the stream into frames and hands each to its job."""

    def __init__(self, worker: PipeWorker) -> None:
        self.worker = worker
        self.buf = bytearray()

    def data_received(self, data: bytes) -> None:
        self.buf += data
        while len(self.buf) >= _SIZE.size:
            (size,) = _SIZE.unpack_from(self.buf)
            start = _SIZE.size
            if size == -1:
                if len(self.buf) < start + _LONG.size:
                    return
                (size,) = _LONG.unpack_from(self.buf, start)
                start += _LONG.size
            if len(self.buf) < start + size:
                return
            frame = bytes(self.buf[start : start + size])
            del self.buf[: start + size]
            self.worker._answered(frame)

    def connection_lost(self, exc: Exception | None) -> None:
        self.worker._lost(self)


def _file(conn: Connection, mode: str) -> Any:
    """``conn``'s pipe as an unbuffered file (what asyncio's pipe transports take); ``conn`` is closed."""
    fd = os.dup(conn.fileno())
    conn.close()
    return os.fdopen(fd, mode, buffering=0)


class PipeWorker:
    """One worker process; jobs run in it one at a time, in the order they were sent.

    Use it from one event loop.  The process starts on :meth:`start` or the first :meth:`run`."""

    def __init__(self, initializer: Callable[[], None] | None = None) -> None:
        self.initializer = initializer
        self._process: Any = None
        self._jobs: asyncio.WriteTransport | None = None
        self._results: asyncio.ReadTransport | None = None
        self._reader: _Results | None = None
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._numbers = itertools.count()
        self._ready: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the process now, in the background (importing the rules takes it a second or more);
        call it on the event loop that will send the jobs.  A start that failed is tried again: it
        fails only the jobs that waited for it."""
        failed = self._ready is not None and self._ready.done() and not self._ready.cancelled()
        if self._ready is None or (failed and self._ready.exception() is not None):
            self._ready = asyncio.get_running_loop().create_task(self._start())

    async def _start(self) -> None:
        loop = asyncio.get_running_loop()
        ctx = multiprocessing.get_context("spawn")  # never fork: the server runs threads
        jobs_in, jobs_out = ctx.Pipe(duplex=False)
        results_in, results_out = ctx.Pipe(duplex=False)
        process = ctx.Process(
            target=_serve, args=(jobs_in, results_out, self.initializer), daemon=True, name="ludorum-worker"
        )
        process.start()
        jobs_in.close()
        results_out.close()
        self._process = process
        self._jobs, _ = await loop.connect_write_pipe(asyncio.BaseProtocol, _file(jobs_out, "wb"))
        reader = self._reader = _Results(self)
        self._results, _ = await loop.connect_read_pipe(lambda: reader, _file(results_in, "rb"))

    async def run(self, fn: Callable[..., Any], *args: Any, bulky: bool = False) -> Any:
        """``fn(*args)`` in the worker process (both must pickle); its exception is raised here.
        ``bulky``: the arguments may be large (an uploaded record), so they are pickled in a thread."""
        self.start()
        assert self._ready is not None
        await asyncio.shield(self._ready)
        number = next(self._numbers)
        job = (number, fn, args)
        if bulky:
            data = await asyncio.to_thread(pickle.dumps, job, pickle.HIGHEST_PROTOCOL)
        else:
            data = pickle.dumps(job, pickle.HIGHEST_PROTOCOL)
        if self._jobs is None or self._jobs.is_closing():
            raise WorkerDied("the worker process is not running")
        header = _SIZE.pack(len(data)) if len(data) < 2**31 else _SIZE.pack(-1) + _LONG.pack(len(data))
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[number] = done
        self._jobs.write(header + data)
        return await done

    def _answered(self, frame: bytes) -> None:
        (number,) = _ID.unpack_from(frame)
        done = self._pending.pop(number, None)
        if done is None or done.done():
            return
        if len(frame) < BIG_ANSWER:
            _settle(done, _unpickle(frame))
            return
        # A long game's replay: unpickled in a thread, which yields the GIL every few milliseconds, so
        # the loop goes on answering meanwhile.
        later = asyncio.get_running_loop().run_in_executor(None, _unpickle, frame)
        later.add_done_callback(lambda f: done.cancel() if f.cancelled() else _settle(done, f.result()))

    def _lost(self, reader: _Results) -> None:
        """A results pipe closed.  If it was this process's, the worker stopped: its jobs fail, and the
        next job starts another (a pipe closed by :meth:`close` is an old one: nothing to do)."""
        if reader is not self._reader:
            return
        code = None
        if self._process is not None:
            self._process.join(1)  # its pipe closes as it exits, just before its exit code is known
            code = self._process.exitcode
        for done in self._pending.values():
            if not done.done():
                done.set_exception(WorkerDied(f"the worker process stopped (exit code {code})"))
        self._pending.clear()
        self.close()

    def close(self) -> None:
        """Stop the process (a job under way is abandoned); the next :meth:`run` starts another."""
        for transport in (self._jobs, self._results):
            if transport is not None:
                transport.close()
        self._jobs = self._results = self._reader = None
        self._ready = None
        process, self._process = self._process, None
        if process is not None:
            with contextlib.suppress(Exception):
                process.terminate()
                process.join(1)
        for done in self._pending.values():
            done.cancel()
        self._pending.clear()
