"""What search needs from Medieval Realms: a state evaluation and a quick rollout policy.

Victory Points decide after the seventh round.  A realm's standing is its tally if the game ended
now (:func:`~.ending.final_scores`: the track, End-of-Game Effects, stored resources, Great Persons)
plus what its Personal Display will bring once played, a little for resources it can still spend and
for the leaders it commands; the shares of the win are a softmax of the standings whose temperature
shrinks as the rounds run out.  Resources are worth little beyond their half VP at the end: a realm
that hoards instead of buying cards loses (an early evaluation that prized them made search pass).
Reads only the state it is given (a determinization in search: the deck and others' placements are
redrawn).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ludorum.engine import CANCEL, Action
from ludorum.engine.evaluation import Evaluation, softmax_shares

from .content import CARDS
from .ending import final_scores
from .state import ACTIONS, OVER, ROUNDS, RealmsState

RESOURCE = 0.1
"""A stored resource beyond the half VP it is worth at the end (it can still buy cards)."""
DISPLAY = 0.7
"""Per VP the Personal Display would score if put into play now (it still costs to play)."""
DISPLAY_CARD = 0.5
"""A card in the Personal Display, for its effects and the tie-break."""
PASS_RATE = 0.1
"""How often the rollout policy passes in the action phase when it could do something else."""
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
    # What the Personal Displays would add if played now: their VP and their End-of-Game Effects.
    played = s.clone()
    played.in_play = tuple((*p, *d) for p, d in zip(s.in_play, s.display, strict=True))
    if_played = final_scores(played)
    scores = [
        t.total
        + DISPLAY * (if_played[i].total - t.total + sum(CARDS[c].vp for c in s.display[i]))
        + DISPLAY_CARD * len(s.display[i])
        + RESOURCE * sum(s.res[i])
        + LEADER * (s.mayors[i] + s.generals[i] + s.admirals[i])
        for i, t in enumerate(tallies)
    ]
    left = ROUNDS - s.round
    return softmax_shares(scores, TEMPERATURE_END + TEMPERATURE_ROUND * left)


def policy(s: RealmsState, legal: Sequence[Action], rng: random.Random) -> Action:
    """Random, but in the action phase (outside auctions) rarely passing while anything else is open."""
    if s.phase == ACTIONS and s.auction is None and len(legal) > 1 and rng.random() >= PASS_RATE:
        doing = [a for a in legal if a.kind != "pass" and a != CANCEL]
        if doing:
            return doing[rng.randrange(len(doing))]
    a = legal[rng.randrange(len(legal))]
    if a == CANCEL and len(legal) > 1:
        return rng.choice([b for b in legal if b != CANCEL])
    return a


EVALUATION: Evaluation[RealmsState] = Evaluation(value, policy)
