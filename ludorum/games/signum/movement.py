"""Chapter 7.1, movement (Движение): moving, running, moving into contact, and leaving contact.

DESIGN.md §5: a creature may move up to its movement, or Run one distance step further and do nothing
else (not when Slow).  Designed (§ 7.1): a move is a straight line; the finite choices offered are the
eight directions × the distances S, M, L, XL up to the allowance, and "into contact with" each enemy in
reach; any exact point is also accepted (``move_to`` in millimetres) when it is legal.
"""

from __future__ import annotations

import functools
import math
from typing import Any

from ludorum.games.signum import battlefield as bf
from ludorum.games.signum import creatures as cr
from ludorum.games.signum.combat import backstab, finish_move, reveal
from ludorum.games.signum.state import Model, Pending, SignumState


def allowance(s: SignumState, m: Model, run: bool) -> float:
    """How far the creature may go: its movement, or one step further when running.

    Rulebook › Glossary › Difficult terrain: a creature starting its move in it moves S or less.
    """
    reach = cr.run_distance(m) if run else cr.movement(m)
    return min(reach, bf.S) if _held(s, m) else reach


def _held(s: SignumState, m: Model) -> bool:
    """Whether the creature starts its move in difficult terrain (and has no Flight); remembered with
    the destinations, since a creature's moves, runs and contacts all ask."""
    if not s.terrain:
        return False
    found = _scope(s).get(("held", m.uid))
    if found is not None and found[0] is m:
        return found[1]  # type: ignore[no-any-return]
    held = False
    if not cr.has(s, m, "flight"):
        me = cr.disc(m)
        for o in cr.obstacles(s.terrain):  # a loop, not any() over a generator: every moving creature asks
            if o.difficult and bf.in_terrain(me, o):
                held = True
                break
    _scope(s)[("held", m.uid)] = (m, held)
    return held


def move_lengths(reach: float) -> list[float]:
    """The distances offered for a move: S, M, L, XL below the allowance, and the allowance itself."""
    out = [d for d in bf.STEPS if d < reach - 1e-9]
    out.append(reach)
    return out


@functools.cache
def _length_groups(walk: float, dash: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The lengths of a move (:func:`move_lengths`) and of a run, as :func:`_destinations` asks for them
    (found once per allowance: every creature's every legal list asks)."""
    return tuple(move_lengths(walk)), (dash,)


_cache: tuple[Any, Any, dict[Any, Any]] = (None, None, {})
"""The last Battlefield (models and terrain, immutable tuples) and the destinations found on it."""


def _scope(s: SignumState) -> dict[Any, Any]:
    """What is remembered of this Battlefield (its models and terrain, immutable tuples)."""
    global _cache
    cache = _cache
    if cache[0] is not s.models or cache[1] is not s.terrain:
        cache = _cache = (s.models, s.terrain, {})  # rebound whole: see signum.game._cache
    return cache[2]


def destinations(s: SignumState, m: Model, run: bool) -> list[tuple[int, int, float, float]]:
    """Legal (direction, length in mm, x, y) destinations of a move or a run."""
    scope = _scope(s)
    found = scope.get((m.uid, run))
    if found is None:
        walk, dash = _destinations(s, m)
        scope[(m.uid, False)], scope[(m.uid, True)] = walk, dash
        found = dash if run else walk
    return found


def destination_index(s: SignumState, m: Model, run: bool) -> dict[tuple[Any, ...], tuple[float, float]]:
    """The end point of each destination by what the action names: ``(direction, length in mm)`` for a
    move, ``(direction,)`` for a run (the first of the list where two share a name, as a search of the
    list finds it); remembered with the destinations, since the move's check and its application ask."""
    scope = _scope(s)
    key = ("index", m.uid, run)
    found: dict[tuple[Any, ...], tuple[float, float]] | None = scope.get(key)
    if found is None:
        found = {}
        for i, mm, x, y in destinations(s, m, run):
            found.setdefault((i,) if run else (i, mm), (x, y))
        scope[key] = found
    return found


def _destinations(
    s: SignumState, m: Model
) -> tuple[list[tuple[int, int, float, float]], list[tuple[int, int, float, float]]]:
    """The destinations of a move and of a run, found together."""
    walk, dash = cr.movement(m), cr.run_distance(m)
    if _held(s, m):  # allowance(), once for both
        walk, dash = min(walk, bf.S), min(dash, bf.S)
    groups = bf.destination_groups(
        cr.disc(m),
        _length_groups(walk, dash),
        cr.others(s, m.uid),
        cr.obstacles(s.terrain),
        cr.has(s, m, "flight"),
    )
    return groups[0], groups[1]


def contact_moves(s: SignumState, m: Model, limit: float | None = None) -> dict[int, tuple[float, float]]:
    """Enemies the creature can move into contact with (target uid → destination)."""
    reach = allowance(s, m, False) if limit is None else limit
    me = cr.disc(m)
    check: bf.MoveCheck | None = None  # built for the first enemy in reach: most moves have none
    out = {}
    mx, my, r, radius, hypot = m.x, m.y, cr.RADIUS[m.card], cr.RADIUS, math.hypot
    for e in cr.enemies(s, m):
        # cr.dist(m, e) > reach + EPS, inlined (its arithmetic; a negative distance, 0 there, is within
        # reach either way): every enemy of every moving creature asks.
        if hypot(mx - e.x, my - e.y) - r - radius[e.card] > reach + bf.EPS:
            continue
        ed = cr.disc_of(s, e)
        if bf.in_contact(me, ed):
            continue
        x, y, need = bf.contact_point(me, ed)
        if need > reach + bf.EPS:
            continue
        if check is None:
            check = move_check(s, m, reach)
        if not check.refused(x, y):
            out[e.uid] = (x, y)
    return out


def move_check(s: SignumState, m: Model, reach: float) -> bf.MoveCheck:
    """The check of the creature's moves of at most ``reach`` on this Battlefield (remembered with the
    destinations: its legal list's contacts, the RL grid of exact points and the exact point it then moves
    to all ask for the same one)."""
    scope = _scope(s)
    key = ("check", m.uid, reach)
    found = scope.get(key)
    if found is not None and found[0] is m:
        return found[1]  # type: ignore[no-any-return]
    check = bf.MoveCheck(
        cr.disc(m), reach, cr.others(s, m.uid), cr.obstacles(s.terrain), cr.has(s, m, "flight")
    )
    scope[key] = (m, check)
    return check


def why_not_point(s: SignumState, m: Model, x: float, y: float) -> str | None:
    """Why the creature may not move to the exact point (x, y) cm, or ``None`` if it may."""
    return PointCheck(s, m)(x, y)


class PointCheck:
    """:func:`why_not_point` for many points of one creature's move: what every point shares (its
    allowance, the other bases, the terrain) is found once."""

    __slots__ = ("check", "reach")

    def __init__(self, s: SignumState, m: Model) -> None:
        self.reach = allowance(s, m, False)
        """How far the creature may go."""
        self.check = move_check(s, m, self.reach)
        """The move's geometry, from the creature's base (only what is within its reach)."""

    def __call__(self, x: float, y: float) -> str | None:
        """Why the creature may not move to (x, y) cm, or ``None`` if it may."""
        return self.check.why(x, y)


def begin_move(s: SignumState, uid: int, x: float, y: float, run: bool, then: int = -1) -> None:
    """Move a creature; leaving contact with enemies first invites their Backstab.

    ``then`` is an enemy to attack in melee once the move is done (a Pursuit).
    Rulebook › Glossary › Nimble: suffers no Backstab when it leaves contact; › Hidden: a hidden creature
    "cannot be attacked while it is hidden", so one that walks away (a walk keeps it hidden) suffers none.
    """
    m = s.model(uid)
    if run:
        reveal(s, uid)  # › Hidden: running reveals it
    follow = Pending("move", uid, then, (int(run),), x, y)
    m = s.model(uid)
    if not m.hidden and not cr.has(s, m, "nimble"):
        dest = bf.Disc(x, y, cr.disc(m).r)
        leaving = [e for e in cr.enemies_in_contact(s, m) if not bf.in_contact(dest, cr.disc(e))]
        if leaving:
            backstab(s, m, leaving, follow)
            return
    finish_move(s, follow)
