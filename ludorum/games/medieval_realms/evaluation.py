"""What search needs from Medieval Realms: a state evaluation and a quick rollout policy.

Victory Points decide after the seventh round.  A realm's standing, in VP, is its tally if the game
ended now (:func:`~.ending.final_scores`: the track, End-of-Game Effects, Great Persons) plus:

* its stored resources (and the tokens it is still owed) at their worth *now*: the half VP they
  score at the end, and a little more while there are action phases left to spend them in;
* its leaders for the rounds they will still produce in (a Mayor yields a token a round; Generals
  and Admirals win the Realm's Map areas);
* each card of its Personal Display for what putting it into play would bring — its VP, the Cities'
  Colour Effects, the End-of-Game Effects and Great Person table it adds to, the leader or tokens it
  gives — less the resources it costs at their worth, times the chance of affording it before the
  end (1 if it can be paid now, none in the last round if it cannot, in between by how short it is).

Playing an affordable card therefore never looks worse than holding it (an earlier evaluation valued
the Personal Display without its cost, so that search saw every card played as a loss), and a card
bought that can never be paid for is worth next to nothing at the end.  The shares of the win are a
softmax of the standings whose temperature shrinks as the rounds run out.  Reads only the state it is
given (a determinization in search: the deck and others' placements are redrawn).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ludorum.engine import CANCEL, Action
from ludorum.engine.evaluation import Evaluation, softmax_shares
from ludorum.engine.provides import Tunable

from .cards import cost
from .content import CARDS, leader_given
from .ending import end_effects, final_scores, great_person_points
from .placement import buffers
from .state import ACTIONS, OVER, ROUNDS, RealmsState

RESOURCE = 0.25
"""What a stored resource is worth beyond its half VP with every action phase still to come (it can
still buy and play cards); it falls to nothing in the last round."""
INCOME = 2.5
"""Tokens of one resource a realm can gather in a round when it aims at it (to judge a shortfall)."""
LEADER = 0.5
"""VP a Mayor is worth per round it will still produce in (its token)."""
MILITARY = {"mayor": 1.0, "general": 1.4, "admiral": 0.8}
"""Each leader's worth in Mayors: a General (combat value 2) or an Admiral (1) wins areas of the map."""
DISPLAY_CARD = 0.3
"""A card in the Personal Display besides its worth in play (a colour held, a majority card blocked)."""
PASS_RATE = 0.1
"""How often the rollout policy passes in the action phase when it could do something else."""
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
    # Rounds whose production is still to come (this one's is in once the action phase has begun).
    future = ROUNDS - s.round + (0 if s.phase == ACTIONS else 1)
    worth = 0.5 + RESOURCE * (ROUNDS - s.round) / (ROUNDS - 1)
    scores = []
    for seat, t in enumerate(tallies):
        leaders = (
            MILITARY["mayor"] * (s.mayors[seat] - buffers(s.config.players))
            + MILITARY["general"] * s.generals[seat]
            + MILITARY["admiral"] * s.admirals[seat]
        ) * LEADER
        standing = t.total - t.resources + worth * (sum(s.res[seat]) + s.dues[seat]) + future * leaders
        standing += sum(
            _display_worth(s, seat, c, t.end_effects + t.great_persons, future, worth) + DISPLAY_CARD
            for c in s.display[seat]
        )
        scores.append(standing)
    return softmax_shares(scores, TEMPERATURE_END + TEMPERATURE_ROUND * (ROUNDS - s.round))


def _display_worth(s: RealmsState, seat: int, card_id: int, end_now: int, future: int, worth: float) -> float:
    """What the Personal Display's ``card_id`` is worth to ``seat``: its gain in play less its cost,
    times the chance of paying for it before the end."""
    card = CARDS[card_id]
    played = s.in_play[seat]
    gain: float = card.vp + sum(
        1 for x in played if CARDS[x].type == "city" and CARDS[x].city_colour == card.colour
    )
    trial = s.clone()
    trial.in_play = tuple((*p, card_id) if j == seat else p for j, p in enumerate(s.in_play))
    great = sum(1 for x in played if CARDS[x].great_person) + card.great_person
    gain += end_effects(trial, seat) + great_person_points(great) - end_now
    leader = leader_given(card)
    if leader:
        gain += LEADER * MILITARY[leader] * future
    elif card.type == "scientific_development":
        gain += worth * s.mayors[seat]
    elif card.type == "tithe":
        gain += worth * 4
    if card.type == "island":  # no resources, but one Admiral per Island in play
        islands = sum(1 for x in played if CARDS[x].type == "island") + 1
        need, short = 0, 3 * max(0, islands - s.admirals[seat])
    else:
        need = cost(card, s.config.players)
        short = max(0, need - s.res[seat][card.cost_resource])
    if short == 0:
        chance = 1.0
    elif future <= 0:
        chance = 0.0
    else:
        chance = INCOME * future / (INCOME * future + short)
    return chance * (gain - worth * need)


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

TUNABLES: dict[str, Tunable] = {
    "resource": Tunable(
        __name__,
        "RESOURCE",
        0.0,
        1.0,
        "a stored resource beyond its end value, with every action phase to come",
    ),
    "leader": Tunable(
        __name__,
        "LEADER",
        0.0,
        1.5,
        "a Mayor per round it still produces in (Generals, Admirals in proportion)",
    ),
    "temperature_end": Tunable(
        __name__,
        "TEMPERATURE_END",
        0.5,
        8.0,
        "the VP lead that makes a realm e times likelier to win at the end",
        log=True,
    ),
    "temperature_round": Tunable(
        __name__,
        "TEMPERATURE_ROUND",
        0.2,
        5.0,
        "how much less sure a lead is per round left",
        log=True,
    ),
}
"""The weights above that ``ludorum tune`` may vary (declared in ``Game.provides.tunables``): the search bots
read them as they decide."""
