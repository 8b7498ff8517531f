"""Legends of Signum for the RL adapters: its action numbering, movement grid and observation schema.

Domains come from the content (:data:`.creatures.CARDS` by kind, the deck-size limit, the terrain spots
and entry points of :mod:`.turn`, the distances of :mod:`.battlefield`).  Creatures are named by their
uid, which is dealt in order (heroes first, then each recruit), so ``players × (1 + the largest deck)``
bounds it.  The numbering is made for the largest table (:data:`SEATS` players) whatever the config, so
that it is the same at every player count: one policy serves every table size.

Movement (docs/rl.md, "Signum's movement grid"): the legal list offers ``move(direction, length)`` in the
eight compass directions at S, M, L, XL and the full allowance — numbered by (direction, which length),
the full allowance being the fifth length — and ``run(direction)``.  The open kind ``move_to`` (any exact
point) is discretised onto the eight bearings halfway between those directions (22.5° + k·45°) at
the distances S, M, L and XL from the creature's centre, rounded to the millimetre: with ``move`` that
makes sixteen bearings.  A grid point is offered when the rules accept the point.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

from ludorum.engine import Action, Config, Game
from ludorum.engine.encoding import Both, Counts, Fixed, GameEncoding, Kind, Num, OneHot, Present, Record

from . import battlefield as bf
from . import creatures as cr
from .content import DECK_MAX
from .movement import PointCheck
from .state import SignumState, new_action
from .turn import ENTRY_X, TERRAIN_SPOTS

_IDS = {kind: tuple(sorted(c.id for c in cr.CARDS.values() if c.kind == kind)) for kind in
        ("character", "spell", "relic", "tactic", "building", "terrain", "hero")}  # fmt: skip
_STEPS_MM = tuple(round(d * 10) for d in bf.STEPS)
_FULL = len(_STEPS_MM)
"""The length slot of a move's full allowance when it is none of S, M, L, XL."""
_DICE_MAX = 2 * max(max(c.strength, *(p.x for p in c.props), 0) for c in cr.CARDS.values()) + 4
"""A bound on the dice of one roll (strength or a property's X, with bonuses) and on a melee split."""
GRID_BEARINGS = tuple((i + 0.5) * math.pi / 4 for i in range(8))
"""The ``move_to`` grid's bearings: halfway between the eight directions of ``move``."""
_GRID_POINTS = tuple(
    tuple(
        (Action("move_to", (b, slot)), math.cos(a) * d, math.sin(a) * d)
        for b, a in enumerate(GRID_BEARINGS)
        for slot, d in enumerate(bf.STEPS[:lengths])
    )
    for lengths in range(len(bf.STEPS) + 1)
)
"""``_GRID_POINTS[k]``: each ``move_to`` grid action at the first ``k`` distances with its offset from the
creature's centre, bearing by bearing (made once: every step of a moving creature lists them)."""
_PHASES = ("roll_first", "choose_first", "stack", "build", "terrain", "activation", "over")
_PENDING = ("melee", "melee_roll", "pursuit", "backstab", "move", "boiler", "find", "shot", "shot_block",
            "magic", "heal", "control", "detect")  # fmt: skip
_MAX_MODELS = 40


SEATS = 4
"""The most players a game of Signum seats: the numbering is made for them."""
_UIDS = range(SEATS * (1 + DECK_MAX))


class SignumEncoding(GameEncoding):
    """Cards by kind, creatures by uid, movement on a documented grid; dice as chance kinds."""

    seeded_setup = True

    def action_kinds(self, config: Config) -> Sequence[Kind]:
        """Set-up, building, terrain, cards, activations and everything a creature may do."""
        uids = _UIDS
        seats = range(SEATS)
        targeted = (
            "melee",
            "strike",
            "shoot",
            "magic_shot",
            "control",
            "heal",
            "detect",
            "contact",
            "pursue",
        )
        return (
            Kind.product("first", seats, doc="the die-roll winner chooses who goes first"),
            Kind.product("stack", _IDS["building"], doc="Experienced Architect: the next building card"),
            Kind.product("build", _IDS["building"], doc="build a building"),
            Kind("pass", doc="end the building or terrain phase"),
            Kind.product("terrain", _IDS["terrain"], range(len(TERRAIN_SPOTS)), doc="(terrain, spot)"),
            Kind.product("recruit", _IDS["character"], range(len(ENTRY_X)), doc="(character, entry point)"),
            Kind.product("cast", _IDS["spell"], (-1, *uids), doc="(spell, target uid or -1)"),
            Kind.product("equip", _IDS["relic"], doc="equip the hero with a relic"),
            Kind.product("set", _IDS["tactic"], doc="set a tactic face down"),
            Kind.product("clink", uids, (True, False), doc="Clink of Coins: (uid, pay)"),
            Kind.product("activate", uids, doc="activate a creature"),
            Kind("end_turn", doc="end the turn"),
            Kind.product("move", range(8), range(_FULL + 1), doc="(direction, length: S, M, L, XL, full)"),
            Kind.product("run", range(8), doc="(direction,) run"),
            Kind.product("move_to", range(len(GRID_BEARINGS)), range(_FULL), doc="grid: (bearing, S…XL)"),
            *(Kind.product(k, uids, doc=f"(uid,) {k}") for k in targeted),
            Kind.product("split", range(_DICE_MAX + 1), doc="strength dice put into attack"),
            Kind("done", doc="end the activation (or the Pursuit)"),
            Kind("cancel", doc="back out of an activation not begun"),
        )

    def chance_kinds(self, config: Config) -> Sequence[Kind]:
        """The opening die, and every face count (blank, hit, special) of up to the dice bound."""
        faces = [
            (b, a, n - a - b) for n in range(1, _DICE_MAX + 1) for b in range(n + 1) for a in range(n - b + 1)
        ]
        return (
            Kind.product("first_die", range(SEATS), doc="who chooses the first player"),
            Kind("roll", tuple(faces), "face counts of a roll"),
        )

    def action_key(self, action: Action) -> Action:
        """A move is numbered by which of the offered lengths it takes, not by millimetres."""
        if action.kind == "move" and len(action.args) == 2:
            mm = action.args[1]
            slot = _STEPS_MM.index(mm) if mm in _STEPS_MM else _FULL
            return Action("move", (action.args[0], slot))
        return action

    def open_actions(self, game: Game[Any], state: Any, kind: str) -> Sequence[tuple[Action, Action]]:
        """The ``move_to`` grid points the acting creature may move to now."""
        if kind != "move_to" or not isinstance(state, SignumState):
            return ()
        m = state.model(state.acting)
        check = PointCheck(state, m)
        refused = check.check.refused
        # A point more than the allowance away is refused whatever else holds; rounding it to the
        # millimetre moves it by less than 0.08 cm, so a length past this bound is refused for sure.
        beyond = check.reach + bf.EPS + 0.08
        # Likewise a point more than 0.06 cm off the board's bounds for this base (MoveCheck's first
        # rule) stays off them once rounded: refused before it is rounded (about a third of the points).
        lo, hi = check.check.lo - 0.06, check.check.hi + 0.06
        mx, my = m.x, m.y
        out = []
        for grid, dx, dy in _GRID_POINTS[bisect_right(bf.STEPS, beyond)]:  # the lengths within it (they grow)
            x, y = mx + dx, my + dy
            if not (lo < x < hi and lo < y < hi):
                continue
            x, y = round(x * 10), round(y * 10)
            if not refused(x / 10.0, y / 10.0):
                out.append((grid, new_action(("move_to", (x, y)))))
        return out

    def observation(self, config: Config) -> Record:
        """The seat's view: the Battlefield, every zone it may see (others' hands by size), what waits."""
        seats = range(4)
        creatures = (*_IDS["hero"], *_IDS["character"])
        hand_cards = tuple(
            sorted(c.id for c in cr.CARDS.values() if c.kind not in ("hero", "building", "terrain"))
        )
        model = Record(
            {
                "uid": (Present(), Num(100.0)),
                "card": OneHot(creatures),
                "owner": OneHot(seats),
                "x": Num(bf.SIZE),
                "y": Num(bf.SIZE),
                "wounds": Num(10.0),
                "activated": Num(),
                "fresh": Num(),
                "hidden": Num(),
                "relics": Counts(_IDS["relic"]),
                "controller": OneHot(range(-1, 4)),
                "pursuits": Num(),
            }
        )
        hidden_or_shown = Both(Num(10.0), Counts(hand_cards))  # size for everyone, cards for their owner
        return Record(
            {
                "_seat": OneHot(seats),
                "phase": OneHot(_PHASES),
                "turn": Num(30.0),
                "active": OneHot(seats),
                "first": OneHot(seats),
                "prosperity": Fixed(4, Num(20.0)),
                "heroes": Fixed(4, OneHot(_IDS["hero"])),
                "models": Fixed(_MAX_MODELS, model),
                "terrain": Fixed(len(TERRAIN_SPOTS), Record({"card": OneHot(_IDS["terrain"]), "x": Num(60.0),
                                                             "y": Num(60.0)})),
                "terrain_hands": Fixed(4, Counts(_IDS["terrain"])),
                "city": Fixed(4, Counts(_IDS["building"])),
                "graveyard": Fixed(4, Counts(hand_cards)),
                "deck_sizes": Fixed(4, Num(float(DECK_MAX))),
                "kills": Fixed(4, Num(10.0)),
                "overlong": Fixed(4, Num(10.0)),
                "built": Num(),
                "building_hands": Fixed(4, Counts(_IDS["building"])),
                "out": Fixed(4, Num()),
                "hands": Fixed(4, hidden_or_shown),
                "tactics": Fixed(4, hidden_or_shown),
                "building_decks": Fixed(4, Num(10.0)),
                "acting": Num(100.0),
                "stage": OneHot(range(3)),
                "pending": Fixed(4, Record({"kind": OneHot(_PENDING), "actor": Num(100.0),
                                            "target": Num(100.0), "data": Fixed(8, Num(10.0))})),
                "rolls": Fixed(3, Record({"n": Num(10.0), "stage": OneHot(range(3)), "kept": Num(10.0),
                                          "faces": Fixed(3, Num(10.0))})),
                "rolled": Fixed(3, Record({"hits": Num(10.0), "faces": Fixed(3, Num(10.0))})),
                "coins_due": Fixed(4, Num(100.0)),
                "winner": OneHot(range(-2, 4)),
            }
        )  # fmt: skip


ENCODING = SignumEncoding()
"""The game's encoding, found by :mod:`ludorum.rl`."""
