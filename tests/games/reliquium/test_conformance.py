"""The conformance kit over 2,000+ seeded random games: 2, 3 and 4 players, every variant."""

from __future__ import annotations

from ludorum.engine.conformance import check_game
from ludorum.games.reliquium import GAME

VARIANT_SETS = ([], ["single-march"], ["militia"], ["allies"], ["single-march", "militia", "allies"])


def test_conformance_short_games() -> None:
    """2,000 games with a 3-round limit (the round limit is a config option), sampled checks."""
    configs = [GAME.config(p, v, rounds=3) for p in (2, 3, 4) for v in VARIANT_SETS]
    report = check_game(GAME, configs, games=2000, seed=1000, check_every=23, illegal_samples=2)
    assert report.games == 2000
    assert report.steps > 2000 * 50


def test_conformance_full_length_games() -> None:
    """Full-length games (the default 20-round limit) with every step checked, every variant."""
    configs = [GAME.config(p, v) for p in (2, 3, 4) for v in VARIANT_SETS]
    report = check_game(GAME, configs, games=30, seed=7, check_every=3)
    assert report.games == 30
