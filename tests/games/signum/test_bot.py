"""The heuristic bot: only its view, always legal, beats random bots in most seeded games."""

from __future__ import annotations

import json
import random

from ludorum.agents.random_bot import RandomBot
from ludorum.engine import CHANCE, Action
from ludorum.engine.bots import Bot, play_game
from ludorum.games.signum import GAME
from ludorum.games.signum.bot import HeuristicBot
from ludorum.games.signum.state import SignumState

from .helpers import build, m, model, play


def test_the_game_offers_the_heuristic_bot() -> None:
    assert GAME.bots() == {"heuristic": HeuristicBot}


def test_heuristic_beats_random_bots_in_most_seeded_games() -> None:
    games, wins = 16, 0
    for g in range(games):
        hero = g % 2
        bots: list[Bot] = [RandomBot(), RandomBot()]
        bots[hero] = HeuristicBot()
        config = GAME.config(2, deck0=("empire_dawn", "empire_wings")[g % 4 // 2], deck1="vallor_muskets")
        play = play_game(GAME, config, 900 + g, bots)
        assert isinstance(play.state, SignumState)
        wins += GAME.result(play.state).ranking == tuple(1 if s == hero else 2 for s in range(2))
    assert wins > games * 0.75


def test_the_bot_plays_from_a_json_round_tripped_view() -> None:
    s = GAME.new(GAME.config(2), 4)
    bot, rng = HeuristicBot(), random.Random(0)
    for _ in range(600):
        if GAME.is_over(s):
            break
        if GAME.to_move(s) == CHANCE:
            s = GAME.apply_chance(s, GAME.sample_chance(s))
            continue
        seat = GAME.to_move(s)
        view = json.loads(json.dumps(GAME.view(s, seat)))
        s = GAME.apply(s, bot.choose(view, GAME.legal_actions(s), seat, rng))


def test_the_bot_focuses_the_enemy_hero_and_shoots_when_it_can() -> None:
    s = build(
        models=[m("crossbowman", 0, 30, 40), m("sellsword", 1, 20, 45), m("burgomaster_orvin", 1, 40, 50)]
    )
    s = play(s, ("activate", model(s, "crossbowman").uid))
    choice = HeuristicBot().choose(GAME.view(s, 0), GAME.legal_actions(s), 0, random.Random(1))
    assert choice.kind == "shoot" and choice.args[0] == s.hero_of(1).uid  # type: ignore[union-attr]


def test_heuristic_against_itself_finishes() -> None:
    play = play_game(GAME, GAME.config(2), 77, [HeuristicBot(), HeuristicBot()])
    assert isinstance(play.state, SignumState) and GAME.is_over(play.state)


def test_a_recruit_on_a_side_edge_enters_towards_the_nearest_enemy_hero() -> None:
    # P3's entry spots run along the west edge (y), not along x: the bot must compare y with the target's.
    heroes = ("marshal_aurelian", "burgomaster_orvin", "gryphon_lord_kassian")
    s = build(
        players=3,
        heroes=heroes,
        models=[m(heroes[2], 2, 5, 30), m(heroes[0], 0, 8, 52), m(heroes[1], 1, 50, 55)],
        hands=([], [], ["musketeer"]),
        prosperity=(5, 5, 5),
        active=2,
    )
    choice = HeuristicBot().choose(GAME.view(s, 2), GAME.legal_actions(s), 2, random.Random(1))
    assert choice == Action("recruit", ("musketeer", 4))
