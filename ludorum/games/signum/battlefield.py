"""The Battlefield (Поле боя): a continuous 60×60 cm plane with round bases and round terrain.

Rulebook › 11 Glossary › Battlefield: "the play area for both players; by the standard rules 60 by 60 cm".
DESIGN.md §5: distances S = 8, M = 10, L = 15, XL = 25 cm; round bases of 30, 50 or 60 mm.

Everything here is pure geometry over plain numbers (centimetres): the rules modules ask it whether two
bases touch, how far apart they are, whether a move is possible and what a finite set of destinations is.
Designed (docs/signum-rules.md § 7.1): a move is a straight line; distances are measured base edge to base
edge; terrain pieces are round templates.
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


def destinations(
    mover: Disc,
    lengths: Sequence[float],
    others: Sequence[Disc],
    terrain: Sequence[Obstacle],
    flight: bool,
    allowance: float,
) -> list[tuple[int, int, float, float]]:
    """The finite destination set: for each of 8 directions and each length, the legal end point.

    A move that would leave the board is shortened to the edge; one entering difficult terrain stops
    on entering it; one whose path a base or impassable terrain blocks is not offered.  Returns
    (direction, length in mm, x, y) for each distinct destination; each passes :func:`check_move`.
    """
    return destination_groups(mover, [[x for x in lengths if x <= allowance + EPS]], others, terrain, flight)[
        0
    ]


def destination_groups(
    mover: Disc,
    groups: Sequence[Sequence[float]],
    others: Sequence[Disc],
    terrain: Sequence[Obstacle],
    flight: bool,
) -> list[list[tuple[int, int, float, float]]]:
    """:func:`destinations` for several groups of lengths at once (a move's and a run's), sharing the work."""
    outs: list[list[tuple[int, int, float, float]]] = [[] for _ in groups]
    seen: list[set[tuple[float, float]]] = [set() for _ in groups]
    px, py, r = mover.x, mover.y, mover.r
    labelled, longest = _labelled(groups)
    blockers, slow = _in_reach(mover, longest + r + EPS, others, terrain, flight)
    # The reach at which difficult terrain counts as touched (in_terrain's tolerance), per piece.
    grazing = [(t.disc.x, t.disc.y, r + t.disc.r + EPS) for t in slow]
    stops = _stops(mover, longest, _entry_terms(mover, slow))
    blocks = _NOTHING_AHEAD if flight else _blocks(_hit_table(px, py, blockers))
    bundles = list(zip(outs, seen, labelled, strict=True))
    rnd, hypot = round2, math.hypot
    for (i, ux, uy, _, _), stop, block in zip(_COMPASS, stops, blocks, strict=True):
        # Only a piece near this direction's line can be grazed: a path is no nearer to it than the line,
        # give or take the 0.007 cm by which rounding moves the end point (0.05 cm of slack).
        grazed = (
            [g for g in grazing if abs((g[0] - px) * uy - (g[1] - py) * ux) <= g[2] + 0.05] if grazing else ()
        )
        for out, taken, lengths in bundles:
            # A length the board or terrain cuts short goes as far as the one before it: the same end
            # point, already offered or refused, so it is skipped before it is rounded (the answer is
            # the same: the point would be found in ``taken`` or refused again).
            last = -1.0
            for length, mm in lengths:
                go = stop if stop < length else length
                if go == last or go < 0.5 or go > block:
                    continue
                last = go
                x, y = rnd(px + ux * go), rnd(py + uy * go)
                point = (x, y)
                if point in taken:
                    continue
                if (flight and any(hypot(x - cx, y - cy) < rr - EPS for cx, cy, rr in blockers)) or (
                    grazed and _grazes(px, py, x, y, grazed)
                ):
                    continue
                taken.add(point)
                out.append((i, mm, x, y))
    return outs


def _in_reach(
    mover: Disc, reach: float, others: Sequence[Disc], terrain: Sequence[Obstacle], flight: bool
) -> tuple[list[tuple[float, float, float]], list[Obstacle]]:
    """What could stop a move of ``mover`` no longer than ``reach`` less its radius, found once for every
    direction: the blockers (bases and impassable terrain, each as (x, y, combined radius)), and the
    difficult terrain the base does not start in (none for a flyer, which passes over it)."""
    px, py, r = mover.x, mover.y, mover.r
    hypot = math.hypot
    near = [(o.x, o.y, r + o.r) for o in others if hypot(o.x - px, o.y - py) < reach + o.r]
    if not terrain:
        return near, []
    walls = [
        (t.disc.x, t.disc.y, r + t.disc.r)
        for t in terrain
        if t.impassable and hypot(t.disc.x - px, t.disc.y - py) < reach + t.disc.r
    ]
    slow = (
        [
            t
            for t in terrain
            if t.difficult
            and hypot(t.disc.x - px, t.disc.y - py) < reach + t.disc.r
            and not in_terrain(mover, t)
        ]
        if not flight
        else []
    )
    return near + walls, slow


def _entry_terms(mover: Disc, slow: Sequence[Obstacle]) -> list[tuple[float, float, float]]:
    """What entering each piece of difficult terrain in ``slow`` needs whatever the direction: a move
    along the unit direction u first enters it at the least t >= 0 with |P + t u - C| = r + R, so at
    ``-b - sqrt(b² - c)`` with b = f·u, where f = P - C and c = |f|² - (r + R)² are kept here.  Contact
    counts as entering (in_terrain's tolerance), and stopping half a tolerance in keeps a rounded stop
    point in the terrain."""
    out = []
    for piece in slow:
        reach_in = mover.r + piece.disc.r + EPS / 2
        fx, fy = mover.x - piece.disc.x, mover.y - piece.disc.y
        out.append((fx, fy, fx * fx + fy * fy - reach_in * reach_in))
    return out


def _stops(mover: Disc, longest: float, entries: Sequence[tuple[float, float, float]]) -> list[float]:
    """For each direction of :data:`_COMPASS`, how far the mover may go, up to ``longest``: to the board's
    edge (:func:`clip_to_board`), and no farther than where it enters difficult terrain (``entries``, of
    :func:`_entry_terms`); both inlined, their arithmetic unchanged, since every move asks eight times."""
    px, py, r = mover.x, mover.y, mover.r
    # clip_to_board's bounds as distances from the start along each axis
    x_lo, x_hi, y_lo, y_hi = r - px, (SIZE - r) - px, r - py, (SIZE - r) - py
    sqrt = math.sqrt
    out = []
    for _, ux, uy, x_way, y_way in _COMPASS:
        edge = longest
        if x_way:
            far = (x_hi if x_way > 0 else x_lo) / ux
            if far < edge:
                edge = far
        if y_way:
            far = (y_hi if y_way > 0 else y_lo) / uy
            if far < edge:
                edge = far
        if not edge > 0.0:
            edge = 0.0
        stop = edge
        for fx, fy, c in entries:
            b = fx * ux + fy * uy
            disc = b * b - c
            if disc < 0:
                continue
            t = -b - sqrt(disc)
            if 0 <= t < stop:
                stop = t
        out.append(stop)
    return out


def _blocks(hits: Sequence[tuple[float, float, float]]) -> list[float]:
    """For each direction of :data:`_COMPASS`, how far the mover may go before it would overlap a blocker
    (``hits``, of :func:`_hit_table`): infinite when none is ahead, 0 when it may not move that way."""
    sqrt = math.sqrt
    out = []
    for _, ux, uy, _, _ in _COMPASS:
        block = math.inf
        for bx, by, c in hits:
            along = bx * ux + by * uy
            if along <= 0:
                continue  # moving away from it (or alongside): it cannot be hit
            if c <= 0:
                block = 0.0
                break
            disc = along * along - c
            if disc <= 0:
                continue
            t = along - sqrt(disc)
            if t < block:
                block = t
        out.append(block)
    return out


_LABELLED: dict[tuple[tuple[float, ...], ...], tuple[list[list[tuple[float, int]]], float]] = {}


def _labelled(groups: Sequence[Sequence[float]]) -> tuple[list[list[tuple[float, int]]], float]:
    """Each length of each group with its label in mm, and the longest length (0 if none): found once
    per groups of lengths (a creature's allowances), since every legal list of a moving creature asks."""
    key = tuple(map(tuple, groups))
    found = _LABELLED.get(key)
    if found is None:
        if len(_LABELLED) >= 1024:  # a game has a few allowances; arbitrary callers start it afresh
            _LABELLED.clear()
        labelled = [[(length, round(length * 10)) for length in g] for g in key]
        found = _LABELLED[key] = (labelled, max((x for g in key for x in g), default=0.0))
    return found


_COMPASS = tuple(
    (i, ux, uy, 1 if ux > 1e-9 else -1 if ux < -1e-9 else 0, 1 if uy > 1e-9 else -1 if uy < -1e-9 else 0)
    for i, (ux, uy) in enumerate(DIRECTIONS)
)
"""Each direction with the way it goes along x and along y (+1, -1, or 0 when it runs along the other
axis): which board edge :func:`clip_to_board` measures to."""

_NOTHING_AHEAD = (math.inf,) * len(_COMPASS)
"""What :func:`_blocks` finds for a flyer: no base or terrain ahead stops its path (its end point is
checked alone)."""


def _grazes(px: float, py: float, x: float, y: float, slow: Sequence[tuple[float, float, float]]) -> bool:
    """Whether a move from (px, py) to (x, y) touches difficult terrain without ending in it (the
    tolerance of :func:`check_move`, which a path passing within a hair of a piece may meet).

    Each piece is (x, y, the mover's radius + the piece's + EPS): the reach of :func:`in_terrain`.
    """
    for cx, cy, reach in slow:
        if segment_point_distance(px, py, x, y, cx, cy) <= reach and not math.hypot(x - cx, y - cy) <= reach:
            return True
    return False


def _hit_table(
    px: float, py: float, discs: Sequence[tuple[float, float, float]]
) -> list[tuple[float, float, float]]:
    """What a path's first hit (in :func:`destination_groups`) needs of each disc whatever the direction:
    its offset from (px, py) and how far inside the reach the start already is (each disc is (x, y,
    combined radius)).  Along a unit direction u the base may travel ``along - sqrt(along² - c)`` before
    it would overlap a disc ahead (``along`` = offset·u > 0): touching is allowed (the tolerance EPS),
    overlapping is not; ``c <= 0`` means it may not move towards that disc at all."""
    out = []
    for cx, cy, rr in discs:
        reach = rr - EPS / 2  # stricter than check_move, so rounding to 0.01 cm stays legal
        bx, by = cx - px, cy - py
        out.append((bx, by, bx * bx + by * by - reach * reach))
    return out


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
