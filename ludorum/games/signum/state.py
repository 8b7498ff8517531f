"""The state of a game of Legends of Signum: zones (Chapter 3) and what is pending.

Zones (Rulebook › 11 Glossary): the Battlefield (models), the City (buildings), the Graveyard, the Hand
and the Battle deck.  Secrets: each Hand and the face-down tactics are seen by their owner only; the
order of the battle decks by nobody (only their sizes are public).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from ludorum.engine import Action, GameState, hidden, per_seat
from ludorum.engine.i18n import T, Text
from ludorum.engine.pickling import by_fields
from ludorum.games.signum.dice import Roll, Rolled


@functools.cache
def player(seat: int) -> Text:
    """A seat as the log and the labels name it: ``"P1"`` (made once per seat: texts are immutable)."""
    return T("P{n}", n=seat + 1)


@by_fields
@dataclass(frozen=True, slots=True)
class Model:
    """A creature on the Battlefield: its card, owner, position (cm), wounds and turn flags."""

    uid: int
    card: str
    owner: int
    x: float
    y: float
    wounds: int = 0
    activated: bool = False
    fresh: bool = False
    hidden: bool = False
    relics: tuple[str, ...] = ()
    granted: tuple[str, ...] = ()
    controller: int = -1
    pursuits: int = 0
    hit_by: int = -1

    def side(self) -> int:
        """The seat that commands it now (Control X may lend it to the opponent until end of turn)."""
        return self.owner if self.controller < 0 else self.controller

    def but(self, **changes: Any) -> Model:
        """A copy with some fields changed (replaced below by the generated :func:`_make_but`)."""
        raise NotImplementedError  # pragma: no cover


_MODEL_FIELDS = tuple(f.name for f in fields(Model))


def _make_but() -> Any:
    """Generate ``Model.but``: one line per field, each set through its slot (the hottest copy of the
    rules: every move, wound and turn's refresh makes one; a loop over the fields cost twice as much)."""
    lines = ["def but(self, **changes):", "    new = _new(Model)", "    get = changes.get"]
    lines += [f"    _set_{name}(new, get({name!r}, self.{name}))" for name in _MODEL_FIELDS]
    lines.append("    return new")
    namespace: dict[str, Any] = {"_new": object.__new__, "Model": Model}
    namespace.update({f"_set_{name}": getattr(Model, name).__set__ for name in _MODEL_FIELDS})
    exec("\n".join(lines), namespace)
    fn = namespace["but"]
    fn.__doc__ = "A copy with some fields changed."
    return fn


Model.but = _make_but()  # type: ignore[method-assign]


@by_fields
@dataclass(frozen=True, slots=True)
class Placed:
    """A terrain card on the Battlefield."""

    card: str
    x: float
    y: float


@by_fields
@dataclass(frozen=True, slots=True)
class Pending:
    """An action waiting for dice or for a decision (a melee's dice split, a pursuit, a backstab).

    ``kind`` names the procedure; ``actor`` and ``target`` are model uids; ``data`` holds small numbers
    the procedure keeps between steps; ``x``/``y`` a destination; ``card`` a spell or property.
    """

    kind: str
    actor: int = -1
    target: int = -1
    data: tuple[int, ...] = ()
    x: float = 0.0
    y: float = 0.0
    card: str = ""


_found: tuple[Any, int, Any] = (None, -1, None)
"""The models tuple :meth:`SignumState.find` searched last (held, so its identity stays its own), the
uid asked and the model found."""


@dataclass(slots=True)
class SignumState(GameState):
    """A whole game: every zone of both players, the turn and what is pending."""

    phase: str
    turn: int
    active: int
    first: int
    prosperity: tuple[int, ...]
    heroes: tuple[str, ...]
    models: tuple[Model, ...]
    next_uid: int
    terrain: tuple[Placed, ...]
    terrain_hands: tuple[tuple[str, ...], ...]
    city: tuple[tuple[str, ...], ...]
    graveyard: tuple[tuple[str, ...], ...]
    deck_sizes: tuple[int, ...]
    kills: tuple[int, ...]
    overlong: tuple[int, ...]
    built: bool
    building_hands: tuple[tuple[str, ...], ...]
    out: tuple[bool, ...]
    hands: tuple[tuple[str, ...], ...] = per_seat()
    tactics: tuple[tuple[str, ...], ...] = per_seat()
    building_decks: tuple[tuple[str, ...], ...] = per_seat()
    decks: tuple[tuple[str, ...], ...] = hidden()
    acting: int = -1
    stage: int = 0
    pending: tuple[Pending, ...] = ()
    rolls: tuple[Roll, ...] = ()
    rolled: tuple[Rolled, ...] = ()
    coins_due: tuple[int, ...] = ()
    reached: tuple[int, ...] = ()
    """The seats a single gain lifted to 51 prosperity first: the game is decided at that moment (Rulebook
    › 8) and :func:`victory.check_end` closes it when the step is over."""
    winner: int = -1
    reason: str = ""
    log: tuple[str, ...] = ()

    def model(self, uid: int) -> Model:
        """The model with this uid (raises ``KeyError`` if it has left the Battlefield)."""
        m = self.find(uid)
        if m is None:
            raise KeyError(uid)
        return m

    def find(self, uid: int) -> Model | None:
        """The model with this uid, or ``None`` (the last answer is remembered with the models searched:
        a step asks for the acting creature several times, from its legal list to its move)."""
        global _found
        last = _found
        models = self.models
        if last[0] is models and last[1] == uid:
            return last[2]  # type: ignore[no-any-return]
        found = None
        for m in models:
            if m.uid == uid:
                found = m
                break
        _found = (models, uid, found)  # rebound whole: see signum.game._cache
        return found

    def hero_of(self, seat: int) -> Model | None:
        """The seat's hero on the Battlefield, or ``None`` once it has fallen."""
        hero = self.heroes[seat]
        for m in self.models:
            if m.owner == seat and m.card == hero:
                return m
        return None

    @property
    def players(self) -> int:
        """How many seats play."""
        return self.config.players

    def hostile(self, a: int, b: int) -> bool:
        """Whether seats ``a`` and ``b`` are enemies (partners in the 2-against-2 game are not)."""
        if a == b:
            return False
        return not (a % 2 == b % 2 and "teams" in self.config.variants)

    def opponents(self, seat: int) -> list[int]:
        """The seats still in the game that are the seat's enemies, in turn order from the seat (designed:
        effects that one event triggers for several players resolve in that order)."""
        n = self.config.players
        others = ((seat + k) % n for k in range(1, n))
        return [p for p in others if self.hostile(seat, p) and not self.out[p]]

    def turn_rank(self, seat: int) -> int:
        """How many places after the active player the seat plays (0: the active player).  Designed: effects
        that trigger at the same moment resolve the active player's first, then in turn order."""
        return (seat - self.active) % self.config.players

    def put(self, model: Model) -> None:
        """Replace the model with the same uid."""
        models, uid = self.models, model.uid
        for i, m in enumerate(models):
            if m.uid == uid:  # uids are dealt once: found, it is the only one
                self.models = (*models[:i], model, *models[i + 1 :])
                return

    def add_prosperity(self, seat: int, amount: int) -> None:
        """Change a seat's prosperity (never below 0)."""
        p = list(self.prosperity)
        p[seat] = max(0, p[seat] + amount)
        self.prosperity = tuple(p)

    def say(self, text: str) -> None:
        """Add a line to the public log (the last 12 lines are kept); ``text`` is a ``T(...)`` message, so
        every reader reads it in their language."""
        self.log = (*self.log[-11:], text)


new_action: Callable[[tuple[str, tuple[Any, ...]]], Action] = functools.partial(tuple.__new__, Action)
"""``new_action((kind, args))`` is ``Action(kind, args)`` without the NamedTuple's Python-level
``__new__``: the legal lists build tens of thousands of actions a second."""


def set_item(t: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    """A copy of tuple ``t`` with item ``i`` replaced."""
    return (*t[:i], value, *t[i + 1 :])
