"""What search needs from Reliquium: a state evaluation and a quick rollout policy.

The ninth castle wins, and at the round limit the most castles on the board.  A faction's standing
is its castles on the board, plus its army (units on the board and in reserve, weighed as the battle
table weighs a unit's best role) and what its castles can still be built on; the shares of the win
are a softmax of those standings.  Reads only the state it is given (a determinization in search).

With three or four players the standing is a model fitted to who went on to win heuristic self-play
games (:func:`race_score`, docs/agents.md "Reliquium at four players"): castles count for more, and
the lands a faction already holds and could build on next count too, the nearer the leader is to the
ninth castle.  Two players keep the hand-set standing (their search was already strong with it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ludorum.engine import Action
from ludorum.engine.evaluation import Evaluation, softmax_shares
from ludorum.engine.provides import Tunable

from .content import WATER
from .rules import castles_on_board, terrain_of, units_on_board
from .state import NO, OVER, ReliquiumState

UNIT = 0.22
"""A unit on the board, in castles (about four units hold or take a castle)."""
RESERVE = 0.05
"""A unit still in the reserve (it must be recruited and marched before it counts)."""
TEMPERATURE = 1.2
"""The castle lead that makes a faction e times likelier to win."""

# The race model for three or more players (fitted, see the module's docstring).  Indexed by the
# leader's castles on the board (0-8): the later in the race, the more a castle or a ready land decides.
RACE_CASTLE = (1.0, 1.0, 1.0, 1.0, 1.14, 1.14, 1.27, 1.27, 1.65, 1.65)
"""Log-odds of winning per castle on the board."""
RACE_READY = (0.05, 0.05, 0.05, 0.05, 0.39, 0.39, 0.58, 0.58, 1.16, 1.16)
"""Log-odds per *ready* land: held by the faction's units, castle-less, with a token of its terrain
left on the faction's track (a build away; at most the tokens left per terrain count)."""
RACE_ARMY = 0.08
"""Log-odds per unit on the board rather than in the reserve."""
RACE_CERTAINTY = 0.9
"""How much of the fitted shares is kept (the rest is spread evenly): a won game stays worth more."""


def standing(s: ReliquiumState, f: int) -> float:
    """Faction ``f``'s standing in castles (the two-player evaluation)."""
    return castles_on_board(s, f) + UNIT * units_on_board(s, f) + RESERVE * sum(s.reserve[f])


def ready_lands(s: ReliquiumState, f: int) -> int:
    """Lands ``f`` could build a castle on at its next build: held by its units, without a castle,
    not water, counted per terrain up to the tokens of that terrain left on its track."""
    per = [0, 0, 0]
    occ, cas, terrain = s.occupant, s.castle, terrain_of(s)
    for r in range(len(occ)):
        if occ[r] == f and cas[r] == NO and terrain[r] != WATER:
            per[terrain[r]] += 1
    return sum(min(n, left) for n, left in zip(per, s.track[f], strict=True))


def race_score(s: ReliquiumState, f: int, lead: int) -> float:
    """Faction ``f``'s log-odds of winning (up to a constant) when the leader has ``lead`` castles."""
    army = units_on_board(s, f) - sum(s.reserve[f])
    return (
        RACE_CASTLE[lead] * castles_on_board(s, f) + RACE_READY[lead] * ready_lands(s, f) + RACE_ARMY * army
    )


def value(s: ReliquiumState) -> Sequence[float]:
    """Each seat's share of the win."""
    if s.phase == OVER:  # search scores finished games from the result; this is for completeness
        return tuple(1.0 if f == s.winner else 0.0 for f in s.factions)
    if len(s.factions) >= 3:
        lead = min(9, max(castles_on_board(s, f) for f in s.factions))
        return softmax_shares([race_score(s, f, lead) for f in s.factions], 1.0, RACE_CERTAINTY)
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

TUNABLES: dict[str, Tunable] = {
    "unit": Tunable(__name__, "UNIT", 0.0, 1.0, "a unit's worth against a castle"),
    "reserve": Tunable(__name__, "RESERVE", 0.0, 0.3, "a reserve unit's worth"),
    "temperature": Tunable(
        __name__,
        "TEMPERATURE",
        0.3,
        5.0,
        "the castle lead that makes a seat e times likelier to win",
        log=True,
    ),
}
"""The weights above that ``ludorum tune`` may vary (declared in ``Game.provides.tunables``): the search bots
read them as they decide."""
