"""Chapter 7, a character's actions (Действия персонажа) during its activation.

DESIGN.md §5: on its activation a creature may move up to its movement; Run; move and then fight in
melee; fight in melee if already in contact; shoot if it has a shooting property; or use an ability on
its card.  Quick Shooter may shoot and Battle Mage may use magic after moving (Rulebook › Glossary).
``stage`` is 0 before the creature has done anything, 1 after it moved, 2 after it found a hidden enemy.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ludorum.engine import CANCEL, Action
from ludorum.engine.i18n import T
from ludorum.games.signum import battlefield as bf
from ludorum.games.signum import combat
from ludorum.games.signum import creatures as cr
from ludorum.games.signum.glossary import Prop
from ludorum.games.signum.movement import (
    allowance,
    begin_move,
    contact_move,
    contact_moves,
    destination_point,
    destinations,
    direction_destinations,
    direction_slots,
)
from ludorum.games.signum.state import Model, SignumState, new_action

DONE = Action("done")
"""Ending the activation (made once: actions are immutable, and every legal list of an acting creature
offers it)."""


def melee_targets(s: SignumState, m: Model, near: list[Model] | None = None) -> list[Model]:
    """Enemies the creature may attack in melee: those in contact, not hidden (``near``, if the caller
    has found them already).

    Rulebook › Glossary › Defender: an enemy in contact with a Defender that declares a melee attack must
    target it (one of them, of its choice, if several).
    """
    if near is None:
        near = cr.enemies_in_contact(s, m)
    defenders = [e for e in near if cr.has(s, e, "defender")]
    return defenders or near


def engaged(s: SignumState, m: Model) -> bool:
    """In contact with an enemy that is not hidden (› Hidden: a hidden one does not hamper it)."""
    return bool(cr.enemies_in_contact(s, m))


def can_shoot(s: SignumState, m: Model, t: Model) -> str | None:
    """Why ``m`` may not shoot ``t``, or ``None`` (DESIGN.md §5: Shot X within XL, clear line of sight)."""
    why = _shot_refusal(s, m, t, engaged(s, m))
    return None if why is None else why()


def _shot_refusal(s: SignumState, m: Model, t: Model, in_contact: bool) -> Callable[[], str] | None:
    """:func:`can_shoot`'s answer, its message built only when asked (the legal list asks of every enemy
    and needs no words), given whether ``m`` is ``engaged`` (the same for every target)."""
    if not s.hostile(t.side(), m.side()):
        return lambda: T("Shot: only an enemy can be the target")
    if t.hidden:
        return lambda: T("Shot: a hidden creature cannot be attacked")
    if in_contact:
        return lambda: T("Shot: a creature in contact with an enemy cannot shoot (designed § 7.3)")
    d = cr.dist(m, t)
    if d > bf.XL + bf.EPS:
        return lambda: T("Shot: the target is beyond XL ({d} cm)", d=f"{d:.1f}")
    if not cr.sees(s, m, t):
        return lambda: T("Shot: terrain blocks the line of sight")
    return None


def stage_actions(s: SignumState) -> list[Action]:
    """What the acting creature may do now."""
    m = s.model(s.acting)
    have = cr.props(s, m)  # asked of many times below: cr.has is ``in have``, cr.x_of is _x(have, ...)
    if s.stage != 0:
        return _stage_rest(s, m, have)
    out: list[Action] = []
    for i, mm, _, _ in destinations(s, m, False):
        out.append(new_action(("move", (i, mm))))
    out.extend(_contacts(s, m))
    if "slow" not in have:  # › Slow: cannot Run
        for i, _, _, _ in destinations(s, m, True):
            out.append(new_action(("run", (i,))))
    out.extend(_stage_rest(s, m, have))
    return out


def random_stage_action(s: SignumState, rng: random.Random) -> Action:
    """At the first stage, one of :func:`stage_actions` other than CANCEL, each as likely, without finding
    every destination or checking every target.

    Rejection sampling, exact: every round draws one of ``n`` equally likely slots, in groups: each action
    found outright (melee, finding the hidden, ending the activation), each candidate of a targeted
    action (:func:`_targeted`), each enemy (moving into contact with it), and for each direction as many
    slots of a move (and of a run) as it has lengths.  A candidate's slot is its action if the action is
    legal; an enemy's is its contact if the creature can reach it; a direction's k-th slot is its k-th
    destination if it has that many (found for that direction alone); else the round is drawn again.  So
    each legal action has exactly one slot, and each is as likely.
    """
    m = s.model(s.acting)
    have = cr.props(s, m)
    touching = cr.enemies_in_contact(s, m, True)
    near = [e for e in touching if not e.hidden]
    targets = melee_targets(s, m, near)
    found = [*_melee(targets), *_detect(touching), DONE]
    groups: list[tuple[int, Callable[[int], Action | None]]] = [(len(found), found.__getitem__)]
    for kind, candidates, legal in _targeted(s, m, have, targets, near):
        groups.append((len(candidates), _slot(kind, candidates, legal)))
    foes = cr.enemies(s, m)  # a slot each: moving into contact with it, if it can
    reach = allowance(s, m, False)
    groups.append((len(foes), lambda k: _contact_slot(s, m, foes[k], reach)))
    walk, dash = direction_slots(s, m)
    directions = len(bf.DIRECTIONS)
    groups.append((directions * walk, lambda k: _destination_slot(s, m, False, *divmod(k, walk))))
    if "slow" not in have:  # › Slow: cannot Run
        groups.append((directions * dash, lambda k: _destination_slot(s, m, True, *divmod(k, dash))))
    n = sum(size for size, _ in groups)
    while True:
        k = rng.randrange(n)
        for size, action in groups:
            if k < size:
                drawn = action(k)
                break
            k -= size
        if drawn is not None:
            return drawn


def _slot(
    kind: str, candidates: Sequence[Model], legal: Callable[[Model], bool]
) -> Callable[[int], Action | None]:
    """The slots of a targeted action: the k-th candidate's action if it is legal."""
    return lambda k: Action(kind, (candidates[k].uid,)) if legal(candidates[k]) else None


def _contact_slot(s: SignumState, m: Model, e: Model, reach: float) -> Action | None:
    """Moving into contact with the enemy ``e``, if the creature can."""
    return None if contact_move(s, m, e, reach) is None else new_action(("contact", (e.uid,)))


def _destination_slot(s: SignumState, m: Model, run: bool, d: int, j: int) -> Action | None:
    """The ``j``-th destination of a move (or a run) in direction ``d``, if it has that many."""
    found = direction_destinations(s, m, run, d)
    if j >= len(found):
        return None
    i, mm, _, _ = found[j]
    return new_action(("run", (i,))) if run else new_action(("move", (i, mm)))


def _contacts(s: SignumState, m: Model) -> list[Action]:
    """Moving into contact with each enemy in reach, at the first stage."""
    return [new_action(("contact", (uid,))) for uid in contact_moves(s, m)]


def _melee(targets: list[Model]) -> list[Action]:
    """A melee attack on each target."""
    return [new_action(("melee", (t.uid,))) for t in targets]


def _detect(touching: list[Model]) -> list[Action]:
    """› Hidden: finding a hidden creature in contact "counts as a melee attack", so, like melee, it may
    follow a move (into contact with it)."""
    return [Action("detect", (e.uid,)) for e in touching if e.hidden]


def _stage_rest(s: SignumState, m: Model, have: dict[str, Prop]) -> list[Action]:
    """What the acting creature may do besides moving: fight, shoot, use an ability, find the hidden, end
    its activation (and, at the first stage, cancel it)."""
    # Every enemy in contact, hidden or not, found once: melee, finding the hidden and Shot's "engaged".
    touching = cr.enemies_in_contact(s, m, True)
    near = [e for e in touching if not e.hidden]
    targets = melee_targets(s, m, near)
    out = _melee(targets)
    if s.stage == 2:
        out.append(DONE)
        return out
    for kind, candidates, legal in _targeted(s, m, have, targets, near):
        out.extend(Action(kind, (t.uid,)) for t in candidates if legal(t))
    out.extend(_detect(touching))
    out.append(DONE)
    if s.stage == 0:
        out.append(CANCEL)
    return out


def _targeted(
    s: SignumState, m: Model, have: dict[str, Prop], targets: list[Model], near: list[Model]
) -> list[tuple[str, Sequence[Model], Callable[[Model], bool]]]:
    """The actions with a target the acting creature's abilities give it now, before the second stage:
    each kind with its candidates and whether a candidate may be its target, in the legal list's order."""
    moved = s.stage >= 1
    magic_ok = not moved or "battle_mage" in have
    out: list[tuple[str, Sequence[Model], Callable[[Model], bool]]] = []
    if _x(have, "magical_strike") and magic_ok:
        out.append(("strike", targets, _anyone))
    foes = cr.enemies(s, m)
    if _x(have, "shot") and (not moved or "quick_shooter" in have):
        busy = bool(near)  # engaged()
        out.append(("shoot", foes, lambda t: _shot_refusal(s, m, t, busy) is None))
    if _x(have, "magic_shot") and magic_ok:
        out.append(("magic_shot", foes, lambda t: cr.dist(m, t) <= bf.XL + bf.EPS))
    if _x(have, "control") and magic_ok:
        out.append(("control", foes, lambda t: _controllable(s, m, t)))
    if not moved and _x(have, "healer"):
        out.append(
            (
                "heal",
                s.models,
                lambda f: (
                    f.side() == m.side()
                    and f.uid != m.uid
                    and bool(f.wounds)
                    and cr.dist(m, f) <= bf.XL + bf.EPS
                ),
            )
        )
    return out


def _anyone(t: Model) -> bool:
    """Every candidate may be the target."""
    return True


def _controllable(s: SignumState, m: Model, t: Model) -> bool:
    """Whether ``m`` may take control of the enemy ``t``: seen, within XL, not a hero, not controlled."""
    return (
        not t.hidden
        and not cr.is_hero(s, t)
        and t.controller < 0
        and cr.dist(m, t) <= bf.XL + bf.EPS
        and cr.sees(s, m, t)
    )


def _x(have: dict[str, Prop], name: str) -> int:
    """:func:`creatures.x_of` over properties already found."""
    p = have.get(name)
    return p.x if p else 0


def pursuit_actions(s: SignumState, uid: int) -> list[Action]:
    """Rulebook › Glossary › Pursuit X: move S or less and attack again in melee, or stop."""
    m = s.model(uid)
    out = [Action("pursue", (t.uid,)) for t in melee_targets(s, m)]
    out.extend(Action("pursue", (t,)) for t in pursuit_moves(s, m))
    out.append(DONE)
    return out


def pursuit_moves(s: SignumState, m: Model) -> dict[int, tuple[float, float]]:
    """Enemies a Pursuit can reach by a move of S or less.

    Rulebook › Glossary › Difficult terrain: a creature that entered it this turn cannot leave it, so a
    creature that moved this activation and stands in difficult terrain pursues only within it.
    """
    # › Hidden: a hidden creature cannot be attacked, so a Pursuit cannot close on one.
    reach = {t: xy for t, xy in contact_moves(s, m, bf.S).items() if not s.model(t).hidden}
    if s.stage >= 1 and not cr.has(s, m, "flight"):
        me = cr.disc(m)
        held = [o for o in cr.obstacles(s.terrain) if o.difficult and bf.in_terrain(me, o)]
        if held:
            reach = {
                t: (x, y)
                for t, (x, y) in reach.items()
                if all(bf.in_terrain(bf.Disc(x, y, me.r), o) for o in held)
            }
    return reach


def apply_stage(s: SignumState, action: Action) -> None:
    """Carry out the acting creature's chosen action."""
    uid = s.acting
    kind, args = action.kind, action.args
    m = s.model(uid)
    if kind == "cancel":
        s.acting, s.stage = -1, 0
    elif kind == "done":
        combat.end_activation(s, uid)
    elif kind in ("move", "run"):
        run = kind == "run"
        point = destination_point(s, m, run, (args[0],) if run else (args[0], args[1]))
        if point is not None:
            begin_move(s, uid, point[0], point[1], run)
    elif kind == "contact":
        x, y = contact_moves(s, m)[int(args[0])]  # type: ignore[arg-type]
        begin_move(s, uid, x, y, False)
    elif kind == "move_to":
        begin_move(s, uid, int(args[0]) / 10.0, int(args[1]) / 10.0, False)  # type: ignore[arg-type]
    elif kind == "melee":
        combat.declare_melee(s, uid, int(args[0]), momentum=s.stage == 1)  # type: ignore[arg-type]
    else:
        combat.declare(s, kind, uid, int(args[0]))  # type: ignore[arg-type]


def apply_pursuit(s: SignumState, action: Action) -> None:
    """Answer a pending Pursuit."""
    p = combat.pop(s)
    m = s.model(p.actor)
    if action.kind == "done":
        combat.end_activation(s, m.uid)
        return
    target = int(action.args[0])  # type: ignore[arg-type]
    s.put(m.but(pursuits=m.pursuits + 1))
    reach = pursuit_moves(s, m)
    if target in reach:
        x, y = reach[target]
        begin_move(s, m.uid, x, y, False, then=target)
    else:
        combat.declare_melee(s, m.uid, target, momentum=False)
