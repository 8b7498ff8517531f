"""The heuristic bot builds its way to the ninth castle against random bots, seeing only its view."""

from __future__ import annotations

import random

from ludorum.agents import make_bot, play_game
from ludorum.engine import Action
from ludorum.games.reliquium import GAME
from ludorum.games.reliquium.bot import HeuristicBot
from ludorum.games.reliquium.content import content
from ludorum.games.reliquium.scenario import scenario


def test_bot_is_registered() -> None:
    assert GAME.bots()["heuristic"] is HeuristicBot


def test_heuristic_wins_most_games_against_random_bots() -> None:
    games, ninth = 18, 0
    for g in range(games):
        players = 2 + g % 3
        seat = g % players
        variants = [[], ["militia"], ["allies"], ["single-march"]][g % 4]
        bots = [make_bot(GAME, "heuristic" if i == seat else "random") for i in range(players)]
        play = play_game(GAME, GAME.config(players, variants), 500 + g, bots)
        s = play.state
        ninth += s.winner == s.factions[seat]
    assert ninth >= games * 3 // 4


def test_bot_attacks_a_weak_neighbour_and_destroys_castles() -> None:
    s = scenario(
        {
            "players": ["legion", "brotherhood"],
            "regions": {
                "Boundless Expanse": "legion castle WW",
                "Wasteland": "brotherhood castle M",
                "Saxum Ridge": "brotherhood castle DDD",
            },
        }
    )
    legal = GAME.legal_actions(s)
    choice = HeuristicBot().choose(GAME.view(s, 0), legal, 0, random.Random(0))
    r = content().region
    assert choice == Action("melee", (r("Boundless Expanse"), r("Wasteland")))


def test_bot_builds_when_it_can() -> None:
    s = scenario(
        {
            "players": ["legion", "brotherhood"],
            "regions": {
                "Boundless Expanse": "legion castle W",
                "Wolfwood": "legion W",
                "Blackthorn Wood": "legion castle",
            },
            "markers": {"legion": "forests"},
        }
    )
    legal = GAME.legal_actions(s)
    assert HeuristicBot().choose(GAME.view(s, 0), legal, 0, random.Random(0)).kind == "build"
