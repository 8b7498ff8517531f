"""The three-faced die (DESIGN.md §5): a six-sided die with Bullseye (1–2), Axe (3–4), Shield/Axe (5–6).

Dice are chance decisions: a roll of ``n`` dice is one chance node whose outcomes are the face counts
``(bullseyes, axes, shield_axes)`` with their multinomial probabilities.  A :class:`Roll` describes a
group of dice, which faces succeed and which re-rolls follow (a Master's re-roll of failures; the forced
re-roll of successes against a Seasoned Fighter or a Hard Target).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

BULLSEYE, AXE, SHIELD_AXE = 1, 2, 4
"""Face bits; a success mask is an OR of them."""

FACE_NAMES = {BULLSEYE: "Bullseye", AXE: "Axe", SHIELD_AXE: "Shield/Axe"}
FACE_NAMES_RU = {BULLSEYE: "мишень", AXE: "топор", SHIELD_AXE: "щит/топор"}

HITS_MELEE = AXE | SHIELD_AXE
"""A melee attack die succeeds on Axe or Shield/Axe (DESIGN.md §5, Magical Strike)."""
HITS_WOUNDED = SHIELD_AXE
"""A wounded attacker without Stalwart succeeds only on Shield/Axe (DESIGN.md §5)."""
BLOCKS_MELEE = SHIELD_AXE | BULLSEYE
"""Designed (§ 7.2): a melee defence die parries on Shield/Axe or Bullseye."""
HITS_SHOT = BULLSEYE
"""Shooting hits on Bullseye (DESIGN.md §5)."""
BLOCKS_SHOT = SHIELD_AXE
"""The target of a shot blocks one hit per Shield/Axe (DESIGN.md §5)."""


def face_of(value: int) -> int:
    """The face shown by a d6 value: 1–2 Bullseye, 3–4 Axe, 5–6 Shield/Axe."""
    if not 1 <= value <= 6:
        raise ValueError(f"a d6 shows 1–6, not {value}")
    return BULLSEYE if value <= 2 else AXE if value <= 4 else SHIELD_AXE


def successes(counts: tuple[int, int, int], mask: int) -> int:
    """How many of the face counts (bullseyes, axes, shield/axes) succeed under ``mask``."""
    b, a, s = counts
    return (b if mask & BULLSEYE else 0) + (a if mask & AXE else 0) + (s if mask & SHIELD_AXE else 0)


@functools.cache
def outcomes(n: int) -> tuple[tuple[tuple[int, int, int], float], ...]:
    """Every face count of ``n`` dice with its probability (each face is 1/3)."""
    out = []
    for b in range(n + 1):
        for a in range(n - b + 1):
            s = n - b - a
            p = math.factorial(n) / (math.factorial(b) * math.factorial(a) * math.factorial(s)) / 3.0**n
            out.append(((b, a, s), p))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Roll:
    """A group of dice waiting to be rolled, with the re-rolls that follow.

    ``stage`` 0 rolls ``n`` dice; stage 1 re-rolls up to ``master`` failures; stage 2 re-rolls every
    success when ``forced``.  ``kept`` counts successes so far; ``faces`` the last faces seen.
    """

    tag: str
    n: int
    mask: int
    master: int = 0
    forced: bool = False
    stage: int = 0
    kept: int = 0
    faces: tuple[int, int, int] = (0, 0, 0)


@dataclass(frozen=True, slots=True)
class Rolled:
    """A finished group: its tag, its successes and the faces it showed."""

    tag: str
    hits: int
    faces: tuple[int, int, int]


def advance(roll: Roll, counts: tuple[int, int, int]) -> Roll | Rolled:
    """Apply one chance outcome to ``roll``: the next stage to roll, or the finished result."""
    got = successes(counts, roll.mask)
    if roll.stage == 0:
        kept, failed = got, roll.n - got
        faces = counts
    elif roll.stage == 1:
        kept, failed = roll.kept + got, 0
        faces = tuple(x + y for x, y in zip(roll.faces, counts, strict=True))  # type: ignore[assignment]
    else:
        kept, failed = got, 0
        faces = roll.faces
    if roll.stage == 0 and roll.master and failed:
        return Roll(roll.tag, min(roll.master, failed), roll.mask, 0, roll.forced, 1, kept, faces)
    if roll.stage < 2 and roll.forced and kept:
        return Roll(roll.tag, kept, roll.mask, 0, False, 2, 0, faces)
    return Rolled(roll.tag, kept, faces)
