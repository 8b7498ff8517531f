"""The search bot: MCTS or IS-MCTS behind the :class:`~ludorum.engine.bots.Bot` interface.

It decides from its seat's :class:`~ludorum.engine.information.InformationSet` only: its forward model
is ``info.sample`` (a determinization) and ``info.game``; it never sees the true state.  The true
state's generator is hidden too, so every determinization gets a generator drawn from the search's
own.  A decision with a single searchable action is instant.  Between decisions the bot keeps the
subtree under the action it chose and, at its next decision, looks in it for the node whose
position its seat would see exactly as it sees the game now (same view, same seat to move).
"""

from __future__ import annotations

import random
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from ludorum.engine import Action, Game, IllegalAction
from ludorum.engine.information import InformationSet, hides_information

from .ismcts import ISMCTS, InfoNode
from .mcts import MCTS, StateNode
from .rollout import make_guide, make_policy, make_value, searchable
from .settings import SearchSettings

REUSE_LOOKS = 48
"""Views compared at most when looking for the subtree that still applies (a view costs time)."""
REUSE_DEPTH = 40
"""How deep under the last choice that subtree is looked for."""
CHECK_EVERY = 8
"""Iterations between two looks at the clock."""


@dataclass
class Thought:
    """What the last decision cost: iterations run, seconds, and whether a subtree was reused."""

    iterations: int = 0
    seconds: float = 0.0
    reused: int = 0
    """Visits of the reused subtree's root (0: a fresh tree)."""
    values: dict[Action, tuple[int, float]] = field(default_factory=dict)
    """Each root action searched: its visits and the deciding seat's mean reward through it (its
    estimated win chance); empty when the decision needed no search."""


class SearchBot:
    """A bot that searches: UCT (``mcts``) or SO-IS-MCTS (``ismcts``), see :class:`SearchSettings`."""

    def __init__(self, settings: SearchSettings | None = None) -> None:
        self.settings = settings or SearchSettings()
        self.last = Thought()
        self._game: Game[Any] | None = None
        self._engine: MCTS | ISMCTS | None = None
        self._seat = -1
        # Per tree, the subtree kept for the next decision and (IS-MCTS) a state its root stands for.
        self._kept: list[tuple[StateNode | InfoNode | None, Any]] = []

    def __getstate__(self) -> dict[str, Any]:
        # Sent to a worker process without its tree: the worker keeps its own bot between decisions.
        return {"settings": self.settings}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__init__(data["settings"])  # type: ignore[misc]

    def mode(self, game: Game[Any]) -> str:
        """``mcts`` or ``ismcts`` for ``game``."""
        if self.settings.mode != "auto":
            return self.settings.mode
        return "ismcts" if hides_information(game) else "mcts"

    def _engine_for(self, game: Game[Any], seat: int) -> MCTS | ISMCTS:
        if self._engine is None or self._game is not game or self._seat != seat:
            s = self.settings
            value = make_value(game, s.value)
            cls = ISMCTS if self.mode(game) == "ismcts" else MCTS
            policy = make_policy(game, s.policy, s.epsilon)
            guide = make_guide(game, s.guide) if s.bias > 0 else None
            self._engine = cls(game, policy, s.depth, value, s.exploration, guide, s.bias)
            self._game, self._seat = game, seat
            self._kept = []
        return self._engine

    def decide(self, info: InformationSet[Any], rng: random.Random) -> Action:
        """Search from ``info`` within the budget and play the most visited action (visits summed over
        the trees when there are several)."""
        legal = searchable(info.legal)
        if len(legal) == 1:
            self.last = Thought()
            return legal[0]
        start = time.perf_counter()
        srng = random.Random(rng.getrandbits(64))
        engine = self._engine_for(info.game, info.seat)
        s = self.settings
        kept = self._kept if s.reuse else []
        self._kept = []
        searched: list[tuple[StateNode | InfoNode, random.Random]] = []
        stats: dict[Action, tuple[int, float]] = {}
        done = reused = 0
        for k in range(s.trees):
            # One tree searches with the decision's generator itself, so that its games replay as before.
            trng = srng if s.trees == 1 else random.Random(srng.getrandbits(64))
            # A capped decision shares its seconds out among the trees.
            deadline = None if s.seconds is None else start + s.seconds * (k + 1) / s.trees
            old = kept[k] if k < len(kept) else (None, None)
            root, n, tree_stats = self._search(engine, info, old, trng, deadline)
            searched.append((root, trng))
            done += n
            reused += root.visits - n
            stats = _summed(stats, tree_stats) if stats else tree_stats
        choice = best_action(legal, stats)
        self.last = Thought(done, time.perf_counter() - start, reused, stats)
        if s.reuse:
            self._kept = [self._keep(info, root, choice, trng) for root, trng in searched]
        return choice

    def _search(
        self,
        engine: MCTS | ISMCTS,
        info: InformationSet[Any],
        kept: tuple[StateNode | InfoNode | None, Any],
        rng: random.Random,
        deadline: float | None,
    ) -> tuple[StateNode | InfoNode, int, dict[Action, tuple[int, float]]]:
        """One tree's search: its root (a kept subtree when one still applies), its iterations and its
        root statistics."""
        s = self.settings
        done = 0
        if isinstance(engine, MCTS):
            sroot = self._reuse_state(info, kept[0]) if s.reuse else None
            if sroot is None:
                sroot = engine.root(self._determinize(info, rng), rng)
            while done < s.iterations:
                engine.iterate(sroot, rng)
                done += 1
                if deadline is not None and done % CHECK_EVERY == 0 and time.perf_counter() > deadline:
                    break
            return sroot, done, engine.stats(sroot)
        iroot = self._reuse_info(info, kept) if s.reuse else None
        if iroot is None:
            iroot = engine.root(info.config.players)
        while done < s.iterations:
            engine.iterate(iroot, self._determinize(info, rng), rng)
            done += 1
            if deadline is not None and done % CHECK_EVERY == 0 and time.perf_counter() > deadline:
                break
        return iroot, done, engine.stats(iroot, info.seat)

    @staticmethod
    def _determinize(info: InformationSet[Any], rng: random.Random) -> Any:
        state = info.sample(rng)
        state.rng = rng.getrandbits(64)  # the true generator is hidden: never search with it
        return state

    # -- tree reuse --------------------------------------------------------------------------------------

    def _keep(
        self, info: InformationSet[Any], root: StateNode | InfoNode, choice: Action, rng: Any
    ) -> tuple[StateNode | InfoNode | None, Any]:
        """The subtree under ``choice`` to look in at the next decision, and (IS-MCTS) a state its root
        stands for."""
        child = root.children.get(choice)
        if isinstance(root, InfoNode) and child is not None:
            try:
                return child, info.game.step(self._determinize(info, rng), choice)
            except IllegalAction:
                return None, None
        return child, None

    def _reuse_state(self, info: InformationSet[Any], kept: StateNode | InfoNode | None) -> StateNode | None:
        if not isinstance(kept, StateNode):
            return None
        game, seat, view = info.game, info.seat, info.view
        queue: deque[tuple[StateNode, int]] = deque([(kept, 0)])
        looks = 0
        while queue and looks < REUSE_LOOKS:
            node, depth = queue.popleft()
            if node.mover == seat:
                looks += 1
                if game.view_equals(node.state, seat, view):
                    return node
            if depth < REUSE_DEPTH:
                for child in sorted(node.children.values(), key=lambda n: -n.visits):
                    queue.append((child, depth + 1))
        return None

    def _reuse_info(
        self, info: InformationSet[Any], kept_and_state: tuple[StateNode | InfoNode | None, Any]
    ) -> InfoNode | None:
        kept, state0 = kept_and_state
        if not isinstance(kept, InfoNode) or state0 is None:
            return None
        game, seat, view = info.game, info.seat, info.view
        queue: deque[tuple[InfoNode, Any, int]] = deque([(kept, state0, 0)])
        looks = 0
        while queue and looks < REUSE_LOOKS:
            node, state, depth = queue.popleft()
            if game.is_over(state):
                continue
            if game.to_move(state) == seat:
                looks += 1
                if game.view_equals(state, seat, view):
                    return node
            if depth >= REUSE_DEPTH:
                continue
            for a, child in sorted(node.children.items(), key=lambda kv: -kv[1].visits):
                try:
                    queue.append((child, game.step(state, a), depth + 1))
                except IllegalAction:  # not possible in this determinization
                    continue
        return None


def _summed(
    a: dict[Action, tuple[int, float]], b: dict[Action, tuple[int, float]]
) -> dict[Action, tuple[int, float]]:
    """Two trees' root statistics as one: visits added, means weighted by visits."""
    out = dict(a)
    for action, (visits, mean) in b.items():
        seen, seen_mean = out.get(action, (0, 0.0))
        total = seen + visits
        out[action] = (total, (seen * seen_mean + visits * mean) / total if total else 0.0)
    return out


def best_action(legal: list[Action], stats: dict[Action, tuple[int, float]]) -> Action:
    """The most visited legal action (ties: the higher mean, then the first listed)."""
    best, key = legal[0], (-1, -1.0)
    for a in legal:
        k = stats.get(a, (0, 0.0))
        if k > key:
            best, key = a, k
    return best
