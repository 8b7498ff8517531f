"""RL figures for ``make bench``: environment steps/s against the raw engine and PettingZoo's
``connect_four_v3``, and OpenSpiel's MCTSBot simulations/s against our own MCTS (docs/rl.md).

Everything runs in this process; the caller pins it to one core.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from ludorum.engine import CHANCE
from ludorum.engine.information import InformationSet
from ludorum.games import registry
from ludorum.lab.bench import random_playout


def _raw_rate(name: str, players: int, seconds: float) -> float:
    """Random-playout decisions/s of the engine itself (chance decisions included)."""
    game = registry().get(name)
    config = game.config(players)
    n = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        n += random_playout(game, config, games)
        games += 1
    return n / (time.perf_counter() - start)


def pettingzoo_rate(env: Any, seconds: float, observe: bool) -> float:
    """AEC steps/s of a random masked agent: ``observe`` reads every observation (``last()``), else only
    the mask (``last(observe=False)`` and ``info["action_mask"]``)."""
    rng = random.Random(0)
    steps = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            obs, _, term, trunc, info = env.last(observe=observe)
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
            legal = np.flatnonzero(mask)
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps / (time.perf_counter() - start)


def _mid_game(name: str, players: int, decisions: int = 60) -> Any:
    game = registry().get(name)
    rng = random.Random(7)
    s = game.new(game.config(players), 7)
    for _ in range(decisions):
        if game.is_over(s):
            break
        legal = game.legal_actions(s)
        s = (
            game.apply_chance(s, game.sample_chance(s))
            if game.to_move(s) == CHANCE
            else game.apply(s, legal[rng.randrange(len(legal))])
        )
    while game.to_move(s) == CHANCE:
        s = game.apply_chance(s, game.sample_chance(s))
    return s


def openspiel_mcts_rate(name: str, players: int, seconds: float) -> float:
    """Simulations/s of OpenSpiel's MCTSBot (one random rollout per leaf) through the adapter, from a
    position sixty decisions in."""
    import pyspiel
    from open_spiel.python.algorithms import mcts

    import ludorum.rl.openspiel as los

    game = pyspiel.load_game(los.short_name(name), {"players": players})
    target = _mid_game(name, players)
    state = game.new_initial_state()
    state._trail = los._Trail(state._t, target, None)
    sims = 8
    bot = mcts.MCTSBot(game, 2.0, sims, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(0), solve=False)  # fmt: skip
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or done == 0:
        bot.mcts_search(state)
        done += sims
    return done / (time.perf_counter() - start)


def ludorum_mcts_rate(name: str, players: int, seconds: float) -> float | None:
    """Simulations/s of our MCTS (ludorum.agents.search, default settings but full information) on the
    same position; ``None`` when the search bots are not there."""
    try:
        from ludorum.agents.search import SearchBot, SearchSettings
    except ImportError:
        return None
    game = registry().get(name)
    state = _mid_game(name, players)
    seat = game.to_move(state)
    its = 200
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or done == 0:
        bot = SearchBot(SearchSettings(iterations=its, reuse=False))
        bot.decide(InformationSet(game, state, seat), random.Random(done))
        done += bot.last.iterations if hasattr(bot.last, "iterations") else its
    return done / (time.perf_counter() - start)


def report(names: Sequence[str] | None = None, seconds: float = 3.0) -> Iterator[str]:
    """Lines of figures: per game, raw decisions/s, PettingZoo steps/s (mask only, and observing), their
    ratio, against connect_four_v3; OpenSpiel MCTSBot simulations/s against ours."""
    from ludorum.rl import pettingzoo as lpz

    names = list(names or [g.name for g in registry()])
    c4 = None
    try:
        from pettingzoo.classic import connect_four_v3

        c4 = pettingzoo_rate(connect_four_v3.env(), seconds, observe=True)
        yield f"PettingZoo connect_four_v3: {c4:,.0f} steps/s (random masked agent, observing every step)"
    except ImportError as e:  # pygame missing
        yield f"PettingZoo connect_four_v3: not measured ({e})"
    for name in names:
        game = registry().get(name)
        p = game.min_players
        raw = _raw_rate(name, p, seconds)
        fast = pettingzoo_rate(lpz.env(name, players=p), seconds, observe=False)
        full = pettingzoo_rate(lpz.env(name, players=p), seconds, observe=True)
        vs = f"; {fast / c4:.1f}× / {full / c4:.1f}× connect_four_v3" if c4 else ""
        yield (
            f"RL {name} {p}p: engine {raw:,.0f} decisions/s; PettingZoo {fast:,.0f} steps/s with masks "
            f"({fast / raw:.0%} of the engine), {full:,.0f} steps/s observing every step "
            f"({full / raw:.0%}){vs}"
        )
        spiel = openspiel_mcts_rate(name, p, seconds)
        ours = ludorum_mcts_rate(name, p, seconds)
        ratio = f"; ours/OpenSpiel {ours / spiel:.1f}×" if ours else "; our MCTS not available"
        yield (
            f"RL {name} {p}p: OpenSpiel MCTSBot {spiel:,.0f} simulations/s through the adapter"
            + (f", our MCTS {ours:,.0f} simulations/s" if ours else "")
            + ratio
        )
