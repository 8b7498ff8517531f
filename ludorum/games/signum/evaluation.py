"""What search needs from Legends of Signum: a state evaluation.

A hero's death loses the game and 51 prosperity wins it (Legends of Signum › 8).  A seat's standing
counts its hero's remaining health (the deciding term) *after the wounds it can expect from the enemies
in reach*, the worth of its other creatures on the Battlefield (cost, scaled by health left), its
prosperity and its City's income; the shares of the win are a softmax of the standings.  Reads only the
state it is given (a determinization in search: hands, tactics and deck orders are redrawn).  It also
offers search its guides: the heuristic in ``bot.GUIDE_STYLE`` (``Evaluation.guide``, for ``hard``), in
``bot.THRIFTY_STYLE`` (``Evaluation.guides["thrifty"]``, for ``medium``) and in ``bot.CAREFUL_STYLE``
(``Evaluation.guides["careful"]``, for ``easy``).

Why the threat term: search scores a leaf the moment it is reached (``levels.toml``: Signum's rules are
too slow for rollouts), so an evaluation that counts only wounds already dealt cannot tell a hero left
in the reach of three enemy fighters from one kept back, nor a charge that will land from one that
cannot — every deviation from the heuristic's move that search found on such an evaluation measured as
neutral or worse (docs/agents.md).  The expected wounds are rough (no terrain, no line of sight, no
split), but cheap: a few distance checks per model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ludorum.engine.evaluation import Evaluation, softmax_shares
from ludorum.engine.provides import Tunable

from . import battlefield as bf
from . import creatures as cr
from .bot import careful_bot, guide_bot, thrifty_bot
from .creatures import CARDS, health
from .state import Model, SignumState
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
DANGER = 0.8
"""How much of the wounds a hero can expect from the enemies in reach counts as wounds already taken."""
LATER = 0.5
"""The weight of a threat from a creature that cannot act before its target's side does (it is not its
side's turn, or it has acted): the target may still step away or strike first."""

# Expected wounds per die, from the dice of ``dice.py`` (designed: the rulebook's chapter 7 on melee and
# shooting is not in the text we have, so the faces and parries are the project's design): a melee
# attack die hits on 2 faces of 3 and about half of the hits are parried; a shot hits on a Bullseye (1/3)
# and 2 of 3 hits are not blocked; magic cannot be defended (2/3).
MELEE_DIE = 0.33
SHOT_DIE = 0.22
MAGIC_DIE = 0.67


def threat(s: SignumState, attacker: Model, target: Model) -> float:
    """The wounds ``attacker`` can expect to deal ``target`` at its next activation (rough, cheap)."""
    d = cr.dist(attacker, target)
    if d > bf.XL + cr.movement(attacker):
        return 0.0
    best = 0.0
    if d <= bf.XL:
        best = max(cr.x_of(s, attacker, "shot") * SHOT_DIE, cr.x_of(s, attacker, "magic_shot") * MAGIC_DIE)
    if d <= cr.movement(attacker) + bf.EPS:
        melee = cr.strength(s, attacker) * MELEE_DIE - cr.x_of(s, target, "armour")
        best = max(best, melee, cr.x_of(s, attacker, "magical_strike") * MAGIC_DIE)
    return best


def incoming(s: SignumState, hero: Model) -> float:
    """The wounds ``hero`` can expect from the enemies in reach before its side acts again."""
    side = hero.side()
    total = 0.0
    for e in s.models:
        if e.hidden or not s.hostile(e.side(), side):
            continue
        w = threat(s, e, hero)
        if w:
            now = e.side() == s.active and not e.activated
            total += w if now else LATER * w
    return total


@dataclass(frozen=True, slots=True)
class Weights:
    """What a standing counts, and how much (see :func:`standing`)."""

    prosperity: float
    """Per 51 prosperity (the prosperity victory)."""
    income: float
    """Per point of the City's income each turn."""
    hero: float
    """A hero at full health and out of reach (the wounds to expect count as taken, see :data:`DANGER`)."""
    creature: float
    """Per point of cost of a creature at full health on the Battlefield."""


LEVELS = Weights(PROSPERITY, INCOME, HERO, CREATURE)
"""The levels' standing, in units of :data:`TEMPERATURE`."""


def standing(s: SignumState, seat: int, w: Weights = LEVELS) -> float:
    """Seat ``seat``'s standing."""
    hero_card = s.heroes[seat]
    total = w.prosperity * min(s.prosperity[seat], PROSPERITY_TO_WIN) / PROSPERITY_TO_WIN
    total += w.income * sum(CARDS[b].income for b in s.city[seat])
    for m in s.models:
        if m.owner != seat:
            continue
        full = max(1, health(m))
        if m.card == hero_card:
            left = max(0.0, full - m.wounds - DANGER * incoming(s, m)) / full
            total += w.hero * left**0.7
        else:
            total += w.creature * max(1, CARDS[m.card].cost) * (1.0 - m.wounds / full)
    return total


# The race standing's weights, in log-odds of winning (so its temperature is 1): a logistic fit of who
# won, over 31,392 positions of 400 two-player games between guides (bot.GUIDE_STYLE, rules version 7,
# seeds 2000-2399, every 7th decision), judged on 32,493 positions of 400 others (seeds 2400-2799): log
# loss 0.475 against the standing above's 0.643 (docs/agents.md, "Signum's expert: a race standing").
# One point of income is worth about 8.7 of prosperity (the standing above: 1.9), which is why search on
# the standing above let the guide's buildings go for a pass.
RACE = Weights(prosperity=3.05, income=0.52, hero=0.78, creature=0.033)
"""The race standing, in log-odds (its temperature is 1)."""


def shares(s: SignumState, w: Weights, temperature: float) -> Sequence[float]:
    """Each seat's share of the win by its :func:`standing` with the weights ``w`` (seats out of the
    game: none)."""
    n = s.config.players
    if s.phase == "over":
        if s.winner == DRAW:
            return (1.0 / n,) * n
        winners = [p for p in range(n) if p == s.winner or (s.winner >= 0 and not s.hostile(p, s.winner))]
        return tuple(1.0 / len(winners) if p in winners else 0.0 for p in range(n))
    scores = [-1e9 if s.out[p] else standing(s, p, w) for p in range(n)]
    return softmax_shares(scores, temperature)


def value(s: SignumState) -> Sequence[float]:
    """Each seat's share of the win by :func:`standing` (the levels' estimate)."""
    return shares(s, LEVELS, TEMPERATURE)


def race_value(s: SignumState) -> Sequence[float]:
    """Each seat's share of the win by :func:`standing` with the :data:`RACE` weights (``value = "race"``)."""
    return shares(s, RACE, 1.0)


EVALUATION: Evaluation[SignumState] = Evaluation(
    value,
    guide=guide_bot,
    guides={"thrifty": thrifty_bot, "careful": careful_bot},
    values={"race": race_value},
)

TUNABLES: dict[str, Tunable] = {
    "hero": Tunable(__name__, "HERO", 0.0, 15.0, "the hero alive"),
    "creature": Tunable(__name__, "CREATURE", 0.0, 0.5, "a creature's worth per point of cost"),
    "prosperity": Tunable(__name__, "PROSPERITY", 0.0, 10.0, "prosperity's weight"),
    "income": Tunable(__name__, "INCOME", 0.0, 0.5, "income's weight"),
    "danger": Tunable(__name__, "DANGER", 0.0, 2.0, "how much of a hero's expected wounds count as taken"),
    "later": Tunable(__name__, "LATER", 0.0, 1.0, "the weight of a threat that cannot strike first"),
    "temperature": Tunable(
        __name__,
        "TEMPERATURE",
        0.5,
        8.0,
        "the score lead that makes a seat e times likelier to win",
        log=True,
    ),
}
"""The weights above that ``ludorum tune`` may vary (declared in ``Game.provides.tunables``): the search bots
read them as they decide."""
