"""UCT for any number of seats on one known state (perfect information, or one determinization).

Every node keeps its state, so an iteration walks down the tree without re-applying actions.  A node
stores the sum of rewards per seat (max^n backup: the seat deciding at a node picks the child best for
itself); a chance node draws its outcome with the game's probabilities and keeps one child per outcome.

With a *guide* (the game's heuristic), every new decision node asks it what it would play; that child
is expanded first and keeps a progressive bias ``bias / (visits + 1)`` in its UCB score (Chaslot et al.
2008), so that a small budget starts from the heuristic's move and leaves it only on evidence.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from ludorum.engine import CHANCE, Action, Game

from .common import Rewards, Searcher, backup
from .rollout import Guide, rollout, searchable

TERMINAL = -2
"""``StateNode.mover`` of a finished game."""


class StateNode(Rewards):
    """A position in the tree: its state, who decides, untried actions, visits and reward sums."""

    __slots__ = ("children", "hint", "mover", "outcomes", "rewards", "state", "totals", "untried", "visits")

    def __init__(self, game: Game[Any], state: Any, rng: random.Random, guide: Guide | None = None) -> None:
        self.state = state
        self.hint: Action | None = None
        self.visits = 0
        self.totals = [0.0] * state.config.players
        self.children: dict[Action, StateNode] = {}
        self.rewards: Sequence[float] | None = None
        self.outcomes: Sequence[tuple[Action, float]] = ()
        self.untried: list[Action] = []
        if game.is_over(state):
            self.mover = TERMINAL
            self.rewards = game.result(state).shares
            return
        self.mover = game.to_move(state)
        if self.mover == CHANCE:
            self.outcomes = game.chance_outcomes(state)
        else:
            self.untried = searchable(game.legal_actions(state))
            rng.shuffle(self.untried)  # expansion order: random, so no action is favoured by its place
            if guide is not None and len(self.untried) > 1:
                self.hint = guide(state, self.untried, rng)
                if self.hint is not None:  # expanded first (``untried`` is popped from its end)
                    self.untried.remove(self.hint)
                    self.untried.append(self.hint)


class MCTS(Searcher):
    """UCT with max^n backup and chance nodes over states kept in the nodes."""

    def root(self, state: Any, rng: random.Random) -> StateNode:
        """A fresh tree for ``state``."""
        return StateNode(self.game, state, rng, self.guide)

    def iterate(self, root: StateNode, rng: random.Random) -> None:
        """One iteration: select, expand one node, roll out, back up."""
        game, c, log, sqrt, guide = self.game, self.c, math.log, math.sqrt, self.guide
        node = root
        path = [root]
        while True:
            if node.rewards is not None:
                rewards = node.rewards
                break
            if node.mover == CHANCE:
                a = _draw(node.outcomes, rng)
                child = node.children.get(a)
                if child is None:
                    child = node.children[a] = StateNode(game, game.apply_chance(node.state, a), rng, guide)
                    path.append(child)
                    rewards = self._leaf(child, rng)
                    break
                node = child
                path.append(node)
                continue
            if node.untried:
                a = node.untried.pop()
                child = node.children[a] = StateNode(game, game.apply(node.state, a), rng, guide)
                path.append(child)
                rewards = self._leaf(child, rng)
                break
            mover = node.mover
            k = c * sqrt(log(node.visits))
            best, best_score = node, -1.0
            hinted = node.children.get(node.hint) if node.hint is not None else None
            for child in node.children.values():
                score = child.totals[mover] / child.visits + k / sqrt(child.visits)
                if child is hinted:
                    score += self.bias / (child.visits + 1)
                if score > best_score:
                    best, best_score = child, score
            node = best
            path.append(node)
        backup(path, rewards)

    def _leaf(self, node: StateNode, rng: random.Random) -> Sequence[float]:
        if node.rewards is not None:
            return node.rewards
        return rollout(self.game, node.state, self.policy, self.depth, self.value, rng)

    def stats(self, root: StateNode) -> dict[Action, tuple[int, float]]:
        """Root action → (visits, mean reward of the deciding seat)."""
        return {a: (ch.visits, ch.mean(root.mover)) for a, ch in root.children.items()}


def _draw(outcomes: Sequence[tuple[Action, float]], rng: random.Random) -> Action:
    x = rng.random()
    for a, p in outcomes:
        x -= p
        if x < 0:
            return a
    return outcomes[-1][0]
