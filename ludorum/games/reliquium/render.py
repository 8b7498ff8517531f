"""Labels and the terminal view, in the rulebook's words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ludorum.engine import Action

from .content import CLASSES, TERRAINS
from .creatures import describe_ability
from .rules import C, castles_on_board, units_text
from .state import NO, OVER, P_ABILITY, PEACE

if TYPE_CHECKING:
    from .state import ReliquiumState

LETTERS = "WDM"


def _n(r: object) -> str:
    return C.names[r] if isinstance(r, int) and 0 <= r < len(C.names) else str(r)


def describe(s: ReliquiumState, a: Action) -> str:
    """A human label for ``a`` in state ``s``."""
    k, t = a.kind, a.args
    try:
        if k == "pass":
            return "Pass"
        if k == "cancel":
            return "Cancel"
        if k == "march":
            return f"March from the {_n(t[0])} into the {_n(t[1])}"
        if k == "units":
            return f"March with {units_text(t)}"
        if k == "onward":
            return f"Single March: go on into the {_n(t[0])}"
        if k == "halt":
            return "Single March: stop here"
        if k == "melee":
            return f"Melee combat: attack the {_n(t[1])} from the {_n(t[0])}"
        if k == "recruit":
            return f"Recruit a {CLASSES[t[1]]} in the {_n(t[0])}"  # type: ignore[index]
        if k == "ranged":
            return f"Ranged combat: support the {_n(t[1])} from the {_n(t[0])}"
        if k == "build":
            return f"Build a {TERRAINS[C.terrain[t[0]]][:-1]} castle in the {_n(t[0])}"  # type: ignore[index]
        if k == "summon":
            j = C.junctions[t[1]]  # type: ignore[index]
            return f"Summon {C.creatures[t[0]].name} where the {', the '.join(_n(r) for r in j)} meet"  # type: ignore[index]
        if k == "ability" and s.pending and s.pending[0] == P_ABILITY:
            return describe_ability(s, a)
        if k == "forgo":
            return "Do not use the special ability"
        if k == "support":
            return (
                f"Send {units_text(t)} to the ranged combat token"
                if any(t)
                else "Send nobody (remove the token)"
            )
        if k == "lose":
            return f"Lose {units_text(t)}"
        if k == "flee":
            also = f" and support the {_n(t[2])}" if len(t) > 2 else ""
            return f"Flee with a {CLASSES[t[1]]} into the {_n(t[0])}{also}"  # type: ignore[index]
        if k == "advance":
            return f"Victory march with {units_text(t)}" if any(t) else "Decline the victory march"
        if k == "pact":
            return f"Propose a pact to the {C.factions[t[0]].name}"  # type: ignore[index]
        if k in ("accept", "decline", "consent", "refuse"):
            return k.capitalize()
    except (IndexError, TypeError, KeyError):
        pass
    return str(a)


def text(game: Any, s: ReliquiumState, seat: int | None) -> str:
    """The table as text."""
    lines = [
        f"Reliquium — round {s.round}/{s.round_limit}, {s.phase} phase   (W warrior, D defender, M mage;"
        " track ■ castle token, □ free division)"
    ]
    for f in range(4):
        fac = C.factions[f]
        if f in s.factions:
            tr = s.track[f]
            track = "|".join("".join("■" if d < tr[g] else "□" for d in range(3)) for g in range(3))
            mark = s.marker[f]
            where = "-" if mark == NO else f"{TERRAINS[mark // 3]}·{mark % 3 + 1}"
            reserve = "".join(LETTERS[c] * n for c, n in enumerate(s.reserve[f])) or "-"
            lines.append(
                f"  {fac.name:28s} castles {castles_on_board(s, f)}/9  track {track}  "
                f"marker {where:11s} reserve {reserve}"
            )
        else:
            lines.append(f"  {fac.name:28s} neutral")
    lines.append("Regions:")
    for r, nm in enumerate(C.names):
        bits = []
        if s.castle[r] != NO:
            bits.append(f"castle of {C.factions[s.castle[r]].key}")
        if s.occupant[r] != NO:
            u = "".join(LETTERS[c] * n for c, n in enumerate(s.units[r]))
            bits.append(f"{C.factions[s.occupant[r]].key} {u}")
        if bits:
            lines.append(f"  {r:2d} {nm:22s} ({TERRAINS[C.terrain[r]]}): " + ", ".join(bits))
    for m in s.melee:
        lines.append(f"  melee {'⚔' * m[1]} {C.factions[m[0]].key}: {_n(m[2])} → {_n(m[3])}")
    for t in s.ranged:
        sent = units_text(t[4:]) if any(t[4:]) else "not yet distributed"
        lines.append(f"  ranged {'➶' * t[1]} {C.factions[t[0]].key}: {_n(t[2])} → {_n(t[3])} ({sent})")
    for c, j in s.creatures:
        lines.append(f"  {C.creatures[c].name} at {', '.join(_n(r) for r in C.junctions[j])}")
    if s.battle:
        att, _, src, dst = s.battle[1:5]
        lines.append(f"  battle: {C.factions[att].key} from {_n(src)} against {_n(dst)}")
    if s.phase == OVER:
        lines.append(f"Game over: {s.reason}")
    elif s.phase == PEACE and seat is not None:
        lines.append(f"To act: {C.factions[game.decider(s)].name}")
    return "\n".join(lines)
