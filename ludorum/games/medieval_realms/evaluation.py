"""What search needs from Medieval Realms: a state evaluation.

Victory Points decide after the seventh round.  A realm's standing is its tally if the game ended
now (:func:`~.ending.final_scores`: the track, End-of-Game Effects, stored resources, Great Persons)
plus a little for the resources it can still spend and the leaders it commands; the shares of the win
are a softmax of the standings whose temperature shrinks as the rounds run out.  Reads only the
state it is given (a determinization in search: the deck and others' placements are redrawn).
"""

from __future__ import annotations

from collections.abc import Sequence

from ludorum.engine.evaluation import Evaluation, softmax_shares

from .ending import final_scores
from .state import OVER, ROUNDS, RealmsState

RESOURCE = 0.25
"""A stored resource beyond the half VP it is worth at the end (it can still buy cards)."""
LEADER = 0.3
"""A Mayor, General or Admiral (it wins majorities in the rounds left)."""
TEMPERATURE_END = 2.0
"""The VP lead that makes a realm e times likelier to win once the game is about to end."""
TEMPERATURE_ROUND = 1.2
"""How much less sure a lead is per round still to play."""


def value(s: RealmsState) -> Sequence[float]:
    """Each seat's share of the win."""
    tallies = final_scores(s)
    if s.phase == OVER:
        keys = [t.key() for t in tallies]
        best = max(keys)
        top = keys.count(best)
        return tuple(1.0 / top if k == best else 0.0 for k in keys)
    scores = [
        t.total + RESOURCE * sum(s.res[i]) + LEADER * (s.mayors[i] + s.generals[i] + s.admirals[i])
        for i, t in enumerate(tallies)
    ]
    left = ROUNDS - s.round
    return softmax_shares(scores, TEMPERATURE_END + TEMPERATURE_ROUND * left)


EVALUATION: Evaluation[RealmsState] = Evaluation(value)
