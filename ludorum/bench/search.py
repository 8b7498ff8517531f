"""Search speed for ``make bench``: MCTS iterations per second on one core, per game.

Two settings are measured on the same positions (decision points of a seeded random game): the
levels' own (rollouts cut at the level's depth and scored by the game's evaluation) and random
rollouts played to the end with no evaluation — the setting in which OpenSpiel's ``MCTSBot`` is
compared through the RL adapter (docs/agents.md).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from ludorum.agents.search import SearchBot, SearchSettings, level_settings
from ludorum.agents.search.rollout import searchable
from ludorum.bench.engine import mid_game
from ludorum.engine import CHANCE, Game, Playthrough
from ludorum.engine.conformance import random_choice
from ludorum.engine.information import InformationSet


@dataclass
class SearchFigures:
    """Iterations per second of one game's search, with level settings and with full random rollouts."""

    game: str
    players: int
    level_rate: float
    full_rate: float

    def line(self) -> str:
        """The figure as one line of text."""
        return (
            f"{self.game} {self.players}p search: {self.level_rate:,.0f} MCTS iterations/s with the levels' "
            f"rollouts (cut and evaluated), {self.full_rate:,.0f}/s with random rollouts to the end"
        )


def positions(game: Game[Any], players: int, count: int = 6, seed: int = 0) -> list[Any]:
    """Decision points spread over a seeded random game."""
    play = Playthrough(game, game.config(players), seed)
    rng = random.Random(seed)
    states: list[Any] = []
    while not play.is_over():
        if play.to_move() == CHANCE:
            play.resolve_chance()
            continue
        legal = game.legal_actions(play.state)
        if len(searchable(legal)) > 1:
            states.append(play.state)
        play.play(random_choice(legal, rng))
    step = max(1, len(states) // count)
    return states[::step][:count]


def rate(game: Game[Any], states: list[Any], settings: SearchSettings, seconds: float) -> float:
    """Iterations per second of a search with ``settings`` over ``states`` for about ``seconds``."""
    done, spent = 0, 0.0
    per_state = seconds / len(states)
    for state in states:
        bot = SearchBot(settings.but(iterations=10**9, seconds=per_state, reuse=False))
        start = time.perf_counter()
        bot.decide(InformationSet(game, state, game.to_move(state)), random.Random(0))
        spent += time.perf_counter() - start
        done += bot.last.iterations
    return done / spent if spent else 0.0


def measure_search(game: Game[Any], players: int = 2, seconds: float = 3.0) -> SearchFigures:
    """Both rates for ``game``, ``seconds`` each."""
    states = positions(game, players)
    level = level_settings("hard", game.name)
    full = SearchSettings(depth=None, policy="random")
    return SearchFigures(
        game.name, players, rate(game, states, level, seconds), rate(game, states, full, seconds)
    )


def spiel_bot(spiel_game: Any, simulations: int, seed: int) -> Any:
    """OpenSpiel's ``MCTSBot`` as every comparison here runs it: UCT constant 2, ``simulations`` a search,
    one random rollout to the end per simulation, no solver, seeded."""
    import numpy as np
    from open_spiel.python.algorithms import mcts

    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return mcts.MCTSBot(
        spiel_game, 2.0, simulations, evaluator, random_state=np.random.RandomState(seed), solve=False
    )


def openspiel_ratio(name: str, slices: int = 4, seconds: float = 1.0) -> tuple[float, float]:
    """Simulations per CPU second of our MCTS and of OpenSpiel's Python ``MCTSBot`` on equal settings:
    the same position sixty decisions in, eight simulations a search, one random rollout to the end per
    simulation, no evaluation, no guide, no tree reuse; measured in alternating slices so that the
    machine's load hits both alike (needs the ``rl`` extra)."""
    import pyspiel

    import ludorum.rl.openspiel as los
    from ludorum.games import registry

    spiel_game = pyspiel.load_game(los.short_name(name), {"players": 2})
    game = registry().get(name)
    target = mid_game(game, 2)
    spiel_state = spiel_game.state_at(target)
    sims = 8
    spiel = spiel_bot(spiel_game, sims, 0)
    info = InformationSet(game, target, game.to_move(target))
    equal = SearchSettings(iterations=sims, depth=None, policy="random", reuse=False)
    ours, theirs = [0, 0.0], [0, 0.0]
    for _ in range(slices):
        start = time.process_time()
        while time.process_time() - start < seconds:
            spiel.mcts_search(spiel_state)
            theirs[0] += sims
        theirs[1] += time.process_time() - start
        start = time.process_time()
        while time.process_time() - start < seconds:
            bot = SearchBot(equal)
            bot.decide(info, random.Random(ours[0]))
            ours[0] += bot.last.iterations
        ours[1] += time.process_time() - start
    return ours[0] / ours[1], theirs[0] / theirs[1]
