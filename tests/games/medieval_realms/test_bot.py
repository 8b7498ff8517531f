"""The heuristic bot plays only from its view, always legally, and beats random bots in most games."""

from __future__ import annotations

import json
import random

import pytest

from ludorum.agents.random_bot import RandomBot
from ludorum.agents.runner import play_game
from ludorum.engine.bots import Bot
from ludorum.games.medieval_realms import GAME
from ludorum.games.medieval_realms.bot import HeuristicBot


def test_the_game_offers_the_heuristic_bot() -> None:
    assert GAME.bots() == {"heuristic": HeuristicBot}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_heuristic_beats_random_bots_in_most_seeded_games(players: int) -> None:
    games, wins = 12, 0
    for g in range(games):
        hero = g % players
        bots: list[Bot] = [RandomBot() for _ in range(players)]
        bots[hero] = HeuristicBot()
        play = play_game(GAME, GAME.config(players), 500 + g, bots)
        wins += GAME.result(play.state).ranking[hero] == 1
    assert wins > games * 0.75


def test_the_bot_chooses_from_a_json_round_tripped_view() -> None:
    s = GAME.new(GAME.config(4), 11)
    bot, rng = HeuristicBot(), random.Random(0)
    for _ in range(300):
        if GAME.is_over(s):
            break
        seat = GAME.to_move(s)
        view = json.loads(json.dumps(GAME.view(s, seat)))
        legal = GAME.legal_actions(s)
        action = bot.choose(view, legal, seat, rng)
        assert action in legal
        s = GAME.apply(s, action)
