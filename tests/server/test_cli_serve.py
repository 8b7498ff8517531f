"""`make play` (= `ludorum start`): the server on 127.0.0.1 with the embedded database, printing its URL."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx


def test_start_serves_the_lobby_on_localhost_with_sqlite_in_the_data_dir(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "HOME": str(tmp_path), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "ludorum", "start"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"open (http://127\.0\.0\.1:\d+/)", line)
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
