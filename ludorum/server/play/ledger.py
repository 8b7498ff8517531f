"""The games held in memory follow what is stored: a step stored (here or by another server process), a
game replayed again, a clock started or stopped.

Nothing here decides whether a step may be taken (that is the play core's, ``hub.py``): every change
applied here is already committed to the database.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ludorum.engine import Action, LudorumError
from ludorum.engine.disclosure import Step, timeout_entry
from ludorum.engine.record import TIMEOUT
from ludorum.server.play.clocks import Clock
from ludorum.server.play.games import Games
from ludorum.server.play.live import LiveGame, provisional_entry
from ludorum.server.play.loading import Loader
from ludorum.server.play.readings import Readings
from ludorum.server.play.watch import ClockWatch
from ludorum.server.store.archive import archive_views, entry_json
from ludorum.server.store.db import Store
from ludorum.server.store.tables import SeatData

log = logging.getLogger("ludorum.server")


class Ledger:
    """Applies what ``store`` holds to the ``games`` held here."""

    def __init__(
        self,
        store: Store,
        games: Games,
        loader: Loader,
        readings: Readings,
        clocks: ClockWatch,
        clock: Clock,
    ) -> None:
        self.store = store
        self.games = games
        self.loader = loader
        self.readings = readings
        self.clocks = clocks
        self.clock = clock

    def take(
        self,
        live: LiveGame,
        step: Step,
        archive: bool = True,
        handover: SeatData | None = None,
        clock: dict[str, Any] | None = None,
    ) -> None:
        """``step`` (the next of ``live``) is stored — by this process, or by another (``archive=False``):
        apply it in memory, with a provisional log entry, the seat it handed to a bot and the clocks
        stored with it, and have its readings decided (a ``TIMEOUT`` step needs none)."""
        live.state = step.after
        live.steps.append((step.actor, step.action))
        timeout = step.actor == TIMEOUT
        live.log.append(
            timeout_entry(live.game, step.index, step.before, step.action)
            if timeout
            else (provisional_entry(step))
        )
        if handover is not None:
            live.seats[handover.seat] = handover
            live.bots.pop(handover.seat, None)
        if live.clock is not None and clock is not None:
            live.clock.commit(clock)
            self.clocks.watch(live)
        if live.over:  # every step is public now: the last one's readings wait for no one
            self.games.finish(live)
        if not timeout:
            self.readings.decide(live, step, archive)
        elif archive:  # archived like every step (a game is shown by its archive if its rules change)
            views = archive_views(live.game, step.after)
            self.store.archive(live.id, step.index, entry_json(live.log[step.index]), views)

    async def refresh(self, live: LiveGame) -> None:
        """Catch up (lock held) with the steps and seats that another server process stored: the new
        steps are applied one by one (no replay of the whole game), and pushed."""
        seats, steps, clock_state = await asyncio.to_thread(self.store.since, live.id, live.version)
        if not seats:  # the game is gone from the database: nothing to catch up with
            return
        moved = seats != live.seats
        if moved:
            live.seats = seats
            live.bots.clear()
        try:
            for seat, action_json in steps:
                if live.over:
                    break
                action = Action.from_json(action_json)
                # a timeout changes no state (the seat it hands to a bot came with the seats above)
                after = live.state if seat == TIMEOUT else live.game.step(live.state, action)
                self.take(live, Step(live.game, live.version, live.state, seat, action, after), archive=False)
        except LudorumError:  # not what this process holds in memory: start again from the record
            log.exception("game %s: another process's step does not apply here; reloading", live.id)
            await self.reload(live)
        if live.clock is not None and clock_state is not None:  # as stored with the last step
            live.clock.commit(clock_state)
            live.clock.state.settle(live.clock.spec, live.clocked(), self.clock.now())
            self.clocks.watch(live)
        live.push_all(force=moved)

    async def reload(self, live: LiveGame) -> None:
        """Replace (lock held) the game held in memory by its replay from the database."""
        await self.loader.reload(live)
        self.clocks.watch(live)
        if live.over:  # the steps it missed ended the game
            self.games.finish(live)

    async def resettle_clock(self, live: LiveGame) -> None:
        """A seat was taken or left (lock held): start or stop the deciding seat's clock, durably."""
        if live.clock is not None and not live.over:
            state = live.clock.resettle(live.clocked())
            if state is not None:
                await asyncio.to_thread(self.store.set_clock, live.id, state)
            self.clocks.watch(live)
