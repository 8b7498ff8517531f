"""Helpers for the server tests: the fixture registry, a temporary PostgreSQL, a live server thread."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from glob import glob
from pathlib import Path
from typing import IO, Any

import httpx
import uvicorn

from ludorum.engine import Registry
from ludorum.server import create_app
from ludorum.server.run import uvicorn_config
from tests.fixtures.sealed_bids import SealedBids

TOKEN_BODY = {"X-Ludorum-Token": "body"}

ROOT = Path(__file__).resolve().parents[2]


def fixture_registry() -> Registry:
    """A registry holding only the fixture game (tests never depend on the product games)."""
    reg = Registry()
    reg.register(SealedBids())
    return reg


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def new_game_body(
    players: int = 2, seats: list[dict[str, Any]] | None = None, claim: int | None = 0
) -> dict[str, Any]:
    """A create-game request for Sealed Bids."""
    return {
        "game": "sealed-bids",
        "config": {"players": players},
        "seats": seats or [{"kind": "human"}] * players,
        "claim": claim,
    }


def bearer(token: str) -> dict[str, str]:
    """The Authorization header for a seat token."""
    return {"Authorization": f"Bearer {token}"}


class TempPostgres:
    """A throw-away PostgreSQL cluster (initdb + pg_ctl), run as the ``postgres`` user when we are root."""

    def __init__(self) -> None:
        bins = sorted(glob("/usr/lib/postgresql/*/bin/initdb"))
        if not bins:
            raise RuntimeError("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb)")
        self.bin = Path(bins[-1]).parent
        self.dir = Path(tempfile.mkdtemp(prefix="ludorum-pg-"))
        self.port = free_port()
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = "postgres"
            pw = pwd.getpwnam(self.user)
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        self.counter = 0

    def _run(self, *args: str) -> None:
        cmd = list(args)
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)

    def start(self) -> None:
        """Create and start the cluster."""
        data = self.dir / "data"
        self._run(str(self.bin / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8")
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=on"
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(data), "-o", opts, "-l", str(self.dir / "log"), "-w", "start"
        )

    def stop(self) -> None:
        """Stop the cluster and remove its files."""
        with contextlib.suppress(Exception):
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "immediate", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)

    def new_database(self) -> str:
        """A fresh empty database; returns its SQLAlchemy URL."""
        import psycopg

        self.counter += 1
        name = f"ludorum_test_{self.counter}"
        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True
        ) as c:
            c.execute(f"CREATE DATABASE {name}")
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"


class LiveServer:
    """The app served by uvicorn in a background thread, on a free port."""

    def __init__(self, database_url: str, registry: Registry | None = None, **kwargs: Any) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        app = create_app(registry or fixture_registry(), database_url, **kwargs)
        self.server = uvicorn.Server(uvicorn_config(app, "127.0.0.1", self.port))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


@contextlib.contextmanager
def live_server(database_url: str, **kwargs: Any) -> Iterator[LiveServer]:
    """A live server for the duration of a ``with`` block."""
    with LiveServer(database_url, **kwargs) as srv:
        yield srv


@contextlib.contextmanager
def server_process(
    url: str, port: int, delay: float = 0.0, stderr: IO[bytes] | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """A server process for the fixture game (``fixture_server.py``) on ``port``, running until the
    block ends (killed then if still alive); ``stderr`` receives what it logs."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.server.fixture_server", str(port), url, str(delay)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stderr=stderr,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/catalog", timeout=1)
                break
            except httpx.TransportError:
                assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)
