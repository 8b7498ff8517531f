"""How a search bot searches: its budget, exploration, rollouts and tree mode."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

MODES = ("auto", "mcts", "ismcts")
"""``mcts``: UCT on one determinization whose nodes keep their states (exact for perfect information);
``ismcts``: single-observer IS-MCTS, a fresh determinization every iteration; ``auto``: IS-MCTS when
the game's state hides anything beyond its generator, MCTS otherwise."""


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """The knobs of one search bot (a level is a named set of them, see ``levels.toml``)."""

    iterations: int = 1000
    """Iterations per decision (the budget that makes a decision reproducible from a seed)."""
    seconds: float | None = None
    """A wall-clock cap per decision, checked every few iterations (``None``: none)."""
    exploration: float = 0.7
    """The UCB exploration constant (rewards are in [0, 1])."""
    depth: int | None = 40
    """Rollout decisions before the game's evaluation scores the position (``None``: to the end)."""
    policy: str = "random"
    """Rollout policy: ``random``, ``game`` (the game's fast policy) or a game bot kind (``heuristic``)."""
    mode: str = "auto"
    """One of :data:`MODES`."""
    reuse: bool = True
    """Keep the subtree that still applies from one decision to the next."""

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise ValueError("a search needs at least one iteration")
        if self.mode not in MODES:
            raise ValueError(f"no search mode {self.mode!r}; the modes are {', '.join(MODES)}")
        if self.depth is not None and self.depth < 0:
            raise ValueError("a rollout depth cannot be negative")

    def but(self, **changes: Any) -> SearchSettings:
        """A copy with some settings changed."""
        return dataclasses.replace(self, **changes)
