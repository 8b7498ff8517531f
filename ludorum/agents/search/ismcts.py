"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012).

The tree belongs to the deciding seat: a node is a sequence of actions from its information set, not
a state.  Each iteration draws a fresh determinization — a full state the seat cannot tell from the
truth (``InformationSet.sample``) — and walks the tree along actions legal in that determinization.
A child's *availability* counts the visits of its parent in which it was legal, and replaces the
parent's visits in UCB, so that actions legal only in some determinizations are not undervalued.
Rewards are summed per seat (max^n backup); chance outcomes are drawn with the game's probabilities.
With a guide, a node asks it once (in the determinization of its first visit) what the heuristic would
play, expands that first and gives it a progressive bias, as :mod:`.mcts` does.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from ludorum.engine import CHANCE, Action

from .common import Rewards, Searcher, backup
from .rollout import rollout, sample_outcome, searchable


class InfoNode(Rewards):
    """A node of the observer's tree: children by action, visits, availability and reward sums."""

    __slots__ = ("asked", "avail", "children", "hint", "totals", "visits")

    def __init__(self, players: int) -> None:
        self.children: dict[Action, InfoNode] = {}
        self.hint: Action | None = None
        self.asked = False
        self.visits = 0
        self.avail = 1
        self.totals = [0.0] * players


class ISMCTS(Searcher):
    """SO-IS-MCTS with max^n backup over determinizations of one seat's information set."""

    def root(self, players: int) -> InfoNode:
        """A fresh tree."""
        return InfoNode(players)

    def iterate(self, root: InfoNode, state: Any, rng: random.Random) -> None:
        """One iteration from the determinization ``state``: select, expand, roll out, back up."""
        game, c, log, sqrt, guide, bias = self.game, self.c, math.log, math.sqrt, self.guide, self.bias
        players = len(root.totals)
        node = root
        path = [root]
        while True:
            if game.is_over(state):
                rewards: Sequence[float] = game.result(state).shares
                break
            mover = game.to_move(state)
            children = node.children
            if mover == CHANCE:
                a = sample_outcome(game, state, rng)
                state = game.apply_chance(state, a)
                child = children.get(a)
                if child is None:
                    child = children[a] = InfoNode(players)
                    path.append(child)
                    rewards = rollout(game, state, self.policy, self.depth, self.value, rng)
                    break
                node = child
                path.append(node)
                continue
            legal = searchable(game.legal_actions(state))
            if guide is not None and not node.asked and len(legal) > 1:
                node.asked = True
                node.hint = guide(state, legal, rng)
            hint = node.hint
            untried = [a for a in legal if a not in children]
            if untried:
                for a in legal:
                    seen = children.get(a)
                    if seen is not None:
                        seen.avail += 1
                a = hint if hint is not None and hint in untried else untried[rng.randrange(len(untried))]
                state = game.apply(state, a)
                child = children[a] = InfoNode(players)
                path.append(child)
                rewards = rollout(game, state, self.policy, self.depth, self.value, rng)
                break
            best_a, best, best_score = legal[0], node, -1.0
            for a in legal:
                child = children[a]
                child.avail += 1
                score = child.totals[mover] / child.visits + c * sqrt(log(child.avail) / child.visits)
                if hint is not None and a == hint:
                    score += bias / (child.visits + 1)
                if score > best_score:
                    best_a, best, best_score = a, child, score
            state = game.apply(state, best_a)
            node = best
            path.append(node)
        backup(path, rewards)

    def stats(self, root: InfoNode, seat: int) -> dict[Action, tuple[int, float]]:
        """Root action → (visits, mean reward of ``seat``)."""
        return {a: (ch.visits, ch.mean(seat)) for a, ch in root.children.items()}
