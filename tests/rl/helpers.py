"""Shared by the RL tests: every configuration of a game and seeded random play."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

from ludorum.engine import CHANCE, Config, ConfigError, Game, GameState
from ludorum.games import registry

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


def random_states(
    game: Game[Any], config: Config, seed: int, limit: int | None = None
) -> Iterator[GameState]:
    """The states of one seeded random game (chance from the state's generator), at most ``limit``."""
    rng = random.Random(seed)
    state = game.new(config, seed)
    n = 0
    while not game.is_over(state) and (limit is None or n < limit):
        yield state
        legal = game.legal_actions(state)
        if game.to_move(state) == CHANCE:
            state = game.apply_chance(state, game.sample_chance(state))
        else:
            state = game.apply(state, legal[rng.randrange(len(legal))])
        n += 1
    if limit is None or n < limit:
        yield state
