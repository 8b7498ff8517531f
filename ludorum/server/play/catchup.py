"""Catching up with other server processes on the same PostgreSQL (``store/fanout.py`` brings their news).

When another process took a step of a game held here, the game is caught up from the database step by
step (``Ledger.refresh``: no replay), in one task per game; news that arrives while a game is being
caught up makes that task go round once more, so no step goes unheard and no game is caught up twice at
once.  A game caught up is an event for whoever listens (:meth:`CatchUp.on_moved`: the play core, which
lets its bots and chance move).  Every ``TAKE_OVER`` seconds the games whose bots or chance no process
moves are moved on (the process driving one died, and its drive lock went with its session), and every
``ADOPT_ROUNDS`` looks the all-bot games that no process holds at all are loaded here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection, Mapping

from ludorum.engine import CHANCE
from ludorum.server.play.ledger import Ledger
from ludorum.server.play.live import LiveGame

log = logging.getLogger("ludorum.server")

TAKE_OVER = 2.0
"""Seconds between two looks (PostgreSQL) for games here whose bots or chance no process moves: the
process driving one died, its drive lock went with its session, and one of the others takes over."""

ADOPT_ROUNDS = 5
"""Every this many of those looks, a process also loads the all-bot games that no process drives (their
driver died, and no other process held them: nothing else would ever load them)."""


class CatchUp:
    """The news of other processes for the unfinished ``games`` held here, caught up by ``ledger``."""

    def __init__(self, games: Mapping[str, LiveGame], ledger: Ledger) -> None:
        self.games = games
        self.ledger = ledger
        self._moved: Callable[[LiveGame], None] = lambda live: None
        self._stale: set[str] = set()  # games another process changed since they were last caught up
        self.tasks: dict[str, asyncio.Task[None]] = {}
        """The catching up under way, by game id."""

    def on_moved(self, moved: Callable[[LiveGame], None]) -> None:
        """Listen for the games that may move on here now (caught up, or whose driver went away):
        ``moved(live)`` lets their bots and chance move (one listener)."""
        self._moved = moved

    def news(self, game_id: str, version: int | None) -> None:
        """Another server process took a step of ``game_id`` that made ``version`` (``None``: changed a
        seat): catch the game up from the database, if this process holds it, and push."""
        live = self.games.get(game_id)
        if live is None or (version is not None and live.version >= version):
            return  # not held here (it loads from the database when asked for), or already caught up
        self._stale.add(game_id)
        if game_id not in self.tasks:
            self.tasks[game_id] = asyncio.get_running_loop().create_task(self._catch_up(live))

    def all(self) -> None:
        """Catch up every unfinished game held here (news may have been missed)."""
        for game_id in list(self.games):
            self.news(game_id, None)

    async def _catch_up(self, live: LiveGame) -> None:
        try:
            while live.id in self._stale:  # news that came while catching up: once more
                self._stale.discard(live.id)
                async with live.lock:
                    await self.ledger.refresh(live)
            self._moved(live)  # a bot or chance may move here now (or, at the end, a drive lock goes)
        except Exception:  # one game must not stop the news of the others
            log.exception("game %s: could not catch up with another server process", live.id)
        finally:
            # no await since the last look at _stale: news arriving from now on starts a new task
            self.tasks.pop(live.id, None)

    async def take_over(
        self,
        undriven: Callable[[], Awaitable[Collection[str]]],
        load: Callable[[str], Awaitable[object]],
    ) -> None:
        """Forever: kick the games whose bots or chance should move (a kicked game with an advancer
        running is left alone; one without tries the drive lock), and now and then ``load`` the
        all-bot games that ``undriven()`` finds no process drives."""
        rounds = 0
        while True:
            await asyncio.sleep(TAKE_OVER)
            for live in list(self.games.values()):
                mover = live.to_move()
                if mover is not None and (mover == CHANCE or live.seats[mover].kind == "bot"):
                    self._moved(live)
            rounds += 1
            if rounds % ADOPT_ROUNDS == 0:
                try:
                    for game_id in await undriven():
                        await load(game_id)
                except Exception:  # the next round tries again
                    log.exception("could not look for all-bot games that no process drives")
