"""Reliquium for the RL adapters: its action numbering and observation schema (see docs/rl.md).

Every argument domain comes from the content (:data:`.rules.C`): regions, their borders (ordered
neighbour pairs), junctions, creatures and the unit limit.  Reliquium is a game of perfect information and
no chance after the set-up (which the seed does not change), so there are no chance kinds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ludorum.engine import Config
from ludorum.engine.encoding import Counts, Fixed, GameEncoding, Kind, Num, OneHot, Record

from .rules import LIMIT, C, subsets

_REGIONS = range(len(C.names))
_CLASSES = range(3)
_FACTIONS = range(len(C.factions))
_PAIRS = tuple((a, b) for a in _REGIONS for b in C.adj[a])
"""Ordered neighbour pairs (source, destination): marches, tokens, fleeing moves."""
_UNITS = subsets((LIMIT, LIMIT, LIMIT), LIMIT)
"""Every non-empty choice of at most LIMIT units (warriors, defenders, mages)."""


class ReliquiumEncoding(GameEncoding):
    """Actions from the map and the creatures; the observation is the public table."""

    seeded_setup = False

    def action_kinds(self, config: Config) -> Sequence[Kind]:
        """Peace-phase actions, the pending choices of marches, summons and pacts, and battle choices."""
        adjacent_classes = [(r, c, d) for r in _REGIONS for c in _CLASSES for d in C.adj[r]]
        return (
            Kind("pass", doc="end the turn's actions"),
            Kind("cancel", doc="back out of a pending march or summon"),
            Kind("march", _PAIRS, "(source, destination) neighbouring regions"),
            Kind("melee", _PAIRS, "melee token (attacking, defending) region"),
            Kind("ranged", _PAIRS, "ranged token (supporting, supported) region"),
            Kind.product("recruit", _REGIONS, _CLASSES, doc="(region, class)"),
            Kind.product("build", _REGIONS, doc="(region,)"),
            Kind.product(
                "summon", range(len(C.creatures)), range(len(C.junctions)), doc="(creature, junction)"
            ),
            Kind.product("pact", _FACTIONS, doc="(faction,) offered a pact (Allies)"),
            Kind("units", _UNITS, "(warriors, defenders, mages) that march"),
            Kind.product("onward", _REGIONS, doc="Single March: the lone unit goes on to (region,)"),
            Kind("halt", doc="Single March: stop"),
            Kind("consent", doc="Allies: consent"),
            Kind("refuse", doc="Allies: refuse"),
            Kind("accept", doc="Allies: accept a pact"),
            Kind("decline", doc="Allies: decline a pact"),
            Kind.union(
                "ability",
                [(r,) for r in _REGIONS],  # build
                _PAIRS,  # tokens removed or burnt, borders frozen (either order)
                [(r, c) for r in _REGIONS for c in _CLASSES],  # slay, raise, defect (a lone unit)
                adjacent_classes,  # push, defect (to another region)
                # Heartwood's former (region, class, class) targets: kept, so every action keeps its number
                [(r, a, b) for r in _REGIONS for a in _CLASSES for b in _CLASSES if a != b],
                [(s, d, c) for s in _REGIONS for d in _REGIONS if s != d for c in _CLASSES],  # call
                [(s, d, *u) for s, d in _PAIRS for u in _UNITS],  # tide, gather
                doc="a creature's ability target: the union of the twelve abilities' argument forms",
            ),
            Kind("forgo", doc="forgo the summoned creature's ability"),
            Kind.union(
                "support",
                [(0, 0, 0, 0), (0, 0, 0, 1)],
                [(*u, mil) for u in _UNITS for mil in (0, 1) if sum(u) + mil <= LIMIT + 1],
                doc="(warriors, defenders, mages, militia) moved up to a ranged token",
            ),
            Kind("lose", _UNITS, "(warriors, defenders, mages) lost in battle"),
            Kind.union(
                "flee",
                [(r, c) for r in _REGIONS for c in _CLASSES],
                adjacent_classes,
                doc="(region, class) or (region, class, supported region) a defeated unit flees to",
            ),
            Kind.union("advance", [(0, 0, 0)], _UNITS, doc="(warriors, defenders, mages) that advance"),
        )

    def observation(self, config: Config) -> Record:
        """The whole table (all of it is public): regions, factions' tracks and tokens, the decision."""
        nr, nf = len(C.names), len(C.factions)
        owner = OneHot(range(-1, nf))  # -1: nobody
        token = Fixed(4, Num())  # (faction, value, region, region) as numbers
        return Record(
            {
                "_seat": OneHot(range(nf)),
                "factions": Fixed(nf, OneHot(_FACTIONS)),
                "round": Num(20.0),
                "round_limit": Num(20.0),
                "phase": OneHot(("peace", "support", "attack", "over")),
                "deciding": OneHot(_FACTIONS),
                "turn": OneHot(_FACTIONS),
                "occupant": Fixed(nr, owner),
                "units": Fixed(nr, Fixed(3, Num(float(LIMIT)))),
                "castle": Fixed(nr, owner),
                "reserve": Fixed(nf, Fixed(3, Num(10.0))),
                "track": Fixed(nf, Fixed(3, Num(3.0))),
                "marker": Fixed(nf, OneHot(range(-1, 9))),
                "done": Fixed(nf, Num()),
                "melee": Fixed(12, token),
                "ranged": Fixed(12, Fixed(8, Num())),
                "melee_used": Fixed(nf, Num(7.0)),
                "ranged_used": Fixed(nf, Num(7.0)),
                "blocked": Counts(range(len(C.borders))),
                "creatures": Counts(range(len(C.creatures)), scale=1.0),
                "creature_junctions": Fixed(len(C.creatures), Num(float(len(C.junctions)))),
                "used_junctions": Counts(range(len(C.junctions))),
                "militia": Fixed(nf, Num()),
                "pacts": Counts([(a, b) for a in _FACTIONS for b in _FACTIONS if a < b]),
                "proposed": Counts(_FACTIONS),
                "refused": Num(),
                "pending": Fixed(8, Num()),
                "queue": Num(12.0),
                "battle": Fixed(11, Num()),
                "castles_on_board": Fixed(nf, Num(9.0)),
            }
        )

    def prepare(self, view: Mapping[str, Any], seat: int) -> Mapping[str, Any]:
        """The public table as seen by ``seat``; creatures become (present, junction) per creature."""
        junction = [0.0] * len(C.creatures)
        for c, j in view["creatures"]:
            junction[c] = float(j + 1)
        extra = {
            "_seat": view["factions"][seat],
            "creatures": [c for c, _ in view["creatures"]],
            "creature_junctions": junction,
            "pacts": [tuple(sorted(p)) for p in view["pacts"]],
        }
        return {**view, **extra}


ENCODING = ReliquiumEncoding()
"""The game's encoding, found by :mod:`ludorum.rl`."""
