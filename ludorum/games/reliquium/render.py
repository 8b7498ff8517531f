"""Labels and the terminal view, in the rulebook's words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ludorum.engine import Action
from ludorum.engine.i18n import N_, T, join

from .creatures import describe_ability
from .rules import C, castles_on_board, class_name, terrain_name, terrain_of, units_text
from .state import NO, OVER, P_ABILITY, PEACE

if TYPE_CHECKING:
    from .state import ReliquiumState

LETTERS = "WDM"
SHORT_NAMES = (N_("Legion"), N_("Alliance"), N_("Order"), N_("Brotherhood"))
"""The factions by their first word, in initiative order (the terminal's table is narrow)."""
CASTLE_KINDS = (N_("plain"), N_("mountain"), N_("forest"), N_("water"))
"""A castle's kind by its region's terrain (the terrain's name without its plural's s)."""
ANSWERS = {"accept": N_("Accept"), "decline": N_("Decline"), "consent": N_("Consent"), "refuse": N_("Refuse")}


def short(f: int) -> str:
    """A faction's short name for the terminal's table ("Legion")."""
    return T(SHORT_NAMES[f])


def _n(r: object) -> str:
    return C.names[r] if isinstance(r, int) and 0 <= r < len(C.names) else str(r)


def describe(s: ReliquiumState, a: Action) -> str:
    """A human label for ``a`` in state ``s``."""
    k, t = a.kind, a.args
    try:
        if k == "pass":
            return T("Pass")
        if k == "cancel":
            return T("Cancel")
        if k == "march":
            return T("March from the {a} into the {b}", a=_n(t[0]), b=_n(t[1]))
        if k == "units":
            return T("March with {units}", units=units_text(t))
        if k == "onward":
            return T("Single March: go on into the {a}", a=_n(t[0]))
        if k == "halt":
            return T("Single March: stop here")
        if k == "melee":
            return T("Melee combat: attack the {b} from the {a}", a=_n(t[0]), b=_n(t[1]))
        if k == "recruit":
            return T("Recruit a {unit} in the {a}", unit=class_name(t[1]), a=_n(t[0]))  # type: ignore[arg-type]
        if k == "ranged":
            return T("Ranged combat: support the {b} from the {a}", a=_n(t[0]), b=_n(t[1]))
        if k == "build":
            terrain = T(CASTLE_KINDS[terrain_of(s)[t[0]]])  # type: ignore[index]
            return T("Build a {terrain} castle in the {a}", terrain=terrain, a=_n(t[0]))
        if k == "summon":
            j = C.junctions[t[1]]  # type: ignore[index]
            where = join(T(", the "), (_n(r) for r in j))
            creature = C.creatures[t[0]].name  # type: ignore[index]
            return T("Summon {creature} where the {where} meet", creature=creature, where=where)
        if k == "ability" and s.pending and s.pending[0] == P_ABILITY:
            return describe_ability(s, a)
        if k == "forgo":
            return T("Do not use the special ability")
        if k == "support":
            return (
                T("Send {units} to the ranged combat token", units=units_text(t))
                if any(t)
                else T("Send nobody (remove the token)")
            )
        if k == "lose":
            return T("Lose {units}", units=units_text(t))
        if k == "flee":
            unit = class_name(t[1])  # type: ignore[arg-type]
            if len(t) > 2:
                return T(
                    "Flee with a {unit} into the {a} and support the {b}", unit=unit, a=_n(t[0]), b=_n(t[2])
                )
            return T("Flee with a {unit} into the {a}", unit=unit, a=_n(t[0]))
        if k == "advance":
            return (
                T("Victory march with {units}", units=units_text(t))
                if any(t)
                else T("Decline the victory march")
            )
        if k == "pact":
            return T("Propose a pact to the {faction}", faction=C.factions[t[0]].name)  # type: ignore[index]
        if k in ("accept", "decline", "consent", "refuse"):
            return T(ANSWERS[k])
    except (IndexError, TypeError, KeyError):
        pass
    return str(a)


def text(game: Any, s: ReliquiumState, seat: int | None) -> str:
    """The table as text."""
    # support and attack are the war phase's two stages (Rulebook › War phase): the table names the phase
    phase = {"peace": T("peace"), "support": T("war"), "attack": T("war"), "over": T("over")}[s.phase]
    lines = [
        str(
            T(
                "Reliquium — round {round}/{limit}, {phase} phase   (W warrior, D defender, M mage;"
                " track ■ castle token, □ free division)",
                round=s.round,
                limit=s.round_limit,
                phase=phase,
            )
        )
    ]
    letters = str(T("WDM"))
    for f in range(4):
        fac = C.factions[f]
        if f in s.factions:
            tr = s.track[f]
            track = "|".join("".join("■" if d < tr[g] else "□" for d in range(3)) for g in range(3))
            mark = s.marker[f]
            where = "-" if mark == NO else f"{terrain_name(mark // 3)}·{mark % 3 + 1}"
            reserve = "".join(letters[c] * n for c, n in enumerate(s.reserve[f])) or "-"
            row = T(
                "castles {castles}/9  track {track}  marker {where:11s} reserve {reserve}",
                castles=castles_on_board(s, f),
                track=track,
                where=where,
                reserve=reserve,
            )
            lines.append(f"  {fac.name:28s} {row}")
        else:
            neutral = T("neutral")
            lines.append(f"  {fac.name:28s} {neutral}")
    lines.append(str(T("Regions:")))
    for r, nm in enumerate(C.names):
        bits = []
        if s.castle[r] != NO:
            bits.append(str(T("castle of {faction}", faction=short(s.castle[r]))))
        if s.occupant[r] != NO:
            u = "".join(letters[c] * n for c, n in enumerate(s.units[r]))
            bits.append(f"{short(s.occupant[r])} {u}")
        if bits:
            lines.append(f"  {r:2d} {nm:22s} ({terrain_name(terrain_of(s)[r])}): " + ", ".join(bits))
    for m in s.melee:
        melee = T("melee")
        lines.append(f"  {melee} {'⚔' * m[1]} {short(m[0])}: {_n(m[2])} → {_n(m[3])}")
    for t in s.ranged:
        sent = units_text(t[4:]) if any(t[4:]) else T("not yet distributed")
        ranged = T("ranged")
        lines.append(f"  {ranged} {'➶' * t[1]} {short(t[0])}: {_n(t[2])} → {_n(t[3])} ({sent})")
    for c, j in s.creatures:
        where = ", ".join(str(_n(r)) for r in C.junctions[j])
        lines.append("  " + str(T("{creature} at {where}", creature=C.creatures[c].name, where=where)))
    if s.battle:
        att, _, src, dst = s.battle[1:5]
        line = T("battle: {faction} from {a} against {b}", faction=short(att), a=_n(src), b=_n(dst))
        lines.append(f"  {line}")
    if s.phase == OVER:
        lines.append(str(T("Game over: {reason}", reason=s.reason)))
    elif s.phase == PEACE and seat is not None:
        lines.append(str(T("To act: {faction}", faction=C.factions[game.decider(s)].name)))
    return "\n".join(lines)
