"""The conformance kit over 2,000 seeded random games, 500 for each player count.

Every step is played and its legal-action list checked; the full contract (illegal actions, clone,
JSON, views across ``sample_state`` draws) is checked every ``CHECK_EVERY`` steps, plus at the end of
every game, so the module stays within a few minutes on one core.
"""

from __future__ import annotations

import pytest

from ludorum.engine.conformance import check_game
from ludorum.games.medieval_realms import GAME

GAMES_PER_COUNT = 500
CHECK_EVERY = 97


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_conformance_over_seeded_random_games(players: int) -> None:
    report = check_game(
        GAME, [GAME.config(players)], games=GAMES_PER_COUNT, seed=10_000 * players, check_every=CHECK_EVERY
    )
    assert report.games == GAMES_PER_COUNT
    assert max(report.lengths) <= GAME.max_decisions(GAME.config(players))


def test_conformance_checking_every_step() -> None:
    report = check_game(GAME, [GAME.config(n) for n in (2, 5)], games=2, seed=7, check_every=1)
    assert report.checks >= sum(report.lengths)
