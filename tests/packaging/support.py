"""Starting a ``ludorum`` command that serves, in a subprocess, and reading the pages it serves."""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import httpx


@contextmanager
def served(argv: list[str], env: Mapping[str, str]) -> Iterator[str]:
    """Run ``argv`` (``ludorum start`` or ``serve``) until the block ends; yield the URL it prints, once
    it answers."""
    proc = subprocess.Popen(argv, env=dict(env), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"open (http://127\.0\.0\.1:[1-9]\d*/)", line)
        assert match, line if proc.poll() is None else line + proc.stdout.read()
        url = match.group(1)
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(url, timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and proc.poll() is None, "the server did not answer"
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def check_lobby(url: str) -> None:
    """The lobby page, a static asset it loads and the game catalog are served."""
    page = httpx.get(url, timeout=10)
    assert page.status_code == 200 and "Ludorum" in page.text, page.text[:500]
    scripts = re.findall(r'src="/(static/[^"]+\.js)"', page.text)
    assert "static/lobby.js" in scripts, scripts
    for script in scripts:
        asset = httpx.get(url + script, timeout=10)
        assert asset.status_code == 200 and asset.text.strip(), script
    catalog = httpx.get(url + "api/catalog", timeout=10)
    assert catalog.status_code == 200 and "reliquium" in catalog.text
