"""The peace phase: the ownership track, the action marker and the six actions (Rulebook › Peace phase).

March, melee combat, recruiting, ranged combat, building a castle and summoning a creature; marches
and summons are compound decisions (a pending decision in the state, ``cancel`` until complete).
"""

from __future__ import annotations

from ludorum.engine import CANCEL, Action, IllegalAction
from ludorum.engine.i18n import T

from .content import CLASSES, TERRAINS
from .creatures import complete_summon
from .rules import (
    LIMIT,
    R_ALLIES,
    R_BUILD,
    R_MARCH,
    R_MELEE,
    R_PEACE,
    R_RANGED,
    R_RECRUIT,
    R_SUMMON,
    C,
    add_units,
    allied,
    border_free_error,
    border_refusal,
    border_words,
    build_castle,
    build_error,
    can_build,
    controls,
    entry_error,
    lowest,
    move_units,
    name,
    subsets,
    token_borders,
    tset,
)
from .state import (
    CONSENT_ABILITY,
    CONSENT_RANGED,
    CONSENT_SUMMON,
    NO,
    P_ABILITY,
    P_CONSENT,
    P_MARCH_ON,
    P_MARCH_UNITS,
    P_PACT,
    PEACE,
    ReliquiumState,
)
from .turns import end_turn

PASS = Action("pass")

# Prebuilt actions (they are immutable): enumerating the legal actions then allocates almost nothing.
_PAIRS = [(a, b) for a in range(len(C.names)) for b in C.adj[a]]
A_MARCH = {p: Action("march", p) for p in _PAIRS}
A_MELEE = {p: Action("melee", p) for p in _PAIRS}
A_RANGED = {p: Action("ranged", p) for p in _PAIRS}
A_RECRUIT = tuple(tuple(Action("recruit", (r, c)) for c in range(3)) for r in range(len(C.names)))
A_BUILD = tuple(Action("build", (r,)) for r in range(len(C.names)))
A_SUMMON = tuple(
    tuple(Action("summon", (c, j)) for j in range(len(C.junctions))) for c in range(len(C.creatures))
)
SEGMENT_ACTIONS = (("march", "melee"), ("recruit", "ranged"), ("build", "summon"))
"""Rulebook › Actions: what each segment of the ownership track offers."""
KINDS = frozenset({"pass", "pact", *(k for pair in SEGMENT_ACTIONS for k in pair)})


def segment(s: ReliquiumState, f: int) -> int:
    """The segment (0 plains, 1 mountains, 2 forests) under ``f``'s action marker."""
    return s.marker[f] // 3


def ally_of(s: ReliquiumState, f: int, r: int) -> int:
    """The ally of ``f`` controlling ``r``, or ``NO`` (Allies)."""
    for g in (s.castle[r], s.occupant[r]):
        if g != NO and g != f and allied(s, f, g):
            return g
    return NO


# -- checks --------------------------------------------------------------------------------------


def march_error(s: ReliquiumState, f: int, src: int, dst: int) -> str | None:
    """Why ``f`` may not march from ``src`` to ``dst`` at all (Rulebook › March), or ``None``."""
    if s.occupant[src] != f:
        return T("{region} holds none of your units", region=name(src))
    if dst not in C.adj_set[src]:
        return T(
            "units move only to a neighbouring region, and {a} does not border {b}", a=name(dst), b=name(src)
        )
    return entry_error(s, f, dst, 1)


def melee_error(s: ReliquiumState, f: int, src: int, dst: int) -> str | None:
    """Why ``f`` may not place a melee combat token from ``src`` to ``dst`` (Rulebook › Melee combat)."""
    if not lowest(s.melee_used[f]):
        return T("all three of your melee combat tokens are used this round")
    if dst not in C.adj_set[src]:
        return T("{a} does not border {b}", a=name(dst), b=name(src))
    if not controls(s, f, src):
        return T("the attacking region {region} holds neither a castle nor a unit of yours", region=name(src))
    if controls(s, f, dst):
        return T("you cannot attack your own region {region}", region=name(dst))
    if s.occupant[dst] == NO:
        if s.castle[dst] == NO:
            return T("{region} is unoccupied: it holds no units and no castle", region=name(dst))
        if s.castle[dst] not in s.factions:
            return T("{region} holds a neutral castle and no enemy units", region=name(dst))
    return border_free_error(s, src, dst)


def recruit_error(s: ReliquiumState, f: int, r: int, cls: int) -> str | None:
    """Why ``f`` may not recruit a unit of class ``cls`` in ``r`` (Rulebook › Recruiting units)."""
    if s.castle[r] != f:
        return T("{region} has no castle of yours", region=name(r))
    if s.reserve[f][cls] == 0:
        return T("your army reserve holds no {unit}", unit=T(CLASSES[cls]))
    if sum(s.units[r]) >= LIMIT:
        return T("{region} already holds three units, the unit limit", region=name(r))
    return None


def ranged_error(s: ReliquiumState, f: int, src: int, dst: int) -> tuple[str | None, int]:
    """Why ``f`` may not place a ranged token from ``src`` to ``dst``, and the ally whose consent it needs."""
    why, ally = _ranged_refusal(s, f, src, dst)
    if why == 0:
        return None, ally
    if why == 1:
        return T("all three of your ranged combat tokens are used this round"), NO
    if why == 2:
        return T("{a} does not border {b}", a=name(dst), b=name(src)), NO
    if why == 3:
        return T(
            "the supporting region {region} holds neither a castle nor a unit of yours", region=name(src)
        ), NO
    if why == 4:
        return T(
            "the supported region {region} holds neither a castle nor a unit of yours", region=name(dst)
        ), NO
    if why == 5:
        return T("your ally has already refused you once this turn"), NO
    if why == 6:
        return (
            T(
                "no melee combat token lies on a border of {region}: it neither attacks nor is attacked",
                region=name(dst),
            ),
            NO,
        )
    return border_words(why - 6, src, dst), ally


def _ranged_refusal(s: ReliquiumState, f: int, src: int, dst: int) -> tuple[int, int]:
    """0 if ``f`` may place a ranged token from ``src`` to ``dst``, else which of :func:`ranged_error`'s
    refusals holds (1–6, then 7–9 for the border's), and the ally whose consent it needs."""
    if not lowest(s.ranged_used[f]):
        return 1, NO
    if dst not in C.adj_set[src]:
        return 2, NO
    if not controls(s, f, src):
        return 3, NO
    ally = NO
    if not controls(s, f, dst):
        ally = ally_of(s, f, dst) if s.config.has("allies") else NO
        if ally == NO:
            return 4, NO
        if s.refused:
            return 5, NO
    if not any(t[2] == dst or t[3] == dst for t in s.melee):
        return 6, NO
    border = border_refusal(s, src, dst)
    return (border + 6 if border else 0), ally


def summon_error(s: ReliquiumState, f: int, c: int, j: int) -> tuple[str | None, int]:
    """Why ``f`` may not summon creature ``c`` at junction ``j`` (Rulebook › Summoning) and the ally asked."""
    if not 0 <= c < len(C.creatures) or C.creatures[c].faction != f:
        return T("that creature is not in your part of the Bestiary"), NO
    if not 0 <= j < len(C.junctions):
        return T("creatures are summoned at a junction of three regions, away from the board edge"), NO
    if any(cc == c for cc, _ in s.creatures):
        return T("{creature} is already on the board", creature=C.creatures[c].name), NO
    if j in s.used_junctions:
        return T("a creature token lies or lay at this junction this round"), NO
    presence = C.junctions[j]
    if any(controls(s, f, r) for r in presence):
        return None, NO
    if s.config.has("allies") and not s.refused:
        for r in presence:
            g = ally_of(s, f, r)
            if g != NO:
                return None, g
    return T("none of the three regions of its presence is controlled by you"), NO


# -- enumeration -----------------------------------------------------------------------------------


def turn_actions(s: ReliquiumState, f: int) -> list[Action]:
    """What ``f`` may do on its turn of the peace phase (no decision pending).

    The checks are those of the ``*_error`` functions, written inline for speed (search loops call this).
    """
    out = [PASS]
    seg = s.marker[f] // 3
    occ, cas, units = s.occupant, s.castle, s.units
    mine = [r for r in range(len(occ)) if occ[r] == f or cas[r] == f]
    players = s.factions
    if seg == 0:
        for src in mine:
            if occ[src] == f:
                for dst in C.adj[src]:
                    o, c = occ[dst], cas[dst]
                    free = o == NO or (o == f and sum(units[dst]) < LIMIT)
                    if free and (c in (NO, f) or c not in players):
                        out.append(A_MARCH[(src, dst)])
        if lowest(s.melee_used[f]):
            taken = token_borders(s) | s.blocked
            for src in mine:
                for dst in C.adj[src]:
                    o, c = occ[dst], cas[dst]
                    if o == f or c == f or (o == NO and (c == NO or c not in players)):
                        continue
                    if C.border_id[(src, dst) if src < dst else (dst, src)] not in taken:
                        out.append(A_MELEE[(src, dst)])
    elif seg == 1:
        res = s.reserve[f]
        for r in mine:
            if cas[r] == f and sum(units[r]) < LIMIT:
                out += [A_RECRUIT[r][c] for c in range(3) if res[c]]
        if lowest(s.ranged_used[f]) and s.melee:
            fronts = {t[2] for t in s.melee} | {t[3] for t in s.melee}
            for src in mine:
                out += [
                    A_RANGED[(src, dst)]
                    for dst in C.adj[src]
                    if dst in fronts and _ranged_refusal(s, f, src, dst)[0] == 0
                ]
    else:
        out += [A_BUILD[r] for r in mine if can_build(s, f, r)]
        out += summon_actions(s, f, mine)
    if s.config.has("allies") and f not in s.proposed:
        out += [Action("pact", (g,)) for g in s.factions if g != f and not allied(s, f, g)]
    return out


def summon_actions(s: ReliquiumState, f: int, mine: list[int]) -> list[Action]:
    """Summons open to ``f``: junctions by its regions (or, with consent, an ally's), not used this round."""
    on_board = {c for c, _ in s.creatures}
    free = [c for c in C.faction_creatures[f] if c not in on_board]
    if not free:
        return []
    regions = list(mine)
    if s.config.has("allies") and s.pacts and not s.refused:
        regions += [r for r in range(len(C.names)) if ally_of(s, f, r) != NO]
    spots: set[int] = set()
    for r in regions:
        spots.update(C.region_junctions[r])
    spots -= s.used_junctions
    return [A_SUMMON[c][j] for c in free for j in sorted(spots)]


def pending_actions(s: ReliquiumState) -> list[Action]:
    """The choices of a pending march, consent or pact (abilities are in :mod:`.creatures`)."""
    p = s.pending
    if p[0] == P_MARCH_UNITS:
        src, dst = p[1], p[2]
        room = LIMIT - (sum(s.units[dst]) if s.occupant[dst] == s.turn else 0)
        return [Action("units", u) for u in subsets(s.units[src], room)] + [CANCEL]
    if p[0] == P_MARCH_ON:
        return [Action("onward", (r,)) for r in onward(s)] + [Action("halt"), CANCEL]
    if p[0] == P_CONSENT:
        return [Action("consent"), Action("refuse")]
    return [Action("accept"), Action("decline")]


def onward(s: ReliquiumState) -> list[int]:
    """Single March: regions the lone unit may go on to from the region it reached."""
    _, src, dst, cls = s.pending
    f = s.turn
    t = s.clone()
    u = tuple(int(i == cls) for i in range(3))
    move_units(t, f, src, dst, u)  # type: ignore[arg-type]
    return [r for r in C.adj[dst] if entry_error(t, f, r, 1) is None]


# -- effects ------------------------------------------------------------------------------------------


def refuse(message: str, rule: str) -> IllegalAction:
    """An :class:`IllegalAction` for a peace-phase refusal."""
    return IllegalAction(message, rule)


def apply_turn(s0: ReliquiumState, f: int, a: Action) -> ReliquiumState:
    """Validate and perform one top-level peace-phase action of ``f``."""
    kind, args = a.kind, a.args
    seg = segment(s0, f)
    if kind not in KINDS:
        raise refuse(T("there is no action {kind} on a turn of the peace phase", kind=repr(kind)), R_PEACE)
    if kind not in ("pass", "pact") and kind not in SEGMENT_ACTIONS[seg]:
        raise refuse(
            T(
                "{kind} is not offered by the {terrain} segment where your action marker stands",
                kind=kind,
                terrain=T(TERRAINS[seg]),
            ),
            R_PEACE,
        )
    ints = _ints(args)
    if kind == "pass":
        if args:
            raise refuse(T("pass takes no arguments"), R_PEACE)
        s = s0.clone()
        end_turn(s, f)
        return s
    if kind == "pact":
        return _propose_pact(s0, f, ints)
    if len(ints) != 2 and kind != "build":
        raise refuse(T("{kind} needs two numbers", kind=kind), R_PEACE)
    if kind == "build":
        return _build(s0, f, ints)
    x, y = ints
    if kind == "summon":
        return _summon(s0, f, x, y)
    if kind == "recruit":
        return _recruit(s0, f, x, y)
    if not _region(x) or not _region(y):
        raise refuse(T("{kind} names two regions of Sigillum", kind=kind), R_PEACE)
    if kind == "march":
        return _march(s0, f, x, y)
    if kind == "melee":
        return _melee(s0, f, x, y)
    if kind == "ranged":
        return _ranged(s0, f, x, y)
    raise refuse(T("there is no action {kind} in the peace phase", kind=repr(kind)), R_PEACE)


def _propose_pact(s0: ReliquiumState, f: int, ints: tuple[int, ...]) -> ReliquiumState:
    """``f`` proposes a pact to the one player ``ints`` names (Allies rule): that player answers next."""
    if not s0.config.has("allies") or len(ints) != 1:
        raise refuse(T("pacts are made only with the Allies rule, with one other player"), R_ALLIES)
    g = ints[0]
    if g not in s0.factions or g == f or allied(s0, f, g) or f in s0.proposed:
        raise refuse(T("you may propose one pact a round, to a player you are not allied with"), R_ALLIES)
    s = s0.clone()
    s.proposed = s.proposed | {f}
    s.pending = (P_PACT, f, g)
    return s


def _build(s0: ReliquiumState, f: int, ints: tuple[int, ...]) -> ReliquiumState:
    """``f`` builds a castle in the one region ``ints`` names."""
    if len(ints) != 1 or not _region(ints[0]):
        raise refuse(T("build names one region"), R_BUILD)
    err = build_error(s0, f, ints[0])
    if err:
        raise refuse(T("Build castle: {why}", why=err), R_BUILD)
    s = s0.clone()
    build_castle(s, f, ints[0])
    if s.phase == PEACE:
        end_turn(s, f)
    return s


def _summon(s0: ReliquiumState, f: int, c: int, j: int) -> ReliquiumState:
    """``f`` starts summoning creature ``c`` at junction ``j``: an ally consents first, if one must."""
    err, ally = summon_error(s0, f, c, j)
    if err:
        raise refuse(T("Summon: {why}", why=err), R_SUMMON)
    s = s0.clone()
    s.pending = (P_CONSENT, ally, CONSENT_SUMMON, c, j) if ally != NO else (P_ABILITY, c, j)
    return s


def _recruit(s0: ReliquiumState, f: int, r: int, cls: int) -> ReliquiumState:
    """``f`` recruits a unit of class ``cls`` from its reserve into region ``r``."""
    if not _region(r) or not 0 <= cls < 3:
        raise refuse(T("recruit names a region and a unit class"), R_RECRUIT)
    err = recruit_error(s0, f, r, cls)
    if err:
        raise refuse(T("Recruit: {why}", why=err), R_RECRUIT)
    s = s0.clone()
    u = (int(cls == 0), int(cls == 1), int(cls == 2))
    s.reserve = tset(s.reserve, f, tuple(a - b for a, b in zip(s.reserve[f], u, strict=True)))
    add_units(s, r, f, u)
    end_turn(s, f)
    return s


def _march(s0: ReliquiumState, f: int, src: int, dst: int) -> ReliquiumState:
    """``f`` starts a march from ``src`` to ``dst``: which units go is its next decision."""
    err = march_error(s0, f, src, dst)
    if err:
        raise refuse(T("March: {why}", why=err), R_MARCH)
    s = s0.clone()
    s.pending = (P_MARCH_UNITS, src, dst)
    return s


def _melee(s0: ReliquiumState, f: int, src: int, dst: int) -> ReliquiumState:
    """``f`` places its lowest melee combat token from ``src`` towards ``dst``."""
    err = melee_error(s0, f, src, dst)
    if err:
        raise refuse(T("Melee combat: {why}", why=err), R_MELEE)
    s = s0.clone()
    v = lowest(s.melee_used[f])  # "a higher token may not be placed if a lower one is available"
    s.melee = (*s.melee, (f, v, src, dst))
    s.melee_used = tset(s.melee_used, f, s.melee_used[f] | 1 << v)
    end_turn(s, f)
    return s


def _ranged(s0: ReliquiumState, f: int, src: int, dst: int) -> ReliquiumState:
    """``f`` places its lowest ranged combat token from ``src`` towards ``dst``; supporting an ally's
    region (Allies) waits for that ally's consent."""
    err, ally = ranged_error(s0, f, src, dst)
    if err:
        raise refuse(T("Ranged combat: {why}", why=err), R_RANGED)
    s = s0.clone()
    if ally != NO:
        s.pending = (P_CONSENT, ally, CONSENT_RANGED, src, dst)
    else:
        place_ranged(s, f, src, dst)
        end_turn(s, f)
    return s


def place_ranged(s: ReliquiumState, f: int, src: int, dst: int) -> None:
    """Place ``f``'s lowest ranged combat token from ``src`` towards ``dst``."""
    v = lowest(s.ranged_used[f])
    s.ranged = (*s.ranged, (f, v, src, dst, 0, 0, 0, 0))
    s.ranged_used = tset(s.ranged_used, f, s.ranged_used[f] | 1 << v)


def apply_pending(s0: ReliquiumState, a: Action, checked: bool = False) -> ReliquiumState:
    """Validate and perform a step of a pending march, consent or pact."""
    if not checked and a not in pending_actions(s0):
        raise refuse(
            T("{action} is not one of the choices now", action=str(a)),
            R_MARCH if s0.pending[0] < 3 else R_ALLIES,
        )
    s = s0.clone()
    p, f = s.pending, s.turn
    if a.kind == "cancel":
        s.pending = ()
    elif a.kind == "units":
        u = _ints(a.args)
        if s.config.has("single-march") and sum(u) == 1:  # Rulebook › Additional rules › Single March
            s.pending = (P_MARCH_ON, p[1], p[2], u.index(1))
        else:
            move_units(s, f, p[1], p[2], u)  # type: ignore[arg-type]
            s.pending = ()
            end_turn(s, f)
    elif a.kind in ("onward", "halt"):
        u = tuple(int(i == p[3]) for i in range(3))
        move_units(s, f, p[1], p[2], u)  # type: ignore[arg-type]
        if a.kind == "onward":
            move_units(s, f, p[2], _ints(a.args)[0], u)  # type: ignore[arg-type]
        s.pending = ()
        end_turn(s, f)
    elif a.kind in ("consent", "refuse"):
        what, x, y = p[2:5]
        s.pending = ()
        if a.kind == "refuse":
            s.refused = True
            if what == CONSENT_ABILITY:  # the summoning goes on, without the ally's units
                s.pending = (P_ABILITY, x, y)
        elif what == CONSENT_RANGED:
            place_ranged(s, f, x, y)
            end_turn(s, f)
        elif what == CONSENT_SUMMON:
            s.pending = (P_ABILITY, x, y)
        else:
            complete_summon(s, f, x, y, p[5:])
    else:  # accept / decline a pact
        if a.kind == "accept":
            s.pacts = (*s.pacts, (p[1], p[2]))
        s.pending = ()
    return s


def _region(r: object) -> bool:
    return isinstance(r, int) and 0 <= r < len(C.names)


def _ints(args: tuple[object, ...]) -> tuple[int, ...]:
    if not all(type(x) is int for x in args):
        raise refuse(T("the action's arguments must be whole numbers"), R_PEACE)
    return args  # type: ignore[return-value]
