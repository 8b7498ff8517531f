"""Engine speed: random-playout decisions per second and the cost of ``clone()`` against ``deepcopy``.

One decision is computing the legal actions and applying one of them.  Everything runs in this one
process, on one core.
"""

from __future__ import annotations

import contextlib
import copy
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ludorum.engine import CHANCE, Config, Game, GameState
from ludorum.engine.playout import random_states


@dataclass
class EngineFigures:
    """What one benchmark of one game and player count measured."""

    game: str
    players: int
    decisions_per_s: float
    games: int
    clone_us: float
    deepcopy_us: float

    @property
    def ratio(self) -> float:
        """How many times cheaper ``clone()`` is than ``copy.deepcopy``."""
        return self.deepcopy_us / self.clone_us if self.clone_us else float("inf")


@contextlib.contextmanager
def one_core() -> Iterator[str]:
    """Run the block on one core, so that figures are per core; yield which; restore afterwards."""
    if not hasattr(os, "sched_setaffinity"):
        yield "not pinned (no sched_setaffinity here)"
        return
    before = os.sched_getaffinity(0)
    core = min(before)
    os.sched_setaffinity(0, {core})
    try:
        yield f"pinned to core {core}"
    finally:
        os.sched_setaffinity(0, before)


def random_playout(game: Game[Any], config: Config, seed: int, sample: list[GameState] | None = None) -> int:
    """Play one random game to its end; return its number of decisions (every 25th state to ``sample``)."""
    n = -1
    for n, state in enumerate(random_states(game, config, seed)):
        if sample is not None and n and n % 25 == 0:
            sample.append(state)
    return n


def mid_game(game: Game[Any], players: int, decisions: int = 60) -> GameState:
    """The position ``decisions`` steps into a seeded random game, past any chance node: where the
    search benches compare one MCTS with another."""
    *_, state = random_states(game, game.config(players), 7, decisions + 1)
    while game.to_move(state) == CHANCE:
        state = game.apply_chance(state, game.sample_chance(state))
    return state


def measure(game: Game[Any], players: int, seconds: float = 3.0) -> EngineFigures:
    """Measure decisions/s over random playouts for ``seconds``, then clone and deepcopy costs."""
    config = game.config(players)
    decisions = games = 0
    sample: list[GameState] = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        decisions += random_playout(game, config, games, sample if len(sample) < 200 else None)
        games += 1
    rate = decisions / (time.perf_counter() - start)
    states = sample[:100] or [game.new(config, 0)]
    clone_us = _per_call_us(lambda: [s.clone() for s in states], len(states))
    deep_us = _per_call_us(lambda: [copy.deepcopy(s) for s in states], len(states))
    return EngineFigures(game.name, players, rate, games, clone_us, deep_us)


def _per_call_us(fn: Any, per_run: int, min_seconds: float = 0.3) -> float:
    runs = 0
    start = time.perf_counter()
    while True:
        fn()
        runs += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return elapsed / (runs * per_run) * 1e6
