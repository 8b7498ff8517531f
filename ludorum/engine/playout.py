"""Seeded random play: the states of one game where every seat picks uniformly among its legal actions.

Benchmarks and tests walk games this way; chance is drawn from the state's own generator, so a seed names
one game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from ludorum.engine.config import Config
from ludorum.engine.game import CHANCE, Game
from ludorum.engine.state import GameState


def random_states(
    game: Game[Any], config: Config, seed: int, limit: int | None = None
) -> Iterator[GameState]:
    """The states of one seeded random game, from its start to its end (at most ``limit`` of them)."""
    rng = random.Random(seed)
    state = game.new(config, seed)
    n = 0
    while limit is None or n < limit:
        yield state
        n += 1
        if game.is_over(state):
            return
        if game.to_move(state) == CHANCE:
            state = game.apply_chance(state, game.sample_chance(state))
        else:
            legal = game.legal_actions(state)
            state = game.apply(state, legal[rng.randrange(len(legal))])
