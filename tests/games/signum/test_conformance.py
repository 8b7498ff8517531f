"""The conformance kit over 1,000 seeded random games (the standard game, the Experienced Architect
variant and the other starter decks), plus a few games checked at every step.

The full contract (illegal actions, clone, JSON, views across ``sample_state`` draws) is checked every
``CHECK_EVERY`` steps and at the end of every game; every step's legal list, every apply and the replay
of every record are checked always.  Games end within the bound: the designed turn limit of 120 turns.
"""

from __future__ import annotations

import pytest

from ludorum.engine.conformance import check_game
from ludorum.games.signum import GAME

GAMES_PER_CHUNK = 250
CHECK_EVERY = 211
CONFIGS = {
    "standard": GAME.config(2),
    "architect": GAME.config(2, variants=["architect"]),
    "wings-steam": GAME.config(2, deck0="empire_wings", deck1="vallor_steam"),
    "mirror": GAME.config(2, deck0="vallor_steam", deck1="empire_dawn"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CONFIGS))
def test_conformance_over_seeded_random_games(name: str) -> None:
    config = CONFIGS[name]
    seed = 10_000 * (1 + list(CONFIGS).index(name))
    report = check_game(GAME, [config], games=GAMES_PER_CHUNK, seed=seed, check_every=CHECK_EVERY)
    assert report.games == GAMES_PER_CHUNK
    assert max(report.lengths) <= GAME.max_decisions(config)


def test_conformance_checking_every_step() -> None:
    report = check_game(GAME, [CONFIGS["standard"], CONFIGS["architect"]], games=2, seed=3, check_every=1)
    assert report.checks >= sum(report.lengths)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "variants"), [(3, ()), (4, ()), (4, ("teams",))])
def test_conformance_of_the_three_and_four_player_games(players: int, variants: tuple[str, ...]) -> None:
    config = GAME.config(players, variants=variants)
    report = check_game(GAME, [config], games=20, seed=50_000 + players, check_every=CHECK_EVERY)
    assert report.games == 20
