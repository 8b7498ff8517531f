"""Loading stored games into memory: a game is replayed from its record when first asked for.

A replay discloses every step, so it runs in a worker (:class:`Replayer`), off the event loop.  A game
stored under another rules version is never replayed: it is shown as it was played (``RetiredGame``).
A game that cannot be replayed is remembered as broken, with the reason, and reported to whoever asks.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from ludorum.engine import Action, Config, Game, GameState, LudorumError, Record, Registry
from ludorum.engine.disclosure import LogEntry
from ludorum.engine.i18n import T
from ludorum.server.errors import ApiError
from ludorum.server.play.clocks import Clock, GameClock
from ludorum.server.play.games import Games, keep
from ludorum.server.play.live import LiveGame
from ludorum.server.store.db import Store
from ludorum.server.store.retired import RetiredGame, other_rules_message, retire
from ludorum.server.store.tables import SeatData, StoredGame

log = logging.getLogger("ludorum.server")


class Replayer(Protocol):
    """Where records are replayed (``work.workers.Workers``)."""

    async def replay(self, key: str, game: Game[Any], record: Record) -> tuple[GameState, list[LogEntry]]:
        """The last state of ``record`` and every step's log entry (``key``: the game's id)."""
        ...


def no_such_game() -> ApiError:
    """The refusal of a game id that names no game."""
    return ApiError(404, "no_such_game", T("there is no game with this id"))


def _unresumable(reason: str) -> ApiError:
    return ApiError(409, "unresumable", T("this game cannot be resumed: {reason}", reason=reason))


class Loader:
    """Brings stored games into ``games``, replayed by ``replayer``; their clocks read ``clock``."""

    def __init__(
        self, registry: Registry, store: Store, replayer: Replayer, clock: Clock, games: Games
    ) -> None:
        self.registry = registry
        self.store = store
        self.replayer = replayer
        self.clock = clock
        self.games = games
        self._loading: dict[str, asyncio.Lock] = {}

    async def look(self, game_id: str) -> tuple[LiveGame | RetiredGame, bool]:
        """The game ``game_id`` for viewing — live (loaded from the database when needed) or retired —
        and whether this call loaded it among the games played (it must start playing)."""
        live = self.games.held(game_id)
        if live is not None:
            return live, False
        if len(game_id) > 32 or not game_id.isalnum():
            raise no_such_game()
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        try:
            return await self._load(game_id, lock)
        finally:
            if not lock.locked():
                self._loading.pop(game_id, None)

    async def _load(self, game_id: str, lock: asyncio.Lock) -> tuple[LiveGame | RetiredGame, bool]:
        async with lock:
            live = self.games.held(game_id)
            if live is not None:
                return live, False
            if game_id in self.games.broken:
                raise _unresumable(self.games.broken[game_id])
            if game_id in self.games.retired:
                return self.games.retired[game_id], False
            stored = await asyncio.to_thread(self.store.load, game_id)
            if stored is None:
                raise no_such_game()
            if stored.game in self.registry:
                game = self.registry.get(stored.game)
                if stored.rules_version != game.rules_version:
                    return keep(self.games.retired, retire(stored, game)), False
            live = await self._revive(stored)  # a replay: in a worker, off the event loop
            if live is None:
                raise _unresumable(self.games.broken[game_id])
            self.games.hold(live)
            return live, not live.over

    async def replayed(
        self, game: Game[Any], game_id: str, record: Record, seats: list[SeatData]
    ) -> LiveGame:
        """The game replayed from ``record`` in a worker (a replay discloses every step: off the loop)."""
        state, entries = await self.replayer.replay(game_id, game, record)
        return LiveGame(game_id, game, record.config, record.seed, seats, state, list(record.steps), entries)

    async def _revive(self, stored: StoredGame) -> LiveGame | None:
        try:
            if stored.game not in self.registry:
                raise LudorumError(f"no game called {stored.game!r} is installed")
            game = self.registry.get(stored.game)
            if stored.rules_version != game.rules_version:  # never replayed under other rules
                raise LudorumError(other_rules_message(game.title, stored.rules_version, game.rules_version))
            steps = [(seat, Action.from_json(a)) for seat, a in stored.steps]
            record = Record(stored.game, Config.from_json(stored.config), stored.seed, steps)
            live = await self.replayed(game, stored.id, record, stored.seats)
        except LudorumError as e:
            log.error("game %s cannot be resumed: %s", stored.id, e)
            self.games.broken[stored.id] = str(e)
            return None
        live.rematch_of, live.created = stored.rematch_of, stored.created
        live.seed_chosen = stored.seed_chosen
        self._restore_clock(live, stored)
        return live

    def _restore_clock(self, live: LiveGame, stored: StoredGame) -> None:
        """Give a loaded game its stored clocks (they go on counting from the stored start)."""
        if stored.clock is not None:
            live.clock = GameClock.restore(
                stored.clock, stored.clock_state, live.config.players, live.clocked(), self.clock
            )

    async def reload(self, live: LiveGame) -> None:
        """Replace (lock held) the game held in memory by its replay from the database."""
        stored = await asyncio.to_thread(self.store.load, live.id)
        fresh = None if stored is None else await self._revive(stored)
        if stored is None or fresh is None:
            return
        for f in live.pending.values():  # the fresh log is complete
            if not f.done():
                f.set_result(None)
        live.pending.clear()
        live.seats, live.state, live.steps, live.log = stored.seats, fresh.state, fresh.steps, fresh.log
        live.bots.clear()
        if live.clock is not None:  # as stored, for the game as it now stands
            self._restore_clock(live, stored)
