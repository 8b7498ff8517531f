"""Stopping the server with SIGTERM (a service manager's stop): uvicorn shuts the app down, then ends the
process by the same signal, so nothing runs after the app's shutdown.  The search workers must be gone by
then: a worker that was still being told to stop outlived the server, and kept multiprocessing's resource
tracker (which then warned of "leaked semaphore objects") alive with it."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

from ludorum.server.run import free_port

PROGRAM = """
import asyncio, contextlib, os, signal, sys, threading
import uvicorn
from fastapi import FastAPI
from ludorum.server.work.pool import BotPool

@contextlib.asynccontextmanager
async def lifespan(app):  # as the server's
    pool = BotPool(workers=1)
    print(await pool.call("a game", os.getpid), flush=True)  # a worker, as once a search bot has played
    threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGTERM)).start()
    yield
    pool.shutdown()

if __name__ == "__main__":
    uvicorn.run(FastAPI(lifespan=lifespan), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_server_stopped_by_sigterm_leaves_no_search_worker() -> None:
    port = free_port("127.0.0.1", 0)
    with tempfile.TemporaryFile("w+") as err:  # not a pipe: a surviving worker would hold it open
        proc = subprocess.Popen(
            [sys.executable, "-c", PROGRAM, str(port)], stdout=subprocess.PIPE, stderr=err, text=True
        )
        assert proc.stdout is not None
        worker = int(proc.stdout.readline())
        proc.wait(timeout=60)
        deadline = time.monotonic() + 5
        while _running(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        survived = _running(worker)
        if survived:
            os.kill(worker, 9)
        err.seek(0)
        assert not survived, f"the search worker {worker} outlived the server: {err.read()}"
        assert "leaked" not in err.read()
