"""The state of a game of Reliquium: small ints and tuples only, so that ``clone()`` is a shallow copy.

Regions, factions, unit classes and creatures are numbers (see :mod:`.content`).  Per-faction tuples
always have four entries (Legion, Alliance, Order, Brotherhood: the initiative order); factions not in
``factions`` are neutral (Rulebook › Playing with fewer players).
"""

from __future__ import annotations

from dataclasses import dataclass

from ludorum.engine import GameState

NO = -1
"""No faction (an unoccupied region, a castle-less land)."""

PEACE, SUPPORT, ATTACK, OVER = "peace", "support", "attack", "over"

# Pending compound decisions (the first entry of ``pending``).
P_MARCH_UNITS = 1  # (P, src, dst): which units march
P_MARCH_ON = 2  # (P, src, dst, cls): Single March, the lone unit may go on
P_ABILITY = 3  # (P, creature, junction): use the summoned creature's ability or not
P_CONSENT = 4  # (P, ally, what, args...): the ally's consent (Allies)
P_PACT = 5  # (P, proposer, target): a pact offered (Allies)
CONSENT_RANGED, CONSENT_SUMMON, CONSENT_ABILITY = 1, 2, 3

# Battle stages (the first entry of ``battle``).
B_LOSS_ATT, B_LOSS_DEF, B_FLEE, B_ADVANCE = 1, 2, 3, 4
ATT_WINS, DEF_WINS, DRAW, UNOPPOSED = 1, 2, 3, 4


@dataclass(slots=True)
class ReliquiumState(GameState):
    """Everything on the table, plus the decision in progress."""

    factions: tuple[int, ...]
    """Seat → faction, in initiative order."""
    round_limit: int
    round: int
    phase: str
    turn: int
    """The faction to act in the peace phase or to distribute support in the support stage."""
    occupant: tuple[int, ...]
    """Per region: the faction whose units stand there, or ``NO``."""
    units: tuple[tuple[int, int, int], ...]
    """Per region: warriors, defenders, mages."""
    castle: tuple[int, ...]
    """Per region: the faction whose castle stands there, or ``NO``."""
    reserve: tuple[tuple[int, int, int], ...]
    """Per faction: the army reserve by class."""
    track: tuple[tuple[int, int, int], ...]
    """Per faction: castle tokens left on the plains, mountains and forests segments (leftmost divisions)."""
    marker: tuple[int, ...]
    """Per faction: the division (0–8) the action marker stands on, or ``NO`` when none is free."""
    done: tuple[bool, ...]
    """Per faction: moved its marker back to the start this peace phase (or takes no part)."""
    melee: tuple[tuple[int, int, int, int], ...]
    """Melee combat tokens: (faction, swords, attacking region, defending region)."""
    ranged: tuple[tuple[int, int, int, int, int, int, int, int], ...]
    """Ranged combat tokens: (faction, arrows, supporting, supported, warriors, defenders, mages, militia)."""
    melee_used: tuple[int, ...]
    """Per faction: bit ``s`` set when the melee token of strength ``s`` was placed this round."""
    ranged_used: tuple[int, ...]
    blocked: frozenset[int]
    """Borders where a token was removed (or Frigus sealed) this round: no token may go there."""
    creatures: tuple[tuple[int, int], ...]
    """Creature tokens on the board: (creature, junction)."""
    used_junctions: frozenset[int]
    militia: tuple[bool, ...]
    pacts: tuple[tuple[int, int], ...]
    proposed: frozenset[int]
    refused: bool
    pending: tuple[int, ...]
    queue: tuple[int, ...]
    """Support stage: ranged token indices still to be distributed, in order."""
    battle: tuple[int, ...]
    """Attack stage: (stage, attacker, defender, regions ×2, outcome, swords, losses ×2, strengths ×2)."""
    winner: int
    reason: str
