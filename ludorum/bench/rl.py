"""RL figures for ``make bench``: environment steps/s against the raw engine and PettingZoo's
``connect_four_v3``, and OpenSpiel's MCTSBot simulations/s against our own MCTS on equal settings
(docs/rl.md).

Everything runs in this process; the caller pins it to one core.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from ludorum.bench.engine import random_playout
from ludorum.bench.search import openspiel_ratio
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
    """Random-playout decisions of the engine itself (``ludorum-bench speed``'s figure; chance counts)."""
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


BATCH = 16
"""Games in the batched stepper's figure."""


def batch_meter(name: str, players: int, n: int = BATCH, steps: int = 64) -> _Meter:
    """Game steps of :class:`~ludorum.rl.batch.BatchStepper` with ``n`` games and a random masked agent,
    observing every step (the stacked observations are written at every step), ``steps`` batched steps a
    turn."""
    from ludorum.rl.batch import BatchStepper

    batch = BatchStepper(name, n, players)
    rng = np.random.default_rng(0)

    def play(seed: int) -> int:
        batch.reset(seed * 100_000)
        for _ in range(steps):
            # one legal id per row: the argmax of random keys over the legal ids
            keys = rng.random(batch.masks.shape) * batch.masks
            batch.step(list(keys.argmax(axis=1)))
        return steps * n

    return _Meter(play)


def equal_search_line(name: str, seconds: float) -> str:
    """Our MCTS against OpenSpiel's ``MCTSBot`` through the adapter, on equal settings only (one random
    rollout to the end per simulation, no evaluation, no guide, no tree reuse), in four alternating
    CPU-time slices of ``seconds / 4`` each (:func:`ludorum.bench.search.openspiel_ratio`)."""
    ours, theirs = openspiel_ratio(name, slices=4, seconds=seconds / 4)
    return (
        f"RL {name} 2p: MCTS on equal settings (one random rollout to the end per simulation, no evaluation, "
        f"no guide, no reuse; alternating CPU-time slices): ours {ours:,.1f} simulations/s, OpenSpiel "
        f"MCTSBot {theirs:,.1f} through the adapter; ours/OpenSpiel {ours / theirs:.1f}×"
    )


def report(names: Sequence[str] | None = None, seconds: float = 3.0) -> Iterator[str]:
    """Lines of figures: per game, raw decisions/s and PettingZoo steps/s (mask only, and observing) with
    their ratios, measured in turns with PettingZoo's connect_four_v3; OpenSpiel MCTSBot simulations/s
    against ours on equal settings (:func:`equal_search_line`)."""
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
        batch = batch_meter(name, p)
        interleaved([m for m in (raw, fast, full, batch, c4) if m is not None], seconds)
        vs = f"; {fast.rate / c4.rate:.1f}× / {full.rate / c4.rate:.1f}× connect_four_v3" if c4 else ""
        yield (
            f"RL {name} {p}p: engine {raw.rate:,.0f} decisions/s; PettingZoo {fast.rate:,.0f} steps/s "
            f"with masks ({fast.rate / raw.rate:.0%} of the engine), {full.rate:,.0f} steps/s observing "
            f"every step ({full.rate / raw.rate:.0%}){vs}; batched stepper, {BATCH} games observed every "
            f"step: {batch.rate:,.0f} steps/s ({batch.rate / raw.rate:.0%})"
        )
        yield equal_search_line(name, seconds)
    if c4 is not None:
        yield (
            f"PettingZoo connect_four_v3: {c4.rate:,.0f} steps/s (random masked agent, observing every "
            "step; measured in turns with each game above)"
        )
