"""The server process's garbage collector: full collections, which walk every game kept in memory and
held the event loop for tens of milliseconds, are made rarely."""

from __future__ import annotations

import subprocess
import sys

PROGRAM = """
import gc, sys
from ludorum.server.run import settle_memory
if sys.argv[1] == "settled":
    settle_memory()
else:  # what the server did before: start-up frozen, Python's thresholds
    gc.collect()
    gc.freeze()
full = []
gc.callbacks.append(lambda phase, info: phase == "stop" and info["generation"] == 2 and full.append(1))
kept = []
for step in range(150_000):
    kept.append({"index": step, "readings": {None: "label"}})  # a game's log grows, and is kept
    for _ in range(4):  # requests leave cycles behind (frames, futures), freed by the young collections
        cycle = [None]
        cycle[0] = cycle
print(len(full))
"""


def full_collections(mode: str) -> int:
    out = subprocess.run([sys.executable, "-c", PROGRAM, mode], capture_output=True, text=True, check=True)
    return int(out.stdout)


def test_full_collections_are_a_tenth_as_frequent_as_pythons_default() -> None:
    default, settled = full_collections("default"), full_collections("settled")
    assert default >= 5, default  # the workload makes Python's collector walk the whole heap again and again
    assert settled * 5 <= default, (settled, default)
