"""The war phase: the support stage, the attack stage and battles (Rulebook › War phase; Battle).

Battles run by themselves; the players decide only what the rulebook leaves to them: which units
support, which units are lost, where fleeing units go and whether to make the victory march.
"""

from __future__ import annotations

from itertools import product

from ludorum.engine import Action, IllegalAction
from ludorum.engine.i18n import T

from .rules import (
    LIMIT,
    R_BATTLE,
    R_SUPPORT,
    C,
    allied,
    aura,
    castles_on_board,
    destroy_castle,
    entry_error,
    first_free,
    move_units,
    remove_units,
    subsets,
    to_reserve,
    tset,
)
from .state import (
    ATT_WINS,
    ATTACK,
    B_ADVANCE,
    B_FLEE,
    B_LOSS_ATT,
    B_LOSS_DEF,
    DEF_WINS,
    DRAW,
    NO,
    OVER,
    PEACE,
    SUPPORT,
    UNOPPOSED,
    ReliquiumState,
)

ATTACK_BASE = (2, 1, 1)  # Rulebook › Battle › the table: attack role
DEFENCE_BASE = (1, 2, 1)  # defence role
SUPPORT_BASE = (1, 1, 2)  # support role


# -- the support stage -----------------------------------------------------------------------------


def start_war(s: ReliquiumState) -> None:
    """All markers are back at the start: militia is decided and the support stage begins."""
    s.phase = SUPPORT
    if s.config.has("militia"):  # Rulebook › Additional rules › Militia
        # "If ... the borders of a player's regions carry melee combat tokens of two other players": only a
        # player's castles become militia ("Neutral factions take no part in the game").
        s.militia = tuple(
            f in s.factions
            and len({t[0] for t in s.melee if t[0] != f and (s.occupant[t[3]] == f or s.castle[t[3]] == f)})
            >= 2
            for f in range(4)
        )
    order = sorted(range(len(s.ranged)), key=lambda i: s.ranged[i][0])
    s.queue = tuple(order)
    advance_support(s)


def _available(s: ReliquiumState, i: int) -> tuple[tuple[int, int, int], bool]:
    """Units (and militia) in token ``i``'s supporting region not yet sent along another direction."""
    t = s.ranged[i]
    f, src = t[0], t[2]
    have = [0, 0, 0] if s.occupant[src] != f else list(s.units[src])
    militia = s.militia[f] and s.castle[src] == f
    for k, o in enumerate(s.ranged):
        if k != i and o[0] == f and o[2] == src:
            for c in range(3):
                have[c] -= o[4 + c]
            militia = militia and not o[7]
    return (have[0], have[1], have[2]), militia


def support_actions(s: ReliquiumState) -> list[Action]:
    """How the owner of the next ranged token may send units up to it ((0,0,0,0): nobody, token removed)."""
    i = s.queue[0]
    have, militia = _available(s, i)
    arrows = s.ranged[i][1]
    out = [Action("support", (0, 0, 0, 0))]
    for mil in (0, 1) if militia else (0,):
        out += [Action("support", (*u, mil)) for u in subsets(have, arrows - mil)]
    if militia:
        out.append(Action("support", (0, 0, 0, 1)))
    return out


def apply_support(s0: ReliquiumState, a: Action, checked: bool = False) -> ReliquiumState:
    """Send units to the head token of the queue (or remove it when nobody goes)."""
    if not checked and a not in support_actions(s0):
        raise IllegalAction(
            T(
                "{action} is not a possible distribution: at most as many units as arrows, "
                "each unit supporting only one region, none leaving its region",
                action=str(a),
            ),
            R_SUPPORT,
        )
    s = s0.clone()
    i = s.queue[0]
    s.queue = s.queue[1:]
    if a.args == (0, 0, 0, 0):
        _remove_ranged(s, i)  # "Remove from the board the unused ranged combat tokens"
    else:
        t = s.ranged[i]
        s.ranged = (*s.ranged[:i], (*t[:4], *a.args), *s.ranged[i + 1 :])  # type: ignore[arg-type]
    advance_support(s)
    return s


def _remove_ranged(s: ReliquiumState, i: int) -> None:
    s.ranged = s.ranged[:i] + s.ranged[i + 1 :]
    s.queue = tuple(k - (k > i) for k in s.queue)


def advance_support(s: ReliquiumState) -> None:
    """Skip tokens nobody can go to; start the attack stage when every token is distributed."""
    while s.queue:
        i = s.queue[0]
        have, militia = _available(s, i)
        if sum(have) or militia:
            s.turn = s.ranged[i][0]
            return
        s.queue = s.queue[1:]
        _remove_ranged(s, i)
    s.phase = ATTACK
    next_battle(s)


# -- the attack stage ----------------------------------------------------------------------------------


def army(s: ReliquiumState, f: int, region: int, base: tuple[int, int, int]) -> int:
    """Strength of ``f``'s units in ``region`` in a role, with auras, plus the support directed there."""
    total = 0
    if s.occupant[region] == f:
        bonus = aura(s, f, region)
        total += sum((base[c] + bonus[c]) * s.units[region][c] for c in range(3))
    if s.militia[f] and s.castle[region] == f:
        total += 1  # militia: constant strength one, no aura
    for t in s.ranged:
        if t[3] == region and (t[0] == f or allied(s, t[0], f)):
            bonus = aura(s, t[0], t[2])
            total += sum((SUPPORT_BASE[c] + bonus[c]) * t[4 + c] for c in range(3)) + t[7]
    return total


def strengths(s: ReliquiumState) -> tuple[int, int]:
    """Attack and defence strength of the battle in progress (Rulebook › Determining army strength)."""
    _, att, dfn, src, dst, _, swords = s.battle[:7]
    return army(s, att, src, ATTACK_BASE) + swords, army(s, dfn, dst, DEFENCE_BASE)


def _present(s: ReliquiumState, f: int, r: int) -> bool:
    return (s.occupant[r] == f) or (s.militia[f] and s.castle[r] == f)


def next_battle(s: ReliquiumState) -> None:
    """Fight battles by token strength 3, 2, 1 and initiative, until one needs a decision."""
    while not s.battle:
        if s.phase == OVER:
            return
        if not s.melee:
            end_war(s)
            return
        i = min(range(len(s.melee)), key=lambda k: (-s.melee[k][1], s.melee[k][0]))
        att, swords, src, dst = s.melee[i]
        s.melee = s.melee[:i] + s.melee[i + 1 :]  # the token that initiated the battle leaves the board
        if not _present(s, att, src):
            continue  # "If there are no units in the attacking region, simply remove the token"
        if s.occupant[dst] == att or s.castle[dst] == att:
            # The region is the attacker's own by now (an earlier battle or a march took it): no enemy
            # units are in it, so "the battle does not begin, and the attacking faction may immediately
            # carry out the victory march" — reinforcing it up to the unit limit (Rulebook › Attack stage).
            s.battle = (B_ADVANCE, att, NO, src, dst, UNOPPOSED, swords, 0, 0, 0, 0)
            _continue(s)
            return
        dfn = s.occupant[dst]
        if dfn == NO and s.castle[dst] in s.factions:
            dfn = s.castle[dst]
        if dfn == NO or not _present(s, dfn, dst):
            # "the battle does not begin, and the attacking faction may immediately ... victory march"
            s.battle = (B_ADVANCE, att, dfn, src, dst, UNOPPOSED, swords, 0, 0, 0, 0)
        else:
            s.battle = (B_LOSS_ATT, att, dfn, src, dst, 0, swords, 0, 0, 0, 0)
            a, d = strengths(s)
            outcome = ATT_WINS if a > d else DEF_WINS if d > a else DRAW
            # Rulebook › Losses: one per 10 strength of the opposing side, one more for the loser.
            att_loss = d // 10 + (outcome == DEF_WINS)
            def_loss = a // 10 + (outcome == ATT_WINS)
            s.battle = (B_LOSS_ATT, att, dfn, src, dst, outcome, swords, att_loss, def_loss, a, d)
        # _continue goes on to the next battle itself (and ends the war when none is left): looping here
        # as well would end the war phase a second time, skipping a round.
        _continue(s)
        return


def _losses_needed(s: ReliquiumState, f: int, r: int, n: int) -> int:
    return min(n, sum(s.units[r])) if s.occupant[r] == f else 0


def loss_options(s: ReliquiumState, f: int, r: int, n: int) -> list[tuple[int, int, int]]:
    """The distinct ways of losing ``n`` units from region ``r``."""
    have = s.units[r]
    return [u for u in product(*(range(h + 1) for h in have)) if sum(u) == n]  # type: ignore[misc]


def _continue(s: ReliquiumState) -> None:
    """Run the battle's automatic steps until a player must decide, then stop."""
    while s.battle:
        stage, att, dfn, src, dst, outcome = s.battle[:6]
        if stage == B_LOSS_ATT:
            n = _losses_needed(s, att, src, s.battle[7]) if outcome != UNOPPOSED else 0
            if n and len(loss_options(s, att, src, n)) > 1:
                return
            if n:
                _lose(s, att, src, loss_options(s, att, src, n)[0])
            s.battle = (B_LOSS_DEF, *s.battle[1:])
        elif stage == B_LOSS_DEF:
            n = _losses_needed(s, dfn, dst, s.battle[8])
            if n and len(loss_options(s, dfn, dst, n)) > 1:
                return
            if n:
                _lose(s, dfn, dst, loss_options(s, dfn, dst, n)[0])
            s.battle = (B_FLEE, *s.battle[1:])
        elif stage == B_FLEE:
            if outcome == ATT_WINS and s.occupant[dst] == dfn:
                opts = flee_options(s)
                if len(opts) > 1:
                    return
                if opts:
                    _flee(s, *opts[0])
                    continue
                # "If such a movement is partly or fully impossible, the units ... are destroyed"
                u = s.units[dst]
                remove_units(s, dst, u)
                to_reserve(s, dfn, u)
            s.battle = (B_ADVANCE, *s.battle[1:])
        else:
            if (
                outcome in (ATT_WINS, UNOPPOSED)
                and s.occupant[src] == att
                and not advance_blocked(s)
                and len(advance_options(s)) > 1  # a region already full of the attacker's units: no choice
            ):
                return
            s.battle = ()
    next_battle(s)


def _lose(s: ReliquiumState, f: int, r: int, u: tuple[int, int, int]) -> None:
    remove_units(s, r, u)
    to_reserve(s, f, u)


def flee_options(s: ReliquiumState) -> list[tuple[int, ...]]:
    """Rulebook › Movements: where each fleeing unit may go (march rules; they may split up).

    ``(region, class)`` flees; ``(region, class, supported)`` also moves the unit up to the defender's
    ranged combat token from that region ("if they can be moved up to a ranged combat token immediately
    after fleeing").
    """
    dfn, dst = s.battle[2], s.battle[4]
    out: list[tuple[int, ...]] = []
    for r in C.adj[dst]:
        if entry_error(s, dfn, r, 1) is not None:
            continue
        rooms = [t[3] for t in s.ranged if t[0] == dfn and t[2] == r and sum(t[4:]) < t[1]]
        for c in range(3):
            if s.units[dst][c]:
                out.append((r, c))
                out += [(r, c, sup) for sup in rooms]
    return out


def _flee(s: ReliquiumState, r: int, c: int, *support: int) -> None:
    dfn, dst = s.battle[2], s.battle[4]
    u = (int(c == 0), int(c == 1), int(c == 2))
    move_units(s, dfn, dst, r, u)
    if support:
        for i, t in enumerate(s.ranged):
            if t[0] == dfn and t[2] == r and t[3] == support[0]:
                s.ranged = (*s.ranged[:i], tset(t, 4 + c, t[4 + c] + 1), *s.ranged[i + 1 :])
                break


def advance_blocked(s: ReliquiumState) -> bool:
    """The victory march is impossible (units of another faction still in the defending region)."""
    att, dst = s.battle[1], s.battle[4]
    return s.occupant[dst] not in (NO, att)


def advance_options(s: ReliquiumState) -> list[tuple[int, int, int]]:
    """Victory march choices: any units of the attacking region (none: decline)."""
    att, src, dst = s.battle[1], s.battle[3], s.battle[4]
    room = LIMIT - (sum(s.units[dst]) if s.occupant[dst] == att else 0)
    return [(0, 0, 0), *subsets(s.units[src], room)]


def battle_actions(s: ReliquiumState) -> list[Action]:
    """The decision the battle in progress waits for."""
    stage, att, dfn, src, dst = s.battle[:5]
    if stage == B_LOSS_ATT:
        return [
            Action("lose", u) for u in loss_options(s, att, src, _losses_needed(s, att, src, s.battle[7]))
        ]
    if stage == B_LOSS_DEF:
        return [
            Action("lose", u) for u in loss_options(s, dfn, dst, _losses_needed(s, dfn, dst, s.battle[8]))
        ]
    if stage == B_FLEE:
        return [Action("flee", o) for o in flee_options(s)]
    return [Action("advance", u) for u in advance_options(s)]


def battle_decider(s: ReliquiumState) -> int:
    """The faction deciding the battle step in progress."""
    return s.battle[2] if s.battle[0] in (B_LOSS_DEF, B_FLEE) else s.battle[1]


def apply_battle(s0: ReliquiumState, a: Action, checked: bool = False) -> ReliquiumState:
    """Perform a battle decision (losses, flight, victory march) and go on with the war."""
    if not checked and a not in battle_actions(s0):
        raise IllegalAction(T("{action} is not a possible choice in this battle", action=str(a)), R_BATTLE)
    s = s0.clone()
    stage, att, dfn, src, dst = s.battle[:5]
    if stage == B_LOSS_ATT:
        _lose(s, att, src, a.args)  # type: ignore[arg-type]
        s.battle = (B_LOSS_DEF, *s.battle[1:])
    elif stage == B_LOSS_DEF:
        _lose(s, dfn, dst, a.args)  # type: ignore[arg-type]
        s.battle = (B_FLEE, *s.battle[1:])
    elif stage == B_FLEE:
        _flee(s, *a.args)  # type: ignore[arg-type]
    else:
        u: tuple[int, int, int] = a.args  # type: ignore[assignment]
        if sum(u):
            if s.castle[dst] != NO and s.castle[dst] != att and s.castle[dst] in s.factions:
                destroy_castle(s, dst)  # Rulebook › Movements: the victory march destroys the castle
            move_units(s, att, src, dst, u)
        s.battle = ()
    _continue(s)
    return s


def end_war(s: ReliquiumState) -> None:
    """No melee token remains: ranged tokens and creatures leave the board and a new round begins."""
    s.ranged = ()
    s.creatures = ()
    s.used_junctions = frozenset()
    s.blocked = frozenset()
    s.melee_used = (0, 0, 0, 0)
    s.ranged_used = (0, 0, 0, 0)
    s.militia = (False,) * 4
    s.pacts = ()
    s.proposed = frozenset()
    s.round += 1
    if s.round > s.round_limit:
        s.phase = OVER
        best = max(castles_on_board(s, f) for f in s.factions)
        s.reason = T(
            "round limit {limit} reached: most castles on the board ({best}) wins",
            limit=s.round_limit,
            best=best,
        )
        return
    start_peace(s)


def start_peace(s: ReliquiumState) -> None:
    """A new peace phase: every player with a free division takes part, in initiative order."""
    s.phase = PEACE
    s.done = tuple(f not in s.factions or first_free(s.track[f]) == NO for f in range(4))
    s.marker = tuple(m if m != NO else first_free(s.track[f]) for f, m in enumerate(s.marker))
    for f in s.factions:
        if not s.done[f]:
            s.turn = f
            return
    end_war(s)  # nobody can act: straight to the (empty) war phase
