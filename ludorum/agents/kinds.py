"""Bot kinds by name: the search levels, those a game brings (``Game.bots()``) and random."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ludorum.agents.random_bot import RandomBot
from ludorum.agents.search import LEVELS, SearchBot, level_settings
from ludorum.engine import ConfigError, Game
from ludorum.engine.bots import Bot

GENERIC: dict[str, Callable[[], Bot]] = {"random": RandomBot}

DEFAULT = "medium"
"""The kind offered first (the lobby's default opponent, the terminal's for seats left unnamed)."""


def level_bot(game: str, level: str) -> SearchBot:
    """A search bot of ``level`` with ``game``'s settings for it (``levels.toml``)."""
    return SearchBot(level_settings(level, game))


def bot_kinds(game: Game[Any]) -> dict[str, Callable[[], Bot]]:
    """Every bot kind that can play ``game``: the search levels weakest first, the game's own, random."""
    levels: dict[str, Callable[[], Bot]] = {
        level: functools.partial(level_bot, game.name, level) for level in LEVELS
    }
    return {**levels, **dict(game.bots()), **GENERIC}


def default_kind(game: Game[Any]) -> str:
    """The kind a seat gets when none is named: :data:`DEFAULT`."""
    kinds = bot_kinds(game)
    return DEFAULT if DEFAULT in kinds else next(iter(kinds))


def make_bot(game: Game[Any], kind: str) -> Bot:
    """A new bot of ``kind``; an unknown kind is a clear error listing the known ones."""
    kinds = bot_kinds(game)
    if kind not in kinds:
        raise ConfigError(f"no bot kind {kind!r} for {game.title}; the kinds are {', '.join(kinds)}")
    return kinds[kind]()
