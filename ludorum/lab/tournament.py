"""Running a schedule's games through an executor into a results file, and summing up a tournament."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ludorum.lab.executors import Executor, Notify
from ludorum.lab.play import play_task
from ludorum.lab.ratings import head_to_head, standings
from ludorum.lab.results import Line, ResultsFile
from ludorum.lab.schedule import GameTask, Schedule
from ludorum.lab.stats import ClusteredTally, Rate

OnGame = Callable[[GameTask], None]


@dataclass
class Run:
    """What one run did: the tournament's lines so far (by index) and how they came to be."""

    lines: list[Line]
    total: int
    resumed: int
    played: int
    seconds: float
    notices: list[str] = field(default_factory=list)


def run_games(
    schedule: Schedule,
    games: int,
    results: ResultsFile,
    executor: Executor,
    on_start: Callable[[int, int], None] | None = None,
    on_game: OnGame | None = None,
    notify: Notify | None = None,
) -> Run:
    """Play the games of ``schedule`` not yet in ``results`` (``games`` rounded up to whole cycles).

    ``on_start(total, already)`` is called once the results file is checked, ``on_game`` after each
    game is written, ``notify`` with each lost worker.  Nothing is written before every game of the
    schedule has been validated and the results file accepted.
    """
    total = schedule.rounded(games)
    done = results.load()
    already = sum(1 for i in done if i < total)
    if on_start:
        on_start(total, already)
    notices: list[str] = []

    def tell(message: str) -> None:
        notices.append(message)
        if notify:
            notify(message)

    todo = [schedule.task(i) for i in range(total) if i not in done]
    start = time.perf_counter()
    for task, text in executor.run(todo, play_task, tell):
        results.append(text)
        done[task.index] = Line.parse(text, f"game {task.index}")
        if on_game:
            on_game(task)
    seconds = time.perf_counter() - start
    lines = [done[i] for i in sorted(done) if i < total]
    return Run(lines, total, already, len(todo), seconds, notices)


def seat_rates(lines: list[Line], players: int) -> list[Rate]:
    """Each seat's win share over the lines, against the fair share ``1/players``, clustered by seed (the
    games of one rotation cycle share theirs: :mod:`ludorum.lab.stats`)."""
    wins = [ClusteredTally() for _ in range(players)]
    for line in lines:
        if line.record.result is not None:
            for seat, share in enumerate(line.record.result.shares):
                wins[seat].add(line.record.seed, share)
    return [w.rate(1 / players) for w in wins]


def summary(schedule: Schedule, lines: list[Line]) -> dict[str, Any]:
    """The tournament's figures as JSON: standings, head-to-head matrix, seats, settings."""
    spec = schedule.spec
    return {
        "spec": spec.to_json(),
        "games": len(lines),
        "cycle": schedule.cycle,
        "standings": [s.to_json() for s in standings(spec.bots, lines)],
        "head_to_head": {
            a: {b: rate.to_json() for b, rate in row.items()}
            for a, row in head_to_head(spec.bots, lines).items()
        },
        "seats": [r.to_json() for r in seat_rates(lines, spec.players)],
    }
