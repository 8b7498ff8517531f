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
    epsilon: float = 0.0
    """With a bot as rollout policy: how often a rollout step plays a random action instead."""
    guide: str = ""
    """A game bot kind (``heuristic``), ``game`` (the game evaluation's guide bot) or ``game:<name>`` (one
    of its named guides) asked at every new
    decision node for its move, which is expanded first and favoured by a progressive bias (``""``:
    none)."""
    value: str = ""
    """The estimate that scores a rollout's last position: ``""`` the game's (``Evaluation.value``), or
    one of the others it offers by name (``Evaluation.values``)."""
    bias: float = 0.0
    """The progressive bias of the guide's move: ``bias / (visits + 1)`` added to its UCB score."""
    mode: str = "auto"
    """One of :data:`MODES`."""
    reuse: bool = True
    """Keep the subtree that still applies from one decision to the next."""
    trees: int = 1
    """Independent searches of ``iterations`` each, from their own seeds, whose root visits are summed
    before the most visited action is played (root parallelism, Chaslot, Winands & van den Herik 2008;
    an ensemble of determinized searches).  An action other than the guide's is then played only when
    the trees agree on it, not when one tree's draws happen to favour it."""

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise ValueError("a search needs at least one iteration")
        if self.trees < 1:
            raise ValueError("a search needs at least one tree")
        if self.mode not in MODES:
            raise ValueError(f"no search mode {self.mode!r}; the modes are {', '.join(MODES)}")
        if not 0.0 <= self.epsilon <= 1.0:
            raise ValueError("epsilon is a probability")
        if self.depth is not None and self.depth < 0:
            raise ValueError("a rollout depth cannot be negative")

    def but(self, **changes: Any) -> SearchSettings:
        """A copy with some settings changed."""
        return dataclasses.replace(self, **changes)
