"""Shared by the RL tests: every configuration of a game and seeded random play."""

from __future__ import annotations

import itertools
from typing import Any

from ludorum.engine import Config, ConfigError, Game
from ludorum.engine.playout import random_states
from ludorum.games import registry

__all__ = ["GAMES", "configs", "game_configs", "random_states"]

GAMES = ("reliquium", "medieval-realms", "signum")


def configs(game: Game[Any]) -> list[Config]:
    """Every player count with every combination of variants the game accepts."""
    names = list(game.variants)
    out = []
    for players in range(game.min_players, game.max_players + 1):
        for r in range(len(names) + 1):
            for combo in itertools.combinations(names, r):
                try:
                    out.append(game.config(players, combo))
                except ConfigError:
                    continue
    return out


def game_configs() -> list[tuple[str, int]]:
    """(game, players) for every game and player count."""
    return [(g.name, p) for g in registry() for p in range(g.min_players, g.max_players + 1)]
