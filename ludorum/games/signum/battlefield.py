"""The Battlefield (Поле боя): a continuous 60×60 cm plane with round bases and round terrain.

Rulebook › 11 Glossary › Battlefield: "the play area for both players; by the standard rules 60 by 60 cm".
DESIGN.md §5: distances S = 8, M = 10, L = 15, XL = 25 cm; round bases of 30, 50 or 60 mm.

Everything here is pure geometry over plain numbers (centimetres): the rules modules ask it whether two
bases touch, how far apart they are and whether a move is possible (a move's finite destinations are in
:mod:`~ludorum.games.signum.paths`).  Designed (docs/signum-rules.md § 7.1): a move is a straight line;
distances are measured base edge to base edge; terrain pieces are round templates.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ludorum.engine.i18n import N_, T

SIZE = 60.0
"""The side of the Battlefield in cm (Rulebook › Glossary › Battlefield)."""

S, M, L, XL = 8.0, 10.0, 15.0, 25.0
"""The four distances (DESIGN.md §5)."""

DISTANCES = {"S": S, "M": M, "L": L, "XL": XL}
STEPS = (S, M, L, XL)
"""Run moves one step further along this ladder (DESIGN.md §5: S→M→L→XL)."""

EPS = 0.02
"""Tolerance (cm) of contact and overlap tests; positions are kept to 0.01 cm."""

DIRECTIONS = tuple((math.cos(i * math.pi / 4), math.sin(i * math.pi / 4)) for i in range(8))
"""The eight compass directions of the finite destination set (0 = +x, counter-clockwise)."""

DIRECTION_NAMES = (N_("E"), N_("NE"), N_("N"), N_("NW"), N_("W"), N_("SW"), N_("S"), N_("SE"))
"""The eight directions as the labels abbreviate them (messages, said in the reader's language)."""


@dataclass(frozen=True, slots=True)
class Disc:
    """A round thing on the Battlefield: a base or a terrain template (centre and radius in cm)."""

    x: float
    y: float
    r: float


@dataclass(frozen=True, slots=True)
class Obstacle:
    """A round terrain piece as geometry: blocks movement (impassable), slows (difficult), blocks sight."""

    disc: Disc
    impassable: bool
    difficult: bool
    blocks_sight: bool


def round2(value: float) -> float:
    """``round(value, 2)``, exactly, in about two thirds of its time (positions are kept to 0.01 cm and
    the destination lists round two coordinates per candidate).

    ``round(x, 2)`` is the double nearest to n/100, n the integer nearest to the exact x·100 (CPython
    rounds the exact binary value in decimal, then parses that back).  Below 1e6, ``v = x * 100.0`` is
    within half an ulp (2^-33) of x·100 and ``v - floor(v)`` is exact, so when that fraction is more than
    1e-7 from one half, ``floor`` and the fraction give the same n, and ``n / 100`` (both exact, the
    division correctly rounded) the same double.  Near a half, and for zero, negative or large values (the
    sign of a zero), ask ``round``.  ``test_battlefield`` checks it against ``round``.
    """
    v = value * 100.0
    if 0.0 < v < 1e6:
        n = math.floor(v)
        f = v - n
        if f < 0.4999999:
            return n / 100
        if f > 0.5000001:
            return (n + 1) / 100
    return round(value, 2)


def radius(base_mm: int) -> float:
    """The radius in cm of a round base of ``base_mm`` millimetres."""
    return base_mm / 20.0


def centre_distance(a: Disc, b: Disc) -> float:
    """Distance between two centres."""
    return math.hypot(a.x - b.x, a.y - b.y)


def distance(a: Disc, b: Disc) -> float:
    """Distance measured edge to edge (0 when in contact or overlapping) — designed, § 7.1."""
    return max(0.0, math.hypot(a.x - b.x, a.y - b.y) - a.r - b.r)


def in_contact(a: Disc, b: Disc) -> bool:
    """Whether two bases touch (their edges meet, within the tolerance)."""
    return math.hypot(a.x - b.x, a.y - b.y) <= a.r + b.r + EPS


def overlaps(a: Disc, b: Disc) -> bool:
    """Whether two discs overlap by more than the tolerance (two bases may never do so)."""
    return math.hypot(a.x - b.x, a.y - b.y) < a.r + b.r - EPS


def segment_point_distance(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> float:
    """Shortest distance from point P to the segment AB."""
    dx, dy = bx - ax, by - ay
    den = dx * dx + dy * dy
    if den == 0.0:
        return math.hypot(px - ax, py - ay)
    t = ((px - ax) * dx + (py - ay) * dy) / den
    t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def on_board(d: Disc) -> bool:
    """Whether the whole base lies on the 60×60 cm plane."""
    return d.r - EPS <= d.x <= SIZE - d.r + EPS and d.r - EPS <= d.y <= SIZE - d.r + EPS


def sees(a: Disc, b: Disc, terrain: Iterable[Obstacle]) -> bool:
    """Clear line of sight between two centres: no sight-blocking terrain crosses the line.

    Designed (§ 7.3): a terrain piece that holds either end's centre does not block that model's sight.
    """
    for o in terrain:
        if not o.blocks_sight:
            continue
        t = o.disc
        if math.hypot(a.x - t.x, a.y - t.y) < t.r or math.hypot(b.x - t.x, b.y - t.y) < t.r:
            continue
        if segment_point_distance(a.x, a.y, b.x, b.y, t.x, t.y) < t.r - EPS:
            return False
    return True


def in_terrain(d: Disc, o: Obstacle) -> bool:
    """Whether a base stands in (touches or overlaps) a terrain piece."""
    return math.hypot(d.x - o.disc.x, d.y - o.disc.y) <= d.r + o.disc.r + EPS


def check_move(
    mover: Disc,
    x: float,
    y: float,
    allowance: float,
    others: Sequence[Disc],
    terrain: Sequence[Obstacle],
    flight: bool,
) -> str | None:
    """Why a straight move of ``mover`` to (x, y) is impossible, or ``None`` if it is legal.

    ``others`` are every other base on the Battlefield; ``allowance`` the distance it may cover.
    Rulebook › Glossary › Flight: ignores obstacles when moving (bases, impassable and difficult terrain);
    Rulebook › Glossary › Difficult terrain: a creature entering it must stop in it; one starting in it
    moves S or less.
    """
    return MoveCheck(mover, allowance, others, terrain, flight).why(x, y)


class MoveCheck:
    """:func:`check_move` for many end points of one base's move: what every point shares (the board's
    bounds for this base, the other bases and terrain as plain numbers, which difficult terrain the base
    starts in) is found once, and :meth:`refused` answers without building the refusal's words (the RL
    grid and the contact moves ask about dozens of points a step, most of them refused).  The rules are
    :func:`check_move`'s (Rulebook › Glossary › Flight and › Difficult terrain), checked in its order, so
    the first refusal is the same."""

    __slots__ = ("allowance", "bases", "flight", "hi", "limit", "lo", "path", "walls", "x", "y")

    def __init__(
        self, mover: Disc, allowance: float, others: Sequence[Disc], terrain: Sequence[Obstacle], flight: bool
    ) -> None:
        x, y, r = mover.x, mover.y, mover.r
        self.x, self.y = x, y
        self.allowance = allowance
        self.limit = allowance + EPS
        self.lo, self.hi = r - EPS, SIZE - r + EPS  # on_board's bounds
        self.flight = flight
        # Only what lies within reach of a move no longer than the allowance can refuse it (moves any longer
        # are refused first): as within_reach() does for bases, drop the rest once, here for terrain too.
        # A piece the base starts in stays, whatever its size: it limits the move's length.
        near = self.limit + r + EPS + 1.0
        bases = within_reach(mover, others, allowance)
        pieces = [
            t
            for t in terrain
            if (t.impassable or t.difficult)
            and (math.hypot(t.disc.x - x, t.disc.y - y) < near + t.disc.r or in_terrain(mover, t))
        ]
        # Each other base: its centre and the distance under which it overlaps (the same sums, in the
        # same order, as overlaps() makes).
        self.bases = [(o.x, o.y, r + o.r - EPS) for o in bases]
        self.walls = [(t.disc.x, t.disc.y, r + t.disc.r - EPS) for t in pieces if t.impassable]
        # What a path may cross, in the order check_move looks (the first refusal is the one given): the
        # bases, then the terrain in its order; each with its offset from the start, the rule it breaks
        # (refused()'s number), the distance that rule measures against, and its centre.
        self.path = [(o.x - x, o.y - y, 5, r + o.r - EPS, o.x, o.y) for o in bases]
        for t in pieces:
            c = t.disc
            if t.impassable:
                self.path.append((c.x - x, c.y - y, 6, r + c.r - EPS, c.x, c.y))
            else:
                rule = 7 if in_terrain(mover, t) else 8
                self.path.append((c.x - x, c.y - y, rule, r + c.r + EPS, c.x, c.y))

    def refused(self, x: float, y: float) -> int:
        """0 if the move to (x, y) is legal, else the number of the first rule it breaks (1–8, the order
        of :meth:`why`'s messages)."""
        if not (self.lo <= x <= self.hi and self.lo <= y <= self.hi):
            return 1
        ax, ay = self.x, self.y
        dx, dy = x - ax, y - ay
        length = math.hypot(dx, dy)
        if length > self.limit:
            return 2
        hypot = math.hypot
        for ox, oy, reach in self.bases:
            if hypot(x - ox, y - oy) < reach:
                return 3
        for tx, ty, reach in self.walls:
            if hypot(x - tx, y - ty) < reach:
                return 4
        if self.flight:
            return 0
        # segment_point_distance from the start to (x, y), inlined with the same arithmetic.
        den = dx * dx + dy * dy
        for bx, by, rule, reach, tx, ty in self.path:
            if den == 0.0:
                d = hypot(bx, by)
            else:
                t = (bx * dx + by * dy) / den
                t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
                d = hypot(bx - t * dx, by - t * dy)
            if rule == 5 or rule == 6:  # a base, impassable terrain: in the way
                if d < reach:
                    return rule
            elif rule == 7:  # difficult terrain the base starts in
                if length > S + EPS:
                    return 7
            elif d <= reach and not hypot(x - tx, y - ty) <= reach:  # difficult terrain entered, not ended in
                return 8
        return 0

    def why(self, x: float, y: float) -> str | None:
        """Why the move to (x, y) is impossible, or ``None`` if it is legal (:func:`check_move`)."""
        code = self.refused(x, y)
        if code == 0:
            return None
        if code == 2:
            return T(
                "the move is {length} cm, more than the {allowance} cm allowed",
                length=f"{math.hypot(x - self.x, y - self.y):.1f}",
                allowance=f"{self.allowance:g}",
            )
        return T(_REFUSALS[code])


_REFUSALS = (
    "",
    N_("the base would leave the Battlefield"),
    "",
    N_("the destination overlaps another base"),
    N_("the destination is inside impassable terrain"),
    N_("another base is in the way (only Flight passes over bases)"),
    N_("impassable terrain is in the way"),
    N_("a creature starting in difficult terrain moves S or less"),
    N_("a creature entering difficult terrain must end its move there"),
)
"""The words of :meth:`MoveCheck.refused`'s numbers (2, the length, is worded with its figures)."""


def within_reach(mover: Disc, others: Sequence[Disc], allowance: float) -> list[Disc]:
    """The bases among ``others`` that a move of ``mover`` of at most ``allowance`` could touch: passing
    only these to :func:`check_move` gives the same answer for every such move (a base farther than the
    move's length plus both radii can neither overlap the destination nor lie across the path; 1 cm of
    slack keeps rounding far from the line), and moves any longer are refused before bases are looked at.
    """
    x, y, r = mover.x, mover.y, mover.r
    limit = allowance + r + EPS + 1.0
    return [o for o in others if math.hypot(o.x - x, o.y - y) < limit + o.r]


def clip_to_board(mover: Disc, ux: float, uy: float, length: float) -> float:
    """The longest distance along (ux, uy), up to ``length``, keeping the base on the Battlefield."""
    lo, hi = mover.r, SIZE - mover.r
    best = _axis_limit(_axis_limit(length, mover.x, ux, lo, hi), mover.y, uy, lo, hi)
    return best if best > 0.0 else 0.0


def _axis_limit(best: float, pos: float, u: float, lo: float, hi: float) -> float:
    """``best``, or less if moving at rate ``u`` from ``pos`` leaves [lo, hi] sooner along this axis."""
    if u > 1e-9:
        far = (hi - pos) / u
    elif u < -1e-9:
        far = (lo - pos) / u
    else:
        return best
    return far if far < best else best


def contact_point(mover: Disc, target: Disc) -> tuple[float, float, float]:
    """Where a straight move towards ``target`` first touches it: (x, y, distance travelled)."""
    d = centre_distance(mover, target)
    need = max(0.0, d - mover.r - target.r)
    if d == 0:
        return mover.x, mover.y, 0.0
    ux, uy = (target.x - mover.x) / d, (target.y - mover.y) / d
    return round2(mover.x + ux * need), round2(mover.y + uy * need), need


def push_away(
    target: Disc, source: Disc, length: float, others: Sequence[Disc], terrain: Sequence[Obstacle]
) -> tuple[float, float, bool]:
    """Push ``target`` straight away from ``source`` by up to ``length`` (Buckshot).

    Returns the end point and whether the full distance was covered (bases, impassable terrain and the
    board edge stop it short).
    """
    d = centre_distance(target, source)
    ux, uy = ((target.x - source.x) / d, (target.y - source.y) / d) if d > 0 else (0.0, 1.0)
    go = clip_to_board(target, ux, uy, length)
    step = 0.25
    best = 0.0
    t = step
    check = MoveCheck(target, length, others, [o for o in terrain if o.impassable], False)
    while t <= go + 1e-9:
        x, y = target.x + ux * t, target.y + uy * t
        if check.refused(x, y):
            break
        best = t
        t += step
    full = best >= length - step / 2 and go >= length - 1e-9
    if full:
        best = length
    return round(target.x + ux * best, 2), round(target.y + uy * best, 2), full
