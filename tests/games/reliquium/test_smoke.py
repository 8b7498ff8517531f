"""Reliquium plays: random games end within the bound and the registry finds the game."""

from __future__ import annotations

import random

from ludorum.games.reliquium import GAME


def test_random_games_end() -> None:
    for seed in range(6):
        cfg = GAME.config(2 + seed % 3, rounds=5)
        s = GAME.new(cfg, seed)
        rng = random.Random(seed)
        n = 0
        while not GAME.is_over(s):
            legal = GAME.legal_actions(s)
            s = GAME.apply(s, legal[rng.randrange(len(legal))])
            n += 1
        assert n <= GAME.max_decisions(cfg)
        assert s.round == 6 or s.winner != -1
