"""RL figures for ``make bench``: environment steps/s against the raw engine and PettingZoo's
``connect_four_v3``, and OpenSpiel's MCTSBot simulations/s against our own MCTS (docs/rl.md).

Everything runs in this process; the caller pins it to one core.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from ludorum.bench.engine import mid_game, random_playout
from ludorum.engine.information import InformationSet
from ludorum.games import registry


class _Meter:
    """Counts steps and seconds of one kind of play, run a slice at a time (whole games only)."""

    def __init__(self, play: Callable[[int], int]) -> None:
        self.play = play
        """Plays game number ``seed`` to its end and returns its number of steps."""
        self.steps = 0
        self.seconds = 0.0
        self.games = 0

    def run(self, seconds: float) -> None:
        """Play whole games for about ``seconds`` (one at least)."""
        start = time.perf_counter()
        end = start + seconds
        while True:
            self.steps += self.play(self.games)
            self.games += 1
            now = time.perf_counter()
            if now >= end:
                break
        self.seconds += now - start

    @property
    def rate(self) -> float:
        """Steps per second so far."""
        return self.steps / self.seconds if self.seconds else 0.0


def interleaved(meters: Sequence[_Meter], seconds: float, slices: int = 6) -> None:
    """Run each meter for ``seconds`` in all, in turns of ``seconds / slices``: on a shared machine the
    load changes by the second, and taking turns gives every meter the same share of it, so the ratios
    of their rates hold even when the rates themselves drift."""
    for _ in range(slices):
        for m in meters:
            m.run(seconds / slices)


def raw_meter(name: str, players: int) -> _Meter:
    """Random-playout decisions of the engine itself (``ludorum bench``'s figure: chance decisions count)."""
    game = registry().get(name)
    config = game.config(players)
    return _Meter(lambda seed: random_playout(game, config, seed))


def pettingzoo_meter(env: Any, observe: bool) -> _Meter:
    """AEC steps of a random masked agent: ``observe`` reads every observation (``last()``), else only the
    mask (``last(observe=False)`` and ``info["action_mask"]``).  A step is one ``env.step`` with an action
    of the deciding agent; the done agents' ``step(None)`` do not count."""
    rng = random.Random(0)

    def play(seed: int) -> int:
        env.reset(seed=seed)
        steps = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, info = env.last(observe=observe)
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
            # Read as booleans: numpy finds the non-zero bytes of a bool array ten times faster than
            # those of an int8 one, and with thousands of actions that is most of a random agent's time.
            legal = mask.view(np.bool_).nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        return steps

    return _Meter(play)


def openspiel_mcts_rate(name: str, players: int, seconds: float) -> float:
    """Simulations/s of OpenSpiel's MCTSBot (one random rollout per leaf) through the adapter, from a
    position sixty decisions in."""
    import pyspiel
    from open_spiel.python.algorithms import mcts

    import ludorum.rl.openspiel as los

    game = pyspiel.load_game(los.short_name(name), {"players": players})
    target = mid_game(registry().get(name), players)
    state = game.state_at(target)
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
    state = mid_game(game, players)
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
    """Lines of figures: per game, raw decisions/s and PettingZoo steps/s (mask only, and observing) with
    their ratios, measured in turns with PettingZoo's connect_four_v3; OpenSpiel MCTSBot simulations/s
    against ours."""
    from ludorum.rl import pettingzoo as lpz

    names = list(names or [g.name for g in registry()])
    c4: _Meter | None = None
    try:
        from pettingzoo.classic import connect_four_v3

        c4 = pettingzoo_meter(connect_four_v3.env(), observe=True)
    except ImportError as e:  # pygame missing
        yield f"PettingZoo connect_four_v3: not measured ({e})"
    for name in names:
        game = registry().get(name)
        p = game.min_players
        raw = raw_meter(name, p)
        fast = pettingzoo_meter(lpz.env(name, players=p), observe=False)
        full = pettingzoo_meter(lpz.env(name, players=p), observe=True)
        interleaved([m for m in (raw, fast, full, c4) if m is not None], seconds)
        vs = f"; {fast.rate / c4.rate:.1f}× / {full.rate / c4.rate:.1f}× connect_four_v3" if c4 else ""
        yield (
            f"RL {name} {p}p: engine {raw.rate:,.0f} decisions/s; PettingZoo {fast.rate:,.0f} steps/s "
            f"with masks ({fast.rate / raw.rate:.0%} of the engine), {full.rate:,.0f} steps/s observing "
            f"every step ({full.rate / raw.rate:.0%}){vs}"
        )
        spiel = openspiel_mcts_rate(name, p, seconds)
        ours = ludorum_mcts_rate(name, p, seconds)
        ratio = f"; ours/OpenSpiel {ours / spiel:.1f}×" if ours else "; our MCTS not available"
        yield (
            f"RL {name} {p}p: OpenSpiel MCTSBot {spiel:,.0f} simulations/s through the adapter"
            + (f", our MCTS {ours:,.0f} simulations/s" if ours else "")
            + ratio
        )
    if c4 is not None:
        yield (
            f"PettingZoo connect_four_v3: {c4.rate:,.0f} steps/s (random masked agent, observing every "
            "step; measured in turns with each game above)"
        )
