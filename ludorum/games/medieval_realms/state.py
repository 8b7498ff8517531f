"""The state of a game of Medieval Realms: plain ints and tuples, so that ``clone()`` is a shallow copy.

Seats are 0…n-1 (seat i plays the i-th King or Queen colour).  Resource tuples follow
:data:`~.content.RESOURCES`.  Cards are ids into :data:`~.content.CARDS`; an empty square is -1.
"""

from __future__ import annotations

from dataclasses import dataclass

from ludorum.engine import GameState, hidden, per_seat
from ludorum.engine.i18n import N_, T, Text
from ludorum.engine.pickling import by_fields

from .content import BOX as BOX  # Leaders in the box (Rulebook › Game Components), for the rules

REFUSED = N_("{rule}: {message}")
"""The message of every refusal (:func:`refused`)."""


def refused(rule: Text, message: Text) -> Text:
    """A refusal, "Personal Display: you already hold 4 cards": the rule it names (a section of the
    rulebook) and what is wrong, each a message, so that both read in the reader's language."""
    return T(REFUSED, rule=rule, message=message)


EXTRAS, PLACE, ACTIONS, OVER = range(4)
"""Phases: the two extra resources of the set-up, leader placement, the action phase, the end."""
PHASE_NAMES = ("extra resources", "placing leaders", "actions", "game over")

ROUNDS = 7
PANEL, FUTURE = 12, 6
COMBAT_GENERAL, COMBAT_ADMIRAL, COMBAT_BUFFER = 2, 1, 2
"""Combat values (Rulebook › The Round › Place the Leader Tokens)."""

MAYOR, GENERAL, ADMIRAL, BUFFER = range(4)
"""Kinds of placed leader; a placement spot is ``kind * 16 + square or area``."""
SPOT = 16

EV_MAJORITY, EV_AUCTION, EV_REALM, EV_PLAY, EV_PASS, EV_REVEAL, EV_DISCARD = range(7)
"""Event codes of the public log: (code, seat, card, amount)."""
EVENT_KINDS = ("majority", "auction", "buy", "play", "pass", "reveal", "discard")
"""The ``kind`` of each event code in the view."""
EVENTS_KEPT = 16


@by_fields
@dataclass(frozen=True, slots=True)
class Auction:
    """An Auction Card being bid for: the card, its square, the high bid and who bids next."""

    card: int
    square: int  # 0-based square it came from (restored if the opening is cancelled)
    activator: int
    bid: int  # 0 until the opening bid
    leader: int  # the seat holding the high bid; -1 before the opening bid
    bidder: int  # the seat to bid or pass
    out: tuple[bool, ...]  # seats that have passed on this card
    history: tuple[tuple[int, int], ...] = ()  # (seat, bid) in order; bid 0: that seat passed


@dataclass(slots=True)
class RealmsState(GameState):
    """Everything on the table; only the deck order, the generator and unrevealed placements are secret."""

    round: int
    phase: int
    order: tuple[int, ...]  # the Turn Order Track, start player first
    res: tuple[tuple[int, ...], ...]  # each Manor's resources
    vp: tuple[int, ...]
    mayors: tuple[int, ...]  # all Mayors of the realm (the two buffers of a 2-player game included)
    generals: tuple[int, ...]
    admirals: tuple[int, ...]
    display: tuple[tuple[int, ...], ...]  # Personal Displays
    in_play: tuple[tuple[int, ...], ...]  # cards played beside each Realm
    panel: tuple[int, ...]  # Current Events Panel, squares 1–12
    future: tuple[int, ...]  # Future Events Panel
    discards: tuple[int, ...]
    extras: tuple[tuple[int, ...], ...]  # the two extra resources each seat chose at set-up
    passed: tuple[bool, ...]
    turn: int  # index in ``order`` of the player whose action it is
    committed: tuple[bool, ...]  # who has finished placing this round (public: you see who is done)
    revealed: tuple[tuple[int, ...], ...]  # this round's placements once all walls are down
    controlled: tuple[tuple[int, ...], ...]  # the Realm's Map areas each seat controls this round
    auction: Auction | None
    dues: tuple[int, ...]  # tokens of their choice still owed for reaching multiples of 5 VP
    events: tuple[tuple[int, ...], ...]  # the recent public log
    deck: tuple[int, ...] = hidden()  # the Warehouse, top first
    placing: tuple[tuple[int, ...], ...] = per_seat()  # each seat's secret placement, spot by spot


def setitem(values: tuple, index: int, value: object) -> tuple:  # type: ignore[type-arg]
    """``values`` with ``values[index]`` replaced."""
    return (*values[:index], value, *values[index + 1 :])


def add_res(res: tuple[int, ...], resource: int, amount: int) -> tuple[int, ...]:
    """A resource tuple with ``amount`` more of ``resource``."""
    return (*res[:resource], res[resource] + amount, *res[resource + 1 :])


def log(s: RealmsState, *event: int) -> None:
    """Append a public event, keeping the last :data:`EVENTS_KEPT`."""
    s.events = (*s.events[1 - EVENTS_KEPT :], event) if len(s.events) >= EVENTS_KEPT else (*s.events, event)
