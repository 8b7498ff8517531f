"""The server's bots: each seat's bot, made once per game, and where it thinks.

Search bots think in worker processes (``work.pool.BotPool``), other bots in a thread, never on the
event loop; each sees only its seat's information set.  A bot that fails or chooses an illegal action
does not stall its game: a legal action is played instead, and the fault is logged.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from ludorum.agents import make_bot
from ludorum.engine import Action
from ludorum.engine.information import InformationSet
from ludorum.server.play.live import LiveGame
from ludorum.server.work.pool import BotPool

log = logging.getLogger("ludorum.server")

_Found = TypeVar("_Found")


class Bots:
    """Where the bots of one server process think: ``pool`` (``None``: every bot in a thread)."""

    def __init__(self, pool: BotPool | None = None) -> None:
        self.pool = pool

    async def decide(
        self, live: LiveGame, seat: int, info: InformationSet[Any], legal: tuple[Action, ...]
    ) -> Action:
        """The action of the bot at ``seat`` of ``live`` for ``info`` (its seat's information set)
        among ``legal``."""
        kind = live.seats[seat].bot or "random"
        bot = live.bots.get(seat)
        if bot is None:
            bot = live.bots[seat] = make_bot(live.game, kind)
        try:
            if self.pool is not None:
                action = await self.pool.decide(f"{live.id}:{seat}", bot, info, live.bot_rng)
            else:
                action = await asyncio.to_thread(bot.decide, info, live.bot_rng)
        except Exception:  # a faulty bot must not stall the game: play a random legal action
            log.exception("game %s: bot %s failed; playing a random legal action", live.id, kind)
            return live.bot_rng.choice(legal)
        if action not in legal:
            log.error("bot %s chose an illegal action in game %s; playing the first legal one", kind, live.id)
            return legal[0]
        return action

    async def search(self, key: str, fn: Callable[..., _Found], *args: Any) -> _Found:
        """``fn(*args)`` (a search: a hint, an analysis) in the bot worker of ``key``, sharing the bots'
        workers and their lower priority; in a thread when there is no pool."""
        if self.pool is not None:
            return await self.pool.call(key, fn, *args)
        return await asyncio.to_thread(fn, *args)
