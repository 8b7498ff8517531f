"""Legendary creatures: summoning, the strengthening aura and the twelve special abilities.

Rulebook › Summoning a creature: every target lies in one of the three regions of the creature's
presence or on a border of one (Fidei and Arboruus: the region of presence is where the units' movement
ends).  The abilities the rulebook does not print are designed (``data/creatures.toml``, docs/reliquium.md).
"""

from __future__ import annotations

from typing import Any

from ludorum.engine import CANCEL, Action, IllegalAction
from ludorum.engine.i18n import T

from .rules import (
    LIMIT,
    R_ABILITY,
    C,
    add_units,
    allied,
    border_free,
    build_castle,
    can_build,
    class_name,
    controls,
    entry_error,
    move_units,
    remove_units,
    subsets,
    to_reserve,
    tset,
    units_text,
)
from .state import CONSENT_ABILITY, NO, P_CONSENT, PEACE, ReliquiumState
from .turns import end_turn

FORGO = Action("forgo")


def _one(cls: int) -> tuple[int, int, int]:
    return (int(cls == 0), int(cls == 1), int(cls == 2))


def helped(s: ReliquiumState, f: int) -> tuple[int, ...]:
    """Whose units ``f``'s abilities may move or change: its own, and with Allies (consent) its allies'."""
    if not s.config.has("allies") or s.refused or not s.pacts:
        return (f,)
    return (f, *(g for g in s.factions if g != f and allied(s, f, g)))


def ability_owner(s: ReliquiumState, kind: str, t: tuple[int, ...]) -> int:
    """The faction whose units a moving ability acts on (``NO`` for other abilities)."""
    if kind in ("tide", "gather", "call") and len(t) > 2:
        return s.occupant[t[0]]
    return NO


def ability_actions(s: ReliquiumState) -> list[Action]:
    """The ability targets of the creature being summoned, plus ``forgo`` and ``cancel``."""
    _, c, j = s.pending
    f = s.turn
    presence = C.junctions[j]
    kind = C.creatures[c].ability
    hands = helped(s, f)
    out: list[tuple[int, ...]] = []
    if kind in ("burn_ranged", "remove_melee", "recall"):
        # Wildfire and Shield wall take an enemy's token; Rewind any token, yours or an enemy's (designed).
        if kind != "remove_melee":
            out += [
                (t[2], t[3])
                for t in s.ranged
                if t[2] in presence or t[3] in presence
                if kind == "recall" or t[0] != f
            ]
        if kind != "burn_ranged":
            out += [
                (m[2], m[3])
                for m in s.melee
                if m[2] in presence or m[3] in presence
                if kind == "recall" or m[0] != f
            ]
    elif kind == "freeze":
        seen = set()
        for r in presence:
            for n in C.adj[r]:
                a, b = min(r, n), max(r, n)
                if (a, b) not in seen and border_free(s, a, b):
                    seen.add((a, b))
                    out.append((a, b))
    elif kind in ("slay", "push"):
        for r in presence:
            g = s.occupant[r]
            if g in (NO, f):
                continue
            for cls in range(3):
                if s.units[r][cls]:
                    if kind == "slay":
                        out.append((r, cls))
                    else:
                        out += [(r, cls, d) for d in C.adj[r] if entry_error(s, g, d, 1) is None]
    elif kind == "raise":
        for r in presence:
            if controls(s, f, r) and entry_error(s, f, r, 1) is None:
                out += [(r, cls) for cls in range(3) if s.reserve[f][cls]]
    elif kind == "tide":
        # Aquus (designed, rules version 4): also washes an enemy's token away, as Wildfire or Shield wall
        # do, of either kind; the Alliance had no hold on tokens (docs/reliquium.md, "Legendary creatures").
        out += [
            (t[2], t[3])
            for t in (*s.ranged, *s.melee)
            if (t[2] in presence or t[3] in presence) and t[0] != f
        ]
        for src in presence:
            g = s.occupant[src]
            if g in hands:
                for dst in presence:
                    if dst != src and dst in C.adj_set[src] and entry_error(s, g, dst, 1) is None:
                        room = LIMIT - (sum(s.units[dst]) if s.occupant[dst] == g else 0)
                        out += [(src, dst, *u) for u in subsets(s.units[src], room)]
    elif kind == "gather":
        for dst in presence:
            for src in C.adj[dst]:
                g = s.occupant[src]
                if g in hands and entry_error(s, g, dst, 1) is None:
                    room = LIMIT - (sum(s.units[dst]) if s.occupant[dst] == g else 0)
                    out += [(src, dst, *u) for u in subsets(s.units[src], room)]
    elif kind == "defect":
        # Lignum (designed): one of yours takes the unit's place only where the march rules would let it
        # stand (the unit was alone, no enemy castle); else it joins your units in another region of presence.
        for r in presence:
            g = s.occupant[r]
            if g in (NO, f):
                continue
            here = sum(s.units[r]) == 1 and (s.castle[r] == NO or s.castle[r] not in s.factions)
            for cls in range(3):
                if s.units[r][cls] and s.reserve[f][cls]:
                    out += [(r, cls)] if here else []
                    out += [
                        (r, cls, d)
                        for d in presence
                        if s.occupant[d] == f and entry_error(s, f, d, 1) is None
                    ]
    elif kind == "build":
        out += [(r,) for r in presence if can_build(s, f, r)]
    elif kind == "call":
        for dst in presence:
            for src in range(len(C.names)):
                g = s.occupant[src]
                if src != dst and g in hands and entry_error(s, g, dst, 1) is None:
                    out += [(src, dst, cls) for cls in range(3) if s.units[src][cls]]
    return [Action("ability", t) for t in out] + [FORGO, CANCEL]


def apply_ability(s0: ReliquiumState, a: Action, checked: bool = False) -> ReliquiumState:
    """Complete the summoning: place the creature, use its ability (or forgo it), end the turn."""
    if not checked and a not in ability_actions(s0):
        name = C.creatures[s0.pending[1]].name
        raise IllegalAction(T("{creature} cannot do {action} here", creature=name, action=str(a)), R_ABILITY)
    s = s0.clone()
    if a.kind == "cancel":
        s.pending = ()
        return s
    _, c, j = s.pending
    f = s.turn
    if a.kind == "ability":
        owner = ability_owner(s, C.creatures[c].ability, a.args)  # type: ignore[arg-type]
        if owner not in (NO, f):  # Rulebook › Allies: "he must obtain the ally's consent"
            s.pending = (P_CONSENT, owner, CONSENT_ABILITY, c, j, *a.args)  # type: ignore[arg-type]
            return s
    complete_summon(s, f, c, j, a.args if a.kind == "ability" else None)  # type: ignore[arg-type]
    return s


def complete_summon(s: ReliquiumState, f: int, c: int, j: int, args: tuple[int, ...] | None) -> None:
    """Place creature ``c`` at junction ``j``, use its ability on ``args`` (``None``: forgo), end the turn."""
    s.pending = ()
    s.creatures = (*s.creatures, (c, j))
    s.used_junctions = s.used_junctions | {j}
    if args is not None:
        _use(s, f, C.creatures[c].ability, args)
    if s.phase == PEACE:
        end_turn(s, f)


def _use(s: ReliquiumState, f: int, kind: str, t: tuple[int, ...]) -> None:
    if kind in ("burn_ranged", "remove_melee", "recall") or (kind == "tide" and len(t) == 2):
        bid = C.border(t[0], t[1])
        for i, tok in enumerate(s.melee):
            if (tok[2], tok[3]) == (t[0], t[1]):
                s.melee = s.melee[:i] + s.melee[i + 1 :]
                if kind == "recall":  # Tempus: the token is back in its owner's supply
                    s.melee_used = tset(s.melee_used, tok[0], s.melee_used[tok[0]] & ~(1 << tok[1]))
                break
        else:
            for i, rt in enumerate(s.ranged):
                if (rt[2], rt[3]) == (t[0], t[1]):
                    s.ranged = s.ranged[:i] + s.ranged[i + 1 :]
                    if kind == "recall":
                        s.ranged_used = tset(s.ranged_used, rt[0], s.ranged_used[rt[0]] & ~(1 << rt[1]))
                    break
        s.blocked = s.blocked | {bid}  # "cannot be placed in place of one previously placed and removed"
    elif kind == "freeze":
        s.blocked = s.blocked | {C.border(t[0], t[1])}
    elif kind == "slay":
        g = s.occupant[t[0]]
        remove_units(s, t[0], _one(t[1]))
        to_reserve(s, g, _one(t[1]))
    elif kind == "push":
        g = s.occupant[t[0]]
        move_units(s, g, t[0], t[2], _one(t[1]))
    elif kind == "raise":
        s.reserve = tset(s.reserve, f, tuple(x - y for x, y in zip(s.reserve[f], _one(t[1]), strict=True)))
        add_units(s, t[0], f, _one(t[1]))
    elif kind in ("tide", "gather"):  # the units' owner: the summoner or (Allies) its ally
        move_units(s, s.occupant[t[0]], t[0], t[1], (t[2], t[3], t[4]))
    elif kind == "defect":
        r, cls = t[0], t[1]
        dst = t[2] if len(t) == 3 else r
        to_reserve(s, s.occupant[r], _one(cls))
        remove_units(s, r, _one(cls))
        s.reserve = tset(s.reserve, f, tuple(x - y for x, y in zip(s.reserve[f], _one(cls), strict=True)))
        add_units(s, dst, f, _one(cls))
    elif kind == "build":
        build_castle(s, f, t[0])
    elif kind == "call":
        move_units(s, s.occupant[t[0]], t[0], t[1], _one(t[2]))


def describe_ability(s: ReliquiumState, a: Action) -> str:
    """The ability's label in the rulebook's words."""
    _, c, _ = s.pending
    cr = C.creatures[c]
    t: Any = a.args
    kind = cr.ability

    def n(i: int) -> str:
        name: str = C.names[t[i]]  # a Text: never str() it, or it stops being translatable
        return name

    def u(i: int) -> str:
        return class_name(t[i])

    who = cr.name
    if kind == "freeze":
        return T("{c}: seal the border of the {a} and the {b}", c=who, a=n(0), b=n(1))
    if kind == "recall":
        return T("{c}: take back the token on the border of the {a} and the {b}", c=who, a=n(0), b=n(1))
    if kind in ("burn_ranged", "remove_melee") or (kind == "tide" and len(t) == 2):
        return T("{c}: remove the token on the border of the {a} and the {b}", c=who, a=n(0), b=n(1))
    if kind == "slay":
        return T("{c}: send a {unit} in the {a} back to its reserve", c=who, unit=u(1), a=n(0))
    if kind == "raise":
        return T("{c}: raise a {unit} from your reserve in the {a}", c=who, unit=u(1), a=n(0))
    if kind == "push":
        return T("{c}: push a {unit} from the {a} into the {b}", c=who, unit=u(1), a=n(0), b=n(2))
    if kind in ("tide", "gather"):
        return T(
            "{c}: move {units} from the {a} into the {b}", c=who, units=units_text(t[2:]), a=n(0), b=n(1)
        )
    if kind == "defect":
        if len(t) == 3:
            return T("{c}: a {unit} in the {a} joins you in the {b}", c=who, unit=u(1), a=n(0), b=n(2))
        return T("{c}: a {unit} in the {a} joins you there", c=who, unit=u(1), a=n(0))
    if kind == "build":
        return T("{c}: build a castle in the {a}", c=who, a=n(0))
    return T("{c}: call a {unit} from the {a} into the {b}", c=who, unit=u(2), a=n(0), b=n(1))
