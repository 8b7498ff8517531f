"""The finite destinations of a straight move on the Battlefield: the eight compass directions times a
creature's lengths (its move's, its run's), each cut at the board's edge and on entering difficult
terrain, and refused when a base or impassable terrain blocks the path (designed, docs/signum-rules.md
§ 7.1).  Pure geometry over plain numbers (centimetres), as in :mod:`~ludorum.games.signum.battlefield`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ludorum.games.signum.battlefield import (
    DIRECTIONS,
    EPS,
    SIZE,
    Disc,
    Obstacle,
    in_terrain,
    round2,
    segment_point_distance,
)

Bearing = tuple[int, float, float, int, int]
"""A compass direction: its index, its unit vector (x, y) and its way along x and along y (+1, -1, 0)."""

_COMPASS: tuple[Bearing, ...] = tuple(
    (i, ux, uy, 1 if ux > 1e-9 else -1 if ux < -1e-9 else 0, 1 if uy > 1e-9 else -1 if uy < -1e-9 else 0)
    for i, (ux, uy) in enumerate(DIRECTIONS)
)
"""Each direction with the way it goes along x and along y (+1, -1, or 0 when it runs along the other
axis): which board edge :func:`clip_to_board` measures to."""


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
    paths = Paths(mover, groups, others, terrain, flight)
    return [paths.group(g) for g in range(len(groups))]


class Paths:
    """The straight moves of one base for several groups of lengths (a move's and a run's): what every
    direction shares is found once, and each direction's destinations when asked (:func:`destination_groups`
    asks for all of them, a random rollout for the one direction it drew)."""

    __slots__ = ("blockers", "blocks", "ends", "flight", "grazing", "hits", "labelled", "stops", "xy")

    def __init__(
        self,
        mover: Disc,
        groups: Sequence[Sequence[float]],
        others: Sequence[Disc],
        terrain: Sequence[Obstacle],
        flight: bool,
    ) -> None:
        r = mover.r
        self.xy = (mover.x, mover.y)
        self.flight = flight
        self.labelled, longest = _labelled(groups)
        """Each group's lengths with their labels in mm."""
        self.blockers, slow = _in_reach(mover, longest + r + EPS, others, terrain, flight)
        # The reach at which difficult terrain counts as touched (in_terrain's tolerance), per piece.
        self.grazing = [(t.disc.x, t.disc.y, r + t.disc.r + EPS) for t in slow]
        self.ends = (mover, longest, _entry_terms(mover, slow))
        """What :func:`_stops` needs."""
        self.hits = None if flight else _hit_table(mover.x, mover.y, self.blockers)
        """What :func:`_blocks` needs (``None`` for a flyer: nothing ahead stops its path)."""
        self.stops: Sequence[float] = ()
        """How far each direction may go before the edge or difficult terrain, once every one is asked."""
        self.blocks: Sequence[float] = ()
        """How far each direction may go before a blocker, likewise."""

    def group(self, g: int) -> list[tuple[int, int, float, float]]:
        """Every destination of group ``g``, direction by direction."""
        if not self.stops:
            self.stops = _stops(*self.ends)
            self.blocks = _NOTHING_AHEAD if self.hits is None else _blocks(self.hits)
        return [point for d in range(len(_COMPASS)) for point in self.direction(d, g)]

    def _limits(self, d: int) -> tuple[float, float]:
        """How far direction ``d`` may go: before the edge or difficult terrain, and before a blocker."""
        if self.stops:
            return self.stops[d], self.blocks[d]
        one = (_COMPASS[d],)  # that direction alone: a random draw asks for one
        return _stops(*self.ends, one)[0], math.inf if self.hits is None else _blocks(self.hits, one)[0]

    def direction(self, d: int, g: int) -> list[tuple[int, int, float, float]]:
        """The destinations of group ``g`` in direction ``d``: (direction, length in mm, x, y), at most one
        per length of the group.  Each direction is found alone: two directions never share an end point
        (lengths under 0.5 cm are not offered, and two end points 45° apart at 0.5 cm or more are 0.35 cm
        apart or more, far beyond the 0.007 cm by which rounding moves them)."""
        px, py = self.xy
        i, ux, uy, _, _ = _COMPASS[d]
        (stop, block), blockers, flight = self._limits(d), self.blockers, self.flight
        # Only a piece near this direction's line can be grazed: a path is no nearer to it than the line,
        # give or take the 0.007 cm by which rounding moves the end point (0.05 cm of slack).
        grazing = self.grazing
        grazed = (
            [t for t in grazing if abs((t[0] - px) * uy - (t[1] - py) * ux) <= t[2] + 0.05] if grazing else ()
        )
        out: list[tuple[int, int, float, float]] = []
        taken: set[tuple[float, float]] = set()
        rnd, hypot = round2, math.hypot
        # A length the board or terrain cuts short goes as far as the one before it: the same end point,
        # already offered or refused, so it is skipped before it is rounded (the answer is the same: the
        # point would be found in ``taken`` or refused again).
        last = -1.0
        for length, mm in self.labelled[g]:
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
        return out


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


def _stops(
    mover: Disc,
    longest: float,
    entries: Sequence[tuple[float, float, float]],
    compass: Sequence[Bearing] = _COMPASS,
) -> list[float]:
    """For each direction of ``compass``, how far the mover may go, up to ``longest``: to the board's
    edge (:func:`clip_to_board`), and no farther than where it enters difficult terrain (``entries``, of
    :func:`_entry_terms`); both inlined, their arithmetic unchanged, since every move asks eight times."""
    px, py, r = mover.x, mover.y, mover.r
    # clip_to_board's bounds as distances from the start along each axis
    x_lo, x_hi, y_lo, y_hi = r - px, (SIZE - r) - px, r - py, (SIZE - r) - py
    sqrt = math.sqrt
    out = []
    for _, ux, uy, x_way, y_way in compass:
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


def _blocks(
    hits: Sequence[tuple[float, float, float]],
    compass: Sequence[Bearing] = _COMPASS,
) -> list[float]:
    """For each direction of ``compass``, how far the mover may go before it would overlap a blocker
    (``hits``, of :func:`_hit_table`): infinite when none is ahead, 0 when it may not move that way."""
    sqrt = math.sqrt
    out = []
    for _, ux, uy, _, _ in compass:
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
