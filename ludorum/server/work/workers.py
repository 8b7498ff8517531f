"""The work a step leaves behind, in worker processes, so that it never runs on the event loop.

Deciding what each observer may read of a step (``disclosure.disclose``) draws states of every
observer's information set and plays alternatives in them: a few milliseconds a step, tens on Legends
of Signum.  Replaying a stored game to resume it costs that for every step.  Both are pure functions of
pickled game objects, so they run in a :class:`~ludorum.server.work.pool.Pool` of worker processes — in
parallel with the server, outside its GIL; the jobs of one game always go to the same worker, in order.
"""

from __future__ import annotations

import os
from typing import Any

from ludorum.engine import Action, Game, GameState, Record, disclosure, replay_states
from ludorum.engine.disclosure import LogEntry, Step
from ludorum.engine.record import TIMEOUT
from ludorum.server.store.archive import EncodedViews, encode_views
from ludorum.server.work.pool import Pool

WORKERS_ENV = "LUDORUM_WORKERS"
"""The environment setting for the number of worker processes (``0``: threads)."""


def default_workers() -> int:
    """``LUDORUM_WORKERS`` if set, else one per core but one (at least one)."""
    raw = os.environ.get(WORKERS_ENV, "").strip()
    if raw:
        try:
            value = int(raw)
        except ValueError:
            raise ValueError(f"{WORKERS_ENV} is a whole number of worker processes, not {raw!r}") from None
        if value < 0:
            raise ValueError(f"{WORKERS_ENV} is a whole number of worker processes, not {raw!r}")
        return value
    return max(1, (os.cpu_count() or 2) - 1)


WORKER_NICENESS = 5
"""How much lower the workers' scheduling priority is than the server's.  Writing a job to a worker's
pipe wakes it, and the kernel tends to run the woken process on the writer's core at once: at the same
priority it preempted the event loop for 80-100 us a step in the 8-game bench; niced, it waits for the
loop to sleep (about 45 us; docs/server.md).  Less than the search bots' 10: the other seats wait for a
step's readings."""


Labels = list[tuple[Action, str]]
"""A seat's legal actions with their safe labels (``disclosure.safe_labels``)."""


def disclose_step(step: Step, label: int | None = None) -> tuple[LogEntry, EncodedViews, Labels | None]:
    """The step's log entry with every observer's reading (``disclosure.disclose``), what the game
    looks like afterwards to each observer (kept so that the game can be shown without a replay, and
    sent as it is in the pushes of that state; encoded here, off the server's GIL), and the safe labels
    of seat ``label``'s legal actions after it (``None``: not asked).  The server asks for them when a
    human who did not take the step decides next: that seat is sent its turn only once this step's
    readings are decided, so finding its labels here delays nobody and takes a millisecond (the
    information set's draws) off the event loop."""
    game = step.game
    entry = disclosure.disclose(step)
    labels = None if label is None else disclosure.safe_labels(game, step.after, label)
    return entry, encode_views(game, step.after), labels


def replay(game: Game[Any], record: Record) -> tuple[GameState, list[LogEntry]]:
    """Replay ``record`` (refusing another rules version): the last state and every step's entry."""
    states = list(replay_states(game, record))
    entries = [
        disclosure.timeout_entry(game, i, states[i], action)
        if seat == TIMEOUT
        else disclosure.disclose(Step(game, i, states[i], seat, action, states[i + 1]))
        for i, (seat, action) in enumerate(record.steps)
    ]
    return states[-1], entries


class Workers(Pool):
    """``workers`` worker processes (``0``: threads; by default :func:`default_workers`) for
    disclosures and replays."""

    def __init__(self, workers: int | None = None) -> None:
        super().__init__(default_workers() if workers is None else workers, WORKER_NICENESS)

    async def disclose(
        self, key: str, step: Step, label: int | None
    ) -> tuple[LogEntry, EncodedViews, Labels | None]:
        """:func:`disclose_step` of ``step`` (and seat ``label``'s labels) off the loop."""
        return await self.run(key, disclose_step, step, label)

    async def replay(self, key: str, game: Game[Any], record: Record) -> tuple[GameState, list[LogEntry]]:
        """:func:`replay` off the event loop (the record, up to an upload's 1 MiB, pickled off it too)."""
        return await self.run(key, replay, game, record, bulky=True)
