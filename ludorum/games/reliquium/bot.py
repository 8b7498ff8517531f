"""The heuristic bot: it settles empty lands and builds, recruits where castles are threatened, attacks
weak neighbours, supports its battles and summons creatures where their aura or ability counts.

It sees only its seat's view (JSON) and the legal actions, plus the static map of Sigillum.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ludorum.engine import CANCEL, Action
from ludorum.engine.bots import ViewBot

from .content import WATER, content
from .war import ATTACK_BASE, DEFENCE_BASE

C = content()


class HeuristicBot(ViewBot):
    """Scores every legal action with simple rules of thumb and plays the best (ties broken at random)."""

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], seat: int, rng: random.Random
    ) -> Action:
        """The best-scoring legal action."""
        me = view["factions"][seat]
        builds = frozenset(int(a.args[0]) for a in legal if a.kind == "build")  # type: ignore[arg-type]
        best, best_score = legal[0], float("-inf")
        for a in legal:
            score = self.score(view, me, a, builds) + rng.random() * 0.5
            if score > best_score:
                best, best_score = a, score
        return best

    # -- evaluation helpers ----------------------------------------------------------------------------

    @staticmethod
    def _enemy_pressure(view: Mapping[str, Any], me: int, r: int) -> int:
        """Attack strength enemies could bring against region ``r`` from its neighbours."""
        occ, units = view["occupant"], view["units"]
        return sum(
            sum(b * n for b, n in zip(ATTACK_BASE, units[n], strict=True))
            for n in C.adj[r]
            if occ[n] not in (-1, me)
        )

    @staticmethod
    def _defence(view: Mapping[str, Any], r: int) -> int:
        u = view["units"][r]
        return sum(b * n for b, n in zip(DEFENCE_BASE, u, strict=True))

    @staticmethod
    def _settle_value(view: Mapping[str, Any], me: int, r: int) -> int:
        """How good land ``r`` is to build on next: empty, castle-less, a token left for its terrain."""
        terrain = C.terrains(view["config"]["players"])[r]
        if terrain == WATER or view["castle"][r] != -1:
            return 0
        if view["track"][me][terrain] == 0:
            return 0
        return 3

    def _ability(self, view: Mapping[str, Any], me: int, t: Any) -> float:
        """Worth of a creature's ability target (forgoing it is worth 10)."""
        kind = C.creatures[view["pending"][1]].ability
        castle = view["castle"]
        if kind == "build":
            return 100.0
        taken = kind in ("slay", "push", "remove_melee", "burn_ranged", "defect")
        if taken or (kind == "tide" and len(t) == 2):  # Tide's two-number target: a token washed away
            return 50.0
        if kind == "raise":
            return 45.0
        if kind in ("tide", "gather", "call"):
            dst = t[1]
            return 12.0 + 10 * self._settle_value(view, me, dst) if castle[t[0]] != me else 5.0
        if kind == "freeze":
            a, b = t
            return 30.0 if self._enemy_pressure(view, me, a) or self._enemy_pressure(view, me, b) else 5.0
        if kind == "recall":
            # an enemy's token taken back spoils its attack or support; one's own rarely pays
            owners = [m[0] for m in (*view["melee"], *view["ranged"]) if (m[2], m[3]) == (t[0], t[1])]
            return 50.0 if owners and owners[0] != me else 5.0
        return 5.0

    def score(
        self, view: Mapping[str, Any], me: int, a: Action, builds: frozenset[int] = frozenset()
    ) -> float:
        """A rough value of action ``a`` for faction ``me`` (``builds``: the regions it may build in now)."""
        k = a.kind
        t: Any = a.args
        occ, castle, units = view["occupant"], view["castle"], view["units"]
        if k == "build":
            return 100.0
        if k == "recruit":
            r, cls = t
            threat = self._enemy_pressure(view, me, r)
            want = 1 if threat else 0  # defenders where castles are threatened, warriors elsewhere
            return 40.0 + min(threat, 10) * 2 + (5 if cls == want else 0)
        if k == "march":
            src, dst = t
            value = 10.0 + 10 * self._settle_value(view, me, dst)
            if castle[src] == me and sum(units[src]) == 1 and self._enemy_pressure(view, me, src):
                value -= 20  # do not leave a threatened castle empty
            if castle[dst] == me:
                value += 5 if self._enemy_pressure(view, me, dst) else -8
            return value
        if k == "units":
            src, dst = view["pending"][1], view["pending"][2]
            n: int = sum(t)
            if self._settle_value(view, me, dst) and castle[src] == me:
                return 20.0 - abs(n - 1) * 5 + int(t[0])  # one settler, a warrior if possible
            return 10.0 + int(n)
        if k in ("onward", "halt"):
            return 15.0 + (10 * self._settle_value(view, me, t[0]) if k == "onward" else 0)
        if k == "melee":
            src, dst = t
            mine = sum(b * n for b, n in zip(ATTACK_BASE, units[src], strict=True)) + 1
            theirs = self._defence(view, dst) if occ[dst] not in (-1, me) else 0
            if mine <= theirs:
                return -5.0
            value = 30.0 + (mine - theirs)
            if castle[dst] not in (-1, me) and castle[dst] in view["factions"]:
                value += 25  # a castle to destroy
            return float(value)
        if k == "ranged":
            src, dst = t
            return 20.0 + sum(units[src]) * 3 if occ[src] == me else 5.0
        if k == "summon":
            c, j = t
            cr = C.creatures[c]
            presence = C.junctions[j]
            aura = sum(units[r][cr.cls] for r in presence if occ[r] == me)
            fights = sum(1 for m in view["melee"] if m[2] in presence or m[3] in presence)
            if cr.ability == "build" and builds.intersection(presence):
                # Raise walls builds where a plain build could: the castle and the creature in one action
                return 105.0 + 4 * int(aura)
            return 15.0 + 4 * int(aura) + 6 * fights + (30 if cr.ability == "build" else 0)
        if k == "ability":
            return self._ability(view, me, t)
        if k == "forgo":
            return 10.0
        if k == "support":
            return float(sum(t))
        if k == "lose":
            battle = view["battle"]
            defending = battle and battle[2] == me
            keep = DEFENCE_BASE if defending else ATTACK_BASE
            return -float(sum(b * n for b, n in zip(keep, t, strict=True)))
        if k == "flee":
            # to its own castle, and up to a ranged combat token there if it can (it fights on)
            return 5.0 + (5 if castle[t[0]] == me else 0) + (2 if len(t) == 3 else 0)
        if k == "advance":
            dst = view["battle"][4]
            n = sum(t)
            if castle[dst] not in (-1, me) and castle[dst] in view["factions"]:
                return 50.0 + int(n)  # destroy the castle
            if n == 0:
                return 5.0
            return 8.0 + 3 * self._settle_value(view, me, dst) - int(n)
        if k in ("accept", "consent"):
            return 1.0
        if a == CANCEL:
            return -50.0
        if k == "pass":
            return 0.0
        return -1.0
