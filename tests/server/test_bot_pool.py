"""Search bots think in worker processes: the information set travels there and a legal action returns."""

from __future__ import annotations

import os
import pickle
import random

from ludorum.agents import RandomBot
from ludorum.agents.search import SearchBot, SearchSettings
from ludorum.engine import CHANCE
from ludorum.engine.information import InformationSet
from ludorum.games import registry
from ludorum.server.work.pool import BotPool, worker_for
from tests.loops import run_alone


def test_information_sets_and_bots_survive_pickling() -> None:
    for game in registry():
        s = game.new(game.config(2), 3)
        while game.to_move(s) == CHANCE:
            s = game.step(s, game.sample_chance(s))
        info = InformationSet(game, s, game.to_move(s))
        again = pickle.loads(pickle.dumps(info))
        assert again.legal == info.legal and again.view == info.view
        bot = SearchBot(SearchSettings(iterations=7))
        assert pickle.loads(pickle.dumps(bot)).settings == bot.settings


def test_the_pool_searches_in_another_process() -> None:
    game = registry().get("medieval-realms")
    s = game.new(game.config(2), 5)
    info = InformationSet(game, s, game.to_move(s))
    pool = BotPool(workers=1)

    async def run() -> tuple[object, object, int]:
        try:
            searched = await pool.decide(
                "g:0", SearchBot(SearchSettings(iterations=20)), info, random.Random(1)
            )
            quick = await pool.decide("g:1", RandomBot(), info, random.Random(1))
            pid = await pool.call("g:0", os.getpid)
        finally:
            pool.shutdown()  # on the loop that fed the workers
        return searched, quick, pid

    searched, quick, pid = run_alone(run())  # this thread may hold Playwright's running loop
    assert searched in info.legal and quick in info.legal
    assert pid != os.getpid()


def test_a_key_is_always_served_by_the_same_worker() -> None:
    """The bot pool and the server's workers route by :func:`worker_for`: a game's jobs go to one worker
    (so they run in order and find the bot it kept), and many games spread over all of them."""
    workers = ["w0", "w1", "w2"]
    keys = [f"game-{n}" for n in range(60)]
    first = [worker_for(k, workers) for k in keys]
    assert [worker_for(k, workers) for k in keys] == first
    assert set(first) == set(workers)
