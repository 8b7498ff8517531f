"""The heuristic bot plays only from its view, always legally, and beats random bots in most games."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from ludorum.agents.random_bot import RandomBot
from ludorum.engine import Action
from ludorum.engine.bots import Bot, play_game
from ludorum.games.medieval_realms import GAME
from ludorum.games.medieval_realms.bot import BASE_WANT, HeuristicBot
from ludorum.games.medieval_realms.scenario import build
from ludorum.games.medieval_realms.state import RealmsState


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


def _choose(s: RealmsState, seat: int) -> Action:
    view = json.loads(json.dumps(GAME.view(s, seat)))
    return HeuristicBot().choose(view, GAME.legal_actions(s), seat, random.Random(0))


def test_the_bot_places_mayors_for_the_card_it_wants() -> None:
    s = build(
        3, order=(0, 1, 2), display=[["scientific_development"], [], []], resources=[{"science": 1}] * 3
    )
    assert _choose(s, 0).args == ("science",)
    s = build(3, order=(0, 1, 2), display=[["castle"], [], []], resources=[{"raw_material": 2}] * 3)
    assert _choose(s, 0).args == ("raw_material",)


def test_the_bot_plays_an_affordable_display_card_and_avoids_feeding_rivals() -> None:
    s = build(
        3, phase="actions", order=(0, 1, 2), display=[["war"], [], []], resources=[{"battle_point": 7}] * 3
    )
    war = s.display[0][0]
    assert _choose(s, 0).kind == "play" and _choose(s, 0).args == (war,)
    # A Cathedral it cannot win (a rival holds more Religion) is not activated.
    s = build(
        3,
        phase="actions",
        order=(0, 1, 2),
        panel=["cathedral"],
        resources=[{"religion": 1}, {"religion": 9}, {}],
    )
    assert _choose(s, 0).kind == "pass"
    s = build(
        3,
        phase="actions",
        order=(0, 1, 2),
        panel=["cathedral"],
        resources=[{"religion": 9}, {"religion": 1}, {}],
    )
    assert _choose(s, 0).kind == "activate"


def test_the_bot_bids_within_value() -> None:
    s = build(2, phase="actions", order=(0, 1), panel=["territory"], resources=[{"battle_point": 20}] * 2)
    s = GAME.apply(GAME.apply(s, Action("activate", (1,))), Action("bid", (15,)))
    assert GAME.to_move(s) == 1 and _choose(s, 1) == Action("pass")
    s = build(2, phase="actions", order=(0, 1), panel=["territory"], resources=[{"battle_point": 20}] * 2)
    s = GAME.apply(GAME.apply(s, Action("activate", (1,))), Action("bid", (1,)))
    assert _choose(s, 1) == Action("bid", (2,))


def test_the_bot_contests_rich_areas_spreads_its_leaders_and_is_hard_to_predict() -> None:
    s = build(4, order=(0, 1, 2, 3))
    for _ in range(4):
        s = GAME.apply(s, Action("mayor", ("gold",)))
    view = json.loads(json.dumps(GAME.view(s, 0)))
    worth = {int(a): sum(n * BASE_WANT[r] for r, n in rw.items()) for a, rw in view["map"]["rewards"].items()}
    picks = [
        HeuristicBot().choose(view, GAME.legal_actions(s), 0, random.Random(k)).args[0] for k in range(200)
    ]
    assert Counter(picks).most_common(1)[0][0] == max(worth, key=worth.__getitem__)  # the richest for it
    assert len(set(picks)) >= 4  # not one predictable area that every bot would tie on
    t = GAME.apply(s, Action("general", (8,)))
    view = json.loads(json.dumps(GAME.view(t, 0)))
    second = [
        HeuristicBot().choose(view, GAME.legal_actions(t), 0, random.Random(k)).args[0] for k in range(200)
    ]
    assert second.count(8) < 0.05 * len(second)  # the Admiral goes elsewhere rather than stack
