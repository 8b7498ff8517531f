"""Puzzles: positions built with each game's scenario builder where one move wins at once; the search
bot (with random rollouts, so the game's own policy cannot give the answer away) finds it within the
stated iteration budget."""

from __future__ import annotations

import random
from typing import Any

from ludorum.agents.search import SearchBot, SearchSettings
from ludorum.agents.search.rollout import searchable
from ludorum.engine import CHANCE, Action, Game
from ludorum.engine.information import InformationSet

BUDGET = {"reliquium": 300, "medieval-realms": 300, "signum": 300}
"""Iterations the search is given per puzzle."""


def solve(game: Game[Any], state: Any, seed: int = 0) -> Action:
    bot = SearchBot(SearchSettings(iterations=BUDGET[game.name], policy="random"))
    return bot.decide(InformationSet(game, state, game.to_move(state)), random.Random(seed))


def wins_alone(game: Game[Any], state: Any, seat: int, depth: int) -> bool:
    """Whether ``seat`` can force a win by its own next ``depth`` decisions (no one else moves)."""
    if game.is_over(state):
        return game.result(state).shares[seat] == 1.0
    if depth == 0 or game.to_move(state) != seat:
        return False
    return any(
        wins_alone(game, game.apply(state, a), seat, depth - 1) for a in searchable(game.legal_actions(state))
    )


def test_reliquium_builds_the_ninth_castle() -> None:
    from ludorum.games.reliquium import GAME
    from ludorum.games.reliquium.content import content
    from ludorum.games.reliquium.scenario import scenario

    lands = [
        "Boundless Expanse",
        "Wasteland",
        "Golden Fields",
        "Ashen Peaks",
        "Iron Crags",
        "Frostfang Heights",
    ]
    regions = dict.fromkeys([*lands, "Blackthorn Wood", "Howling Wilds"], "legion castle")
    regions.update({"Boundless Expanse": "legion castle W", "Wasteland": "legion castle D"})
    regions.update({"Golden Fields": "legion castle M", "Elderwood": "legion WD"})
    regions["Saxum Ridge"] = "brotherhood castle DDD"
    s = scenario({"players": ["legion", "brotherhood"], "regions": regions, "markers": {"legion": "forests"}})
    legal = searchable(GAME.legal_actions(s))
    winning = [a for a in legal if GAME.is_over(GAME.apply(s, a))]
    assert len(winning) == 1 and len(legal) > 10
    assert solve(GAME, s) == winning[0] == Action("build", (content().region("Elderwood"),))


def test_medieval_realms_last_action_of_the_game() -> None:
    from ludorum.games.medieval_realms import GAME
    from ludorum.games.medieval_realms.scenario import build

    # The seventh round's last actions: seat 1 has passed; seat 0 leads by 5 VP on the track, but seat 1's
    # three Great Persons will outscore that at the end unless seat 0 buys the right card now.
    s = build(
        2,
        phase="actions",
        round=7,
        order=(0, 1),
        passed=[False, True],
        vp=[10, 5],
        panel=["inquisition", "gunpowder", "cathedral", "university", "docking_bay", "market", "city"],
        in_play=[[], ["artist", "missionary", "scientist"]],
        resources=[{"religion": 5, "production": 6, "science": 4}, {}],
    )
    legal = searchable(GAME.legal_actions(s))
    winning = {a for a in legal if wins_alone(GAME, GAME.apply(s, a), 0, 4)}
    assert winning and len(winning) <= len(legal) // 2
    assert solve(GAME, s) in winning


def test_signum_strikes_the_wounded_enemy_hero_down() -> None:
    from ludorum.games.signum.creatures import CARDS
    from ludorum.games.signum.game import SignumGame
    from ludorum.games.signum.scenario import scenario

    game = SignumGame()
    one_left = CARDS["burgomaster_orvin"].health - 1  # one wound from death, whatever balance sets
    s = scenario(
        {
            "heroes": ("marshal_aurelian", "burgomaster_orvin"),
            "models": [
                {"card": "sellsword", "owner": 0, "x": 30, "y": 30},
                {"card": "marshal_aurelian", "owner": 0, "x": 10, "y": 10},
                {"card": "burgomaster_orvin", "owner": 1, "x": 14, "y": 24, "wounds": one_left},
                {"card": "musketeer", "owner": 1, "x": 50, "y": 50},
            ],
            "hands": (["holy_lightning", "tithe", "gryphon_blessing"], []),
            "prosperity": (10, 10),
        },
        game,
    )

    def wins_at_once(a: Action, seed: int) -> bool:
        """Whether ``a`` kills the enemy hero before anyone else decides (dice from ``seed``)."""
        t = s.clone()
        t.rng = seed
        t = game.apply(t, a)
        while not game.is_over(t) and (game.to_move(t) == CHANCE or t.pending):
            t = game.step(t, game.sample_chance(t) if game.to_move(t) == CHANCE else game.legal_actions(t)[0])
        return game.is_over(t) and t.winner == 0

    odds = {a: sum(wins_at_once(a, k) for k in range(1, 41)) / 40 for a in searchable(game.legal_actions(s))}
    lethal = [a for a, p in odds.items() if p > 0]
    assert len(lethal) == 1 and odds[lethal[0]] >= 0.5 and lethal[0].kind == "cast"
    assert solve(game, s) == lethal[0]
