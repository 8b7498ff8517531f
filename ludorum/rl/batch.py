"""A batched stepper: N games of one kind in one process, stepped together, their observations stacked in
one preallocated ``(N, obs_size)`` array and their masks in one ``(N, n_actions)`` array (docs/rl.md).

Every game is seen from the seat deciding in it (``seats``); chance is resolved from each game's own seeded
generator.  A game that ends reports its rewards and ``done`` and starts again at once with the next seed,
so every row always holds a game in progress (the next-step observation of a finished game is its new
game's first).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ludorum.rl.core import Table, masked_out


class BatchStepper:
    """N games of ``name`` stepped together (the ``rl`` extra): ``reset``, then ``step`` one action id per
    game."""

    def __init__(
        self, name: str, n: int, players: int | None = None, variants: Iterable[str] = (), **options: Any
    ) -> None:
        if n < 1:
            raise ValueError(f"a batch holds at least one game, not {n}")
        self.table = Table(name, players, variants, **options)
        self.n = n
        self.observations = np.zeros((n, self.table.obs_size), np.float32)
        """Row i: the observation of the seat deciding in game i (written in place at every step)."""
        self.masks = np.zeros((n, self.table.n_actions), np.int8)
        """Row i: the legal action ids of game i, as a mask (written in place at every step)."""
        self.seats = np.zeros(n, np.int64)
        """The seat deciding in each game."""
        self._states: list[Any] = [None] * n
        self._legal: list[dict[int, Any]] = [{}] * n
        self._next_seed = 0

    def reset(self, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """Start game i with seed ``seed + i`` (later games take the following seeds); the observations
        and masks."""
        self._next_seed = seed
        for i in range(self.n):
            self._start(i)
        return self.observations, self.masks

    def step(self, actions: Sequence[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Play action id ``actions[i]`` in game i; the observations, masks, rewards (``(N, players)``: a
        finished game's 1 to every seat ranked first, else 0) and which games ended (then started again).
        An action that is not legal in its game is refused, naming it, before any game moves."""
        if len(actions) != self.n:
            raise ValueError(f"one action per game: {self.n} expected, {len(actions)} given")
        for i, a in enumerate(actions):
            if not isinstance(a, int | np.integer) or int(a) not in self._legal[i]:
                raise ValueError(f"game {i}: {masked_out(a, self._legal[i], f'seat {self.seats[i]}')}")
        rewards = np.zeros((self.n, self.table.players), np.float32)
        done = np.zeros(self.n, np.bool_)
        game = self.table.game
        for i, a in enumerate(actions):
            state, seat = self.table.advance(game.apply(self._states[i], self._legal[i][int(a)]))
            if seat is None:
                rewards[i] = self.table.utilities(state)
                done[i] = True
                self._start(i)
            else:
                self._show(i, state, seat)
        return self.observations, self.masks, rewards, done

    def _start(self, i: int) -> None:
        """A new game in row i, with the next seed (a game over before anyone decides is skipped)."""
        table = self.table
        while True:
            seed, self._next_seed = self._next_seed, self._next_seed + 1
            state, seat = table.advance(table.game.new(table.config, seed))
            if seat is not None:
                self._show(i, state, seat)
                return

    def _show(self, i: int, state: Any, seat: int) -> None:
        """Write game i's observation and mask for ``seat``, who decides in ``state``."""
        self._states[i] = state
        self.seats[i] = seat
        legal = self.table.legal(state)
        self._legal[i] = legal
        self.observations[i] = self.table.observe(state, seat)
        self.masks[i] = self.table.read_only_mask(legal)
