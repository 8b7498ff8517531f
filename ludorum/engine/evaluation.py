"""What search needs from a game beyond its rules: a state evaluation and, optionally, a rollout policy.

Search bots (``ludorum.agents.search``) are generic over :class:`~ludorum.engine.game.Game`; they cut
their rollouts at a depth and ask the game how good the position is for each seat.  A game brings that
knowledge as an :class:`Evaluation` (from ``Game.evaluation()``), written next to its heuristic bot.

Both functions receive a *full* state, but inside search that state is always a determinization drawn
from the deciding seat's information set (``Game.sample_state``), never the true state: they may read
any field of it.  They must be fast (they run thousands of times per decision) and must not compute
views.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ludorum.engine.actions import Action
from ludorum.engine.state import GameState

if TYPE_CHECKING:  # bots → information → game → evaluation: the type only, no import circle
    from ludorum.engine.bots import Bot

S = TypeVar("S", bound=GameState)

ValueFn = Callable[[Any], Sequence[float]]
"""A state → one value in [0, 1] per seat."""

PolicyFn = Callable[[Any, Sequence[Action], random.Random], Action]
"""A state, its legal actions and a generator → the action a quick rollout plays."""


@dataclass(frozen=True, slots=True)
class Evaluation(Generic[S]):
    """A game's knowledge for search: ``value``, an optional fast rollout ``policy`` and ``guide``.

    ``value(state)`` estimates, for every seat, its share of the win from ``state`` (a number in
    [0, 1]; the values of all seats should sum to about 1, as the terminal rewards do: 1 to a sole
    winner, 1/k to each of k tied winners, 0 to the others).  ``policy(state, legal, rng)``, when
    given, picks one of ``legal`` quickly (it never needs to be strong, only better than random and
    cheap).  ``guide``, when given, makes the bot a search level with ``guide = "game"`` asks at every
    new node what it would play (a policy meant for search, which the game need not offer as a bot kind).
    ``guides`` offers more of them by name, for levels with ``guide = "game:<name>"`` (a game whose
    levels differ by how sharp a guide they get, not only by budget).  ``values`` offers other estimates
    by name, for levels with ``value = "<name>"`` (a level that scores its leaves differently from the
    others).  Module-level functions keep an evaluation picklable for worker processes.
    """

    value: Callable[[S], Sequence[float]]
    policy: Callable[[S, Sequence[Action], random.Random], Action] | None = None
    guide: Callable[[], Bot] | None = None
    guides: Mapping[str, Callable[[], Bot]] = field(default_factory=dict)
    values: Mapping[str, Callable[[S], Sequence[float]]] = field(default_factory=dict)


def softmax_shares(scores: Sequence[float], temperature: float, certainty: float = 0.8) -> tuple[float, ...]:
    """Scores → win shares in [0, 1] summing to 1: a logistic (softmax) of score differences.

    ``temperature`` is the score difference that makes one seat e ≈ 2.7 times likelier to win than
    another; shares of equal scores are equal.  The softmax is mixed with equal shares in the
    proportion ``certainty``, so that no evaluation is ever as sure as a game actually won: a search
    then still tells a win now from a position that only looks winning.
    """
    import math

    top = max(scores)
    weights = [math.exp((s - top) / temperature) for s in scores]
    total = sum(weights)
    even = (1.0 - certainty) / len(scores)
    return tuple(even + certainty * w / total for w in weights)
