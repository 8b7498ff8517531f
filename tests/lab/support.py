"""Small tournaments for the lab's tests: random bots, few games, real games."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from ludorum.lab.executors import Executor, SerialExecutor
from ludorum.lab.play import play_task
from ludorum.lab.results import ResultsFile
from ludorum.lab.schedule import GameTask, Schedule, Spec
from ludorum.lab.tournament import Run, run_games

SMALL = Spec("reliquium", 2, ("random",), seed=5)
"""Reliquium for two with random bots: a cycle of 6 games (one per pair of factions)."""


def play(
    spec: Spec, games: int, path: Path, executor: Executor | None = None, notices: list[str] | None = None
) -> Run:
    """Run ``games`` games of ``spec`` into ``path``."""
    told = notices if notices is not None else []
    return run_games(
        Schedule(spec), games, ResultsFile(path, spec), executor or SerialExecutor(), notify=told.append
    )


MARKER: list[Path] = []
"""Where :func:`dying_play` leaves its marker (pickled along with it, for Ray workers)."""


def dying_play(task: GameTask) -> str:
    """Like ``play_task``, but the worker process dies the first time it plays game 3 (a marker file says)."""
    marker = MARKER[0]
    if task.index == 3 and not marker.exists():
        marker.write_text("died once")
        os._exit(1)
    return play_task(task)


def dying_play_at(marker: Path) -> Callable[[GameTask], str]:
    """:func:`dying_play` with its marker bound in a closure, which Ray pickles along with the function."""

    def play(task: GameTask) -> str:
        if task.index == 3 and not marker.exists():
            marker.write_text("died once")
            os._exit(1)
        return play_task(task)

    return play


def failing_play(task: GameTask) -> str:
    """Like ``play_task``, but game 2 raises, as a bug in a bot would."""
    if task.index == 2:
        raise ValueError("the bot chose nothing")
    return play_task(task)
