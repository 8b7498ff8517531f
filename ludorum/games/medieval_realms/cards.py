"""Card Description: what each card type costs and does when it is put into play.

Immediate Effects fire when a card is played (from the Personal Display or on winning an auction);
Colour Effects of the player's Cities fire when they play another card of the City's colour; Production
Effects (Castles) fire in "Get Resources"; End-of-Game Effects are scored in :mod:`.scoring`.
"""

from __future__ import annotations

from ludorum.engine.i18n import T

from .content import BATTLE_POINT, CARDS, RELIGION, RESOURCE_LABEL, Card, leader_given
from .state import BOX, RealmsState, add_res, refused, setitem

WAR_COST = {2: 7, 3: 7, 4: 6, 5: 5}
"""Rulebook › War Cards: Battle Points by number of players."""


def cost(card: Card, players: int) -> int:
    """The resources it takes to put ``card`` into play (War's depends on the player count)."""
    return WAR_COST[players] if card.cost == -2 else card.cost


def islands_needed(s: RealmsState, seat: int) -> int:
    """Rulebook › Island Cards: one Admiral per Island in play, the one to be played included."""
    return sum(1 for c in s.in_play[seat] if CARDS[c].type == "island") + 1


def can_play(s: RealmsState, seat: int, card: Card) -> bool:
    """Whether ``seat`` may put ``card`` from its Personal Display into play now: the one check of the
    conditions, which :func:`play_refusal` explains.  The legal actions ask it for every display card of
    every decision a search makes, so it formats no words (a refusal's translated text cost a fifth of a
    search decision)."""
    if card.type == "island":
        return s.admirals[seat] >= islands_needed(s, seat)
    return s.res[seat][card.cost_resource] >= cost(card, s.config.players)


def play_refusal(s: RealmsState, seat: int, card: Card) -> str | None:
    """Why ``seat`` cannot put ``card`` from its Personal Display into play now (:func:`can_play`), or
    ``None``."""
    if can_play(s, seat, card):
        return None
    if card.type == "island":
        n, have = islands_needed(s, seat), s.admirals[seat]
        return refused(
            T("Island"), T("Island number {n} needs {n} Admirals; you have {have}", n=n, have=have)
        )
    message = T(
        "{card} costs {n} {resource}; you have {have}",
        card=T(card.name),
        n=cost(card, s.config.players),
        resource=T(RESOURCE_LABEL[card.cost_resource]),
        have=s.res[seat][card.cost_resource],
    )
    return refused(T("Put a card into play"), message)


def gain_vp(s: RealmsState, seat: int, points: int) -> None:
    """Score ``points``; each multiple of 5 reached or passed owes the player one token of their choice.

    Rulebook › Game Board › Round Track (the Iris spaces of the Victory Point Track).
    """
    before = s.vp[seat]
    after = before + points
    s.vp = setitem(s.vp, seat, after)
    crossed = after // 5 - before // 5
    if crossed > 0:
        s.dues = setitem(s.dues, seat, s.dues[seat] + crossed)


def gain_leader(s: RealmsState, seat: int, leader: str) -> None:
    """Take one more leader from the box, if the box still holds one (Rulebook › Game Components).

    The designed deck never gives more leaders of a kind than the box has left (the content loader
    checks it for five players), so the empty box is reached only by positions built by hand; then the
    card is still played and paid for, and gives no leader (designed)."""
    if leader == "mayor":
        if sum(s.mayors) < BOX[0]:
            s.mayors = setitem(s.mayors, seat, s.mayors[seat] + 1)
    elif leader == "general":
        if sum(s.generals) < BOX[1]:
            s.generals = setitem(s.generals, seat, s.generals[seat] + 1)
    elif sum(s.admirals) < BOX[2]:
        s.admirals = setitem(s.admirals, seat, s.admirals[seat] + 1)


def put_into_play(s: RealmsState, seat: int, card_id: int, choice: int = -1) -> None:
    """Place the card beside the Realm and fire its Immediate Effect and the player's Colour Effects.

    ``choice`` is the resource a Tithe gives (-1: the player takes none).  Payment is the caller's business.
    """
    card = CARDS[card_id]
    earlier = s.in_play[seat]
    s.in_play = setitem(s.in_play, seat, (*earlier, card_id))
    t = card.type
    points = (
        card.vp
    )  # War 6, Great Persons 2, Scientific Development 2, Gallery/Cathedral 5, Tithe 2, Island 2
    leader = leader_given(card)
    if leader:  # Rulebook › Realm Leader Cards; › Inquisition; Gunpowder, University and Docking Bay Cards
        gain_leader(s, seat, leader)
    elif t == "scientific_development":
        # Rulebook › Scientific Development: 1 token of the card's type for every Mayor.
        s.res = setitem(s.res, seat, add_res(s.res[seat], card.resource, s.mayors[seat]))
    elif t == "territory":
        s.res = setitem(s.res, seat, add_res(s.res[seat], card.resource, 5))  # Rulebook › Territory Cards
    elif t == "tithe" and choice >= 0:
        # Rulebook › Tithe Cards: "They may also choose one kind of Resource ... and receive 4 of them".
        s.res = setitem(s.res, seat, add_res(s.res[seat], choice, 4))
    # Rulebook › City Cards: each City already in play gives 1 of its resource and 1 VP
    # for another card of its colour.
    for c in earlier:
        city = CARDS[c]
        if city.type == "city" and city.city_colour == card.colour:
            s.res = setitem(s.res, seat, add_res(s.res[seat], city.resource, 1))
            points += 1
    if points:
        gain_vp(s, seat, points)


def tithe_choices() -> tuple[int, ...]:
    """The resources a Tithe may give: any but Religion (Rulebook › Tithe Cards)."""
    return tuple(r for r in range(7) if r != RELIGION)


def production_effects(s: RealmsState, seat: int) -> None:
    """Rulebook › Castle Cards: each Castle in play gives 1 Battle Point Token every round."""
    castles = sum(1 for c in s.in_play[seat] if CARDS[c].type == "castle")
    if castles:
        s.res = setitem(s.res, seat, add_res(s.res[seat], BATTLE_POINT, castles))
