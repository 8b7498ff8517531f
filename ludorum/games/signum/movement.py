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
from ludorum.games.signum.paths import Paths
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
    paths = _paths(s, m)
    return paths.group(0), paths.group(1)


def _paths(s: SignumState, m: Model) -> Paths:
    """The creature's straight moves on this Battlefield, group 0 its move's lengths and group 1 its
    run's (remembered with the destinations: its legal list, a random draw and the move itself ask)."""
    scope = _scope(s)
    key = ("paths", m.uid)
    found = scope.get(key)
    if found is not None and found[0] is m:
        return found[1]  # type: ignore[no-any-return]
    paths = Paths(
        cr.disc(m),
        _lengths(s, m),
        cr.others(s, m.uid),
        cr.obstacles(s.terrain),
        cr.has(s, m, "flight"),
    )
    scope[key] = (m, paths)
    return paths


def _lengths(s: SignumState, m: Model) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The lengths of the creature's move and of its run (:func:`allowance`, once for both)."""
    walk, dash = cr.movement(m), cr.run_distance(m)
    if _held(s, m):
        walk, dash = min(walk, bf.S), min(dash, bf.S)
    return _length_groups(walk, dash)


def direction_slots(s: SignumState, m: Model) -> tuple[int, int]:
    """How many destinations of a move and of a run one direction can hold at most: one per length."""
    walk, dash = _lengths(s, m)
    return len(walk), len(dash)


def direction_destinations(
    s: SignumState, m: Model, run: bool, d: int
) -> list[tuple[int, int, float, float]]:
    """The destinations of a move (or a run) in direction ``d`` alone, in the order :func:`destinations`
    lists them (remembered, as the move then asks for its point)."""
    scope = _scope(s)
    key = ("direction", m.uid, run, d)
    found = scope.get(key)
    if found is None or found[0] is not m:
        found = scope[key] = (m, _paths(s, m).direction(d, int(run)))
    return found[1]


def destination_point(
    s: SignumState, m: Model, run: bool, name: tuple[Any, ...]
) -> tuple[float, float] | None:
    """The end point of the destination a move's ``(direction, length in mm)`` or a run's
    ``(direction,)`` names, or ``None`` if none is legal: :func:`destination_index`'s answer, found from
    the one direction named unless every destination is known already."""
    index = _scope(s).get(("index", m.uid, run))
    if index is not None:
        return index.get(name)  # type: ignore[no-any-return]
    d = name[0]
    if d not in range(len(bf.DIRECTIONS)):  # compared as the index's keys would be (1.0 == 1)
        return None
    for i, mm, x, y in direction_destinations(s, m, run, int(d)):
        if ((i,) if run else (i, mm)) == name:
            return x, y
    return None


def contact_moves(s: SignumState, m: Model, limit: float | None = None) -> dict[int, tuple[float, float]]:
    """Enemies the creature can move into contact with (target uid → destination)."""
    reach = allowance(s, m, False) if limit is None else limit
    out = {}
    for e in cr.enemies(s, m):
        point = contact_move(s, m, e, reach)
        if point is not None:
            out[e.uid] = point
    return out


def contact_move(s: SignumState, m: Model, e: Model, reach: float) -> tuple[float, float] | None:
    """Where the creature's move of at most ``reach`` into contact with the enemy ``e`` ends, or ``None``
    if it cannot (:func:`contact_moves` for one enemy: a random draw asks for the one it drew)."""
    # cr.dist(m, e) > reach + EPS, inlined (its arithmetic; a negative distance, 0 there, is within reach
    # either way): every enemy of every moving creature asks.
    if math.hypot(m.x - e.x, m.y - e.y) - cr.RADIUS[m.card] - cr.RADIUS[e.card] > reach + bf.EPS:
        return None
    me, ed = cr.disc(m), cr.disc_of(s, e)
    if bf.in_contact(me, ed):
        return None
    x, y, need = bf.contact_point(me, ed)
    # the check is built for the first enemy in reach (most moves have none) and remembered
    if need > reach + bf.EPS or move_check(s, m, reach).refused(x, y):
        return None
    return x, y


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
