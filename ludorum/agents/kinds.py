"""Bot kinds by name: the search levels, those a game brings (``Game.bots()``) and random."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ludorum.agents.random_bot import RandomBot
from ludorum.agents.search import LEVELS, SearchBot, base_level, level_settings, variant_settings
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


def is_experiment_kind(game: Game[Any], kind: str) -> bool:
    """Whether :func:`uncapped` can make ``kind``: a bot kind of ``game`` or a variant of a search level
    (``easy/bias=1``), whose settings are checked only when the bot is made."""
    return kind in bot_kinds(game) or base_level(kind) in LEVELS


def uncapped(game: Game[Any], kind: str) -> Bot:
    """A bot of ``kind`` for offline experiments (the lab, the ladder).  A search level, or a variant of
    one (``easy/bias=1``, ``hard/iterations=1``: any setting of ``SearchSettings`` changed), plays without
    its wall-clock cap, so that every game replays exactly from its seed whatever the machine's load; any
    other kind is :func:`make_bot`'s.  Never for the server: its seats take the kinds of
    :func:`bot_kinds` only, since a variant may ask for any budget."""
    if base_level(kind) in LEVELS:
        return SearchBot(variant_settings(kind, game.name, seconds=None))
    return make_bot(game, kind)
