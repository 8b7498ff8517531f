"""Deciding, after a step is acknowledged, what every other observer may read of it.

The step's actor is answered at once with a provisional log entry; a worker (:class:`Discloser`)
decides everyone else's readings and the views after the step, which are then archived (a game is shown
by its archive if its rules change) and pushed.  An observer never sees a step before its reading is
decided: ``LiveGame.pending`` holds the step until then.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from ludorum.engine import Action
from ludorum.engine.disclosure import LogEntry, Step
from ludorum.server.play.live import LiveGame
from ludorum.server.store.archive import EncodedViews, entry_json
from ludorum.server.store.db import Store

log = logging.getLogger("ludorum.server")


class Discloser(Protocol):
    """Where a step's readings are decided (``work.workers.Workers``)."""

    async def disclose(
        self, key: str, step: Step, label: int | None
    ) -> tuple[LogEntry, EncodedViews, list[tuple[Action, str]] | None]:
        """The step's entry, the views after it, and seat ``label``'s safe labels (``None``: not asked)."""
        ...


class Readings:
    """Decides the readings of the steps taken here with ``discloser``, and archives them in ``store``."""

    def __init__(self, discloser: Discloser, store: Store) -> None:
        self.discloser = discloser
        self.store = store
        self._tasks: set[asyncio.Task[None]] = set()

    def decide(self, live: LiveGame, step: Step, archive: bool) -> None:
        """Have a worker decide what every observer reads of ``step`` (just applied to ``live``), and
        the labels of the human seat deciding next unless it took the step (its ack needs them now);
        ``archive``: this process took the step, so it archives the readings and views."""
        if not live.over:
            live.pending[step.index] = asyncio.get_running_loop().create_future()
        label = live.human_to_move()
        task = asyncio.get_running_loop().create_task(
            self._disclose(live, step, archive, None if label == step.actor else label)
        )
        self._tasks.add(task)  # held until done: the loop keeps only a weak reference
        task.add_done_callback(self._tasks.discard)

    async def _disclose(self, live: LiveGame, step: Step, archive: bool, label: int | None) -> None:
        index = step.index
        entry: LogEntry | None = None
        try:
            entry, views, labels = await self.discloser.disclose(live.id, step, label)
            if labels is not None:
                live.labelled(index + 1, step.after, labels)
            live.encoded_views(step.after, views)
            if archive:
                self.store.archive(live.id, index, entry_json(entry), views.archive())
        except Exception:  # a faulty game must not stall the log: the step stays secret to the others
            log.exception("game %s: the readings of step %d could not be decided", live.id, index)
        finally:
            done = live.pending.pop(index, None)
        if entry is not None and index < len(live.log) and live.log[index].action == step.action:
            live.log[index] = entry
        if done is not None and not done.done():
            done.set_result(None)
        live.push_all()

    async def finish(self, seconds: float) -> None:
        """Wait up to ``seconds`` for the readings under way (a stopping server archives them: an
        upgrade shows games by them)."""
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=seconds)
