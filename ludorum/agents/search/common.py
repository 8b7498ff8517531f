"""What MCTS and IS-MCTS share: their settings and the reward statistics of a node."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ludorum.engine import Game

from .rollout import Guide, Policy


class Tally(Protocol):
    """What a backup updates: a node's visits and reward sums per seat."""

    totals: list[float]
    visits: int


class Rewards:
    """A node's visits and reward sums per seat (max^n backup); mixed into both trees' nodes."""

    __slots__ = ()
    totals: list[float]
    visits: int

    def mean(self, seat: int) -> float:
        """The average reward of ``seat`` through this node."""
        return self.totals[seat] / self.visits if self.visits else 0.0


def backup(path: Sequence[Tally], rewards: Sequence[float]) -> None:
    """Add one iteration's ``rewards`` (one per seat) to every node on its ``path`` (max^n backup)."""
    n = len(rewards)
    for visited in path:
        visited.visits += 1
        totals = visited.totals
        for i in range(n):
            totals[i] += rewards[i]


class Searcher:
    """The rules, the rollout policy cut at ``depth`` and scored by ``value``, UCB's exploration
    constant and the heuristic guide's progressive bias (no guide when ``bias`` is 0)."""

    def __init__(
        self,
        game: Game[Any],
        policy: Policy,
        depth: int | None,
        value: Callable[[Any], Sequence[float]] | None,
        exploration: float,
        guide: Guide | None = None,
        bias: float = 0.0,
    ) -> None:
        self.game = game
        self.policy = policy
        self.depth = depth
        self.value = value
        self.c = exploration
        self.guide = guide if bias > 0 else None
        self.bias = bias
