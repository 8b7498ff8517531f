"""Tiny games whose best moves are known, for testing search: Nim and a gamble between two chances."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ludorum.engine import CHANCE, Action, Config, Game, GameState, IllegalAction, Result
from ludorum.engine import rng as rngmod


@dataclass(slots=True)
class NimState(GameState):
    """Stones left and the seat to take."""

    pile: int
    mover: int


class Nim(Game[NimState]):
    """Take 1 or 2 stones in turn; who takes the last stone wins (leave a multiple of 3 to win)."""

    name = "nim"
    title = "Nim"
    min_players = 2
    max_players = 3
    state_type = NimState
    start = 7

    def new(self, config: Config, seed: int) -> NimState:
        return NimState(config=config, rng=rngmod.seed_state(seed), pile=self.start, mover=0)

    def to_move(self, state: NimState) -> int:
        return state.mover

    def legal_actions(self, state: NimState) -> Sequence[Action]:
        return [Action("take", (n,)) for n in (1, 2) if n <= state.pile]

    def apply(self, state: NimState, action: Action) -> NimState:
        if action not in self.legal_actions(state):
            raise IllegalAction(f"{action} is not possible", "Nim")
        s = state.clone()
        s.pile -= int(action.args[0])  # type: ignore[arg-type]
        if s.pile:
            s.mover = (s.mover + 1) % state.config.players
        return s

    def is_over(self, state: NimState) -> bool:
        return state.pile == 0

    def result(self, state: NimState) -> Result:
        keys = [(1.0 if seat == state.mover else 0.0,) for seat in range(state.config.players)]
        return Result.from_keys(keys, "took the last stone")

    def max_decisions(self, config: Config) -> int:
        return self.start


@dataclass(slots=True)
class GambleState(GameState):
    """0: seat 0 chooses a gamble; 1: chance settles it; 2: over."""

    stage: int
    gamble: str
    winner: int


ODDS = {"coin": 0.8, "dice": 0.3}
"""The chance that each gamble wins for seat 0."""


class Gamble(Game[GambleState]):
    """Seat 0 picks a gamble; chance then decides the winner with the gamble's odds."""

    name = "gamble"
    title = "Gamble"
    min_players = 2
    max_players = 2
    state_type = GambleState

    def new(self, config: Config, seed: int) -> GambleState:
        return GambleState(config=config, rng=rngmod.seed_state(seed), stage=0, gamble="", winner=-1)

    def to_move(self, state: GambleState) -> int:
        return CHANCE if state.stage == 1 else 0

    def legal_actions(self, state: GambleState) -> Sequence[Action]:
        if state.stage == 0:
            return [Action("dice"), Action("coin")]
        if state.stage == 1:
            return [Action("winner", (0,)), Action("winner", (1,))]
        return []

    def chance_outcomes(self, state: GambleState) -> Sequence[tuple[Action, float]]:
        p = ODDS[state.gamble]
        return [(Action("winner", (0,)), p), (Action("winner", (1,)), 1 - p)]

    def apply(self, state: GambleState, action: Action) -> GambleState:
        if action not in self.legal_actions(state):
            raise IllegalAction(f"{action} is not possible", "Gamble")
        s = state.clone()
        if s.stage == 0:
            s.gamble = action.kind
        else:
            s.winner = int(action.args[0])  # type: ignore[arg-type]
        s.stage += 1
        return s

    def is_over(self, state: GambleState) -> bool:
        return state.stage == 2

    def result(self, state: GambleState) -> Result:
        return Result.from_keys([(float(s == state.winner),) for s in range(2)], "the gamble")

    def max_decisions(self, config: Config) -> int:
        return 2
