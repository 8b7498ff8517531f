"""What search needs from Reliquium: a state evaluation and a quick rollout policy.

The ninth castle wins, and at the round limit the most castles on the board.  A faction's standing
is its castles on the board, plus its army (units on the board and in reserve, weighed as the battle
table weighs a unit's best role) and what its castles can still be built on; the shares of the win
are a softmax of those standings.  Reads only the state it is given (a determinization in search).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ludorum.engine import Action
from ludorum.engine.evaluation import Evaluation, softmax_shares

from .rules import castles_on_board, units_on_board
from .state import OVER, ReliquiumState

UNIT = 0.22
"""A unit on the board, in castles (about four units hold or take a castle)."""
RESERVE = 0.05
"""A unit still in the reserve (it must be recruited and marched before it counts)."""
TEMPERATURE = 1.2
"""The castle lead that makes a faction e times likelier to win."""


def standing(s: ReliquiumState, f: int) -> float:
    """Faction ``f``'s standing in castles."""
    return castles_on_board(s, f) + UNIT * units_on_board(s, f) + RESERVE * sum(s.reserve[f])


def value(s: ReliquiumState) -> Sequence[float]:
    """Each seat's share of the win."""
    if s.phase == OVER:  # search scores finished games from the result; this is for completeness
        return tuple(1.0 if f == s.winner else 0.0 for f in s.factions)
    # The nearer the round limit, the surer a lead.
    left = max(1, s.round_limit - s.round + 1)
    temperature = TEMPERATURE * min(1.0, 0.35 + left / 12)
    return softmax_shares([standing(s, f) for f in s.factions], temperature)


def policy(s: ReliquiumState, legal: Sequence[Action], rng: random.Random) -> Action:
    """Build whenever possible, else any action but backing out."""
    for a in legal:
        if a.kind == "build":
            return a
    a = legal[rng.randrange(len(legal))]
    if a.kind == "cancel" and len(legal) > 1:
        return rng.choice([b for b in legal if b.kind != "cancel"])
    return a


EVALUATION: Evaluation[ReliquiumState] = Evaluation(value, policy)
