"""Bot kinds by name: the generic ones plus those a game brings (``Game.bots()``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ludorum.agents.random_bot import RandomBot
from ludorum.engine import ConfigError, Game
from ludorum.engine.bots import Bot

GENERIC: dict[str, Callable[[], Bot]] = {"random": RandomBot}


def bot_kinds(game: Game[Any]) -> dict[str, Callable[[], Bot]]:
    """Every bot kind that can play ``game``, the game's own first."""
    return {**dict(game.bots()), **GENERIC}


def default_kind(game: Game[Any]) -> str:
    """The strongest kind available: the game's first own bot, else random."""
    return next(iter(bot_kinds(game)))


def make_bot(game: Game[Any], kind: str) -> Bot:
    """A new bot of ``kind``; an unknown kind is a clear error listing the known ones."""
    kinds = bot_kinds(game)
    if kind not in kinds:
        raise ConfigError(f"no bot kind {kind!r} for {game.title}; the kinds are {', '.join(kinds)}")
    return kinds[kind]()
