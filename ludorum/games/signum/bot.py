"""The heuristic bot: plays from its view only (the JSON a client receives) and the legal actions.

It develops its City while that pays, brings characters in, gives its hero relics, focuses the enemy
hero (melee, shots and spells go to the hero first, then to the weakest enemy), shoots whenever it can
and keeps its own hero back while it is badly wounded.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ludorum.engine import CANCEL, Action
from ludorum.engine.bots import ViewBot
from ludorum.games.signum import battlefield as bf
from ludorum.games.signum.content import base_content
from ludorum.games.signum.turn import ENTRY_X

CARDS = base_content().cards
ATTACKS = ("strike", "shoot", "magic_shot", "melee", "control")


@dataclass(frozen=True, slots=True)
class Style:
    """The thresholds the heuristic plays by; the defaults are the ``heuristic`` bot's own play (every
    balance figure rests on it), other values make the search's guide (:data:`GUIDE_STYLE`)."""

    hero_waits: int = 12
    """Before this turn the hero does not advance (it still attacks what is in reach)."""
    hero_careful: int = 5
    """With this much health left or less the hero does not advance."""
    hero_retreats: int = 3
    """With this much health left or less the hero steps away instead of attacking."""
    hero_guards: int = 4
    """With this much health left or less the hero keeps half its dice for defence in melee."""
    builds_until: int = 40
    """From this turn on no more buildings."""
    reserve: int = 2
    """Prosperity kept in hand after a building."""
    guarded: float = 0.05
    """What a building that heals or armours the hero adds to its income per prosperity."""
    armed: float = 0.0
    """What a building that strengthens the hero adds to its income per prosperity."""
    tactics_above: int = 6
    """A tactic is set face down only with more prosperity than this."""


GUIDE_STYLE = Style(hero_guards=10**6, builds_until=10**6, reserve=0, guarded=0.2)
"""The style that guides Signum's ``hard`` and ``expert`` search (``Evaluation.guide``): the hero always
keeps half its dice for defence in melee, the City is built all game long down to the last prosperity, and
a building that heals or armours the hero counts 0.2 more income per prosperity (a Temple beats nothing, a
City Walls beats a Farm).  Chosen by heuristic-against-heuristic games, which cost a fifth of a second
each (docs/agents.md › Signum): 421 of 600 fresh games against the ``heuristic`` bot, seats alternating
(0.70), where the ``heuristic`` itself won 325 of the same seeds and seats."""


THRIFTY_STYLE = Style(reserve=0)
"""The style that guides Signum's ``medium`` search (``Evaluation.guides["thrifty"]``): the heuristic that
keeps no prosperity in hand after a building, the one change of :data:`GUIDE_STYLE` that measured best on
its own — 0.60 of 600 heuristic-against-heuristic games against the ``heuristic`` bot, where
:data:`GUIDE_STYLE` won 0.575 of 600 against this one (docs/agents.md › Signum: levels by their guide)."""


CAREFUL_STYLE = Style(guarded=0.2)
"""The style that guides Signum's ``easy`` search (``Evaluation.guides["careful"]``): the heuristic that
counts a building healing or armouring the hero 0.2 more income per prosperity, :data:`GUIDE_STYLE`'s
building choice alone (docs/agents.md › Signum's ``easy``, 3 December 2026)."""


class HeuristicBot(ViewBot):
    """A sensible, fast player for Legends of Signum (its :class:`Style` sets its thresholds)."""

    def __init__(self, style: Style | None = None) -> None:
        self.style = style or Style()

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], seat: int, rng: random.Random
    ) -> Action:
        """Pick one of ``legal`` from what ``seat`` sees."""
        if len(legal) == 1:
            return legal[0]
        me = _Seen(view, seat, self.style)
        kinds = {a.kind for a in legal}
        if "split" in kinds:
            return me.split(legal)
        if "first" in kinds:
            return Action("first", (seat,))
        if "stack" in kinds:
            return min(legal, key=lambda a: (-CARDS[str(a.args[0])].income, CARDS[str(a.args[0])].cost))
        if "build" in kinds or view["phase"] == "build":
            return me.build(legal)
        if view["phase"] == "terrain":
            return Action("pass")
        if "clink" in kinds:
            return Action("clink", (legal[0].args[0], view["prosperity"][seat] > 8))
        if "pursue" in kinds:
            return me.best_target(legal, "pursue") or Action("done")
        if view["acting"] >= 0:
            return me.act(legal, rng)
        return me.main(legal, rng)


class _Seen:
    """What the bot reads from its view."""

    def __init__(self, view: Mapping[str, Any], seat: int, style: Style) -> None:
        self.view = view
        self.style = style
        self.seat = seat
        self.models = {m["uid"]: m for m in view["models"]}
        self.hero_card = view["heroes"][seat]
        self.teams = "teams" in view["config"]["variants"]
        self.my_hero = next(
            (m for m in view["models"] if m["card"] == self.hero_card and m["owner"] == seat), None
        )
        foes = [
            m
            for m in view["models"]
            if m["card"] == view["heroes"][m["owner"]] and self.hostile(m["owner"], seat)
        ]
        here = self.my_hero or {"x": 30.0, "y": 30.0}
        self.enemy_hero = min(
            foes, key=lambda m: math.hypot(m["x"] - here["x"], m["y"] - here["y"]), default=None
        )

    def hostile(self, a: int, b: int) -> bool:
        """Whether two seats are enemies."""
        return a != b and not (self.teams and a % 2 == b % 2)

    @staticmethod
    def side(m: Mapping[str, Any]) -> int:
        """The seat commanding a model now."""
        owner: int = m["owner"] if m["controller"] < 0 else m["controller"]
        return owner

    @staticmethod
    def health_left(m: Mapping[str, Any]) -> int:
        """Wounds a model can still take."""
        wounds: int = m["wounds"]
        return CARDS[m["card"]].health + sum(CARDS[r].health for r in m["relics"]) - wounds

    def enemies(self) -> list[Mapping[str, Any]]:
        """Every enemy model."""
        return [m for m in self.models.values() if self.hostile(self.side(m), self.seat)]

    # -- phases -----------------------------------------------------------------------------------------

    def build(self, legal: Sequence[Action]) -> Action:
        """Build the best income per prosperity while the game is young; keep a little in hand."""
        money = self.view["prosperity"][self.seat]
        best, score = Action("pass"), 0.0
        for a in legal:
            if a.kind != "build":
                continue
            c = CARDS[str(a.args[0])]
            value = c.income / max(1, c.cost) + self.bonus(c.effect)
            young = self.view["turn"] < self.style.builds_until
            if money - c.cost >= self.style.reserve and value > score and young:
                best, score = a, value
        return best

    def bonus(self, effect: str) -> float:
        """What a building's effect adds to its income per prosperity."""
        if effect in ("heal_hero", "hero_armour"):
            return self.style.guarded
        return self.style.armed if effect == "hero_strength" else 0.0

    def main(self, legal: Sequence[Action], rng: random.Random) -> Action:
        """Between activations: cards first, then the creatures, then end the turn."""
        money = self.view["prosperity"][self.seat]
        best: tuple[float, Action] | None = None
        for a in legal:
            score = self.card_score(a, money)
            if score > 0 and (best is None or score > best[0]):
                best = (score, a)
        if best is not None:
            return best[1]
        acts = [a for a in legal if a.kind == "activate"]
        if acts:
            # Shooters and the hero last, so that fighters clear the way.
            return min(acts, key=lambda a: self.order(self.models[int(a.args[0])]))  # type: ignore[arg-type]
        return Action("end_turn")

    def order(self, m: Mapping[str, Any]) -> int:
        """Fighters act first, shooters next, the hero last."""
        if m["card"] == self.hero_card:
            return 2
        return 1 if "shot" in CARDS[m["card"]].propmap else 0

    def card_score(self, a: Action, money: int) -> float:
        """How much the bot wants to play this card now (0: not at all)."""
        if a.kind not in ("recruit", "cast", "equip", "set"):
            return 0.0
        c = CARDS[str(a.args[0])]
        if a.kind == "recruit":
            along = ENTRY_X[int(a.args[1])]  # type: ignore[arg-type]
            # The spots run along the seat's own edge: x on the south and north edges (P1, P2), y on the
            # west and east ones (P3, P4); enter nearest the target along that edge.
            axis = "x" if self.seat < 2 else "y"
            aim = self.enemy_hero[axis] if self.enemy_hero else 30.0
            return 5.0 + c.cost - abs(along - aim) / 20.0
        if a.kind == "cast":
            target = self.models.get(a.args[1]) if isinstance(a.args[1], int) else None
            if c.effect == "bolt" and target is not None:
                return 8.0 + (4.0 if target is self.enemy_hero else 0.0)
            if c.effect == "mend" and target is not None:
                return 6.0 if target is self.my_hero else 2.0
            if c.effect == "tithe":
                return 7.0 if money + c.amount >= 51 else 1.0
            if c.effect == "insight":
                return 1.5
            return 1.0 if target is not None and target["activated"] is False else 0.0
        if a.kind == "equip":
            return 4.0
        return 1.0 if money > self.style.tactics_above else 0.0

    # -- a creature's activation ----------------------------------------------------------------------

    def act(self, legal: Sequence[Action], rng: random.Random) -> Action:
        """The acting creature's choice: heal, attack the best target, keep the hero safe, advance."""
        m = self.models[self.view["acting"]]
        hero = m["card"] == self.hero_card
        for kind in ("heal",):
            heals = [a for a in legal if a.kind == kind]
            if heals:
                return max(heals, key=lambda a: self.models[a.args[0]]["wounds"])
        attack = self.best_target(legal, "strike", "shoot", "magic_shot", "melee", "control")
        style = self.style
        if hero and self.health_left(m) <= style.hero_retreats:
            retreat = self.retreat(m, legal)
            if retreat is not None:
                return retreat
        if attack is not None:
            return attack
        if self.view["stage"] >= 1:
            return Action("done")
        if hero and (self.health_left(m) <= style.hero_careful or self.view["turn"] < style.hero_waits):
            return Action("done")
        if "shot" in CARDS[m["card"]].propmap or "magic_shot" in CARDS[m["card"]].propmap:
            return self.advance(m, legal, keep=bf.L) or Action("done")
        charge = self.best_target(legal, "contact")
        if charge is not None:
            return charge
        return self.advance(m, legal, keep=0.0) or Action("done")

    def best_target(self, legal: Sequence[Action], *kinds: str) -> Action | None:
        """The enemy hero first, then the enemy with the fewest wounds left."""
        best: tuple[float, Action] | None = None
        for a in legal:
            if a.kind not in kinds:
                continue
            t = self.models.get(a.args[0])
            if t is None or not self.hostile(self.side(t), self.seat):
                continue
            score = 100.0 if t is self.enemy_hero else 50.0 - self.health_left(t)
            score += {"strike": 3, "shoot": 2, "magic_shot": 2, "melee": 1}.get(a.kind, 0)
            if a.kind == "control":
                score -= 20
            if best is None or score > best[0]:
                best = (score, a)
        return best[1] if best else None

    def advance(self, m: Mapping[str, Any], legal: Sequence[Action], keep: float) -> Action | None:
        """The move that brings it closest to the enemy hero, stopping ``keep`` short."""
        foes = self.enemies()
        goal = self.enemy_hero or (foes[0] if foes else None)
        if goal is None:
            return None
        best: tuple[float, Action] | None = None
        now = math.hypot(goal["x"] - m["x"], goal["y"] - m["y"])
        for a in legal:
            if a.kind != "move":
                continue
            ux, uy = bf.DIRECTIONS[int(a.args[0])]  # type: ignore[arg-type]
            d = int(a.args[1]) / 10.0  # type: ignore[arg-type]
            x, y = m["x"] + ux * d, m["y"] + uy * d
            dist = math.hypot(goal["x"] - x, goal["y"] - y)
            score = abs(dist - keep - 5.0)
            if best is None or score < best[0]:
                best = (score, a)
        if best is None or (keep and now <= keep + 8.0):
            return None
        return best[1]

    def retreat(self, m: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        """The move or run that takes the hero farthest from the enemies."""
        foes = self.enemies()
        best: tuple[float, Action] | None = None
        for a in legal:
            if a.kind not in ("move", "run"):
                continue
            ux, uy = bf.DIRECTIONS[int(a.args[0])]  # type: ignore[arg-type]
            d = int(a.args[1]) / 10.0 if a.kind == "move" else 10.0  # type: ignore[arg-type]
            x, y = m["x"] + ux * d, m["y"] + uy * d
            score = min((math.hypot(f["x"] - x, f["y"] - y) for f in foes), default=99.0)
            if best is None or score > best[0]:
                best = (score, a)
        return best[1] if best else None

    def split(self, legal: Sequence[Action]) -> Action:
        """Attackers and healthy fighters strike with everything; a wounded hero keeps half back."""
        options = sorted(int(a.args[0]) for a in legal)  # type: ignore[arg-type]
        pending = self.view["pending"][-1]
        mine = (
            self.models[pending["actor"]] if self.side(self.models[pending["actor"]]) == self.seat else None
        )
        fighter = mine or self.models[pending["target"]]
        if fighter["card"] == self.hero_card and self.health_left(fighter) <= self.style.hero_guards:
            want = options[len(options) // 2]
        else:
            want = options[-1]
        return Action("split", (want,))


def guide_bot() -> HeuristicBot:
    """The heuristic in :data:`GUIDE_STYLE`: the search levels' guide (``guide = "game"``)."""
    return HeuristicBot(GUIDE_STYLE)


def careful_bot() -> HeuristicBot:
    """The heuristic in :data:`CAREFUL_STYLE`: ``easy``'s guide (``guide = "game:careful"``)."""
    return HeuristicBot(CAREFUL_STYLE)


def thrifty_bot() -> HeuristicBot:
    """The heuristic in :data:`THRIFTY_STYLE`: ``medium``'s guide (``guide = "game:thrifty"``)."""
    return HeuristicBot(THRIFTY_STYLE)


_ = CANCEL
