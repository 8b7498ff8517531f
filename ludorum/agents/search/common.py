"""What MCTS and IS-MCTS share: their settings and the reward statistics of a node."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ludorum.engine import Game

from .rollout import Guide, Policy


class Rewards:
    """A node's visits and reward sums per seat (max^n backup); mixed into both trees' nodes."""

    __slots__ = ()
    totals: list[float]
    visits: int

    def mean(self, seat: int) -> float:
        """The average reward of ``seat`` through this node."""
        return self.totals[seat] / self.visits if self.visits else 0.0


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
