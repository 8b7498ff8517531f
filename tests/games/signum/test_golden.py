"""A golden playthrough guards against silent rule changes: a seeded game's record, its length and its
final state's digest.  If a rule is changed on purpose, regenerate the constants and say why in the commit.
"""

from __future__ import annotations

from ludorum.agents.random_bot import RandomBot
from ludorum.engine import Record, replay
from ludorum.engine.bots import play_game
from ludorum.games.signum import GAME
from ludorum.games.signum.bot import HeuristicBot

GOLDEN_SEED = 2026
GOLDEN_STEPS = 449
GOLDEN_DIGEST = "931b4cf39884d05d"


def test_golden_playthrough() -> None:
    play = play_game(GAME, GAME.config(2), GOLDEN_SEED, [HeuristicBot(), RandomBot()])
    assert len(play.record.steps) == GOLDEN_STEPS
    assert play.state.digest() == GOLDEN_DIGEST
    again = replay(GAME, Record.loads(play.record.dumps()))
    assert again == play.state
