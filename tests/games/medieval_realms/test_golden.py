"""A golden playthrough guards against silent rule changes: a seeded game's record, its length and its
final state's digest.  If a rule is changed on purpose, regenerate the constants and say why in the commit.
"""

from __future__ import annotations

from ludorum.agents.random_bot import RandomBot
from ludorum.engine import Record, replay
from ludorum.engine.bots import play_game
from ludorum.games.medieval_realms import GAME
from ludorum.games.medieval_realms.bot import HeuristicBot

GOLDEN_SEED = 2026
GOLDEN_STEPS = 389
GOLDEN_DIGEST = "81d866900820b7ec"


def test_golden_playthrough() -> None:
    bots = [HeuristicBot(), RandomBot(), HeuristicBot(), RandomBot()]
    play = play_game(GAME, GAME.config(4), GOLDEN_SEED, bots)
    assert len(play.record.steps) == GOLDEN_STEPS
    assert play.state.digest() == GOLDEN_DIGEST
    again = replay(GAME, Record.loads(play.record.dumps()))
    assert again == play.state
