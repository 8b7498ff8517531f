"""The Round, step 6 — Actions: activate a card from the Current Events Panel, put a card from the
Personal Display into play, or pass; with majority awards, auctions and the tokens owed for reaching
multiples of 5 Victory Points.
"""

from __future__ import annotations

from ludorum.engine import CANCEL, Action
from ludorum.engine.i18n import T

from .cards import can_play, cost, play_refusal, put_into_play, tithe_choices
from .content import CARDS, PRODUCTION, RESOURCE_LABEL, RESOURCES, Card
from .state import (
    EV_AUCTION,
    EV_MAJORITY,
    EV_PASS,
    EV_PLAY,
    EV_REALM,
    Auction,
    RealmsState,
    add_res,
    log,
    refused,
    setitem,
)

DISPLAY_LIMIT = 4
PASS = Action("pass")
ACTIVATE = tuple(Action("activate", (sq,)) for sq in range(1, 13))
PLAY = tuple(Action("play", (c,)) for c in range(len(CARDS)))
PLAY_TITHE = tuple(
    (Action("play", (c,)), *(Action("play", (c, RESOURCES[r])) for r in tithe_choices()))
    for c in range(len(CARDS))
)
"""A Tithe's plays: without tokens, or naming the resource of its 4 tokens (Rulebook › Tithe Cards:
"They may also choose ... and receive 4 of them" — the tokens are optional)."""
BID_CAP = 400
BIDS = tuple(Action("bid", (x,)) for x in range(BID_CAP + 1))
TOKENS = tuple(Action("token", (r,)) for r in RESOURCES)


def price(square: int) -> int:
    """Rulebook › Current Event Card Prices: squares 1–4 cost 1 Production, 5–8 cost 2, 9–12 cost 3."""
    return 1 + square // 4  # ``square`` is 0-based


def display_refusal(s: RealmsState, seat: int, card: Card) -> str | None:
    """Why ``card`` cannot enter ``seat``'s Personal Display (at most 4 cards, never two of one colour)."""
    shown = s.display[seat]
    if len(shown) >= DISPLAY_LIMIT:
        return refused(T("Personal Display"), T("you already hold 4 cards"))
    for c in shown:
        if CARDS[c].colour == card.colour:
            return refused(
                T("Personal Display"), T("you already hold a {colour} card", colour=T(card.colour))
            )
    return None


def can_activate(res: tuple[int, ...], shown: tuple[int, ...], sq: int, card: Card) -> bool:
    """Rulebook › Actions › Action 1: an auction card needs something to bid with; a realm card the
    column price in Production, room in the display and a colour not yet held; a majority card only the
    price (whoever holds the majority receives it).  ``sq`` is 0-based."""
    kind = card.kind
    if kind == "auction":
        return res[card.cost_resource] >= 1
    if res[PRODUCTION] < 1 + sq // 4:
        return False
    if kind == "majority":
        return True
    if len(shown) >= DISPLAY_LIMIT:
        return False
    colour = card.colour
    return all(CARDS[c].colour != colour for c in shown)


def legal(s: RealmsState) -> list[Action]:
    """The actions of the player to act (no auction or token pending)."""
    seat = s.order[s.turn]
    res = s.res[seat]
    shown = s.display[seat]
    out = [ACTIVATE[sq] for sq, c in enumerate(s.panel) if c >= 0 and can_activate(res, shown, sq, CARDS[c])]
    # Rulebook › Actions › Action 2: put a display card into play by paying its cost.
    for c in shown:
        card = CARDS[c]
        if can_play(s, seat, card):
            if card.type == "tithe":
                out.extend(PLAY_TITHE[c])
            else:
                out.append(PLAY[c])
    out.append(PASS)  # Rulebook › Actions › Action 3: passing is always possible
    return out


TITHE_NAMES = frozenset(RESOURCES[r] for r in tithe_choices())


def allowed(s: RealmsState, action: Action) -> bool:
    """Whether ``action`` is among :func:`legal` (checked directly, without listing every action)."""
    seat = s.order[s.turn]
    kind, args = action.kind, action.args
    if kind == "pass":
        return not args
    if len(args) == 0 or type(args[0]) is not int:
        return False
    if kind == "activate":
        sq = args[0] - 1
        if len(args) != 1 or not 0 <= sq < 12 or s.panel[sq] < 0:
            return False
        return can_activate(s.res[seat], s.display[seat], sq, CARDS[s.panel[sq]])
    if kind == "play":
        c = args[0]
        if c not in s.display[seat] or not can_play(s, seat, CARDS[c]):
            return False
        if CARDS[c].type == "tithe":
            return len(args) == 1 or (len(args) == 2 and args[1] in TITHE_NAMES)
        return len(args) == 1
    return False


def refusal(s: RealmsState, action: Action) -> str:
    """The rule an illegal action of the action phase breaks, in the player's words."""
    seat = s.order[s.turn]
    if action.kind == "activate":
        sq: object = action.args[0] if len(action.args) == 1 else None
        if not isinstance(sq, int) or isinstance(sq, bool) or not 1 <= sq <= 12:
            return refused(T("Activate a card"), T("name a square of the Current Events Panel, 1–12"))
        c = s.panel[sq - 1]
        if c < 0:
            return refused(T("Activate a card"), T("square {n} of the Current Events Panel is empty", n=sq))
        card = CARDS[c]
        if card.kind == "auction":
            return refused(
                T("Auction"),
                T(
                    "you have no {resource} to open the bidding",
                    resource=T(RESOURCE_LABEL[card.cost_resource]),
                ),
            )
        if s.res[seat][PRODUCTION] < price(sq - 1):
            have = s.res[seat][PRODUCTION]
            return refused(
                T("Activate a card"),
                T(
                    "square {n} costs {price} Production; you have {have}",
                    n=sq,
                    price=price(sq - 1),
                    have=have,
                ),
            )
        return display_refusal(s, seat, card) or refused(T("Activate a card"), T("not possible now"))
    if action.kind == "play":
        cid: object = action.args[0] if action.args else None
        if not isinstance(cid, int) or isinstance(cid, bool) or cid not in s.display[seat]:
            return refused(T("Put a card into play"), T("the card must be in your Personal Display"))
        card = CARDS[cid]
        why = play_refusal(s, seat, card)
        if why:
            return why
        if card.type == "tithe":
            return refused(T("Tithe"), T("choose one kind of resource other than Religion, or none"))
        return refused(T("Put a card into play"), T("only the card's id"))
    if action.kind == "bid":
        return refused(T("Auction"), T("no auction is being bid for; activate an Auction Card to open one"))
    if action.kind == "token":
        return refused(
            T("Victory Point Track"),
            T("you are owed no token (one per multiple of 5 Victory Points reached)"),
        )
    return refused(
        T("Actions"), T("activate a card, put a card from your Personal Display into play, or pass")
    )


def end_turn(s: RealmsState) -> bool:
    """Hand the action to the next player who has not passed; ``False`` when everyone has passed."""
    n = len(s.order)
    for step in range(1, n + 1):
        i = (s.turn + step) % n
        if not s.passed[s.order[i]]:
            s.turn = i
            return True
    return False


def majority_winner(s: RealmsState, activator: int, card: Card) -> int:
    """Rulebook › Majority Cards: who adds the card to their display, or -1 if nobody can (discard).

    The most resources of the cost type among players who can take it; on a tie the activator, else the
    tied player closest to the start player.
    """
    r = card.cost_resource
    able = [seat for seat in s.order if display_refusal(s, seat, card) is None]
    if not able:
        return -1
    best = max(s.res[seat][r] for seat in able)
    tied = [seat for seat in able if s.res[seat][r] == best]
    return activator if activator in tied else tied[0]


def apply(s: RealmsState, action: Action) -> bool:
    """Apply a legal action of the acting player; ``False`` when the round's actions are over."""
    seat = s.order[s.turn]
    kind = action.kind
    if kind == "pass":
        s.passed = setitem(s.passed, seat, True)
        log(s, EV_PASS, seat, -1, 0)
        return end_turn(s)
    if kind == "play":
        c = int(action.args[0])  # type: ignore[arg-type]
        card = CARDS[c]
        s.display = setitem(s.display, seat, tuple(x for x in s.display[seat] if x != c))
        if card.cost_resource >= 0:
            s.res = setitem(
                s.res, seat, add_res(s.res[seat], card.cost_resource, -cost(card, s.config.players))
            )
        choice = RESOURCES.index(str(action.args[1])) if len(action.args) > 1 else -1
        put_into_play(s, seat, c, choice)
        log(s, EV_PLAY, seat, c, 0)
        return end_turn(s)
    sq = int(action.args[0]) - 1  # type: ignore[arg-type]
    c = s.panel[sq]
    card = CARDS[c]
    s.panel = setitem(s.panel, sq, -1)
    if card.kind == "auction":
        # Rulebook › Auction Cards: the activator makes the first bid (or cancels before it).
        out = (False,) * s.config.players
        s.auction = Auction(c, sq, seat, 0, -1, seat, out)
        return True
    s.res = setitem(s.res, seat, add_res(s.res[seat], PRODUCTION, -price(sq)))
    if card.kind == "realm":
        s.display = setitem(s.display, seat, (*s.display[seat], c))
        log(s, EV_REALM, seat, c, price(sq))
    else:
        winner = majority_winner(s, seat, card)
        if winner < 0:
            s.discards = (*s.discards, c)
        else:
            s.display = setitem(s.display, winner, (*s.display[winner], c))
        log(s, EV_MAJORITY, winner, c, seat)
    return end_turn(s)


# -- auctions ----------------------------------------------------------------------------------------


def auction_legal(s: RealmsState) -> list[Action]:
    """Bid higher (with resources from the Manor only) or pass; the opening bid may be cancelled instead."""
    a = s.auction
    assert a is not None
    have = min(s.res[a.bidder][CARDS[a.card].cost_resource], BID_CAP)
    out = list(BIDS[a.bid + 1 : have + 1])
    out.append(CANCEL if a.leader < 0 else PASS)
    return out


def auction_refusal(s: RealmsState, action: Action) -> str:
    """The auction rule an illegal action breaks."""
    a = s.auction
    assert a is not None
    label = T(RESOURCE_LABEL[CARDS[a.card].cost_resource])
    if action.kind == "bid":
        if a.bid:
            return refused(
                T("Auction"),
                T(
                    "bid more than {n} {resource}, with no more than your Manor holds",
                    n=a.bid,
                    resource=label,
                ),
            )
        return refused(
            T("Auction"),
            T("open with at least 1 {resource}, with no more than your Manor holds", resource=label),
        )
    if action.kind == "pass" and a.leader < 0:
        return refused(
            T("Auction"), T("the activating player makes the first bid (or cancels the activation)")
        )
    return refused(T("Auction"), T("bid higher or pass"))


def _next_bidder(a: Auction, seat: int, out: tuple[bool, ...] | None = None) -> int:
    """Clockwise (seat order) from ``seat``, the next player still in the auction."""
    out = a.out if out is None else out
    n = len(out)
    for step in range(1, n + 1):
        other = (seat + step) % n
        if not out[other]:
            return other
    return seat


def auction_apply(s: RealmsState, action: Action) -> bool:
    """One bid, pass or cancel; returns ``False`` when the auction ends the round's actions."""
    a = s.auction
    assert a is not None
    if action == CANCEL:
        s.panel = setitem(s.panel, a.square, a.card)
        s.auction = None
        return True
    if action.kind == "bid":
        x = int(action.args[0])  # type: ignore[arg-type]
        history = (*a.history, (a.bidder, x))
        a = Auction(a.card, a.square, a.activator, x, a.bidder, _next_bidder(a, a.bidder), a.out, history)
    else:
        # Rulebook › Auction Cards: once a player has passed, they cannot bid again for this card.
        out = setitem(a.out, a.bidder, True)
        history = (*a.history, (a.bidder, 0))
        nxt = _next_bidder(a, a.bidder, out)
        a = Auction(a.card, a.square, a.activator, a.bid, a.leader, nxt, out, history)
    if sum(1 for o in a.out if not o) > 1:
        s.auction = a
        return True
    # Rulebook › Auction Cards: the last player in pays the bid and plays the card at once.
    s.auction = None
    winner, card = a.leader, CARDS[a.card]
    s.res = setitem(s.res, winner, add_res(s.res[winner], card.cost_resource, -a.bid))
    put_into_play(s, winner, a.card)
    log(s, EV_AUCTION, winner, a.card, a.bid)
    return end_turn(s)


# -- tokens for multiples of 5 VP ----------------------------------------------------------------------


def token_seat(s: RealmsState) -> int:
    """The first player in turn order still owed a token, or -1."""
    for seat in s.order:
        if s.dues[seat]:
            return seat
    return -1


def token_apply(s: RealmsState, seat: int, action: Action) -> None:
    """Rulebook › Round Track: take one token of the chosen resource."""
    r = RESOURCES.index(str(action.args[0]))
    s.res = setitem(s.res, seat, add_res(s.res[seat], r, 1))
    s.dues = setitem(s.dues, seat, s.dues[seat] - 1)
