"""The server benchmark drives real games through the API and reports consistent figures."""

from __future__ import annotations

import math
from pathlib import Path

from ludorum.lab.server_bench import server_bench


def test_server_bench_plays_games_through_the_api() -> None:
    f = server_bench(None, games=2, seconds=2.0, registry_ref="tests.server.support:fixture_registry")
    assert f.game == "sealed-bids" and f.games == 2
    assert f.actions > 0 and math.isclose(f.actions_per_s, f.actions / f.seconds)
    assert 0 < f.ack_p50_ms <= f.ack_p99_ms
    assert f.sqlite_commit_p50_ms > 0 and f.sqlite_commits_per_s > 0
    assert "actions/s" in f.line() and "bare SQLite commit" in f.line()
    if Path("/proc/self/stat").exists():  # the CPU each action costs the server (Linux)
        assert 0 < f.loop_cpu_ms <= f.server_cpu_ms and f.workers_cpu_ms >= 0
        assert "event loop" in f.line()


def test_server_bench_runs_under_a_callers_event_loop() -> None:
    """Playwright's sync API (or a notebook) keeps a loop running in the caller's thread."""
    import asyncio
    import threading

    async def inside() -> float:
        f = server_bench(None, games=1, seconds=0.5, registry_ref="tests.server.support:fixture_registry")
        return f.actions_per_s

    # A thread of the test's own: pytest's may already hold Playwright's loop (browser tests).
    results: list[float] = []
    thread = threading.Thread(target=lambda: results.append(asyncio.run(inside())))
    thread.start()
    thread.join(timeout=120)
    assert results and results[0] > 0
