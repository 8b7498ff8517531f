"""Set-Up: the deck and panels, the turn order, the starting capital and the two extra resources."""

from __future__ import annotations

from ludorum.engine import Action, Config
from ludorum.engine import rng as rngmod
from ludorum.engine.i18n import N_, T, join

from .content import CARDS, RESOURCES, starting_leaders
from .state import EXTRAS, FUTURE, PANEL, PLACE, RealmsState, add_res, refused, setitem

STARTING_CAPITAL = (5, 2, 3, 3, 3, 3, 0)
"""Rulebook › Set-Up › Starting Capital: 5 Production, 2 Science, 3 Culture, 3 Religion, 3 Gold,
3 Raw Material."""

PAIRS = tuple((a, b) for a in range(7) for b in range(a + 1, 7))
"""The 21 pairs of two different resources."""
EXTRA_ACTIONS = {pair: Action("extra", (RESOURCES[pair[0]], RESOURCES[pair[1]])) for pair in PAIRS}


def new_game(config: Config, seed: int) -> RealmsState:
    """Rulebook › Set-Up: shuffle, 12 cards to the Current and 6 to the Future Events Panel, random order."""
    n = config.players
    state = rngmod.seed_state(seed)
    deck, state = rngmod.shuffled(state, range(len(CARDS)))
    order, state = rngmod.shuffled(state, range(n))
    mayors, generals, admirals = starting_leaders(n)  # Rulebook › Set-Up: 6 Mayors with two players
    return RealmsState(
        config=config,
        rng=state,
        round=1,
        phase=EXTRAS,
        order=order,
        res=(STARTING_CAPITAL,) * n,
        vp=(0,) * n,
        mayors=(mayors,) * n,
        generals=(generals,) * n,
        admirals=(admirals,) * n,
        display=((),) * n,
        in_play=((),) * n,
        panel=deck[:PANEL],
        future=deck[PANEL : PANEL + FUTURE],
        discards=(),
        extras=((),) * n,
        passed=(False,) * n,
        turn=0,
        committed=(False,) * n,
        revealed=((),) * n,
        controlled=((),) * n,
        auction=None,
        dues=(0,) * n,
        events=(),
        deck=deck[PANEL + FUTURE :],
        placing=((),) * n,
    )


def extras_seat(s: RealmsState) -> int:
    """Who chooses next: the extra resources are chosen in inverse turn order."""
    done = sum(1 for e in s.extras if e)
    return s.order[len(s.order) - 1 - done]


def extras_legal(s: RealmsState) -> list[Action]:
    """Every pair of two different resources no other player has taken (each pair must be unique)."""
    taken = set(s.extras)
    return [EXTRA_ACTIONS[p] for p in PAIRS if p not in taken]


RESOURCE_IDS = {
    "production": N_("production"),
    "science": N_("science"),
    "culture": N_("culture"),
    "religion": N_("religion"),
    "gold": N_("gold"),
    "raw_material": N_("raw_material"),
    "battle_point": N_("battle_point"),
}
"""The resources as an action names them (the English a refusal shows is the id to type; other languages
say the resource in words)."""


def extras_refusal(s: RealmsState, action: Action) -> str:
    """The rule an illegal extra-resource choice breaks."""
    a, b = (*action.args, "", "")[:2]
    if a not in RESOURCES or b not in RESOURCES:
        names = join(", ", (T(RESOURCE_IDS[r]) for r in RESOURCES))
        return refused(T("Set-Up"), T("name two resources: {resources}", resources=names))
    if a == b:
        return refused(T("Set-Up"), T("the two extra resources must be two DIFFERENT resources"))
    if RESOURCES.index(str(a)) > RESOURCES.index(str(b)):
        pair = T("name the pair in resource order ({b}, {a})", a=T(RESOURCE_IDS[a]), b=T(RESOURCE_IDS[b]))
        return refused(T("Set-Up"), pair)
    return refused(T("Set-Up"), T("that pair has been taken; every player's extra pair must be unique"))


def apply_extra(s: RealmsState, seat: int, action: Action) -> None:
    """Store the two chosen tokens in the Manor; after the first player chooses, the first round begins."""
    a, b = sorted((RESOURCES.index(str(action.args[0])), RESOURCES.index(str(action.args[1]))))
    s.extras = setitem(s.extras, seat, (a, b))
    s.res = setitem(s.res, seat, add_res(add_res(s.res[seat], a, 1), b, 1))
    if all(s.extras):
        s.phase = PLACE
