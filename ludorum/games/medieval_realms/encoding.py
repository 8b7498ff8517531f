"""Medieval Realms for the RL adapters: its action numbering and observation schema (see docs/rl.md).

The action domains are the content's: the cards (a Tithe also names one of the resources it may give), the
twelve squares of the Current Events Panel, the resources, the Realm's Map areas and the bid cap.  All
randomness is the Warehouse shuffle at set-up, so there are no chance kinds; the seed changes the deal.
"""

from __future__ import annotations

from collections.abc import Sequence

from ludorum.engine import Config
from ludorum.engine.encoding import Counts, Fixed, GameEncoding, Kind, Num, OneHot, Present, Record

from .actions import BID_CAP
from .cards import tithe_choices
from .content import CARDS, COLOURS, RESOURCES, SQUARES
from .setup import PAIRS
from .state import EVENT_KINDS, PHASE_NAMES

_AREAS = range(1, 11)
"""Realm's Map areas a General, Admiral or buffer Mayor may be placed on (1-based)."""
_SEATS = range(5)
_TYPES = tuple(sorted({c.type for c in CARDS}))


def _card() -> Record:
    """A face-up card: its type, colour, kind, victory points and cost."""
    return Record(
        {
            "id": Present(),
            "type": OneHot(_TYPES),
            "colour": OneHot(COLOURS),
            "kind": OneHot(("majority", "realm", "auction")),
            "vp": Num(10.0),
            "cost": Num(10.0),  # a word ("bid", "admirals") reads as 0: the type says what it means
            "cost_resource": OneHot(RESOURCES),
        }
    )


class RealmsEncoding(GameEncoding):
    """Actions over cards, squares, resources and areas; the observation reads the seat's view."""

    seeded_setup = True

    def action_kinds(self, config: Config) -> Sequence[Kind]:
        """Set-up extras, leader placement, the action phase's choices and bidding."""
        tithes = [c.id for c in CARDS if c.type == "tithe"]
        return (
            Kind("pass", doc="pass (placement done, no action, no bid)"),
            Kind("cancel", doc="back out of a pending choice"),
            Kind("extra", tuple((RESOURCES[a], RESOURCES[b]) for a, b in PAIRS), "the two extra resources"),
            Kind.product("mayor", SQUARES, doc="a Mayor on a resource square"),
            Kind.product("general", _AREAS, doc="a General on an area"),
            Kind.product("admiral", _AREAS, doc="an Admiral on an area"),
            Kind.product("buffer", _AREAS, doc="a buffer Mayor on an area (two players)"),
            Kind.product("activate", range(1, 13), doc="activate the card on a Panel square"),
            Kind.union(
                "play",
                [(c.id,) for c in CARDS],
                [(c, RESOURCES[r]) for c in tithes for r in tithe_choices()],
                doc="play a card from the Personal Display (a Tithe may name its tokens' resource)",
            ),
            Kind.product("bid", range(BID_CAP + 1), doc="bid an amount (0…the bid cap)"),
            Kind.product("token", RESOURCES, doc="a token of one's choice for reaching a multiple of 5 VP"),
        )

    def observation(self, config: Config) -> Record:
        """The seat's view: the round, the panels, every realm (own placement included) and the auction."""
        realm = Record(
            {
                "resources": Record({r: Num(10.0) for r in RESOURCES}),
                "vp": Num(50.0),
                "mayors": Num(10.0),
                "generals": Num(10.0),
                "admirals": Num(10.0),
                "display": Counts(_TYPES, key="type"),
                "in_play": Counts(_TYPES, key="type"),
                "extras": Counts(RESOURCES),
                "passed": Num(),
                "placed": Num(),
                "placement": Fixed(
                    16,
                    Record(
                        {
                            "leader": OneHot(("mayor", "general", "admiral", "buffer")),
                            "at": OneHot((*SQUARES, *_AREAS)),
                        }
                    ),
                ),
                "controlled_areas": Counts(_AREAS),
                "tokens_owed": Num(),
                "turn_position": Num(5.0),
            }
        )
        return Record(
            {
                "you": OneHot(_SEATS),
                "round": Num(7.0),
                "phase": OneHot(PHASE_NAMES),
                "to_move": OneHot(_SEATS),
                "turn_order": Fixed(5, OneHot(_SEATS)),
                "acting": OneHot(_SEATS),
                "panel": Fixed(12, Record({"card": _card()})),
                "future": Fixed(6, _card()),
                "deck_size": Num(100.0),
                "discards": Counts([c.id for c in CARDS], key="id"),
                "realms": Fixed(5, realm),
                "auction": Record(
                    {
                        "card": (Present(), _card()),
                        "bid": Num(50.0),
                        "leader": OneHot(_SEATS),
                        "bidder": OneHot(_SEATS),
                        "activator": OneHot(_SEATS),
                        "out": Fixed(5, Num()),
                    }
                ),
                "events": Fixed(
                    16, Record({"kind": OneHot(EVENT_KINDS), "seat": OneHot(_SEATS), "amount": Num(10.0)})
                ),
            }
        )


ENCODING = RealmsEncoding()
"""The game's encoding, found by :mod:`ludorum.rl`."""
