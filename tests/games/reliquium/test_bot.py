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


def test_bot_recruits_defenders_at_a_threatened_castle() -> None:
    s = scenario(
        {
            "players": ["legion", "brotherhood"],
            "regions": {
                "Boundless Expanse": "legion castle M",
                "Ashen Peaks": "legion castle",
                "Blackthorn Wood": "legion castle W",
                "Wasteland": "brotherhood WWW",
                "Saxum Ridge": "brotherhood castle D",
            },
            "markers": {"legion": "mountains"},
        }
    )
    legal = GAME.legal_actions(s)
    choice = HeuristicBot().choose(GAME.view(s, 0), legal, 0, random.Random(0))
    r = content().region
    assert choice.kind == "recruit" and choice.args[1] == 1  # a defender
    assert choice.args[0] in (r("Boundless Expanse"), r("Ashen Peaks"))  # next to the Wasteland's warriors


def test_bot_summons_where_its_units_and_battles_are() -> None:
    s = scenario(
        {
            "players": ["legion", "brotherhood"],
            "regions": {
                "Boundless Expanse": "legion castle WW",
                "Blackthorn Wood": "legion castle",
                "Wasteland": "brotherhood D",
                "Saxum Ridge": "brotherhood castle D",
            },
            "melee": [("legion", 1, "Boundless Expanse", "Wasteland")],
            "markers": {"legion": "forests"},
        }
    )
    legal = [a for a in GAME.legal_actions(s) if a.kind == "summon"]
    choice = HeuristicBot().choose(GAME.view(s, 0), legal, 0, random.Random(0))
    c = content()
    assert c.creatures[choice.args[0]].cls == 0  # an agility creature for its warriors
    assert c.region("Boundless Expanse") in c.junctions[choice.args[1]]


def test_bot_flees_up_to_a_ranged_token_when_it_can() -> None:
    """A beaten defender flees into its castle and joins the support there (it fights on this round)."""
    s = scenario(
        {
            "players": ["legion", "alliance", "order"],
            "phase": "attack",
            "regions": {
                "Forest's Edge": "alliance castle WWW",
                "Groves": "order DD",
                "Cliff of Sorrow": "order castle M",
                "Thornmarch": "order D",
                "Shattered Peaks": "legion WW",
            },
            "melee": [
                ("alliance", 2, "Forest's Edge", "Groves"),
                ("legion", 1, "Shattered Peaks", "Thornmarch"),
            ],
            "ranged": [("order", 2, "Cliff of Sorrow", "Thornmarch", "M")],
        }
    )
    seat = GAME.to_move(s)
    legal = GAME.legal_actions(s)
    r = content().region
    for seed in range(8):  # not a coin toss between fleeing alone and joining the support
        choice = HeuristicBot().choose(GAME.view(s, seat), legal, seat, random.Random(seed))
        assert choice == Action("flee", (r("Cliff of Sorrow"), 1, r("Thornmarch")))


def test_bot_raises_walls_where_it_could_build() -> None:
    """Architectus's Raise walls builds a castle by the build rules: where a plain build is legal, summoning
    him there builds the same castle and places a creature in one action, so the bot does that."""
    s = scenario(
        {
            "players": ["alliance", "order"],
            "regions": {
                "Plain of Vigils": "order castle D",
                "Cliff of Sorrow": "order castle D",
                "Dawn Pine Forest": "order castle M",
                "Groves": "order W",
            },
            "markers": {"order": "forests"},
            "turn": "order",
        }
    )
    c = content()
    bot, rng = HeuristicBot(), random.Random(0)
    choice = bot.choose(GAME.view(s, 1), GAME.legal_actions(s), 1, rng)
    assert choice.kind == "summon" and c.creatures[choice.args[0]].name == "Architectus"
    assert c.region("Groves") in c.junctions[choice.args[1]]
    s = GAME.step(s, choice)
    build = Action("ability", (c.region("Groves"),))
    assert bot.choose(GAME.view(s, 1), GAME.legal_actions(s), 1, rng) == build
