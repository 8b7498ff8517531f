"""What search needs from Legends of Signum: a state evaluation.

A hero's death loses the game and 51 prosperity wins it.  A seat's standing counts its hero's
remaining health (the deciding term), the worth of its other creatures on the Battlefield (cost,
scaled by health left), its prosperity and its City's income; the shares of the win are a softmax
of the standings.  Reads only the state it is given (a determinization in search: hands, tactics
and deck orders are redrawn).
"""

from __future__ import annotations

from collections.abc import Sequence

from ludorum.engine.evaluation import Evaluation, softmax_shares

from .creatures import CARDS, health
from .state import SignumState
from .victory import DRAW, PROSPERITY_TO_WIN

HERO = 5.0
"""A hero at full health; a hero one wound from death is worth little more than none."""
CREATURE = 0.12
"""Per point of cost of a creature at full health on the Battlefield."""
PROSPERITY = 4.0
"""Prosperity, per 51 (the prosperity victory)."""
INCOME = 0.15
"""Per point of the City's income each turn."""
TEMPERATURE = 2.0
"""The standing lead that makes a seat e times likelier to win."""


def standing(s: SignumState, seat: int) -> float:
    """Seat ``seat``'s standing."""
    hero_card = s.heroes[seat]
    total = PROSPERITY * min(s.prosperity[seat], PROSPERITY_TO_WIN) / PROSPERITY_TO_WIN
    total += INCOME * sum(CARDS[b].income for b in s.city[seat])
    for m in s.models:
        if m.owner != seat:
            continue
        left = 1.0 - m.wounds / max(1, health(m))
        if m.card == hero_card:
            total += HERO * left**0.7
        else:
            total += CREATURE * max(1, CARDS[m.card].cost) * left
    return total


def value(s: SignumState) -> Sequence[float]:
    """Each seat's share of the win (seats out of the game: none)."""
    n = s.config.players
    if s.phase == "over":
        if s.winner == DRAW:
            return (1.0 / n,) * n
        winners = [p for p in range(n) if p == s.winner or (s.winner >= 0 and not s.hostile(p, s.winner))]
        return tuple(1.0 / len(winners) if p in winners else 0.0 for p in range(n))
    scores = [-1e9 if s.out[p] else standing(s, p) for p in range(n)]
    return softmax_shares(scores, TEMPERATURE)


EVALUATION: Evaluation[SignumState] = Evaluation(value)
