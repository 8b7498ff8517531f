"""`make play` (= `ludorum start`): the server on 127.0.0.1 with the embedded database, printing its URL."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest


@pytest.mark.parametrize("command", [["start"], ["serve", "--port", "0"]])
def test_start_serves_the_lobby_on_localhost_with_sqlite_in_the_data_dir(
    command: list[str], tmp_path: Path
) -> None:
    """``start`` (``make play``), and ``serve`` on any free port: the URL printed is the one served (port 0
    was printed as ``:0``)."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "HOME": str(tmp_path), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "ludorum", *command],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"open (http://127\.0\.0\.1:[1-9]\d*/)", line)
        assert match, line
        url = match.group(1)
        deadline = time.monotonic() + 30
        while True:
            try:
                page = httpx.get(url, timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.1)
        assert page.status_code == 200 and "Ludorum" in page.text and "lobby.js" in page.text
        assert httpx.get(url + "api/catalog").status_code == 200
        assert httpx.get(url + "docs").status_code == 200  # the OpenAPI documentation
        assert (tmp_path / "ludorum" / "ludorum.sqlite3").exists()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_serve_freezes_what_start_up_made_before_it_serves(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Full collections walk only what serving makes (docs/server.md, the GC's pauses): the freeze
    # comes after the app and the migrations, before uvicorn answers anything.
    import gc

    import uvicorn

    from ludorum.server import run
    from ludorum.server.http.app import MAX_WS_MESSAGE

    calls: list[str] = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))

    def serving(server: uvicorn.Server) -> None:
        assert server.config.ws_max_size == MAX_WS_MESSAGE  # run.uvicorn_config's settings
        calls.append("serve")

    monkeypatch.setattr(uvicorn.Server, "run", serving)
    run.serve(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", announce=False)
    assert calls == ["freeze", "serve"]
